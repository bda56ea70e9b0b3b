package monitoring

import (
	"github.com/Masterminds/semver/v3"
	"github.com/etcdshapes/etcdshapes/apis/cozystack/v1alpha1"
	"github.com/etcdshapes/etcdshapes/apis/victoriametrics/v1beta1"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	monv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DefaultChartVersion is the WorkloadMonitor version when the caller does not
// say which chart version renders it, and the version of a generated chart.
const DefaultChartVersion = "0.0.0"

// ValidateChartVersion checks a chart version as Helm checks Chart.yaml's
// (semver.NewVersion of github.com/Masterminds/semver/v3, Helm's own
// library), so that a version the library accepts is one Helm accepts. ""
// is accepted: it means DefaultChartVersion. field names the version in
// the caller's terms.
func ValidateChartVersion(field, v string) error {
	if v == "" {
		return nil
	}
	if _, err := semver.NewVersion(v); err != nil {
		return invalid.Errorf(field, v, "must be a chart version as Helm reads it (SemVer 2, e.g. 1.2.3 or 1.2.3-rc.1): %v", err)
	}
	return nil
}

// WorkloadMonitor builds the dashboard's monitor of the members: replicas
// must run, a quorum (replicas/2+1) keeps the cluster operational. version
// is the calling chart's version ("" means DefaultChartVersion); replicas 0
// means etcd.DefaultReplicas (etcd.ReplicasOrDefault). Bad names, replicas and version are refused
// together (see invalid.List), in that order.
func WorkloadMonitor(n naming.Names, replicas int32, version string) (*v1alpha1.WorkloadMonitor, error) {
	var c invalid.Collector
	c.Add(n.Validate())
	replicas = etcd.ReplicasOrDefault(replicas)
	if replicas < 1 {
		c.Addf("replicas", replicas, "must be at least 1")
	}
	c.Add(ValidateChartVersion("version", version))
	if err := c.Err(); err != nil {
		return nil, err
	}
	if version == "" {
		version = DefaultChartVersion
	}
	quorum := replicas/2 + 1
	return &v1alpha1.WorkloadMonitor{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha1.APIVersion, Kind: "WorkloadMonitor"},
		ObjectMeta: metav1.ObjectMeta{Name: n.Cluster, Namespace: n.Namespace},
		Spec: v1alpha1.WorkloadMonitorSpec{
			Replicas:    &replicas,
			MinReplicas: &quorum,
			Kind:        "etcd",
			Type:        "etcd",
			Selector: map[string]string{
				etcd.InstanceLabel:             n.Cluster,
				"app.kubernetes.io/managed-by": "etcd-operator",
				"app.kubernetes.io/name":       "etcd",
			},
			Version: version,
		},
	}, nil
}

// PodScrape builds the VMPodScrape of the members' metrics port. It selects
// app.kubernetes.io/instance=<name> for both callers: selecting
// app.kubernetes.io/name=etcd would also scrape every tenant cluster's etcd
// in the namespace.
func PodScrape(n naming.Names) (*v1beta1.VMPodScrape, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	return &v1beta1.VMPodScrape{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1beta1.APIVersion, Kind: "VMPodScrape"},
		ObjectMeta: metav1.ObjectMeta{Name: n.PodScrape(), Namespace: n.Namespace},
		Spec: v1beta1.VMPodScrapeSpec{
			PodMetricsEndpoints: []v1beta1.PodMetricsEndpoint{{Port: "metrics", Scheme: "http"}},
			Selector:            *etcd.MemberSelector(n),
		},
	}, nil
}

// PrometheusRule builds the etcd chart's alerting rules. Their label
// matchers select every job whose name contains "etcd", so one rule set per
// namespace covers the shared etcd and the tenant clusters' etcds alike.
func PrometheusRule(n naming.Names) (*monv1.PrometheusRule, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	return &monv1.PrometheusRule{
		TypeMeta:   metav1.TypeMeta{APIVersion: "monitoring.coreos.com/v1", Kind: monv1.PrometheusRuleKind},
		ObjectMeta: metav1.ObjectMeta{Name: n.PrometheusRule(), Namespace: n.Namespace},
		Spec: monv1.PrometheusRuleSpec{Groups: []monv1.RuleGroup{{
			Name:  "etcd",
			Rules: etcdAlerts(),
		}}},
	}, nil
}

func ptr[T any](v T) *T { return &v }

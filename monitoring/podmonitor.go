package monitoring

import (
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	monv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PodMonitorAPIVersion is the apiVersion of the PodMonitor.
const PodMonitorAPIVersion = "monitoring.coreos.com/v1"

// PodMonitor builds the prometheus-operator PodMonitor of the members'
// metrics port: the alternative to the VMPodScrape (PodScrape) for
// platforms that run Prometheus rather than VictoriaMetrics. It scrapes
// what the VMPodScrape scrapes, with the same selector rule:
// app.kubernetes.io/instance=<name>, never app.kubernetes.io/name=etcd,
// which would also scrape every tenant cluster's etcd in the namespace.
//
// Where VictoriaMetrics' operator runs, it converts PodMonitors into
// VMPodScrapes by default, so a PodMonitor beside the VMPodScrape scrapes
// every member twice. The per-cluster stack renders each only where its
// API is served; the etcd chart renders its VMPodScrape always, and the
// PodMonitor too where the PodMonitor's API is served. The PodMonitor's
// name (naming.Names.PodMonitor) differs from the VMPodScrape's so that
// such a conversion never takes the VMPodScrape over.
//
// Prometheus labels the series job="<namespace>/<name>-pod-monitor",
// which the PrometheusRule's job=~".*etcd.*" matchers match.
func PodMonitor(n naming.Names) (*monv1.PodMonitor, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	port := "metrics"
	scheme := monv1.Scheme("http")
	return &monv1.PodMonitor{
		TypeMeta:   metav1.TypeMeta{APIVersion: PodMonitorAPIVersion, Kind: monv1.PodMonitorsKind},
		ObjectMeta: metav1.ObjectMeta{Name: n.PodMonitor(), Namespace: n.Namespace},
		Spec: monv1.PodMonitorSpec{
			PodMetricsEndpoints: []monv1.PodMetricsEndpoint{{Port: &port, Scheme: &scheme}},
			Selector:            *etcd.MemberSelector(n),
			// The members' own namespace, said outright: an empty
			// selector means the same, but would go out as {} (the
			// struct has no zero form in JSON), a field meaning nothing.
			NamespaceSelector: monv1.NamespaceSelector{MatchNames: []string{n.Namespace}},
		},
	}, nil
}

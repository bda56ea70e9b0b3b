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
// Render one of the two, not both: VictoriaMetrics' operator converts
// PodMonitors into VMPodScrapes by default, so where both APIs are served
// both would scrape every member. The PodMonitor's name
// (naming.Names.PodMonitor) differs from the VMPodScrape's so that such a
// conversion never takes the VMPodScrape over.
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
		},
	}, nil
}

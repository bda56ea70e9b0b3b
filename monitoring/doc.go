// Package monitoring builds what watches an etcd cluster: the Cozystack
// WorkloadMonitor (the dashboard's view of its members), the VictoriaMetrics
// VMPodScrape of its metrics port and, for the etcd chart, the
// PrometheusRule with the upstream etcd alerts.
//
// For platforms beyond the stacks' defaults it also builds the
// prometheus-operator PodMonitor (the VMPodScrape's alternative where
// Prometheus runs rather than VictoriaMetrics; render one of the two) and
// a grafana-operator GrafanaDashboard of one cluster (Dashboard, and its
// Grafana model alone, DashboardJSON), whose panels cover what the alerts
// watch. The stacks render neither yet; callers render them where the
// platform serves their API (monitoring.coreos.com/v1 PodMonitor,
// grafana.integreatly.org/v1beta1 GrafanaDashboard).
package monitoring

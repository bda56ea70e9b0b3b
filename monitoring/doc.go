// Package monitoring builds what watches an etcd cluster: the Cozystack
// WorkloadMonitor (the dashboard's view of its members), the VictoriaMetrics
// VMPodScrape of its metrics port and, for the etcd chart, the
// PrometheusRule with the upstream etcd alerts.
//
// For platforms beyond the stacks' defaults it also builds the
// prometheus-operator PodMonitor (the VMPodScrape's counterpart where
// Prometheus runs rather than VictoriaMetrics) and a grafana-operator
// GrafanaDashboard of one cluster (Dashboard, and its Grafana model alone,
// DashboardJSON), whose panels cover what the alerts watch. Both stacks
// render them only where the platform serves their API
// (monitoring.coreos.com/v1 PodMonitor, grafana.integreatly.org/v1beta1
// GrafanaDashboard); the etcd chart renders its VMPodScrape always, so it
// renders both scrapes where the PodMonitor's API is served.
package monitoring

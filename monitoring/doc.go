// Package monitoring builds what watches an etcd cluster: the Cozystack
// WorkloadMonitor (the dashboard's view of its members), the VictoriaMetrics
// VMPodScrape of its metrics port and, for the etcd chart, the
// PrometheusRule with the upstream etcd alerts.
package monitoring

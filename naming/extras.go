package naming

// Names of the objects that watch and check an etcd beyond the stacks: the
// Prometheus PodMonitor, the Grafana dashboard and the performance check.

// Limits and the hash scheme of the dashboard UID. Released with the
// scheme; never change it.
const (
	// MaxDashboardUID is Grafana's limit for a dashboard UID (the
	// GrafanaDashboard CRD's spec.uid: at most 40 letters, digits, "-"
	// and "_").
	MaxDashboardUID = 40
	// DashboardUIDKeep is the readable part a long UID keeps: 31 + "-" +
	// 8 hex = 40.
	DashboardUIDKeep = 31

	checkSuffix = "-check"
)

// PodMonitor is the prometheus-operator PodMonitor of the members'
// metrics, "<name>-pod-monitor". It is not the VMPodScrape's name:
// VictoriaMetrics' operator converts a PodMonitor into a VMPodScrape of
// the PodMonitor's name, which must not take over the VMPodScrape.
func (n Names) PodMonitor() string { return n.Cluster + "-pod-monitor" }

// GrafanaDashboard is the grafana-operator GrafanaDashboard of the
// cluster, "<name>-grafana-dashboard".
func (n Names) GrafanaDashboard() string { return n.Cluster + "-grafana-dashboard" }

// DashboardUID is the Grafana UID of the cluster's dashboard, unique per
// Grafana across namespaces: "<namespace>_<name>" ("_" is in neither, so
// the pair reads one way), hashed down to MaxDashboardUID characters when
// longer (the first DashboardUIDKeep characters, "-" and the first 8 hex
// digits of its SHA-256).
func (n Names) DashboardUID() string {
	return hashTruncate(n.Namespace+"_"+n.Cluster, MaxDashboardUID, DashboardUIDKeep, "")
}

// CheckJob is the performance check Job, "<name>-check": at most 62
// characters for a 56-character cluster name, within the Job limit of 63,
// so it is never hashed.
func (n Names) CheckJob() string { return n.Cluster + checkSuffix }

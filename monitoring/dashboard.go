package monitoring

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"

	grafanav1beta1 "github.com/etcdshapes/etcdshapes/apis/grafana/v1beta1"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/labelselector"
	"github.com/etcdshapes/etcdshapes/internal/plainjson"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Dashboard settings.
const (
	// DashboardInstanceLabel and DashboardInstanceValue are the default
	// instanceSelector, grafana-operator's documented convention for the
	// Grafana instances that import dashboards.
	DashboardInstanceLabel = "dashboards"
	DashboardInstanceValue = "grafana"
	// DashboardSchemaVersion is the Grafana dashboard schema the model is
	// written in (Grafana 10.4 and later read it, and newer ones migrate it).
	DashboardSchemaVersion = 39
	// DashboardTag tags every dashboard the library builds.
	DashboardTag = "etcdshapes"

	// maxFolder bounds a folder title.
	maxFolder = 255
)

// DashboardOptions are what a caller varies about the dashboard. The zero
// value means the documented defaults.
type DashboardOptions struct {
	// InstanceSelector selects the Grafana instances that import the
	// dashboard; nil means DashboardInstanceLabel=DashboardInstanceValue.
	InstanceSelector *metav1.LabelSelector
	// AllowCrossNamespaceImport lets Grafana instances in other namespaces
	// import the dashboard: set it where the tenant's Grafana runs in
	// another namespace than its etcd. grafana-operator refuses to turn it
	// off again without deleting the dashboard first. An empty
	// InstanceSelector is refused with it, since it would import the
	// dashboard into every Grafana of the cluster, other tenants' included.
	AllowCrossNamespaceImport bool
	// Folder is the title of the Grafana folder the dashboard goes in;
	// empty means Grafana's default folder.
	Folder string
	// Replicas is the member count, for the colours of the "Members up"
	// panel (red below quorum, orange below Replicas); 0 means
	// etcd.DefaultReplicas.
	Replicas int32
}

// Dashboard builds the grafana-operator GrafanaDashboard of one etcd
// cluster: its members, leader, Raft proposals, database size against the
// quota, disk and peer latencies, gRPC traffic and errors, and the last
// success of the defrag and snapshot CronJobs. Every alert of
// PrometheusRule that etcd 3.6 can fire has a panel on the metric it
// watches. The model is DashboardJSON's.
func Dashboard(n naming.Names, o DashboardOptions) (*grafanav1beta1.GrafanaDashboard, error) {
	model, err := DashboardJSON(n, o)
	if err != nil {
		return nil, err
	}
	sel := o.InstanceSelector
	if sel == nil {
		sel = &metav1.LabelSelector{MatchLabels: map[string]string{DashboardInstanceLabel: DashboardInstanceValue}}
	} else {
		sel = sel.DeepCopy()
	}
	return &grafanav1beta1.GrafanaDashboard{
		TypeMeta:   metav1.TypeMeta{APIVersion: grafanav1beta1.APIVersion, Kind: "GrafanaDashboard"},
		ObjectMeta: metav1.ObjectMeta{Name: n.GrafanaDashboard(), Namespace: n.Namespace},
		Spec: grafanav1beta1.GrafanaDashboardSpec{
			InstanceSelector:          sel,
			AllowCrossNamespaceImport: o.AllowCrossNamespaceImport,
			Folder:                    o.Folder,
			UID:                       n.DashboardUID(),
			JSON:                      string(model),
		},
	}, nil
}

// DashboardJSON is the Grafana dashboard model of Dashboard, for callers
// that provision dashboards another way (a ConfigMap for Grafana's
// sidecar, Grafana's API). It is deterministic: keys sorted, panels in a
// fixed order with fixed ids and positions. Its queries read the Prometheus
// data source the dashboard's "datasource" variable picks, and select the
// cluster's members by namespace and pod name.
//
// The names, the replicas, the instance selector and the folder are
// checked each on its own: bad inputs return every refusal (see
// invalid.List) in that order, as Dashboard does.
func DashboardJSON(n naming.Names, o DashboardOptions) ([]byte, error) {
	var c invalid.Collector
	c.Add(n.Validate())
	replicas, err := o.validate()
	c.Add(err)
	if err := c.Err(); err != nil {
		return nil, err
	}
	d := dashboardModel(n, replicas)
	return canonicalJSON(d)
}

// validate returns the replicas to draw and every refusal of o: the
// replicas, each error of the instance selector, the folder. They are
// independent of each other; the folder's own rules give one refusal.
func (o DashboardOptions) validate() (int32, error) {
	var c invalid.Collector
	replicas := etcd.ReplicasOrDefault(o.Replicas)
	if replicas < 1 || replicas > etcd.MaxReplicas {
		c.Addf("replicas", o.Replicas, "must be between 1 and %d", etcd.MaxReplicas)
	}
	if sel := o.InstanceSelector; sel != nil {
		errs := labelselector.Validate(sel, field.NewPath("instanceSelector"))
		c.Add(invalid.FromFieldErrors(errs))
		// An empty selector has no errors of its own; the rule is about
		// what it selects.
		if len(errs) == 0 && o.AllowCrossNamespaceImport && len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0 {
			c.Addf("instanceSelector", map[string]any{}, "must select some Grafana instances when allowCrossNamespaceImport is set: an empty selector imports the dashboard into every Grafana of the cluster, other tenants' included")
		}
	}
	if f := o.Folder; f != "" {
		switch {
		case len(f) > maxFolder:
			c.Addf("folder", f, "must be at most %d bytes", maxFolder)
		case strings.TrimSpace(f) == "":
			c.Addf("folder", f, "must not be blank (leave it empty for Grafana's default folder)")
		case strings.IndexFunc(f, unicode.IsControl) >= 0:
			c.Addf("folder", f, "must not contain control characters")
		}
	}
	if err := c.Err(); err != nil {
		return 0, err
	}
	return replicas, nil
}

// The dashboard model: the part of Grafana's schema the dashboard uses.
// Keys are sorted when the model is printed (canonicalJSON), so the field
// order here does not matter.

type dashboard struct {
	Description   string     `json:"description"`
	Editable      bool       `json:"editable"`
	GraphTooltip  int        `json:"graphTooltip"`
	Panels        []panel    `json:"panels"`
	Refresh       string     `json:"refresh"`
	SchemaVersion int        `json:"schemaVersion"`
	Tags          []string   `json:"tags"`
	Templating    templating `json:"templating"`
	Time          timeRange  `json:"time"`
	Title         string     `json:"title"`
	UID           string     `json:"uid"`
}

type templating struct {
	List []variable `json:"list"`
}

type variable struct {
	Hide    int    `json:"hide"`
	Label   string `json:"label"`
	Name    string `json:"name"`
	Query   string `json:"query"`
	Refresh int    `json:"refresh"`
	Type    string `json:"type"`
}

type timeRange struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type panel struct {
	ID          int          `json:"id"`
	Type        string       `json:"type"`
	Title       string       `json:"title"`
	Description string       `json:"description,omitempty"`
	GridPos     gridPos      `json:"gridPos"`
	Collapsed   *bool        `json:"collapsed,omitempty"`
	Panels      *[]panel     `json:"panels,omitempty"`
	Datasource  *datasource  `json:"datasource,omitempty"`
	FieldConfig *fieldConfig `json:"fieldConfig,omitempty"`
	Options     any          `json:"options,omitempty"`
	Targets     []target     `json:"targets,omitempty"`
}

type gridPos struct {
	H int `json:"h"`
	W int `json:"w"`
	X int `json:"x"`
	Y int `json:"y"`
}

type datasource struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

type target struct {
	Datasource   datasource `json:"datasource"`
	Expr         string     `json:"expr"`
	LegendFormat string     `json:"legendFormat"`
	RefID        string     `json:"refId"`
	Instant      bool       `json:"instant,omitempty"`
}

type fieldConfig struct {
	Defaults  fieldDefaults `json:"defaults"`
	Overrides []any         `json:"overrides"`
}

type fieldDefaults struct {
	Unit       string         `json:"unit,omitempty"`
	Min        *float64       `json:"min,omitempty"`
	Max        *float64       `json:"max,omitempty"`
	Thresholds *thresholds    `json:"thresholds,omitempty"`
	Mappings   []valueMapping `json:"mappings,omitempty"`
	Custom     map[string]any `json:"custom,omitempty"`
}

type thresholds struct {
	Mode  string `json:"mode"`
	Steps []step `json:"steps"`
}

// step is a threshold step; the first has no value (Grafana's "Base").
type step struct {
	Color string   `json:"color"`
	Value *float64 `json:"value"`
}

type valueMapping struct {
	Type    string                  `json:"type"`
	Options map[string]mappingValue `json:"options"`
}

type mappingValue struct {
	Color string `json:"color"`
	Index int    `json:"index"`
	Text  string `json:"text"`
}

// promDatasource is the data source of every panel and query: the one the
// dashboard's "datasource" variable selects.
var promDatasource = datasource{Type: "prometheus", UID: "${datasource}"}

// Grid sizes: Grafana's grid is 24 columns wide.
const (
	gridWidth   = 24
	rowHeight   = 1
	panelHeight = 8
)

// layout places panels left to right in rows of the grid, numbering them
// from 1 in order.
type layout struct {
	panels []panel
	x, y   int
	rowH   int
}

func (l *layout) row(title string) {
	l.newLine()
	collapsed, empty := false, []panel{}
	l.panels = append(l.panels, panel{
		ID: len(l.panels) + 1, Type: "row", Title: title,
		GridPos:   gridPos{H: rowHeight, W: gridWidth, X: 0, Y: l.y},
		Collapsed: &collapsed, Panels: &empty,
	})
	l.y += rowHeight
}

// timeseries adds a time series panel w wide: the queries targets, in
// unit, against thresholds t drawn as lines when set (see series). Every
// time series panel of the dashboard has the same options, so only what
// differs is written at each.
func (l *layout) timeseries(w int, title, description, unit string, t *thresholds, targets ...target) {
	l.add(w, panel{Type: "timeseries", Title: title, Description: description,
		FieldConfig: series(unit, t), Options: seriesOptions(), Targets: targets})
}

func (l *layout) newLine() {
	if l.x > 0 {
		l.y += l.rowH
		l.x, l.rowH = 0, 0
	}
}

func (l *layout) add(w int, p panel) {
	if l.x+w > gridWidth {
		l.newLine()
	}
	p.ID = len(l.panels) + 1
	p.GridPos = gridPos{H: panelHeight, W: w, X: l.x, Y: l.y}
	p.Datasource = &promDatasource
	for i := range p.Targets {
		p.Targets[i].Datasource = promDatasource
		p.Targets[i].RefID = string(rune('A' + i))
	}
	l.panels = append(l.panels, p)
	l.x += w
	l.rowH = max(l.rowH, panelHeight)
}

func q(expr, legend string) target { return target{Expr: expr, LegendFormat: legend} }

func f(v float64) *float64 { return &v }

// colours are threshold steps: the base colour, then each step's colour
// from its value up.
func colours(base string, steps ...step) *thresholds {
	return &thresholds{Mode: "absolute", Steps: append([]step{{Color: base}}, steps...)}
}

// at is the step of colour from value up.
func at(value float64, colour string) step { return step{Color: colour, Value: f(value)} }

// series is the field config of a time series panel; lines draws the
// thresholds as lines.
func series(unit string, t *thresholds) *fieldConfig {
	custom := map[string]any{"fillOpacity": 10, "showPoints": "never"}
	if t != nil {
		custom["thresholdsStyle"] = map[string]any{"mode": "line"}
	} else {
		t = colours("green")
	}
	return &fieldConfig{Defaults: fieldDefaults{Unit: unit, Min: f(0), Thresholds: t, Custom: custom}, Overrides: []any{}}
}

func single(unit string, t *thresholds) *fieldConfig {
	return &fieldConfig{Defaults: fieldDefaults{Unit: unit, Thresholds: t}, Overrides: []any{}}
}

// statOptions show the last value of each series, named when name is set.
func statOptions(name bool) map[string]any {
	text := "value"
	if name {
		text = "name"
	}
	return map[string]any{
		"colorMode":     "background",
		"graphMode":     "none",
		"justifyMode":   "auto",
		"orientation":   "auto",
		"reduceOptions": map[string]any{"calcs": []string{"lastNotNull"}, "fields": "", "values": false},
		"textMode":      text,
	}
}

func seriesOptions() map[string]any {
	return map[string]any{
		"legend":  map[string]any{"calcs": []string{"mean", "max"}, "displayMode": "table", "placement": "bottom", "showLegend": true},
		"tooltip": map[string]any{"mode": "multi", "sort": "desc"},
	}
}

// MemberMatchers are the PromQL label matchers of the dashboard's queries:
// the cluster's member pods, "<name>-<suffix>" in its namespace, as the
// VMPodScrape and the PodMonitor label them. The suffix has no "-", so the
// etcd chart's "etcd" never matches a tenant cluster's "<release>-etcd"
// members, nor one cluster another whose name extends it.
func MemberMatchers(n naming.Names) string {
	return `namespace="` + n.Namespace + `",pod=~"` + n.Cluster + `-[^-]+"`
}

// cronJobMatchers select a CronJob of the cluster's namespace in
// kube-state-metrics' series.
func cronJobMatchers(n naming.Names, name string) string {
	return `namespace="` + n.Namespace + `",cronjob="` + name + `"`
}

func dashboardModel(n naming.Names, replicas int32) dashboard {
	sel := MemberMatchers(n)
	rate := func(metric, extra string) string {
		m := sel
		if extra != "" {
			m += "," + extra
		}
		return "rate(" + metric + "{" + m + "}[$__rate_interval])"
	}
	p99 := func(bucket, by string) string {
		return "histogram_quantile(0.99, sum by (" + by + ", le) (" + rate(bucket, "") + "))"
	}
	quorum := replicas/2 + 1
	up := colours("red", at(float64(replicas), "green"))
	upText := "Red below " + strconv.Itoa(int(replicas)) + "."
	if quorum < replicas {
		up = colours("red", at(float64(quorum), "orange"), at(float64(replicas), "green"))
		upText = "Red below quorum (" + strconv.Itoa(int(quorum)) + "), orange below " + strconv.Itoa(int(replicas)) + "."
	}
	var l layout

	l.row("Cluster")
	l.add(6, panel{Type: "stat", Title: "Members up",
		Description: "Members whose metrics the scrape reaches (alerts etcdInsufficientMembers, etcdMembersDown). " + upText,
		FieldConfig: single("none", up),
		Options:     statOptions(false),
		Targets:     []target{q("sum(up{"+sel+"})", "up")}})
	l.add(6, panel{Type: "stat", Title: "Every member has a leader",
		Description: "0 when some member sees no leader: that member serves nothing (alert etcdNoLeader).",
		FieldConfig: &fieldConfig{Defaults: fieldDefaults{Unit: "none", Thresholds: colours("red", at(1.0, "green")), Mappings: []valueMapping{{Type: "value", Options: map[string]mappingValue{
			"0": {Color: "red", Index: 0, Text: "No leader"},
			"1": {Color: "green", Index: 1, Text: "Yes"},
		}}}}, Overrides: []any{}},
		Options: statOptions(false),
		Targets: []target{q("min(etcd_server_has_leader{"+sel+"})", "has leader")}})
	l.add(6, panel{Type: "stat", Title: "Leader",
		Description: "The member that is the Raft leader.",
		FieldConfig: single("none", colours("blue")),
		Options:     statOptions(true),
		Targets:     []target{q("max by (pod) (etcd_server_is_leader{"+sel+"}) == 1", "{{pod}}")}})
	l.add(6, panel{Type: "stat", Title: "Leader changes (1h)",
		Description: "Leader elections seen in the last hour (alert etcdHighNumberOfLeaderChanges). Frequent elections point at slow disks or a lossy network.",
		FieldConfig: single("none", colours("green", at(1.0, "orange"), at(4.0, "red"))),
		Options:     statOptions(false),
		Targets:     []target{q("max(increase(etcd_server_leader_changes_seen_total{"+sel+"}[1h]))", "changes")}})
	l.timeseries(12, "Peer communication failures",
		"Messages a member failed to send to or receive from a peer, per second (alert etcdMembersDown).",
		"ops", nil,
		q("sum by (pod, To) ("+rate("etcd_network_peer_sent_failures_total", "")+")", "{{pod}} to {{To}}"),
		q("sum by (pod, From) ("+rate("etcd_network_peer_received_failures_total", "")+")", "{{pod}} from {{From}}"))
	l.timeseries(12, "Memory",
		"Resident memory of each member.",
		"bytes", nil,
		q("max by (pod) (process_resident_memory_bytes{"+sel+"})", "{{pod}}"))

	l.row("Raft proposals")
	l.timeseries(12, "Proposals committed and applied",
		"Consensus proposals committed and applied, per second. Committed should grow on every member.",
		"ops", nil,
		q("sum by (pod) ("+rate("etcd_server_proposals_committed_total", "")+")", "{{pod}} committed"),
		q("sum by (pod) ("+rate("etcd_server_proposals_applied_total", "")+")", "{{pod}} applied"))
	l.timeseries(12, "Apply backlog",
		"Proposals committed but not yet applied. A backlog that keeps growing means the member is overloaded (expensive ranges or transactions).",
		"none", nil,
		q("max by (pod) (etcd_server_proposals_committed_total{"+sel+"} - etcd_server_proposals_applied_total{"+sel+"})", "{{pod}}"))
	l.timeseries(12, "Pending proposals",
		"Proposals queued to commit: high client load, or a member that cannot commit.",
		"none", nil,
		q("sum by (pod) (etcd_server_proposals_pending{"+sel+"})", "{{pod}}"))
	l.timeseries(12, "Failed proposals",
		"Failed proposals per second: elections, or a lost quorum (alert etcdHighNumberOfFailedProposals).",
		"ops", nil,
		q("sum by (pod) ("+rate("etcd_server_proposals_failed_total", "")+")", "{{pod}}"))

	l.row("Database")
	l.add(6, panel{Type: "gauge", Title: "Quota used",
		Description: "The largest member database against quotaBackendBytes. At the quota etcd raises NOSPACE and refuses writes; the defrag CronJob defragments above 80%.",
		FieldConfig: &fieldConfig{Defaults: fieldDefaults{Unit: "percentunit", Min: f(0), Max: f(1), Thresholds: colours("green", at(0.8, "orange"), at(0.95, "red"))}, Overrides: []any{}},
		Options:     map[string]any{"reduceOptions": map[string]any{"calcs": []string{"lastNotNull"}, "fields": "", "values": false}, "showThresholdLabels": false, "showThresholdMarkers": true},
		Targets:     []target{q("max(etcd_mvcc_db_total_size_in_bytes{"+sel+"} / etcd_server_quota_backend_bytes{"+sel+"})", "used")}})
	l.timeseries(18, "Database size",
		"Database size allocated on disk and logically in use, against quotaBackendBytes. The gap is what a defragmentation frees.",
		"bytes", nil,
		q("max by (pod) (etcd_mvcc_db_total_size_in_bytes{"+sel+"})", "{{pod}} allocated"),
		q("max by (pod) (etcd_mvcc_db_total_size_in_use_in_bytes{"+sel+"})", "{{pod}} in use"),
		q("max(etcd_server_quota_backend_bytes{"+sel+"})", "quota"))

	l.row("Disk")
	l.timeseries(12, "WAL fsync latency (p99)",
		"99th percentile of the write-ahead log's fsync. etcd wants it below 10ms; slower disks cause elections.",
		"s", colours("green", at(0.01, "red")),
		q(p99("etcd_disk_wal_fsync_duration_seconds_bucket", "pod"), "{{pod}}"))
	l.timeseries(12, "Backend commit latency (p99)",
		"99th percentile of the backend's commits. etcd wants it below 25ms.",
		"s", colours("green", at(0.025, "red")),
		q(p99("etcd_disk_backend_commit_duration_seconds_bucket", "pod"), "{{pod}}"))

	l.row("Network")
	l.timeseries(12, "Peer round trip time (p99)",
		"99th percentile of the round trip to each peer (alert etcdMemberCommunicationSlow above 150ms).",
		"s", colours("green", at(0.15, "red")),
		q(p99("etcd_network_peer_round_trip_time_seconds_bucket", "pod, To"), "{{pod}} to {{To}}"))
	l.timeseries(12, "Peer traffic",
		"Bytes sent to and received from peers, per second. The leader sends the most.",
		"Bps", nil,
		q("sum by (pod) ("+rate("etcd_network_peer_sent_bytes_total", "")+")", "{{pod}} sent"),
		q("sum by (pod) ("+rate("etcd_network_peer_received_bytes_total", "")+")", "{{pod}} received"))
	l.timeseries(12, "Client traffic",
		"Bytes received from and sent to gRPC clients (the tenant control planes), per second.",
		"Bps", nil,
		q("sum by (pod) ("+rate("etcd_network_client_grpc_received_bytes_total", "")+")", "{{pod}} received"),
		q("sum by (pod) ("+rate("etcd_network_client_grpc_sent_bytes_total", "")+")", "{{pod}} sent"))

	l.row("gRPC")
	l.timeseries(12, "gRPC requests",
		"Requests started per second, by method.",
		"reqps", nil,
		q("sum by (grpc_service, grpc_method) ("+rate("grpc_server_started_total", "")+")", "{{grpc_service}}/{{grpc_method}}"))
	l.timeseries(12, "gRPC requests failed",
		"Share of finished requests whose code is not OK, by method (alert etcdHighNumberOfFailedGRPCRequests at 1% and 5%).",
		"percent", colours("green", at(1.0, "orange"), at(5.0, "red")),
		q("100 * sum by (grpc_service, grpc_method) ("+rate("grpc_server_handled_total", `grpc_code!="OK"`)+")"+
			" / sum by (grpc_service, grpc_method) ("+rate("grpc_server_handled_total", "")+")", "{{grpc_service}}/{{grpc_method}}"))
	l.timeseries(12, "Active watch and lease streams",
		"Open Watch and LeaseKeepAlive streams: started minus finished.",
		"none", nil,
		q("sum by (grpc_service) (grpc_server_started_total{"+sel+`,grpc_type="bidi_stream"})`+
			" - sum by (grpc_service) (grpc_server_handled_total{"+sel+`,grpc_type="bidi_stream"})`, "{{grpc_service}}"))
	l.timeseries(12, "gRPC unary latency (p99)",
		"99th percentile of unary requests, by method (alert etcdGRPCRequestsSlow above 150ms). etcd exports this histogram only when its members run with --metrics=extensive; the panel is empty otherwise.",
		"s", colours("green", at(0.15, "red")),
		q("histogram_quantile(0.99, sum by (grpc_service, grpc_method, le) ("+rate("grpc_server_handling_seconds_bucket", `grpc_type="unary"`)+"))", "{{grpc_service}}/{{grpc_method}}"))

	l.row("Maintenance")
	l.add(6, panel{Type: "stat", Title: "Last successful defrag",
		Description: "Time since the defrag CronJob " + n.DefragCronJob() + " last succeeded (kube-state-metrics). It runs hourly: orange after 2 hours, red after a day.",
		FieldConfig: single("s", colours("green", at(7200.0, "orange"), at(86400.0, "red"))),
		Options:     statOptions(false),
		Targets:     []target{q("time() - max(kube_cronjob_status_last_successful_time{"+cronJobMatchers(n, n.DefragCronJob())+"})", "defrag")}})
	l.add(6, panel{Type: "stat", Title: "Last successful scheduled snapshot",
		Description: "Time since the snapshot schedule " + n.SnapshotSchedule() + " last succeeded (kube-state-metrics); no data without a schedule (etcd.ScheduledSnapshots).",
		FieldConfig: single("s", colours("blue")),
		Options:     statOptions(false),
		Targets:     []target{q("time() - max(kube_cronjob_status_last_successful_time{"+cronJobMatchers(n, n.SnapshotSchedule())+"})", "snapshot")}})
	l.timeseries(12, "Defragmentation in progress",
		"1 while a member defragments; it serves no requests meanwhile.",
		"none", nil,
		q("max by (pod) (etcd_disk_defrag_inflight{"+sel+"})", "{{pod}}"))

	return dashboard{
		Description:   "etcd cluster " + n.Cluster + " in " + n.Namespace + ", built by etcdshapes.",
		Editable:      false,
		GraphTooltip:  1,
		Panels:        l.panels,
		Refresh:       "30s",
		SchemaVersion: DashboardSchemaVersion,
		Tags:          []string{"etcd", DashboardTag},
		Templating: templating{List: []variable{{
			Name: "datasource", Label: "Data source", Type: "datasource", Query: "prometheus", Refresh: 1,
		}}},
		Time:  timeRange{From: "now-6h", To: "now"},
		Title: "etcd " + n.Namespace + "/" + n.Cluster,
		UID:   n.DashboardUID(),
	}
}

// canonicalJSON prints v with its object keys sorted at every depth, two
// spaces of indentation and PromQL's <, > and & unescaped.
func canonicalJSON(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var tree any
	if err := plainjson.Decode(raw, &tree); err != nil {
		return nil, err
	}
	return plainjson.Marshal(tree, "  ")
}

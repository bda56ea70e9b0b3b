package monitoring_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Kinds of metric families: a histogram's series are <name>_bucket,
// <name>_sum and <name>_count, a summary's <name>, <name>_sum and
// <name>_count.
const (
	counter   = "counter"
	gauge     = "gauge"
	histogram = "histogram"
	summary   = "summary"
)

// etcdV36Metrics are the metric families etcd v3.6 exports, from etcd's
// documentation:
//
//   - the generated list of the v3.6 metrics page, etcd-metrics-latest.txt
//     (etcd-io/website, content/en/docs/v3.6/metrics/, "server version:
//     etcd_server_version{server_version="3.6.0"}"), which lists every
//     family a v3.6.0 server exported when it was generated;
//   - the tables of the same page (content/en/docs/v3.6/metrics/_index.md),
//     which also document etcd_network_peer_sent_failures_total and
//     etcd_network_peer_received_failures_total (labelled counters that
//     appear once a failure happened, so the generated list lacks them);
//   - the --metrics flag of the v3.6 configuration options ("specify
//     'extensive' to include server side grpc histogram metrics"), which
//     adds grpc_server_handling_seconds.
//
// The etcd v2 HTTP metrics (etcd_http_*) are on neither: v3.6 has no v2
// API.
var etcdV36Metrics = map[string]string{
	"etcd_cluster_version": gauge,

	"etcd_debugging_auth_revision":                                     gauge,
	"etcd_debugging_disk_backend_commit_rebalance_duration_seconds":    histogram,
	"etcd_debugging_disk_backend_commit_spill_duration_seconds":        histogram,
	"etcd_debugging_disk_backend_commit_write_duration_seconds":        histogram,
	"etcd_debugging_lease_granted_total":                               counter,
	"etcd_debugging_lease_renewed_total":                               counter,
	"etcd_debugging_lease_revoked_total":                               counter,
	"etcd_debugging_lease_ttl_total":                                   histogram,
	"etcd_debugging_mvcc_compact_revision":                             gauge,
	"etcd_debugging_mvcc_current_revision":                             gauge,
	"etcd_debugging_mvcc_db_compaction_keys_total":                     counter,
	"etcd_debugging_mvcc_db_compaction_last":                           gauge,
	"etcd_debugging_mvcc_db_compaction_pause_duration_milliseconds":    histogram,
	"etcd_debugging_mvcc_db_compaction_total_duration_milliseconds":    histogram,
	"etcd_debugging_mvcc_events_total":                                 counter,
	"etcd_debugging_mvcc_index_compaction_pause_duration_milliseconds": histogram,
	"etcd_debugging_mvcc_keys_total":                                   gauge,
	"etcd_debugging_mvcc_pending_events_total":                         gauge,
	"etcd_debugging_mvcc_slow_watcher_total":                           gauge,
	"etcd_debugging_mvcc_total_put_size_in_bytes":                      gauge,
	"etcd_debugging_mvcc_watch_stream_total":                           gauge,
	"etcd_debugging_mvcc_watcher_total":                                gauge,
	"etcd_debugging_server_lease_expired_total":                        counter,
	"etcd_debugging_snap_save_marshalling_duration_seconds":            histogram,
	"etcd_debugging_snap_save_total_duration_seconds":                  histogram,
	"etcd_debugging_store_expires_total":                               counter,
	"etcd_debugging_store_reads_total":                                 counter,
	"etcd_debugging_store_watch_requests_total":                        counter,
	"etcd_debugging_store_watchers":                                    gauge,
	"etcd_debugging_store_writes_total":                                counter,

	"etcd_disk_backend_commit_duration_seconds":   histogram,
	"etcd_disk_backend_defrag_duration_seconds":   histogram,
	"etcd_disk_backend_snapshot_duration_seconds": histogram,
	"etcd_disk_defrag_inflight":                   gauge,
	"etcd_disk_wal_fsync_duration_seconds":        histogram,
	"etcd_disk_wal_write_bytes_total":             gauge,
	"etcd_disk_wal_write_duration_seconds":        histogram,

	"etcd_grpc_proxy_cache_hits_total":          gauge,
	"etcd_grpc_proxy_cache_keys_total":          gauge,
	"etcd_grpc_proxy_cache_misses_total":        gauge,
	"etcd_grpc_proxy_events_coalescing_total":   counter,
	"etcd_grpc_proxy_watchers_coalescing_total": gauge,

	"etcd_mvcc_db_open_read_transactions":     gauge,
	"etcd_mvcc_db_total_size_in_bytes":        gauge,
	"etcd_mvcc_db_total_size_in_use_in_bytes": gauge,
	"etcd_mvcc_delete_total":                  counter,
	"etcd_mvcc_hash_duration_seconds":         histogram,
	"etcd_mvcc_hash_rev_duration_seconds":     histogram,
	"etcd_mvcc_put_total":                     counter,
	"etcd_mvcc_range_total":                   counter,
	"etcd_mvcc_txn_total":                     counter,

	"etcd_network_active_peers":                     gauge,
	"etcd_network_client_grpc_received_bytes_total": counter,
	"etcd_network_client_grpc_sent_bytes_total":     counter,
	"etcd_network_known_peers":                      gauge,
	"etcd_network_peer_received_bytes_total":        counter,
	"etcd_network_peer_received_failures_total":     counter, // the page's Network table
	"etcd_network_peer_round_trip_time_seconds":     histogram,
	"etcd_network_peer_sent_bytes_total":            counter,
	"etcd_network_peer_sent_failures_total":         counter, // the page's Network table

	"etcd_server_apply_duration_seconds":           histogram,
	"etcd_server_client_requests_total":            counter,
	"etcd_server_feature_enabled":                  gauge,
	"etcd_server_go_version":                       gauge,
	"etcd_server_has_leader":                       gauge,
	"etcd_server_health_failures":                  counter,
	"etcd_server_health_success":                   counter,
	"etcd_server_heartbeat_send_failures_total":    counter,
	"etcd_server_id":                               gauge,
	"etcd_server_is_leader":                        gauge,
	"etcd_server_is_learner":                       gauge,
	"etcd_server_leader_changes_seen_total":        counter,
	"etcd_server_learner_promote_successes":        counter,
	"etcd_server_proposals_applied_total":          gauge,
	"etcd_server_proposals_committed_total":        gauge,
	"etcd_server_proposals_failed_total":           counter,
	"etcd_server_proposals_pending":                gauge,
	"etcd_server_quota_backend_bytes":              gauge,
	"etcd_server_range_duration_seconds":           histogram,
	"etcd_server_read_indexes_failed_total":        counter,
	"etcd_server_slow_apply_total":                 counter,
	"etcd_server_slow_read_indexes_total":          counter,
	"etcd_server_snapshot_apply_in_progress_total": gauge,
	"etcd_server_version":                          gauge,

	"etcd_snap_db_fsync_duration_seconds":      histogram,
	"etcd_snap_db_save_total_duration_seconds": histogram,
	"etcd_snap_fsync_duration_seconds":         histogram,

	"go_gc_duration_seconds":               summary,
	"go_gc_gogc_percent":                   gauge,
	"go_gc_gomemlimit_bytes":               gauge,
	"go_goroutines":                        gauge,
	"go_info":                              gauge,
	"go_memstats_alloc_bytes":              gauge,
	"go_memstats_alloc_bytes_total":        counter,
	"go_memstats_buck_hash_sys_bytes":      gauge,
	"go_memstats_frees_total":              counter,
	"go_memstats_gc_sys_bytes":             gauge,
	"go_memstats_heap_alloc_bytes":         gauge,
	"go_memstats_heap_idle_bytes":          gauge,
	"go_memstats_heap_inuse_bytes":         gauge,
	"go_memstats_heap_objects":             gauge,
	"go_memstats_heap_released_bytes":      gauge,
	"go_memstats_heap_sys_bytes":           gauge,
	"go_memstats_last_gc_time_seconds":     gauge,
	"go_memstats_mallocs_total":            counter,
	"go_memstats_mcache_inuse_bytes":       gauge,
	"go_memstats_mcache_sys_bytes":         gauge,
	"go_memstats_mspan_inuse_bytes":        gauge,
	"go_memstats_mspan_sys_bytes":          gauge,
	"go_memstats_next_gc_bytes":            gauge,
	"go_memstats_other_sys_bytes":          gauge,
	"go_memstats_stack_inuse_bytes":        gauge,
	"go_memstats_stack_sys_bytes":          gauge,
	"go_memstats_sys_bytes":                gauge,
	"go_sched_gomaxprocs_threads":          gauge,
	"go_threads":                           gauge,
	"grpc_server_handled_total":            counter,
	"grpc_server_handling_seconds":         histogram, // --metrics=extensive
	"grpc_server_msg_received_total":       counter,
	"grpc_server_msg_sent_total":           counter,
	"grpc_server_started_total":            counter,
	"os_fd_limit":                          gauge,
	"os_fd_used":                           gauge,
	"process_cpu_seconds_total":            counter,
	"process_max_fds":                      gauge,
	"process_network_receive_bytes_total":  counter,
	"process_network_transmit_bytes_total": counter,
	"process_open_fds":                     gauge,
	"process_resident_memory_bytes":        gauge,
	"process_start_time_seconds":           gauge,
	"process_virtual_memory_bytes":         gauge,
	"process_virtual_memory_max_bytes":     gauge,

	"promhttp_metric_handler_requests_in_flight": gauge,
	"promhttp_metric_handler_requests_total":     counter,
}

// Metrics the dashboard reads that are not etcd's: the scrape's own "up"
// (Prometheus' documentation, Jobs and instances: "up{job=..., instance=...}:
// 1 if the instance is healthy") and kube-state-metrics' CronJob metric
// (its docs/metrics/workload/cronjob-metrics.md).
var otherMetrics = map[string]string{
	"up": gauge,
	"kube_cronjob_status_last_successful_time": gauge,
}

// etcdSeries reports whether name is a series of an etcd v3.6 family.
func etcdSeries(name string) bool {
	if _, ok := etcdV36Metrics[name]; ok {
		return true
	}
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		base, ok := strings.CutSuffix(name, suffix)
		if !ok {
			continue
		}
		switch etcdV36Metrics[base] {
		case histogram:
			return true
		case summary:
			if suffix != "_bucket" {
				return true
			}
		}
	}
	return false
}

// family is the metric family of a series name: a histogram's
// <name>_bucket is <name>.
func family(name string) string {
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		if base, ok := strings.CutSuffix(name, suffix); ok {
			if k := etcdV36Metrics[base]; k == histogram || k == summary {
				return base
			}
		}
	}
	return name
}

// promqlKeywords are PromQL's words that are not metric names (case
// insensitive): operators, modifiers, grouping clauses and the aggregation
// operators, which may stand before their grouping clause
// ("sum by (pod) (...)").
var promqlKeywords = map[string]bool{
	"and": true, "or": true, "unless": true, "atan2": true, "bool": true,
	"by": true, "without": true, "on": true, "ignoring": true,
	"group_left": true, "group_right": true, "offset": true,
	"inf": true, "nan": true,
	"sum": true, "min": true, "max": true, "avg": true, "group": true, "stddev": true, "stdvar": true,
	"count": true, "count_values": true, "bottomk": true, "topk": true, "quantile": true,
	"limitk": true, "limit_ratio": true,
}

// groupingKeywords take a parenthesised list of label names.
var groupingKeywords = map[string]bool{"by": true, "without": true, "on": true, "ignoring": true, "group_left": true, "group_right": true}

// metricNames are the metric names of a PromQL expression, sorted: every
// identifier that is not a keyword, a function (an identifier before
// "("), a label name (inside {...} or after by, without, on, ignoring,
// group_left or group_right), a duration or a subquery range ([...]), a
// number or inside a string.
func metricNames(t *testing.T, expr string) []string {
	t.Helper()
	seen := map[string]bool{}
	isIdentStart := func(c byte) bool { return c == '_' || c == ':' || (c|0x20 >= 'a' && c|0x20 <= 'z') }
	isIdent := func(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }
	skipString := func(i int) int {
		q := expr[i]
		for j := i + 1; j < len(expr); j++ {
			if expr[j] == '\\' && q != '`' {
				j++
				continue
			}
			if expr[j] == q {
				return j + 1
			}
		}
		t.Fatalf("unterminated string in %q", expr)
		return len(expr)
	}
	// skipTo skips to just after the close that balances expr[i].
	skipTo := func(i int, open, close byte) int {
		depth := 0
		for j := i; j < len(expr); j++ {
			switch c := expr[j]; {
			case c == '"' || c == '\'' || c == '`':
				j = skipString(j) - 1
			case c == open:
				depth++
			case c == close:
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		t.Fatalf("unbalanced %c in %q", open, expr)
		return len(expr)
	}
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			i = skipString(i)
		case c == '{':
			i = skipTo(i, '{', '}')
		case c == '[':
			i = skipTo(i, '[', ']')
		case c >= '0' && c <= '9' || c == '.':
			for i < len(expr) && (isIdent(expr[i]) || expr[i] == '.') {
				i++ // numbers, 1e3, 0x1f, durations like 5m
			}
		case isIdentStart(c):
			j := i
			for j < len(expr) && isIdent(expr[j]) {
				j++
			}
			word := expr[i:j]
			k := j
			for k < len(expr) && (expr[k] == ' ' || expr[k] == '\n' || expr[k] == '\t') {
				k++
			}
			lower := strings.ToLower(word)
			switch {
			case groupingKeywords[lower] && k < len(expr) && expr[k] == '(':
				j = skipTo(k, '(', ')')
			case promqlKeywords[lower]:
			case k < len(expr) && expr[k] == '(':
				// a function or aggregation
			default:
				seen[word] = true
			}
			i = j
		default:
			i++
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func TestMetricNamesParser(t *testing.T) {
	for expr, want := range map[string][]string{
		`up`: {"up"},
		`sum(up{job=~".*etcd.*"} == bool 1) by (job) < ((count(up{job=~".*etcd.*"}) by (job) + 1) / 2)`:       {"up"},
		`100 * sum(rate(a_total{x!="OK"}[5m])) BY (job, instance) / sum(rate(b_total[5m])) BY (job)`:          {"a_total", "b_total"},
		`histogram_quantile(0.99, sum by (pod, le) (rate(x_bucket{pod=~"a-[^-]+"}[$__rate_interval])))`:       {"x_bucket"},
		`max without (endpoint) (sum without (instance, pod) (m == bool 0) or count without (To) (n > 0.01))`: {"m", "n"},
		`a / on (pod) group_left (node) b unless c offset 5m`:                                                 {"a", "b", "c"},
		`time() - max(kube_cronjob_status_last_successful_time{cronjob="x"})`:                                 {"kube_cronjob_status_last_successful_time"},
		`rate(x[5m:1m]) > 1e3 and y{a="}{"} < Inf`:                                                            {"x", "y"},
		`'by' + "sum(z)" + ` + "`up`" + ` + w`:                                                                {"w"},
	} {
		assert.Equal(t, want, metricNames(t, expr), expr)
	}
}

// dashboardQueries are the queries of every panel of a dashboard model,
// keyed by panel title.
func dashboardQueries(t *testing.T, model []byte) map[string][]string {
	t.Helper()
	var d struct {
		Panels []struct {
			Title   string `json:"title"`
			Type    string `json:"type"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	require.NoError(t, json.Unmarshal(model, &d))
	out := map[string][]string{}
	for _, p := range d.Panels {
		if p.Type == "row" {
			continue
		}
		require.NotEmpty(t, p.Targets, p.Title)
		for _, tg := range p.Targets {
			out[p.Title] = append(out[p.Title], tg.Expr)
		}
	}
	return out
}

// alertMetrics are the metric names of every alert of the PrometheusRule.
func alertMetrics(t *testing.T, n naming.Names) map[string][]string {
	t.Helper()
	rule, err := monitoring.PrometheusRule(n)
	require.NoError(t, err)
	out := map[string][]string{} // metric -> alerts
	for _, g := range rule.Spec.Groups {
		for _, r := range g.Rules {
			for _, m := range metricNames(t, r.Expr.String()) {
				out[m] = append(out[m], r.Alert)
			}
		}
	}
	return out
}

// The dashboard reads only metrics etcd v3.6 exports (plus the scrape's
// "up" and kube-state-metrics' CronJob metric), and every metric an alert
// of the PrometheusRule watches has a panel, except the etcd v2 HTTP
// metrics, which etcd v3.6 no longer exports (those alerts cannot fire
// on it).
func TestDashboardMetrics(t *testing.T) {
	n, err := naming.ForCluster("tenant-demo", "kubernetes-demo")
	require.NoError(t, err)
	model, err := monitoring.DashboardJSON(n, monitoring.DashboardOptions{})
	require.NoError(t, err)
	queries := dashboardQueries(t, model)
	require.GreaterOrEqual(t, len(queries), 20)

	onPanels := map[string]bool{} // metric family -> on some panel
	for title, exprs := range queries {
		for _, e := range exprs {
			names := metricNames(t, e)
			require.NotEmpty(t, names, "%s: %s", title, e)
			for _, m := range names {
				_, other := otherMetrics[m]
				assert.True(t, etcdSeries(m) || other, "%s: %s is not a metric etcd v3.6 exports (%s)", title, m, e)
				onPanels[family(m)] = true
			}
			// Every query selects this cluster's members or CronJobs.
			if strings.Contains(e, "kube_cronjob_") {
				assert.Contains(t, e, `namespace="tenant-demo",cronjob="`, title)
			} else {
				assert.Equal(t, strings.Count(e, "{"), strings.Count(e, "{"+monitoring.MemberMatchers(n)), "%s: a selector without the members' matchers: %s", title, e)
			}
		}
	}

	var notExported []string
	for m, alerts := range alertMetrics(t, n) {
		if _, other := otherMetrics[m]; !other && !etcdSeries(m) {
			notExported = append(notExported, m)
			continue
		}
		assert.True(t, onPanels[family(m)], "alerts %v watch %s, which no panel shows", alerts, m)
	}
	sort.Strings(notExported)
	assert.Equal(t, []string{"etcd_http_failed_total", "etcd_http_received_total", "etcd_http_successful_duration_seconds_bucket"}, notExported,
		"the alert metrics etcd v3.6 does not export")

	// What the issue asks to see, by metric.
	for _, m := range []string{
		"up", "etcd_server_has_leader", "etcd_server_is_leader", "etcd_server_leader_changes_seen_total",
		"etcd_server_proposals_committed_total", "etcd_server_proposals_applied_total",
		"etcd_server_proposals_pending", "etcd_server_proposals_failed_total",
		"etcd_mvcc_db_total_size_in_bytes", "etcd_server_quota_backend_bytes",
		"etcd_disk_wal_fsync_duration_seconds", "etcd_disk_backend_commit_duration_seconds",
		"etcd_network_peer_round_trip_time_seconds", "grpc_server_started_total", "grpc_server_handled_total",
		"kube_cronjob_status_last_successful_time",
	} {
		assert.True(t, onPanels[m], "no panel shows %s", m)
	}
}

// The defrag and snapshot CronJobs' panels name the CronJobs naming
// gives them, hashed names included.
func TestDashboardCronJobs(t *testing.T) {
	for _, release := range []string{"kubernetes-demo", "kubernetes-production-cluster-eu-west-1-abcdefghijk"} {
		n, err := naming.ForCluster("tenant-demo", release)
		require.NoError(t, err)
		model, err := monitoring.DashboardJSON(n, monitoring.DashboardOptions{})
		require.NoError(t, err)
		queries := dashboardQueries(t, model)
		assert.Contains(t, queries["Last successful defrag"][0], `cronjob="`+n.DefragCronJob()+`"`)
		assert.Contains(t, queries["Last successful scheduled snapshot"][0], `cronjob="`+n.SnapshotSchedule()+`"`)
	}
}

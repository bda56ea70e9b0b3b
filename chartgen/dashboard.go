package chartgen

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
)

// The GrafanaDashboard's model (monitoring.DashboardJSON) is about 48 KB
// of JSON whose legends hold Grafana's own {{pod}} delimiters: the library
// chart keeps it as a file that no template parses (dashboardFile),
// written at generation with placeholders, which the define
// etcdshapes.dashboard (dashboard.tpl, in dashboardTplFile) replaces with
// plain string replaces, and only for a render that serves the
// dashboard's API. The model is data: no template parses it.
//
// The file is four parts separated by dashboardSplit lines: a header, the
// model with the line dashboardUp where the members-up panel's thresholds
// go, and that panel's text for a stack whose quorum is below its replicas
// and for one whose quorum is all of them (1 or 2 replicas). The
// placeholders are __NAMESPACE__, __CLUSTER__, __DEFRAG_CRON_JOB__,
// __SNAPSHOT_SCHEDULE__, __DASHBOARD_UID__, __REPLICAS__ and __QUORUM__.
const (
	dashboardFile    = "files/grafana-dashboard.json"
	dashboardTplFile = "templates/_etcdshapes_dashboard.tpl"
	dashboardDefine  = "etcdshapes.dashboard"
	dashboardSplit   = "__SPLIT__"
	dashboardUp      = "__UP__"
)

// dashboardSubs are the names of the model and their placeholders.
func dashboardSubs(n naming.Names) []subst {
	subs := []subst{
		{n.DashboardUID(), tokenFor("dashboardUid")},
		{n.SnapshotSchedule(), tokenFor("snapshotSchedule")},
		{n.DefragCronJob(), tokenFor("defragCronJob")},
		{n.Cluster, tokenFor("cluster")},
		{n.Namespace, tokenFor("namespace")},
	}
	slices.SortStableFunc(subs, func(a, b subst) int { return len(b.from) - len(a.from) })
	return subs
}

// dashboardText is the library's model for names n and replicas, its
// names replaced by their placeholders.
func dashboardText(n naming.Names, replicas int32) (string, error) {
	b, err := monitoring.DashboardJSON(n, monitoring.DashboardOptions{Replicas: replicas})
	if err != nil {
		return "", err
	}
	text := string(b)
	for _, s := range dashboardSubs(n) {
		text = strings.ReplaceAll(text, s.from, s.to)
	}
	return text, nil
}

// quorumOf is the quorum of a stack of r members.
func quorumOf(r int32) int32 { return r/2 + 1 }

// numberPattern matches the whole number s.
func numberPattern(s string) *regexp.Regexp {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(s) + `\b`)
}

// dashboardData writes the dashboard file from the first sentinel's
// per-cluster names: the part of the model that depends on the replicas
// is the lines between the longest prefix and suffix every count of
// replicas shares, written with __REPLICAS__ and __QUORUM__; every count
// must then give one of two texts. It checks that filling the file gives
// the library's model for every count of replicas and for both callers'
// names of both sentinel sets.
func dashboardData() ([]byte, error) {
	n, err := sentinels[0].names(naming.CallerCluster)
	if err != nil {
		return nil, err
	}
	var texts [][]string
	for r := int32(1); r <= etcd.MaxReplicas; r++ {
		t, err := dashboardText(n, r)
		if err != nil {
			return nil, err
		}
		texts = append(texts, strings.Split(t, "\n"))
	}
	pre, suf := len(texts[0]), len(texts[0])
	for _, t := range texts[1:] {
		p := 0
		for p < len(t) && p < len(texts[0]) && t[p] == texts[0][p] {
			p++
		}
		s := 0
		for s < len(t)-p && s < len(texts[0])-p && t[len(t)-1-s] == texts[0][len(texts[0])-1-s] {
			s++
		}
		pre, suf = min(pre, p), min(suf, s)
	}
	frags := map[bool]string{}
	for i, t := range texts {
		r := int32(i + 1)
		q := quorumOf(r)
		mid := strings.Join(t[pre:len(t)-suf], "\n")
		mid = numberPattern(strconv.Itoa(int(r))).ReplaceAllString(mid, "__REPLICAS__")
		if q < r {
			mid = numberPattern(strconv.Itoa(int(q))).ReplaceAllString(mid, "__QUORUM__")
		}
		if f, ok := frags[q < r]; ok && f != mid {
			return nil, fmt.Errorf("chartgen: the dashboard's text for %d replicas is not the others' with the count and quorum replaced:\n%s\n%s", r, f, mid)
		}
		frags[q < r] = mid
	}
	if len(frags) != 2 {
		return nil, fmt.Errorf("chartgen: the dashboard has %d texts by replicas, not 2", len(frags))
	}
	model := strings.Join(slices.Concat(texts[0][:pre], []string{dashboardUp}, texts[0][len(texts[0])-suf:]), "\n")
	parts := []string{Header + " (the GrafanaDashboard's model, filled by files/dashboard.tpl)", model, frags[true], frags[false]}
	for _, p := range parts {
		if strings.Contains(p, dashboardSplit) || strings.Contains(p, sentinelMarker) {
			return nil, fmt.Errorf("chartgen: the dashboard's model holds %s or a sentinel", dashboardSplit)
		}
	}
	data := strings.Join(parts, "\n"+dashboardSplit+"\n") + "\n"
	// Read and fill it as files/dashboard.tpl does and compare.
	parts = strings.Split(strings.TrimSuffix(data, "\n"), "\n"+dashboardSplit+"\n")
	for _, s := range sentinels {
		for _, caller := range naming.Callers() {
			n, err := s.names(caller)
			if err != nil {
				return nil, err
			}
			for r := int32(1); r <= etcd.MaxReplicas; r++ {
				want, err := monitoring.DashboardJSON(n, monitoring.DashboardOptions{Replicas: r})
				if err != nil {
					return nil, err
				}
				if got := fillDashboard(parts, n, r); got != string(want) {
					return nil, fmt.Errorf("chartgen: the dashboard file filled for %s %s, %d replicas, is not the library's:\n%s", caller, n.Cluster, r, firstDifference(got, string(want)))
				}
			}
		}
	}
	return []byte(data), nil
}

// fillDashboard is files/dashboard.tpl in Go: the same replaces in
// the same order.
func fillDashboard(parts []string, n naming.Names, r int32) string {
	q := quorumOf(r)
	frag := parts[3]
	if q < r {
		frag = parts[2]
	}
	text := strings.ReplaceAll(parts[1], dashboardUp, frag)
	for _, s := range []subst{
		{"__QUORUM__", strconv.Itoa(int(q))},
		{"__REPLICAS__", strconv.Itoa(int(r))},
		{tokenFor("dashboardUid"), n.DashboardUID()},
		{tokenFor("snapshotSchedule"), n.SnapshotSchedule()},
		{tokenFor("defragCronJob"), n.DefragCronJob()},
		{tokenFor("cluster"), n.Cluster},
		{tokenFor("namespace"), n.Namespace},
	} {
		text = strings.ReplaceAll(text, s.from, s.to)
	}
	return text
}

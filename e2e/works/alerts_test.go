package works

// The alerts tier: the etcd chart's PrometheusRule under promtool's rule
// unit tests (promtool test rules, Prometheus v0.316.0), on series
// labelled as the rendered scrape objects would scrape etcd-operator's
// member pods.
//
// The case is review blocker B4: a tenant namespace runs the shared etcd
// (the etcd chart) and a tenant cluster's etcd (the kubernetes chart),
// three members each. Which pods each scrape object scrapes is computed
// from its rendered selector (matchLabels and matchExpressions, as
// metav1.LabelSelectorAsSelector reads them), its namespace selector and
// its port, against the labels etcd-operator puts on a member pod
// (controllers/helpers.go memberLabels: app.kubernetes.io/name=etcd,
// app.kubernetes.io/instance=<cluster>, app.kubernetes.io/managed-by=
// etcd-operator, etcd-operator.cozystack.io/cluster=<cluster>,
// app.kubernetes.io/component=<member>; buildPod adds the voter role label
// and spec.additionalMetadata's labels, which never override the
// operator's, and names the container port "metrics", 2381). The series
// carry the labels the operators' relabelling gives a pod target, the same
// for VictoriaMetrics' VMPodScrape (operator
// internal/controller/operator/factory/vmagent/podscrape.go) and
// prometheus-operator's PodMonitor (pkg/prometheus/promcfg.go,
// generatePodMonitorConfig): job "<scrape namespace>/<scrape name>"
// (no jobLabel is rendered), namespace, pod, container, endpoint (the
// port name), instance "<pod IP>:<port>".
//
// Two of the shared etcd's members are down (up 0): etcdInsufficientMembers
// must fire for the shared etcd's job and no other. With the pre-B4
// selector (app.kubernetes.io/name: etcd, SPEC difference 3) the shared
// job also scrapes the tenant cluster's members, counts four of six up,
// and the alert does not fire: TestAlertsB4 runs that render too and
// requires promtool to fail it.

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/apis/victoriametrics/v1beta1"
	"github.com/etcdshapes/etcdshapes/e2e/works/internal/third_party/promtool"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/naming"
	monv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/prometheus/util/junitxml"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apiserver/pkg/storage/names"
	"sigs.k8s.io/yaml"
)

// scrapeTarget is one series source: a pod a scrape object scrapes.
type scrapeTarget struct {
	job, namespace, pod, container, endpoint, instance string
	// cluster is the EtcdCluster the pod belongs to (for the test's
	// choice of which members are down, not a label).
	cluster string
}

// memberPod is an etcd-operator member pod.
type memberPod struct {
	name, namespace, ip string
	labels              map[string]string
	// ports are the container's named ports.
	ports   map[string]int32
	cluster string
}

// memberPods are three member pods of cluster as etcd-operator builds them
// (helpers.go memberLabels, etcdmember_controller.go buildPod), with the
// names the API server gives GenerateName "<cluster>-".
func memberPods(c *v1alpha2.EtcdCluster, firstIP int) []memberPod {
	var out []memberPod
	for i := range 3 {
		name := names.SimpleNameGenerator.GenerateName(c.Name + "-")
		l := map[string]string{
			"app.kubernetes.io/name":       "etcd",
			"app.kubernetes.io/instance":   c.Name,
			"app.kubernetes.io/managed-by": "etcd-operator",
			labelCluster:                   c.Name,
			"app.kubernetes.io/component":  name,
			// Members are voters once promoted (reconcileRoleLabel).
			"etcd-operator.cozystack.io/role": "voter",
		}
		if md := c.Spec.AdditionalMetadata; md != nil {
			for k, v := range md.Labels {
				if _, taken := l[k]; !taken && !strings.HasPrefix(k, "etcd-operator.cozystack.io/") {
					l[k] = v
				}
			}
		}
		out = append(out, memberPod{
			name: name, namespace: c.Namespace, ip: fmt.Sprintf("10.244.0.%d", firstIP+i), labels: l, cluster: c.Name,
			ports: map[string]int32{"client": 2379, "peer": 2380, "metrics": 2381},
		})
	}
	return out
}

// scrapeObject is a VMPodScrape or PodMonitor reduced to what selects
// targets.
type scrapeObject struct {
	kind, namespace, name, jobLabel string
	selector                        metav1.LabelSelector
	// namespaces the pods are discovered in; nil means any.
	namespaces []string
	ports      []string
}

func fromVMPodScrape(s *v1beta1.VMPodScrape) scrapeObject {
	o := scrapeObject{kind: "VMPodScrape", namespace: s.Namespace, name: s.Name, selector: s.Spec.Selector, jobLabel: s.Spec.JobLabel}
	// No namespace selector: the scrape's own namespace
	// (getNamespacesFromNamespaceSelector in the VM operator).
	o.namespaces = []string{s.Namespace}
	if ns := s.Spec.NamespaceSelector; ns != nil {
		switch {
		case ns.Any:
			o.namespaces = nil
		case len(ns.MatchNames) > 0:
			o.namespaces = ns.MatchNames
		}
	}
	for _, e := range s.Spec.PodMetricsEndpoints {
		o.ports = append(o.ports, e.Port)
	}
	return o
}

func fromPodMonitor(m *monv1.PodMonitor) scrapeObject {
	o := scrapeObject{kind: "PodMonitor", namespace: m.Namespace, name: m.Name, selector: m.Spec.Selector, jobLabel: m.Spec.JobLabel}
	ns := m.Spec.NamespaceSelector
	switch {
	case ns.Any:
	case len(ns.MatchNames) > 0:
		o.namespaces = ns.MatchNames
	default:
		o.namespaces = []string{m.Namespace}
	}
	for _, e := range m.Spec.PodMetricsEndpoints {
		if e.Port != nil {
			o.ports = append(o.ports, *e.Port)
		}
	}
	return o
}

// targets are the pods o scrapes, labelled as the operators label them.
func (o scrapeObject) targets(pods []memberPod) ([]scrapeTarget, error) {
	sel, err := metav1.LabelSelectorAsSelector(&o.selector)
	if err != nil {
		return nil, fmt.Errorf("%s %s/%s: selector: %w", o.kind, o.namespace, o.name, err)
	}
	if sel.Empty() {
		return nil, fmt.Errorf("%s %s/%s: empty selector (would scrape every pod)", o.kind, o.namespace, o.name)
	}
	var out []scrapeTarget
	for _, p := range pods {
		if o.namespaces != nil && !contains(o.namespaces, p.namespace) {
			continue
		}
		if !sel.Matches(labels.Set(p.labels)) {
			continue
		}
		for _, port := range o.ports {
			n, ok := p.ports[port]
			if !ok {
				continue
			}
			job := o.namespace + "/" + o.name
			if v := p.labels[o.jobLabel]; o.jobLabel != "" && v != "" {
				job = v
			}
			out = append(out, scrapeTarget{job: job, namespace: p.namespace, pod: p.name, container: "etcd", endpoint: port,
				instance: fmt.Sprintf("%s:%d", p.ip, n), cluster: p.cluster})
		}
	}
	return out, nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// b4Stacks renders the shared etcd and a tenant cluster's etcd in one
// tenant namespace, each with its VMPodScrape and PodMonitor.
func b4Stacks(t testing.TB) (shared, tenant []etcdshapes.Object) {
	t.Helper()
	const ns = "tenant-root"
	var err error
	shared, err = etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: ns, APIVersions: golden.MonitoringAPIs})
	if err != nil {
		t.Fatal(err)
	}
	tenant, err = etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: ns, Release: "kubernetes-demo",
		APIVersions: append(append([]string{}, golden.AllAPIs...), golden.MonitoringAPIs...)})
	if err != nil {
		t.Fatal(err)
	}
	return shared, tenant
}

// find returns the stack's single object of type T.
func find[T any](t testing.TB, objs []etcdshapes.Object) T {
	t.Helper()
	var found []T
	for _, o := range objs {
		if v, ok := o.(T); ok {
			found = append(found, v)
		}
	}
	if len(found) != 1 {
		var zero T
		t.Fatalf("%d objects of type %T, want 1", len(found), zero)
	}
	return found[0]
}

// ruleFile is the PrometheusRule's spec as a Prometheus rule file.
func ruleFile(t testing.TB, r *monv1.PrometheusRule) []byte {
	t.Helper()
	b, err := yaml.Marshal(map[string]any{"groups": r.Spec.Groups})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// b4Case is one rule unit test: the targets, which pods are down, and the
// alerts expected at evalTime.
type b4Case struct {
	targets []scrapeTarget
	down    map[string]bool // pod names
	want    []map[string]string
	// annotations are the expected alerts' annotations, by job.
	annotations map[string]map[string]string
}

// unitTestFile is the promtool test file of c.
func (c b4Case) unitTestFile(ruleFile string, evalTime time.Duration) ([]byte, error) {
	type series struct {
		Series string `json:"series"`
		Values string `json:"values"`
	}
	type expAlert struct {
		ExpLabels      map[string]string `json:"exp_labels"`
		ExpAnnotations map[string]string `json:"exp_annotations"`
	}
	type alertTest struct {
		EvalTime  string     `json:"eval_time"`
		Alertname string     `json:"alertname"`
		ExpAlerts []expAlert `json:"exp_alerts"`
	}
	type test struct {
		Interval      string      `json:"interval"`
		InputSeries   []series    `json:"input_series"`
		AlertRuleTest []alertTest `json:"alert_rule_test"`
	}
	var in []series
	for _, tg := range c.targets {
		v := "1"
		if c.down[tg.pod] {
			v = "0"
		}
		in = append(in, series{
			Series: fmt.Sprintf(`up{job=%q,namespace=%q,pod=%q,container=%q,endpoint=%q,instance=%q}`, tg.job, tg.namespace, tg.pod, tg.container, tg.endpoint, tg.instance),
			Values: v + "x15",
		})
	}
	exp := []expAlert{}
	for _, w := range c.want {
		exp = append(exp, expAlert{ExpLabels: w, ExpAnnotations: c.annotations[w["job"]]})
	}
	f := map[string]any{
		"rule_files":          []string{ruleFile},
		"evaluation_interval": "1m",
		"tests": []test{{
			Interval:      "1m",
			InputSeries:   in,
			AlertRuleTest: []alertTest{{EvalTime: evalTime.String(), Alertname: "etcdInsufficientMembers", ExpAlerts: exp}},
		}},
	}
	return yaml.Marshal(f)
}

// runPromtool runs promtool test rules (Prometheus v0.316.0's runner,
// copied into internal/third_party/promtool and run in process) on the rule
// file and c's test file, written to a directory as promtool reads them. It
// returns the report, every failure promtool's JUnit XML report carries and
// the test file, and an error when promtool's exit code is not 0.
func runPromtool(t testing.TB, rules []byte, c b4Case) (string, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "etcd-rules.yaml"), rules, 0o600); err != nil {
		t.Fatal(err)
	}
	test, err := c.unitTestFile("etcd-rules.yaml", 5*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	testFile := filepath.Join(dir, "test.yaml")
	if err := os.WriteFile(testFile, test, 0o600); err != nil {
		t.Fatal(err)
	}
	var junit bytes.Buffer
	code := promtool.TestRules(&junit, testFile)
	var report junitxml.JUnitXML
	if err := xml.Unmarshal(junit.Bytes(), &report); err != nil {
		t.Fatalf("promtool's JUnit report: %v\n%s", err, junit.Bytes())
	}
	var out strings.Builder
	failures := 0
	for _, s := range report.Suites {
		fmt.Fprintf(&out, "%s: %d test groups, %d failures, %d errors\n", filepath.Base(s.Name), s.TestCount, s.FailureCount, s.ErrorCount)
		for _, tc := range s.Cases {
			if tc.Error != "" {
				failures++
				fmt.Fprintf(&out, "  %s: error: %s\n", tc.Name, tc.Error)
			}
			for _, f := range tc.Failures {
				failures++
				fmt.Fprintf(&out, "  %s: FAILED:\n%s\n", tc.Name, f)
			}
		}
	}
	// The exit code and the report agree, and the report is of our file.
	if len(report.Suites) != 1 || (code == 0) != (failures == 0) {
		t.Fatalf("promtool exit code %d, %d test suites, %d failures:\n%s", code, len(report.Suites), failures, out.String())
	}
	out.WriteString("--- test.yaml ---\n" + string(test))
	if code != 0 {
		return out.String(), fmt.Errorf("promtool test rules: exit code %d", code)
	}
	return out.String(), nil
}

// b4 builds the case from the scrape objects: two of the shared etcd's
// members are down; the alert is expected for the shared etcd's scrape
// job alone.
func b4(t testing.TB, rule *monv1.PrometheusRule, sharedScrape, tenantScrape scrapeObject, sharedCluster *v1alpha2.EtcdCluster, pods []memberPod) b4Case {
	t.Helper()
	c := b4Case{down: map[string]bool{}}
	n := 0
	for _, p := range pods {
		if p.cluster == sharedCluster.Name && n < 2 {
			c.down[p.name] = true
			n++
		}
	}
	for _, s := range []scrapeObject{sharedScrape, tenantScrape} {
		tg, err := s.targets(pods)
		if err != nil {
			t.Fatal(err)
		}
		c.targets = append(c.targets, tg...)
	}
	c.want = []map[string]string{{"job": sharedScrape.job(), "severity": "critical"}}
	// The rule's summary for the shared job: its template with the job
	// and the value, the count of members up (one of three).
	up := 0
	for _, tg := range c.targets {
		if tg.job == sharedScrape.job() && !c.down[tg.pod] {
			up++
		}
	}
	c.annotations = map[string]map[string]string{}
	for _, g := range rule.Spec.Groups {
		for _, r := range g.Rules {
			if r.Alert != "etcdInsufficientMembers" {
				continue
			}
			a := map[string]string{}
			for k, v := range r.Annotations {
				v = strings.ReplaceAll(v, "{{ $labels.job }}", sharedScrape.job())
				a[k] = strings.ReplaceAll(v, "{{ $value }}", fmt.Sprint(up))
			}
			c.annotations[sharedScrape.job()] = a
		}
	}
	sort.Slice(c.targets, func(i, j int) bool {
		return c.targets[i].job+c.targets[i].pod < c.targets[j].job+c.targets[j].pod
	})
	return c
}

// job is the job label of o's targets when it has no jobLabel.
func (o scrapeObject) job() string { return o.namespace + "/" + o.name }

// TestAlertsB4 runs the B4 case with each scrape API (VictoriaMetrics'
// VMPodScrapes, prometheus-operator's PodMonitors), as rendered and with
// the shared etcd's scrape selector as it was before B4, which must fail.
func TestAlertsB4(t *testing.T) {
	shared, tenant := b4Stacks(t)
	rule := find[*monv1.PrometheusRule](t, shared)
	rules := ruleFile(t, rule)
	sharedCluster := find[*v1alpha2.EtcdCluster](t, shared)
	tenantCluster := find[*v1alpha2.EtcdCluster](t, tenant)
	pods := append(memberPods(sharedCluster, 10), memberPods(tenantCluster, 20)...)

	preB4 := metav1.LabelSelector{MatchLabels: map[string]string{"app.kubernetes.io/name": "etcd"}}
	apis := []struct {
		name           string
		shared, tenant scrapeObject
	}{
		{"VMPodScrape", fromVMPodScrape(find[*v1beta1.VMPodScrape](t, shared)), fromVMPodScrape(find[*v1beta1.VMPodScrape](t, tenant))},
		{"PodMonitor", fromPodMonitor(find[*monv1.PodMonitor](t, shared)), fromPodMonitor(find[*monv1.PodMonitor](t, tenant))},
	}
	for _, api := range apis {
		t.Run(api.name+"/rendered", func(t *testing.T) {
			c := b4(t, rule, api.shared, api.tenant, sharedCluster, pods)
			logTargets(t, c)
			out, err := runPromtool(t, rules, c)
			if err != nil {
				t.Fatalf("promtool test rules failed on the rendered selectors: %v\n%s", err, out)
			}
			t.Logf("promtool test rules: SUCCESS: etcdInsufficientMembers fires for %v only\n%s", c.want, firstLines(out, 3))
		})
		t.Run(api.name+"/pre-B4 selector must fail", func(t *testing.T) {
			pre := api.shared
			pre.selector = preB4
			c := b4(t, rule, pre, api.tenant, sharedCluster, pods)
			logTargets(t, c)
			out, err := runPromtool(t, rules, c)
			if err == nil {
				t.Fatalf("promtool test rules passed with the pre-B4 selector app.kubernetes.io/name=etcd: the test cannot tell\n%s", out)
			}
			// It must fail because the alert did not fire, not otherwise.
			if !strings.Contains(out, "got:[]") {
				t.Fatalf("promtool failed, but not for a missing alert:\n%s", out)
			}
			t.Logf("promtool test rules failed as it must (%v):\n%s", err, firstLines(out, 12))
		})
	}
}

func logTargets(t *testing.T, c b4Case) {
	t.Helper()
	var b strings.Builder
	for _, tg := range c.targets {
		state := "up"
		if c.down[tg.pod] {
			state = "DOWN"
		}
		fmt.Fprintf(&b, "  job=%s pod=%s instance=%s %s\n", tg.job, tg.pod, tg.instance, state)
	}
	t.Logf("scraped targets:\n%s", b.String())
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

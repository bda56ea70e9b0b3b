package works

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/monitoring"
	monv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/prometheus/promql/parser"
)

// promql is Prometheus's parser with its default options, as the rules
// manager (rules/manager.go) and promtool without feature flags use it.
var promql = parser.NewParser(parser.Options{})

// grafanaVariables are the Grafana global variables a query may use,
// replaced by a value of their type before parsing, as Grafana does before
// it sends a query (the durations are examples: any duration parses the
// same).
var grafanaVariables = map[string]string{
	"$__rate_interval":   "1m",
	"$__interval":        "30s",
	"$__range":           "6h",
	"${__rate_interval}": "1m",
	"${__interval}":      "30s",
	"${__range}":         "6h",
}

// grafanaVariable matches any variable left after the substitution: one
// the dashboard would need Grafana to define.
var grafanaVariable = regexp.MustCompile(`\$(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)`)

// TestQueriesParse parses, with Prometheus v0.316.0's PromQL parser, every
// alert expression of the etcd chart's PrometheusRule and every query of
// the dashboard of every golden scenario's stack (monitoring.DashboardJSON,
// the model monitoring.Dashboard embeds; Grafana's variables substituted).
func TestQueriesParse(t *testing.T) {
	seen := map[string]bool{}
	var rules, queries int
	for _, sc := range golden.All() {
		objs, err := sc.Render()
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			r, ok := o.(*monv1.PrometheusRule)
			if !ok {
				continue
			}
			for _, g := range r.Spec.Groups {
				for _, rule := range g.Rules {
					expr := rule.Expr.String()
					if _, err := promql.ParseExpr(expr); err != nil {
						t.Errorf("%s: PrometheusRule %s, rule %s%s: %v\n%s", sc.Name, r.Name, rule.Alert, rule.Record, err, expr)
					}
					rules++
				}
			}
		}
		n, err := scenarioNames(sc)
		if err != nil {
			t.Fatal(err)
		}
		model, err := monitoring.DashboardJSON(n, monitoring.DashboardOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var d any
		if err := json.Unmarshal(model, &d); err != nil {
			t.Fatal(err)
		}
		for _, expr := range exprs(d) {
			q := expr
			for v, val := range grafanaVariables {
				q = strings.ReplaceAll(q, v, val)
			}
			if left := grafanaVariable.FindString(q); left != "" {
				t.Errorf("%s: dashboard query uses %s, which Grafana does not define:\n%s", sc.Name, left, expr)
				continue
			}
			if _, err := promql.ParseExpr(q); err != nil {
				t.Errorf("%s: dashboard query: %v\n%s", sc.Name, err, expr)
			}
			queries++
			seen[expr] = true
		}
	}
	if rules == 0 || queries == 0 {
		t.Fatalf("parsed %d rule expressions and %d dashboard queries: the walk found nothing", rules, queries)
	}
	t.Logf("parsed %d rule expressions and %d dashboard queries (%d distinct)", rules, queries, len(seen))
}

// exprs are the "expr" strings anywhere in a Grafana model (the panels'
// targets).
func exprs(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			if s, ok := v[k].(string); ok && k == "expr" {
				out = append(out, s)
				continue
			}
			out = append(out, exprs(v[k])...)
		}
	case []any:
		for _, e := range v {
			out = append(out, exprs(e)...)
		}
	}
	return out
}

// TestQueriesParseCanFail shows the parse check can fail: the dashboard's
// queries as written (before Grafana substitutes $__rate_interval) and a
// rule expression with its last parenthesis cut are refused.
func TestQueriesParseCanFail(t *testing.T) {
	n, err := scenarioNames(golden.All()[0])
	if err != nil {
		t.Fatal(err)
	}
	model, err := monitoring.DashboardJSON(n, monitoring.DashboardOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var d any
	if err := json.Unmarshal(model, &d); err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, expr := range exprs(d) {
		if strings.Contains(expr, "$__rate_interval") {
			if _, err := promql.ParseExpr(expr); err == nil {
				t.Errorf("the parser accepts a query with $__rate_interval unsubstituted: %s", expr)
			}
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("no dashboard query uses $__rate_interval")
	}
	expr := `sum(up{job=~".*etcd.*"} == bool 1) by (job)`
	if _, err := promql.ParseExpr(expr[:len(expr)-1]); err == nil {
		t.Error("the parser accepts an expression with a parenthesis cut")
	}
	if grafanaVariable.FindString(`rate(x{pod=~"$pod"}[1m])`) == "" {
		t.Error("an undefined Grafana variable is not noticed")
	}
}

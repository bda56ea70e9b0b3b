package roundtrip

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"
)

// probeTemplate calls one hand-written helper with .Values.in:
//
//	config   - etcdshapes.config for in.caller, in.namespace, in.release
//	           and in.values (and in.checks); the filled config as JSON
//	           (without root)
//	other    - etcdshapes.check.<op> of the checks (files/checks.tpl, run
//	           with tpl as the config runs them), with the constants (files/constants.json and
//	           etcdshapes.check.constants) as k.
const probeTemplate = `{{- $in := .Values.in }}
{{- if eq .Values.op "config" }}
{{- $root := dict "Values" ($in.values | default dict) "Release" (dict "Name" $in.release "Namespace" $in.namespace) "Chart" (dict "Version" "0.0.0") "Capabilities" .Capabilities "Subcharts" .Subcharts }}
{{- $c := dict "root" $root "caller" $in.caller "checks" $in.checks }}
{{- include "etcdshapes.config" $c }}
{{- toJson (omit $c "root") }}
{{- else }}
{{- tpl (print (.Subcharts.etcdshapes.Files.Get "files/checks.tpl") "{{- $k := fromJson .constants }}{{- include \"etcdshapes.check.constants\" $k }}{{- include (printf \"etcdshapes.check.%s\" .op) (merge (dict \"k\" $k) .in) }}") (merge (dict "constants" (.Subcharts.etcdshapes.Files.Get "files/constants.json")) .Values) }}
{{- end }}`

// probe renders one helper call.
func probe(t *testing.T, h helm, op string, in map[string]any) (string, error) {
	t.Helper()
	c := withLibrary(t, h, "probe", chartgen.File{Path: "templates/probe.yaml", Data: []byte(probeTemplate)})
	values, err := json.Marshal(map[string]any{"op": op, "in": in})
	if err != nil {
		t.Fatal(err)
	}
	values = asciiJSON(values)
	out, err := h.render(c, values, renderInput{release: "probe", namespace: "tenant-probe"})
	if err != nil {
		return "", err
	}
	return out["probe/templates/probe.yaml"], nil
}

// asciiJSON is JSON with every character beyond ASCII written as an
// escape, \u or (beyond U+FFFF) YAML's \U: the same value as YAML. Helm reads values as YAML, which refuses raw C1
// and other control characters ("control characters are not allowed") and
// folds a raw NEL (U+0085) to a space; escaped, they reach the template
// as they are.
func asciiJSON(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for _, r := range string(b) {
		switch {
		case r < 0x7f:
			out = append(out, byte(r))
		case r > 0xffff: // YAML takes no surrogate pair
			out = fmt.Appendf(out, `\U%08x`, r)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
	}
	return out
}

// probeConfig fills a config with etcdshapes.config; checks runs every
// check (the general path) even for input the quick tests vouch for.
func probeConfig(t *testing.T, h helm, caller naming.Caller, namespace, release string, values map[string]any, checks ...bool) (map[string]any, error) {
	t.Helper()
	if caller == naming.CallerEtcd {
		// The values.yaml defaults Helm would coalesce under these values
		// (an absent version, replicas or size is a null the checks refuse).
		v := map[string]any{"version": etcd.DefaultVersion, "replicas": etcd.DefaultReplicas, "size": etcd.DefaultSize}
		for k, x := range values {
			v[k] = x
		}
		values = v
	}
	out, err := probe(t, h, "config", map[string]any{"caller": caller, "namespace": namespace, "release": release, "values": values, "checks": len(checks) > 0 && checks[0]})
	if err != nil {
		return nil, err
	}
	var c map[string]any
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return c, nil
}

// helmMessage is the message a template's fail carries.
func helmMessage(err error) string {
	s := err.Error()
	if i := strings.Index(s, "): "); i >= 0 && strings.HasPrefix(s, "execution error at (") {
		return s[i+3:]
	}
	return s
}

// tenants and releases are random names in the shapes the callers meet,
// biased to the lengths where truncation starts, with dashes and dots at
// the cut points.
func randomName(r *rand.Rand, prefix string, length int, alphabet string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for b.Len() < length {
		b.WriteByte(alphabet[r.Intn(len(alphabet))])
	}
	return b.String()
}

func TestNamesTwin(t *testing.T) { forEachHelm(t, namesTwin) }

func namesTwin(t *testing.T, h helm) {
	r := rand.New(rand.NewSource(1))
	type pair struct{ ns, rel string }
	var pairs []pair
	for _, ns := range []string{"tenant-root", "tenant-a", "tenant-a-b-c", "tenant-" + strings.Repeat("x", 56), "tenant-" + strings.Repeat("ab-", 18) + "z"} {
		for l := 12; l <= 52; l++ {
			pairs = append(pairs,
				pair{ns, randomName(r, "kubernetes-", l, "abcdefghijklmnopqrstuvwxyz0123456789")},
				pair{ns, randomName(r, "kubernetes-", l, "a-")}, // dashes at every cut point
			)
		}
	}
	// Releases whose cut falls right after a dash, for each limit.
	for keep := 30; keep <= 56; keep++ {
		rel := "kubernetes-" + strings.Repeat("b", keep-len("kubernetes-")-1) + "-" + strings.Repeat("c", 12)
		pairs = append(pairs, pair{"tenant-" + strings.Repeat("n", 20), strings.TrimRight(rel[:min(len(rel), 51)], "-")})
	}
	// Namespaces ending in a dot after truncation: "<ns>.<rel>" cut at 54.
	for nsLen := 45; nsLen <= 56; nsLen++ {
		pairs = append(pairs, pair{randomName(r, "tenant-", nsLen, "abcdefghij"), "kubernetes-demo-cluster"})
	}
	// Invalid names: each must be refused with the library's message.
	for _, p := range []pair{
		{"default", "kubernetes-x"}, {"tenant-", "kubernetes-x"}, {"tenant--a", "kubernetes-x"}, {"tenant-A", "kubernetes-x"},
		{"tenant-a.b", "kubernetes-x"}, {"tenant-" + strings.Repeat("x", 60), "kubernetes-x"},
		{"tenant-a", ""}, {"tenant-a", "Kubernetes"}, {"tenant-a", "1kubernetes"}, {"tenant-a", "a.b"}, {"tenant-a", "-a"},
		{"tenant-a", "kubernetes-" + strings.Repeat("x", 41)}, {"tenant-a", strings.Repeat("x", 64)},
	} {
		pairs = append(pairs, p)
	}
	for _, p := range pairs {
		for _, caller := range naming.Callers() {
			rel := p.rel
			if caller == "etcd" {
				rel = "etcd"
				if strings.HasSuffix(p.rel, "x") {
					rel = p.rel // a wrong release for the etcd chart
				}
			}
			got, err := probeConfig(t, h, caller, p.ns, rel, nil)
			var n naming.Names
			var goErr error
			if caller == "etcd" {
				n, goErr = naming.ForEtcdChart(p.ns, rel)
			} else {
				n, goErr = naming.ForCluster(p.ns, rel)
			}
			if goErr != nil {
				if err == nil || helmMessage(err) != firstMessage(goErr) {
					t.Fatalf("%s %q %q: library refuses with %q, helper gives %v / %v", caller, p.ns, rel, goErr, err, got)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s %q %q: helper refuses: %v", caller, p.ns, rel, err)
			}
			want := map[string]string{
				"namespace": n.Namespace, "release": n.Release, "cluster": n.Cluster,
				"dataStore": n.DataStore(), "defragCronJob": n.DefragCronJob(), "cleanupJob": n.CleanupJob(),
			}
			for k, w := range want {
				if got[k] != w {
					t.Fatalf("%s %q %q: %s: library %q, helper %v", caller, p.ns, rel, k, w, got[k])
				}
			}
		}
	}
	t.Logf("%s: names: %d namespace/release pairs, both callers", h.name(), len(pairs))
}

func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

// sizes spell sizes in every unit of the quantity grammar, plus plain
// numbers as YAML numbers (float64) and strings the grammar refuses.
func sizes() []any {
	var out []any
	for _, num := range []string{"1", "0.5", "1.5", "3", "4", "10", "100", "7", "0.001", "12345", "999", "1.", ".25", "+2"} {
		for _, unit := range []string{"", "k", "M", "G", "T", "P", "Ki", "Mi", "Gi", "Ti", "Pi", "m", "u", "n", "e3", "E6", "e+9", "e-2", "E"} {
			out = append(out, num+unit)
		}
	}
	for _, f := range []float64{5000000000, 1, 1e9, 4294967296, 1.5e10, 123456789} {
		out = append(out, f)
	}
	// Around etcd.MinSize in every unit, and sizes the charts' rules
	// refuse (quantity.ChartRule).
	for _, s := range []string{"256Mi", "255.9Mi", "255.99999999Mi", "262144Ki", "262143Ki", "268435456", "268435455", "268435455.999999", "0.25Gi", "0.2499Gi",
		"268.435456M", "268.435455M", "268435.456k", "0.000244140625Ti", "0.000244140624Ti", "2.68435456e8", "2.68435455e8",
		"0.1234567890123456789Gi", "999999Gi", "99999Gi", "1.5n", "1234567890123450000", "9e18", "1Pi", "1Ei", "4.76837158203125Ei", "0.0000213623046875Ei"} {
		out = append(out, s)
	}
	return append(out, "10Gb", "", "abc", "1.2.3", "Mi", "-1Gi", "0", "1e", "--1", "1 Gi", "0x10", "1e3Mi", "8Ei", true,
		// The quantity bounds.
		"9223372036854775808", "9.2E", "9.223372036854775E", "7.999999999999999999132638262011596452794037759304046630859375Ei",
		"7.999999999999999999132638262011596452794037759304046630859376Ei", "1e999999999", "1e-999999999", "1e-99", "1e100", "Ei", "e-10")
}

// quantityTexts are texts in every form of the quantity grammar around
// every bound (internal/quantity's): every sign, suffix and exponent form,
// 2^63-1 and its neighbours in each unit, digitless mantissas, and random
// texts of the grammar's alphabet.
func quantityTexts() []string {
	out := []string{"", ".", "-", "+", "Mi", "Ti", "Pi", "Ei", "-Ei", ".Ei", "e5", "e-9", "e-10", "e-99", "e-100", ".e-10", "E",
		quantity.Max, "9223372036854775808", "9223372036854775807", "-" + quantity.Max, quantity.Max + ".5", quantity.Max + ".000", "0" + quantity.Max, "00." + quantity.Max + "e19",
		"9223372036854775807000e-3", "9223372036854775808000e-3", "922337203685477580.7e1", "0.9223372036854775807e19", "0.9223372036854775808e19",
		"1e9223372036854775807", "1e9223372036854775808", "1e-9223372036854775808", "1e-9223372036854775809", "1e4294967297", "1e999999999", "1e-999999999",
		"0e999", "0e-999", strings.Repeat("9", 65), "0." + strings.Repeat("0", 62) + "1", "0." + strings.Repeat("0", 61) + "1", strings.Repeat("1", 64)}
	// Around 2^63 in each binary unit, and its float64's neighbours.
	for k, suffix := range []string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"} {
		m := new(big.Int).Lsh(big.NewInt(1), uint(63-10*(k+1)))
		less := new(big.Int).Sub(m, big.NewInt(1)).String()
		out = append(out, m.String()+suffix, less+suffix, less+".9"+suffix, less+".99999999999999999999"+suffix, less+".999999999999999"+suffix, "-"+m.String()+suffix)
	}
	out = append(out, "9223372036854775295", "9223372036854775296", "9223372036854774784", "9.223372036854775e18", "9.2233720368547753e18", "-9223372036854775296")
	for _, sign := range []string{"", "-", "+"} {
		for _, num := range []string{"1", "1.5", "0.5", "8", "9", "9223372036854775807", "12345678901234567890", ".5", "5."} {
			for _, suffix := range []string{"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e9", "E-9", "e+18", "e-99", "e99", "e100", "e-100", "e999999999"} {
				out = append(out, sign+num+suffix)
			}
		}
	}
	// Around every rule of quantity.ChartRule: numbers of 14 to 17
	// significant digits in every suffix and both exponent signs, binary
	// values that gain digits, fractions of a nano-unit, values around
	// 2^53, fractional Ei.
	for _, suffix := range []string{"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e3", "e-3", "E+9", "e-9"} {
		for n := 14; n <= 17; n++ {
			out = append(out, strings.Repeat("9", n)+suffix, "1"+strings.Repeat("2", n-1)+suffix, "0."+strings.Repeat("3", n)+suffix, "-1234."+strings.Repeat("7", n-4)+suffix)
		}
	}
	out = append(out, "0.1234567890123456789", "123456789012345678m", "1.5n", "0.5n", "1e-10", "0.0000000001", "0.1Ki", "0.0000000001Ki", "0.0000000005Ki",
		"0.123456789Gi", "999999Gi", "99999Gi", "99Ti", "999Ti", "3Ei", "9007199254740992", "9007199254740993", "9e18", "-9e18", "1234567890123450000",
		"4.76837158203125Ei", "0.0000000476837158203125Ei", "0.0000213623046875Ei", "0.0000000091552734375Ei", "000000000000000000000001.5000000000000000000")
	r := rand.New(rand.NewSource(19))
	const alphabet = "0000111999..+-eEEiKMGTPnumk"
	for i := 0; i < 300; i++ {
		b := make([]byte, 1+r.Intn(24))
		for j := range b {
			b[j] = alphabet[r.Intn(len(alphabet))]
		}
		out = append(out, string(b))
	}
	return out
}

// TestQuantityBoundsTwin: the checks' quantity helper (etcdshapes.check.quantity
// with try) and quantity.ChartRule agree on every text: no quantity, the
// bound or the rule of the charts' arithmetic it breaks with the same
// rule, or admitted.
func TestQuantityBoundsTwin(t *testing.T) { forEachHelm(t, quantityBoundsTwin) }

func quantityBoundsTwin(t *testing.T, h helm) {
	counts := map[string]int{}
	for _, s := range quantityTexts() {
		want := quantity.ChartRule(s)
		out, err := probe(t, h, "quantity", map[string]any{"field": "values.size", "value": s, "try": true})
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		var got struct {
			Bad   bool
			Bound string
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%q: %v: %s", s, err, out)
		}
		rule := got.Bound
		if got.Bad {
			rule = quantity.SyntaxRule
		}
		if rule != want {
			t.Fatalf("%q: library %q, checks %q", s, want, rule)
		}
		counts[want]++
	}
	if len(counts) != 9 {
		t.Fatalf("not every rule met: %v", counts)
	}
	t.Logf("%s: quantity bounds: %v", h.name(), counts)
}

// TestQuotaTwin: the quota the config computes (and the refusals of the
// checks) for sizes in every unit, against etcd.QuotaBackendBytes.
func TestQuotaTwin(t *testing.T) { forEachHelm(t, quotaTwin) }

func quotaTwin(t *testing.T, h helm) {
	checked := 0
	for _, s := range sizes() {
		got, err := probeConfig(t, h, "etcd", "tenant-root", "etcd", map[string]any{"size": s})
		str := fmt.Sprint(s)
		if f, ok := s.(float64); ok {
			str = fmt.Sprintf("%.0f", f)
		}
		q, perr := quantity.Parse("values.size", str, str)
		if _, isBool := s.(bool); isBool {
			perr = fmt.Errorf("not a quantity")
		}
		var want int64
		qerr := perr
		if perr == nil {
			want, qerr = etcd.QuotaBackendBytes(q)
		}
		switch {
		case qerr != nil && err != nil:
		case qerr != nil:
			t.Fatalf("size %v: library refuses (%v), config gives %v", s, qerr, got["quota"])
		case err != nil:
			t.Fatalf("size %v: config refuses (%v), library gives %d", s, err, want)
		case got["quota"] != fmt.Sprint(want):
			t.Fatalf("size %v: library %d, config %v", s, want, got["quota"])
		}
		checked++
	}
	t.Logf("%s: quota: %d sizes", h.name(), checked)
}

// TestQuantityValueTwin: the value the checks read from a valid quantity
// (the general arithmetic, which the quota and the sanitiser build on), and
// their refusal of an invalid one.
func TestQuantityValueTwin(t *testing.T) { forEachHelm(t, quantityValueTwin) }

func quantityValueTwin(t *testing.T, h helm) {
	for _, s := range sizes() {
		str, ok := s.(string)
		if !ok {
			continue
		}
		q, perr := quantity.Parse("values.size", str, str)
		if perr != nil {
			if _, err := probe(t, h, "quantity", map[string]any{"field": "values.size", "value": s}); err == nil {
				t.Fatalf("quantity %q: the library refuses it (%v), the checks do not", str, perr)
			}
			continue
		}
		got, err := probe(t, h, "quantity", map[string]any{"field": "values.size", "value": s})
		if err != nil {
			t.Fatalf("quantity %q: %v", str, err)
		}
		var v struct{ F float64 }
		if err := json.Unmarshal([]byte(got), &v); err != nil {
			t.Fatal(err)
		}
		if want := q.AsApproximateFloat64(); v.F != want && !(v.F > 0 && relDiff(v.F, want) < 1e-15) {
			t.Fatalf("quantity %q: library %v, helper %v", str, want, v.F)
		}
	}
}

func relDiff(a, b float64) float64 {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d / b
}

// TestSanitizeTwin: the requests the config derives from the limits and the
// ratios (and the VPA bounds from the fixed ones), against
// etcd.SanitizeResources; where the library refuses the combination (a
// request above its limit), the chart refuses it with the same message.
func TestSanitizeTwin(t *testing.T) { forEachHelm(t, sanitizeTwin) }

func sanitizeTwin(t *testing.T, h helm) {
	limitsCases := []map[string]any{
		{"cpu": "1000m", "memory": "512Mi"},
		{"cpu": 2.0, "memory": "1Gi"},
		{"cpu": "1", "memory": "1000Mi", "ephemeral-storage": "3Gi", "example.com/device": "1"},
		{"cpu": "250m", "memory": "256Mi"},
		{"cpu": "5000m", "memory": "8Gi"},
		{"cpu": "3", "memory": "1G", "ephemeral-storage": "10G"},
		{"cpu": "0.1", "memory": "100M"},
		{"cpu": "7", "memory": "7Gi", "ephemeral-storage": "7Ti"},
		{"cpu": "333m", "memory": "123456789"},
		{"cpu": "1.5", "memory": "1.5Gi", "hugepages-2Mi": "2Mi"},
		{"cpu": "0", "memory": "0"},
		{"cpu": "64", "memory": "1Ti"},
	}
	ratios := []string{"1", "2", "3", "1.5", "0.3", "7", "10", "40", "0.7", "1e-3", "100", "2.5", "0.1", "6", "9.99", "33"}
	checked := 0
	for _, limits := range limitsCases {
		for i, cpuRatio := range ratios {
			memRatio := ratios[(i+3)%len(ratios)]
			ephRatio := ratios[(i+7)%len(ratios)]
			cluster := map[string]any{"cpu-allocation-ratio": cpuRatio, "memory-allocation-ratio": memRatio, "ephemeral-storage-allocation-ratio": ephRatio}
			values := map[string]any{"resources": limits, "_cluster": cluster}
			_, goErr := etcdshapes.Render(etcdshapes.Request{Caller: "etcd", Namespace: "tenant-root", Values: values})
			list := corev1.ResourceList{}
			for k, v := range limits {
				list[corev1.ResourceName(k)] = resource.MustParse(fmt.Sprint(v))
			}
			want, err := etcd.SanitizeResources(list, etcd.Ratios{CPU: cpuRatio, Memory: memRatio, EphemeralStorage: ephRatio})
			if err != nil {
				t.Fatal(err)
			}
			for _, checks := range []bool{false, true} {
				got, err := probeConfig(t, h, "etcd", "tenant-root", "etcd", values, checks)
				if goErr != nil {
					if err == nil {
						t.Fatalf("%v / %v: the library refuses (%v), the config does not", limits, cluster, goErr)
					}
					checkSameRefusal(t, goErr, err)
					continue
				}
				if err != nil {
					t.Fatalf("%v / %v (checks %v): %v", limits, cluster, checks, err)
				}
				var res struct{ Limits, Requests map[string]any }
				if err := yaml.Unmarshal([]byte(fmt.Sprint(got["resources"])), &res); err != nil {
					t.Fatalf("%v: %v", err, got["resources"])
				}
				for name, q := range want.Requests {
					if c := canonQuantity(res.Requests[string(name)]); c != q.String() {
						t.Fatalf("%v / %v (checks %v): request %s: library %s, config %v (%v)", limits, cluster, checks, name, q.String(), res.Requests[string(name)], c)
					}
				}
				for name, q := range want.Limits {
					if c := canonQuantity(res.Limits[string(name)]); c != q.String() {
						t.Fatalf("%v / %v (checks %v): limit %s: library %s, config %v", limits, cluster, checks, name, q.String(), res.Limits[string(name)])
					}
				}
				if len(res.Requests) != len(want.Requests) || len(res.Limits) != len(want.Limits) {
					t.Fatalf("%v / %v (checks %v): resource sets differ: %v", limits, cluster, checks, got["resources"])
				}
				r := etcd.Ratios{CPU: cpuRatio, Memory: memRatio, EphemeralStorage: ephRatio}
				for prefix, bounds := range map[string][2]string{"vpaMin": {etcd.VPAMinCPU, etcd.VPAMinMemory}, "vpaMax": {etcd.VPAMaxCPU, etcd.VPAMaxMemory}} {
					b, err := etcd.SanitizeResources(corev1.ResourceList{"cpu": resource.MustParse(bounds[0]), "memory": resource.MustParse(bounds[1])}, r)
					if err != nil {
						t.Fatal(err)
					}
					for name, key := range map[corev1.ResourceName]string{"cpu": prefix + "Cpu", "memory": prefix + "Memory"} {
						q := b.Requests[name]
						if c := canonQuantity(got[key]); c != q.String() {
							t.Fatalf("%v (checks %v): %s: library %s, config %v", cluster, checks, key, q.String(), got[key])
						}
					}
				}
			}
			checked++
		}
	}
	t.Logf("%s: sanitize: %d limit/ratio combinations", h.name(), checked)
}

// TestFormatFloatTwin: the helpers spell a float64 ratio as ratioValue
// does, strconv.FormatFloat(f, 'f', -1, 64), where toJson would write an
// exponent (below 1e-6 and from 1e21 on).
func TestFormatFloatTwin(t *testing.T) { forEachHelm(t, formatFloatTwin) }

func formatFloatTwin(t *testing.T, h helm) {
	r := rand.New(rand.NewSource(3))
	fs := []float64{0, 1, -1, 0.5, 3.6, 2.5, 1e-6, 9.99e-7, 1e-7, 1.2345e-7, -1.5e-7, 5e-324, 1e20, 1e21, 1e23, -1.5e23, 1.7976931348623157e308, 123456789.125}
	for i := 0; i < 300; i++ {
		fs = append(fs, math.Float64frombits(r.Uint64()))
		fs = append(fs, (r.Float64()-0.5)*math.Pow(10, float64(r.Intn(60)-30)))
	}
	checked := 0
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue // no values file holds them
		}
		got, err := probe(t, h, "formatFloat", map[string]any{"value": f})
		if err != nil {
			t.Fatal(err)
		}
		if want := strconv.FormatFloat(f, 'f', -1, 64); got != want {
			t.Fatalf("%v: library %s, helper %s", f, want, got)
		}
		checked++
	}
	t.Logf("%s: formatFloat: %d floats", h.name(), checked)
}

func TestTenantPathTwin(t *testing.T) { forEachHelm(t, tenantPathTwin) }

func tenantPathTwin(t *testing.T, h helm) {
	for _, ns := range []string{"tenant-root", "tenant-a", "tenant-a-b", "tenant-a-b-c-d-e", "tenant-root-x", "tenant-" + strings.Repeat("q-", 20) + "z"} {
		c, err := probeConfig(t, h, "etcd", ns, "etcd", nil)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(c["tenants"])
		tenants, err := naming.TenantPath(ns)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(tenants)
		if !jsonEqual(t, string(want), string(got)) {
			t.Fatalf("%s: library %s, helper %s", ns, want, got)
		}
	}
}

// TestValidationTwins compares the ports of apimachinery's name validators
// (their messages appear in refusals) on names of every shape.
func TestValidationTwins(t *testing.T) { forEachHelm(t, validationTwins) }

func validationTwins(t *testing.T, h helm) {
	r := rand.New(rand.NewSource(2))
	inputs := []string{"", "a", "-", "a-", "A", "a.b", "a..b", "a_b", "a/b", "/a", "a/", "a/b/c", "example.com/device", "Example.com/x",
		"x.y/" + strings.Repeat("n", 64), strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a.", 127) + "a", "kubernetes.io/hostname",
		"hugepages-2Mi", "_x", "x_", "1", "1-a", "a-1"}
	for i := 0; i < 300; i++ {
		inputs = append(inputs, randomName(r, "", 1+r.Intn(80), "ab-._/A1"))
	}
	twins := map[string]func(string) []string{
		"labelErrors":         validation.IsDNS1123Label,
		"subdomainErrors":     validation.IsDNS1123Subdomain,
		"qualifiedNameErrors": validation.IsQualifiedName,
		"labelValueErrors":    validation.IsValidLabelValue,
	}
	for _, op := range []string{"labelErrors", "subdomainErrors", "qualifiedNameErrors", "labelValueErrors"} {
		for _, in := range inputs {
			got, err := probe(t, h, op, map[string]any{"value": in})
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.Join(twins[op](in), "; "); got != want {
				t.Fatalf("%s %q:\n  library %q\n  helper  %q", op, in, want, got)
			}
		}
	}
}

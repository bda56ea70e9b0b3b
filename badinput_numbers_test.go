package etcdshapes_test

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/jsonnum"
	"github.com/etcdshapes/etcdshapes/internal/numpath"
	"github.com/etcdshapes/etcdshapes/internal/strvals"
	"github.com/etcdshapes/etcdshapes/internal/yamlnum"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
)

// The rules of a number a float64 does not hold as written
// (jsonnum.Loss).
const (
	lossUnder  = "too close to zero for a float64"
	lossOver   = "too large for a float64"
	lossDigits = "more significant digits than a float64 holds"
	lossNegZ   = "is a negative zero"
)

// setJSON renders the etcd chart in tenant-root with --set-json
// arguments.
func setJSON(args ...string) func() error {
	return func() error {
		v := map[string]any{}
		if err := (strvals.Sets{JSON: args}).Apply(v, nil); err != nil {
			return err
		}
		_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: v})
		return err
	}
}

// numbersBadInputs: a number no float64 holds as written (a negative
// zero, one too close to zero or too large for a float64, more
// significant digits than one holds) is refused wherever a number enters
// (values files in JSON's and in YAML 1.1's spellings, --set, --set-json,
// values built in Go, the ratios of etcd.Options, live files in YAML and
// in JSON, anywhere in them), naming the field and quoting the number as
// written, before any rule judges the number it reads as: 1e-400 read as
// 0 passed as a cpu limit of 0, 3.0000000000000000001 as 3 replicas,
// 123456789012345678 bytes as 123456789012345680.
func numbersBadInputs() []badInput {
	n := func(s string) json.Number { return json.Number(s) }
	return []badInput{
		// Values files: every key read as a number, every loss.
		{"number cpu underflow", etcdValues("resources:\n  cpu: 1e-400"), "values.resources.cpu", n("1e-400"), lossUnder},
		{"number cpu negative zero", etcdValues("resources:\n  cpu: -0"), "values.resources.cpu", n("-0"), lossNegZ},
		{"number memory float negative zero", etcdValues("resources:\n  memory: -0.0"), "values.resources.memory", n("-0.0"), lossNegZ},
		{"number memory digits", etcdValues("resources:\n  memory: 123456789012345678"), "values.resources.memory", n("123456789012345678"), lossDigits},
		{"number memory digits YAML 1.1", etcdValues("resources:\n  memory: 123_456_789_012_345_678"), "values.resources.memory", n("123_456_789_012_345_678"), lossDigits},
		{"number memory hex beyond 2^53", etcdValues("resources:\n  memory: 0x7fffffffffffffff"), "values.resources.memory", n("0x7fffffffffffffff"), lossDigits},
		{"number ephemeral underflow", etcdValues("resources:\n  ephemeral-storage: 2e-324"), "values.resources.ephemeral-storage", n("2e-324"), lossUnder},
		{"number extended resource digits", etcdValues("resources:\n  example.com/device: 1.00000000000000000001"), "values.resources.example.com/device", n("1.00000000000000000001"), lossDigits},
		{"number size digits", etcdValues("size: 4294967296.00000000000001"), "values.size", n("4294967296.00000000000001"), lossDigits},
		{"number size underflow", etcdValues("size: 1e-400"), "values.size", n("1e-400"), lossUnder},
		{"number replicas digits", etcdValues("replicas: 3.0000000000000000001"), "values.replicas", n("3.0000000000000000001"), lossDigits},
		{"number replicas negative zero", etcdValues("replicas: -0"), "values.replicas", n("-0"), lossNegZ},
		{"number cpu ratio underflow", etcdValues("_cluster:\n  cpu-allocation-ratio: 1e-400"), "_cluster.cpu-allocation-ratio", n("1e-400"), lossUnder},
		{"number memory ratio digits", etcdValues("_cluster:\n  memory-allocation-ratio: 1.00000000000000000001"), "_cluster.memory-allocation-ratio", n("1.00000000000000000001"), lossDigits},
		{"number ephemeral ratio negative zero", etcdValues("_cluster:\n  ephemeral-storage-allocation-ratio: -0.0"), "_cluster.ephemeral-storage-allocation-ratio", n("-0.0"), lossNegZ},
		{"number ratio digits, leading point", etcdValues("_cluster:\n  cpu-allocation-ratio: +.10000000000000000001"), "_cluster.cpu-allocation-ratio", n("+.10000000000000000001"), lossDigits},
		{"number cluster replicas digits", clusterValues("etcd:\n  replicas: 1.0000000000000000001"), "etcd.replicas", n("1.0000000000000000001"), lossDigits},
		{"number cluster replicas negative zero", clusterValues("etcd:\n  replicas: -0"), "etcd.replicas", n("-0"), lossNegZ},
		{"number cluster ratio underflow", clusterValues("_cluster:\n  memory-allocation-ratio: 1e-400"), "_cluster.memory-allocation-ratio", n("1e-400"), lossUnder},
		{"number affinity weight digits", etcdValues("affinity:\n  podAntiAffinity:\n    preferredDuringSchedulingIgnoredDuringExecution:\n    - weight: 50.0000000000000000001\n      podAffinityTerm:\n        topologyKey: zone"),
			"values.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight", n("50.0000000000000000001"), lossDigits},
		{"number spread maxSkew underflow", etcdValues(spread("topologySpreadConstraints:\n- maxSkew: 1e-400\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n")),
			"_cluster.scheduling.globalAppTopologySpreadConstraints[0].maxSkew", n("1e-400"), lossUnder},
		{"number spread maxSkew digits", etcdValues(spread("topologySpreadConstraints:\n- maxSkew: 1.0000000000000000001\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n")),
			"_cluster.scheduling.globalAppTopologySpreadConstraints[0].maxSkew", n("1.0000000000000000001"), lossDigits},
		{"number spread minDomains negative zero", etcdValues(spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n  minDomains: -0\n")),
			"_cluster.scheduling.globalAppTopologySpreadConstraints[0].minDomains", n("-0"), lossNegZ},
		// Flags: --set's integers, --set-json's numbers.
		{"number --set negative zero", setValues("replicas=-0"), "values.replicas", n("-0"), lossNegZ},
		{"number --set cpu negative zero", setValues("resources.cpu=-0"), "values.resources.cpu", n("-0"), lossNegZ},
		{"number --set-json digits", setJSON("replicas=3.0000000000000000001"), "values.replicas", n("3.0000000000000000001"), lossDigits},
		{"number --set-json ratio underflow", setJSON(`_cluster={"cpu-allocation-ratio":1e-400}`), "_cluster.cpu-allocation-ratio", n("1e-400"), lossUnder},
		{"number --set-json cpu underflow in a list value", setJSON(`resources={"cpu":1e-400}`), "values.resources.cpu", n("1e-400"), lossUnder},
		// Values built in Go.
		{"number Go json.Number", goValues(map[string]any{"resources": map[string]any{"cpu": json.Number("1e-400")}}), "values.resources.cpu", n("1e-400"), lossUnder},
		{"number Go negative zero", goValues(map[string]any{"replicas": math.Copysign(0, -1)}), "values.replicas", n("-0"), lossNegZ},
		{"number Go overflow", goValues(map[string]any{"replicas": json.Number("1e400")}), "values.replicas", n("1e400"), lossOver},
		// Ratios are decimal strings: a string the float64 does not
		// hold is refused as written, through the values and the Go
		// options alike.
		{"number ratio string digits", etcdValues("_cluster:\n  cpu-allocation-ratio: \"10.000000000000000001\""), "_cluster.cpu-allocation-ratio", "10.000000000000000001", lossDigits},
		{"number ratio string underflow", etcdValues("_cluster:\n  cpu-allocation-ratio: \"1e-400\""), "_cluster.cpu-allocation-ratio", "1e-400", lossUnder},
		{"number options ratio digits", func() error { return etcd.Options{Ratios: etcd.Ratios{Memory: "1.00000000000000000001"}}.Validate() }, "Ratios.Memory", "1.00000000000000000001", lossDigits},
		{"number options ratio negative zero", func() error { return etcd.Options{Ratios: etcd.Ratios{CPU: "-0"}}.Validate() }, "Ratios.CPU", "-0", lossNegZ},
		// Live files: anywhere in a document, YAML or JSON.
		{"number live replicas digits", liveDoc(etcdClusterDoc("replicas: 3.0000000000000000001\n")), "live[0].spec.replicas", n("3.0000000000000000001"), lossDigits},
		{"number live size underflow", liveDoc(etcdClusterDoc("storage: {size: 1e-400}\n")), "live[0].spec.storage.size", n("1e-400"), lossUnder},
		{"number live other object", liveDoc(secretDoc("name: a\n") + "data: {}\nx: [1, -0]\n"), "live[0].x[1]", n("-0"), lossNegZ},
		{"number live list item", liveDoc("apiVersion: v1\nkind: List\nitems:\n- apiVersion: etcd-operator.cozystack.io/v1alpha2\n  kind: EtcdCluster\n  metadata: {name: kubernetes-demo-etcd, namespace: tenant-demo}\n  spec: {replicas: 3.0000000000000000001}\n"),
			"live[0].items[0].spec.replicas", n("3.0000000000000000001"), lossDigits},
		{"number live JSON overflow", liveDoc(`{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "a"}, "x": -1e999}`), "live[0].x", n("-1e999"), lossOver},
		{"number live key", liveDoc(secretDoc("name: a\nlabels: {1.00000000000000000001: x}\n")), "live[0].metadata.labels.1.00000000000000000001", n("1.00000000000000000001"), lossDigits},
		{"number live second document", liveDoc(secretDoc("name: a\n") + "---\n" + etcdClusterDoc("replicas: -0.0\n")), "live[1].spec.replicas", n("-0.0"), lossNegZ},
		{"number live JSON", liveDoc(`{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "a", "generation": 1e-400}}`), "live[0].metadata.generation", n("1e-400"), lossUnder},
		{"number live JSON list", liveDoc(`{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "a"}, "n": [1, 18446744073709551617]}]}`), "live[0].items[0].n[1]", n("18446744073709551617"), lossDigits},
	}
}

// FuzzNumbersAsWritten: whatever number text a values file or a live file
// holds at a key the library reads, it is refused as written, at that key,
// exactly when no float64 holds it (what Helm's YAML reader makes of it,
// yamlnum.Decimal, then jsonnum.Float); a number a float64 holds is never
// refused for its spelling.
func FuzzNumbersAsWritten(f *testing.F) {
	for _, s := range []string{"1e-400", "-0", "-0.0", "3.0000000000000000001", "0x10", "0x7fffffffffffffff", "1_000", "9007199254740993",
		"1e400", ".5", "+1", "10", "1.5", "123456789012345678", "5e-324", "2e-324", "1e-99999999999999999999", "017", "0b101", "-0b0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 || strings.ContainsAny(s, " \t\r\n#:,[]{}&*!|>'\"%@`?") {
			return // keep it one plain scalar
		}
		d, isNumber := yamlnum.Decimal(s)
		reading, loss, ok := jsonnum.Float(d)
		lossy := isNumber && ok && loss != jsonnum.Exact
		// A ratio is a decimal string too: one that YAML reads as a
		// string is held to the same rule as written.
		ratioReading, ratioLoss, ratioDecimal := reading, loss, ok
		if !isNumber {
			ratioReading, ratioLoss, ratioDecimal = jsonnum.Float(s)
		}
		for _, c := range []struct {
			run   func() error
			field string
			ratio bool
		}{
			{etcdValues("replicas: " + s), "values.replicas", false},
			{etcdValues("resources:\n  cpu: " + s), "values.resources.cpu", false},
			{etcdValues("_cluster:\n  memory-allocation-ratio: " + s), "_cluster.memory-allocation-ratio", true},
			{clusterValues("etcd:\n  replicas: " + s), "etcd.replicas", false},
			{liveDoc(etcdClusterDoc("replicas: " + s + "\n")), "live[0].spec.replicas", false},
		} {
			err := c.run()
			var ne *invalid.Error
			reading, loss, lossy := reading, loss, lossy
			if c.ratio {
				reading, loss, lossy = ratioReading, ratioLoss, ratioDecimal && ratioLoss != jsonnum.Exact
			}
			if strings.HasPrefix(c.field, "live") {
				// A live integer that fits an int64 is read as one.
				reading, loss, lossy = numpath.Lossy(s)
			}
			refusedAsLossy := errors.As(err, &ne) && ne.Rule == loss.Rule(reading) && loss != jsonnum.Exact
			if lossy {
				if !refusedAsLossy || ne.Field != c.field {
					t.Fatalf("%q at %s: %v; want refused as %v", s, c.field, err, loss)
				}
				continue
			}
			if err != nil && errors.As(err, &ne) && strings.Contains(ne.Rule, "float64 holds") {
				t.Fatalf("%q at %s, which a float64 holds: %v", s, c.field, err)
			}
		}
	})
}

// TestLiveIntegersKept: a live integer that fits an int64 is read as one
// (apimachinery's JSON keeps it), so it is not refused however many digits
// it has: the API server prints int64 fields so. Beyond an int64 it is a
// float64 and refused where that loses digits.
func TestLiveIntegersKept(t *testing.T) {
	for _, doc := range []string{
		secretDoc("name: a\n") + "x: [9007199254740993, 9223372036854775807, -9223372036854775808, 0, 123456789012345678]\n",
		`{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "a", "namespace": "tenant-demo", "generation": 9223372036854775807}, "x": [9007199254740993, -1]}`,
	} {
		_, err := plan.ReadObjects([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
	}
	_, err := plan.ReadObjects([]byte(secretDoc("name: a\n") + "x: 9223372036854775808\n"))
	var ne *invalid.Error
	if !errors.As(err, &ne) || ne.Field != "live[0].x" || !strings.Contains(ne.Rule, lossDigits) {
		t.Fatalf("2^63, beyond an int64: %v", err)
	}
}

package etcdshapes_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/etcdshapes/etcdshapes/internal/strvals"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// quantityForms are quantity texts in every form of the grammar around
// every bound: both signs, every suffix (decimal n u m k M G T P E,
// binary Ki to Ei, exponents e and E), exponents huge and tiny, 2^63-1
// and its neighbours, and texts that are no quantity.
func quantityForms() []string {
	out := []string{
		"1e999999999", "1e-999999999", "-1e999999999", "1E999999999", "1E-999999999", "0e999999999", "0e-999999999", "1e+999999999",
		"1e100000", "1e-100000", "1e400", "1e-400", "1e4294967297", "1e-4294967297", "1e99999999999999999999",
		"1e99", "1e-99", "1e100", "1e-100", "5e-324", "1e-10", "1e18", "1e19",
		quantity.Max, "9223372036854775808", "8Ei", "7Ei", "7.999999999999999999132638262011596452794037759304046630859375Ei",
		"7.999999999999999999132638262011596452794037759304046630859376Ei", "8192Pi", "8191Pi", "9E", "10E", "2000E", "9223372036854775807n",
		"4Gi", "512Mi", "1000m", "0.1", "1n", "1u", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1.5e9", "1.073741824e+09",
		"0", ".", "-", "Mi", "Ei", "e-10", "abc", "1e", "1Ee3",
		strings.Repeat("9", 65), "0." + strings.Repeat("0", 62) + "1", "1" + strings.Repeat("0", 63) + "e-63",
	}
	for _, sign := range []string{"", "-"} {
		for _, suffix := range []string{"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e9", "E-9", "e99", "e-99", "e999999999", "e-999999999"} {
			out = append(out, sign+"1.5"+suffix, sign+"9223372036854775807"+suffix)
		}
	}
	return out
}

// quantityEntries are the ways a quantity text s enters: values files
// (size, every kind of resource), --set, render check's options as the
// command passes them, live objects a plan reads (a field a rule reads
// and fields it compares), and etcd.Options built in Go from the text.
func quantityEntries(s string) map[string]func() error {
	q, _ := json.Marshal(s)
	file := func(caller naming.Caller, doc string) func() error {
		if caller == naming.CallerEtcd {
			return etcdValues(doc)
		}
		return clusterValues(doc)
	}
	live := func(spec string) func() error { return liveDoc(etcdClusterDoc(spec)) }
	return map[string]func() error{
		"values size":          file(naming.CallerEtcd, "size: "+string(q)),
		"values size number":   file(naming.CallerEtcd, "size: "+s),
		"values cpu":           file(naming.CallerEtcd, "resources: {cpu: "+string(q)+"}"),
		"values memory":        file(naming.CallerEtcd, "resources: {memory: "+string(q)+"}"),
		"values memory number": file(naming.CallerEtcd, "resources:\n  memory: "+s),
		"values ephemeral":     file(naming.CallerEtcd, "resources: {ephemeral-storage: "+string(q)+"}"),
		"values hugepages":     file(naming.CallerEtcd, "resources: {hugepages-2Mi: "+string(q)+"}"),
		"values page size":     file(naming.CallerEtcd, "resources: {hugepages-"+strings.Trim(string(q), `"`)+": 2Mi}"),
		"values extended":      file(naming.CallerEtcd, "resources: {example.com/device: "+string(q)+"}"),
		"values ratio":         file(naming.CallerCluster, "_cluster: {cpu-allocation-ratio: "+string(q)+"}"),
		"--set memory":         setValues("resources.memory=" + s),
		"--set cpu":            setValues("resources.cpu=" + s),
		"live size":            live("storage: {size: " + string(q) + "}\n"),
		"live resources":       live("resources: {limits: {cpu: " + string(q) + ", memory: " + string(q) + "}, requests: {memory: " + string(q) + "}}\n"),
		"Go options": func() error {
			// A Go caller that parsed the text itself (behind the
			// gate, which ParseQuantity needs to end) or built it.
			size, err := quantity.Parse("Size", s, s)
			if err != nil {
				return err
			}
			_, err = etcd.Cluster(mustNames(), etcd.Options{Size: size, Resources: corev1.ResourceList{corev1.ResourceMemory: size, corev1.ResourceCPU: size}})
			return err
		},
	}
}

// runBounded runs each entry with a generous deadline (the machine is
// shared): before the gate some never returned, or ran out of memory.
func runBounded(t *testing.T, name string, run func() error) error {
	t.Helper()
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- run() }()
	select {
	case err := <-done:
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: took %v", name, d)
		}
		return err
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: no answer after 30s", name)
		return nil
	}
}

// TestQuantitiesInBoundedTime: every quantity form through every entry
// renders, plans or is refused with a *invalid.Error in bounded time, and
// allocates a bounded amount (far below what a huge exponent costs:
// "1e999999999" took 415 MB at its first comparison).
func TestQuantitiesInBoundedTime(t *testing.T) {
	const maxAlloc = 64 << 20
	for _, s := range quantityForms() {
		entries := quantityEntries(s)
		for _, name := range sortedKeysOf(entries) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := runBounded(t, fmt.Sprintf("%s %q", name, s), entries[name])
			runtime.ReadMemStats(&after)
			if n := after.TotalAlloc - before.TotalAlloc; n > maxAlloc {
				t.Errorf("%s %q: allocated %d bytes", name, s, n)
			}
			if err != nil {
				requireNamingError(t, err)
			}
		}
	}
	for _, c := range quantityBadInputs() {
		if err := runBounded(t, c.name, c.run); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

func sortedKeysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkRenderedQuantities: every quantity of a rendered EtcdCluster keeps
// the bounds, derived requests included.
func checkRenderedQuantities(t *testing.T, objs []etcdshapes.Object) {
	t.Helper()
	for _, o := range objs {
		ec, ok := o.(*v1alpha2.EtcdCluster)
		if !ok {
			continue
		}
		if ec.Spec.Storage != nil {
			if err := quantity.Check("size", ec.Spec.Storage.Size); err != nil {
				t.Fatalf("rendered %v", err)
			}
		}
		if r := ec.Spec.Resources; r != nil {
			for _, l := range []corev1.ResourceList{r.Limits, r.Requests} {
				for n, q := range l {
					if err := quantity.Check(string(n), q); err != nil {
						t.Fatalf("rendered %v", err)
					}
				}
			}
		}
	}
}

// FuzzQuantities: any text as a quantity of the values (size, cpu,
// memory, --set), of a live object's size and resources, and any Go
// quantity (a mantissa and a decimal exponent) as etcd.Options' size and
// memory, render or plan or are refused with a *invalid.Error, each within
// the deadline of runBounded; what renders keeps the bounds. Seeded with
// quantityForms:
//
//	go test . -run '^$' -fuzz '^FuzzQuantities$' -fuzztime 5000x
func FuzzQuantities(f *testing.F) {
	for i, s := range quantityForms() {
		f.Add(s, int64(i*7919-100000), int32(i%41*50000000-1000000000))
	}
	f.Add("4Gi", int64(9223372036854775807), int32(0))
	f.Add("4Gi", int64(1), int32(999999999))
	f.Add("4Gi", int64(5), int32(-999999999))
	f.Fuzz(func(t *testing.T, s string, mantissa int64, exp int32) {
		if len(s) > 1<<10 {
			return // the 16 MiB bound is TestRuleLinear's
		}
		q, _ := json.Marshal(s)
		for name, run := range map[string]func() error{
			"values": func() error {
				v, err := values.Merge([]byte("size: " + string(q) + "\nresources: {cpu: " + string(q) + ", memory: " + string(q) + "}"))
				if err != nil {
					return err
				}
				objs, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: v})
				if err == nil {
					checkRenderedQuantities(t, objs)
				}
				return err
			},
			"--set": func() error {
				v := map[string]any{}
				if err := (strvals.Sets{Strings: []string{"resources.memory=" + s}}).Apply(v, nil); err != nil {
					return err
				}
				objs, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: v})
				if err == nil {
					checkRenderedQuantities(t, objs)
				}
				return err
			},
			"live": liveDoc(etcdClusterDoc("storage: {size: " + string(q) + "}\nresources: {limits: {memory: " + string(q) + "}}\n")),
			"Go": func() error {
				g := *resource.NewScaledQuantity(mantissa, resource.Scale(exp))
				objs, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root",
					Etcd: etcd.Options{Size: g, Resources: corev1.ResourceList{corev1.ResourceMemory: g}}})
				if err == nil {
					checkRenderedQuantities(t, objs)
				}
				if _, qerr := etcd.QuotaBackendBytes(g); qerr != nil {
					requireNamingError(t, qerr)
				}
				return err
			},
		} {
			if err := runBounded(t, fmt.Sprintf("%s %q %de%d", name, s, mantissa, exp), run); err != nil {
				requireNamingError(t, err)
			}
		}
	})
}

// worstAdmitted are values whose every quantity is admitted and costs the
// most the gate lets through: 64 characters, the exact decimal division,
// the binary exact path at 2^63-1, the least exponent.
const worstAdmitted = `size: "7.999999999999999000000000000000000000000000000000000000000000Ei"
resources:
  cpu: "1.23456789012345678901234567890123456789012345678901234567890123"
  memory: "1234567890123456.789012345678901234567890123456789012345678901"
  ephemeral-storage: "1234567890123456789012345678901234567890123456789012345678e-99"
  example.com/device: "9223372036854775295"
_cluster:
  cpu-allocation-ratio: "3"
  memory-allocation-ratio: "7"
  ephemeral-storage-allocation-ratio: "0.3e1"
`

// BenchmarkQuantities: the render of the etcd chart for the default
// values and for worstAdmitted, and the plan of the default stack against
// a live one holding quantities beyond the bounds (compared as unequal,
// in bounded time). `go test . -run '^$' -bench '^BenchmarkQuantities$' -benchmem`.
func BenchmarkQuantities(b *testing.B) {
	worst, err := values.Merge([]byte(worstAdmitted))
	if err != nil {
		b.Fatal(err)
	}
	req := etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"}
	objs, err := etcdshapes.Render(req)
	if err != nil {
		b.Fatal(err)
	}
	out, err := etcdshapes.Marshal(objs)
	if err != nil {
		b.Fatal(err)
	}
	huge := strings.ReplaceAll(strings.ReplaceAll(string(out), "memory: 512Mi", `memory: "1e999999999"`), "cpu: 100m", `cpu: "1e-999999999"`)
	if huge == string(out) {
		b.Fatal("no quantity replaced")
	}
	live, err := plan.ReadObjects([]byte(huge))
	if err != nil {
		b.Fatal(err)
	}
	same, err := plan.ReadObjects(out)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"render/defaults", func() error {
			_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root"})
			return err
		}},
		{"render/worst-admitted", func() error {
			_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: worst})
			return err
		}},
		{"plan/live-as-rendered", func() error {
			_, _, err := plan.ForRequest(req, same)
			return err
		}},
		{"plan/live-beyond-bounds", func() error {
			_, _, err := plan.ForRequest(req, live)
			return err
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPlanLiveQuantitiesBeyondBounds: a live object whose resources hold
// quantities beyond the bounds (the EtcdCluster CRD's pattern admits them;
// a CronJob's are compared after the built-in kinds' canonical form) plans
// in bounded time as a change of those fields to the rendered ones, not as
// "no changes" and not as a refusal: the apply is what repairs them.
func TestPlanLiveQuantitiesBeyondBounds(t *testing.T) {
	req := etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"}
	objs, err := etcdshapes.Render(req)
	if err != nil {
		t.Fatal(err)
	}
	out, err := etcdshapes.Marshal(objs)
	if err != nil {
		t.Fatal(err)
	}
	docs := strings.Split(string(out), "\n---\n")
	for _, kind := range []string{"EtcdCluster", "CronJob"} {
		for _, c := range []struct{ from, to string }{
			{"memory: 512Mi", `memory: "1e999999999"`},
			{"memory: 512Mi", `memory: "8Ei"`},
			{"memory: 512Mi", `memory: "9223372036854775808"`},
			{"memory: 512Mi", `memory: "1e-999999999"`},
			{"memory: 512Mi", `memory: "0.` + strings.Repeat("0", 70) + `1"`},
		} {
			changed := slices.Clone(docs)
			n := 0
			for i, d := range changed {
				if strings.Contains(d, "\nkind: "+kind+"\n") {
					changed[i] = strings.Replace(d, c.from, c.to, 1)
					n++
				}
			}
			if n != 1 || slices.Equal(changed, docs) {
				t.Fatalf("%s: no %s quantity replaced", kind, c.to)
			}
			live, err := plan.ReadObjects([]byte(strings.Join(changed, "\n---\n")))
			if err != nil {
				t.Fatal(err)
			}
			var p *plan.Result
			if err := runBounded(t, kind+" "+c.to, func() error { var err error; p, _, err = plan.ForRequest(req, live); return err }); err != nil {
				t.Fatalf("%s %s: %v", kind, c.to, err)
			}
			found := false
			for _, o := range p.Objects {
				for _, ch := range o.Changes {
					found = found || (o.Kind == kind && o.Action == plan.Update && strings.HasSuffix(ch.Path, "resources.limits.memory") && ch.Desired == "512Mi")
				}
			}
			if !found {
				t.Errorf("%s %s: the plan does not change the memory limit to 512Mi", kind, c.to)
			}
		}
	}
}

package bench

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/etcdshapes/etcdshapes/naming"
	"sigs.k8s.io/yaml"
)

// A caller and the golden scenario whose inputs every benchmark of that
// caller renders: the charts' defaults, the per-cluster one with every
// optional API served.
type caller struct {
	name     string        // sub-benchmark name
	scenario string        // golden scenario
	chart    naming.Caller // chartgen.Options.Caller
	upstream string        // the upstream chart, under ../shared/upstream
}

var callers = []caller{
	{name: "etcd-chart", scenario: "etcd-defaults", chart: naming.CallerEtcd, upstream: "etcd"},
	{name: "cluster", scenario: "cluster-demo", chart: naming.CallerCluster, upstream: "kubernetes"},
}

func request(tb testing.TB, c caller) etcdshapes.Request {
	tb.Helper()
	r, err := goldentest.Scenario(tb, c.scenario).Request()
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func render(tb testing.TB, r etcdshapes.Request) []etcdshapes.Object {
	objs, err := etcdshapes.Render(r)
	if err != nil {
		tb.Fatal(err)
	}
	return objs
}

// The printers compared. Each turns a stack into bytes.
var printers = []struct {
	name  string
	print func([]etcdshapes.Object) ([]byte, error)
}{
	{"YAML", etcdshapes.Marshal},
	{"SigsYAML", sigsYAML},
	{"JSON", jsonDocs},
}

// sigsYAML is the old printer: each object through sigs.k8s.io/yaml (with
// the same clean-ups, done on the JSON map as the old marshal.go did).
func sigsYAML(objs []etcdshapes.Object) ([]byte, error) {
	var out []byte
	for _, o := range objs {
		doc, err := oldMarshalObject(o)
		if err != nil {
			return nil, err
		}
		out = append(out, "---\n"...)
		out = append(out, doc...)
	}
	return out, nil
}

// jsonDocs is the floor: json.Marshal of each object, no clean-ups.
func jsonDocs(objs []etcdshapes.Object) ([]byte, error) {
	var out []byte
	for _, o := range objs {
		doc, err := json.Marshal(o)
		if err != nil {
			return nil, err
		}
		out = append(out, doc...)
		out = append(out, '\n')
	}
	return out, nil
}

// sinkBytes keeps results alive so the compiler cannot drop the work.
var sinkBytes int

// loop runs body as the benchmark's loop and reports, besides ns/op, the
// process CPU time per operation ("cpu-ns/op", GC included), which other
// processes on the machine do not inflate.
func loop(b *testing.B, body func()) {
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		body()
	}
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkStack builds the typed objects from the caller's request
// (values parsing included), nothing printed.
func BenchmarkStack(b *testing.B) {
	benchCallers(b, func(r etcdshapes.Request) (int, error) {
		objs, err := etcdshapes.Render(r)
		return len(objs), err
	})
}

// benchCallers runs work as the loop of a sub-benchmark per caller, on the
// caller's request; the size work returns is kept in sinkBytes.
func benchCallers(b *testing.B, work func(etcdshapes.Request) (int, error)) {
	for _, c := range callers {
		b.Run(c.name, func(b *testing.B) {
			r := request(b, c)
			loop(b, func() {
				n, err := work(r)
				if err != nil {
					b.Fatal(err)
				}
				sinkBytes += n
			})
		})
	}
}

// renderPrinted is request → bytes: etcdshapes.Render, then print.
func renderPrinted(r etcdshapes.Request, print func([]etcdshapes.Object) ([]byte, error)) ([]byte, error) {
	objs, err := etcdshapes.Render(r)
	if err != nil {
		return nil, err
	}
	return print(objs)
}

// benchPrint is request → YAML (or JSON) bytes: what `helm template` does.
func benchPrint(b *testing.B, print func([]etcdshapes.Object) ([]byte, error)) {
	benchCallers(b, func(r etcdshapes.Request) (int, error) {
		out, err := renderPrinted(r, print)
		return len(out), err
	})
}

// BenchmarkYAML: request → multi-document YAML with etcdshapes.Marshal.
func BenchmarkYAML(b *testing.B) { benchPrint(b, etcdshapes.Marshal) }

// BenchmarkSigsYAML: the same through the old sigs.k8s.io/yaml printer.
func BenchmarkSigsYAML(b *testing.B) { benchPrint(b, sigsYAML) }

// BenchmarkJSON: the same with json.Marshal, the floor for any printer
// that starts from encoding/json.
func BenchmarkJSON(b *testing.B) { benchPrint(b, jsonDocs) }

// BenchmarkPrint times the printers alone, on objects built once.
func BenchmarkPrint(b *testing.B) {
	for _, p := range printers {
		for _, c := range callers {
			b.Run(p.name+"/"+c.name, func(b *testing.B) {
				objs := render(b, request(b, c))
				loop(b, func() {
					out, err := p.print(objs)
					if err != nil {
						b.Fatal(err)
					}
					sinkBytes += len(out)
				})
			})
		}
	}
}

// BenchmarkScale renders and prints the per-cluster stacks of 1, 100 and
// 10,000 distinct clusters (each its own namespace and release) per
// operation; ns/stack and allocs/stack must not grow with the count.
func BenchmarkScale(b *testing.B) {
	base := request(b, callers[1])
	for _, n := range []int{1, 100, 10000} {
		b.Run(fmt.Sprintf("clusters=%d", n), func(b *testing.B) {
			reqs := make([]etcdshapes.Request, n)
			for i := range reqs {
				r := base
				r.Namespace = fmt.Sprintf("tenant-t%05d", i)
				r.Release = fmt.Sprintf("kubernetes-c%05d", i)
				reqs[i] = r
			}
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			cpu := processCPU()
			for b.Loop() {
				for _, r := range reqs {
					out, err := renderPrinted(r, etcdshapes.Marshal)
					if err != nil {
						b.Fatal(err)
					}
					sinkBytes += len(out)
				}
			}
			cpuPerStack := float64(processCPU()-cpu) / (float64(b.N) * float64(n))
			runtime.ReadMemStats(&after)
			stacks := float64(b.N) * float64(n)
			b.ReportMetric(cpuPerStack, "cpu-ns/stack")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/stacks, "ns/stack")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/stacks, "allocs/stack")
		})
	}
}

// TestPrintersAgree: the printers benchmarked print the same objects (the
// YAML ones byte for byte, JSON as the same values).
func TestPrintersAgree(t *testing.T) {
	for _, c := range callers {
		objs := render(t, request(t, c))
		fast, err := etcdshapes.Marshal(objs)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := sigsYAML(objs)
		if err != nil {
			t.Fatal(err)
		}
		if string(fast) != string(slow) {
			t.Fatalf("%s: Marshal and the old printer differ", c.name)
		}
		var v any
		if err := yaml.Unmarshal(fast, &v); err != nil {
			t.Fatal(err)
		}
	}
}

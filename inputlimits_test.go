package etcdshapes_test

import (
	"bytes"
	"errors"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/bigyaml"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testtier"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"
	"github.com/stretchr/testify/require"
)

// oldIndicators counts what the limit before nodes counted: line breaks
// and every "-", ":", ",", "[" and "{", inside scalars too.
func oldIndicators(doc []byte) int {
	n := 0
	for _, c := range doc {
		switch c {
		case '\n', '-', ':', ',', '[', '{':
			n++
		}
	}
	return n
}

// bounded runs f and fails when it takes longer than hangLimit or
// allocates more than maxAlloc bytes: a refusal must come before the
// parse costs what the limit is there to prevent.
func bounded(t *testing.T, name string, maxAlloc uint64, f func() error) error {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- f() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(hangLimit):
		t.Fatalf("%s: did not finish within %s", name, hangLimit)
	}
	runtime.ReadMemStats(&after)
	require.Less(t, after.TotalAlloc-before.TotalAlloc, maxAlloc, "%s: allocated (in %s)", name, time.Since(start))
	return err
}

// hangLimit guards against a hang, not for speed: each case takes well
// under a second on a quiet machine, and 2 cores shared by many test
// runs have taken ten times that.
const hangLimit = 2 * time.Minute

// TestRealisticInputWithinLimits: what the limits admit is what real input
// is. A values file as a platform passes one (platform settings of every
// kind, Grafana dashboards as JSON in block scalars) just under
// values.MaxNodes renders; a live file as kubectl prints a busy namespace
// (two stacks as kube-apiserver returns them and etcd member Pods, managed
// fields and last-applied annotations included) plans, and copies of it
// just under plan.MaxNodes pass the limit check. Each holds several times
// the 100,000 YAML indicators the limit before nodes refused.
func TestRealisticInputWithinLimits(t *testing.T) {
	v, err := bigyaml.Values(values.MaxNodes - 500)
	require.NoError(t, err)
	require.LessOrEqual(t, len(v), values.MaxBytes)
	require.Greater(t, oldIndicators(v), 500_000)
	st := inputlimit.Lex(v)
	require.False(t, st.Approximate)
	require.LessOrEqual(t, st.Nodes, values.MaxNodes)
	merged, err := values.Merge(v)
	require.NoError(t, err)
	_, err = etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: merged})
	require.NoError(t, err)

	live, err := bigyaml.LiveList("tenant-root", 300_000)
	require.NoError(t, err)
	require.Greater(t, oldIndicators(live), 500_000)
	objs, err := plan.ReadObjects(live)
	require.NoError(t, err)
	require.Greater(t, len(objs), 500)
	_, _, err = plan.ForRequest(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root"}, objs)
	require.NoError(t, err)

	// Copies of the items up to just under the live limit: the check
	// admits them (parsing them is the benchmark's, BenchmarkInputLimits).
	head, items, ok := bytes.Cut(live, []byte("\nitems:\n"))
	require.True(t, ok)
	items, tail, ok := bytes.Cut(items, []byte("\nkind: List\n"))
	require.True(t, ok)
	per := inputlimit.Lex(append([]byte("items:\n"), items...)).Nodes - 2
	copies := (plan.MaxNodes - 100) / per
	big := bytes.Join([][]byte{head, []byte("\nitems:\n"), bytes.Repeat(append(items, '\n'), copies), []byte("kind: List\n"), tail}, nil)
	require.LessOrEqual(t, len(big), plan.MaxBytes)
	st, err = inputlimit.Live.CheckYAML(big, nil)
	require.NoError(t, err)
	require.False(t, st.Approximate)
	require.Greater(t, st.Nodes, plan.MaxNodes*9/10)
	require.LessOrEqual(t, st.Nodes, plan.MaxNodes)
}

// hostileDocs are documents of each class that costs a YAML parser more
// than its size suggests, n nodes each: lists, maps, flow collections,
// empty values, nesting, and aliases that expand (a billion laughs). Each
// is made when its test runs.
func hostileDocs(n int) map[string]func() string {
	laughs := func() string {
		s := "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
		for i := 1; i <= 9; i++ {
			s += "a" + strconv.Itoa(i) + ": &a" + strconv.Itoa(i) + " [" + strings.TrimSuffix(strings.Repeat("*a"+strconv.Itoa(i-1)+", ", 10), ", ") + "]\n"
		}
		return s
	}
	keys := func() string {
		var keys strings.Builder
		for i := range n/2 + 1 {
			keys.WriteString("k" + strconv.Itoa(i) + ": 1\n")
		}
		return keys.String()
	}
	// Expansion just over the limit through one alias repeated.
	repeat := func() string {
		var repeat strings.Builder
		repeat.WriteString("base: &b [" + strings.TrimSuffix(strings.Repeat("1,", 1000), ",") + "]\nlist:\n")
		for range n/1000 + 1 {
			repeat.WriteString("- *b\n")
		}
		return repeat.String()
	}
	return map[string]func() string{
		"block list":     func() string { return "a:\n" + strings.Repeat("- 1\n", n) },
		"empty items":    func() string { return "a:\n" + strings.Repeat("-\n", n) },
		"flow list":      func() string { return "a: [" + strings.Repeat("1,", n) + "]\n" },
		"flow map":       func() string { return "a: {" + strings.Repeat("k: 1,", n/2+1) + "}\n" },
		"keys":           keys,
		"empty values":   func() string { return strings.Repeat("a:\n", n) },
		"nesting":        func() string { return "a: " + strings.Repeat("[", n) + "\n" },
		"nested maps":    func() string { return strings.Repeat("{", n) },
		"billion laughs": laughs,
		"repeated alias": repeat,
		"aliases in a list": func() string {
			return "a: &a [1, 2]\nb: [" + strings.TrimSuffix(strings.Repeat("*a, ", n/3+1), ", ") + "]\n"
		},
	}
}

// TestHostileInputRefused: a document of any class with more nodes than
// the limit, or whose aliases expand beyond it, is refused before it is
// parsed, in bounded time and memory, as a values file and as a live file;
// the refusal names the document and says which limit. The live limit is
// ten times the values', and its documents as many times larger: the
// quick tier refuses every class as a values file, and as a live file one
// of nodes and one of aliases; the slow tier every class as both.
func TestHostileInputRefused(t *testing.T) {
	liveQuick := map[string]bool{"empty values": true, "billion laughs": true}
	for _, lim := range []struct {
		name  string
		nodes int
		read  func([]byte) error
		field string
	}{
		{"values", values.MaxNodes, func(b []byte) error { _, err := values.Merge(b); return err }, "values[0]"},
		{"live", plan.MaxNodes, func(b []byte) error { _, err := plan.ReadObjects(b); return err }, "live[0]"},
	} {
		docs := hostileDocs(lim.nodes + 1)
		for _, name := range slices.Sorted(maps.Keys(docs)) {
			t.Run(lim.name+"/"+name, func(t *testing.T) {
				if lim.name == "live" && !liveQuick[name] {
					testtier.SkipUnlessSlow(t, "this class as a live file")
				}
				doc := docs[name]()
				err := bounded(t, name, 512<<20, func() error { return lim.read([]byte(doc)) })
				require.Error(t, err)
				var ne *invalid.Error
				require.True(t, errors.As(err, &ne), "%T %v", err, err)
				require.Equal(t, lim.field, ne.Field)
				require.Regexp(t, `YAML nodes|expands to more than`, ne.Rule)
			})
		}
	}
}

// TestLongInputWithinLimits: size alone is no cost a parser multiplies: a
// scalar as long as the byte limit allows, a block scalar of as many
// indicators, a quoted string of them and blank lines are read, each one
// node, allocating at most 64 bytes a byte read. The quick tier reads
// documents of an eighth of the limit (2 MiB: counted a node a character,
// any of them would still be eight times values.MaxNodes); the slow tier,
// of the limit.
func TestLongInputWithinLimits(t *testing.T) {
	for _, n := range []int{values.MaxBytes/8 - 64, values.MaxBytes - 64} {
		if n > values.MaxBytes/8 {
			testtier.SkipUnlessSlow(t, "the same documents as long as the byte limit allows")
		}
		for name, doc := range map[string]string{
			"plain scalar":  "_namespace: " + strings.Repeat("x", n) + "\n",
			"block scalar":  "_namespace: |\n" + strings.Repeat("  - {a: [b, c]}\n", n/16) + "\n",
			"quoted string": "_namespace: \"" + strings.Repeat("- {a: [b, c]}, ", n/16) + "\"\n",
			"blank lines":   strings.Repeat("\n", n) + "_namespace: x\n",
			"comment":       "# " + strings.Repeat("- a: [b, ", n/10) + "\n_namespace: x\n",
		} {
			err := bounded(t, name, 64*uint64(n), func() error {
				_, err := values.Merge([]byte(doc))
				return err
			})
			require.NoError(t, err, "%s, %d bytes", name, len(doc))
		}
	}
}

// peakHeap runs f and returns the most heap its live objects took, read
// every few milliseconds while it ran.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var peak uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	<-done
	return peak
}

// BenchmarkInputLimits states what the limits cost: reading a values file
// (values.Merge) and a live file (plan.ReadObjects) of the most nodes each
// admits, in the shapes that cost a YAML parser most per node (a block
// list of one-character items, keys, a flow list) and in a realistic one
// (bigyaml's). peak-MB is the most heap in use while it ran. Run with
//
//	go test -run '^$' -bench BenchmarkInputLimits -benchtime 1x .
func BenchmarkInputLimits(b *testing.B) {
	keys := func(n int) string {
		var s strings.Builder
		for i := range n / 2 {
			s.WriteString("k" + strconv.Itoa(i) + ": 1\n")
		}
		return s.String()
	}
	realisticValues := func() []byte {
		v, err := bigyaml.Values(values.MaxNodes - 500)
		require.NoError(b, err)
		return v
	}
	realisticLive := func() []byte {
		v, err := bigyaml.LiveList("tenant-root", plan.MaxNodes-2000)
		require.NoError(b, err)
		return v
	}
	for _, c := range []struct {
		name string
		doc  func() []byte
		read func([]byte) error
	}{
		{"values/block list", func() []byte { return []byte("a:\n" + strings.Repeat("- 1\n", values.MaxNodes-10)) }, mergeValues},
		{"values/keys", func() []byte { return []byte(keys(values.MaxNodes - 10)) }, mergeValues},
		{"values/flow list", func() []byte { return []byte("a: [" + strings.Repeat("1,", values.MaxNodes-10) + "]\n") }, mergeValues},
		{"values/realistic", realisticValues, mergeValues},
		{"live/block list", func() []byte { return []byte("a:\n" + strings.Repeat("- 1\n", plan.MaxNodes-10)) }, readLive},
		{"live/keys", func() []byte { return []byte(keys(plan.MaxNodes - 10)) }, readLive},
		{"live/flow list", func() []byte { return []byte("a: [" + strings.Repeat("1,", plan.MaxNodes-10) + "]\n") }, readLive},
		{"live/realistic", realisticLive, readLive},
	} {
		b.Run(c.name, func(b *testing.B) {
			doc := c.doc()
			st := inputlimit.Lex(doc)
			b.ReportAllocs()
			b.ResetTimer()
			var peak uint64
			for range b.N {
				peak = max(peak, peakHeap(func() { _ = c.read(doc) }))
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
			b.ReportMetric(float64(st.Nodes), "nodes")
			b.ReportMetric(float64(len(doc))/(1<<20), "MiB")
		})
	}
}

func mergeValues(doc []byte) error { _, err := values.Merge(doc); return err }

// readLive reads a live file; a document that is no Kubernetes object is
// parsed all the same before it is refused as one.
func readLive(doc []byte) error { _, err := plan.ReadObjects(doc); return err }

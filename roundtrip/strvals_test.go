package roundtrip

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/naming"
	esvalues "github.com/etcdshapes/etcdshapes/values"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/internal/strvals"
	ours "github.com/etcdshapes/etcdshapes/internal/third_party/helm/strvals"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/cli"
	"helm.sh/helm/v3/pkg/cli/values"
	"helm.sh/helm/v3/pkg/getter"
	helmstrvals "helm.sh/helm/v3/pkg/strvals"
)

// strvalsEdgeCases are the --set arguments Helm's syntax has corners for:
// escapes, lists and indices, {a,b} lists, nulls, numbers, booleans,
// dotted keys, JSON values (a key given twice in one: the later, as Helm
// reads it), and malformed input.
var strvalsEdgeCases = []string{
	"", "a", "a=", "=b", "a=b", "a=b,c=d", "a=b,", ",a=b", "a,b=c", "a=b=c", "a.b=c", "a.b.c=d", "a..b=c", ".a=b", "a.=b",
	`a\.b=c`, `a=b\,c`, `a\=b=c`, `a=b\`, `a\`, `a\\=b`, `a=\{b,c\}`, `a\[0\]=b`, "a=b c", " a = b ", "a=b\n,c=d",
	"a[0]=b", "a[1]=b", "a[0]=b,a[1]=c", "a[0].b=c", "a[0][1]=b", "a[0][0][0]=x", "a[-1]=b", "a[x]=b", "a[]=b", "a[0",
	"a[0]b=c", "a[65536]=x", "a[65537]=x", "a[99999999999999999999]=x", "a[0]=b,a.c=d", "a.c=d,a[0]=b", "a[1].b=c,a[0]=d",
	"a={b,c}", "a={}", "a={b}", "a={b,c", "a={b,c},d=e", "a={1,true,null}", "a[0]={b,c}", "a={b\\,c,d}",
	"a=null", "a=NULL", "a=Null", "a=true", "a=TRUE", "a=false", "a=1", "a=0", "a=-1", "a=+1", "a=01", "a=00", "a=1.5", "a=1e3",
	"a=0x10", "a=9223372036854775807", "a=9223372036854775808", "a=-9223372036854775808", "a= 1", "a=1 ",
	`a={"b":1}`, `a=[1,2]`, `a="s"`, `a=null`, `a=`, `a=1,b=2`, `a={"b":{"c":[1,{"d":null}]}},e=true`, `a=[1,2,b=3`, `a={"b":`,
	`a={"b":1,"b":2}`, `a={"b":{"c":1},"b":{"d":2}}`, `a=[{"b":1,"b":null}]`, `a={"b":1,"B":2}`,
	`a=1.0`, `a=1e400`, `a=1e-400`, `a=-0`, `a=-00`, `a=3.0000000000000000001`, `a={"b":[1e-400,-0.0,1e400]}`, `a[0]=1e400`, `a[0]=-0`, `a= {"b": 2} ,c=3`, `a[0]={"b":1}`, `a[1]=[1]`, `a.b="x"`, "a=b,c", "a.b[0].c[1].d=e",
	"etcd.replicas=1", "_cluster.cpu-allocation-ratio=4", `_cluster.scheduling.globalAppTopologySpreadConstraints=x`,
	strings.Repeat("a.", 30) + "b=c", strings.Repeat("a.", 31) + "b=c",
}

// strvalsTokens build random arguments: every character the syntax gives
// a meaning, keys, values and JSON fragments.
var strvalsTokens = []string{
	"a", "b", "c", "etcd", "replicas", "0", "1", "2", "-1", "01", "10", "65536", "x",
	"=", "=", "=", ",", ",", ".", ".", "[", "]", "[0]", "[1]", "{", "}", "\\", "\\.", "\\,", " ",
	"null", "true", "false", `"s"`, `{"k":1}`, "[1,2]", ":", `"`, "é", "\t",
}

func randomStrval(r *rand.Rand) string {
	var b strings.Builder
	for n := r.Intn(12); n >= 0; n-- {
		b.WriteString(strvalsTokens[r.Intn(len(strvalsTokens))])
	}
	return b.String()
}

// strvalsInputs are the edge cases, then generated arguments (fixed seed).
func strvalsInputs() []string {
	in := append([]string{}, strvalsEdgeCases...)
	r := rand.New(rand.NewSource(13))
	for range 20000 {
		in = append(in, randomStrval(r))
	}
	// Well-formed shapes with random keys and values.
	keys := []string{"a", "a.b", "a[0]", "a[1].b", "a.b[2]", `a\.b`, "etcd.replicas", "a[0][1]", "_cluster.x"}
	vals := []string{"1", "x", "null", "true", "{p,q}", "01", "-5", `"j"`, `{"k":[1]}`, "", "a\\,b", "1.5"}
	for range 5000 {
		var parts []string
		for n := r.Intn(3); n >= 0; n-- {
			parts = append(parts, keys[r.Intn(len(keys))]+"="+vals[r.Intn(len(vals))])
		}
		in = append(in, strings.Join(parts, ","))
	}
	return in
}

// strvalsBase is a values tree as -f files leave it (Helm's types), for
// arguments to be laid over: maps, lists, scalars of every kind.
func strvalsBase() map[string]any {
	return map[string]any{
		"a":    map[string]any{"b": "old", "keep": 1.0},
		"etcd": map[string]any{"replicas": 3.0},
		"c":    []any{"x", map[string]any{"d": true}},
		"x":    "scalar",
		"n":    nil,
	}
}

func deepCopy(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStrvalsMatchHelm: internal/third_party/helm/strvals, the copy the CLI uses, parses
// every input exactly as Helm v3.22.0's strvals does, for --set,
// --set-string, --set-json, --set-literal and --set-file, into an empty
// map and over an existing values tree: the same values of the same Go
// types, and the same errors.
func TestStrvalsMatchHelm(t *testing.T) {
	file := func(rs []rune) (any, error) {
		if strings.Contains(string(rs), "missing") {
			return nil, fmt.Errorf("no file %s", string(rs))
		}
		return "content of " + string(rs), nil
	}
	parsers := []struct {
		name       string
		ours, helm func(string, map[string]any) error
	}{
		{"--set", ours.ParseInto, helmstrvals.ParseInto},
		{"--set-string", ours.ParseIntoString, helmstrvals.ParseIntoString},
		{"--set-json", ours.ParseJSON, helmstrvals.ParseJSON},
		{"--set-literal", ours.ParseLiteralInto, helmstrvals.ParseLiteralInto},
		{"--set-file",
			func(s string, m map[string]any) error { return ours.ParseIntoFile(s, m, file) },
			func(s string, m map[string]any) error {
				return helmstrvals.ParseIntoFile(s, m, helmstrvals.RunesValueReader(file))
			}},
	}
	inputs := strvalsInputs()
	compared, errs := 0, 0
	for _, p := range parsers {
		for _, in := range inputs {
			for _, base := range []map[string]any{{}, strvalsBase()} {
				o, h := deepCopy(t, base), deepCopy(t, base)
				oerr, herr := p.ours(in, o), p.helm(in, h)
				compared++
				if (oerr == nil) != (herr == nil) || (oerr != nil && numberTypes(oerr.Error()) != numberTypes(herr.Error())) {
					t.Fatalf("%s %q: error %v, Helm's %v", p.name, in, oerr, herr)
				}
				if oerr != nil {
					errs++
				}
				// Numbers by value: the copy keeps --set-json's numbers
				// and --set's "-0" as written (json.Number).
				if !reflect.DeepEqual(numberValues(o), numberValues(h)) {
					t.Fatalf("%s %q:\nours %#v\nHelm %#v", p.name, in, o, h)
				}
			}
		}
	}
	t.Logf("%d parses compared with Helm's (%d inputs × %d flags × 2 bases), %d of them errors", compared, len(inputs), len(parsers), errs)
}

// TestSetOrderMatchesHelm: values files and the whole --set family on one
// command line give the values Helm's values.Options.MergeValues gives
// (its order: files, --set-json, --set, --set-string, --set-file,
// --set-literal), numbers compared by value.
func TestSetOrderMatchesHelm(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	f1 := write("a.yaml", "etcd:\n  replicas: 3\nsize: 4Gi\nlist: [1, 2]\nm: {a: 1, b: {c: 2}}\n")
	f2 := write("b.yaml", "size: 8Gi\nm: {b: {d: 3}}\nlist: [x]\n")
	content := write("content.txt", "file content\nline 2\n")
	r := rand.New(rand.NewSource(7))
	keys := []string{"etcd.replicas", "size", "m.b.c", "m.a", "list[0]", "list[3]", "new.k", "m"}
	vals := []string{"1", "2Gi", "null", "true", "x", "{p,q}", "01"}
	jsonVals := []string{"1", `"s"`, "null", `{"z":[1,2]}`, "[3]", "true"}
	merged, refused := 0, 0
	for i := range 400 {
		pick := func(vs []string) []string {
			var out []string
			for n := r.Intn(3); n > 0; n-- {
				out = append(out, keys[r.Intn(len(keys))]+"="+vs[r.Intn(len(vs))])
			}
			return out
		}
		opts := values.Options{
			ValueFiles:    [][]string{nil, {f1}, {f1, f2}, {f2, f1}}[i%4],
			JSONValues:    pick(jsonVals),
			Values:        pick(vals),
			StringValues:  pick(vals),
			LiteralValues: pick(vals),
		}
		for n := r.Intn(2); n > 0; n-- {
			opts.FileValues = append(opts.FileValues, keys[r.Intn(len(keys))]+"="+content)
		}
		want, herr := opts.MergeValues(getter.All(cli.New()))

		docs := [][]byte{}
		for _, f := range opts.ValueFiles {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, b)
		}
		got, err := esvalues.Merge(docs...)
		if err != nil {
			t.Fatal(err)
		}
		sets := strvals.Sets{JSON: opts.JSONValues, Values: opts.Values, Strings: opts.StringValues, Files: opts.FileValues, Literals: opts.LiteralValues}
		oerr := sets.Apply(got, os.ReadFile)
		if (oerr == nil) != (herr == nil) {
			t.Fatalf("%+v: error %v, Helm's %v", opts, oerr, herr)
		}
		if oerr != nil {
			refused++
			continue
		}
		merged++
		if g, w := canonicalNumbers(got), canonicalNumbers(want); !reflect.DeepEqual(g, w) {
			t.Fatalf("%+v:\nours %#v\nHelm %#v", opts, g, w)
		}
	}
	t.Logf("%d command lines merged as Helm merges them, %d refused by both", merged, refused)
}

// numberTypes is an error message with the Go type of a number (the
// copy's json.Number, Helm's float64 or int64, which a failed type
// assertion names) written as "number".
func numberTypes(msg string) string {
	return strings.NewReplacer("json.Number", "number", "float64", "number", "int64", "number").Replace(msg)
}

// numberValues replaces every number (json.Number, int64, float64) by
// its float64, in place.
func numberValues(v any) any {
	return mapLeaves(v, func(leaf any) any {
		switch n := leaf.(type) {
		case json.Number:
			f, _ := strconv.ParseFloat(string(n), 64)
			return f
		case int64:
			return float64(n)
		}
		return leaf
	})
}

// canonicalNumbers replaces json.Number (the library keeps numbers as
// written) and float64 (Helm's YAML) by float64, keeping int64 (--set's),
// in place.
func canonicalNumbers(v any) any {
	return mapLeaves(v, func(leaf any) any {
		n, ok := leaf.(json.Number)
		if !ok {
			return leaf
		}
		if i, err := n.Int64(); err == nil {
			return float64(i)
		}
		f, _ := n.Float64()
		return f
	})
}

// TestChartVersionsMatchHelm: a chart version is accepted by the library
// (WorkloadMonitor's version) and by gen chart (Chart.yaml) exactly when
// Helm accepts it in Chart.yaml.
func TestChartVersionsMatchHelm(t *testing.T) {
	versions := []string{"0.0.0", "1.2.3", "v1.2.3", "1", "1.2", "v1", "1.2.3-rc.1", "1.2.3-rc1", "1.2.3+build.1", "1.2.3-rc.1+b.2",
		"1.2.3-01", "1.2.3-0", "1.2.3-0a", "1.2.3-rc.01", "1.2.3+01", "01.2.3", "1.02.3", "1.2.03", "1.2.3.4", "1.2.3-", "1.2.3+",
		"1.2.3-rc..1", "1.2.3-rc_1", "latest", "", " 1.2.3", "1.2.3 ", "V1.2.3", "1.2.3-é", "99999999999999999999.0.0", "1.-2.3",
		"1.2.3-alpha.beta", "1.2.3--", "1.2.3-a-b", "v1.2.3-rc.1+meta"}
	r := rand.New(rand.NewSource(5))
	chars := "0123456789.-+vrcaV_ "
	for range 1500 {
		var b strings.Builder
		for n := 1 + r.Intn(10); n > 0; n-- {
			b.WriteByte(chars[r.Intn(len(chars))])
		}
		versions = append(versions, b.String())
	}
	accepted := 0
	for _, v := range versions {
		helmErr := (&chart.Metadata{APIVersion: chart.APIVersionV2, Name: "etcd", Version: v}).Validate()
		_, libErr := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", ChartVersion: v})
		_, genErr := chartgen.Chart(chartgen.Options{Caller: naming.CallerEtcd, Version: v})
		if v == "" {
			// Empty means the default (0.0.0) to the library and gen chart.
			continue
		}
		if (helmErr == nil) != (libErr == nil) || (helmErr == nil) != (genErr == nil) {
			t.Errorf("version %q: Helm %v, library %v, gen chart %v", v, helmErr, libErr, genErr)
		}
		if helmErr == nil {
			accepted++
		}
	}
	t.Logf("%d chart versions compared with Helm's check, %d accepted", len(versions), accepted)
}

package chartgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"text/template"

	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

// checkedIn are the generated copies under charts/, one per go:generate line
// in doc.go.
var checkedIn = []struct {
	dir  string
	args string
	opts Options
}{
	{"etcd", "--caller etcd", Options{Caller: "etcd"}},
	{"cluster", "--caller cluster", Options{Caller: "cluster"}},
	{"library", "--library", Options{Library: true}},
}

func TestGoGenerateLines(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	for _, c := range checkedIn {
		line := fmt.Sprintf("//go:generate go run ../cmd/etcdshapes gen chart %s --out ../charts/%s\n", c.args, c.dir)
		require.Contains(t, string(doc), line)
	}
}

// TestCheckedInChartsAreCurrent fails when charts/ is stale: run
// `go generate ./chartgen` and read the diff.
func TestCheckedInChartsAreCurrent(t *testing.T) {
	for _, c := range checkedIn {
		t.Run(c.dir, func(t *testing.T) {
			files, err := Chart(c.opts)
			require.NoError(t, err)
			dir := filepath.Join("..", "charts", c.dir)
			want := map[string]bool{}
			for _, f := range files {
				want[f.Path] = true
				got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
				require.NoError(t, err, "charts/%s is stale: run go generate ./chartgen", c.dir)
				require.True(t, bytes.Equal(f.Data, got), "charts/%s/%s is stale: run go generate ./chartgen", c.dir, f.Path)
			}
			err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(dir, p)
				if rel == chartwrite.ManifestName { // gen's record of these files; cmd/etcdshapes checks it
					return nil
				}
				require.True(t, want[filepath.ToSlash(rel)], "charts/%s/%s is no longer generated: run go generate ./chartgen", c.dir, rel)
				return nil
			})
			require.NoError(t, err)
		})
	}
}

func TestChartIsDeterministicSortedAndMarked(t *testing.T) {
	for _, o := range []Options{{Caller: "etcd"}, {Caller: "cluster", Version: "1.2.3"}, {Library: true}, {Library: true, Caller: "etcd"}} {
		a, err := Chart(o)
		require.NoError(t, err)
		b, err := Chart(o)
		require.NoError(t, err)
		require.Equal(t, a, b)
		require.True(t, sort.SliceIsSorted(a, func(i, j int) bool { return a[i].Path < a[j].Path }))
		for _, f := range a {
			head := f.Data
			if len(head) > 512 {
				head = head[:512]
			}
			require.Contains(t, string(head), Header, f.Path)
		}
	}
}

func TestChartFiles(t *testing.T) {
	files, err := Chart(Options{Caller: "cluster", Version: "1.2.3"})
	require.NoError(t, err)
	byPath := map[string][]byte{}
	for _, f := range files {
		byPath[f.Path] = f.Data
	}
	require.Contains(t, string(byPath["Chart.yaml"]), "\nversion: 1.2.3\n")
	var schema map[string]any
	require.NoError(t, json.Unmarshal(byPath["values.schema.json"], &schema))
	var values map[string]any
	require.NoError(t, yaml.Unmarshal(byPath["values.yaml"], &values))
	require.Equal(t, map[string]any{"etcd": map[string]any{"replicas": float64(3)}}, values)
	// Every shape file includes a define of the caller's shapes file.
	shapes := string(byPath["templates/_etcdshapes_cluster.tpl"])
	n := 0
	for p, data := range byPath {
		if !strings.HasSuffix(p, ".yaml") || !strings.HasPrefix(p, "templates/") {
			continue
		}
		i := strings.Index(string(data), `include "`)
		require.GreaterOrEqual(t, i, 0, p)
		name := strings.SplitN(string(data[i+len(`include "`):]), `"`, 2)[0]
		require.Contains(t, shapes, fmt.Sprintf("{{- define %q }}", name), p)
		n++
	}
	require.Equal(t, 19, n, "the per-cluster stack has 19 objects")

	lib, err := Chart(Options{Library: true})
	require.NoError(t, err)
	var paths []string
	for _, f := range lib {
		paths = append(paths, f.Path)
	}
	require.Equal(t, []string{"templates/_etcdshapes.tpl", "templates/_etcdshapes_cluster.tpl", "templates/_etcdshapes_constants.tpl", "templates/_etcdshapes_etcd.tpl"}, paths)
}

func TestOptionsAreChecked(t *testing.T) {
	for _, o := range []Options{{}, {Caller: "other"}, {Caller: "etcd", Version: "not a version"}} {
		_, err := Chart(o)
		require.Error(t, err, "%+v", o)
	}
}

// TestPrometheusTemplatesStayLiteral: the alert annotations hold
// Prometheus's own {{ $labels.job }}, which must reach the output as text.
func TestPrometheusTemplatesStayLiteral(t *testing.T) {
	files, err := Chart(Options{Caller: "etcd"})
	require.NoError(t, err)
	for _, f := range files {
		if f.Path != "templates/_etcdshapes_etcd.tpl" {
			continue
		}
		s := string(f.Data)
		require.Contains(t, s, `'{{ "{{" }} $labels.job }}'`)
		require.NotContains(t, s, `'{{ $labels`)
		return
	}
	t.Fatal("no etcd shapes file")
}

// TestEmitterRoundTrips writes awkward values with the emitter and reads
// them back: every string must survive YAML's quoting rules and the
// template engine's delimiters.
func TestEmitterRoundTrips(t *testing.T) {
	strs := []any{"", "true", "True", "yes", "no", "on", "y", "null", "~", "1", "0x1f", "1e3", "1_000", ".inf", "-a", "- item",
		": x", "a: b", "a:b", "#x", "a #b", "[x]", "{x}", "@x", "`x", "%x", "!x", "&x", "*x", "|x", ">x", "'x", "x'", `quote"s`,
		"k8s:io.kubernetes.pod.namespace", "unicode é ü", "{{ $labels.job }}", "a {{ b }} c", "}}", "tab\tin", " leading", "trailing ",
		"multi\nline\n", "no final newline\nx", "two finals\n\n", "\nleading newline", "blank line\n\nafter\n", "  indented\nx\n",
		"spaces only\n   \nx\n", "<html>&amp;", "back\\slash", "0 * * * *", "3.6.11", "--cluster"}
	in := map[string]any{
		"strings": strs,
		"nested":  []any{[]any{"a", "b"}, []any{}, map[string]any{}, map[string]any{"k": []any{map[string]any{"x": "y", "z": []any{"w"}}}}},
		"keys":    map[string]any{"true": "a", "a b": "c", "app.kubernetes.io/name": "d", "": "e", "{{": "f"},
		"scalars": map[string]any{"t": true, "n": json.Number("10000"), "null": nil},
	}
	for i, s := range strs {
		in[fmt.Sprintf("s%02d", i)] = s
	}
	e := &emitter{rules: map[string]rule{}, used: map[string]bool{}}
	require.NoError(t, e.mapBody(in, 0, ""))
	text := strings.Join(e.lines, "\n") + "\n"
	tpl, err := template.New("x").Parse(text)
	require.NoError(t, err, text)
	var out bytes.Buffer
	require.NoError(t, tpl.Execute(&out, nil))
	var got map[string]any
	require.NoError(t, yaml.Unmarshal(out.Bytes(), &got), out.String())
	want := map[string]any{}
	raw, _ := json.Marshal(in)
	require.NoError(t, json.Unmarshal(raw, &want))
	require.Equal(t, want, got, out.String())
}

func TestKebab(t *testing.T) {
	for id, want := range map[string]string{"etcdCluster": "etcd-cluster", "peerCACertificate": "peer-ca-certificate", "caSecret": "ca-secret", "dataStore": "data-store"} {
		require.Equal(t, want, kebab(id))
	}
}

// TestGenerationNoticesUncoveredInputs drops one rule at a time: the field it
// covered then depends on the sentinel inputs, and generation must fail
// instead of freezing one input's value into the templates.
func TestGenerationNoticesUncoveredInputs(t *testing.T) {
	defer func() { shapeRules = rules }()
	for _, c := range []struct{ caller, shape, path string }{
		{"etcd", "etcdCluster", "spec.replicas"},
		{"etcd", "etcdCluster", "spec.resources"},
		{"etcd", "cleanupRole", "rules[0].resourceNames"},
		{"etcd", "workloadMonitor", "spec.minReplicas"},
		{"cluster", "verticalPodAutoscaler", "spec.resourcePolicy.containerPolicies[0].minAllowed"},
		{"cluster", "defragCronJob", "metadata.name"},
		{"cluster", "cleanupJob", "metadata.name"},
		{"cluster", "dataStore", "metadata.name"},
	} {
		shapeRules = func(caller, shape string) map[string]rule {
			r := rules(caller, shape)
			if caller == c.caller && shape == c.shape {
				delete(r, c.path)
			}
			return r
		}
		_, _, err := shapesFile(c.caller)
		require.Error(t, err, "%s %s %s", c.caller, c.shape, c.path)
	}
	shapeRules = rules
	for _, caller := range []string{"etcd", "cluster"} {
		_, _, err := shapesFile(caller)
		require.NoError(t, err)
	}
}

// TestSchemasRefuseNoType: values.schema.json types nothing below the root,
// so Helm never refuses a value of the wrong type in JSON-schema words
// before the templates refuse it with the library's message; each property
// names its type in its description instead.
func TestSchemasRefuseNoType(t *testing.T) {
	for _, caller := range []string{"etcd", "cluster"} {
		files, err := Chart(Options{Caller: caller})
		require.NoError(t, err)
		for _, f := range files {
			if f.Path != "values.schema.json" {
				continue
			}
			var schema map[string]any
			require.NoError(t, json.Unmarshal(f.Data, &schema))
			require.Equal(t, "object", schema["type"], caller)
			var walk func(path string, props map[string]any)
			walk = func(path string, props map[string]any) {
				for name, raw := range props {
					p := raw.(map[string]any)
					for _, kw := range []string{"type", "enum", "const", "pattern", "minimum", "maximum", "additionalProperties", "required", "oneOf", "anyOf", "allOf", "not"} {
						require.NotContains(t, p, kw, "%s: %s%s", caller, path, name)
					}
					require.Contains(t, p["description"], " Type: ", "%s: %s%s", caller, path, name)
					if sub, ok := p["properties"].(map[string]any); ok {
						walk(path+name+".", sub)
					}
				}
			}
			walk("", schema["properties"].(map[string]any))
		}
	}
}

func TestDecodeTypes(t *testing.T) {
	root, types, err := decodeTypes(reflect.TypeFor[corev1.Affinity]())
	require.NoError(t, err)
	require.Equal(t, "v1.Affinity", root)
	require.Equal(t, jsonType{Kind: "struct", Name: "Affinity", Fields: map[string]string{
		"nodeAffinity": "v1.NodeAffinity", "podAffinity": "v1.PodAffinity", "podAntiAffinity": "v1.PodAntiAffinity",
	}}, types[root])
	require.Equal(t, jsonType{Kind: "int", Min: -1 << 31, Max: 1<<31 - 1}, types["int32"])
	require.Equal(t, jsonType{Kind: "map", Elem: "string"}, types["map[string]string"])
	require.Equal(t, jsonType{Kind: "slice", Elem: "v1.PodAffinityTerm"}, types["[]v1.PodAffinityTerm"])
	require.Equal(t, "v1.LabelSelectorOperator", types["v1.LabelSelectorRequirement"].Fields["operator"])
	require.Equal(t, jsonType{Kind: "string"}, types["v1.LabelSelectorOperator"])
	// What the helper does not model fails generation.
	for _, v := range []any{
		struct{ A float64 }{},
		struct{ A []byte }{},
		struct{ A map[int]string }{},
		struct {
			A int32 `json:"a,string"`
		}{},
		struct{ corev1.Affinity }{},
		struct{ A resource.Quantity }{},
	} {
		_, _, err := decodeTypes(reflect.TypeOf(v))
		require.Error(t, err, "%T", v)
	}
}

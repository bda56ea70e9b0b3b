package chartgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"text/template"

	"github.com/etcdshapes/etcdshapes/invalid"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testtier"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"
)

// checkedIn are the generated copies under charts/, one per go:generate line
// in doc.go.
var checkedIn = []struct {
	dir  string
	args string
	opts Options
}{
	{"library", "--library", Options{Library: true}},
	{"etcd", "--caller etcd", Options{Caller: "etcd"}},
	{"cluster", "--caller cluster", Options{Caller: "cluster"}},
}

func TestGoGenerateLines(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	for _, c := range checkedIn {
		line := fmt.Sprintf("//go:generate go run ../cmd/etcdshapes gen chart %s --out ../charts/%s\n", c.args, c.dir)
		require.Contains(t, string(doc), line)
	}
}

// built reports whether a path under an application chart is what
// `helm dependency build` writes there (charts/, Chart.lock), which
// .gitignore keeps out of the repository.
func built(rel string) bool {
	return rel == "Chart.lock" || strings.HasPrefix(rel, "charts/")
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
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(dir, p)
				rel = filepath.ToSlash(rel)
				if rel == chartwrite.ManifestName { // gen's record of these files; cmd/etcdshapes checks it
					return nil
				}
				if !c.opts.Library && built(rel) {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
				if d.IsDir() {
					return nil
				}
				require.True(t, want[rel], "charts/%s/%s is no longer generated: run go generate ./chartgen", c.dir, rel)
				return nil
			})
			require.NoError(t, err)
		})
	}
}

// TestChartIsDeterministicSortedAndMarked: two generations give the same
// bytes. Chart generates the library chart once per process, so the second
// is a fresh one (libraryFiles, as the first call of the process made it;
// one per version, each about a second of CPU): the reused generation is
// the fresh one with the version in Chart.yaml.
func TestChartIsDeterministicSortedAndMarked(t *testing.T) {
	fresh := map[string][]File{}
	freshLibrary := func(version string) ([]File, error) {
		if _, ok := fresh[version]; !ok {
			files, err := libraryFiles(version)
			if err != nil {
				return nil, err
			}
			fresh[version] = files
		}
		return fresh[version], nil
	}
	for _, o := range []Options{{Caller: "etcd"}, {Caller: "cluster", Version: "1.2.3"}, {Library: true}, {Library: true, Version: "1.2.3"}, {Caller: "cluster", Vendor: true}} {
		a, err := Chart(o)
		require.NoError(t, err)
		b, err := chart(o, freshLibrary)
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

// TestChartReturnsItsOwnBytes: the library chart is generated once per
// process, and a caller that changes the bytes it got changes nothing for
// the next caller.
func TestChartReturnsItsOwnBytes(t *testing.T) {
	for _, o := range []Options{{Library: true}, {Caller: "etcd", Vendor: true}} {
		a, err := Chart(o)
		require.NoError(t, err)
		var want []File
		for _, f := range a {
			want = append(want, File{Path: f.Path, Data: bytes.Clone(f.Data)})
		}
		for _, f := range a {
			for i := range f.Data {
				f.Data[i] = 'x'
			}
		}
		b, err := Chart(o)
		require.NoError(t, err)
		require.Equal(t, want, b)
		require.NotEqual(t, a, b)
	}
}

func TestChartFiles(t *testing.T) {
	files, err := Chart(Options{Caller: "cluster", Version: "1.2.3"})
	require.NoError(t, err)
	byPath := map[string][]byte{}
	for _, f := range files {
		byPath[f.Path] = f.Data
	}
	var chart struct {
		Version      string
		Type         string
		Dependencies []struct{ Name, Version, Repository string }
	}
	require.NoError(t, yaml.Unmarshal(byPath["Chart.yaml"], &chart))
	require.Equal(t, "1.2.3", chart.Version)
	require.Equal(t, "application", chart.Type)
	require.Len(t, chart.Dependencies, 1)
	require.Equal(t, LibraryName, chart.Dependencies[0].Name)
	require.Equal(t, "1.2.3", chart.Dependencies[0].Version)
	require.Equal(t, LibraryRepository, chart.Dependencies[0].Repository)
	var values map[string]any
	require.NoError(t, yaml.Unmarshal(byPath["values.yaml"], &values))
	require.Equal(t, map[string]any{"etcd": map[string]any{"replicas": float64(3)}}, values)
	require.Contains(t, string(byPath["templates/etcd.yaml"]), `include "etcdshapes.stack" (dict "root" $ "caller" "cluster")`)
	for p := range byPath {
		if strings.HasPrefix(p, "ci/") {
			require.True(t, strings.HasSuffix(p, "-values.yaml"), p)
		}
	}

	lib, err := Chart(Options{Library: true, Version: "1.2.3"})
	require.NoError(t, err)
	var paths []string
	libPath := map[string][]byte{}
	for _, f := range lib {
		paths = append(paths, f.Path)
		libPath[f.Path] = f.Data
	}
	require.Equal(t, []string{"Chart.yaml", "files/checks.tpl", "files/constants.json", "files/etcd-prometheus-rule.yaml", "files/grafana-dashboard.json", "files/validate.tpl",
		"templates/_etcdshapes.tpl", "templates/_etcdshapes_cluster.tpl", "templates/_etcdshapes_config.tpl", "templates/_etcdshapes_dashboard.tpl", "templates/_etcdshapes_etcd.tpl", "templates/_etcdshapes_objects.tpl"}, paths)
	require.NoError(t, yaml.Unmarshal(libPath["Chart.yaml"], &chart))
	require.Equal(t, "library", chart.Type)
	require.Equal(t, "1.2.3", chart.Version)

	// The shared stack and each caller's own hold every object of its
	// stack with every optional API served.
	for _, caller := range naming.Callers() {
		objs, err := sentinels[0].render(caller, etcdshapes.OptionalAPIs(), etcdshapes.LiveState{})
		require.NoError(t, err)
		stack := string(libPath[stackFile]) + string(libPath[callerFile(caller)])
		require.Equal(t, len(objs), strings.Count(stack, "\n---\n"), caller)
	}

	vendored, err := Chart(Options{Caller: "etcd", Vendor: true})
	require.NoError(t, err)
	own, err := Chart(Options{Caller: "etcd"})
	require.NoError(t, err)
	require.Len(t, vendored, len(own)+len(lib))
	require.Equal(t, TemplateBytes(own)+TemplateBytes(lib), TemplateBytes(vendored))
}

func TestOptionsAreChecked(t *testing.T) {
	for _, o := range []Options{{}, {Caller: "other"}, {Caller: "etcd", Version: "not a version"}, {Library: true, Caller: "etcd"}, {Library: true, Vendor: true}} {
		_, err := Chart(o)
		var ne *invalid.Error
		require.ErrorAs(t, err, &ne, "%+v", o)
	}
}

// libraryText is the library chart's files by path.
func libraryText(t *testing.T) map[string]string {
	lib, err := Chart(Options{Library: true})
	require.NoError(t, err)
	out := map[string]string{}
	for _, f := range lib {
		out[f.Path] = string(f.Data)
	}
	return out
}

// shapesOf is every caller's template and stack.
func shapesOf(t *testing.T) string {
	l := libraryText(t)
	var b strings.Builder
	for _, caller := range naming.Callers() {
		b.WriteString(l[callerFile(caller)])
	}
	b.WriteString(l[stackFile])
	return b.String()
}

// TestPrometheusTemplatesStayLiteral: the alert annotations hold
// Prometheus's own {{ $labels.job }}, which must reach the output as text.
func TestPrometheusTemplatesStayLiteral(t *testing.T) {
	l := libraryText(t)
	rule := l["files/etcd-prometheus-rule.yaml"]
	require.Contains(t, rule, "kind: PrometheusRule")
	require.Contains(t, rule, `'{{ $labels.job }}'`)
	require.Contains(t, l[callerFile("etcd")], `include "etcdshapes.file" (dict "c" . "name" "files/etcd-prometheus-rule.yaml")`)
}

// TestReasonsAreWritten: every reason is a template comment in the shapes,
// never rendered.
func TestReasonsAreWritten(t *testing.T) {
	s := shapesOf(t)
	for id, rs := range reasons {
		for path, text := range rs {
			require.NotContains(t, text, "*/", "%s %s", id, path)
			require.NotContains(t, text, "{{", "%s %s", id, path)
			first := strings.Fields(text)[0]
			require.Contains(t, s, "{{- /* "+first, "%s %s", id, path)
		}
	}
}

// TestFinishedYAML: the stacks are templates of their finished YAML: no
// placeholder, no line tag, no tpl and no regular expression over the
// rendered text; every value is an action on a config field.
func TestFinishedYAML(t *testing.T) {
	l := libraryText(t)
	token := regexp.MustCompile(`__[A-Z][A-Z_]*[A-Z]__`)
	tag := regexp.MustCompile(`(?m)^#[A-Z_]+#`)
	stack := l["templates/_etcdshapes.tpl"]
	stack = stack[strings.Index(stack, `{{- define "etcdshapes.stack" -}}`):]
	stack = stack[:strings.Index(stack, "{{- end -}}")]
	for _, bad := range []string{"tpl ", "regex", "replace ", "etcdshapes.run"} {
		require.NotContains(t, stack, bad)
	}
	for _, f := range []string{stackFile, callerFile("etcd"), callerFile("cluster")} {
		text := l[f]
		require.NotEmpty(t, text, f)
		require.Empty(t, token.FindAllString(text, -1), f)
		require.Empty(t, tag.FindAllString(text, -1), f)
		require.NotContains(t, text, "tpl (", f)
	}
	require.Contains(t, l[stackFile], `"{{ .cluster }}.{{ .namespace }}.svc:2379"`)
	// Dot, not $, outside the tenants' range (see emit.go).
	for _, f := range []string{stackFile, callerFile("etcd"), callerFile("cluster")} {
		require.NotContains(t, l[f], "$.", f)
	}
	for _, k := range []string{"storageClass", "vpaMinCpu", "chartVersion", "pvcNames", "dataStore"} {
		require.Equal(t, k, keyFor(tokenFor(k)))
	}
}

// TestLineLength: no line of the library chart's template text (its
// templates and the checks' files/*.tpl) is over 160 characters but the
// content of a YAML block scalar, which is the builders' data (the etcd
// chart's cleanup script); the data files (the dashboard's model, the
// alert rules, the checks' tables) are not template text.
func TestLineLength(t *testing.T) {
	for path, text := range libraryText(t) {
		if !strings.HasPrefix(path, "templates/") && !(strings.HasPrefix(path, "files/") && strings.HasSuffix(path, ".tpl")) {
			continue
		}
		block := -1 // the indentation of the block scalar being read
		for i, l := range strings.Split(text, "\n") {
			indent := len(l) - len(strings.TrimLeft(l, " "))
			if block >= 0 && strings.TrimSpace(l) != "" && indent <= block {
				block = -1
			}
			if len(l) > 160 && block < 0 {
				t.Errorf("%s:%d: %d characters: %.80s...", path, i+1, len(l), l)
			}
			if blockHeader.MatchString(l) {
				block = indent
			}
		}
	}
}

// TestIfBlocks: the if blocks of a tagged text print, for every setting
// of its tags' fields, exactly the lines whose tags are all on, as the
// callers' views (view) were checked.
func TestIfBlocks(t *testing.T) {
	tagged := strings.Join([]string{
		"a:",
		"#E#  e: 1",
		"#E#  e2: \"{{ $.cluster }}\"",
		"#C#  c: 1",
		"  {{- /* a reason",
		"      on two lines */}}",
		"#STORAGE_CLASS#  sc: x",
		"  {{- /* of the affinity */}}",
		"#AFFINITY#{{ indent 4 $.affinity }}",
		"#NO_AFFINITY#    default: 1",
		"#NO_AFFINITY#    {{- /* inside */}}",
		"#NO_AFFINITY#    default2: 2",
		"#E##AUTH#  auth: on",
		"#C#  c2: 1",
		"b: 2",
	}, "\n")
	text := ifBlocks(tagged)
	tpl, err := template.New("x").Funcs(template.FuncMap{"indent": func(n int, s string) string {
		return strings.Repeat(" ", n) + strings.ReplaceAll(s, "\n", "\n"+strings.Repeat(" ", n))
	}}).Parse(text)
	require.NoError(t, err, text)
	for mask := 0; mask < 16; mask++ {
		on := map[string]bool{"E": mask&1 != 0, "STORAGE_CLASS": mask&2 != 0, "AFFINITY": mask&4 != 0, "AUTH": mask&8 != 0}
		on["C"], on["NO_AFFINITY"] = !on["E"], !on["AFFINITY"]
		data := map[string]any{"etcdChart": on["E"], "storageClass": ternary(on["STORAGE_CLASS"], "x", ""), "affinity": ternary(on["AFFINITY"], "aff: 1", ""),
			"auth": ternary(on["AUTH"], "y", ""), "cluster": "etcd"}
		var want []string
		for _, l := range strings.Split(tagged, "\n") {
			tags := lineTags.FindString(l)
			keep := true
			for _, n := range tagNames(tags) {
				keep = keep && on[n]
			}
			l = l[len(tags):]
			if !keep || strings.Contains(l, "/*") || strings.Contains(l, "*/") {
				continue
			}
			want = append(want, strings.ReplaceAll(strings.ReplaceAll(l, "{{ indent 4 $.affinity }}", "    aff: 1"), "{{ $.cluster }}", "etcd"))
		}
		var out bytes.Buffer
		require.NoError(t, tpl.Execute(&out, data))
		require.Equal(t, strings.Join(want, "\n"), out.String(), "%v\n%s", on, text)
	}
}

func ternary(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// TestTemplateQuote: constants are written as template string literals.
func TestTemplateQuote(t *testing.T) {
	for _, s := range []string{"plain", `quo"te`, "back`tick", "new\nline", `back\slash`, "{{ x }}"} {
		q := templateQuote(s)
		require.NotContains(t, q, "`")
		tpl, err := template.New("x").Parse("{{ " + q + " }}")
		require.NoError(t, err, q)
		var out bytes.Buffer
		require.NoError(t, tpl.Execute(&out, nil))
		require.Equal(t, s, out.String())
	}
}

// TestEmitterRoundTrips writes awkward values with the emitter and reads
// them back: every string must survive YAML's quoting rules. (Text holding
// template delimiters is written as a raw string, TestPrometheusTemplatesStayLiteral.)
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
	var got map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(text), &got), text)
	want := map[string]any{}
	raw, _ := json.Marshal(in)
	require.NoError(t, json.Unmarshal(raw, &want))
	require.Equal(t, want, got, text)
}

// TestGenerationNoticesUncoveredInputs drops one rule at a time: the field it
// covered then depends on the sentinel inputs, and generation must fail
// instead of freezing one input's value into the templates. The quick tier
// drops a rule of each kind of value (a number, a map, a list, a string),
// the slow tier every rule listed.
func TestGenerationNoticesUncoveredInputs(t *testing.T) {
	defer func() { shapeRules = rules }()
	for _, c := range []struct {
		caller      naming.Caller
		shape, path string
		quick       bool
	}{
		{"etcd", "etcdCluster", "spec.replicas", true},
		{"etcd", "etcdCluster", "spec.resources", true},
		{"etcd", "cleanupRole", "rules[0].resourceNames", true},
		{"etcd", "workloadMonitor", "spec.minReplicas", false},
		{"cluster", "verticalPodAutoscaler", "spec.resourcePolicy.containerPolicies[0].minAllowed.cpu", false},
		{"cluster", "defragCronJob", "metadata.name", true},
		{"cluster", "cleanupJob", "metadata.name", false},
		{"cluster", "dataStore", "metadata.name", false},
		{"cluster", "etcdCluster", "spec.replicas", false},
	} {
		if !c.quick && !testtier.Slow {
			continue // the slow tier's, below
		}
		shapeRules = func(caller naming.Caller, shape string) map[string]rule {
			r := rules(caller, shape)
			if caller == c.caller && shape == c.shape {
				delete(r, c.path)
			}
			return r
		}
		_, err := libraryFiles(DefaultVersion)
		require.Error(t, err, "%s %s %s", c.caller, c.shape, c.path)
	}
	shapeRules = rules
	_, err := libraryFiles(DefaultVersion)
	require.NoError(t, err)
	testtier.SkipUnlessSlow(t, "the other rules dropped one at a time")
}

// TestSchemasDeclareTypes: values.schema.json declares the type of every
// value the charts read, so Helm refuses a value of the wrong type.
func TestSchemasDeclareTypes(t *testing.T) {
	for caller, want := range map[string][]string{
		"etcd":    {"version", "replicas", "size", "storageClass", "resources", "affinity", "_cluster"},
		"cluster": {"etcd", "etcd.replicas", "_cluster"},
	} {
		files, err := Chart(Options{Caller: naming.Caller(caller)})
		require.NoError(t, err)
		for _, f := range files {
			if f.Path != "values.schema.json" {
				continue
			}
			var schema map[string]any
			require.NoError(t, json.Unmarshal(f.Data, &schema))
			seen := map[string]bool{}
			var walk func(path string, props map[string]any)
			walk = func(path string, props map[string]any) {
				for name, raw := range props {
					p := raw.(map[string]any)
					// A property of a shared definition declares its type there.
					if ref, ok := p["$ref"].(string); ok {
						p = schema["definitions"].(map[string]any)[strings.TrimPrefix(ref, "#/definitions/")].(map[string]any)
					}
					require.Contains(t, p, "type", "%s: %s%s", caller, path, name)
					seen[path+name] = true
					if sub, ok := p["properties"].(map[string]any); ok {
						walk(path+name+".", sub)
					}
				}
			}
			walk("", schema["properties"].(map[string]any))
			for _, k := range want {
				require.True(t, seen[k], "%s: %s", caller, k)
			}
			for _, k := range []string{"cpu-allocation-ratio", "memory-allocation-ratio", "ephemeral-storage-allocation-ratio", "etcd-storage-class-local", "etcd-storage-class-replicated", "scheduling", "scheduling.globalAppTopologySpreadConstraints"} {
				require.True(t, seen["_cluster."+k], "%s: _cluster.%s", caller, k)
			}
		}
	}
}

// TestQuickPatterns: the quick tests of etcdshapes.config skip the checks
// for input they match, so each must match only input the library accepts.
// Random strings over the alphabets that matter, and the edges. Here the
// fields' patterns, anchored; TestQuickHeads tests them joined and used as
// the configs use them.
func TestQuickPatterns(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	random := func(alphabet string, n int) string {
		b := make([]byte, 1+r.Intn(n))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	compiled := map[string]*regexp.Regexp{}
	match := func(pattern, s string) bool {
		if compiled[pattern] == nil {
			compiled[pattern] = regexp.MustCompile(pattern)
		}
		return compiled[pattern].MatchString(s)
	}
	matched := map[string]int{}
	for i := 0; i < 5000; i++ {
		ns := "tenant-" + random("ab-0.A", 70)
		if len(ns) <= validation.DNS1123LabelMaxLength && match(tenantPattern, ns) {
			matched["namespace"]++
			require.NoError(t, naming.ValidateTenantNamespace("namespace", ns), ns)
		}
		rel := random("ab-0.A_", 60)
		if len(rel) <= naming.MaxClusterName-len("-etcd") && match(releasePattern, rel) {
			matched["release"]++
			_, err := naming.ForCluster("tenant-a", rel)
			require.NoError(t, err, rel)
		}
		v := random("0123456789.-a", 12)
		if match(versionPattern, v) {
			matched["version"]++
			require.NoError(t, etcd.ValidateVersion(v), v)
		}
		q := random("0123456789", 9) + pick(r, "", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e3", ".5")
		if r.Intn(4) == 0 {
			q = "0" + q
		}
		if match(quickSize, q) {
			matched["size"]++
			size, err := resource.ParseQuantity(q)
			require.NoError(t, err, q)
			require.NoError(t, etcd.Options{Size: size}.Validate(), q)
		}
		// As the config tests each resource: a field of a joined string that
		// the pattern removes entirely, one field per value.
		if joined := q + ";"; regexp.MustCompile(quickQuantity+";").ReplaceAllString(joined, "") == "" && strings.Count(joined, ";") == 1 {
			matched["quantity"]++
			lim := resource.MustParse(q)
			// A memory limit the quick test vouches for only where
			// quickMemory matches too (etcd.MinMemory).
			res := corev1.ResourceList{"cpu": lim, "ephemeral-storage": lim}
			if match(quickMemory, q) {
				matched["memory"]++
				res["memory"] = lim
			}
			for _, ratio := range []string{"1", "1.5", "3", "10", "1e15"} {
				o := etcd.Options{
					Resources: res,
					Ratios:    etcd.Ratios{CPU: ratio, Memory: ratio, EphemeralStorage: ratio},
				}
				require.NoError(t, o.Validate(), "%s / %s", q, ratio)
			}
			if !match(quickMemory, q) {
				// The full check then runs; it refuses what is below.
				if err := (etcd.Options{Resources: corev1.ResourceList{"memory": lim}}).Validate(); err == nil {
					require.False(t, lim.Sign() > 0 && lim.Value() < etcd.MinMemoryBytes, q)
				}
			}
		}
		// quickMemory admits nothing the library refuses as memory.
		if m := random("0123456789", 6) + pick(r, "", "M", "G", "Mi", "Gi", "Ki", "k"); match(quickMemory, m) {
			matched["memory"]++
			require.NoError(t, etcd.Options{Resources: corev1.ResourceList{"memory": resource.MustParse(m)}}.Validate(), m)
		}
	}
	for _, k := range []string{"namespace", "release", "version", "size", "quantity", "memory"} {
		require.Greater(t, matched[k], 20, "%s: too few random inputs match; the test proves little", k)
	}
	// The edges: each pattern's longest match is accepted.
	require.NoError(t, naming.ValidateTenantNamespace("namespace", "tenant-"+strings.Repeat("a", validation.DNS1123LabelMaxLength-len("tenant-"))))
	_, err := naming.ForCluster("tenant-a", strings.Repeat("a", naming.MaxClusterName-len("-etcd")))
	require.NoError(t, err)
	for _, size := range []string{"9999Gi", "9999G", "999999Mi", "300Mi", "99Ti", "1G"} {
		require.NoError(t, etcd.Options{Size: resource.MustParse(size)}.Validate(), size)
	}
	for _, q := range []string{"999999", "999999Mi", "99999Gi", "999999G"} {
		require.NoError(t, etcd.Options{Resources: corev1.ResourceList{"cpu": resource.MustParse(q), "ephemeral-storage": resource.MustParse(q)}}.Validate(), q)
	}
	// quickMemory's edges: etcd.MinMemory and just below it, in each
	// of its units.
	for _, q := range []string{"0", "40Mi", "1Gi", "999999Mi", "99999Gi"} {
		require.True(t, match(quickMemory, q), q)
		require.NoError(t, etcd.Options{Resources: corev1.ResourceList{"memory": resource.MustParse(q)}}.Validate(), q)
	}
	for _, q := range []string{"39Mi", "31Mi", "33M", "1", "999999", "1k", "1Mi", "0Mi", "32768Ki"} {
		require.False(t, match(quickMemory, q), q)
	}
	_ = naming.CallerEtcd
}

func pick(r *rand.Rand, xs ...string) string { return xs[r.Intn(len(xs))] }

// regexFind is sprig's function of that name, which the templates call:
// the leftmost match of the pattern anywhere in s (empty for none). It
// does not anchor the pattern.
func regexFind(pattern, s string) string { return regexp.MustCompile(pattern).FindString(s) }

// regexMatch is sprig's function of that name: whether the pattern
// matches anywhere in s. It does not anchor the pattern.
func regexMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }

// quickHeads are the head tests of etcdshapes.config as the generated
// configs write them (TestQuickHeads checks the text): the fields joined
// with ";" and the pattern's leftmost match compared with the whole head,
// after the length tests.
type quickHeads struct{ k *constants }

func (h quickHeads) etcd(ns, version, size string) bool {
	head := fmt.Sprintf("%s;%s;%s", ns, version, size)
	return len(ns) <= h.k.MaxLabel && regexFind(h.k.QuickEtcd, head) == head
}

func (h quickHeads) cluster(ns, rel string) bool {
	head := fmt.Sprintf("%s;%s", ns, rel)
	return len(rel) <= h.k.MaxQuickRelease && len(ns+"."+rel) <= h.k.MaxDataStoreName && regexFind(h.k.QuickCluster, head) == head
}

// configTexts is the library chart's config (one define for both
// callers), by caller; it fails when it is missing, so that a test of its
// text cannot pass on no text.
func configTexts(t *testing.T) map[naming.Caller]string {
	t.Helper()
	files, err := Chart(Options{Library: true})
	require.NoError(t, err)
	out := map[naming.Caller]string{}
	for _, caller := range naming.Callers() {
		for _, f := range files {
			if f.Path == configFile {
				out[caller] = string(f.Data)
			}
		}
		require.NotEmpty(t, out[caller], "no %s in the library chart", configFile)
	}
	return out
}

// TestQuickHeads: the head tests of etcdshapes.config (QuickEtcd,
// QuickCluster) used as the generated configs use them, unanchored at the
// start and matched whole by comparing regexFind's match with the head.
// The heads they pass are ones the library accepts with the names the
// quick path prints; near misses at either end of the head and of each
// field fail.
func TestQuickHeads(t *testing.T) {
	k, err := newConstants()
	require.NoError(t, err)
	h := quickHeads{k}
	configs := configTexts(t)
	for caller, uses := range map[naming.Caller][]string{
		naming.CallerEtcd: {
			`{{- $head := printf "%s;%s;%s" $ns $version $size -}}`,
			fmt.Sprintf(`(le (len $ns) %d)`, k.MaxLabel),
			"(eq (regexFind (print\n    " + templateQuoteParts(k.QuickEtcd, "    ") + ") $head) $head)",
		},
		naming.CallerCluster: {
			`{{- $dataStore = printf "%s.%s" $ns $rel -}}`,
			`{{- $head := printf "%s;%s" $ns $rel -}}`,
			fmt.Sprintf(`(le (len $rel) %d) (le (len $dataStore) %d)`, k.MaxQuickRelease, k.MaxDataStoreName),
			`(eq (regexFind ` + templateQuote(k.QuickCluster) + ` $head) $head)`,
		},
	} {
		for _, use := range uses {
			require.Equal(t, 1, strings.Count(configs[caller], use), "%s: %s", caller, use)
		}
	}

	tenant := "tenant-" + strings.Repeat("a", k.MaxLabel-len("tenant-"))
	for _, c := range []struct{ ns, version, size string }{
		{"tenant-a", "3.5.0", "4Gi"}, {"tenant-root", "3.6.10", "1G"}, {"tenant-a-0-b", "10.20.30", "99Ti"},
		{tenant, "0.0.0", "300Mi"}, {"tenant-a", "3.5.0", "999999Mi"}, {"tenant-a", "3.5.0", "9999Gi"}, {"tenant-a", "3.5.0", "1T"},
	} {
		require.True(t, h.etcd(c.ns, c.version, c.size), "%q", c)
	}
	for _, c := range []struct{ ns, version, size string }{
		// At the ends of the head.
		{"xtenant-a", "3.5.0", "4Gi"}, {"-tenant-a", "3.5.0", "4Gi"}, {" tenant-a", "3.5.0", "4Gi"}, {"\ntenant-a", "3.5.0", "4Gi"},
		{"tenant-a", "3.5.0", "4Gi\n"}, {"tenant-a", "3.5.0", "4Gix"}, {"tenant-a", "3.5.0", "4Gi "}, {"tenant-a", "3.5.0", "4Gi;"},
		{"tenant-a", "3.5.0", "4Pi"}, {"tenant-a", "3.5.0", "1000000"}, {"tenant-a", "3.5.0", "4Gi;4Gi"},
		// Below etcd.MinSize, or of more than 15 digits in bytes.
		{"tenant-a", "3.5.0", "1"}, {"tenant-a", "3.5.0", "1k"}, {"tenant-a", "3.5.0", "255Mi"}, {"tenant-a", "3.5.0", "10000Gi"}, {"tenant-a", "3.5.0", "100Ti"}, {"tenant-a", "3.5.0", "999999Ti"},
		// At the ends of the fields.
		{"tenant-", "3.5.0", "4Gi"}, {"tenant-a-", "3.5.0", "4Gi"}, {"tenant-a\n", "3.5.0", "4Gi"}, {"Tenant-a", "3.5.0", "4Gi"},
		{"tenant-a", "v3.5.0", "4Gi"}, {"tenant-a", "3.5.0-rc.1", "4Gi"}, {"tenant-a", "3.5", "4Gi"}, {"tenant-a", "3.5.0.1", "4Gi"},
		{"tenant-a", ".3.5.0", "4Gi"}, {"tenant-a", "3.5.0;1", "4Gi"}, {"tenant-a", "", "4Gi"},
		{"tenant-a", "3.5.0", "0"}, {"tenant-a", "3.5.0", "04Gi"}, {"tenant-a", "3.5.0", ""}, {"tenant-a", "3.5.0", "Gi"},
		{"tenant-a;3.5.0", "3.5.0", "4Gi"}, {tenant + "a", "3.5.0", "4Gi"},
	} {
		require.False(t, h.etcd(c.ns, c.version, c.size), "%q", c)
	}
	release := strings.Repeat("a", k.MaxQuickRelease)
	for _, c := range []struct{ ns, rel string }{
		{"tenant-a", "a"}, {"tenant-demo", "kubernetes-demo"}, {"tenant-a-0", "a-0"}, {"tenant-a", release},
		{tenant[:k.MaxDataStoreName-len(".a")], "a"},
	} {
		require.True(t, h.cluster(c.ns, c.rel), "%q", c)
	}
	for _, c := range []struct{ ns, rel string }{
		{"xtenant-a", "a"}, {" tenant-a", "a"}, {"\ntenant-a", "a"}, {"tenant-a", "a\n"}, {"tenant-a", "a "}, {"tenant-a", "a;"},
		{"tenant-a", "a;b"}, {"tenant-", "a"}, {"tenant-a-", "a"}, {"tenant-a", "a-"}, {"tenant-a", "-a"}, {"tenant-a", "0a"},
		{"tenant-a", "A"}, {"tenant-a", "a.b"}, {"tenant-a", "a_b"}, {"tenant-a", ""}, {"tenant-a;a", "a"},
		{"tenant-a", release + "a"}, {tenant[:k.MaxDataStoreName-len(".a")+1], "a"},
	} {
		require.False(t, h.cluster(c.ns, c.rel), "%q", c)
	}

	// Random fields, near misses at their ends among them: every head the
	// tests pass is one the library accepts, and the quick path's names
	// are the library's.
	r := rand.New(rand.NewSource(10))
	random := func(alphabet string, n int) string {
		b := make([]byte, r.Intn(n+1))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	stray := func() string {
		if r.Intn(10) > 0 {
			return ""
		}
		return pick(r, "x", "-", ";", "\n", " ", "A", "0")
	}
	passed := map[naming.Caller]int{}
	for i := 0; i < 5000; i++ {
		ns := stray() + "tenant-" + random("ab0-", 12) + stray()
		if r.Intn(8) == 0 {
			ns += random("ab-0.A_;", 60)
		}
		version := random("0123456789.", 9)
		if r.Intn(2) == 0 {
			version = fmt.Sprintf("%s%d.%d.%d%s", stray(), r.Intn(20), r.Intn(20), r.Intn(20), stray())
		}
		size := stray() + random("0123456789", 8) + pick(r, "", "m", "k", "M", "G", "T", "P", "Ki", "Mi", "Gi", "Ti", "Pi", "e3", ".5") + stray()
		if h.etcd(ns, version, size) {
			passed["etcd"]++
			require.NoError(t, naming.ValidateTenantNamespace("namespace", ns), ns)
			_, err := naming.ForEtcdChart(ns, naming.EtcdChartRelease)
			require.NoError(t, err, ns)
			require.NoError(t, etcd.ValidateVersion(version), version)
			q, err := resource.ParseQuantity(size)
			require.NoError(t, err, size)
			require.NoError(t, etcd.Options{Size: q}.Validate(), size)
		}
		rel := stray() + random("ab0-", 45) + stray()
		if r.Intn(8) == 0 {
			rel = random("ab-0.A_;", 60)
		}
		if h.cluster(ns, rel) {
			passed["cluster"]++
			n, err := naming.ForCluster(ns, rel)
			require.NoError(t, err, "%s %s", ns, rel)
			name := rel + "-etcd"
			require.Equal(t, []string{name, name + "-defrag", name + "-cleanup", ns + "." + rel},
				[]string{n.Cluster, n.DefragCronJob(), n.CleanupJob(), n.DataStore()}, "%s %s", ns, rel)
		}
	}
	for _, caller := range naming.Callers() {
		require.Greater(t, passed[caller], 20, "%s: too few random heads pass; the test proves little", caller)
	}
}

// TestQuickLabel: the quick test of a StorageClass or DataStore name
// (LabelPattern) used as the generated configs use it: an empty name
// passes; another passes when at most MaxLabel long and regexMatch finds
// the anchored pattern in it. The names it passes are DNS-1123 labels the
// library accepts as a StorageClass; near misses at either end fail.
func TestQuickLabel(t *testing.T) {
	k, err := newConstants()
	require.NoError(t, err)
	configs := configTexts(t)
	for caller, x := range map[naming.Caller]string{naming.CallerEtcd: "$sc", naming.CallerCluster: "$x"} {
		use := fmt.Sprintf(`(or (not %s) (and (le (len %s) %d) (regexMatch %s %s)))`, x, x, k.MaxLabel, templateQuote(k.LabelPattern), x)
		require.Equal(t, 1, strings.Count(configs[caller], use), "%s: %s", caller, use)
	}
	quick := func(name string) bool {
		return name == "" || len(name) <= k.MaxLabel && regexMatch(k.LabelPattern, name)
	}
	long := strings.Repeat("a", k.MaxLabel)
	for _, name := range []string{"", "a", "0", "local", "local-path", "replicated-2", "a--b", long} {
		require.True(t, quick(name), "%q", name)
	}
	for _, name := range []string{"A", "-a", "a-", "xA", "Ab", " a", "a ", "\na", "a\n", ".a", "a.", "a.b", "a_b", "a;b", "-", long + "a"} {
		require.False(t, quick(name), "%q", name)
	}
	r := rand.New(rand.NewSource(11))
	passed := 0
	for i := 0; i < 5000; i++ {
		b := make([]byte, r.Intn(k.MaxLabel+3))
		for j := range b {
			b[j] = "ab0-"[r.Intn(4)]
		}
		name := string(b)
		if r.Intn(4) == 0 {
			pos := r.Intn(len(name) + 1)
			name = name[:pos] + pick(r, ".", "A", "_", "\n", " ", ";") + name[pos:]
		}
		if name != "" && quick(name) {
			passed++
			require.Empty(t, validation.IsDNS1123Label(name), name)
			require.NoError(t, etcd.Options{StorageClassName: name}.Validate(), name)
		}
	}
	require.Greater(t, passed, 20, "too few random names pass; the test proves little")
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

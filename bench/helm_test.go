package bench

import (
	"bytes"
	"cmp"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/releaseutil"
)

// upstreamDir is where the upstream charts live: ../shared/upstream beside
// the checkout, unless ETCDSHAPES_UPSTREAM names another directory.
func upstreamDir() string {
	return cmp.Or(os.Getenv("ETCDSHAPES_UPSTREAM"), filepath.Join("..", "..", "shared", "upstream"))
}

// helmInput is one release for Helm: a chart's files and the same inputs
// the library gets.
type helmInput struct {
	files     []*loader.BufferedFile
	values    map[string]any
	namespace string
	release   string
	apis      []string
}

func scenarioInput(tb testing.TB, c caller) helmInput {
	tb.Helper()
	s := goldentest.Scenario(tb, c.scenario)
	in := helmInput{namespace: s.Namespace, release: s.Release, apis: s.APIVersions}
	var err error
	if in.values, err = s.ValuesMap(); err != nil {
		tb.Fatal(err)
	}
	return in
}

// generatedInput is the caller's generated chart as `helm dependency build`
// leaves it: the application chart with the library chart in charts/.
func generatedInput(tb testing.TB, c caller) helmInput {
	tb.Helper()
	in := scenarioInput(tb, c)
	files, err := chartgen.Chart(chartgen.Options{Caller: c.chart, Version: "0.0.0", Vendor: true})
	if err != nil {
		tb.Fatal(err)
	}
	for _, f := range files {
		in.files = append(in.files, &loader.BufferedFile{Name: f.Path, Data: f.Data})
	}
	return in
}

// upstreamInput is the upstream chart the generated one replaces, read from
// disk once (with its vendored cozy-lib) and loaded from memory per
// operation like the generated one.
func upstreamInput(tb testing.TB, c caller) helmInput {
	tb.Helper()
	in := scenarioInput(tb, c)
	in.files = dirFiles(tb, filepath.Join(upstreamDir(), c.upstream))
	return in
}

// dirFiles reads a chart directory as the loader does (.helmignore itself
// is not a chart file; the upstream charts ignore nothing else they hold).
func dirFiles(tb testing.TB, dir string) []*loader.BufferedFile {
	tb.Helper()
	var out []*loader.BufferedFile
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == ".helmignore" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out = append(out, &loader.BufferedFile{Name: filepath.ToSlash(rel), Data: data})
		return nil
	})
	if err != nil {
		tb.Fatalf("the upstream charts are missing (set ETCDSHAPES_UPSTREAM): %v", err)
	}
	return out
}

// floorInput is the upstream chart with no templating at all: its
// Chart.yaml, values.yaml and values.schema.json and, for each of its
// templates that renders a manifest, one template that is the finished YAML
// it renders for these inputs (the template delimiters in that YAML
// escaped). What Helm costs around the templates (loading, values and
// schema, splitting and sorting the manifests) is the floor under any
// chart's cost. One template per upstream template, not one for the whole
// stack: Helm splits each template's output with a regular expression whose
// cost per byte grows past a size (Go's regexp leaves its backtracker for
// its slower NFA for texts over some 20 kB), so one large template would
// raise the floor above what the upstream chart itself pays.
func floorInput(tb testing.TB, c caller) helmInput {
	tb.Helper()
	up := upstreamInput(tb, c)
	rendered, _, err := helmRender(up)
	if err != nil {
		tb.Fatal(err)
	}
	in := up
	in.files = nil
	for _, f := range up.files {
		if f.Name == "Chart.yaml" || f.Name == "values.yaml" || f.Name == "values.schema.json" {
			in.files = append(in.files, f)
		}
	}
	ch, err := loader.LoadFiles(up.files)
	if err != nil {
		tb.Fatal(err)
	}
	for _, name := range slices.Sorted(maps.Keys(rendered)) {
		text := rendered[name]
		if strings.HasPrefix(path.Base(name), "_") || strings.TrimSpace(text) == "" {
			continue
		}
		rel, ok := strings.CutPrefix(name, ch.Name()+"/templates/")
		if !ok {
			// A subchart's manifest has no place among the chart's own
			// templates; the upstream charts' subchart (cozy-lib) has
			// only partials.
			tb.Fatalf("floor: %s renders a manifest outside the chart's own templates", name)
		}
		escaped := strings.ReplaceAll(text, "{{", `{{ "{{" }}`)
		in.files = append(in.files, &loader.BufferedFile{Name: "templates/" + rel, Data: []byte(escaped)})
	}
	return in
}

// genFloorInput is the generated chart with no templating: its files but
// templates, and for each template that renders a manifest one template
// that is the finished YAML it renders for these inputs (delimiters
// escaped), as floorInput does for the upstream chart. It is what Helm
// costs around the generated chart's own output (19 kB for the etcd
// chart, 13.5 kB per cluster, against the upstream's 25 kB with its
// comment blocks): the floor under the generated chart's cost, beside the
// upstream's floor.
func genFloorInput(tb testing.TB, c caller) helmInput {
	tb.Helper()
	gen := generatedInput(tb, c)
	rendered, _, err := helmRender(gen)
	if err != nil {
		tb.Fatal(err)
	}
	ch, err := loader.LoadFiles(gen.files)
	if err != nil {
		tb.Fatal(err)
	}
	in := gen
	in.files = nil
	for _, f := range gen.files {
		if !strings.Contains("/"+f.Name, "/templates/") {
			in.files = append(in.files, f)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(rendered)) {
		text := rendered[name]
		if strings.HasPrefix(path.Base(name), "_") || strings.TrimSpace(text) == "" {
			continue
		}
		rel, ok := strings.CutPrefix(name, ch.Name()+"/templates/")
		if !ok {
			tb.Fatalf("floor: %s renders a manifest outside the chart's own templates", name)
		}
		escaped := strings.ReplaceAll(text, "{{", `{{ "{{" }}`)
		in.files = append(in.files, &loader.BufferedFile{Name: "templates/" + rel, Data: []byte(escaped)})
	}
	return in
}

// actionsInput is the generated chart with nothing computed: its
// templates as they are (the objects' finished YAML with an action where a
// value depends on the input), but etcdshapes.config replaced by the dict
// it computes for these inputs, as one JSON literal, and the checks' files
// left out. It is what the objects' templates cost with no arithmetic, no
// names derived and no check: the floor under any chart of this design
// (each object its finished YAML, one action per value-dependent field),
// beside the two floors with no templating at all. The literal itself costs
// about 215 allocations a render (its parse and fromJson).
func actionsInput(tb testing.TB, c caller) helmInput {
	tb.Helper()
	gen := generatedInput(tb, c)
	probe := gen
	probe.files = append(slices.Clone(gen.files), &loader.BufferedFile{Name: "templates/zz-config.json",
		Data: []byte(`{{- $c := dict "root" $ "caller" "` + string(c.chart) + `" }}{{- include "etcdshapes.config" $c }}{{- toJson (omit $c "root") }}`)})
	rendered, _, err := helmRender(probe)
	if err != nil {
		tb.Fatal(err)
	}
	config := ""
	for name, text := range rendered {
		if strings.HasSuffix(name, "/templates/zz-config.json") {
			config = text
		}
	}
	if !strings.HasPrefix(config, "{") {
		tb.Fatalf("actions: etcdshapes.config gave %.200q, not a JSON object", config)
	}
	in := gen
	in.files = nil
	replaced := false
	for _, f := range gen.files {
		switch {
		case strings.HasSuffix(f.Name, "/templates/_etcdshapes_config.tpl"):
			replaced = true
			f = &loader.BufferedFile{Name: f.Name, Data: []byte(fmt.Sprintf(
				"{{- define \"etcdshapes.config\" -}}{{- if not (hasKey . \"render\") -}}{{- $_ := merge . (fromJson %q) -}}{{- end -}}{{- end -}}", config))}
		case strings.Contains(f.Name, "/files/") && strings.HasSuffix(f.Name, ".tpl"):
			continue
		}
		in.files = append(in.files, f)
	}
	if !replaced {
		tb.Fatal("actions: the generated chart has no _etcdshapes_config.tpl")
	}
	return in
}

// minimalActions is how many fields of each caller's stack depend on its
// input, as issue 21 counted them (one action each in a chart of finished
// YAML): 44 for the etcd chart, 109 per cluster.
var minimalActions = map[string]int{"etcd-chart": 44, "cluster": 109}

// scalarLine is a YAML line "key: value" (or "- key: value") whose value
// is one plain or quoted scalar on that line.
var scalarLine = regexp.MustCompile(`^(\s*(?:- )?[A-Za-z0-9_./-]+: )([^\s{\[|>&*!#][^#]*)$`)

// minimalInput is the generated chart's floor (genFloorInput) with
// minimalActions of its scalars, spread over its documents, each printed by
// one action (a raw string constant: {{ `value` }}): the cheapest chart of
// the design issue 21 asks for, the finished YAML with an action where a
// value depends on the input, with nothing computed, nothing looked up and
// nothing checked. The values stay the floor's: an action reading an extra
// values map would make Helm coalesce and validate that map at every render
// (518 allocations for the etcd chart's 44, 1,232 for 109), a cost no chart
// of the design has. Its output is the floor's, byte for byte.
func minimalInput(tb testing.TB, c caller) helmInput {
	tb.Helper()
	in := genFloorInput(tb, c)
	type spot struct{ file, line int }
	lines := make([][]string, len(in.files))
	var spots [][]spot // per template file, its scalar lines; actions take the first of each, then the second
	for i, f := range in.files {
		if !strings.HasPrefix(f.Name, "templates/") || strings.HasPrefix(path.Base(f.Name), "_") {
			continue
		}
		lines[i] = strings.Split(string(f.Data), "\n")
		var s []spot
		for j, l := range lines[i] {
			if scalarLine.MatchString(l) && !strings.Contains(l, "{{") && !strings.Contains(l, "`") {
				s = append(s, spot{i, j})
			}
		}
		spots = append(spots, s)
	}
	changed := make([]bool, len(in.files))
	for n, round := 0, 0; n < minimalActions[c.name]; round++ {
		took := false
		for _, s := range spots {
			if round >= len(s) || n == minimalActions[c.name] {
				continue
			}
			sp := s[round]
			m := scalarLine.FindStringSubmatch(lines[sp.file][sp.line])
			lines[sp.file][sp.line] = m[1] + "{{ `" + m[2] + "` }}"
			changed[sp.file] = true
			n, took = n+1, true
		}
		if !took {
			tb.Fatalf("minimal: %d scalar lines for %d actions", n, minimalActions[c.name])
		}
	}
	out := in
	out.files = nil
	for i, f := range in.files {
		if changed[i] {
			f = &loader.BufferedFile{Name: f.Name, Data: []byte(strings.Join(lines[i], "\n"))}
		}
		out.files = append(out.files, f)
	}
	return out
}

// helmRender loads the chart from its files, computes the render values
// (coalescing values.yaml, validating values.schema.json) and runs the
// template engine: the rendered text of each template, and the
// capabilities the manifests are sorted with.
func helmRender(in helmInput) (map[string]string, *chartutil.Capabilities, error) {
	ch, err := loader.LoadFiles(in.files)
	if err != nil {
		return nil, nil, err
	}
	caps := chartutil.DefaultCapabilities.Copy()
	caps.APIVersions = append(caps.APIVersions, in.apis...)
	opts := chartutil.ReleaseOptions{Name: in.release, Namespace: in.namespace, Revision: 1, IsInstall: true}
	vals, err := chartutil.ToRenderValues(ch, in.values, opts, caps)
	if err != nil {
		return nil, nil, err
	}
	rendered, err := engine.Render(ch, vals)
	return rendered, caps, err
}

// helmTemplate is what `helm template` does per release, in process and
// without the CLI: render the chart (helmRender), sort the manifests into
// install order and join them.
func helmTemplate(in helmInput) ([]byte, error) {
	rendered, caps, err := helmRender(in)
	if err != nil {
		return nil, err
	}
	hooks, manifests, err := releaseutil.SortManifests(rendered, caps.APIVersions, releaseutil.InstallOrder)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	for _, m := range manifests {
		out.WriteString("---\n# Source: " + m.Name + "\n" + m.Content + "\n")
	}
	for _, h := range hooks {
		out.WriteString("---\n# Source: " + h.Path + "\n" + h.Manifest + "\n")
	}
	return out.Bytes(), nil
}

// BenchmarkRender is the comparison the README's performance table states,
// per caller, side by side in one run: Helm's engine rendering the
// upstream chart (the anchor), the chart chartgen generates, the upstream
// chart's floor and the generated chart's (genfloor: each with no
// templating, its own finished YAML); and the library turning the same
// values into the same YAML (etcdshapes.Render + Marshal). Each caller's
// "ratios" line reports the goals' ratios, measured interleaved;
// cmd/ratios prints the README's table (medians over -count runs).
func BenchmarkRender(b *testing.B) {
	for _, c := range callers {
		for _, v := range []struct {
			name  string
			input func(testing.TB, caller) helmInput
		}{{"upstream", upstreamInput}, {"generated", generatedInput}, {"floor", floorInput}, {"genfloor", genFloorInput}, {"actions", actionsInput}, {"minimal", minimalInput}} {
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				in := v.input(b, c)
				loop(b, func() {
					out, err := helmTemplate(in)
					if err != nil {
						b.Fatal(err)
					}
					sinkBytes += len(out)
				})
			})
		}
		b.Run(c.name+"/library", func(b *testing.B) {
			r := request(b, c)
			loop(b, func() {
				out, err := renderPrinted(r, etcdshapes.Marshal)
				if err != nil {
					b.Fatal(err)
				}
				sinkBytes += len(out)
			})
		})
		// The goals' ratios, measured interleaved: each iteration renders
		// with every variant in turn, so that a busier stretch of a shared
		// machine weighs on them alike (the sub-benchmarks above run one
		// variant for seconds at a time). Generated ÷ upstream (goal ≤ 0.7
		// in CPU time and allocations), floor ÷ upstream, upstream ÷
		// library (goal ≥ 20). Their ns/op is nothing measured.
		b.Run(c.name+"/ratios", func(b *testing.B) {
			up, gen, floor, genFloor := upstreamInput(b, c), generatedInput(b, c), floorInput(b, c), genFloorInput(b, c)
			r := request(b, c)
			keep := func(out []byte, err error) {
				if err != nil {
					b.Fatal(err)
				}
				sinkBytes += len(out)
			}
			variants := []func(){
				func() { keep(helmTemplate(up)) },
				func() { keep(helmTemplate(gen)) },
				func() { keep(helmTemplate(floor)) },
				func() { keep(renderPrinted(r, etcdshapes.Marshal)) },
				func() { keep(helmTemplate(genFloor)) },
			}
			cpu := make([]float64, len(variants))
			allocs := make([]float64, len(variants))
			var ms runtime.MemStats
			for b.Loop() {
				for i, v := range variants {
					runtime.ReadMemStats(&ms)
					m0, t0 := ms.Mallocs, processCPU()
					v()
					t1 := processCPU()
					runtime.ReadMemStats(&ms)
					cpu[i] += float64(t1 - t0)
					allocs[i] += float64(ms.Mallocs - m0)
				}
			}
			b.ReportMetric(cpu[1]/cpu[0], "gen/up-cpu")
			b.ReportMetric(allocs[1]/allocs[0], "gen/up-allocs")
			b.ReportMetric(cpu[2]/cpu[0], "floor/up-cpu")
			b.ReportMetric(allocs[2]/allocs[0], "floor/up-allocs")
			b.ReportMetric(cpu[4]/cpu[0], "genfloor/up-cpu")
			b.ReportMetric(allocs[4]/allocs[0], "genfloor/up-allocs")
			b.ReportMetric(cpu[0]/cpu[3], "up/lib-cpu")
			b.ReportMetric(allocs[0]/allocs[3], "up/lib-allocs")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// TestHelmRendersTheStack: every chart BenchmarkRender renders gives as many
// objects of each kind as the library builds, so each operation does the
// same work (roundtrip/ compares the objects themselves).
func TestHelmRendersTheStack(t *testing.T) {
	for _, c := range callers {
		want := map[string]int{}
		for _, o := range render(t, request(t, c)) {
			want[o.GetObjectKind().GroupVersionKind().Kind]++
		}
		for name, input := range map[string]func(testing.TB, caller) helmInput{"upstream": upstreamInput, "generated": generatedInput, "floor": floorInput, "genfloor": genFloorInput, "actions": actionsInput, "minimal": minimalInput} {
			out, err := helmTemplate(input(t, c))
			if err != nil {
				t.Fatalf("%s/%s: %v", c.name, name, err)
			}
			got := map[string]int{}
			for _, line := range strings.Split(string(out), "\n") {
				if k, ok := strings.CutPrefix(line, "kind: "); ok {
					got[k]++
				}
			}
			for k, n := range want {
				if got[k] != n {
					t.Errorf("%s/%s: Helm renders %d %s, the library %d", c.name, name, got[k], k, n)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%s/%s: Helm renders kinds %v, the library %v", c.name, name, got, want)
			}
		}
	}
}

// TestVariantsRenderTheirChartsOutput: the variants that stand for a
// chart's cheapest form render that chart's output byte for byte: actions
// (the generated chart with its config a literal) the generated chart's,
// minimal (the generated's floor with minimalActions read by actions) the
// floor's, with as many actions as minimalActions says.
func TestVariantsRenderTheirChartsOutput(t *testing.T) {
	for _, c := range callers {
		for _, p := range []struct {
			name        string
			variant, of func(testing.TB, caller) helmInput
		}{{"actions", actionsInput, generatedInput}, {"minimal", minimalInput, genFloorInput}} {
			want, err := helmTemplate(p.of(t, c))
			if err != nil {
				t.Fatal(err)
			}
			in := p.variant(t, c)
			got, err := helmTemplate(in)
			if err != nil {
				t.Fatalf("%s/%s: %v", c.name, p.name, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s/%s renders %d bytes that are not its chart's %d", c.name, p.name, len(got), len(want))
			}
			if p.name == "minimal" {
				n := 0
				for _, f := range in.files {
					n += strings.Count(string(f.Data), "{{ `")
				}
				if n != minimalActions[c.name] {
					t.Errorf("%s/minimal has %d actions, not %d", c.name, n, minimalActions[c.name])
				}
			}
		}
	}
}

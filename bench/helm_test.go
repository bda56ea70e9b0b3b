package bench

import (
	"bytes"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/chartgen"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/releaseutil"
)

// helmInput is one release for Helm: the generated chart's files and the
// same inputs the library gets.
type helmInput struct {
	files     []*loader.BufferedFile
	values    map[string]any
	namespace string
	release   string
	apis      []string
}

func newHelmInput(tb testing.TB, c caller) helmInput {
	tb.Helper()
	files, err := chartgen.Chart(chartgen.Options{Caller: c.chart, Version: "0.0.0"})
	if err != nil {
		tb.Fatal(err)
	}
	in := helmInput{}
	for _, f := range files {
		in.files = append(in.files, &loader.BufferedFile{Name: f.Path, Data: f.Data})
	}
	s := scenario(tb, c.scenario)
	if in.values, err = s.ValuesMap(); err != nil {
		tb.Fatal(err)
	}
	in.namespace, in.release, in.apis = s.Namespace, s.Release, s.APIVersions
	return in
}

// helmTemplate is what `helm template` does per release, in process and
// without the CLI: load the chart from its files, compute the render values
// (coalescing values.yaml, validating values.schema.json), run the template
// engine, sort the manifests into install order and join them.
func helmTemplate(in helmInput) ([]byte, error) {
	ch, err := loader.LoadFiles(in.files)
	if err != nil {
		return nil, err
	}
	caps := chartutil.DefaultCapabilities.Copy()
	caps.APIVersions = append(caps.APIVersions, in.apis...)
	opts := chartutil.ReleaseOptions{Name: in.release, Namespace: in.namespace, Revision: 1, IsInstall: true}
	vals, err := chartutil.ToRenderValues(ch, in.values, opts, caps)
	if err != nil {
		return nil, err
	}
	rendered, err := engine.Render(ch, vals)
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

// BenchmarkHelm renders the chart chartgen generates for the caller with
// Helm's engine, for the same inputs as the other benchmarks.
func BenchmarkHelm(b *testing.B) {
	for _, c := range callers {
		b.Run(c.name, func(b *testing.B) {
			in := newHelmInput(b, c)
			loop(b, func() {
				out, err := helmTemplate(in)
				if err != nil {
					b.Fatal(err)
				}
				sinkBytes += len(out)
			})
		})
	}
}

// TestHelmRendersTheStack: Helm renders as many objects of each kind as the
// library builds, so BenchmarkHelm does the same work (the chart generator's
// own tests compare the objects themselves).
func TestHelmRendersTheStack(t *testing.T) {
	for _, c := range callers {
		out, err := helmTemplate(newHelmInput(t, c))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := map[string]int{}
		for _, o := range render(t, request(t, c)) {
			want[o.GetObjectKind().GroupVersionKind().Kind]++
		}
		got := map[string]int{}
		for _, line := range strings.Split(string(out), "\n") {
			if k, ok := strings.CutPrefix(line, "kind: "); ok {
				got[k]++
			}
		}
		for k, n := range want {
			if got[k] != n {
				t.Errorf("%s: Helm renders %d %s, the library %d", c.name, got[k], k, n)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: Helm renders kinds %v, the library %v", c.name, got, want)
		}
	}
}

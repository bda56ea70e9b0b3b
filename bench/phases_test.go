package bench

import (
	"fmt"
	"os"
	"testing"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/releaseutil"
)

// TestPhases prints the allocations per render of each of Helm's phases
// (loading, values with the schema, the engine, the manifests' sort) for
// each variant of BenchmarkRender: where a chart's cost goes. It runs
// only with ETCDSHAPES_PHASES=1 (go test -run TestPhases -v).
func TestPhases(t *testing.T) {
	if os.Getenv("ETCDSHAPES_PHASES") == "" {
		t.Skip("ETCDSHAPES_PHASES=1 prints the phases' allocations")
	}
	for _, c := range callers {
		for _, v := range []struct {
			name  string
			input func(testing.TB, caller) helmInput
		}{{"upstream", upstreamInput}, {"generated", generatedInput}, {"floor", floorInput}, {"genfloor", genFloorInput}} {
			in := v.input(t, c)
			ch, err := loader.LoadFiles(in.files)
			if err != nil {
				t.Fatal(err)
			}
			caps := chartutil.DefaultCapabilities.Copy()
			caps.APIVersions = append(caps.APIVersions, in.apis...)
			opts := chartutil.ReleaseOptions{Name: in.release, Namespace: in.namespace, Revision: 1, IsInstall: true}
			vals, err := chartutil.ToRenderValues(ch, in.values, opts, caps)
			if err != nil {
				t.Fatal(err)
			}
			rendered, err := engine.Render(ch, vals)
			if err != nil {
				t.Fatal(err)
			}
			load := testing.AllocsPerRun(20, func() { _, _ = loader.LoadFiles(in.files) })
			values := testing.AllocsPerRun(20, func() { _, _ = chartutil.ToRenderValues(ch, in.values, opts, caps) })
			schema := 0.0
			if ch.Schema != nil {
				schema = testing.AllocsPerRun(20, func() { _ = chartutil.ValidateAgainstSchema(ch, in.values) })
			}
			render := testing.AllocsPerRun(20, func() { _, _ = engine.Render(ch, vals) })
			sort := testing.AllocsPerRun(20, func() {
				_, _, _ = releaseutil.SortManifests(rendered, caps.APIVersions, releaseutil.InstallOrder)
			})
			fmt.Printf("%-10s %-9s load %6.0f  values %6.0f (schema %6.0f)  render %6.0f  sort %6.0f  total %6.0f\n",
				c.name, v.name, load, values, schema, render, sort, load+values+render+sort)
		}
	}
}

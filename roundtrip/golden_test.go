package roundtrip

import (
	"errors"
	"github.com/etcdshapes/etcdshapes/invalid"
	"testing"

	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/golden"
	"helm.sh/helm/v3/pkg/chart/loader"
)

func asNamingError(err error, target **invalid.Error) bool { return errors.As(err, target) }

// TestGoldenScenarios renders every golden scenario with the generated chart
// of its caller (live state served to lookup by a fake cluster) and
// requires the builders' objects, field for field.
func TestGoldenScenarios(t *testing.T) {
	perCaller := map[string]int{}
	objects := 0
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			n := compareRenders(t, renderInput{
				caller: s.Caller, release: s.Release, namespace: s.Namespace,
				values: []byte(s.Values), apiVersions: s.APIVersions, live: s.Live,
			})
			perCaller[s.Caller]++
			objects += n
		})
	}
	t.Logf("round-tripped golden scenarios: etcd %d, cluster %d (%d objects), of %d", perCaller["etcd"], perCaller["cluster"], objects, len(golden.All()))
}

// TestLibraryAll renders every golden scenario through the library form: the
// named templates alone, included by a chart with the caller's values.yaml
// as an adopting chart would ("etcdshapes.<caller>.all").
func TestLibraryAll(t *testing.T) {
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			files, err := chartgen.Chart(chartgen.Options{Caller: s.Caller, Version: chartVersion})
			if err != nil {
				t.Fatal(err)
			}
			var values []byte
			for _, f := range files {
				if f.Path == "values.yaml" {
					values = f.Data
				}
			}
			c := loadChart(t, chartgen.Options{Library: true, Version: chartVersion},
				&loader.BufferedFile{Name: "values.yaml", Data: values},
				&loader.BufferedFile{Name: "templates/" + s.Caller + ".yaml", Data: []byte(`{{ include "etcdshapes.` + s.Caller + `.all" (dict "root" $) }}`)})
			in := renderInput{caller: s.Caller, release: s.Release, namespace: s.Namespace,
				values: []byte(s.Values), apiVersions: s.APIVersions, live: s.Live}
			got, err := renderChart(c, in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := goRender(in)
			if err != nil {
				t.Fatal(err)
			}
			compareDocs(t, want, got, s.Namespace)
		})
	}
}

package roundtrip

import (
	"errors"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/golden"
)

func asNamingError(err error, target **invalid.Error) bool { return errors.As(err, target) }

// firstMessage is the message of the library's first refusal: the library
// returns every refusal (an invalid.List), the chart stops at its first
// failure, which must be that first refusal, word for word. An error that
// holds no refusal gives its whole message.
func firstMessage(err error) string {
	if all := invalid.All(err); len(all) > 0 {
		return all[0].Error()
	}
	return err.Error()
}

// TestGoldenScenarios renders every golden scenario with the generated chart
// of its caller (live state served to lookup by a fake cluster) and
// requires the builders' objects, field for field, on every Helm.
func TestGoldenScenarios(t *testing.T) {
	forEachHelm(t, func(t *testing.T, h helm) {
		perCaller := map[naming.Caller]int{}
		objects := 0
		for _, s := range golden.All() {
			t.Run(s.Name, func(t *testing.T) {
				n := compareRenders(t, h, renderInput{
					caller: s.Caller, release: s.Release, namespace: s.Namespace,
					values: []byte(s.Values), apiVersions: s.APIVersions, live: s.Live,
				})
				perCaller[s.Caller]++
				objects += n
			})
		}
		t.Logf("%s: round-tripped golden scenarios: etcd %d, cluster %d (%d objects), of %d", h.name(), perCaller["etcd"], perCaller["cluster"], objects, len(golden.All()))
	})
}

// TestLibraryAll renders every golden scenario through the library chart
// alone, as a chart that adopts it does: its own values.yaml (the
// caller's) and one template including "etcdshapes.stack" for the caller.
func TestLibraryAll(t *testing.T) {
	goldenThroughLibrary(t, "all-", func(s golden.Scenario, app []chartgen.File) []chartgen.File {
		var values []byte
		for _, f := range app {
			if f.Path == "values.yaml" {
				values = f.Data
			}
		}
		return []chartgen.File{
			{Path: "values.yaml", Data: values},
			{Path: "templates/" + s.Caller.String() + ".yaml", Data: []byte(`{{ include "etcdshapes.stack" (dict "root" $ "caller" "` + s.Caller.String() + `") }}`)},
		}
	})
}

// TestGoldenScenariosChecked renders every golden scenario with every check
// run (checks true), as the charts render input their quick tests do not
// vouch for: the general path must render what the quick path renders,
// the library's objects.
func TestGoldenScenariosChecked(t *testing.T) {
	goldenThroughLibrary(t, "checked-", func(s golden.Scenario, app []chartgen.File) []chartgen.File {
		files := []chartgen.File{{Path: "templates/" + s.Caller.String() + ".yaml", Data: []byte(`{{ include "etcdshapes.stack" (dict "root" $ "caller" "` + s.Caller.String() + `" "checks" true) }}`)}}
		for _, f := range app {
			if f.Path == "values.yaml" || f.Path == "values.schema.json" {
				files = append(files, f)
			}
		}
		return files
	})
}

// goldenThroughLibrary renders every golden scenario, on every Helm, with
// a chart (key prefix+caller) of the files files picks from the caller's
// application chart app, depending on the library chart, and requires the
// library's objects.
func goldenThroughLibrary(t *testing.T, prefix string, files func(s golden.Scenario, app []chartgen.File) []chartgen.File) {
	forEachHelm(t, func(t *testing.T, h helm) {
		for _, s := range golden.All() {
			t.Run(s.Name, func(t *testing.T) {
				app, err := chartgen.Chart(chartgen.Options{Caller: s.Caller, Version: chartVersion})
				if err != nil {
					t.Fatal(err)
				}
				c := withLibrary(t, h, prefix+s.Caller.String(), files(s, app)...)
				in := renderInput{caller: s.Caller, release: s.Release, namespace: s.Namespace,
					values: []byte(s.Values), apiVersions: s.APIVersions, live: s.Live}
				out, err := h.render(c, in.values, in)
				if err != nil {
					t.Fatal(err)
				}
				want, err := goRender(in)
				if err != nil {
					t.Fatal(err)
				}
				compareDocs(t, want, joinRendered(out), s.Namespace)
			})
		}
	})
}

// TestDashboardNames: the GrafanaDashboard's names the chart computes
// (files/dashboard.tpl: its UID and the snapshot schedule's name in its
// model) are the library's for every length of namespace and release
// around the limits where they are hashed, for both callers, with every
// replica count the cluster takes.
func TestDashboardNames(t *testing.T) {
	apis := []string{etcdshapes.APIPodMonitor, etcdshapes.APIGrafanaDashboard}
	forEachHelm(t, func(t *testing.T, h helm) {
		var inputs []renderInput
		for _, ns := range []string{"tenant-a", "tenant-" + strings.Repeat("n", 20), "tenant-" + strings.Repeat("n", 29), "tenant-" + strings.Repeat("n", 56)} {
			inputs = append(inputs, renderInput{caller: "etcd", release: "etcd", namespace: ns, values: []byte("replicas: 2\n"), apiVersions: apis})
			for _, n := range []int{1, 12, 20, 27, 40} {
				release := "kubernetes-" + strings.Repeat("r", n)
				for _, replicas := range []string{"1", "3"} {
					inputs = append(inputs, renderInput{caller: "cluster", release: release, namespace: ns, values: []byte("etcd:\n  replicas: " + replicas + "\n"), apiVersions: apis})
				}
			}
		}
		for _, in := range inputs {
			t.Run(in.caller.String()+"/"+in.namespace+"/"+in.release+"/"+strings.TrimSpace(string(in.values)), func(t *testing.T) {
				compareRenders(t, h, in)
			})
		}
	})
}

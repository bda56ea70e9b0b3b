package roundtrip

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/naming"
	v3loader "helm.sh/helm/v3/pkg/chart/loader"
	v3util "helm.sh/helm/v3/pkg/chartutil"
	v3engine "helm.sh/helm/v3/pkg/engine"
	v3lint "helm.sh/helm/v3/pkg/lint"
	v3support "helm.sh/helm/v3/pkg/lint/support"
	v4lint "helm.sh/helm/v4/pkg/chart/v2/lint"
	v4support "helm.sh/helm/v4/pkg/chart/v2/lint/support"
)

// lintNamespace is the namespace charts/README.md's lint command passes
// (`helm lint --strict --namespace tenant-root`): both charts refuse
// lint's default namespace, "default", which is no tenant's.
const lintNamespace = "tenant-root"

// lintRelease is the release name `helm lint` renders with (Helm v3 and
// v4 alike; it has no flag for it).
const lintRelease = "test-release"

// writeChartDir writes the caller's application chart with the library
// chart in its charts/ directory, as `helm dependency build` leaves it.
func writeChartDir(t *testing.T, caller naming.Caller) string {
	t.Helper()
	files, err := chartgen.Chart(chartgen.Options{Caller: caller, Version: chartVersion, Vendor: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), caller.String())
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// ciValues are the chart's ci/ values files, by name.
func ciValues(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "ci", "*-values.yaml"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no ci/ values in %s (%v)", dir, err)
	}
	out := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = b
	}
	return out
}

// TestLint is the documented `helm lint --strict --namespace tenant-root
// CHART -f CHART/ci/<file>` for every ci/ values file of both charts, with
// Helm v3's and v4's lint packages (what the command runs): no message at
// all, not even an INFO one, so a failing template (which lint only logs)
// cannot hide. And it proves the lint checked something: the objects
// Helm's lint-mode engine renders for lint's release and namespace are,
// object for object, what the library renders for the same values (no
// optional API served, as lint serves none; the etcd chart's release
// check, which lint's release name fails, only logs in lint mode).
func TestLint(t *testing.T) {
	for _, caller := range naming.Callers() {
		dir := writeChartDir(t, caller)
		for name, raw := range ciValues(t, dir) {
			t.Run(caller.String()+"/"+name, func(t *testing.T) {
				vals, err := v3util.ReadValues(raw)
				if err != nil {
					t.Fatal(err)
				}
				var msgs []string
				for _, m := range v3lint.All(dir, vals.AsMap(), lintNamespace, false).Messages {
					if m.Severity > v3support.InfoSev || !strings.Contains(m.Err.Error(), "icon is recommended") {
						msgs = append(msgs, "helm3: "+m.Error())
					}
				}
				for _, m := range v4lint.RunAll(dir, vals.AsMap(), lintNamespace).Messages {
					if m.Severity > v4support.InfoSev || !strings.Contains(m.Err.Error(), "icon is recommended") {
						msgs = append(msgs, "helm4: "+m.Error())
					}
				}
				if len(msgs) > 0 {
					t.Errorf("helm lint --strict: %s", strings.Join(msgs, "\n"))
				}

				got := lintRender(t, dir, vals)
				release := lintRelease
				if caller == "etcd" {
					// The library renders the etcd chart as release etcd
					// only; the chart under lint's release differs in the
					// one field the release is written to, the
					// certificates' organizational unit.
					release = "etcd"
					n := len(lintOU.FindAllString(got, -1))
					if n != 5 {
						t.Errorf("lint's release is the organizational unit of %d certificates, want 5", n)
					}
					got = lintOU.ReplaceAllString(got, "${1}etcd")
				}
				want, err := goRender(renderInput{caller: caller, release: release, namespace: lintNamespace, values: raw})
				if err != nil {
					t.Fatalf("the library refuses the ci/ values: %v", err)
				}
				if n := compareDocs(t, want, got, lintNamespace); n == 0 {
					t.Fatal("lint renders no object")
				}
			})
		}
	}
}

// lintOU is the organizational unit of a certificate the etcd chart
// renders under lint's release.
var lintOU = regexp.MustCompile(`(?m)^(\s*organizationalUnits:\n\s*- )"?` + lintRelease + `"?$`)

// lintRender renders the chart as Helm v3's lint does
// (rules.TemplatesWithSkipSchemaValidation): release test-release, the
// default capabilities, the engine in lint mode (fail only logs).
func lintRender(t *testing.T, dir string, vals v3util.Values) string {
	t.Helper()
	c, err := v3loader.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := v3util.ProcessDependenciesWithMerge(c, vals); err != nil {
		t.Fatal(err)
	}
	cvals, err := v3util.CoalesceValues(c, vals)
	if err != nil {
		t.Fatal(err)
	}
	top, err := v3util.ToRenderValues(c, cvals, v3util.ReleaseOptions{Name: lintRelease, Namespace: lintNamespace}, v3util.DefaultCapabilities.Copy())
	if err != nil {
		t.Fatal(err)
	}
	e := v3engine.Engine{LintMode: true}
	out, err := e.Render(c, top)
	if err != nil {
		t.Fatal(err)
	}
	return joinRendered(out)
}

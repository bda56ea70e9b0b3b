package roundtrip

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/naming"
)

// TestTemplateSize: the template text a chart maintainer reviews, as
// `etcdshapes gen chart` reports it (chartgen.TemplateBytes: the library
// chart's templates/ and files/*.tpl, and both application charts'
// templates/), is at most twice the upstream templates it replaces:
// cozy-lib's _etcd.tpl and _resources.tpl and the templates of the etcd
// and kubernetes charts (../shared/upstream).
//
// Not counted there, and logged apart with their sizes: the library
// chart's data files, which no template parses: the PrometheusRule
// (printed as it is), the GrafanaDashboard's model (plain string replaces
// of its placeholders) and the checks' tables (constants.json, fromJson).
// The upstream charts render neither the PodMonitor nor the dashboard, so
// the ratio with them counted is logged too, not bounded.
func TestTemplateSize(t *testing.T) {
	up := 0
	for _, f := range []string{"cozy-lib/templates/_etcd.tpl", "cozy-lib/templates/_resources.tpl"} {
		b, err := os.ReadFile(filepath.Join(upstreamDir(), f))
		if err != nil {
			t.Fatalf("the upstream charts are missing: %v. %s", err, upstreamWhat)
		}
		up += len(b)
	}
	for _, chart := range []string{"etcd", "kubernetes"} {
		err := filepath.WalkDir(filepath.Join(upstreamDir(), chart, "templates"), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			up += len(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	lib, err := chartgen.Chart(chartgen.Options{Library: true})
	if err != nil {
		t.Fatal(err)
	}
	ours, data := chartgen.TemplateBytes(lib), 0
	var files []string
	for _, f := range lib {
		if strings.HasPrefix(f.Path, "files/") && !strings.HasSuffix(f.Path, ".tpl") {
			data += len(f.Data)
			files = append(files, fmt.Sprintf("%s %d", f.Path, len(f.Data)))
		}
	}
	for _, caller := range naming.Callers() {
		app, err := chartgen.Chart(chartgen.Options{Caller: caller})
		if err != nil {
			t.Fatal(err)
		}
		ours += chartgen.TemplateBytes(app)
	}
	t.Logf("template text %d bytes, upstream templates %d: %.3fx (with the data files no template parses, %d bytes [%s]: %.3fx)",
		ours, up, float64(ours)/float64(up), data, strings.Join(files, ", "), float64(ours+data)/float64(up))
	if up < 10000 {
		t.Fatalf("the upstream templates are %d bytes: not the upstream charts?", up)
	}
	// The bound was twice the upstream's, then 2.05x once the charts'
	// checks of etcd auth and of numbers no float64 holds as written took
	// the text to 2.03x. The third design of the charts (issue 21: each
	// object its finished YAML, one config for both callers) brought it to
	// 1.95x (1.96x with the size floor and the precision rule of the charts' checks); the
	// spread constraints' hand-written type checks, replaced by the decoder
	// twin, took it to 1.943x, and the version and replicas checks that
	// values.schema.json states to 1.930x. The checks, which the schema is
	// to replace, are still most of it, and the goal is 1.2x. The bound
	// follows what is reached (1.932x with the memory floor, etcd.MinMemory).
	if limit := up * 194 / 100; ours > limit {
		t.Errorf("the generated charts' template text is %d bytes, more than 1.94 times the upstream templates' %d", ours, up)
	}
}

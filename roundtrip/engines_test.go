package roundtrip

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/naming"
	v3chart "helm.sh/helm/v3/pkg/chart"
	v3loader "helm.sh/helm/v3/pkg/chart/loader"
	v3util "helm.sh/helm/v3/pkg/chartutil"
	v3engine "helm.sh/helm/v3/pkg/engine"
	v4common "helm.sh/helm/v4/pkg/chart/common"
	v4util "helm.sh/helm/v4/pkg/chart/common/util"
	v4archive "helm.sh/helm/v4/pkg/chart/loader/archive"
	v4chart "helm.sh/helm/v4/pkg/chart/v2"
	v4loader "helm.sh/helm/v4/pkg/chart/v2/loader"
	v4engine "helm.sh/helm/v4/pkg/engine"
)

// helm is one major version of Helm's engine, in process: it loads a chart
// from its files and renders it the way `helm template` does.
type helm interface {
	name() string
	// load parses a chart from its files.
	load(files []chartgen.File) (any, error)
	// render renders a loaded chart with the values (a YAML document), the
	// release and namespace, the served APIs and a cluster that serves the
	// live state to lookup; it returns the rendered templates by name.
	render(c any, values []byte, in renderInput) (map[string]string, error)
}

type helm3 struct{}

func (helm3) name() string { return "helm3" }

func (helm3) load(files []chartgen.File) (any, error) {
	var bf []*v3loader.BufferedFile
	for _, f := range files {
		bf = append(bf, &v3loader.BufferedFile{Name: f.Path, Data: f.Data})
	}
	return v3loader.LoadFiles(bf)
}

func (helm3) render(c any, values []byte, in renderInput) (map[string]string, error) {
	vals, err := v3util.ReadValues(values)
	if err != nil {
		return nil, err
	}
	caps := v3util.DefaultCapabilities.Copy()
	caps.APIVersions = append(caps.APIVersions, in.apiVersions...)
	top, err := v3util.ToRenderValues(c.(*v3chart.Chart), vals, v3util.ReleaseOptions{Name: in.release, Namespace: in.namespace, IsInstall: true}, caps)
	if err != nil {
		return nil, err
	}
	return v3engine.RenderWithClientProvider(c.(*v3chart.Chart), top, newLiveClient(in.namespace, in.release, in.live))
}

type helm4 struct{}

func (helm4) name() string { return "helm4" }

func (helm4) load(files []chartgen.File) (any, error) {
	var bf []*v4archive.BufferedFile
	for _, f := range files {
		bf = append(bf, &v4archive.BufferedFile{Name: f.Path, Data: f.Data})
	}
	return v4loader.LoadFiles(bf)
}

func (helm4) render(c any, values []byte, in renderInput) (map[string]string, error) {
	vals, err := v4common.ReadValues(values)
	if err != nil {
		return nil, err
	}
	caps := v4common.DefaultCapabilities.Copy()
	caps.APIVersions = append(caps.APIVersions, in.apiVersions...)
	top, err := v4util.ToRenderValues(c.(*v4chart.Chart), vals, v4common.ReleaseOptions{Name: in.release, Namespace: in.namespace, IsInstall: true}, caps)
	if err != nil {
		return nil, err
	}
	return v4engine.RenderWithClientProvider(c.(*v4chart.Chart), top, newLiveClient(in.namespace, in.release, in.live))
}

// helms are the engines the round trip runs: ETCDSHAPES_HELM lists the
// major versions ("3", "4", "3,4"); both by default.
func helms(t testing.TB) []helm {
	t.Helper()
	spec := os.Getenv("ETCDSHAPES_HELM")
	if spec == "" {
		spec = "3,4"
	}
	var out []helm
	for _, v := range strings.Split(spec, ",") {
		switch strings.TrimSpace(v) {
		case "3":
			out = append(out, helm3{})
		case "4":
			out = append(out, helm4{})
		default:
			t.Fatalf("ETCDSHAPES_HELM=%q: want 3, 4 or 3,4", spec)
		}
	}
	return out
}

// forEachHelm runs f as a subtest per engine.
func forEachHelm(t *testing.T, f func(t *testing.T, h helm)) {
	for _, h := range helms(t) {
		t.Run(h.name(), func(t *testing.T) { f(t, h) })
	}
}

var (
	loadedMu sync.Mutex
	loaded   = map[string]any{}
)

// loadFiles loads a chart once per engine and key; the files under one key
// must not change between calls.
func loadFiles(t testing.TB, h helm, key string, files func() ([]chartgen.File, error)) any {
	t.Helper()
	loadedMu.Lock()
	defer loadedMu.Unlock()
	key = h.name() + "/" + key
	if c, ok := loaded[key]; ok {
		return c
	}
	fs, err := files()
	if err != nil {
		t.Fatal(err)
	}
	c, err := h.load(fs)
	if err != nil {
		t.Fatalf("%s: load %s: %v", h.name(), key, err)
	}
	loaded[key] = c
	return c
}

// appChart is the caller's generated application chart with the library
// chart in its charts/ directory, as `helm dependency build` leaves it.
func appChart(t testing.TB, h helm, caller naming.Caller) any {
	return loadFiles(t, h, "app/"+caller.String(), func() ([]chartgen.File, error) {
		return chartgen.Chart(chartgen.Options{Caller: caller, Version: chartVersion, Vendor: true})
	})
}

// withLibrary is a chart of the given files depending on the generated
// library chart.
func withLibrary(t testing.TB, h helm, key string, files ...chartgen.File) any {
	return loadFiles(t, h, "lib/"+key, func() ([]chartgen.File, error) {
		lib, err := chartgen.Chart(chartgen.Options{Library: true, Version: chartVersion})
		if err != nil {
			return nil, err
		}
		out := append([]chartgen.File{{Path: "Chart.yaml", Data: []byte("apiVersion: v2\nname: probe\nversion: " + chartVersion + "\n")}}, files...)
		for _, f := range lib {
			out = append(out, chartgen.File{Path: "charts/" + chartgen.LibraryName + "/" + f.Path, Data: f.Data})
		}
		return out, nil
	})
}

// joinRendered joins rendered templates like `helm template` prints them.
func joinRendered(out map[string]string) string {
	var b strings.Builder
	for _, n := range slices.Sorted(maps.Keys(out)) {
		if strings.HasSuffix(n, "NOTES.txt") {
			continue
		}
		fmt.Fprintf(&b, "---\n# Source: %s\n%s\n", n, out[n])
	}
	return b.String()
}

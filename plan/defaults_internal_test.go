package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"

	"github.com/etcdshapes/etcdshapes/internal/crdgen"
	"github.com/etcdshapes/etcdshapes/internal/crdpath"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testdata/crdcheck"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The generated table is the CRDs' defaults: go generate reproduces it
// byte for byte from the directories $ETCDSHAPES_CRDS lists.
func TestCRDDefaultsUpToDate(t *testing.T) {
	dirs := crdcheck.Dirs()
	if len(dirs) == 0 {
		t.Skip(crdpath.SkipMessage)
	}
	want, err := crdgen.Source(dirs, "plan")
	require.NoError(t, err)
	got, err := os.ReadFile("zz_generated.crddefaults.go")
	require.NoError(t, err)
	if bytes.Equal(want, got) {
		return
	}
	// The kinds the generated table holds that the CRDs listed lack: a
	// short list, not stale code.
	listed, err := crdgen.Defaults(dirs...)
	require.NoError(t, err)
	var generated map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(crdDefaultsJSON), &generated))
	var missing []string
	for gvk := range generated {
		if listed[gvk] == nil {
			missing = append(missing, gvk)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatal(crdpath.Partial(dirs, missing))
	}
	t.Fatalf("zz_generated.crddefaults.go does not hold the defaults of the CRDs in %q (CI lists ../shared/crds%c../shared/crds-planned): run `go generate ./plan` and read the diff", dirs, os.PathListSeparator)
}

// defaultedByUs is obj with the plan's defaults filled in.
func defaultedByUs(t *testing.T, obj map[string]any) map[string]any {
	t.Helper()
	n, err := normalize(runtime.DeepCopyJSON(obj))
	require.NoError(t, err)
	tree := n.(map[string]any)
	d, err := defaultsFor(tree["apiVersion"].(string), tree["kind"].(string))
	require.NoError(t, err)
	d.apply(tree)
	return tree
}

// defaultedByTheAPIServer is obj with the defaults the API server's own
// structural defaulting fills in.
func defaultedByTheAPIServer(t *testing.T, c *crdcheck.Checker, obj map[string]any) map[string]any {
	t.Helper()
	theirs, err := c.Default(obj)
	require.NoError(t, err)
	n, err := normalize(theirs)
	require.NoError(t, err)
	return n.(map[string]any)
}

// The plan defaults a custom resource exactly as the API server does
// (apiextensions-apiserver's structural defaulting on the CRDs of
// $ETCDSHAPES_CRDS): at every depth, inside lists of objects and maps of
// objects, where a field is absent or a null the schema does not allow,
// within objects that exist. Checked on each CRD's skeleton (every object
// present and empty, every list of objects with one empty element), on a
// bare object, and on every golden custom resource with each of its
// fields removed or set to null in turn.
func TestCRDDefaultsMatchTheAPIServer(t *testing.T) {
	c := crdcheck.ForTest(t)
	checked := 0
	check := func(t *testing.T, what string, obj map[string]any) {
		t.Helper()
		want := defaultedByTheAPIServer(t, c, obj)
		got := defaultedByUs(t, obj)
		require.Equal(t, want, got, "%s", what)
		checked++
	}
	for _, gvk := range c.Kinds() {
		t.Run(gvk.String(), func(t *testing.T) {
			sk, err := c.Skeleton(gvk)
			require.NoError(t, err)
			check(t, "skeleton", sk)
			if want := defaultedByTheAPIServer(t, c, sk); !equalJSON(want, sk) {
				_, has := mustTable(t)[gvk.GroupVersion().String()+"/"+gvk.Kind]
				require.True(t, has, "the API server defaults %s, the table has no entry", gvk)
			}
			check(t, "bare", map[string]any{"apiVersion": gvk.GroupVersion().String(), "kind": gvk.Kind,
				"metadata": map[string]any{"name": "x", "namespace": "y"}, "spec": map[string]any{}})
		})
	}
	// The golden custom resources, each field removed or null in turn.
	files, err := filepath.Glob(filepath.Join("..", "golden", "testdata", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		objs, err := ReadObjects(data)
		require.NoError(t, err)
		for _, o := range objs {
			obj := o.(interface{ UnstructuredContent() map[string]any }).UnstructuredContent()
			gv, err := schema.ParseGroupVersion(obj["apiVersion"].(string))
			require.NoError(t, err)
			if !inKinds(c, gv.WithKind(obj["kind"].(string))) {
				continue
			}
			key, err := json.Marshal(obj)
			require.NoError(t, err)
			if seen[string(key)] {
				continue
			}
			seen[string(key)] = true
			check(t, f+": as rendered", obj)
			for _, p := range paths(obj, nil) {
				if p[0] == "apiVersion" || p[0] == "kind" || p[0] == "metadata" {
					continue
				}
				check(t, f+": without "+pathKey(p), edited(obj, p, false))
				check(t, f+": null "+pathKey(p), edited(obj, p, true))
			}
		}
	}
	t.Logf("%d objects defaulted as the API server does", checked)
}

func mustTable(t *testing.T) map[string]*defaultsNode {
	table, err := defaultsTable()
	require.NoError(t, err)
	return table
}

func inKinds(c *crdcheck.Checker, gvk schema.GroupVersionKind) bool {
	for _, k := range c.Kinds() {
		if k == gvk {
			return true
		}
	}
	return false
}

func equalJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// paths lists the path of every map key and list element of a tree,
// sorted.
func paths(v any, prefix []string) [][]string {
	var out [][]string
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := append(append([]string{}, prefix...), k)
			out = append(out, p)
			out = append(out, paths(t[k], p)...)
		}
	case []any:
		for i, e := range t {
			p := append(append([]string{}, prefix...), "["+strconv.Itoa(i)+"]")
			out = append(out, paths(e, p)...)
		}
	}
	return out
}

func pathKey(p []string) string {
	b, _ := json.Marshal(p)
	return string(b)
}

// edited is a copy of obj with the field at p removed, or set to null.
func edited(obj map[string]any, p []string, null bool) map[string]any {
	out := runtime.DeepCopyJSON(obj)
	var cur any = out
	for i, step := range p {
		last := i == len(p)-1
		switch t := cur.(type) {
		case map[string]any:
			if last {
				if null {
					t[step] = nil
				} else {
					delete(t, step)
				}
				return out
			}
			cur = t[step]
		case []any:
			n, _ := strconv.Atoi(step[1 : len(step)-1])
			cur = t[n]
		}
	}
	return out
}

// serverFixture is testdata/apiserver/live.yaml: the stacks of
// serverFixtureRequests as a real kube-apiserver returned them after
// server-side apply (written by the e2e suite's TestServerDefaultedFixture,
// which checks it against the server on every run).
const serverFixture = "../testdata/apiserver/live.yaml"

// serverFixtureRequests are the e2e suite's fixtureRequests.
func serverFixtureRequests() []etcdshapes.Request {
	return []etcdshapes.Request{
		{Caller: naming.CallerEtcd, Namespace: "tenant-fixture", ChartVersion: "1.2.3"},
		{Caller: naming.CallerCluster, Namespace: "tenant-fixture", Release: "kubernetes-fixture", ChartVersion: "1.2.3",
			APIVersions: []string{etcdshapes.APICiliumNetworkPolicy, etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APIVMPodScrape}},
	}
}

// The defaults tables hold what a real API server fills in: every
// rendered object (uninstall hooks included), with the plan's defaults of
// its kind (the built-in table's for CronJob, Job, Service, Secret; the
// CRDs' for the custom kinds), is contained in the object the API server
// returned for it, value for value (quantities by value).
func TestDefaultsMatchTheAPIServersAnswer(t *testing.T) {
	data, err := os.ReadFile(serverFixture)
	require.NoError(t, err)
	live, err := ReadObjects(data)
	require.NoError(t, err)
	_, byKey, err := indexObjects("live", live)
	require.NoError(t, err)
	defaulted := 0
	for _, r := range serverFixtureRequests() {
		objs, err := etcdshapes.Render(r)
		require.NoError(t, err)
		require.NotEmpty(t, objs)
		for i, o := range objs {
			d, err := planForm("desired["+strconv.Itoa(i)+"]", o, false)
			require.NoError(t, err)
			before := runtime.DeepCopyJSON(d.tree)
			d.defaults.apply(d.tree)
			if !equalJSON(before, d.tree) {
				defaulted++
			}
			l := byKey[d.key]
			require.NotNil(t, l, "the server's answer has no %s", d.ref)
			if where := notWithin(d.tree, l.tree, "", ""); where != "" {
				t.Errorf("%s: the defaulted render differs from the API server's answer at %s", d.ref, where)
			}
		}
	}
	assert.Positive(t, defaulted, "no rendered object took a default")
}

// notWithin is the first path where a is not contained in b ("" when it
// is): maps key by key, lists element by element, scalars equal (or the
// same quantity).
func notWithin(a, b any, path, parent string) string {
	switch at := a.(type) {
	case map[string]any:
		bt, ok := b.(map[string]any)
		if !ok {
			return path + " (not an object)"
		}
		keys := make([]string, 0, len(at))
		for k := range at {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		last := path
		if i := strings.LastIndex(path, "."); i >= 0 {
			last = path[i+1:]
		}
		for _, k := range keys {
			bv, ok := bt[k]
			if !ok {
				return path + "." + k + " (missing)"
			}
			if w := notWithin(at[k], bv, path+"."+k, last); w != "" {
				return w
			}
		}
		return ""
	case []any:
		bt, ok := b.([]any)
		if !ok || len(bt) != len(at) {
			return path + " (another list)"
		}
		for i := range at {
			if w := notWithin(at[i], bt[i], path+"["+strconv.Itoa(i)+"]", parent); w != "" {
				return w
			}
		}
		return ""
	}
	key := path
	if i := strings.LastIndex(path, "."); i >= 0 {
		key = path[i+1:]
	}
	if equalJSON(a, b) || (isQuantityField(key, parent) && sameQuantity(a, b)) {
		return ""
	}
	return fmt.Sprintf("%s (%v, server %v)", path, a, b)
}

//go:build apiserver

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"
)

// The stacks whose server-defaulted form testdata/apiserver/live.yaml
// records. The root package's tests render the same requests
// (TestPlanOfServerDefaultedStacksIsEmpty, TestBuiltinDefaultsMatchTheAPIServer).
const (
	fixtureNS      = "tenant-fixture"
	fixtureRelease = "kubernetes-fixture"
	fixtureFile    = "testdata/apiserver/live.yaml" // from the repository root
	// updateFixtures, set to 1, makes the test write the file.
	updateFixtures = "ETCDSHAPES_UPDATE_FIXTURES"
)

func fixtureRequests() []etcdshapes.Request {
	return []etcdshapes.Request{
		{Caller: naming.CallerEtcd, Namespace: fixtureNS, ChartVersion: "1.2.3"},
		{Caller: naming.CallerCluster, Namespace: fixtureNS, Release: fixtureRelease, ChartVersion: "1.2.3", APIVersions: golden.AllAPIs},
	}
}

// TestServerDefaultedFixture creates the etcd chart's stack and a tenant
// cluster's stack as Helm would (server-side apply as FieldManager, the
// uninstall hooks created as hooks are), reads them back as
// `kubectl get -o yaml --show-managed-fields` prints them and checks:
//
//   - each stack plans empty against what the server returned: every
//     default the API server filled in (built-in kinds' and CRDs') is no
//     change;
//   - the objects, with the fields that differ from run to run (uid,
//     resourceVersion, creationTimestamp, managedFields times) blanked,
//     are the checked-in testdata/apiserver/live.yaml, which the root
//     package's tests read as the server's answer ($ETCDSHAPES_UPDATE_FIXTURES=1
//     rewrites it).
func TestServerDefaultedFixture(t *testing.T) {
	ctx := context.Background()
	if err := ensureNamespace(ctx, fixtureNS); err != nil {
		t.Fatal(err)
	}
	ours := map[string]bool{}
	for _, r := range fixtureRequests() {
		objs := mustRender(t, r)
		reqs, err := apply.Requests(objs)
		if err != nil {
			t.Fatal(err)
		}
		for ref, err := range applyAll(ctx, reqs) {
			t.Errorf("applying %s: %s", ref, oneLine(err))
		}
		for _, o := range objs {
			ours[refOf(o)] = true
			if !etcdshapes.IsUninstallHook(o) {
				continue
			}
			c, ok := o.DeepCopyObject().(client.Object)
			if !ok {
				t.Fatalf("%s is not a client.Object", describe(o))
			}
			if err := k.Create(ctx, c, client.FieldOwner("helm"), strict); err != nil {
				t.Errorf("creating the hook %s: %s", describe(o), oneLine(err))
			}
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	live, err := readLive(ctx, fixtureNS)
	if err != nil {
		t.Fatal(err)
	}
	var mine []etcdshapes.Object
	for _, o := range live {
		if ours[refOf(o.(client.Object))] {
			mine = append(mine, o)
		}
	}
	if len(mine) != len(ours) {
		t.Fatalf("read back %d of the %d objects created", len(mine), len(ours))
	}
	for _, r := range fixtureRequests() {
		p, _, err := plan.ForRequest(r, mine)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Empty() || !p.SafeToApply() || len(p.InferredAPIs) > 0 {
			t.Errorf("%s %s against the server's answer: want an empty plan:\n%s", r.Caller, r.Namespace, indent(p.String()))
		}
	}

	got, err := fixtureYAML(mine)
	if err != nil {
		t.Fatal(err)
	}
	path, err := fromRepoRoot(fixtureFile)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv(updateFixtures) == "1" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d objects)", path, len(mine))
	} else {
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (%s=1 writes it)", err, updateFixtures)
		}
		if !bytes.Equal(want, got) {
			t.Errorf("the API server's answer is not %s (%s=1 rewrites it; read the diff):\n%s", fixtureFile, updateFixtures, firstDifference(string(want), string(got)))
		}
	}
	summaries.add("server-defaulted stacks: %d objects read back, planned empty against their render (%s)", len(mine), fixtureFile)
}

// fixtureYAML prints objects as one List, sorted, with the fields that
// differ from run to run blanked: uid (also where the server copies it,
// a Job's controller-uid labels), resourceVersion, creationTimestamp and
// the managedFields times.
func fixtureYAML(objs []etcdshapes.Object) ([]byte, error) {
	items := make([]map[string]any, 0, len(objs))
	for _, o := range objs {
		u, ok := o.(*unstructured.Unstructured)
		if !ok {
			return nil, fmt.Errorf("%s is not unstructured", describe(o))
		}
		m := u.DeepCopy().Object
		uid := string(u.GetUID())
		if uid == "" {
			return nil, fmt.Errorf("%s has no uid", describe(o))
		}
		m = replaceString(m, uid, "00000000-0000-0000-0000-000000000000").(map[string]any)
		meta, _ := m["metadata"].(map[string]any)
		delete(meta, "resourceVersion")
		delete(meta, "creationTimestamp")
		entries, _ := meta["managedFields"].([]any)
		for _, e := range entries {
			if em, ok := e.(map[string]any); ok {
				delete(em, "time")
			}
		}
		items = append(items, m)
	}
	key := func(m map[string]any) string {
		meta, _ := m["metadata"].(map[string]any)
		return fmt.Sprintf("%v/%v/%v/%v", m["apiVersion"], m["kind"], meta["namespace"], meta["name"])
	}
	sort.Slice(items, func(i, j int) bool { return key(items[i]) < key(items[j]) })
	list := map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items}
	out, err := yaml.Marshal(list)
	if err != nil {
		return nil, err
	}
	header := "# Written by e2e TestServerDefaultedFixture (make test-apiserver with ETCDSHAPES_UPDATE_FIXTURES=1):\n" +
		"# the etcd chart's and a tenant cluster's stacks in " + fixtureNS + " as kube-apiserver returns them\n" +
		"# after server-side apply, with uid, resourceVersion, creationTimestamp and managedFields times blanked.\n"
	return append([]byte(header), out...), nil
}

func replaceString(v any, old, repl string) any {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			t[k] = replaceString(c, old, repl)
		}
	case []any:
		for i, c := range t {
			t[i] = replaceString(c, old, repl)
		}
	case string:
		return strings.ReplaceAll(t, old, repl)
	}
	return v
}

// fromRepoRoot is path from the library's repository root: the directory
// above the e2e module's go.mod.
func fromRepoRoot(path string) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if raw, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && bytes.Contains(raw, []byte("module github.com/etcdshapes/etcdshapes\n")) {
			return filepath.Join(d, path), nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("the repository root (go.mod of github.com/etcdshapes/etcdshapes) is not above " + wd)
		}
	}
}

// firstDifference shows the first line where two texts differ.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  checked in: %s\n  server:     %s", i+1, wl, gl)
		}
	}
	return ""
}

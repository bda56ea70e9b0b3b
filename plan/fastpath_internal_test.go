package plan

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/naming"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// The fast path answers "the apply changes nothing" only where
// structured-merge-diff's merge agrees: for the recorded live stacks and
// seeded mutations of them (elements added, moved, duplicated or
// removed, values changed, labels added, fields owned beyond what the
// render sets), whenever fastUnchanged holds, Updater.Apply gives the live
// object back (same fields, same order) with nothing removed and no
// conflict. Both answers occur.
func TestFastPathAgreesWithTheMerge(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "apiserver", "live.yaml"))
	require.NoError(t, err)
	base, err := ReadObjects(data)
	require.NoError(t, err)
	var desired []etcdshapes.Object
	for _, r := range []etcdshapes.Request{
		{Caller: naming.CallerEtcd, Namespace: "tenant-fixture", ChartVersion: "1.2.3"},
		{Caller: naming.CallerCluster, Namespace: "tenant-fixture", Release: "kubernetes-fixture", ChartVersion: "1.2.3",
			APIVersions: []string{etcdshapes.APICiliumNetworkPolicy, etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APIVMPodScrape}},
	} {
		objs, err := etcdshapes.Render(r)
		require.NoError(t, err)
		desired = append(desired, objs...)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	fast, slow := 0, 0
	for round := 0; round < 40; round++ {
		for _, o := range desired {
			if etcdshapes.IsUninstallHook(o) {
				continue
			}
			d, err := planForm("desired", o, false)
			require.NoError(t, err)
			var liveObj *unstructured.Unstructured
			for _, l := range base {
				if l.GetName() == o.GetName() && l.GetObjectKind().GroupVersionKind().Kind == o.GetObjectKind().GroupVersionKind().Kind && l.GetNamespace() == o.GetNamespace() {
					liveObj = l.(*unstructured.Unstructured)
				}
			}
			require.NotNil(t, liveObj, "%s %s", o.GetObjectKind().GroupVersionKind().Kind, o.GetName())
			tree := runtime.DeepCopyJSON(liveObj.Object)
			what := "as recorded"
			if round > 0 {
				what = mutate(rng, tree)
			}
			l, err := planForm("live", &unstructured.Unstructured{Object: tree}, true)
			require.NoError(t, err)
			pt, known, err := smdTypeOf(d.ref.APIVersion, d.ref.Kind)
			require.NoError(t, err)
			require.True(t, known)
			if !fastUnchanged(compiledType(pt), l.tree, d.tree, l.managed.own(apply.FieldManager)) {
				slow++
				continue
			}
			fast++
			p := &prediction{}
			require.NoError(t, predictMerge(pt, known, l, d, l.tree, apply.FieldManager, p), "%s %s: %s", o.GetObjectKind().GroupVersionKind().Kind, o.GetName(), what)
			name := fmt.Sprintf("%s %s (%s)", o.GetObjectKind().GroupVersionKind().Kind, o.GetName(), what)
			require.Empty(t, p.changes, name)
			require.Empty(t, p.conflicts, name)
			require.Empty(t, p.refusal, name)
			// The live object as the server would store it (a mutation
			// may leave what it never returns, an empty list).
			stored := withoutManaged(l.tree)
			dropNulls(pt.Schema, pt.TypeRef, stored)
			if isBuiltinType(pt.TypeRef) {
				roundTrip(pt.Schema, pt.TypeRef, stored)
			}
			require.True(t, sameJSON(withoutManaged(p.after), stored), "%s: the merge changes the object", name)
		}
	}
	t.Logf("fast path %d times, merged %d times", fast, slow)
	require.Positive(t, fast)
	require.Positive(t, slow)
}

func withoutManaged(m map[string]any) map[string]any {
	c := runtime.DeepCopyJSON(m)
	if meta, ok := c["metadata"].(map[string]any); ok {
		delete(meta, "managedFields")
	}
	return c
}

// mutate changes a live object the way other managers and time do, and
// says how.
func mutate(rng *rand.Rand, obj map[string]any) string {
	lists, scalars := collect(obj, nil)
	switch rng.IntN(7) {
	case 0:
		if len(lists) > 0 {
			l := lists[rng.IntN(len(lists))]
			list := append([]any(nil), l.get()...)
			if len(list) > 1 {
				i, j := rng.IntN(len(list)), rng.IntN(len(list))
				list[i], list[j] = list[j], list[i]
				l.set(list)
				return "elements moved in " + l.path
			}
			l.set(append(list, runtime.DeepCopyJSONValue(list[0])))
			return "element duplicated in " + l.path
		}
	case 1:
		if len(lists) > 0 {
			l := lists[rng.IntN(len(lists))]
			list := l.get()
			e := runtime.DeepCopyJSONValue(list[0])
			switch t := e.(type) {
			case map[string]any:
				for k, v := range t {
					if s, ok := v.(string); ok {
						t[k] = s + "-extra"
					}
				}
			case string:
				e = t + "-extra"
			}
			l.set(append(append([]any(nil), list...), e))
			return "element added to " + l.path
		}
	case 2:
		if len(lists) > 0 {
			l := lists[rng.IntN(len(lists))]
			l.set(l.get()[1:])
			return "element removed from " + l.path
		}
	case 3:
		if len(scalars) > 0 {
			s := scalars[rng.IntN(len(scalars))]
			switch v := s.m[s.key].(type) {
			case string:
				s.m[s.key] = v + "x"
			case int64:
				s.m[s.key] = v + 1
			case bool:
				s.m[s.key] = !v
			}
			return "value changed at " + s.path
		}
	case 4:
		if len(scalars) > 0 {
			s := scalars[rng.IntN(len(scalars))]
			delete(s.m, s.key)
			return "field removed at " + s.path
		}
	case 5:
		labels := childMap(obj["metadata"].(map[string]any), "labels")
		labels["example.com/other"] = "x"
		return "label added"
	case 6:
		// FieldManager owns a field the render does not set.
		meta := obj["metadata"].(map[string]any)
		entries, _ := meta["managedFields"].([]any)
		for _, e := range entries {
			em := e.(map[string]any)
			if em["manager"] != apply.FieldManager {
				continue
			}
			ann := childMap(childMap(em["fieldsV1"].(map[string]any), "f:metadata"), "f:annotations")
			ann["f:example.com/was-ours"] = map[string]any{}
		}
		childMap(meta, "annotations")["example.com/was-ours"] = "x"
		return "annotation owned and no longer rendered"
	}
	return "unchanged"
}

// childMap is the map at m[key], made and stored there where m has none.
func childMap(m map[string]any, key string) map[string]any {
	c, _ := m[key].(map[string]any)
	if c == nil {
		c = map[string]any{}
		m[key] = c
	}
	return c
}

// listAt is a non-empty list in a map.
type listAt struct {
	path string
	m    map[string]any
	key  string
}

func (l listAt) get() []any  { return l.m[l.key].([]any) }
func (l listAt) set(v []any) { l.m[l.key] = v }

type scalarAt struct {
	path string
	m    map[string]any
	key  string
}

// collect finds an object's lists and scalars outside metadata and status.
func collect(v any, path []string) (lists []listAt, scalars []scalarAt) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		c := m[k]
		if len(path) == 0 && (k == "metadata" || k == "status" || k == "apiVersion" || k == "kind") {
			continue
		}
		p := append(append([]string{}, path...), k)
		switch t := c.(type) {
		case map[string]any:
			l, s := collect(t, p)
			lists, scalars = append(lists, l...), append(scalars, s...)
		case []any:
			if len(t) > 0 {
				lists = append(lists, listAt{path: fmt.Sprint(p), m: m, key: k})
				for _, e := range t {
					l, s := collect(e, p)
					lists, scalars = append(lists, l...), append(scalars, s...)
				}
			}
		case string, int64, bool:
			scalars = append(scalars, scalarAt{path: fmt.Sprint(p), m: m, key: k})
		}
	}
	return
}

// A long keyed list the desired object does not set goes to the merge
// sorted (sortUnsetLists), and the object after the apply has its
// elements in the live order again: FieldManager's elements pruned,
// another manager's kept where they were. Lists of every length around
// the threshold, in a shuffled (unsorted) order.
func TestMergeKeepsTheLiveOrderOfLongLists(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "apiserver", "live.yaml"))
	require.NoError(t, err)
	base, err := ReadObjects(data)
	require.NoError(t, err)
	objs, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-fixture", ChartVersion: "1.2.3"})
	require.NoError(t, err)
	var desired, liveCron etcdshapes.Object
	for _, o := range objs {
		if o.GetObjectKind().GroupVersionKind().Kind == "CronJob" && !etcdshapes.IsUninstallHook(o) {
			desired = o
		}
	}
	require.NotNil(t, desired)
	for _, l := range base {
		if l.GetObjectKind().GroupVersionKind().Kind == "CronJob" && l.GetName() == desired.GetName() && l.GetNamespace() == desired.GetNamespace() {
			liveCron = l
		}
	}
	require.NotNil(t, liveCron)
	rng := rand.New(rand.NewPCG(3, 5))
	pod := []string{"spec", "jobTemplate", "spec", "template", "spec"}
	for _, n := range []int{longList - 1, longList, longList + 1, 500} {
		tree := runtime.DeepCopyJSON(liveCron.(*unstructured.Unstructured).Object)
		var inits []any
		ours, theirs := map[string]any{}, map[string]any{}
		var want []string
		for _, i := range rng.Perm(n) {
			name := fmt.Sprintf("init-%d", i)
			inits = append(inits, map[string]any{"name": name, "image": "busybox"})
			owned := map[string]any{".": map[string]any{}, "f:image": map[string]any{}, "f:name": map[string]any{}}
			if i%2 == 0 {
				ours[`k:{"name":"`+name+`"}`] = owned
			} else {
				theirs[`k:{"name":"`+name+`"}`] = owned
				want = append(want, name)
			}
		}
		require.NoError(t, unstructured.SetNestedSlice(tree, inits, append(pod, "initContainers")...))
		// A schedule the apply changes, so that the object is merged.
		require.NoError(t, unstructured.SetNestedField(tree, "5 * * * *", "spec", "schedule"))
		at := func(set map[string]any) map[string]any {
			return map[string]any{"f:spec": map[string]any{"f:jobTemplate": map[string]any{"f:spec": map[string]any{"f:template": map[string]any{
				"f:spec": map[string]any{"f:initContainers": set}}}}}}
		}
		entries, _, _ := unstructured.NestedSlice(tree, "metadata", "managedFields")
		entries = append(entries,
			map[string]any{"manager": apply.FieldManager, "operation": "Apply", "apiVersion": "batch/v1", "fieldsV1": at(ours)},
			map[string]any{"manager": "kubectl-edit", "operation": "Update", "apiVersion": "batch/v1", "fieldsV1": at(theirs)})
		require.NoError(t, unstructured.SetNestedSlice(tree, entries, "metadata", "managedFields"))

		d, err := planForm("desired", desired, false)
		require.NoError(t, err)
		l, err := planForm("live", &unstructured.Unstructured{Object: tree}, true)
		require.NoError(t, err)
		p, err := predictApply(l, d, apply.FieldManager)
		require.NoError(t, err)
		after, _, err := unstructured.NestedSlice(p.after, append(pod, "initContainers")...)
		require.NoError(t, err)
		var got []string
		for _, e := range after {
			got = append(got, e.(map[string]any)["name"].(string))
		}
		require.Equal(t, want, got, "%d elements", n)
		removed := 0
		for _, c := range p.changes {
			if c.Type == FieldRemoved {
				removed++
			}
		}
		require.Equal(t, (n+1)/2, removed, "%d elements: %v", n, p.changes)
	}
}

package etcdshapes_test

import (
	"strings"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/internal/jsontree"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// selfMap is a map that contains itself at key.
func selfMap(key string) map[string]any {
	m := map[string]any{}
	m[key] = m
	return m
}

// deepMap nests n maps under key "a".
func deepMap(n int) map[string]any {
	m := map[string]any{}
	for range n {
		m = map[string]any{"a": m}
	}
	return m
}

// sharedTree is a tree of levels maps, each holding the next one twice:
// 2^levels values once walked, from a few hundred bytes.
func sharedTree(levels int) map[string]any {
	m := map[string]any{}
	for range levels {
		m = map[string]any{"a": m, "b": m}
	}
	return m
}

// cyclicObject is an EtcdCluster of the demo stack whose spec contains
// itself at spec.self.
func cyclicObject() *unstructured.Unstructured {
	spec := selfMap("self")
	return unstructuredObj(map[string]any{"apiVersion": "etcd-operator.cozystack.io/v1alpha2", "kind": "EtcdCluster",
		"metadata": map[string]any{"name": "kubernetes-demo-etcd", "namespace": "tenant-demo"}, "spec": spec})
}

// processBadInputs: the Go API's callers hand it trees that no walker
// could finish (a map containing itself, absurd depth): each is refused
// at every entry point, naming the place, before anything recurses into
// it; and the apply modifiers refuse what the API server refuses.
func processBadInputs() []badInput {
	self := selfMap("a")
	list := []any{nil}
	list[0] = list
	var ptr any
	ptr = &ptr
	deep := deepMap(jsontree.MaxDepth + 1)
	cyclic := cyclicObject()
	// modify applies modifiers to the etcd chart's stack.
	modify := func(mods ...apply.Modifier) func() error {
		return func() error {
			objs, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root"})
			if err != nil {
				return err
			}
			_, err = apply.Requests(objs, mods...)
			return err
		}
	}
	big := strings.Repeat("x", 300<<10)
	half := strings.Repeat("y", 150<<10)
	return []badInput{
		// The API server's rules for metadata (apimachinery's
		// ValidateAnnotations and ValidateLabels), each naming the key.
		{"annotation past 256 KiB", modify(apply.WithAnnotations(map[string]string{"example.com/big": big})), "annotations.example.com/big", big, "annotations size"},
		{"annotations together past 256 KiB", modify(apply.WithAnnotations(map[string]string{"a": half, "b": half})), "annotations.b", half, "larger than limit 262144"},
		{"annotation key not a qualified name", modify(apply.WithAnnotations(map[string]string{"-bad": "x"})), "annotations.-bad", "-bad", "qualified name"},
		{"label value too long", modify(apply.WithLabels(map[string]string{"team": strings.Repeat("x", 64)})), "labels.team", strings.Repeat("x", 64), "63"},
		{"label value not a label value", modify(apply.WithLabels(map[string]string{"team": "a b"})), "labels.team", "a b", "alphanumeric"},
		{"label key not a qualified name", modify(apply.WithLabels(map[string]string{"bad key": "x"})), "labels.bad key", "bad key", "qualified name"},
		// The API server's rule for a field manager (apimachinery's
		// ValidateFieldManager), and what it would not store as given.
		{"field manager empty", func() error { return apply.ValidateFieldManager("fieldManager", "") }, "fieldManager", "", "must not be empty"},
		{"field manager too long", func() error { return apply.ValidateFieldManager("fieldManager", strings.Repeat("m", 129)) }, "fieldManager", strings.Repeat("m", 129), "at most 128 bytes"},
		{"field manager not printable", func() error {
			_, err := plan.Compute(nil, nil, plan.AsFieldManager("a\tb"))
			return err
		}, "fieldManager", "a\tb", "printable characters only"},
		{"field manager not UTF-8", func() error {
			_, _, err := plan.ForRequestWith(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root"}, nil, []plan.Option{plan.AsFieldManager("a\xffb")})
			return err
		}, "fieldManager", "a\xffb", "valid UTF-8"},
		// Trees a walker could not finish.
		// Under a key the readers ignore, a tree is never walked, and
		// never refused (TestIgnoredValuesNeverRefused).
		{"values map containing itself", goValues(map[string]any{"affinity": self}), "affinity.a", self, "contains itself"},
		{"cluster values map containing itself", render(etcdshapes.Request{Values: map[string]any{"etcd": selfMap("x")}}), "etcd.x", selfMap("x"), "contains itself"},
		{"values list containing itself", goValues(map[string]any{"affinity": map[string]any{"podAffinity": list}}), "affinity.podAffinity[0]", list, "contains itself"},
		{"values pointer to itself", goValues(map[string]any{"version": &ptr}), "version", &ptr, "contains itself"},
		{"values nested too deep", goValues(map[string]any{"affinity": deep}), "affinity" + strings.Repeat(".a", jsontree.MaxDepth), map[string]any{"a": map[string]any{}}, "deeper than 1000 levels"},
		{"live object containing itself", liveObjs(cyclic), "live[0].spec.self", cyclic.Object["spec"], "contains itself"},
		{"desired object containing itself", func() error {
			_, err := plan.Compute(nil, []etcdshapes.Object{cyclicObject()})
			return err
		}, "desired[0].spec.self", cyclic.Object["spec"], "contains itself"},
		{"applied object containing itself", func() error {
			_, err := apply.Requests([]etcdshapes.Object{cyclicObject()})
			return err
		}, "objects[0].spec.self", cyclic.Object["spec"], "contains itself"},
		{"modified object containing itself", func() error {
			_, err := apply.Modified([]etcdshapes.Object{cyclicObject()}, apply.WithLabels(map[string]string{"a": "b"}))
			return err
		}, "objects[0].spec.self", cyclic.Object["spec"], "contains itself"},
		{"marshalled object containing itself", func() error {
			_, err := etcdshapes.Marshal([]etcdshapes.Object{cyclicObject()})
			return err
		}, "objects[0].spec.self", cyclic.Object["spec"], "contains itself"},
	}
}

// TestCallerTreesBounded: a tree that shares its subtrees (2^40 values
// once walked) and a very deep one are refused in bounded time (about a
// second on an idle machine; 30 s allowed) at every entry point that
// takes a caller's tree, never walked to the end.
func TestCallerTreesBounded(t *testing.T) {
	shared := sharedTree(40)
	deep := deepMap(100_000)
	obj := func(spec map[string]any) *unstructured.Unstructured {
		return unstructuredObj(map[string]any{"apiVersion": "etcd-operator.cozystack.io/v1alpha2", "kind": "EtcdCluster",
			"metadata": map[string]any{"name": "kubernetes-demo-etcd", "namespace": "tenant-demo"}, "spec": spec})
	}
	for name, tree := range map[string]map[string]any{"shared": shared, "deep": deep} {
		for what, run := range map[string]func() error{
			"values": goValues(map[string]any{"affinity": tree}),
			"live":   liveObjs(obj(tree)),
			"apply": func() error {
				_, err := apply.Requests([]etcdshapes.Object{obj(tree)})
				return err
			},
			"marshal": func() error {
				_, err := etcdshapes.Marshal([]etcdshapes.Object{obj(tree)})
				return err
			},
		} {
			start := time.Now()
			err := run()
			require.Error(t, err, "%s %s", name, what)
			require.Less(t, time.Since(start), 30*time.Second, "%s %s", name, what)
			rule := map[string]string{"shared": "beyond the 1000000 values", "deep": "deeper than 1000 levels"}[name]
			require.Contains(t, err.Error(), rule, "%s %s", name, what)
		}
	}
}

package plan_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// TestPlanNamespaceByScope: a live object's namespace follows its kind's
// scope, for every kind the stacks emit (every object of every golden
// scenario's live file, hooks and the KamajiControlPlane included): an
// object of a namespaced kind without metadata.namespace (a hand-written
// or trimmed live file) and a cluster-scoped one with one are refused,
// naming the object by its position, by every entry point that reads live
// objects (ReadObjects, Compute, ForRequest, LiveStateFromObjects),
// rather than matched by guess or silently left unmatched. The same rule
// holds for desired objects.
func TestPlanNamespaceByScope(t *testing.T) {
	kinds := map[string]bool{}
	// Between them, every kind (checked below).
	for _, name := range []string{"etcd-monitoring-apis", "cluster-monitoring-apis"} {
		s := goldentest.Scenario(t, name)
		live := scenarioObjects(t, s)
		req := scenarioRequest(t, s)
		rendered, err := etcdshapes.Render(req)
		require.NoError(t, err)
		for i := range live {
			u := live[i].(*unstructured.Unstructured)
			ns, kind := u.GetNamespace(), u.GetKind()
			kinds[kind] = true
			edited := make([]etcdshapes.Object, len(live))
			for j, o := range live {
				edited[j] = o.(*unstructured.Unstructured).DeepCopy()
			}
			bad := edited[i].(*unstructured.Unstructured)
			want := "is namespaced"
			if ns == "" {
				bad.SetNamespace(s.Namespace)
				want = "cluster-scoped"
			} else {
				bad.SetNamespace("")
			}
			field := "live[" + strconv.Itoa(i) + "].metadata.namespace"
			check := func(what string, err error, field string) {
				t.Helper()
				var ne *invalid.Error
				require.True(t, errors.As(err, &ne), "%s %s: %s of %s %s: %v", s.Name, what, field, kind, u.GetName(), err)
				require.Equal(t, field, ne.Field, "%s %s", s.Name, what)
				require.Contains(t, ne.Rule, want)
				require.Contains(t, ne.Rule, kind+" "+invalid.FormatValue(u.GetName()))
			}
			_, err := plan.Compute(edited, rendered)
			check("Compute", err, field)
			_, _, err = plan.ForRequest(req, edited)
			check("ForRequest", err, field)
			if s.Caller == naming.CallerCluster {
				_, err = plan.LiveStateFromObjects(s.Namespace, s.Release, edited)
				check("LiveStateFromObjects", err, field)
			}
			items := make([]any, len(edited))
			for j, o := range edited {
				items[j] = o.(*unstructured.Unstructured).Object
			}
			doc, err := yaml.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
			require.NoError(t, err)
			_, err = plan.ReadObjects(doc)
			check("ReadObjects", err, "live[0].items["+strconv.Itoa(i)+"].metadata.namespace")

			// Desired objects obey the rule too.
			for j, d := range rendered {
				if kindName(d) == kind && d.GetName() == u.GetName() {
					c := d.DeepCopyObject().(etcdshapes.Object)
					c.SetNamespace(bad.GetNamespace())
					desired := append(append([]etcdshapes.Object(nil), rendered[:j]...), c)
					_, err = plan.Compute(nil, append(desired, rendered[j+1:]...))
					check("Compute (desired)", err, "desired["+strconv.Itoa(j)+"].metadata.namespace")
				}
			}
		}
	}
	// Every kind of the table that a stack renders, and the
	// KamajiControlPlane.
	for _, row := range etcdshapes.Shapes() {
		if len(row.Callers) > 0 {
			require.True(t, kinds[row.Kind.Kind], "no live %s was tried", row.Kind.Kind)
		}
	}
	require.True(t, kinds["KamajiControlPlane"])
}

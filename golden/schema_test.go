package golden_test

import (
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testdata/crdcheck"
	"github.com/stretchr/testify/require"
)

// TestSchema validates every object of every golden scenario as the API
// server would on create: custom resources against their CRD (structural
// schema, unknown fields, CEL), built-in kinds with crdcheck's strict round
// trip and basic rules. Both the typed objects and the YAML the CLI prints
// are checked.
func TestSchema(t *testing.T) {
	c := crdcheck.ForTest(t)
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			objs, err := s.Render()
			require.NoError(t, err)
			for _, o := range objs {
				gvk := o.GetObjectKind().GroupVersionKind()
				require.True(t, c.Covers(gvk), "%s %s: no CRD in %s and not a built-in kind the checker knows", gvk, o.GetName(), crdcheck.EnvVar)
				require.NoError(t, c.ValidateObject(o))
			}
			out, err := etcdshapes.Marshal(objs)
			require.NoError(t, err)
			require.NoError(t, c.ValidateYAML(out))
		})
	}
}

// outsideStacks are the custom kinds that builders outside the two stacks
// emit, with the tests that validate them against their CRDs instead of a
// golden scenario. A kind leaves this list when a stack renders it.
var outsideStacks = map[string]string{
	"EtcdSnapshot": "etcd: TestSnapshotObjectsValidate",
}

// TestSchemaCoversEveryCRDKind keeps the CRD set and the library in step:
// every custom kind the scenarios render has a CRD, and each CRD in the
// directories ETCDSHAPES_CRDS lists is rendered by some scenario, except
// the kinds only builders outside the stacks emit (outsideStacks), which
// no scenario may render.
func TestSchemaCoversEveryCRDKind(t *testing.T) {
	c := crdcheck.ForTest(t)
	rendered := map[string]bool{}
	for _, s := range golden.All() {
		objs, err := s.Render()
		require.NoError(t, err)
		for _, o := range objs {
			rendered[o.GetObjectKind().GroupVersionKind().String()] = true
		}
	}
	for _, gvk := range c.Kinds() {
		if by, ok := outsideStacks[gvk.Kind]; ok {
			require.False(t, rendered[gvk.String()], "a golden scenario renders %s: take it off outsideStacks (validated by %s)", gvk, by)
			continue
		}
		require.True(t, rendered[gvk.String()], "no golden scenario renders %s", gvk)
	}
}

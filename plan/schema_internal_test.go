package plan

import (
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSchemaCoversEveryKind: the embedded structured-merge-diff schema
// has a type for every kind of the table of shapes, so that the plan
// predicts a server-side apply of each with the kind's own list and map
// types. Without one it falls back to a schema deduced from the object
// (every list atomic) and plans a new kind wrongly without a word: a
// custom kind gets its type from its CRD, a built-in kind from
// internal/schemagen's builtinKinds (go generate ./plan).
func TestSchemaCoversEveryKind(t *testing.T) {
	for _, s := range etcdshapes.Shapes() {
		_, known, err := smdTypeOf(s.Kind.GroupVersion().String(), s.Kind.Kind)
		require.NoError(t, err)
		assert.True(t, known, "%s (%s): no type in zz_generated.smdschema.go: add its CRD to ETCDSHAPES_CRDS or the kind to internal/schemagen's builtinKinds, then go generate ./plan", s.ID, s.Kind)
	}
}

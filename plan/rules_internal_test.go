package plan

import (
	"os"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/crdpath"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testdata/crdcheck"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// The immutable rules of the CRD kinds speak the CRDs' words (from
// $ETCDSHAPES_CRDS), so that the plan prints what the API server will:
// every message of a rule starts with one of its CRD's
// x-kubernetes-validations messages (the plan may add a clause), and each
// "cannot be added to or removed" rule of the CRD is a rule's
// addedOrRemoved message, word for word.
func TestImmutableRulesSpeakTheCRDs(t *testing.T) {
	if len(crdcheck.Dirs()) == 0 {
		t.Skip(crdpath.SkipMessage)
	}
	crds := map[schema.GroupKind]string{
		etcdClusterKind: "etcd-operator.cozystack.io_etcdclusters.yaml",
		dataStoreKind:   "kamaji.clastix.io_datastores.yaml",
	}
	for gk, file := range crds {
		path, err := crdcheck.Find(file)
		require.NoError(t, err)
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		var crd map[string]any
		require.NoError(t, yaml.Unmarshal(raw, &crd))
		var messages []string
		collectValidationMessages(crd, &messages)
		require.NotEmpty(t, messages, file)

		addedOrRemoved := map[string]bool{}
		for _, r := range immutableRules {
			if r.kind != gk {
				continue
			}
			found := false
			for _, m := range messages {
				if strings.HasPrefix(r.message, m) {
					found = true
				}
			}
			assert.True(t, found, "%s %s: %q is none of the CRD's messages", gk.Kind, r.field, r.message)
			if r.addedOrRemoved != "" {
				assert.Contains(t, messages, r.addedOrRemoved, "%s %s", gk.Kind, r.field)
				addedOrRemoved[r.addedOrRemoved] = true
			}
		}
		for _, m := range messages {
			if strings.Contains(m, "cannot be added to or removed") {
				assert.True(t, addedOrRemoved[m], "the CRD's rule %q has no immutable rule", m)
			}
		}
	}
}

func collectValidationMessages(v any, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		if rules, ok := v["x-kubernetes-validations"].([]any); ok {
			for _, r := range rules {
				if m, ok := r.(map[string]any)["message"].(string); ok {
					*out = append(*out, m)
				}
			}
		}
		for _, e := range v {
			collectValidationMessages(e, out)
		}
	case []any:
		for _, e := range v {
			collectValidationMessages(e, out)
		}
	}
}

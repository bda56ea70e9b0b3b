package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/crdpath"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSaysWhatTheCRDsMustBe: outside the project's layout (no
// ETCDSHAPES_CRDS, no ../shared beside the repository), with a list that
// names no directory, one without CRDs, or one that lacks some, crdgen
// writes nothing and says what ETCDSHAPES_CRDS must list (crdpath.What).
func TestSaysWhatTheCRDsMustBe(t *testing.T) {
	root := filepath.Join(t.TempDir(), "etcdshapes")
	require.NoError(t, os.Mkdir(root, 0o700))
	empty := t.TempDir()
	some := t.TempDir()
	crd := "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  group: kamaji.clastix.io\n  names: {kind: DataStore}\n"
	require.NoError(t, os.WriteFile(filepath.Join(some, "ds.yaml"), []byte(crd), 0o600))
	for _, tc := range []struct{ env, want string }{
		{"", "ETCDSHAPES_CRDS is not set, so the CRDs are read from the directories CI uses, beside the repository (" + filepath.Join(root, "..", "shared", "crds")},
		{filepath.Join(root, "gone"), "ETCDSHAPES_CRDS lists \"" + filepath.Join(root, "gone") + "\": open "},
		{empty, "which hold no CustomResourceDefinition"},
		{some, "which lack the CRDs of Certificate (cert-manager.io), CiliumNetworkPolicy (cilium.io), EtcdCluster (etcd-operator.cozystack.io)"},
	} {
		t.Run(tc.env, func(t *testing.T) {
			t.Setenv(crdpath.EnvVar, tc.env)
			out := filepath.Join(t.TempDir(), "out.go")
			var stderr bytes.Buffer
			require.Equal(t, 1, run([]string{"-root", root, "-out", out}, &stderr))
			assert.Contains(t, stderr.String(), tc.want)
			assert.Contains(t, stderr.String(), crdpath.What)
			assert.True(t, strings.HasPrefix(stderr.String(), "crdgen: "), stderr.String())
			assert.NoFileExists(t, out)
		})
	}
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/crdpath"
)

// TestUpToDate fails when the plan package's zz_generated.smdschema.go
// is not what the CRDs ($ETCDSHAPES_CRDS, ../shared/crds beside the
// repository) and client-go's schema give: run go generate in the
// repository root.
func TestUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
	checkCRDs(t, root)
	want, err := Source(crdDirs(root), "plan")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, "plan", "zz_generated.smdschema.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("plan/zz_generated.smdschema.go is stale: run go generate ./plan")
	}
}

// Every built-in kind and every CRD's served version has its type.
func TestKinds(t *testing.T) {
	checkCRDs(t, filepath.Join("..", ".."))
	src, err := Source(crdDirs(filepath.Join("..", "..")), "plan")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"batch/v1/CronJob":`, `"io.k8s.api.batch.v1.CronJob"`, `"etcd-operator.cozystack.io/v1alpha2/EtcdCluster"`, `"v1/Secret"`} {
		if !bytes.Contains(src, []byte(k)) {
			t.Errorf("no %s in the generated file", k)
		}
	}
}

// checkCRDs skips a test that needs the CRDs when ETCDSHAPES_CRDS is unset
// and the directories CI uses are not beside the repository, and fails
// it, saying what the variable must hold, when the list is wrong.
func checkCRDs(t *testing.T, root string) {
	t.Helper()
	dirs, fromEnv := crdpath.Resolve(root)
	if err := crdpath.Check(dirs, fromEnv); err != nil {
		if !fromEnv {
			t.Skip(err)
		}
		t.Fatal(err)
	}
}

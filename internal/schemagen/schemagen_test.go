package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestUpToDate fails when the plan package's zz_generated.smdschema.go
// is not what the CRDs ($ETCDSHAPES_CRDS, ../shared/crds beside the
// repository) and client-go's schema give: run go generate in the
// repository root.
func TestUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
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

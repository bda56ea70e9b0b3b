package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/crdpath"
)

// TestUpToDate fails when the plan package's zz_generated.smdschema.go
// is not what the CRDs ($ETCDSHAPES_CRDS, else ../shared/crds and
// ../shared/crds-planned beside the repository) and client-go's schema
// give, saying the command that regenerates it (regenerateCommand).
func TestUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
	checkCRDs(t, root)
	dirs := crdDirs(root)
	want, err := Source(dirs, "plan")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, "plan", "zz_generated.smdschema.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("plan/zz_generated.smdschema.go is stale for the CRDs in %s: regenerate it from the repository root with\n\t%s\n"+
			"(with ETCDSHAPES_CRDS as here) and read the diff", strings.Join(dirs, string(os.PathListSeparator)), regenerateCommand)
	}
}

// regenerateCommand writes plan/zz_generated.smdschema.go, run from the
// repository root: what plan/doc.go's go:generate line runs, without the
// CRD defaults that go generate ./plan writes too.
const regenerateCommand = "go run -C internal/schemagen . -out ../../plan/zz_generated.smdschema.go"

// TestRegenerateCommandIsTheGenerateLine: the command the failure names is
// plan/doc.go's go:generate line, run from the repository root.
func TestRegenerateCommandIsTheGenerateLine(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "plan", "doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	// From plan/, -C ../internal/schemagen; from the root, -C internal/schemagen.
	line := "//go:generate " + strings.Replace(regenerateCommand, "-C internal/", "-C ../internal/", 1) + "\n"
	if !bytes.Contains(doc, []byte(line)) {
		t.Fatalf("plan/doc.go has no line %q", line)
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

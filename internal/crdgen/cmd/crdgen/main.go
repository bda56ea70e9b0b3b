// Command crdgen writes the plan package's table of CRD defaults
// (plan/zz_generated.crddefaults.go) from the CRDs in the directories
// $ETCDSHAPES_CRDS lists (relative ones from the repository root), or
// ../shared/crds and ../shared/crds-planned beside the repository. go
// generate runs it in the plan directory:
//
//	go generate ./plan
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/etcdshapes/etcdshapes/internal/crdgen"
)

func main() {
	out := flag.String("out", "zz_generated.crddefaults.go", "the file to write")
	pkg := flag.String("package", "plan", "its package")
	rootFlag := flag.String("root", "", "the repository root (default: the working directory's parent)")
	flag.Parse()
	// The repository root: -root, else the working directory's parent
	// (go generate runs in plan/).
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "crdgen:", err)
		os.Exit(1)
	}
	root := *rootFlag
	if root == "" {
		root = filepath.Dir(wd)
	}
	src, err := crdgen.Source(crdgen.Dirs(root), *pkg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crdgen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "crdgen:", err)
		os.Exit(1)
	}
}

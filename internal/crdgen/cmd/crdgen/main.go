// Command crdgen writes the root package's table of CRD defaults
// (zz_generated.crddefaults.go) from the CRDs in the directories
// $ETCDSHAPES_CRDS lists, or ../shared/crds and ../shared/crds-planned
// beside the repository. go generate runs it in the
// repository root:
//
//	go generate .
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/etcdshapes/etcdshapes/internal/crdgen"
)

func main() {
	out := flag.String("out", "zz_generated.crddefaults.go", "the file to write")
	pkg := flag.String("package", "etcdshapes", "its package")
	flag.Parse()
	root, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "crdgen:", err)
		os.Exit(1)
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

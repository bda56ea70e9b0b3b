// Command crdgen writes the plan package's table of CRD defaults
// (plan/zz_generated.crddefaults.go) from the CRDs in the directories
// $ETCDSHAPES_CRDS lists (relative ones from the repository root), or
// ../shared/crds and ../shared/crds-planned beside the repository. go
// generate runs it in the plan directory:
//
//	go generate ./plan
//
// Without the CRD of every custom kind the library emits it writes
// nothing and says what ETCDSHAPES_CRDS must list.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/etcdshapes/etcdshapes/internal/crdgen"
	"github.com/etcdshapes/etcdshapes/internal/crdpath"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run is the command with its arguments: 0 when it wrote the file, 1
// (said on stderr) when not, 2 for bad arguments.
func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("crdgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "zz_generated.crddefaults.go", "the file to write")
	pkg := fs.String("package", "plan", "its package")
	rootFlag := fs.String("root", "", "the repository root (default: the working directory's parent)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "crdgen:", err)
		return 1
	}
	// The repository root: -root, else the working directory's parent
	// (go generate runs in plan/).
	root := *rootFlag
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fail(err)
		}
		root = filepath.Dir(wd)
	}
	// The CRDs must all be there: a table generated from some of them
	// would plan the others without their defaults.
	dirs, fromEnv := crdpath.Resolve(root)
	if err := crdpath.Check(dirs, fromEnv); err != nil {
		return fail(err)
	}
	src, err := crdgen.Source(dirs, *pkg)
	if err != nil {
		return fail(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		return fail(err)
	}
	return 0
}

// Package crdpath reads ETCDSHAPES_CRDS, the directories of the
// CustomResourceDefinitions that the tests validate against, the API
// server suite installs and the CRD generators read.
//
// The variable is a list, like PATH: directories separated by
// os.PathListSeparator (":" on Unix, ";" on Windows). CI lists the CRDs of
// the kinds the stacks emit and those of the kinds only builders outside
// the stacks emit yet:
//
//	ETCDSHAPES_CRDS=../shared/crds:../shared/crds-planned
//
// A single directory is a list of one, so the variable's older form keeps
// working.
package crdpath

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// EnvVar is the environment variable that lists the CRD directories.
const EnvVar = "ETCDSHAPES_CRDS"

// Dirs splits value, the variable's value, into its directories, in
// order: empty elements (a leading, trailing or doubled separator) are
// dropped, and a relative directory is taken from root when root is not
// empty. An empty or blank value lists none.
func Dirs(value, root string) []string {
	var out []string
	for _, d := range filepath.SplitList(value) {
		if strings.TrimSpace(d) == "" {
			continue
		}
		if root != "" && !filepath.IsAbs(d) {
			d = filepath.Join(root, d)
		}
		out = append(out, d)
	}
	return out
}

// SkipMessage is what a test that needs the CRDs says when EnvVar is not
// set (docs/testing.md quotes it).
const SkipMessage = EnvVar + " is not set: it lists the directories of the CRDs to validate against (docs/testing.md)"

// Partial is the failure of a check of generated code or tables against
// the CRDs in dirs (the directories EnvVar lists) when the CRDs of
// missing (kinds, such as "monitoring.coreos.com/v1/PodMonitor") are not
// among them: the list is short, and regenerating from it would drop
// them.
func Partial(dirs, missing []string) string {
	return fmt.Sprintf("%s lists %q, which lacks the CRDs of %s: it must list every CRD directory (CI: ../shared/crds%c../shared/crds-planned). "+
		"Add the directories that hold them and run the tests again; do not run go generate ./plan from this list, which would write the generated code without them",
		EnvVar, dirs, strings.Join(missing, ", "), os.PathListSeparator)
}

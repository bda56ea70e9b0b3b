package main

import (
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// namePaths name a stack's namespace and release by their flags: every
// command validates the names under them (naming.ForEtcdChartAt,
// naming.ForClusterAt, Request.Paths), so a refusal names the flag. The
// release named by the RELEASE argument is --release's too: the argument
// is the flag's value (releaseArgs).
var namePaths = naming.Paths{Namespace: field.NewPath("--namespace"), Release: field.NewPath("--release")}

// flagField is a field by which a library function that takes no paths
// names an input that a flag sets: its refusals name the flag instead, as
// the user typed it ("--s3-bucket", not "destination.s3.bucket").
type flagField struct {
	// field is the library's name of the input.
	field string
	// flag is the flag that sets it.
	flag string
}

// inFlagTerms renames, in place, each refusal in err of a field fields
// lists to its flag, and returns err: the error keeps its wrapping
// (another error's context, a List's order).
//
// It is the one renaming left, for the builders whose options take no
// caller's paths yet: the snapshot builders (etcd.Snapshot,
// etcd.SnapshotSchedule: "name", "destination.s3.bucket", …) and
// chartgen.Chart ("chartVersion", "caller"). Every input of the commands
// that use it is a flag, so a field of these names is always its flag's;
// the names, the render's inputs and render check's options are
// validated under their flags instead.
func inFlagTerms(err error, fields ...flagField) error {
	for _, e := range invalid.All(err) {
		for _, f := range fields {
			if e.Field == f.field {
				e.Field = f.flag
				break
			}
		}
	}
	return err
}

// Package invalid holds Error, the one error type every etcdshapes builder,
// stack and values reader returns for bad input, and FormatValue, which
// prints a value in an error message as YAML's flow style would, bounded in
// length.
//
// An Error names the field in the caller's own terms: a Go caller of
// etcd.Options reads the Go field ("Size", "Resources[cpu]"), a chart user
// reads the values key ("values.size", "values.resources.cpu"), because the
// builders validate under the paths their caller passes (etcd.Paths; the
// values package passes its value keys). errors.As
// recovers an *Error, or an apimachinery *field.Error of type Invalid for
// code that speaks Kubernetes' validation errors.
//
// A call that finds two or more bad inputs returns a List of every refusal,
// in the order its checks ran; one bad input is returned as the *Error
// itself. All iterates the refusals of any error, List.ErrorList gives them
// as a field.ErrorList, and errors.As recovers the first, which is the one
// a Helm chart (stopping at its first failure) prints.
package invalid

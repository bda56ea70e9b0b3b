package naming

import "k8s.io/apimachinery/pkg/util/validation/field"

// Paths name a stack's namespace and release in their caller's terms, so
// that a refusal names the input the caller wrote: "Namespace" for a Go
// caller's options field, "--namespace" for a command line's flag. The
// names are validated once, under the paths their caller passes
// (ForEtcdChartAt, ForClusterAt, ClusterDataStoreAt); a nil path is its
// default, "namespace" or "release" (what ForEtcdChart, ForCluster and
// ClusterDataStore name them).
type Paths struct {
	// Namespace names the tenant namespace.
	Namespace *field.Path
	// Release names the Helm release.
	Release *field.Path
}

// complete is p with each nil path its default.
func (p Paths) complete() Paths {
	if p.Namespace == nil {
		p.Namespace = field.NewPath("namespace")
	}
	if p.Release == nil {
		p.Release = field.NewPath("release")
	}
	return p
}

// namespace and release are the fields the paths name.
func (p Paths) namespace() string { return p.complete().Namespace.String() }
func (p Paths) release() string   { return p.complete().Release.String() }

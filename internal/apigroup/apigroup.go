// Package apigroup registers the types of one API group version with a
// scheme, so that the packages of the API groups whose types this library
// defines (apis/...) state only their group, version and types and share
// the one way they are added to a scheme.
package apigroup

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Version returns the group version of group and version, and the scheme
// builder that adds objs to a scheme under it, with the meta types
// (ListOptions and the like) every group version needs for clients to use it.
func Version(group, version string, objs ...runtime.Object) (schema.GroupVersion, runtime.SchemeBuilder) {
	gv := schema.GroupVersion{Group: group, Version: version}
	return gv, runtime.NewSchemeBuilder(func(scheme *runtime.Scheme) error {
		scheme.AddKnownTypes(gv, objs...)
		metav1.AddToGroupVersion(scheme, gv)
		return nil
	})
}

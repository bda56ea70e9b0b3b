// Package manifest declares Object, what every etcdshapes builder returns:
// a typed Kubernetes object with metadata. It is a leaf package so that
// the builders' bundles (etcd.Shapes, etcd.CleanupHook, pki.PKI, …) can
// list their objects with Objects() in the same type the stacks return
// (etcdshapes.Object is this type).
package manifest

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Object is a typed Kubernetes object with metadata, usable with
// controller-runtime clients (it is a client.Object).
type Object interface {
	metav1.Object
	runtime.Object
}

// IsNil reports whether o is nil or a typed nil pointer (a nil
// *v1alpha2.EtcdCluster in an Object), on which any method would panic.
func IsNil(o Object) bool {
	if o == nil {
		return true
	}
	v := reflect.ValueOf(o)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// Package manifest declares Object, what every etcdshapes builder returns:
// a typed Kubernetes object with metadata. It is a leaf package so that
// the builders' bundles (etcd.Shapes, etcd.CleanupHook, pki.PKI, …) can
// list their objects with Objects() in the same type the stacks return
// (etcdshapes.Object is this type).
package manifest

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Object is a typed Kubernetes object with metadata, usable with
// controller-runtime clients (it is a client.Object).
type Object interface {
	metav1.Object
	runtime.Object
}

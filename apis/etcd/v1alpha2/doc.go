// Package v1alpha2 holds Go types for etcd-operator's
// etcd-operator.cozystack.io/v1alpha2 API (EtcdCluster, EtcdSnapshot),
// written from the CRDs the operator installs, because the operator's own
// module is not importable at a usable version.
//
// Every type implements runtime.Object through generated DeepCopy methods, so
// the objects work with controller-runtime clients and apimachinery codecs.
// Register them with AddToScheme.
//
// +kubebuilder:object:generate=true
// +groupName=etcd-operator.cozystack.io
package v1alpha2

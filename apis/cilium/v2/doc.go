// Package v2 holds Go types for Cilium's cilium.io/v2 CiliumNetworkPolicy,
// written from its CRD for the fields the etcd shapes set and the ones a user
// sets next (importing Cilium costs 430+ packages).
//
// +kubebuilder:object:generate=true
// +groupName=cilium.io
package v2

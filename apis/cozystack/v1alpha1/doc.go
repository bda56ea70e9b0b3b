// Package v1alpha1 holds Go types for Cozystack's cozystack.io/v1alpha1
// WorkloadMonitor, written from its CRD.
//
// +kubebuilder:object:generate=true
// +groupName=cozystack.io
package v1alpha1

// Package v1alpha1 holds Go types for Kamaji's kamaji.clastix.io/v1alpha1
// DataStore, written from the CRD Kamaji installs (importing Kamaji itself
// costs 600+ packages). DataStore is cluster-scoped; spec.driver is immutable.
//
// +kubebuilder:object:generate=true
// +groupName=kamaji.clastix.io
package v1alpha1

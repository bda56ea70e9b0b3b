// Package v1beta1 holds Go types for the VictoriaMetrics operator's
// operator.victoriametrics.com/v1beta1 VMPodScrape, written from its CRD for
// the fields the etcd shapes set and the ones a user sets next (the operator
// module is not importable at a usable version).
//
// +kubebuilder:object:generate=true
// +groupName=operator.victoriametrics.com
package v1beta1

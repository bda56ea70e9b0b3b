// Package v1beta1 holds Go types for grafana-operator's
// grafana.integreatly.org/v1beta1 GrafanaDashboard, written from its CRD
// (grafana-operator v5.24.0) for the fields the library sets.
//
// +kubebuilder:object:generate=true
// +groupName=grafana.integreatly.org
package v1beta1

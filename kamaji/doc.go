// Package kamaji builds the Kamaji DataStore through which tenant control
// planes reach an etcd cluster. A DataStore is cluster-scoped and its name is
// what a KamajiControlPlane's spec.dataStoreName points at, so the name
// derivation (package naming) must never change.
package kamaji

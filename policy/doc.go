// Package policy builds who and what may reach an etcd cluster: the
// per-cluster CiliumNetworkPolicy that denies the etcd ports to every pod but
// the cluster's own members, the pods labelled for it and the tenant's and
// system namespaces; and the etcd chart's dashboard Role and RoleBinding that
// let the administrators of every tenant above the namespace see the cluster.
package policy

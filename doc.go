// Package etcdshapes composes the etcd stacks of Cozystack's two callers from
// the typed builders of its sub-packages, orders them the way Helm installs
// them and prints them as one multi-document YAML.
//
//   - EtcdChart is the etcd chart: one shared etcd per tenant namespace,
//     every name fixed to "etcd", with its PKI, Kamaji DataStore, defrag
//     CronJob, VPA, monitoring, dashboard access and cleanup hooks.
//   - Cluster is the kubernetes chart's etcd: one per tenant cluster, named
//     "<release>-etcd", fenced by a CiliumNetworkPolicy, with the optional
//     kinds rendered only where their API is served and the live state
//     (the KamajiControlPlane's datastore, the EtcdCluster's storage class)
//     taken as plain inputs.
//
// Both return typed objects (Object) in a deterministic order; Marshal
// prints them. For tooling that starts from the charts' own values files,
// MergeValues merges several as Helm's -f does, EtcdChartOptionsFromValues
// and ClusterOptionsFromValues read them into options, and Render reads a
// Request's values and builds its caller's stack.
//
// For operators: Plan and PlanRequest compare a stack with the live
// objects (what changes, what the API server will refuse, what needs a
// decision), and ApplyRequests turns a stack into server-side apply
// requests for FieldManager, with Modifiers for owner references, labels
// and annotations.
//
// Every error about an input is a *naming.Error naming the field, the value
// and the rule.
package etcdshapes

//go:generate go tool controller-gen object paths=./...
//go:generate go run ./internal/crdgen/cmd/crdgen -out zz_generated.crddefaults.go

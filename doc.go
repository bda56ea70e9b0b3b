// Package etcdshapes composes the etcd stacks of Cozystack's two callers from
// the typed builders of its sub-packages, orders them the way Helm installs
// them and prints them as one multi-document YAML.
//
//   - EtcdChartStack is the etcd chart's stack: one shared etcd per tenant namespace,
//     every name fixed to "etcd", with its PKI, Kamaji DataStore, defrag
//     CronJob, VPA, monitoring, dashboard access and cleanup hooks.
//   - ClusterStack is the kubernetes chart's etcd stack: one per tenant cluster, named
//     "<release>-etcd", fenced by a CiliumNetworkPolicy, with the optional
//     kinds rendered only where their API is served and the live state
//     (the KamajiControlPlane's datastore, the EtcdCluster's storage class)
//     taken as plain inputs.
//
// Both return typed objects (Object) in a deterministic order; Marshal
// prints them. For tooling that starts from the charts' own values files,
// Render reads a Request's values with the values package (values.Merge
// merges several files as Helm's -f does) and builds its caller's stack;
// its errors name the values keys (or the paths Request.Paths gives),
// where EtcdChartStack and ClusterStack name the options' Go fields. One
// object each is built by the sub-packages (etcd.Cluster is the
// EtcdCluster alone); naming.Caller says which chart a Request is for.
//
// Shapes is the table of shapes the stacks build from (kind, resource,
// callers, API gating, hook); Scope lists the objects a release owns.
//
// For operators, two packages beside this one: plan.ForRequest and
// plan.Compute compare a stack with the live objects (what server-side
// apply changes, keeps for other managers and conflicts on; what the API
// server will refuse; what needs a decision), and apply.Requests turns a
// stack into server-side apply requests for apply.FieldManager, with
// modifiers for owner references, labels and annotations. The architecture
// is in docs/architecture.md.
//
// Every error about an input is an *invalid.Error naming the field, the
// value and the rule.
package etcdshapes

//go:generate go tool controller-gen object paths=./...

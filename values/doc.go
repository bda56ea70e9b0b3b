// Package values reads the two callers' Helm values into the builders'
// options, with the charts' own semantics: Merge merges values files as
// `helm -f a -f b` does (keeping numbers as written), EtcdChart reads the
// etcd chart's values into etcd.Options, Cluster reads what the kubernetes
// chart's values say about its etcd.
//
// Unknown keys are refused where the chart has a closed set (a typo must
// not fall back to a default); the platform's _namespace, unknown _cluster
// keys and the etcd chart's leftover backup map are ignored, as are the
// kubernetes chart's keys beside etcd and _cluster. ClusterWarnings and
// EtcdChartWarnings tell the ignored keys that resemble a key the reader
// reads ("etcdd", "_cluster.cpu_allocation_ratio"), which the CLI prints
// on stderr.
//
// The builders name a refused field in Go terms (etcd.Options' "Size",
// "TopologySpreadConstraints[0].maxSkew"); EtcdChartError and ClusterError
// re-root those paths to the values keys a chart user wrote
// ("values.size", "_cluster.scheduling.globalAppTopologySpreadConstraints[0].maxSkew").
package values

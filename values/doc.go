// Package values reads the two callers' Helm values into the builders'
// options, with the charts' own semantics: Merge merges values files as
// `helm -f a -f b` does (keeping numbers as written), ReadEtcdChart reads the
// etcd chart's values into etcd.Options, ReadCluster reads what the kubernetes
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
// A refusal names the values key a chart user wrote ("values.size",
// "_cluster.scheduling.globalAppTopologySpreadConstraints[0].maxSkew"): the
// readers check what they read under those keys, and EtcdChartPaths and
// ClusterPaths give the builders the same keys (etcd.Paths), so that the
// builders' own rules name them too, with nothing renamed afterwards. A
// value a reader refuses is returned at its zero (the builder's default),
// so that no field is refused twice.
package values

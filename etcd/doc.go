// Package etcd builds the etcd cluster itself and what keeps it healthy: the
// EtcdCluster, the resource sanitiser and quota rules it is sized by, the
// defrag CronJob, the VerticalPodAutoscaler, the etcd chart's transitional
// headless Service, the post-delete cleanup hook, and the snapshots that back
// it up (EtcdSnapshot, a scheduled snapshot CronJob keeping the last N, and
// the bootstrap.restore of a new cluster), and the performance check Job
// (etcdctl check perf and datascale, CheckJob), which no stack renders: an
// operator runs it when it wants a measurement.
//
// Every builder is a pure function of naming.Names and Options. Options'
// zero value is the etcd chart's defaults (etcd 3.6.11, 3 replicas, 4Gi,
// 1000m/512Mi, ratios 10/1/40, soft anti-affinity, hostname spread).
package etcd

package etcdshapes

// The callers: the two charts whose etcd this library renders, each a
// stack (EtcdChart, Cluster) and a Request.Caller of Render.
const (
	CallerEtcd    = "etcd"
	CallerCluster = "cluster"
)

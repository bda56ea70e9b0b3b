package etcd

import (
	"github.com/etcdshapes/etcdshapes/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/naming"
	batchv1 "k8s.io/api/batch/v1"
	vpav1 "k8s.io/autoscaler/vertical-pod-autoscaler/pkg/apis/autoscaling.k8s.io/v1"
)

// Shapes are the etcd package's objects of one cluster.
type Shapes struct {
	Cluster *v1alpha2.EtcdCluster
	Defrag  *batchv1.CronJob
	// VPA is nil unless asked for.
	VPA *vpav1.VerticalPodAutoscaler
}

// Build returns the EtcdCluster, the defrag CronJob and, when withVPA is
// set, the VerticalPodAutoscaler, validating and defaulting the options
// once for all of them (what Cluster, DefragCronJob and
// VerticalPodAutoscaler each do on their own).
func Build(n naming.Names, o Options, withVPA bool) (Shapes, error) {
	if err := n.Validate(); err != nil {
		return Shapes{}, err
	}
	r, err := o.resolve()
	if err != nil {
		return Shapes{}, err
	}
	s := Shapes{Cluster: cluster(n, r), Defrag: defragCronJob(n, r)}
	if withVPA {
		if s.VPA, err = verticalPodAutoscaler(n, r.ratios); err != nil {
			return Shapes{}, err
		}
	}
	return s, nil
}

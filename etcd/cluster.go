package etcd

import (
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Labels and fixed settings shared by the shapes.
const (
	InstanceLabel      = "app.kubernetes.io/instance"
	ServiceLabelKey    = "cozystack.io/service"
	OperatorClusterKey = "etcd-operator.cozystack.io/cluster"

	autoCompactionRetention = "5m"
	snapshotCount           = int64(10000)
)

// Cluster builds the EtcdCluster. TLS uses secretRef mode: the certificates
// come from package pki and the cluster only references their Secrets,
// which is also the shape etcd-migrate adopts legacy clusters into (spec.tls
// is immutable, so the two must agree).
func Cluster(n naming.Names, o Options) (*v1alpha2.EtcdCluster, error) {
	return build(n, o, cluster)
}

func cluster(n naming.Names, r resolved) *v1alpha2.EtcdCluster {
	c := &v1alpha2.EtcdCluster{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha2.APIVersion, Kind: "EtcdCluster"},
		ObjectMeta: metav1.ObjectMeta{Name: n.Cluster, Namespace: n.Namespace},
		Spec: v1alpha2.EtcdClusterSpec{
			Version:  r.Version,
			Replicas: ptr(r.Replicas),
			Storage: &v1alpha2.StorageSpec{
				Size:             r.Size.DeepCopy(),
				StorageClassName: r.StorageClassName,
			},
			Options: &v1alpha2.EtcdOptions{
				QuotaBackendBytes:       ptr(r.quota),
				AutoCompactionMode:      v1alpha2.AutoCompactionPeriodic,
				AutoCompactionRetention: autoCompactionRetention,
				SnapshotCount:           ptr(snapshotCount),
			},
			Resources: r.resources,
			TLS: &v1alpha2.TLSSpec{
				Client: &v1alpha2.ClientTLS{
					ServerSecretRef:         &corev1.LocalObjectReference{Name: n.ServerSecret()},
					OperatorClientSecretRef: &corev1.LocalObjectReference{Name: n.ClientSecret()},
				},
				Peer: &v1alpha2.PeerTLS{
					SecretRef: &corev1.LocalObjectReference{Name: n.PeerSecret()},
				},
			},
			TopologySpreadConstraints: SpreadConstraints(n, r.TopologySpreadConstraints),
			Affinity:                  affinity(n, r.Affinity),
		},
	}
	if r.Auth.Enabled {
		c.Spec.Auth = &v1alpha2.AuthSpec{Enabled: true, RootCredentialsSecretRef: &corev1.LocalObjectReference{Name: r.Auth.RootCredentialsSecret}}
	}
	if r.ServiceLabel != "" {
		c.Spec.AdditionalMetadata = &v1alpha2.AdditionalMetadata{Labels: map[string]string{ServiceLabelKey: r.ServiceLabel}}
	}
	return c
}

// MemberSelector matches the member pods of the cluster.
func MemberSelector(n naming.Names) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{InstanceLabel: n.Cluster}}
}

// SpreadConstraints returns the given constraints, each with a selector on
// the cluster's members unless it has its own, or the default hostname
// spread when none are given. The input is not modified.
func SpreadConstraints(n naming.Names, given []corev1.TopologySpreadConstraint) []corev1.TopologySpreadConstraint {
	if len(given) == 0 {
		return []corev1.TopologySpreadConstraint{{
			MaxSkew:           1,
			TopologyKey:       corev1.LabelHostname,
			WhenUnsatisfiable: corev1.ScheduleAnyway,
			LabelSelector:     MemberSelector(n),
		}}
	}
	out := make([]corev1.TopologySpreadConstraint, len(given))
	for i := range given {
		given[i].DeepCopyInto(&out[i])
		if out[i].LabelSelector == nil {
			out[i].LabelSelector = MemberSelector(n)
		}
	}
	return out
}

func affinity(n naming.Names, given *corev1.Affinity) *corev1.Affinity {
	// An Affinity that sets nothing is the chart's "affinity: {}", which
	// its default turns into the default: the same here, so that a caller
	// mapping values onto Options keeps the members spread.
	if given != nil && (given.NodeAffinity != nil || given.PodAffinity != nil || given.PodAntiAffinity != nil) {
		return given.DeepCopy()
	}
	// Soft: a hard rule leaves a member Pending when replicas exceed the
	// schedulable nodes or node-local storage pins a member to a node.
	return &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
			Weight: 100,
			PodAffinityTerm: corev1.PodAffinityTerm{
				LabelSelector: MemberSelector(n),
				TopologyKey:   corev1.LabelHostname,
			},
		}},
	}}
}

func ptr[T any](v T) *T { return &v }

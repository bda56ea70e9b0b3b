package etcd

import (
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Ports of an etcd member.
const (
	ClientPort = 2379
	PeerPort   = 2380
)

// LegacyHeadlessService builds the etcd chart's transitional
// "<name>-headless" Service. etcd-migrate adopts legacy clusters in place, so
// their pods keep subdomain <name>-headless and the operator dials them by
// <name>-<i>.<name>-headless.<ns>.svc until they are rolled; without this
// Service those names stop resolving and the cluster never goes Ready. It
// selects the same pods as the operator's own Service and publishes
// not-ready addresses so peers find each other during a restart.
func LegacyHeadlessService(n naming.Names) (*corev1.Service, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	return &corev1.Service{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      n.LegacyHeadlessService(),
			Namespace: n.Namespace,
			Labels: map[string]string{
				"app.kubernetes.io/name": "etcd",
				InstanceLabel:            n.Cluster,
				ServiceLabelKey:          "etcd",
			},
		},
		Spec: corev1.ServiceSpec{
			ClusterIP:                corev1.ClusterIPNone,
			PublishNotReadyAddresses: true,
			Selector:                 map[string]string{OperatorClusterKey: n.Cluster},
			Ports: []corev1.ServicePort{
				{Name: "client", Port: ClientPort, TargetPort: intstr.FromInt32(ClientPort), Protocol: corev1.ProtocolTCP},
				{Name: "peer", Port: PeerPort, TargetPort: intstr.FromInt32(PeerPort), Protocol: corev1.ProtocolTCP},
			},
		},
	}, nil
}

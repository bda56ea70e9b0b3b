package etcd

import (
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	vpav1 "k8s.io/autoscaler/vertical-pod-autoscaler/pkg/apis/autoscaling.k8s.io/v1"
)

// The VPA's bounds before the allocation ratios apply.
const (
	VPAMinCPU    = "250m"
	VPAMinMemory = "256Mi"
	VPAMaxCPU    = "5000m"
	VPAMaxMemory = "8Gi"
)

// VerticalPodAutoscaler builds the VPA of the etcd container. It targets the
// EtcdCluster's scale subresource. The update mode is Initial: Auto would
// evict members, which costs quorum. The bounds are the requests the
// resource sanitiser derives from 250m/256Mi and 5000m/8Gi.
func VerticalPodAutoscaler(n naming.Names, ratios Ratios) (*vpav1.VerticalPodAutoscaler, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	p, err := ratios.parse(GoPaths(nil))
	if err != nil {
		return nil, err
	}
	return verticalPodAutoscaler(n, p)
}

func verticalPodAutoscaler(n naming.Names, p parsedRatios) (*vpav1.VerticalPodAutoscaler, error) {
	// The requests half of the sanitiser, on constant limits that need no
	// validation.
	bounds := func(cpu, memory string) (corev1.ResourceList, error) {
		// cpu first, as the chart's checks meet them.
		// A cpu bound beyond the quantity bounds (a ratio as small as
		// 1e-19) is no quantity the VPA can hold either.
		if f := quotient(resource.MustParse(cpu), p.cpu); !(f < 1<<63) {
			return nil, invalid.Errorf(p.cpu.field, p.cpu.given,
				"is too small: the VPA's cpu bound %s divided by it is beyond %s, the most a quantity holds", cpu, quantity.Max)
		}
		mem, ok := byteRequest(resource.MustParse(memory), p.memory)
		if !ok {
			return nil, invalid.Errorf(p.memory.field, p.memory.given,
				"is too small: the VPA's memory bound %s divided by it is 2^63 bytes or more, which the chart's integer conversion turns into garbage", memory)
		}
		return corev1.ResourceList{
			corev1.ResourceCPU:    cpuRequest(resource.MustParse(cpu), p.cpu),
			corev1.ResourceMemory: mem,
		}, nil
	}
	minimum, err := bounds(VPAMinCPU, VPAMinMemory)
	if err != nil {
		return nil, err
	}
	maximum, err := bounds(VPAMaxCPU, VPAMaxMemory)
	if err != nil {
		return nil, err
	}
	return &vpav1.VerticalPodAutoscaler{
		TypeMeta:   metav1.TypeMeta{APIVersion: "autoscaling.k8s.io/v1", Kind: "VerticalPodAutoscaler"},
		ObjectMeta: metav1.ObjectMeta{Name: n.Cluster, Namespace: n.Namespace},
		Spec: vpav1.VerticalPodAutoscalerSpec{
			TargetRef: &autoscalingv1.CrossVersionObjectReference{
				APIVersion: v1alpha2.APIVersion,
				Kind:       "EtcdCluster",
				Name:       n.Cluster,
			},
			UpdatePolicy: &vpav1.PodUpdatePolicy{UpdateMode: ptr(vpav1.UpdateModeInitial)},
			ResourcePolicy: &vpav1.PodResourcePolicy{ContainerPolicies: []vpav1.ContainerResourcePolicy{{
				ContainerName: "etcd",
				MinAllowed:    minimum,
				MaxAllowed:    maximum,
			}}},
		},
	}, nil
}

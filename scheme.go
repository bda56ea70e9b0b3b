package etcdshapes

import (
	cmv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	etcdv1alpha2 "github.com/etcdshapes/etcdshapes/etcd/v1alpha2"
	kamajiv1alpha1 "github.com/etcdshapes/etcdshapes/kamaji/v1alpha1"
	cozyv1alpha1 "github.com/etcdshapes/etcdshapes/monitoring/cozystack/v1alpha1"
	vmv1beta1 "github.com/etcdshapes/etcdshapes/monitoring/victoriametrics/v1beta1"
	ciliumv2 "github.com/etcdshapes/etcdshapes/policy/cilium/v2"
	monv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	vpav1 "k8s.io/autoscaler/vertical-pod-autoscaler/pkg/apis/autoscaling.k8s.io/v1"
)

// AddToScheme registers every kind the stacks contain, so that a
// controller-runtime client or an apimachinery codec built on the scheme
// accepts every object this library returns.
func AddToScheme(s *runtime.Scheme) error {
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme, batchv1.AddToScheme, rbacv1.AddToScheme,
		cmv1.AddToScheme, vpav1.AddToScheme, monv1.AddToScheme,
		etcdv1alpha2.AddToScheme, kamajiv1alpha1.AddToScheme,
		cozyv1alpha1.AddToScheme, vmv1beta1.AddToScheme, ciliumv2.AddToScheme,
	} {
		if err := add(s); err != nil {
			return err
		}
	}
	return nil
}

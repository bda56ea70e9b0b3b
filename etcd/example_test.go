package etcd_test

import (
	"fmt"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func ExampleCluster() {
	n, _ := naming.ForCluster("tenant-demo", "kubernetes-demo")
	c, err := etcd.Cluster(n, etcd.Options{Replicas: 1, Size: resource.MustParse("10G"), StorageClassName: "replicated"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Name, *c.Spec.Replicas, c.Spec.Storage.Size.String(), c.Spec.Storage.StorageClassName)
	fmt.Println("quota", *c.Spec.Options.QuotaBackendBytes)
	fmt.Println("tls", c.Spec.TLS.Client.ServerSecretRef.Name, c.Spec.TLS.Peer.SecretRef.Name)
	// Output:
	// kubernetes-demo-etcd 1 10G replicated
	// quota 9500000000
	// tls kubernetes-demo-etcd-server-tls kubernetes-demo-etcd-peer-tls
}

// Requests are limits divided by the platform's allocation ratios, with the
// chart's arithmetic: cpu to nano precision, memory floored to whole bytes.
func ExampleSanitizeResources() {
	r, err := etcd.SanitizeResources(corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("1"),
		corev1.ResourceMemory: resource.MustParse("1000Mi"),
		"nvidia.com/gpu":      resource.MustParse("1"),
	}, etcd.Ratios{CPU: "3", Memory: "1.5"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, "nvidia.com/gpu"} {
		req, lim := r.Requests[name], r.Limits[name]
		fmt.Printf("%s: request %s, limit %s\n", name, req.String(), lim.String())
	}
	// Output:
	// cpu: request 333333334n, limit 1
	// memory: request 699050666, limit 1000Mi
	// nvidia.com/gpu: request 1, limit 1
}

func ExampleQuotaBackendBytes() {
	for _, s := range []string{"4Gi", "512Mi", "1Ti", "10G"} {
		q, _ := etcd.QuotaBackendBytes(resource.MustParse(s))
		fmt.Println(s, q)
	}
	// Output:
	// 4Gi 4080218931
	// 512Mi 510027366
	// 1Ti 1044536046387
	// 10G 9500000000
}

func ExampleDefragCronJob() {
	n, _ := naming.ForCluster("tenant-demo", "kubernetes-production-cluster-eu-west-1-abc")
	cj, _ := etcd.DefragCronJob(n, etcd.Options{})
	fmt.Println(cj.Name, len(cj.Name))
	fmt.Println(cj.Spec.JobTemplate.Spec.Template.Labels[etcd.AllowToEtcdClusterLabel])
	// Output:
	// kubernetes-production-cluster-eu-wes-69fda0b4-defrag 52
	// kubernetes-production-cluster-eu-west-1-abc-etcd
}

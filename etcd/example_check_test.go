package etcd_test

import (
	"fmt"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/api/resource"
)

// A performance check of a tenant cluster's etcd: etcdctl check perf,
// then check datascale, in one restricted pod without API access.
func ExampleCheckJob() {
	n, _ := naming.ForCluster("tenant-demo", "kubernetes-demo")
	j, err := etcd.CheckJob(n, etcd.Options{}, etcd.CheckOptions{Load: "m", Datascale: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	pod := j.Spec.Template.Spec
	fmt.Println(j.Kind, j.Namespace+"/"+j.Name)
	fmt.Println(pod.InitContainers[0].Image, pod.InitContainers[0].Args[:3], "then", pod.Containers[0].Args[:3])
	fmt.Println("token mounted:", *pod.AutomountServiceAccountToken, "labels:", j.Spec.Template.Labels)
	written, _ := etcd.CheckWriteBytes(etcd.CheckOptions{Load: "m", Datascale: true})
	fmt.Printf("writes about %d MB\n", written/1e6)

	// A load that would fill half of a 1Gi cluster's quota is refused.
	_, err = etcd.CheckJob(n, etcd.Options{Size: resource.MustParse("1Gi")}, etcd.CheckOptions{Load: "l"})
	fmt.Println(err)
	// Output:
	// Job tenant-demo/kubernetes-demo-etcd-check
	// gcr.io/etcd-development/etcd:v3.6.11 [check perf --load=m] then [check datascale --load=m]
	// token mounted: false labels: map[policy.cozystack.io/allow-to-etcd-cluster:kubernetes-demo-etcd]
	// writes about 182 MB
	// load: invalid value "l": etcdctl check perf would write about 624.0 MB, more than half of the cluster's quota of 1020054733 bytes (size 1Gi): filling the quota stops every write; use a smaller load or a larger size
}

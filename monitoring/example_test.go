package monitoring_test

import (
	"fmt"

	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
)

func ExampleWorkloadMonitor() {
	n, _ := naming.ForEtcdChart("tenant-root", "etcd")
	for _, replicas := range []int32{1, 3, 5} {
		wm, _ := monitoring.WorkloadMonitor(n, replicas, "1.2.3")
		fmt.Println(*wm.Spec.Replicas, *wm.Spec.MinReplicas, wm.Spec.Version)
	}
	// Output:
	// 1 1 1.2.3
	// 3 2 1.2.3
	// 5 3 1.2.3
}

func ExamplePodScrape() {
	n, _ := naming.ForEtcdChart("tenant-root", "etcd")
	ps, _ := monitoring.PodScrape(n)
	fmt.Println(ps.Name, ps.Spec.Selector.MatchLabels)
	// Output: etcd-pod-scrape map[app.kubernetes.io/instance:etcd]
}

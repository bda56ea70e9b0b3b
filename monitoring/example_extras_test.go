package monitoring_test

import (
	"encoding/json"
	"fmt"

	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Prometheus rather than VictoriaMetrics: the PodMonitor scrapes the same
// members as the VMPodScrape.
func ExamplePodMonitor() {
	n, _ := naming.ForCluster("tenant-demo", "kubernetes-demo")
	pm, _ := monitoring.PodMonitor(n)
	fmt.Println(pm.Kind, pm.Name, pm.Spec.Selector.MatchLabels, *pm.Spec.PodMetricsEndpoints[0].Port)
	// Output: PodMonitor kubernetes-demo-etcd-pod-monitor map[app.kubernetes.io/instance:kubernetes-demo-etcd] metrics
}

// A tenant cluster's dashboard for the tenant's Grafana, which runs in
// another namespace.
func ExampleDashboard() {
	n, _ := naming.ForCluster("tenant-demo", "kubernetes-demo")
	d, err := monitoring.Dashboard(n, monitoring.DashboardOptions{
		InstanceSelector:          &metav1.LabelSelector{MatchLabels: map[string]string{"dashboards": "tenant-demo"}},
		AllowCrossNamespaceImport: true,
		Folder:                    "etcd",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var model struct {
		Title  string
		UID    string
		Panels []struct{ Title string }
	}
	_ = json.Unmarshal([]byte(d.Spec.JSON), &model)
	fmt.Println(d.Kind, d.Name, d.Spec.UID)
	fmt.Println(model.Title, "-", len(model.Panels), "panels, the first", model.Panels[1].Title)

	_, err = monitoring.Dashboard(n, monitoring.DashboardOptions{InstanceSelector: &metav1.LabelSelector{}, AllowCrossNamespaceImport: true})
	fmt.Println(err)
	// Output:
	// GrafanaDashboard kubernetes-demo-etcd-grafana-dashboard tenant-demo_kubernetes-demo-etcd
	// etcd tenant-demo/kubernetes-demo-etcd - 31 panels, the first Members up
	// instanceSelector: invalid value {}: must select some Grafana instances when allowCrossNamespaceImport is set: an empty selector imports the dashboard into every Grafana of the cluster, other tenants' included
}

package etcdshapes_test

import (
	"strings"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// extrasBadInputs are the bad options of the builders beyond the stacks:
// the performance check and the Grafana dashboard.
func extrasBadInputs() []badInput {
	names := func(n naming.Names, err error) naming.Names {
		if err != nil {
			panic(err)
		}
		return n
	}
	chart := names(naming.ForEtcdChart("tenant-root", "etcd"))
	cluster := names(naming.ForCluster("tenant-demo", "kubernetes-demo"))
	check := func(o etcd.Options, c etcd.CheckOptions) func() error {
		return func() error { _, err := etcd.CheckJob(cluster, o, c); return err }
	}
	dashboard := func(o monitoring.DashboardOptions) func() error {
		return func() error { _, err := monitoring.Dashboard(chart, o); return err }
	}
	sel := func(labels map[string]string, exprs ...metav1.LabelSelectorRequirement) *metav1.LabelSelector {
		return &metav1.LabelSelector{MatchLabels: labels, MatchExpressions: exprs}
	}
	return []badInput{
		// The check's load: one of etcdctl's models, within half the quota.
		{"check load unknown", check(etcd.Options{}, etcd.CheckOptions{Load: "huge"}), "Load", "huge", "s, m, l or xl"},
		{"check load alias", check(etcd.Options{}, etcd.CheckOptions{Load: "small"}), "Load", "small", "s, m, l or xl"},
		{"check load case", check(etcd.Options{}, etcd.CheckOptions{Load: "XL"}), "Load", "XL", "s, m, l or xl"},
		{"check load past half the quota", check(etcd.Options{}, etcd.CheckOptions{Load: "xl", Datascale: true}), "Load", "xl", "more than half of the cluster's quota"},
		{"check load past a small quota", check(etcd.Options{Size: resource.MustParse("256Mi")}, etcd.CheckOptions{Load: "m", Datascale: true}), "Load", "m", "use a smaller load or a larger size"},
		{"check load write bytes", func() error { _, err := etcd.CheckWriteBytes(etcd.CheckOptions{Load: "x"}); return err }, "Load", "x", "s, m, l or xl"},
		{"check image with a space", check(etcd.Options{}, etcd.CheckOptions{Image: "etcd v3.6"}), "Image", "etcd v3.6", "without whitespace"},
		{"check image blank", check(etcd.Options{}, etcd.CheckOptions{Image: " "}), "Image", " ", "without whitespace"},
		{"check image with a newline", check(etcd.Options{}, etcd.CheckOptions{Image: "etcd:v3.6.11\n"}), "Image", "etcd:v3.6.11\n", "control characters"},
		{"check image too long", check(etcd.Options{}, etcd.CheckOptions{Image: strings.Repeat("r", 1025)}), "Image", strings.Repeat("r", 1025), "at most 1024 bytes"},
		// Image references as the kubelet parses them
		// (github.com/distribution/reference).
		{"check image registry in capitals", check(etcd.Options{}, etcd.CheckOptions{Image: "Upper/etcd:v3.6.11"}), "Image", "Upper/etcd:v3.6.11", "registry host; write it in lowercase"},
		{"check image repository in capitals", check(etcd.Options{}, etcd.CheckOptions{Image: "gcr.io/Etcd:v3.6.11"}), "Image", "gcr.io/Etcd:v3.6.11", "repository name must be lowercase"},
		{"check image two tags", check(etcd.Options{}, etcd.CheckOptions{Image: "a:b:c"}), "Image", "a:b:c", "invalid reference format"},
		{"check image leading dash", check(etcd.Options{}, etcd.CheckOptions{Image: "-etcd"}), "Image", "-etcd", "invalid reference format"},
		{"check image empty tag", check(etcd.Options{}, etcd.CheckOptions{Image: "etcd:"}), "Image", "etcd:", "invalid reference format"},
		{"check image tag too long", check(etcd.Options{}, etcd.CheckOptions{Image: "etcd:" + strings.Repeat("t", 129)}), "Image", "etcd:" + strings.Repeat("t", 129), "invalid reference format"},
		{"check image short digest", check(etcd.Options{}, etcd.CheckOptions{Image: "etcd@sha256:abc"}), "Image", "etcd@sha256:abc", "invalid reference format"},
		{"check image an image ID", check(etcd.Options{}, etcd.CheckOptions{Image: strings.Repeat("a", 64)}), "Image", strings.Repeat("a", 64), "64-digit hexadecimal"},
		{"check image a URL", check(etcd.Options{}, etcd.CheckOptions{Image: "https://gcr.io/etcd"}), "Image", "https://gcr.io/etcd", "invalid reference format"},
		{"check image right-to-left override", check(etcd.Options{}, etcd.CheckOptions{Image: "etcd:v3‮"}), "Image", "etcd:v3‮", "invalid reference format"},
		// The cluster's options the check reads: version and size.
		{"check version", check(etcd.Options{Version: "v3.6"}, etcd.CheckOptions{}), "Version", "v3.6", "X.Y.Z"},
		{"check version leading zero", check(etcd.Options{Version: "3.6.011"}, etcd.CheckOptions{}), "Version", "3.6.011", "without leading zeros"},
		{"check size below MinSize", check(etcd.Options{Size: resource.MustParse("0.5")}, etcd.CheckOptions{}), "Size", "500m", "at least 256Mi"},
		{"check size negative", check(etcd.Options{Size: resource.MustParse("-1Gi")}, etcd.CheckOptions{}), "Size", "-1Gi", "positive"},
		// The dashboard's options.
		{"dashboard replicas negative", dashboard(monitoring.DashboardOptions{Replicas: -1}), "replicas", "-1", "between 1 and 99"},
		{"dashboard replicas past the bound", dashboard(monitoring.DashboardOptions{Replicas: 100}), "replicas", "100", "between 1 and 99"},
		{"dashboard selector label key", dashboard(monitoring.DashboardOptions{InstanceSelector: sel(map[string]string{"bad key": "x"})}),
			"instanceSelector.matchLabels", "bad key", "name part must consist of"},
		{"dashboard selector label value", dashboard(monitoring.DashboardOptions{InstanceSelector: sel(map[string]string{"dashboards": strings.Repeat("v", 64)})}),
			"instanceSelector.matchLabels", strings.Repeat("v", 64), "must be no more than 63"},
		{"dashboard selector operator", dashboard(monitoring.DashboardOptions{InstanceSelector: sel(nil, metav1.LabelSelectorRequirement{Key: "a", Operator: "Like", Values: []string{"b"}})}),
			"instanceSelector.matchExpressions[0].operator", "Like", "not a valid selector operator"},
		{"dashboard selector In without values", dashboard(monitoring.DashboardOptions{InstanceSelector: sel(nil, metav1.LabelSelectorRequirement{Key: "a", Operator: metav1.LabelSelectorOpIn})}),
			"instanceSelector.matchExpressions[0].values", "", "must be specified"},
		{"dashboard empty selector across namespaces", dashboard(monitoring.DashboardOptions{InstanceSelector: sel(nil), AllowCrossNamespaceImport: true}),
			"instanceSelector", map[string]any{}, "every Grafana of the cluster, other tenants' included"},
		{"dashboard folder too long", dashboard(monitoring.DashboardOptions{Folder: strings.Repeat("f", 256)}), "folder", strings.Repeat("f", 256), "at most 255 bytes"},
		{"dashboard folder blank", dashboard(monitoring.DashboardOptions{Folder: " \t"}), "folder", " \t", "must not be blank"},
		{"dashboard folder control character", dashboard(monitoring.DashboardOptions{Folder: "etcd\n"}), "folder", "etcd\n", "control characters"},
		{"dashboard JSON replicas", func() error {
			_, err := monitoring.DashboardJSON(cluster, monitoring.DashboardOptions{Replicas: -3})
			return err
		}, "replicas", "-3", "between 1 and 99"},
	}
}

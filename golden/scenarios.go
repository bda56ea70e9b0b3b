package golden

import (
	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/values"
	"sigs.k8s.io/yaml"
)

// AllAPIs are the optional APIs of upstream's kubernetes chart (its
// reference renders serve them).
var AllAPIs = []string{etcdshapes.APICiliumNetworkPolicy, etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APIVMPodScrape}

// MonitoringAPIs are the optional APIs of the shapes upstream does not
// render: the prometheus-operator PodMonitor and the grafana-operator
// GrafanaDashboard.
var MonitoringAPIs = []string{etcdshapes.APIPodMonitor, etcdshapes.APIGrafanaDashboard}

// zoneSpread is the platform's zone spread constraint in a values file;
// the cases that spread further add their constraints after it.
const zoneSpread = `
_cluster:
  scheduling:
    globalAppTopologySpreadConstraints: |
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: DoNotSchedule
`

// Scenario is one pinned render.
type Scenario struct {
	// Name is the golden file's base name.
	Name string
	// Caller is naming.CallerEtcd or naming.CallerCluster.
	Caller naming.Caller
	// Namespace is the tenant namespace rendered into.
	Namespace string
	// Release is the Helm release: "etcd" for the etcd chart, the tenant
	// cluster's release for the kubernetes chart.
	Release string
	// Values is a values file in the caller's chart shape.
	Values string
	// APIVersions are the served APIs in Helm's form (see AllAPIs); the
	// optional objects render only when listed.
	APIVersions []string
	// Live is the live cluster state the kubernetes chart reads; the zero value
	// is a fresh install.
	Live etcdshapes.LiveState
}

// Request turns the scenario into a render request (chart version 0.0.0).
func (s Scenario) Request() (etcdshapes.Request, error) {
	values, err := values.Merge([]byte(s.Values))
	if err != nil {
		return etcdshapes.Request{}, err
	}
	return etcdshapes.Request{
		Caller:       s.Caller,
		Namespace:    s.Namespace,
		Release:      s.Release,
		ChartVersion: "0.0.0",
		Values:       values,
		APIVersions:  s.APIVersions,
		Live:         s.Live,
	}, nil
}

// Render builds the scenario's objects.
func (s Scenario) Render() ([]etcdshapes.Object, error) {
	r, err := s.Request()
	if err != nil {
		return nil, err
	}
	return etcdshapes.Render(r)
}

// ValuesMap is the scenario's values as a map (nil for "{}").
func (s Scenario) ValuesMap() (map[string]any, error) {
	var m map[string]any
	err := yaml.Unmarshal([]byte(s.Values), &m)
	return m, err
}

func str(s string) *string { return &s }

// All lists every golden scenario: the charts' reference cases first (same
// names as in the reference set), then the cases the charts get wrong.
func All() []Scenario {
	etcdCase := func(name, ns, values string) Scenario {
		return Scenario{Name: name, Caller: naming.CallerEtcd, Namespace: ns, Release: "etcd", Values: values}
	}
	clusterCase := func(name, ns, rel, values string, apis []string) Scenario {
		return Scenario{Name: name, Caller: naming.CallerCluster, Namespace: ns, Release: rel, Values: values, APIVersions: apis}
	}
	shared := clusterCase("cluster-shared", "tenant-demo", "kubernetes-demo", "{}", AllAPIs)
	shared.Live.DataStoreName = "tenant-root"
	ownDS := clusterCase("cluster-live-own-datastore", "tenant-demo", "kubernetes-demo", "{}", AllAPIs)
	ownDS.Live.DataStoreName = "tenant-demo.kubernetes-demo"
	liveSC := clusterCase("cluster-live-storage-class", "tenant-demo", "kubernetes-demo", `
etcd:
  replicas: 1
_cluster:
  etcd-storage-class-local: local
  etcd-storage-class-replicated: replicated
`, AllAPIs)
	liveSC.Live.StorageClassName = str("legacy-ssd")
	liveEmptySC := clusterCase("cluster-live-empty-storage-class", "tenant-demo", "kubernetes-demo", `
_cluster:
  etcd-storage-class-local: local
`, AllAPIs)
	liveEmptySC.Live.StorageClassName = str("")

	return []Scenario{
		// The reference cases.
		etcdCase("etcd-defaults", "tenant-root", "{}"),
		etcdCase("etcd-single-local-10Gi", "tenant-abc", "replicas: 1\nstorageClass: local\nsize: 10Gi\n"),
		etcdCase("etcd-five-512Mi", "tenant-root", "replicas: 5\nsize: 512Mi\nresources:\n  cpu: 2\n  memory: 1Gi\n"),
		etcdCase("etcd-zone-spread", "tenant-root", zoneSpread),
		etcdCase("etcd-ratios", "tenant-root", "_cluster:\n  cpu-allocation-ratio: \"4\"\n  memory-allocation-ratio: \"2\"\n"),
		etcdCase("etcd-affinity", "tenant-root", `
affinity:
  podAntiAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
    - labelSelector:
        matchLabels:
          app.kubernetes.io/instance: etcd
      topologyKey: kubernetes.io/hostname
  nodeAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
      nodeSelectorTerms:
      - matchExpressions:
        - key: node-role.kubernetes.io/etcd
          operator: Exists
`),
		clusterCase("cluster-demo", "tenant-demo", "kubernetes-demo", "{}", AllAPIs),
		clusterCase("cluster-demo-noapis", "tenant-demo", "kubernetes-demo", "{}", nil),
		clusterCase("cluster-single-sc", "tenant-demo", "kubernetes-demo", `
etcd:
  replicas: 1
_cluster:
  etcd-storage-class-local: local
  etcd-storage-class-replicated: replicated
`, AllAPIs),
		clusterCase("cluster-longname", "tenant-demo", "kubernetes-production-cluster-eu-west-1-abc", "{}", AllAPIs),
		clusterCase("cluster-longns", "tenant-averyverylongtenantname-andanotherlongchild", "kubernetes-demo", "{}", AllAPIs),
		shared,

		// Beyond upstream: the PodMonitor and the dashboard where their
		// APIs are served.
		func() Scenario {
			s := etcdCase("etcd-monitoring-apis", "tenant-root", "{}")
			s.APIVersions = MonitoringAPIs
			return s
		}(),
		clusterCase("cluster-monitoring-apis", "tenant-demo", "kubernetes-demo", "etcd:\n  replicas: 1\n", append(append([]string{}, AllAPIs...), MonitoringAPIs...)),

		// Difference 4: every size unit works.
		etcdCase("etcd-size-1Ti", "tenant-root", "size: 1Ti\n"),
		etcdCase("etcd-size-10G", "tenant-root", "size: 10G\n"),
		etcdCase("etcd-size-plain-bytes", "tenant-root", "size: 5000000000\n"),
		// Difference 5: several constraints, one with its own selector.
		etcdCase("etcd-two-spread-constraints", "tenant-a-b", zoneSpread+`      - maxSkew: 2
        topologyKey: kubernetes.io/hostname
        whenUnsatisfiable: ScheduleAnyway
        labelSelector:
          matchLabels:
            tier: etcd
`),
		clusterCase("cluster-two-spread-constraints", "tenant-demo", "kubernetes-demo", zoneSpread+`      - maxSkew: 1
        topologyKey: kubernetes.io/hostname
        whenUnsatisfiable: ScheduleAnyway
`, AllAPIs),
		// Ratios that do not divide evenly, extra resources, a deep tenant.
		etcdCase("etcd-uneven-ratios", "tenant-a-b-c", `
resources:
  cpu: 1
  memory: 1000Mi
  ephemeral-storage: 3Gi
  example.com/device: "1"
_cluster:
  cpu-allocation-ratio: 3
  memory-allocation-ratio: "1.5"
  ephemeral-storage-allocation-ratio: 7
`),
		clusterCase("cluster-uneven-ratios", "tenant-demo", "kubernetes-demo", `
_cluster:
  cpu-allocation-ratio: "3"
  memory-allocation-ratio: "3"
`, []string{etcdshapes.APIVerticalPodAutoscaler}),
		// Names at their limits: a 56-character EtcdCluster name and a
		// 63-character namespace.
		clusterCase("cluster-maxname", "tenant-demo", "kubernetes-"+"abcdefghij-abcdefghij-abcdefghij-abcdefg", "{}", AllAPIs),
		clusterCase("cluster-maxns", "tenant-"+"abcdefghijklmnopqrstuvwxyz-abcdefghijklmnopqrstuvwxyz-ab", "kubernetes-demo", "{}", AllAPIs),
		etcdCase("etcd-maxns", "tenant-"+"abcdefghijklmnopqrstuvwxyz-abcdefghijklmnopqrstuvwxyz-ab", "{}"),
		// Live state.
		ownDS, liveSC, liveEmptySC,
		// etcd authentication on (spec.auth with the caller's root
		// credentials Secret): the tenants on a shared etcd isolated.
		etcdCase("etcd-auth", "tenant-root", "auth:\n  enabled: true\n  rootCredentialsSecret: etcd-root-credentials\n"),
		clusterCase("cluster-auth", "tenant-demo", "kubernetes-demo", "etcd:\n  auth:\n    enabled: true\n    rootCredentialsSecret: kubernetes-demo-etcd-root-credentials\n", AllAPIs),
	}
}

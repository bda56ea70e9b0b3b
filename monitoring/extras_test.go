package monitoring_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldenfile"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/stacknames"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testdata/crdcheck"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var update = flag.Bool("update", false, "rewrite testdata/*.yaml from the builders")

func etcdNames(t *testing.T) naming.Names {
	n, err := naming.ForEtcdChart("tenant-root", "etcd")
	require.NoError(t, err)
	return n
}

func clusterNames(t *testing.T, release string) naming.Names {
	n, err := naming.ForCluster("tenant-demo", release)
	require.NoError(t, err)
	return n
}

const maxClusterRelease = "kubernetes-production-cluster-eu-west-1-abcdefghijk" // a 56-character etcd name

// extrasCases are the golden cases of the PodMonitor and the dashboard.
var extrasCases = []struct {
	name string
	objs func(t *testing.T) []etcdshapes.Object
}{
	{"podmonitor-etcd", func(t *testing.T) []etcdshapes.Object {
		p, err := monitoring.PodMonitor(etcdNames(t))
		require.NoError(t, err)
		return []etcdshapes.Object{p}
	}},
	{"podmonitor-cluster", func(t *testing.T) []etcdshapes.Object {
		p, err := monitoring.PodMonitor(clusterNames(t, "kubernetes-demo"))
		require.NoError(t, err)
		return []etcdshapes.Object{p}
	}},
	{"dashboard-etcd", func(t *testing.T) []etcdshapes.Object {
		d, err := monitoring.Dashboard(etcdNames(t), monitoring.DashboardOptions{})
		require.NoError(t, err)
		return []etcdshapes.Object{d}
	}},
	{"dashboard-cluster-options", func(t *testing.T) []etcdshapes.Object {
		d, err := monitoring.Dashboard(clusterNames(t, "kubernetes-demo"), monitoring.DashboardOptions{
			InstanceSelector: &metav1.LabelSelector{
				MatchLabels:      map[string]string{"app.kubernetes.io/instance": "grafana"},
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tenant", Operator: metav1.LabelSelectorOpIn, Values: []string{"tenant-root", "tenant-demo"}}},
			},
			AllowCrossNamespaceImport: true,
			Folder:                    "Tenant clusters / etcd",
			Replicas:                  1,
		})
		require.NoError(t, err)
		return []etcdshapes.Object{d}
	}},
	{"dashboard-cluster-maxname", func(t *testing.T) []etcdshapes.Object {
		n, err := naming.ForCluster("tenant-"+strings.Repeat("x", 56), maxClusterRelease)
		require.NoError(t, err)
		d, err := monitoring.Dashboard(n, monitoring.DashboardOptions{Replicas: 5})
		require.NoError(t, err)
		return []etcdshapes.Object{d}
	}},
}

// The PodMonitor and the dashboards are pinned byte for byte in testdata
// (go test ./monitoring -update rewrites them), and print the same bytes
// every time.
func TestExtrasGolden(t *testing.T) {
	for _, c := range extrasCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := etcdshapes.Marshal(c.objs(t))
			require.NoError(t, err)
			want := goldenfile.Read(t, filepath.Join("testdata", c.name+".yaml"), got, *update, "run go test ./monitoring -update and read the diff")
			require.Equal(t, string(want), string(got))
			for range 20 {
				again, err := etcdshapes.Marshal(c.objs(t))
				require.NoError(t, err)
				require.Equal(t, string(got), string(again))
			}
		})
	}
}

// TestExtrasValidate: the PodMonitor and the dashboard of every golden
// stack pass their CRDs (prometheus-operator v0.87.0's PodMonitor and
// grafana-operator v5.24.0's GrafanaDashboard, from the directories
// ETCDSHAPES_CRDS lists) as the API server would on create, typed and as
// printed.
func TestExtrasValidate(t *testing.T) {
	c := crdcheck.ForTest(t)
	var objs []etcdshapes.Object
	for _, s := range golden.All() {
		n, err := stacknames.Of(s.Caller, s.Namespace, s.Release)
		require.NoError(t, err, s.Name)
		p, err := monitoring.PodMonitor(n)
		require.NoError(t, err)
		d, err := monitoring.Dashboard(n, monitoring.DashboardOptions{})
		require.NoError(t, err)
		objs = append(objs, p, d)
	}
	for _, tc := range extrasCases {
		objs = append(objs, tc.objs(t)...)
	}
	for _, o := range objs {
		gvk := o.GetObjectKind().GroupVersionKind()
		require.True(t, c.Covers(gvk), "%s: no CRD in the directories %s lists (CI lists ../shared/crds-planned too)", gvk, crdcheck.EnvVar)
		require.NoError(t, c.ValidateObject(o))
	}
	out, err := etcdshapes.Marshal(objs)
	require.NoError(t, err)
	require.NoError(t, c.ValidateYAML(out))
}

// The PodMonitor scrapes what the VMPodScrape scrapes: the same pods (the
// instance label, not the name label) on the same port and scheme, under
// another name.
func TestPodMonitorMatchesPodScrape(t *testing.T) {
	for _, n := range []naming.Names{etcdNames(t), clusterNames(t, "kubernetes-demo")} {
		pm, err := monitoring.PodMonitor(n)
		require.NoError(t, err)
		ps, err := monitoring.PodScrape(n)
		require.NoError(t, err)
		assert.Equal(t, ps.Spec.Selector, pm.Spec.Selector)
		assert.Equal(t, map[string]string{"app.kubernetes.io/instance": n.Cluster}, pm.Spec.Selector.MatchLabels)
		require.Len(t, pm.Spec.PodMetricsEndpoints, len(ps.Spec.PodMetricsEndpoints))
		for i, e := range pm.Spec.PodMetricsEndpoints {
			assert.Equal(t, ps.Spec.PodMetricsEndpoints[i].Port, *e.Port)
			assert.Equal(t, ps.Spec.PodMetricsEndpoints[i].Scheme, string(*e.Scheme))
		}
		assert.NotEqual(t, ps.Name, pm.Name)
		assert.Equal(t, n.Namespace, pm.Namespace)
		assert.Equal(t, []string{n.Namespace}, pm.Spec.NamespaceSelector.MatchNames, "the PodMonitor's own namespace, said outright")
		assert.False(t, pm.Spec.NamespaceSelector.Any)
	}
}

// dashboardModel is the part of the model the layout test reads.
type dashboardModel struct {
	UID    string `json:"uid"`
	Title  string `json:"title"`
	Panels []struct {
		ID      int    `json:"id"`
		Type    string `json:"type"`
		Title   string `json:"title"`
		GridPos struct {
			H, W, X, Y int
		} `json:"gridPos"`
		Datasource *struct {
			Type string `json:"type"`
			UID  string `json:"uid"`
		} `json:"datasource"`
		Targets []struct {
			RefID      string `json:"refId"`
			Expr       string `json:"expr"`
			Datasource struct {
				UID string `json:"uid"`
			} `json:"datasource"`
		} `json:"targets"`
	} `json:"panels"`
	Templating struct {
		List []struct {
			Name  string `json:"name"`
			Type  string `json:"type"`
			Query string `json:"query"`
		} `json:"list"`
	} `json:"templating"`
}

// The model is canonical (keys sorted at every depth, as a JSON decoder
// and encoder pair prints it), its panels have ids 1..N in order and
// positions that tile Grafana's 24-column grid without overlapping, every
// query reads the data source variable, and its UID is the object's.
func TestDashboardModel(t *testing.T) {
	for _, n := range []naming.Names{etcdNames(t), clusterNames(t, "kubernetes-demo"), clusterNames(t, maxClusterRelease)} {
		d, err := monitoring.Dashboard(n, monitoring.DashboardOptions{})
		require.NoError(t, err)
		raw := []byte(d.Spec.JSON)
		var tree any
		require.NoError(t, json.Unmarshal(raw, &tree))
		var canon bytes.Buffer
		enc := json.NewEncoder(&canon)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		require.NoError(t, enc.Encode(tree))
		assert.Equal(t, strings.TrimSuffix(canon.String(), "\n"), d.Spec.JSON, "canonical JSON")

		var m dashboardModel
		require.NoError(t, json.Unmarshal(raw, &m))
		assert.Equal(t, n.DashboardUID(), m.UID)
		assert.Equal(t, d.Spec.UID, m.UID)
		assert.Equal(t, "etcd "+n.Namespace+"/"+n.Cluster, m.Title)
		require.Len(t, m.Templating.List, 1)
		assert.Equal(t, "datasource", m.Templating.List[0].Name)
		assert.Equal(t, "prometheus", m.Templating.List[0].Query)

		occupied := map[[2]int]string{}
		for i, p := range m.Panels {
			assert.Equal(t, i+1, p.ID, p.Title)
			g := p.GridPos
			assert.True(t, g.W > 0 && g.H > 0 && g.X >= 0 && g.X+g.W <= 24, "%s: %+v", p.Title, g)
			for x := g.X; x < g.X+g.W; x++ {
				for y := g.Y; y < g.Y+g.H; y++ {
					cell := [2]int{x, y}
					require.Empty(t, occupied[cell], "%s overlaps %s", p.Title, occupied[cell])
					occupied[cell] = p.Title
				}
			}
			if p.Type == "row" {
				assert.Empty(t, p.Targets)
				continue
			}
			require.NotNil(t, p.Datasource, p.Title)
			assert.Equal(t, "${datasource}", p.Datasource.UID)
			refs := map[string]bool{}
			for _, tg := range p.Targets {
				assert.Equal(t, "${datasource}", tg.Datasource.UID)
				assert.False(t, refs[tg.RefID], "%s: refId %s twice", p.Title, tg.RefID)
				refs[tg.RefID] = true
			}
		}
	}
}

// The "Members up" colours follow the member count: red below quorum,
// orange below the count, green at it (no orange for one member).
func TestDashboardMembersUpColours(t *testing.T) {
	n := etcdNames(t)
	for replicas, want := range map[int32][]any{
		0: {nil, 2.0, 3.0}, // the default, 3
		1: {nil, 1.0},
		3: {nil, 2.0, 3.0},
		5: {nil, 3.0, 5.0},
		7: {nil, 4.0, 7.0},
	} {
		raw, err := monitoring.DashboardJSON(n, monitoring.DashboardOptions{Replicas: replicas})
		require.NoError(t, err)
		var m struct {
			Panels []struct {
				Title       string `json:"title"`
				FieldConfig struct {
					Defaults struct {
						Thresholds struct {
							Steps []struct {
								Value any `json:"value"`
							} `json:"steps"`
						} `json:"thresholds"`
					} `json:"defaults"`
				} `json:"fieldConfig"`
			} `json:"panels"`
		}
		require.NoError(t, json.Unmarshal(raw, &m))
		var got []any
		for _, p := range m.Panels {
			if p.Title == "Members up" {
				for _, s := range p.FieldConfig.Defaults.Thresholds.Steps {
					got = append(got, s.Value)
				}
			}
		}
		assert.Equal(t, want, got, "replicas %d", replicas)
	}
}

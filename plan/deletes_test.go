package plan_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every source of deletes says how they are done, since an apply never
// deletes: one kubectl delete per deleted object, in an order that
// deletes what depends on an object before the object, the stateful ones
// flagged, in the text and in the JSON form; and a plan with nothing to
// apply prints no pipe into kubectl apply (which fails on an empty
// input: "no objects passed to apply"). The sources: a tenant cluster
// moved to a shared datastore (the stack renders nothing), an optional
// API no longer listed (Compute without the inference), and objects the
// stack no longer renders among others it does.
func TestPlanDeletesSayHowTheyAreDone(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	live := scenarioObjects(t, s)

	moved := scenarioRequest(t, s)
	moved.Live.DataStoreName = "tenant-root"
	shared, _, err := plan.ForRequest(moved, live)
	require.NoError(t, err)

	noAPIs := scenarioRequest(t, s)
	noAPIs.APIVersions = nil
	desired, err := etcdshapes.Render(noAPIs)
	require.NoError(t, err)
	gated, err := plan.Compute(live, desired)
	require.NoError(t, err)

	// The render without its defrag CronJob and its DataStore: the rest
	// is applied, those two deleted.
	full, err := etcdshapes.Render(scenarioRequest(t, s))
	require.NoError(t, err)
	var fewer []etcdshapes.Object
	for _, o := range full {
		if k := kindName(o); k != "CronJob" && k != "DataStore" {
			fewer = append(fewer, o)
		}
	}
	partial, err := plan.Compute(live, fewer)
	require.NoError(t, err)

	for _, tc := range []struct {
		name           string
		p              *plan.Result
		nothingToApply bool
	}{{"shared datastore", shared, true}, {"API not listed", gated, false}, {"objects no longer rendered", partial, false}} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p
			p.RenderCommand = "etcdshapes render cluster kubernetes-demo -n tenant-demo --live FILE"
			require.Positive(t, p.Count(plan.Delete), "%s", p)
			require.Len(t, p.Deletes, p.Count(plan.Delete), "%s", p)
			text := p.String()
			assert.Contains(t, text, "Applying does not delete", text)
			at := map[string]int{}
			for _, o := range p.Objects {
				if o.Action != plan.Delete {
					continue
				}
				i := deleteStep(t, p, o.ObjectRef)
				at[o.Kind+" "+o.Name] = i
				d := p.Deletes[i]
				assert.Contains(t, text, "\n  "+d.Command, text)
				group, _, _ := strings.Cut(o.APIVersion, "/")
				if !strings.Contains(o.APIVersion, "/") {
					group = ""
				}
				res := strings.ToLower(o.Kind)
				if group != "" {
					res += "." + group
				}
				want := "kubectl delete -n " + o.Namespace + " " + res + "/" + o.Name
				if o.Namespace == "" {
					want = "kubectl delete " + res + "/" + o.Name
				}
				assert.Equal(t, want, d.Command)
				switch o.Kind {
				case "EtcdCluster", "DataStore", "Certificate", "Issuer", "Secret", "PersistentVolumeClaim":
					assert.NotEmpty(t, d.Holds, "%s holds state", o.ObjectRef)
					assert.Contains(t, text, d.Command+"   # stateful: ", text)
				default:
					assert.Empty(t, d.Holds, "%s", o.ObjectRef)
				}
			}
			// What depends on an object before the object.
			for _, pair := range [][2]string{
				{"DataStore tenant-demo.kubernetes-demo", "EtcdCluster kubernetes-demo-etcd"},
				{"CronJob kubernetes-demo-etcd-defrag", "EtcdCluster kubernetes-demo-etcd"},
				{"WorkloadMonitor kubernetes-demo-etcd", "EtcdCluster kubernetes-demo-etcd"},
				{"EtcdCluster kubernetes-demo-etcd", "Certificate kubernetes-demo-etcd-server"},
				{"Certificate kubernetes-demo-etcd-server", "Issuer kubernetes-demo-etcd-issuer"},
				{"Issuer kubernetes-demo-etcd-issuer", "Certificate kubernetes-demo-etcd-ca"},
				{"Certificate kubernetes-demo-etcd-ca", "Issuer kubernetes-demo-etcd-selfsigning-issuer"},
			} {
				before, okB := at[pair[0]]
				after, okA := at[pair[1]]
				if okB && okA {
					assert.Less(t, before, after, "%s must be deleted before %s:\n%s", pair[0], pair[1], text)
				}
			}
			assert.Equal(t, tc.nothingToApply, p.NothingToApply())
			if tc.nothingToApply {
				assert.NotContains(t, text, "| kubectl apply", text)
				assert.Contains(t, text, "Nothing to apply", text)
			} else {
				assert.Contains(t, text, "| kubectl apply", text)
			}
			js, err := json.Marshal(p)
			require.NoError(t, err)
			var back struct {
				NothingToApply bool `json:"nothingToApply"`
				Deletes        []plan.DeleteStep
			}
			require.NoError(t, json.Unmarshal(js, &back))
			assert.Equal(t, tc.nothingToApply, back.NothingToApply)
			assert.Equal(t, p.Deletes, back.Deletes)
		})
	}

	// No deletes, nothing said about them.
	same, _, err := plan.ForRequest(scenarioRequest(t, s), live)
	require.NoError(t, err)
	assert.Empty(t, same.Deletes)
	assert.NotContains(t, same.String(), "Applying does not delete")
}

// deleteStep is the index of ref's step in p.Deletes.
func deleteStep(t *testing.T, p *plan.Result, ref plan.ObjectRef) int {
	t.Helper()
	for i, d := range p.Deletes {
		if d.Object == ref {
			return i
		}
	}
	require.Failf(t, "no delete step", "%s:\n%s", ref, p)
	return -1
}

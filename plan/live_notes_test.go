package plan_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestPlanNotesObjectsBeingDeleted: a live object with
// metadata.deletionTimestamp (finalizers hold it) is noted on its plan,
// whatever the plan does with it (unchanged, updated, deleted), for every
// object of the stack: the apply would update something about to vanish.
func TestPlanNotesObjectsBeingDeleted(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	req := scenarioRequest(t, s)
	deleting := func(u *unstructured.Unstructured) {
		require.NoError(t, unstructured.SetNestedField(u.Object, "2025-06-01T12:00:00Z", "metadata", "deletionTimestamp"))
		require.NoError(t, unstructured.SetNestedStringSlice(u.Object, []string{"example.com/hold"}, "metadata", "finalizers"))
	}
	noteOf := func(t *testing.T, p *plan.Result, kind, name string) plan.Finding {
		t.Helper()
		o := objectPlan(t, p, kind, name)
		for _, f := range o.Findings {
			if f.Path == "metadata.deletionTimestamp" {
				assert.Equal(t, plan.Note, f.Verdict)
				assert.Contains(t, f.Message, `the live object is being deleted (deletionTimestamp "2025-06-01T12:00:00Z"; finalizers ["example.com/hold"])`)
				return f
			}
		}
		t.Fatalf("no deletion note on %s %s:\n%s", kind, name, p)
		return plan.Finding{}
	}
	kinds := 0
	for i, o := range scenarioObjects(t, s) {
		kind, name := kindName(o), o.GetName()
		if kind == "KamajiControlPlane" || etcdshapes.IsUninstallHook(o) {
			continue // read, or skipped: never planned
		}
		t.Run(kind+"/"+name, func(t *testing.T) {
			live := scenarioObjects(t, s)
			deleting(live[i].(*unstructured.Unstructured))
			p, _, err := plan.ForRequest(req, live)
			require.NoError(t, err)
			f := noteOf(t, p, kind, name)
			assert.Contains(t, f.Message, "the apply leaves it until it is gone, and nothing recreates it until the next apply")
			assert.True(t, p.SafeToApply(), "a note: %s", p)
			assert.Contains(t, p.String(), "note metadata.deletionTimestamp: the live object is being deleted")
		})
		kinds++
	}
	require.Greater(t, kinds, 10)

	// Updated.
	live := scenarioObjects(t, s)
	c := liveObject(t, live, "EtcdCluster", "kubernetes-demo-etcd")
	deleting(c)
	require.NoError(t, unstructured.SetNestedField(c.Object, "3.6.10", "spec", "version"))
	p, _, err := plan.ForRequest(req, live)
	require.NoError(t, err)
	assert.Equal(t, plan.Update, objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd").Action)
	assert.Contains(t, noteOf(t, p, "EtcdCluster", "kubernetes-demo-etcd").Message, "the apply updates it until it is gone")

	// Deleted.
	live = scenarioObjects(t, s)
	deleting(liveObject(t, live, "CronJob", "kubernetes-demo-etcd-defrag"))
	desired, err := etcdshapes.Render(req)
	require.NoError(t, err)
	var without []etcdshapes.Object
	for _, o := range desired {
		if kindName(o) != "CronJob" {
			without = append(without, o)
		}
	}
	p, err = plan.Compute(live, without)
	require.NoError(t, err)
	assert.Equal(t, plan.Delete, objectPlan(t, p, "CronJob", "kubernetes-demo-etcd-defrag").Action)
	assert.Contains(t, noteOf(t, p, "CronJob", "kubernetes-demo-etcd-defrag").Message, "the delete is already under way")
}

// TestPlanNothingLive: a plan that finds nothing of the stack among the
// live objects (none, or only other stacks' and other namespaces'
// objects) says so in a note and in Result.NothingLive, through Compute
// and ForRequest; one live object of the stack (any of them, a keep
// Secret, the tenant cluster's KamajiControlPlane alone on a shared
// datastore) is enough to say nothing.
func TestPlanNothingLive(t *testing.T) {
	demo := goldentest.Scenario(t, "cluster-demo")
	other := scenarioObjects(t, goldentest.Scenario(t, "cluster-longname")) // another release's stack
	req := scenarioRequest(t, demo)
	desired, err := etcdshapes.Render(req)
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		live []etcdshapes.Object
		say  string
	}{
		{"nil", nil, "nothing live: the live objects are empty, so every object is a create (a fresh install)"},
		{"empty", []etcdshapes.Object{}, "nothing live: the live objects are empty"},
		{"another release's stack", other, "nothing live: none of the " + itoa(len(other)) + " live objects is this stack's"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, _, err := plan.ForRequest(req, c.live)
			require.NoError(t, err)
			q, err := plan.Compute(c.live, desired)
			require.NoError(t, err)
			for _, r := range []*plan.Result{p, q} {
				require.True(t, r.NothingLive, "%s", r)
				require.Equal(t, len(r.Objects), r.Count(plan.Create), "%s", r)
				require.Len(t, r.Findings, 1, "%s", r)
				assert.Equal(t, plan.Note, r.Findings[0].Verdict)
				assert.Contains(t, r.Findings[0].Message, c.say)
				assert.Contains(t, r.Findings[0].Message, "--expect-existing")
				assert.Contains(t, r.String(), "\n    note: "+c.say)
				assert.True(t, strings.HasPrefix(r.Findings[0].String(), "note: nothing live: "), r.Findings[0].String())
			}
		})
	}
	// Anything of the stack live: no note.
	for i, o := range scenarioObjects(t, demo) {
		t.Run("only "+kindName(o), func(t *testing.T) {
			live := scenarioObjects(t, demo)[i : i+1]
			p, _, err := plan.ForRequest(req, live)
			require.NoError(t, err)
			require.False(t, p.NothingLive, "%s", p)
		})
	}
	etcd := goldentest.Scenario(t, "etcd-defaults")
	for _, o := range scenarioObjects(t, etcd) {
		if etcdshapes.IsKept(o) {
			p, _, err := plan.ForRequest(scenarioRequest(t, etcd), []etcdshapes.Object{o})
			require.NoError(t, err)
			require.False(t, p.NothingLive, "a keep Secret is the stack's: %s", p)
		}
	}
	shared := goldentest.Scenario(t, "cluster-shared")
	p, _, err := plan.ForRequest(scenarioRequest(t, shared), scenarioObjects(t, shared)) // the KamajiControlPlane alone
	require.NoError(t, err)
	require.False(t, p.NothingLive, "%s", p)
	require.True(t, p.Empty(), "%s", p)
}

func itoa(n int) string { return strconv.Itoa(n) }

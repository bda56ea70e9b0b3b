package plan_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/partialtest"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestPlanGradesObjectsBeingDeleted: a live object with
// metadata.deletionTimestamp (finalizers hold it) is graded on its plan,
// whatever the plan does with it (unchanged, updated, deleted), for every
// object of the stack and every object that refers to it: one that holds
// the stack's state or identity (the EtcdCluster, the DataStore, an Issuer,
// a Certificate, a Secret, a member's volume) is a decision, which makes
// the plan neither safe nor empty (a CI gate on exit 0 or "empty" would
// pass over an etcd going away); any other is a note.
func TestPlanGradesObjectsBeingDeleted(t *testing.T) {
	deleting := func(u map[string]any) {
		require.NoError(t, unstructured.SetNestedField(u, "2025-06-01T12:00:00Z", "metadata", "deletionTimestamp"))
		require.NoError(t, unstructured.SetNestedStringSlice(u, []string{"example.com/hold"}, "metadata", "finalizers"))
	}
	stateful := map[string]bool{"EtcdCluster": true, "DataStore": true, "Issuer": true, "Certificate": true, "Secret": true, "PersistentVolumeClaim": true}
	stacks, err := partialtest.Stacks()
	require.NoError(t, err)
	graded := map[string]bool{}
	for _, s := range stacks {
		all := append(slices.Clone(s.Objects), s.Referrers...)
		for i, o := range all {
			t.Run(s.Caller.String()+"/"+o.Kind+"/"+o.Name, func(t *testing.T) {
				var objs []etcdshapes.Object
				for j, x := range all {
					tree := runtime.DeepCopyJSON(x.Tree)
					if j == i {
						deleting(tree)
					}
					objs = append(objs, &unstructured.Unstructured{Object: tree})
				}
				p, _, err := plan.ForRequest(s.Request(), objs)
				require.NoError(t, err)
				var found []plan.Finding
				for _, f := range p.AllFindings() {
					if f.Path == "metadata.deletionTimestamp" && f.Object.Kind == o.Kind && f.Object.Name == o.Name {
						found = append(found, f)
					}
				}
				if len(found) == 0 {
					// Neither planned nor a referrer the plan reads (a Pod, a
					// Service of the operator's): nothing to grade.
					require.False(t, stateful[o.Kind], "%s %s: no finding\n%s", o.Kind, o.Name, p)
					require.True(t, p.SafeToApply(), "%s", p)
					return
				}
				require.Len(t, found, 1, "%s", p)
				f := found[0]
				graded[o.Kind] = true
				if !stateful[o.Kind] {
					assert.Equal(t, plan.Note, f.Verdict, "%s", f)
					assert.Contains(t, f.Message, `the live object is being deleted (deletionTimestamp "2025-06-01T12:00:00Z"; finalizers ["example.com/hold"])`)
					assert.Contains(t, f.Message, "the apply leaves it until it is gone, and nothing recreates it until the next apply")
					assert.True(t, p.SafeToApply(), "a note: %s", p)
					assert.Contains(t, p.String(), "note metadata.deletionTimestamp: the live object is being deleted")
					return
				}
				assert.Equal(t, plan.NeedsDecision, f.Verdict, "%s", f)
				assert.Contains(t, f.Message, "the live "+o.Kind+` is being deleted (deletionTimestamp "2025-06-01T12:00:00Z"; finalizers ["example.com/hold"]), and `)
				assert.Contains(t, f.Message, "would recreate it only after the deletion completes")
				assert.False(t, p.SafeToApply(), "%s", p)
				assert.False(t, p.Empty(), "%s", p)
				assert.True(t, strings.HasPrefix(p.Summary(), "Not safe to apply: 0 refused by the API server, 1 need a decision"), p.Summary())
			})
		}
	}
	for k := range stateful {
		require.True(t, graded[k], "no object of kind %s graded", k)
	}
	require.True(t, graded["CronJob"] && graded["Service"], "%v", graded)

	s := goldentest.Scenario(t, "cluster-demo")
	req := scenarioRequest(t, s)
	noteOf := func(t *testing.T, p *plan.Result, kind, name string) plan.Finding {
		t.Helper()
		o := objectPlan(t, p, kind, name)
		for _, f := range o.Findings {
			if f.Path == "metadata.deletionTimestamp" {
				assert.Contains(t, f.Message, `is being deleted (deletionTimestamp "2025-06-01T12:00:00Z"; finalizers ["example.com/hold"])`)
				return f
			}
		}
		t.Fatalf("no deletion finding on %s %s:\n%s", kind, name, p)
		return plan.Finding{}
	}
	del := func(u *unstructured.Unstructured) { deleting(u.Object) }

	// Updated.
	live := scenarioObjects(t, s)
	c := liveObject(t, live, "EtcdCluster", "kubernetes-demo-etcd")
	del(c)
	require.NoError(t, unstructured.SetNestedField(c.Object, "3.6.10", "spec", "version"))
	p, _, err := plan.ForRequest(req, live)
	require.NoError(t, err)
	assert.Equal(t, plan.Update, objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd").Action)
	f := noteOf(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	assert.Equal(t, plan.NeedsDecision, f.Verdict)
	assert.Contains(t, f.Message, "the apply updates it until it is gone, and would recreate it only after the deletion completes (the next apply, as a create: a new, empty etcd")

	// Deleted.
	live = scenarioObjects(t, s)
	del(liveObject(t, live, "CronJob", "kubernetes-demo-etcd-defrag"))
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
// objects) says so in Result.NothingLive and in a finding, through
// Compute and ForRequest: a decision by default (a failed or misdirected
// kubectl get looks the same), naming how to plan a fresh install; a note
// with FreshInstall; a decision with ExpectExisting. One live object of
// the stack (any of them, a keep Secret, the tenant cluster's
// KamajiControlPlane alone on a shared datastore) is enough to say
// nothing, and is a decision with FreshInstall: the install is not fresh.
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
		{"nil", nil, "nothing live: the live objects are empty"},
		{"empty", []etcdshapes.Object{}, "nothing live: the live objects are empty"},
		{"another release's stack", other, "nothing live: none of the " + itoa(len(other)) + " live objects is this stack's"},
	} {
		for _, e := range []struct {
			name    string
			opts    []plan.Option
			verdict plan.Verdict
			text    string // the finding's line in the plan's text
			says    string
		}{
			{"default", nil, plan.NeedsDecision, "DECISION", ": the live file holds nothing of the stack, so the plan is of a fresh install, every object a create. " +
				"A kubectl get that failed (an empty file left, its error on stderr) or was misdirected (another namespace, another context, the stack's kinds left out) writes the same file"},
			{"FreshInstall", []plan.Option{plan.FreshInstall()}, plan.Note, "note", ", so every object is a create: a fresh install, as expected (--fresh-install, plan.FreshInstall)"},
			{"ExpectExisting", []plan.Option{plan.ExpectExisting()}, plan.NeedsDecision, "DECISION", ", yet the stack is expected to exist (--expect-existing, plan.ExpectExisting)"},
		} {
			t.Run(c.name+"/"+e.name, func(t *testing.T) {
				p, _, err := plan.ForRequestWith(req, c.live, e.opts)
				require.NoError(t, err)
				q, err := plan.Compute(c.live, desired, e.opts...)
				require.NoError(t, err)
				for _, r := range []*plan.Result{p, q} {
					require.True(t, r.NothingLive, "%s", r)
					require.Equal(t, len(r.Objects), r.Count(plan.Create), "%s", r)
					require.Len(t, r.Findings, 1, "%s", r)
					assert.Equal(t, e.verdict, r.Findings[0].Verdict)
					assert.Contains(t, r.Findings[0].Message, c.say+e.says)
					assert.Contains(t, r.String(), "\n    "+e.text+": "+c.say)
					assert.True(t, strings.HasPrefix(r.Findings[0].String(), string(e.verdict)+": nothing live: "), r.Findings[0].String())
					assert.Equal(t, e.verdict == plan.Note, r.SafeToApply(), "%s", r)
				}
			})
		}
	}
	// Anything of the stack live: not nothing live, and not fresh.
	for i, o := range scenarioObjects(t, demo) {
		t.Run("only "+kindName(o), func(t *testing.T) {
			live := scenarioObjects(t, demo)[i : i+1]
			p, _, err := plan.ForRequest(req, live)
			require.NoError(t, err)
			require.False(t, p.NothingLive, "%s", p)
			p, _, err = plan.ForRequestWith(req, live, []plan.Option{plan.FreshInstall()})
			require.NoError(t, err)
			require.False(t, p.NothingLive, "%s", p)
			require.False(t, p.SafeToApply(), "%s", p)
			assert.Contains(t, p.String(), "\n    DECISION: a fresh install was expected (--fresh-install, plan.FreshInstall), but the stack is live: ")
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
	// It proves nothing of the etcd, but the tenant cluster is live.
	p, _, err = plan.ForRequestWith(scenarioRequest(t, shared), scenarioObjects(t, shared), []plan.Option{plan.FreshInstall()})
	require.NoError(t, err)
	require.False(t, p.SafeToApply(), "%s", p)
	assert.Contains(t, p.String(), "but the stack is live: 1 live object is of the stack or refers to it (KamajiControlPlane tenant-demo/kubernetes-demo: the tenant cluster's KamajiControlPlane)")
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestDuplicateNamesTheFirst: an object given twice, to Compute or in a
// live file (ReadObjects, which names places in the file: a List's items),
// is refused naming both places, on either side of the plan.
func TestDuplicateNamesTheFirst(t *testing.T) {
	obj := func(apiVersion string) etcdshapes.Object {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": "EtcdCluster",
			"metadata": map[string]any{"name": "etcd", "namespace": "tenant-root"}}}
	}
	other := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "a", "namespace": "tenant-root"}}}
	objs := []etcdshapes.Object{obj("etcd-operator.cozystack.io/v1alpha2"), other, obj("etcd-operator.cozystack.io/v1alpha1")}
	_, err := plan.Compute(objs, nil)
	require.EqualError(t, err, `live[2]: invalid value "EtcdCluster tenant-root/etcd": must not appear twice (first at live[0])`)
	_, err = plan.Compute(nil, objs)
	require.EqualError(t, err, `desired[2]: invalid value "EtcdCluster tenant-root/etcd": must not appear twice (first at desired[0])`)
	doc := "apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdCluster\nmetadata: {name: etcd, namespace: tenant-root}\n"
	_, err = plan.ReadObjects([]byte("apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.TrimSuffix(doc, "\n"), "\n", "\n  ") + "\n---\n" + doc))
	require.EqualError(t, err, `live[1]: invalid value "EtcdCluster tenant-root/etcd": must not appear twice (first at live[0].items[0])`)
}

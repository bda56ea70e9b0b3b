package plan_test

import (
	"encoding/json"
	"errors"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The server-side apply semantics of the plan, on the stacks as a real
// kube-apiserver returned them (testdata/apiserver/live.yaml, with the
// managedFields it wrote). TestPlanAgreement in the e2e suite checks the
// same against the server for hundreds of generated mutations.

const (
	defragPath = "spec.jobTemplate.spec.template.spec.containers"
	sidecarKey = `k:{"name":"sidecar"}`
)

// serverLive is the recorded live stacks, read afresh.
func serverLive(t *testing.T) []etcdshapes.Object {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "apiserver", "live.yaml"))
	require.NoError(t, err)
	live, err := plan.ReadObjects(data)
	require.NoError(t, err)
	return live
}

func fixtureChartRequest() etcdshapes.Request {
	return serverFixtureRequests(nil)[0]
}

// fixtureObject is the live object of kind and name in tenant-fixture.
func fixtureObject(t *testing.T, live []etcdshapes.Object, kind, name string) *unstructured.Unstructured {
	t.Helper()
	for _, o := range live {
		if kindName(o) == kind && o.GetName() == name && o.GetNamespace() == "tenant-fixture" {
			return o.(*unstructured.Unstructured)
		}
	}
	t.Fatalf("no live %s %s", kind, name)
	return nil
}

// addManaged appends a managedFields entry.
func addManaged(t *testing.T, u *unstructured.Unstructured, manager, operation, apiVersion string, fieldsV1 string) {
	t.Helper()
	var fields map[string]any
	require.NoError(t, json.Unmarshal([]byte(fieldsV1), &fields))
	entries, _, _ := unstructured.NestedSlice(u.Object, "metadata", "managedFields")
	entries = append(entries, map[string]any{"manager": manager, "operation": operation, "apiVersion": apiVersion,
		"fieldsType": "FieldsV1", "fieldsV1": fields})
	require.NoError(t, unstructured.SetNestedSlice(u.Object, entries, "metadata", "managedFields"))
}

// ownsToo adds a field set to FieldManager's entry of u.
func ownsToo(t *testing.T, u *unstructured.Unstructured, path []string, key string) {
	t.Helper()
	ownsTooAs(t, u, apply.FieldManager, path, key)
}

// ownsTooAs adds a field set to manager's entry of u.
func ownsTooAs(t *testing.T, u *unstructured.Unstructured, manager string, path []string, key string) {
	t.Helper()
	entries, _, _ := unstructured.NestedSlice(u.Object, "metadata", "managedFields")
	for _, e := range entries {
		em := e.(map[string]any)
		if em["manager"] != manager {
			continue
		}
		node := em["fieldsV1"].(map[string]any)
		for _, p := range path {
			next, ok := node["f:"+p].(map[string]any)
			if !ok {
				next = map[string]any{}
				node["f:"+p] = next
			}
			node = next
		}
		node[key] = map[string]any{".": map[string]any{}, "f:image": map[string]any{}, "f:name": map[string]any{}}
	}
	require.NoError(t, unstructured.SetNestedSlice(u.Object, entries, "metadata", "managedFields"))
}

// withSidecar adds a container to the live defrag CronJob.
func withSidecar(t *testing.T, u *unstructured.Unstructured) {
	t.Helper()
	path := strings.Split(defragPath, ".")
	containers, _, _ := unstructured.NestedSlice(u.Object, path...)
	containers = append(containers, map[string]any{"name": "sidecar", "image": "busybox:1.36",
		"imagePullPolicy": "IfNotPresent", "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"})
	require.NoError(t, unstructured.SetNestedSlice(u.Object, containers, path...))
}

const sidecarFieldsV1 = `{"f:spec":{"f:jobTemplate":{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"sidecar\"}":{".":{},"f:image":{},"f:name":{}}}}}}}}}`

// The sidecar case: a container kubectl edit added to the live CronJob
// stays. Containers are a list keyed by name, so an apply leaves the
// elements other managers own: the plan says "kept (owned by
// kubectl-edit)", not a removal, and the CronJob is unchanged.
func TestPlanKeepsOtherManagersSidecar(t *testing.T) {
	live := serverLive(t)
	cj := fixtureObject(t, live, "CronJob", "etcd-defrag")
	withSidecar(t, cj)
	addManaged(t, cj, "kubectl-edit", "Update", "batch/v1", sidecarFieldsV1)

	p, _, err := plan.ForRequest(fixtureChartRequest(), live)
	require.NoError(t, err)
	o := objectPlan(t, p, "CronJob", "etcd-defrag")
	assert.Equal(t, plan.Unchanged, o.Action, "%s", p)
	assert.Empty(t, o.Changes)
	assert.Equal(t, plan.OwnershipManagedFields, o.Ownership)
	require.Len(t, o.Kept, 1, "%s", p)
	assert.Equal(t, defragPath+`[name="sidecar"]`, o.Kept[0].Path)
	assert.Equal(t, []string{"f:spec", "f:jobTemplate", "f:spec", "f:template", "f:spec", "f:containers", sidecarKey}, o.Kept[0].PathElements)
	assert.Equal(t, []plan.Manager{{Name: "kubectl-edit", Operation: "Update", APIVersion: "batch/v1"}}, o.Kept[0].Managers)
	assert.Equal(t, "busybox:1.36", o.Kept[0].Value.(map[string]any)["image"])
	assert.True(t, p.Empty(), "%s", p)
	assert.True(t, p.SafeToApply())
	assert.Contains(t, p.String(), "= unchanged CronJob tenant-fixture/etcd-defrag\n    = "+defragPath+`[name="sidecar"]: kept (owned by kubectl-edit)`)
}

// What FieldManager applied before, no longer renders and no other
// manager owns is removed; the same element co-owned by another manager
// is kept for it.
func TestPlanRemovesOnlyWhatItOwnedAlone(t *testing.T) {
	live := serverLive(t)
	cj := fixtureObject(t, live, "CronJob", "etcd-defrag")
	withSidecar(t, cj)
	ownsToo(t, cj, strings.Split(defragPath, "."), sidecarKey)

	p, _, err := plan.ForRequest(fixtureChartRequest(), live)
	require.NoError(t, err)
	o := objectPlan(t, p, "CronJob", "etcd-defrag")
	require.Len(t, o.Changes, 1, "%s", p)
	assert.Equal(t, defragPath+`[name="sidecar"]`, o.Changes[0].Path)
	assert.Equal(t, plan.FieldRemoved, o.Changes[0].Type)
	assert.Empty(t, o.Kept)
	assert.Contains(t, p.String(), "    - "+defragPath+`[name="sidecar"]: {`)

	addManaged(t, cj, "kubectl-edit", "Update", "batch/v1", sidecarFieldsV1)
	p, _, err = plan.ForRequest(fixtureChartRequest(), live)
	require.NoError(t, err)
	o = objectPlan(t, p, "CronJob", "etcd-defrag")
	assert.Empty(t, o.Changes, "%s", p)
	require.Len(t, o.Kept, 1)
	assert.Equal(t, "kubectl-edit", o.Kept[0].Managers[0].Name)
}

// A field another manager took (kubectl edit changed the schedule) and
// the render sets back is a conflict: the plan names the manager, says an
// apply without force is refused and force takes it, and still reports
// the change (what a forced apply, as apply.Requests' callers send it,
// does).
func TestPlanConflictsNameTheManager(t *testing.T) {
	live := serverLive(t)
	cj := fixtureObject(t, live, "CronJob", "etcd-defrag")
	require.NoError(t, unstructured.SetNestedField(cj.Object, "30 * * * *", "spec", "schedule"))
	addManaged(t, cj, "kubectl-edit", "Update", "batch/v1", `{"f:spec":{"f:schedule":{}}}`)

	p, _, err := plan.ForRequest(fixtureChartRequest(), live)
	require.NoError(t, err)
	o := objectPlan(t, p, "CronJob", "etcd-defrag")
	require.Len(t, o.Changes, 1, "%s", p)
	assert.Equal(t, "spec.schedule", o.Changes[0].Path)
	require.Len(t, o.Conflicts, 1, "%s", p)
	c := o.Conflicts[0]
	assert.Equal(t, "spec.schedule", c.Path)
	assert.Equal(t, []string{"f:spec", "f:schedule"}, c.PathElements)
	assert.Equal(t, []plan.Manager{{Name: "kubectl-edit", Operation: "Update", APIVersion: "batch/v1"}}, c.Managers)
	assert.Equal(t, "30 * * * *", c.Live)
	assert.Equal(t, "0 * * * *", c.Desired)
	assert.True(t, c.ForceTakes)
	assert.True(t, p.SafeToApply(), "a conflict is taken by force, which is how the library applies")
	text := p.String()
	assert.Contains(t, text, `~ spec.schedule: "30 * * * *" -> "0 * * * *": conflict with kubectl-edit (an apply without force is refused; with force etcdshapes takes the field)`)
	assert.Contains(t, text, "1 field changes that is owned by other managers: an apply without force is refused (409 Conflict)")
}

// A conflict on an object the API server refuses anyway: force does not
// take the field.
func TestPlanConflictOnARefusedObject(t *testing.T) {
	live := serverLive(t)
	c := fixtureObject(t, live, "EtcdCluster", "etcd")
	require.NoError(t, unstructured.SetNestedField(c.Object, "other-server-tls", "spec", "tls", "client", "serverSecretRef", "name"))
	addManaged(t, c, "kubectl-edit", "Update", "etcd-operator.cozystack.io/v1alpha2", `{"f:spec":{"f:tls":{"f:client":{"f:serverSecretRef":{}}}}}`)
	p, _, err := plan.ForRequest(fixtureChartRequest(), live)
	require.NoError(t, err)
	o := objectPlan(t, p, "EtcdCluster", "etcd")
	require.Len(t, o.Conflicts, 1, "%s", p)
	assert.False(t, o.Conflicts[0].ForceTakes)
	assert.Len(t, findings(p, plan.Refused), 1)
	assert.Contains(t, p.String(), "conflict with kubectl-edit (an apply without force is refused; with force too, as the API server refuses the object)")
}

// Without managedFields (kubectl get without --show-managed-fields) the
// plan says it merged only: the sidecar stays (an apply of a keyed list
// keeps other elements), and nothing is reported removed or kept.
func TestPlanWithoutManagedFieldsSaysSo(t *testing.T) {
	live := serverLive(t)
	for _, o := range live {
		unstructured.RemoveNestedField(o.(*unstructured.Unstructured).Object, "metadata", "managedFields")
	}
	withSidecar(t, fixtureObject(t, live, "CronJob", "etcd-defrag"))
	p, _, err := plan.ForRequest(fixtureChartRequest(), live)
	require.NoError(t, err)
	assert.True(t, p.Empty(), "%s", p)
	for _, o := range p.Objects {
		assert.Equal(t, plan.OwnershipUnknown, o.Ownership, "%s", o.ObjectRef)
		assert.Empty(t, o.Kept)
	}
	assert.Contains(t, p.String(), "Ownership unknown: the live objects carry no managedFields (kubectl get --show-managed-fields prints them)")
}

// Live fields the embedded schema does not know (a newer CRD) are left as
// they are, and the plan says so.
func TestPlanLeavesUnknownLiveFields(t *testing.T) {
	live := serverLive(t)
	c := fixtureObject(t, live, "EtcdCluster", "etcd")
	require.NoError(t, unstructured.SetNestedField(c.Object, "v2", "spec", "futureField"))
	req := fixtureChartRequest()
	values, err := values.Merge([]byte("replicas: 5\n"))
	require.NoError(t, err)
	req.Values = values
	p, desired, err := plan.ForRequest(req, live)
	require.NoError(t, err)
	o := objectPlan(t, p, "EtcdCluster", "etcd")
	assert.Contains(t, noElements(o.Changes), plan.FieldChange{Path: "spec.replicas", Type: plan.FieldChanged, Live: int64(3), Desired: int64(5)})
	for _, ch := range o.Changes {
		assert.NotContains(t, ch.Path, "futureField")
	}
	assert.Contains(t, p.String(), "the plan leaves them as they are: spec.futureField")
	assert.NotEmpty(t, desired)
}

// An apply that leaves a custom resource without a field its schema
// requires, or with a null it does not allow, is refused as the API
// server refuses it: a PrometheusRule whose only group the render drops
// (the merge removes the list, and spec with it).
func TestPlanRefusesWhatTheSchemaRequires(t *testing.T) {
	live := serverLive(t)
	rule := fixtureObject(t, live, "PrometheusRule", "etcd-rules")
	desired := rule.DeepCopy()
	unstructured.RemoveNestedField(desired.Object, "metadata", "managedFields")
	require.NoError(t, unstructured.SetNestedSlice(desired.Object, []any{}, "spec", "groups"))
	p, err := plan.Compute([]etcdshapes.Object{rule}, []etcdshapes.Object{desired})
	require.NoError(t, err)
	refused := findings(p, plan.Refused)
	require.Len(t, refused, 1, "%s", p)
	assert.Contains(t, refused[0].Message, "spec: Required value")
}

// appliedAs renames FieldManager's entries of every live object to
// manager's: the stack as an apply by manager left it.
func appliedAs(t *testing.T, live []etcdshapes.Object, manager string) {
	t.Helper()
	for _, o := range live {
		u := o.(*unstructured.Unstructured)
		entries, _, _ := unstructured.NestedSlice(u.Object, "metadata", "managedFields")
		for _, e := range entries {
			if em := e.(map[string]any); em["manager"] == apply.FieldManager {
				em["manager"] = manager
			}
		}
		require.NoError(t, unstructured.SetNestedSlice(u.Object, entries, "metadata", "managedFields"))
	}
}

// TestPlanAsFieldManager: AsFieldManager plans the apply of another field
// manager, by both entry points (ForRequestWith and Compute): the fields
// it applied before are its own (one it no longer sets is removed, not
// kept), every other manager's, "etcdshapes" included, are another's (a
// change of one is a conflict its force takes), and the text and JSON
// name it. The default is apply.FieldManager, for an empty name too.
func TestPlanAsFieldManager(t *testing.T) {
	const mine = "my-operator"
	byRequest := func(t *testing.T, live []etcdshapes.Object, opts ...plan.Option) *plan.Result {
		t.Helper()
		p, _, err := plan.ForRequestWith(fixtureChartRequest(), live, opts)
		require.NoError(t, err)
		return p
	}
	byCompute := func(t *testing.T, live []etcdshapes.Object, opts ...plan.Option) *plan.Result {
		t.Helper()
		desired, err := etcdshapes.Render(fixtureChartRequest())
		require.NoError(t, err)
		p, err := plan.Compute(live, desired, opts...)
		require.NoError(t, err)
		return p
	}
	for name, planOf := range map[string]func(*testing.T, []etcdshapes.Object, ...plan.Option) *plan.Result{"ForRequestWith": byRequest, "Compute": byCompute} {
		t.Run(name, func(t *testing.T) {
			// The stack as my-operator applied it: nothing to do as
			// my-operator; as etcdshapes, nothing changes either (the
			// values are the same), but none of it is its own.
			live := serverLive(t)
			appliedAs(t, live, mine)
			p := planOf(t, live, plan.AsFieldManager(mine))
			assert.True(t, p.Empty(), "%s", p)
			assert.Equal(t, mine, p.FieldManager)
			assert.Contains(t, p.String(), "\nField manager: my-operator, with force; apply with the same (kubectl apply --server-side --field-manager=my-operator --force-conflicts -f -).\n")

			// A sidecar my-operator applied and the render leaves out:
			// removed as my-operator, kept for my-operator as etcdshapes.
			cj := fixtureObject(t, live, "CronJob", "etcd-defrag")
			withSidecar(t, cj)
			ownsTooAs(t, cj, mine, strings.Split(defragPath, "."), sidecarKey)
			o := objectPlan(t, planOf(t, live, plan.AsFieldManager(mine)), "CronJob", "etcd-defrag")
			require.Len(t, o.Changes, 1)
			assert.Equal(t, plan.FieldRemoved, o.Changes[0].Type)
			assert.Empty(t, o.Kept)
			for _, def := range [][]plan.Option{nil, {plan.AsFieldManager("")}, {plan.AsFieldManager(apply.FieldManager)}} {
				p := planOf(t, live, def...)
				assert.Empty(t, p.FieldManager)
				o := objectPlan(t, p, "CronJob", "etcd-defrag")
				assert.Empty(t, o.Changes, "%s", p)
				require.Len(t, o.Kept, 1, "%s", p)
				assert.Equal(t, mine, o.Kept[0].Managers[0].Name)
			}

			// A field etcdshapes applied with another value: as
			// my-operator, a conflict with etcdshapes that force takes.
			live = serverLive(t)
			cj = fixtureObject(t, live, "CronJob", "etcd-defrag")
			require.NoError(t, unstructured.SetNestedField(cj.Object, "30 * * * *", "spec", "schedule"))
			p = planOf(t, live, plan.AsFieldManager(mine))
			o = objectPlan(t, p, "CronJob", "etcd-defrag")
			require.Len(t, o.Conflicts, 1, "%s", p)
			assert.Equal(t, apply.FieldManager, o.Conflicts[0].Managers[0].Name)
			assert.True(t, o.Conflicts[0].ForceTakes)
			assert.Contains(t, p.String(), "conflict with etcdshapes (an apply without force is refused; with force my-operator takes the field)")
			assert.Contains(t, p.String(), "with force, as apply.Requests' callers apply, my-operator takes it.")
			b, err := json.Marshal(p)
			require.NoError(t, err)
			assert.Contains(t, string(b), `"fieldManager":"my-operator"`)
			// As etcdshapes, its own field: a plain change.
			o = objectPlan(t, planOf(t, live), "CronJob", "etcd-defrag")
			assert.Empty(t, o.Conflicts)
			require.Len(t, o.Changes, 1)
		})
	}
}

// TestPlanRefusesBadFieldManager: a name the API server refuses is
// refused by both entry points under "fieldManager", quoted as given, and
// ForRequestWith refuses the options it sets itself.
func TestPlanRefusesBadFieldManager(t *testing.T) {
	live := serverLive(t)
	desired, err := etcdshapes.Render(fixtureChartRequest())
	require.NoError(t, err)
	for _, name := range []string{"a\nb", strings.Repeat("m", apply.MaxFieldManagerLength+1), "bad\xff", "rtl\u202e", "\x1b]52;c;eA==\a"} {
		for which, call := range map[string]func() error{
			"Compute": func() error { _, err := plan.Compute(live, desired, plan.AsFieldManager(name)); return err },
			"ForRequestWith": func() error {
				_, _, err := plan.ForRequestWith(fixtureChartRequest(), live, []plan.Option{plan.AsFieldManager(name)})
				return err
			},
		} {
			err := call()
			var ne *invalid.Error
			require.True(t, errors.As(err, &ne), "%s %q: %v", which, name, err)
			assert.Equal(t, "fieldManager", ne.Field)
			assert.Equal(t, name, ne.Value)
			assert.NotContains(t, err.Error(), "\x1b]", "escaped")
		}
	}
	for _, opt := range []plan.Option{plan.ForStack(naming.Names{}), plan.TargetDataStore("x")} {
		_, _, err := plan.ForRequestWith(fixtureChartRequest(), live, []plan.Option{opt})
		require.ErrorContains(t, err, "ForStack and TargetDataStore are set from the request")
	}
}

// TestPlanDataStoreBasicAuthRemovedNeedsDecision: a DataStore's basicAuth
// that the field manager applied and the render no longer sets is removed
// by the apply: the control planes lose their etcd credentials, a
// decision (as a spec.tlsConfig change is).
func TestPlanDataStoreBasicAuthRemovedNeedsDecision(t *testing.T) {
	p := planCluster(t, func(objs []etcdshapes.Object) {
		ds := liveObject(t, objs, "DataStore", "tenant-demo.kubernetes-demo")
		require.NoError(t, unstructured.SetNestedField(ds.Object, "cm9vdA==", "spec", "basicAuth", "username", "content"))
		addManaged(t, ds, apply.FieldManager, "Apply", "kamaji.clastix.io/v1alpha1",
			`{"f:spec":{"f:basicAuth":{"f:username":{"f:content":{}}},"f:driver":{},"f:endpoints":{},"f:tlsConfig":{}}}`)
	})
	var paths []string
	for _, f := range findings(p, plan.NeedsDecision) {
		paths = append(paths, f.Path)
	}
	assert.Contains(t, paths, "spec.basicAuth", "%s", p)
	assert.False(t, p.SafeToApply())
}

// TestPlanUnknownLiveFieldsOfTheStackNeedDecision: live fields of an
// EtcdCluster or a DataStore that the embedded schema does not know are a
// decision (the API server knows them; an apply by their owner removes
// them, with an effect the plan cannot grade); of another kind a note.
func TestPlanUnknownLiveFieldsOfTheStackNeedDecision(t *testing.T) {
	for _, c := range []struct {
		kind, name string
		decision   bool
	}{
		{"EtcdCluster", "kubernetes-demo-etcd", true},
		{"DataStore", "tenant-demo.kubernetes-demo", true},
		{"CronJob", "kubernetes-demo-etcd-defrag", false},
	} {
		t.Run(c.kind, func(t *testing.T) {
			p := planCluster(t, func(objs []etcdshapes.Object) {
				o := liveObject(t, objs, c.kind, c.name)
				require.NoError(t, unstructured.SetNestedField(o.Object, int64(1), "spec", "zzNewerField"))
				addManaged(t, o, apply.FieldManager, "Apply", o.GetAPIVersion(), `{"f:spec":{"f:zzNewerField":{}}}`)
			})
			var got []plan.Finding
			for _, f := range p.AllFindings() {
				if strings.Contains(f.Message, "does not know") {
					got = append(got, f)
				}
			}
			require.Len(t, got, 1, "%s", p)
			assert.Equal(t, c.decision, got[0].Verdict == plan.NeedsDecision, "%s", p)
			assert.Equal(t, !c.decision, p.SafeToApply(), "%s", p)
		})
	}
}

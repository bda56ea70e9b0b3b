package plan_test

import (
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// mergeFields is the union of two fieldsV1 sets.
func mergeFields(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		am, aok := out[k].(map[string]any)
		bm, bok := v.(map[string]any)
		if aok && bok {
			out[k] = mergeFields(am, bm)
		} else {
			out[k] = v
		}
	}
	return out
}

// setApplied sets value at path in u, as if FieldManager had applied it
// (a render of other values): the field joins FieldManager's fieldsV1.
func setApplied(t *testing.T, u *unstructured.Unstructured, value any, path ...string) {
	t.Helper()
	require.NoError(t, unstructured.SetNestedField(u.Object, runtime.DeepCopyJSONValue(value), path...))
	only := map[string]any{"apiVersion": u.GetAPIVersion(), "kind": u.GetKind(),
		"metadata": map[string]any{"name": u.GetName(), "namespace": u.GetNamespace()}}
	require.NoError(t, unstructured.SetNestedField(only, runtime.DeepCopyJSONValue(value), path...))
	fields, err := plan.AppliedFieldsV1(only)
	require.NoError(t, err)
	entries, _, _ := unstructured.NestedSlice(u.Object, "metadata", "managedFields")
	found := false
	for _, e := range entries {
		em := e.(map[string]any)
		if em["manager"] == apply.FieldManager && em["operation"] == "Apply" {
			em["fieldsV1"] = mergeFields(em["fieldsV1"].(map[string]any), fields)
			found = true
		}
	}
	require.True(t, found, "no %s entry in %s %s", apply.FieldManager, u.GetKind(), u.GetName())
	require.NoError(t, unstructured.SetNestedSlice(u.Object, entries, "metadata", "managedFields"))
}

// withoutManagedFields is live without managedFields, as kubectl get
// prints it without --show-managed-fields (and a saved render has it).
func withoutManagedFields(live []etcdshapes.Object) []etcdshapes.Object {
	for _, o := range live {
		unstructured.RemoveNestedField(o.(*unstructured.Unstructured).Object, "metadata", "managedFields")
	}
	return live
}

// blocking are the paths of a plan's refused and needs-decision findings.
func blocking(p *plan.Result) []string {
	var out []string
	for _, f := range p.AllFindings() {
		if f.Verdict == plan.Refused || f.Verdict == plan.NeedsDecision {
			out = append(out, f.Object.Kind+" "+f.Path)
		}
	}
	return out
}

// TestUnknownOwnershipIsNeverWeaker: the same change planned with the
// live managedFields (the field applied by etcdshapes, the manager the
// plan is of) and without them (a live file from kubectl get without
// --show-managed-fields, or a saved render) never gets a weaker verdict
// without them: where the plan with managedFields is not safe, the plan
// without is not safe either, with a refusal or a decision on the same
// field. The class is every field whose removal is refused or shapes the
// members (plan's unownedRemovalFields: the immutable fields and the
// member fields of the EtcdCluster, the DataStore's), each set live to a
// value the render leaves out, and changes the render makes itself.
// Without managedFields the verdict line says it is qualified.
func TestUnknownOwnershipIsNeverWeaker(t *testing.T) {
	// A live value of each field that the etcd chart's render (its
	// defaults, in tenant-fixture) leaves out; "" for a field the render
	// always sets whole, so that no apply can leave a live value of it
	// behind.
	samples := map[string]struct {
		value any
		path  []string
	}{
		"EtcdCluster spec.tls":                      {map[string]any{"serverIssuerRef": map[string]any{"name": "other-issuer"}}, []string{"spec", "tls", "client", "certManager"}},
		"EtcdCluster spec.storage.storageClassName": {"local", []string{"spec", "storage", "storageClassName"}},
		"EtcdCluster spec.storage.medium":           {"Memory", []string{"spec", "storage", "medium"}},
		"EtcdCluster spec.bootstrap": {map[string]any{"restore": map[string]any{"source": map[string]any{
			"pvc": map[string]any{"claimName": "backups", "subPath": "etcd-snapshot-0.db"}}}}, []string{"spec", "bootstrap"}},
		"EtcdCluster spec.auth":                      {map[string]any{"enabled": false}, []string{"spec", "auth"}},
		"DataStore spec.driver":                      {}, // always rendered
		"EtcdCluster spec.resources":                 {"1Gi", []string{"spec", "resources", "requests", "ephemeral-storage"}},
		"EtcdCluster spec.affinity":                  {map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{"nodeSelectorTerms": []any{map[string]any{"matchExpressions": []any{map[string]any{"key": "disk", "operator": "In", "values": []any{"ssd"}}}}}}}, []string{"spec", "affinity", "nodeAffinity"}},
		"EtcdCluster spec.topologySpreadConstraints": {}, // a list the render sets whole
		"EtcdCluster spec.imagePullSecrets":          {[]any{map[string]any{"name": "regcred"}}, []string{"spec", "imagePullSecrets"}},
		"EtcdCluster spec.options":                   {}, // the render sets every option the CRD has
		"EtcdCluster spec.additionalMetadata":        {map[string]any{"team": "a"}, []string{"spec", "additionalMetadata", "annotations"}},
		"DataStore spec.endpoints":                   {}, // a list the render sets whole
		"DataStore spec.tlsConfig":                   {"Zm9v", []string{"spec", "tlsConfig", "clientCertificate", "certificate", "content"}},
		"DataStore spec.basicAuth":                   {map[string]any{"username": map[string]any{"content": "cm9vdA=="}}, []string{"spec", "basicAuth"}},
	}
	fields := plan.UnownedRemovalFields()
	for _, f := range fields {
		_, ok := samples[f]
		assert.True(t, ok, "%s: give it a live value the render leaves out (or \"\" if the render always sets it whole)", f)
	}
	type change struct {
		name string
		live func(t *testing.T, live []etcdshapes.Object)
		req  func(r *etcdshapes.Request)
	}
	var changes []change
	for _, f := range fields {
		s := samples[f]
		if s.value == nil {
			continue
		}
		kind, _, _ := strings.Cut(f, " ")
		name := "etcd"
		if kind == "DataStore" {
			name = "tenant-fixture"
		}
		changes = append(changes, change{name: f, live: func(t *testing.T, live []etcdshapes.Object) {
			for _, o := range live {
				if u := o.(*unstructured.Unstructured); u.GetKind() == kind && u.GetName() == name {
					setApplied(t, u, s.value, s.path...)
					return
				}
			}
			t.Fatalf("no live %s %s", kind, name)
		}})
	}
	values := func(v map[string]any) func(r *etcdshapes.Request) {
		return func(r *etcdshapes.Request) { r.Values = v }
	}
	changes = append(changes,
		change{name: "replicas 3 -> 1", req: values(map[string]any{"replicas": 1})},
		change{name: "a smaller volume", req: values(map[string]any{"size": "1Gi"})},
		change{name: "a storage class added", req: values(map[string]any{"storageClass": "local"})},
		change{name: "a skipped minor version", req: values(map[string]any{"version": "3.4.30"})},
		change{name: "other resources", req: values(map[string]any{"resources": map[string]any{"cpu": "2"}})},
	)
	for _, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			planOf := func(live []etcdshapes.Object) *plan.Result {
				req := fixtureChartRequest()
				if c.req != nil {
					c.req(&req)
				}
				p, _, err := plan.ForRequest(req, live)
				require.NoError(t, err)
				return p
			}
			live := serverLive(t)
			if c.live != nil {
				c.live(t, live)
			}
			with := planOf(live)
			without := planOf(withoutManagedFields(live))
			assert.Contains(t, without.Summary(), ", qualified: ", "%s", without)
			if with.SafeToApply() {
				return
			}
			require.False(t, without.SafeToApply(), "with managedFields:\n%s\nwithout:\n%s", with, without)
			// Each field blocked with managedFields is blocked without
			// them: the same field, or one within the other (a removal
			// reported leaf by leaf, a decision on the whole value).
			covered := func(b string) bool {
				for _, o := range blocking(without) {
					if o == b || strings.HasPrefix(b, o+".") || strings.HasPrefix(o, b+".") {
						return true
					}
				}
				return false
			}
			for _, b := range blocking(with) {
				assert.True(t, covered(b), "%s: not blocked without managedFields\nwith managedFields:\n%s\nwithout:\n%s", b, with, without)
			}
		})
	}
}

// TestPlanSaysOtherManagersOwnTheStack: a live stack every field of
// which another manager owns (applied as kubectl apply --server-side
// does, under "kubectl") planned as etcdshapes says so (OtherOwners, the
// text's paragraph, the qualified verdict), and a field the render no
// longer sets is kept; planned as kubectl, the same field is removed.
// The JSON form names the owners. A stack the manager applied says
// nothing of the kind.
func TestPlanSaysOtherManagersOwnTheStack(t *testing.T) {
	live := serverLive(t)
	setApplied(t, fixtureObject(t, live, "EtcdCluster", "etcd"), "local", "spec", "storage", "storageClassName")
	p, _, err := plan.ForRequest(fixtureChartRequest(), live)
	require.NoError(t, err)
	assert.Nil(t, p.OtherOwners)
	assert.NotContains(t, p.String(), "Owned by other managers")

	appliedAs(t, live, "kubectl")
	p, _, err = plan.ForRequest(fixtureChartRequest(), live)
	require.NoError(t, err)
	require.NotNil(t, p.OtherOwners, "%s", p)
	assert.Equal(t, []plan.ManagerCount{{Name: "kubectl", Objects: p.OtherOwners.Objects}}, p.OtherOwners.Managers)
	assert.True(t, p.SafeToApply(), "%s", p)
	assert.Contains(t, p.String(), "\nOwned by other managers: etcdshapes, the field manager this plan is of, owns no field of the ")
	assert.Contains(t, p.String(), "= spec.storage.storageClassName: kept (owned by kubectl)")
	assert.True(t, strings.HasSuffix(p.String(), "\nNo changes, qualified: field manager etcdshapes owns no live field (Owned by other managers, above).\n"), "%s", p)
	b, err := p.MarshalJSON()
	require.NoError(t, err)
	assert.Contains(t, string(b), `"otherOwners":{"objects":`)

	p, _, err = plan.ForRequestWith(fixtureChartRequest(), live, []plan.Option{plan.AsFieldManager("kubectl")})
	require.NoError(t, err)
	assert.Nil(t, p.OtherOwners)
	assert.False(t, p.SafeToApply(), "%s", p)
	assert.Contains(t, p.String(), `- spec.storage.storageClassName: "local"`)
}

// TestExpectExisting: a plan that finds nothing of the stack live is of a
// fresh install, which needs a decision, and its verdict says so; with
// FreshInstall it is safe, with a note; with ExpectExisting it needs a
// decision that says the stack is expected. A live stack is no matter,
// but with FreshInstall (the install is not fresh).
func TestExpectExisting(t *testing.T) {
	p, _, err := plan.ForRequest(fixtureChartRequest(), nil)
	require.NoError(t, err)
	assert.True(t, p.NothingLive)
	assert.False(t, p.SafeToApply(), "%s", p)
	assert.Equal(t, "Not safe to apply: 0 refused by the API server, 1 need a decision.", p.Summary())
	require.Len(t, findings(p, plan.NeedsDecision), 1)
	assert.Contains(t, findings(p, plan.NeedsDecision)[0].Message, "to plan a fresh install, say so: etcdshapes plan --fresh-install (plan.FreshInstall)")

	p, _, err = plan.ForRequestWith(fixtureChartRequest(), nil, []plan.Option{plan.FreshInstall()})
	require.NoError(t, err)
	assert.True(t, p.NothingLive)
	assert.True(t, p.SafeToApply(), "%s", p)
	assert.Equal(t, "Safe to apply.", p.Summary())

	p, _, err = plan.ForRequestWith(fixtureChartRequest(), nil, []plan.Option{plan.ExpectExisting()})
	require.NoError(t, err)
	assert.True(t, p.NothingLive)
	assert.False(t, p.SafeToApply(), "%s", p)
	assert.Equal(t, "Not safe to apply: 0 refused by the API server, 1 need a decision.", p.Summary())
	require.Len(t, findings(p, plan.NeedsDecision), 1)
	assert.Contains(t, findings(p, plan.NeedsDecision)[0].Message, "yet the stack is expected to exist")

	p, _, err = plan.ForRequestWith(fixtureChartRequest(), serverLive(t), []plan.Option{plan.ExpectExisting()})
	require.NoError(t, err)
	assert.True(t, p.Empty(), "%s", p)
	assert.Equal(t, "No changes.", p.Summary())

	p, _, err = plan.ForRequestWith(fixtureChartRequest(), serverLive(t), []plan.Option{plan.FreshInstall()})
	require.NoError(t, err)
	assert.False(t, p.NothingLive)
	assert.Equal(t, "Not safe to apply: 0 refused by the API server, 1 need a decision.", p.Summary())
	assert.Contains(t, findings(p, plan.NeedsDecision)[0].Message, "a fresh install was expected (--fresh-install, plan.FreshInstall), but the stack is live: ")
}

// TestUpdateEntryOfTheManagerIsAnotherManager: a stack whose managedFields
// name the plan's field manager only with operation Update (a `kubectl
// create --field-manager etcdshapes`, an operator's client.Update) was
// never applied by it: the API server keeps an Update manager's fields
// when an apply stops setting them, so the plan says the stack is owned
// by another manager, naming it with its operation, as it does for
// another name.
func TestUpdateEntryOfTheManagerIsAnotherManager(t *testing.T) {
	live := serverLive(t)
	for _, o := range live {
		u := o.(*unstructured.Unstructured)
		entries, _, _ := unstructured.NestedSlice(u.Object, "metadata", "managedFields")
		for _, e := range entries {
			if em := e.(map[string]any); em["manager"] == apply.FieldManager {
				em["operation"] = "Update"
			}
		}
		require.NoError(t, unstructured.SetNestedSlice(u.Object, entries, "metadata", "managedFields"))
	}
	p, _, err := plan.ForRequest(fixtureChartRequest(), live)
	require.NoError(t, err)
	require.NotNil(t, p.OtherOwners, "%s", p)
	assert.Equal(t, []plan.ManagerCount{{Name: apply.FieldManager + " (Update)", Objects: p.OtherOwners.Objects}}, p.OtherOwners.Managers)
	assert.Contains(t, p.String(), "\nOwned by other managers: etcdshapes, the field manager this plan is of, owns no field of the ")
}

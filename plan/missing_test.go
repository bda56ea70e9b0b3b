package plan_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testtier"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// identityKind reports the kinds whose absence from a live stack means a
// broken or misread live file (or a stack that lost its etcd, its
// DataStore or its PKI): creating one is never safe while the rest of the
// stack is live.
func identityKind(kind string) bool {
	return slices.Contains([]string{"EtcdCluster", "DataStore", "Issuer", "Certificate"}, kind)
}

// withReplicas is the scenario's request with its member count changed
// (3 -> 1, or 1 -> 3 where it has one member).
func withReplicas(t *testing.T, s golden.Scenario) etcdshapes.Request {
	t.Helper()
	req := scenarioRequest(t, s)
	values := map[string]any{}
	for k, v := range req.Values {
		values[k] = v
	}
	// 3 -> 1, or 1 -> 3 where the scenario has one member.
	flip := func(v any) int64 {
		if fmt.Sprint(v) == "1" {
			return 3
		}
		return 1
	}
	if s.Caller == naming.CallerCluster {
		etcdValues, _ := values["etcd"].(map[string]any)
		e := map[string]any{}
		for k, v := range etcdValues {
			e[k] = v
		}
		e["replicas"] = flip(e["replicas"])
		values["etcd"] = e
	} else {
		values["replicas"] = flip(values["replicas"])
	}
	req.Values = values
	return req
}

// TestPlanMissingLiveObject: every object of a live stack, for every
// shape of both callers, removed from the live objects while the rest of
// the stack is live (a kubectl get that dropped one kind: RBAC
// Forbidden, a kind left out, a failure whose exit status was ignored),
// planned through ForRequest and through Compute, with the values as
// they are and with the member count changed (the change the missing
// EtcdCluster would hide). An EtcdCluster, a DataStore, an Issuer or a
// Certificate to create is never safe: a decision naming the kind, saying
// the live file may lack it and the command that fetches it; the missing
// EtcdCluster's decision carries the live evidence of its member count
// (the WorkloadMonitor's). A kept Secret missing while its sibling is live
// is a decision; both missing (the Secrets left out of the fetch, as
// operator.md allows) and every other kind (a shape new in this version,
// an API newly served) is a note, and the plan stays safe. The stacks
// with the monitoring APIs hold every shape (checked below): the quick
// tier's; the slow tier adds the same removals from the demo and default
// stacks.
func TestPlanMissingLiveObject(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range []string{"etcd-monitoring-apis", "cluster-monitoring-apis", "cluster-demo", "etcd-defaults"} {
		s := goldentest.Scenario(t, name)
		live := scenarioObjects(t, s)
		quick := strings.HasSuffix(name, "-monitoring-apis")
		for i := range live {
			u := live[i].(*unstructured.Unstructured)
			kind, objName := u.GetKind(), u.GetName()
			if kind == "KamajiControlPlane" || etcdshapes.IsUninstallHook(u) {
				continue
			}
			if quick {
				seen[kind] = true
			}
			t.Run(s.Name+"/"+kind+"/"+objName, func(t *testing.T) {
				if !quick {
					testtier.SkipUnlessSlow(t, "the removals from a stack without the monitoring APIs")
				}
				rest := slices.Delete(slices.Clone(live), i, i+1)
				for _, changed := range []bool{false, true} {
					req := scenarioRequest(t, s)
					if changed {
						req = withReplicas(t, s)
					}
					p, desired, err := plan.ForRequest(req, rest)
					require.NoError(t, err)
					checkMissing(t, p, s, u, changed)
					// Compute of the same desired objects grades alike.
					rendered, err := etcdshapes.Render(req)
					require.NoError(t, err)
					q, err := plan.Compute(rest, rendered)
					require.NoError(t, err)
					checkMissing(t, q, s, u, changed)
					require.Equal(t, p.SafeToApply(), q.SafeToApply())
					_ = desired
				}
			})
		}
	}
	for _, sh := range etcdshapes.Shapes() {
		if len(sh.Callers) == 0 || sh.Hook == "post-delete" {
			continue
		}
		require.True(t, seen[sh.Kind.Kind], "no row removes a %s (shape %s)", sh.Kind.Kind, sh.ID)
	}
}

// checkMissing checks the plan of a live stack without u.
func checkMissing(t *testing.T, p *plan.Result, s golden.Scenario, u *unstructured.Unstructured, changed bool) {
	t.Helper()
	kind, name := u.GetKind(), u.GetName()
	op := objectPlan(t, p, kind, name)
	require.Equal(t, plan.Create, op.Action, "%s", p)
	require.False(t, p.NothingLive)
	var decision, note *plan.Finding
	for i, f := range op.Findings {
		switch {
		case f.Verdict == plan.NeedsDecision && strings.HasPrefix(f.Message, "missing from the live objects: "):
			decision = &op.Findings[i]
		case f.Verdict == plan.Note && strings.HasPrefix(f.Message, "not among the live objects: "):
			note = &op.Findings[i]
		}
	}
	gvk := u.GroupVersionKind()
	gvr, ok := etcdshapes.ResourceFor(gvk)
	require.True(t, ok, "%s is a kind of the table of shapes", gvk)
	resource := gvr.Resource
	if gvk.Group != "" {
		resource += "." + gvk.Group
	}
	fetch := "kubectl get " + resource + " " + name + " -o yaml --show-managed-fields"
	if ns := u.GetNamespace(); ns != "" {
		fetch = "kubectl get -n " + ns + " " + resource + " " + name + " -o yaml --show-managed-fields"
	}
	// The Secrets are kept placeholders: one missing while its sibling is
	// live says the file is broken.
	secretDecision := kind == "Secret"
	if identityKind(kind) || secretDecision {
		require.NotNil(t, decision, "%s %s missing: no decision\n%s", kind, name, p)
		require.Nil(t, note)
		require.False(t, p.SafeToApply(), "%s", p)
		require.Contains(t, decision.Message, "but not this "+kind)
		require.Contains(t, decision.Message, "the live file lacks it")
		require.Contains(t, decision.Message, fetch)
		if kind == "EtcdCluster" && changed {
			require.Contains(t, decision.Message, "live WorkloadMonitor "+s.Namespace+"/"+name+" counts")
			require.Contains(t, decision.Message, "quorum")
		}
		if kind == "EtcdCluster" && !changed {
			require.NotContains(t, decision.Message, "counts")
		}
		return
	}
	require.Nil(t, decision, "%s %s missing: %v", kind, name, decision)
	require.NotNil(t, note, "%s %s missing: no note\n%s", kind, name, p)
	require.Contains(t, note.Message, "but not this "+kind)
	require.Contains(t, note.Message, fetch)
	if !changed {
		require.True(t, p.SafeToApply(), "%s", p)
	}
}

// Both of the etcd chart's kept Secrets left out of the live file (the
// fetch of the Secrets skipped, as operator.md allows, so that the file
// holds no private key): a note each, the plan safe. One left out while
// the other is live: the file is broken, a decision.
func TestPlanMissingKeptSecrets(t *testing.T) {
	s := goldentest.Scenario(t, "etcd-defaults")
	live := slices.DeleteFunc(scenarioObjects(t, s), func(o etcdshapes.Object) bool {
		return o.GetObjectKind().GroupVersionKind().Kind == "Secret"
	})
	p, _, err := plan.ForRequest(scenarioRequest(t, s), live)
	require.NoError(t, err)
	require.True(t, p.SafeToApply(), "%s", p)
	for _, name := range []string{"etcd-ca-tls", "etcd-client-tls"} {
		op := objectPlan(t, p, "Secret", name)
		require.Equal(t, plan.Create, op.Action)
		require.Len(t, op.Findings, 1)
		require.Equal(t, plan.Note, op.Findings[0].Verdict)
		require.Contains(t, op.Findings[0].Message, "no Secret of the stack is live")
	}
}

// The legit creates in a live stack stay safe: an optional API newly
// served (the stack rendered without the VPA, the VMPodScrape and the
// CiliumNetworkPolicy, now planned with their APIs), each with a note.
func TestPlanNewlyServedAPIStaysSafe(t *testing.T) {
	live := scenarioObjects(t, goldentest.Scenario(t, "cluster-demo-noapis"))
	req := scenarioRequest(t, goldentest.Scenario(t, "cluster-demo"))
	req.APIVersions = append(slices.Clone(req.APIVersions), etcdshapes.APIPodMonitor, etcdshapes.APIGrafanaDashboard)
	p, _, err := plan.ForRequest(req, live)
	require.NoError(t, err)
	require.True(t, p.SafeToApply(), "%s", p)
	require.Equal(t, 5, p.Count(plan.Create), "%s", p)
	for _, o := range p.Objects {
		if o.Action != plan.Create {
			continue
		}
		require.Len(t, o.Findings, 1, "%s", p)
		require.Equal(t, plan.Note, o.Findings[0].Verdict)
		require.Contains(t, o.Findings[0].Message, "its API newly served")
	}
}

// The stack's KamajiControlPlane alone, on another DataStore (a cluster
// leaving a shared datastore for its own), is no evidence of the stack's
// etcd: its creates are those of a new stack, and only the datastore move
// needs a decision. (On the stack's own DataStore it is evidence:
// TestPartlyLiveStackIsNeverSafe.)
func TestPlanMissingNeedsAStack(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	kcp := kamajiControlPlane(s.Namespace, s.Release, "tenant-root")
	req := scenarioRequest(t, s)
	req.Live.DataStoreName = "tenant-demo.kubernetes-demo"
	p, _, err := plan.ForRequest(req, []etcdshapes.Object{kcp})
	require.NoError(t, err)
	for _, f := range p.AllFindings() {
		require.NotContains(t, f.Message, "the live objects: ", "%s", p)
	}
	require.Len(t, findings(p, plan.NeedsDecision), 1, "%s", p)
	require.False(t, p.NothingLive)
	require.Len(t, p.MissingCore, 2, "the KamajiControlPlane is live, the core is not")
	// With ExpectExisting, the core's absence is a decision too.
	p, _, err = plan.ForRequestWith(req, []etcdshapes.Object{kcp}, []plan.Option{plan.ExpectExisting()})
	require.NoError(t, err)
	require.Len(t, findings(p, plan.NeedsDecision), 2, "%s", p)
}

// A live object of the stack's kind and name in another namespace than
// the release's (a hand-edited file, a fetch from two namespaces) is
// noted, never silently ignored; with the EtcdCluster moved so, creating
// the release's is a decision. Objects of the stack's kinds in other
// namespaces are counted.
func TestPlanStackKindsInAnotherNamespace(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	live := scenarioObjects(t, s)
	liveObject(t, live, "EtcdCluster", "kubernetes-demo-etcd").SetNamespace("tenant-other")
	other := scenarioObjects(t, goldentest.Scenario(t, "etcd-defaults")) // tenant-root
	p, _, err := plan.ForRequest(withReplicas(t, s), append(live, other...))
	require.NoError(t, err)
	require.False(t, p.SafeToApply())
	var note *plan.Finding
	for i, f := range p.Findings {
		if f.Verdict == plan.Note && strings.Contains(f.Message, "in other namespaces than tenant-demo") {
			note = &p.Findings[i]
		}
	}
	require.NotNil(t, note, "%s", p)
	require.Contains(t, note.Message, "EtcdCluster tenant-other/kubernetes-demo-etcd")
	names, err := naming.ForCluster(s.Namespace, s.Release)
	require.NoError(t, err)
	scope, err := etcdshapes.Scope(names)
	require.NoError(t, err)
	kinds := map[string]bool{"KamajiControlPlane": true}
	for _, o := range scope {
		kinds[o.Kind.Kind] = true
	}
	n := 1
	for _, o := range other {
		if o.GetNamespace() != "" && kinds[o.GetObjectKind().GroupVersionKind().Kind] {
			n++
		}
	}
	require.Contains(t, note.Message, strconv.Itoa(n)+" live objects of the stack's kinds")
	op := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	require.Equal(t, plan.Create, op.Action)
	require.True(t, slices.ContainsFunc(op.Findings, func(f plan.Finding) bool { return f.Verdict == plan.NeedsDecision }), "%s", p)
}

// A live file that holds one object of the stack only (the recipe's
// second kubectl get, of the DataStores, succeeded while the first, of
// the namespace, failed; a fetch of one kind) is a live stack: creating
// its EtcdCluster over it is a decision, whichever object it is, the Helm
// uninstall hooks and the kept Secrets included (each exists only where
// the stack was installed: the cleanup hook deletes the Secrets); only a
// DataStore of the release's name that points at another etcd is not
// (TestPlanCollidingDataStoreNames). TestPartlyLiveStackIsNeverSafe holds
// every kind that refers to a stack to the same rule.
func TestPlanOneLiveObjectIsAStack(t *testing.T) {
	for _, name := range []string{"etcd-monitoring-apis", "cluster-monitoring-apis"} {
		s := goldentest.Scenario(t, name)
		live := scenarioObjects(t, s)
		req := scenarioRequest(t, s)
		for _, o := range live {
			u := o.(*unstructured.Unstructured)
			if u.GetKind() == "EtcdCluster" {
				continue
			}
			t.Run(s.Name+"/"+u.GetKind()+"/"+u.GetName(), func(t *testing.T) {
				p, _, err := plan.ForRequest(req, []etcdshapes.Object{o})
				require.NoError(t, err)
				op := objectPlan(t, p, "EtcdCluster", map[naming.Caller]string{naming.CallerEtcd: "etcd"}[s.Caller]+map[naming.Caller]string{naming.CallerCluster: "kubernetes-demo-etcd"}[s.Caller])
				require.Equal(t, plan.Create, op.Action)
				decided := slices.ContainsFunc(op.Findings, func(f plan.Finding) bool {
					return f.Verdict == plan.NeedsDecision && strings.HasPrefix(f.Message,
						"missing from the live objects: the live file is partial, or the stack lost it: 1 live object is of the stack or refers to it ("+u.GetKind()+" ")
				})
				require.True(t, decided, "%s", p)
				require.False(t, p.SafeToApply(), "%s", p)
			})
		}
	}
}

// The restore procedure (docs/procedures.md): the EtcdCluster deleted,
// the rest of the stack live, the cluster planned again with a restore
// source. Its create is the restore's decision, and says so.
func TestPlanMissingEtcdClusterRestored(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	live := slices.DeleteFunc(scenarioObjects(t, s), func(o etcdshapes.Object) bool {
		return o.GetObjectKind().GroupVersionKind().Kind == "EtcdCluster"
	})
	src := v1alpha2.SnapshotLocation{S3: &v1alpha2.S3Location{Endpoint: "https://s3.example.com", Bucket: "backups", Key: "kubernetes-demo-etcd-snapshot-0.db",
		CredentialsSecretRef: corev1.LocalObjectReference{Name: "s3-credentials"}}}
	p, _, err := plan.ForRequest(scenarioRequest(t, s), live, apply.ForKind(etcd.Restore(src)))
	require.NoError(t, err)
	op := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	require.Equal(t, plan.Create, op.Action)
	require.False(t, p.SafeToApply())
	require.True(t, slices.ContainsFunc(op.Findings, func(f plan.Finding) bool {
		return f.Verdict == plan.NeedsDecision && strings.Contains(f.Message, "or it is gone, and the apply creates a new etcd, bootstrapped from the snapshot")
	}), "%s", p)
}

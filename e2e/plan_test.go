//go:build apiserver

package e2e

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"

	"github.com/etcdshapes/etcdshapes"
	etcdv1alpha2 "github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	kamajiv1alpha1 "github.com/etcdshapes/etcdshapes/apis/kamaji/v1alpha1"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The plan test's stacks share one tenant namespace, as the etcd chart's
// etcd and the tenant clusters' etcds do in Cozystack.
const (
	planNS      = "tenant-plan"
	planRelease = "kubernetes-plan"
	// restoreRelease is a second tenant cluster, created from a snapshot.
	restoreRelease = "kubernetes-restore"
)

const planClusterValues = `
etcd:
  replicas: 3
_cluster:
  etcd-storage-class-local: plan-local
  etcd-storage-class-replicated: plan-replicated
`

// planUpgradeValues changes the platform's inputs: other storage-class
// keys (which must not move the live cluster) and other ratios.
const planUpgradeValues = `
_cluster:
  etcd-storage-class-local: plan-local-v2
  etcd-storage-class-replicated: plan-replicated-v2
  cpu-allocation-ratio: "5"
  memory-allocation-ratio: "2"
`

// planTally counts what the plan test confirmed against the server.
type planTally struct {
	created, unchanged, refused, decision, safe, deleted, planOnly int
	covered                                                        map[string]bool
}

func (pt *planTally) cover(s string) {
	if pt.covered == nil {
		pt.covered = map[string]bool{}
	}
	pt.covered[s] = true
}

// planCase is one desired state: a request and typed edits of its objects.
type planCase struct {
	name string
	req  etcdshapes.Request
	mods []apply.Modifier
	// plan, when set, plans the case instead of plan.ForRequest: a Go
	// caller's Plan of desired objects it built itself.
	plan func(live []etcdshapes.Object) (*plan.Result, []etcdshapes.Object, error)
	// fresh plans the case as a fresh install (plan.FreshInstall): nothing
	// of its stack is live. Without it, nothing live is a decision.
	fresh bool
}

// TestPlanAgainstServer installs an etcd chart stack and a tenant cluster's
// stack for real, with apply.Requests sent as server-side apply
// (field manager apply.FieldManager), reads them back as live objects
// (lists, with managedFields) and checks every plan verdict against what
// the API server does with the same apply:
//
//   - a stack planned against itself is empty and safe, and re-applying it
//     writes nothing (no resourceVersion moves);
//   - every change the plan marks refused is rejected by the server, for
//     exactly the objects the plan names, and the live state is unchanged;
//   - every change the plan marks as needing a decision, every safe change
//     (notes only) and every delete is accepted, after which the same
//     request plans empty again.
func TestPlanAgainstServer(t *testing.T) {
	ctx := context.Background()
	var pt planTally
	defer func() {
		summaries.add("plan verdicts confirmed by the server: %d creates accepted, %d unchanged (re-apply writes nothing), "+
			"%d refused -> rejected, %d needs decision -> accepted, %d safe updates -> accepted, %d deletes -> accepted; "+
			"%d plans of live KamajiControlPlane state (plan only)",
			pt.created, pt.unchanged, pt.refused, pt.decision, pt.safe, pt.deleted, pt.planOnly)
		keys := make([]string, 0, len(pt.covered))
		for k := range pt.covered {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("covered: %s", k)
		}
	}()
	if err := ensureNamespace(ctx, planNS); err != nil {
		t.Fatal(err)
	}

	clusterReq := func(overlays ...string) etcdshapes.Request {
		t.Helper()
		v, err := values.Merge(append([][]byte{[]byte(planClusterValues)}, toBytes(overlays)...)...)
		if err != nil {
			t.Fatal(err)
		}
		return etcdshapes.Request{Caller: naming.CallerCluster, Namespace: planNS, Release: planRelease, ChartVersion: "1.2.3",
			Values: v, APIVersions: golden.AllAPIs}
	}
	chartReq := func(overlays ...string) etcdshapes.Request {
		t.Helper()
		v, err := values.Merge(toBytes(overlays)...)
		if err != nil {
			t.Fatal(err)
		}
		return etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: planNS, ChartVersion: "1.2.3", Values: v}
	}

	// Create: both stacks on an empty namespace (nothing of them live).
	// Planned as they are, nothing live is a decision (a failed kubectl
	// get looks the same); planned as a fresh install (plan.FreshInstall),
	// a note, and the server accepts the creates.
	for _, c := range []planCase{{name: "create the etcd chart stack", req: chartReq(), fresh: true}, {name: "create the tenant cluster stack", req: clusterReq(), fresh: true}} {
		unsaid := c
		unsaid.name, unsaid.fresh = c.name+" (not said to be a fresh install)", false
		if q, _ := planOf(ctx, t, unsaid); !q.NothingLive || q.SafeToApply() || !hasFinding(q, plan.NeedsDecision, "", "") {
			t.Errorf("%s: nothing live, not said to be a fresh install: want a decision:\n%s", unsaid.name, q)
		}
		p := planAccepted(ctx, t, c, plan.Note)
		if p != nil && p.Count(plan.Create) != len(p.Objects) {
			t.Errorf("%s: want only creates:\n%s", c.name, p)
		}
		if p != nil && !t.Failed() {
			pt.created++
			pt.cover("create")
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// Objects of the namespace that belong to no stack: a hand-made
	// snapshot and a snapshot schedule, applied by the same field manager.
	// No plan may delete them. They are applied after the stacks are
	// created: a snapshot schedule of the stack's EtcdCluster with no
	// EtcdCluster live is evidence of a partial live file, which the
	// plan makes a decision (plan/liveness.go).
	n, err := naming.ForCluster(planNS, planRelease)
	if err != nil {
		t.Fatal(err)
	}
	bystanders := bystanderObjects(t, n, "before-upgrade")
	reqs, err := apply.Requests(bystanders)
	if err != nil {
		t.Fatal(err)
	}
	if errs := applyAll(ctx, reqs); len(errs) > 0 {
		t.Fatalf("applying the snapshot objects: %v", errs)
	}

	// Unchanged: the live stacks plan empty and re-applying them writes
	// nothing.
	for _, c := range []planCase{{name: "etcd chart against itself", req: chartReq()}, {name: "tenant cluster against itself", req: clusterReq()}} {
		if planUnchanged(ctx, t, c) {
			pt.unchanged++
			pt.cover("unchanged (plan empty, SafeToApply; server: no write)")
		}
	}

	onCluster := func(fn func(*etcdv1alpha2.EtcdCluster) error) apply.Modifier { return apply.ForKind(fn) }
	restoreSrc, err := etcd.SnapshotFile(s3Destination(n), slotName(t, n, 0))
	if err != nil {
		t.Fatal(err)
	}
	forced := func(class string) etcdshapes.Request {
		r := clusterReq()
		r.Live.StorageClassName = &class
		return r
	}

	// Refused: the server rejects exactly the objects the plan refuses.
	for _, c := range []struct {
		planCase
		path, server string
	}{
		{planCase{name: "TLS server secret changed", req: clusterReq(), mods: []apply.Modifier{onCluster(func(c *etcdv1alpha2.EtcdCluster) error {
			if c.Spec.TLS == nil || c.Spec.TLS.Client == nil || c.Spec.TLS.Client.ServerSecretRef == nil {
				return errors.New("no spec.tls.client.serverSecretRef")
			}
			c.Spec.TLS.Client.ServerSecretRef.Name = "other-server-tls"
			return nil
		})}}, "spec.tls.client.serverSecretRef", "spec.tls is immutable"},
		{planCase{name: "storage class changed (live state overridden)", req: forced("plan-other")},
			"spec.storage.storageClassName", "spec.storage.storageClassName is immutable"},
		{planCase{name: "storage class removed (live state overridden; found from managedFields)", req: forced("")},
			"spec.storage.storageClassName", "spec.storage.storageClassName cannot be added to or removed"},
		{planCase{name: "size shrunk", req: clusterReq(), mods: []apply.Modifier{onCluster(func(c *etcdv1alpha2.EtcdCluster) error {
			c.Spec.Storage.Size = resource.MustParse("2Gi")
			return nil
		})}}, "spec.storage.size", "spec.storage.size cannot be shrunk"},
		{planCase{name: "storage medium changed", req: clusterReq(), mods: []apply.Modifier{onCluster(func(c *etcdv1alpha2.EtcdCluster) error {
			c.Spec.Storage.Medium = etcdv1alpha2.StorageMediumMemory
			return nil
		})}}, "spec.storage.medium", "spec.storage.medium is immutable"},
		{planCase{name: "restore added to a live cluster", req: clusterReq(), mods: []apply.Modifier{apply.ForKind(etcd.Restore(restoreSrc))}},
			"spec.bootstrap", "spec.bootstrap cannot be added to or removed"},
		{planCase{name: "auth added to a live cluster", req: clusterReq(), mods: []apply.Modifier{onCluster(func(c *etcdv1alpha2.EtcdCluster) error {
			c.Spec.Auth = &etcdv1alpha2.AuthSpec{Enabled: true, RootCredentialsSecretRef: &corev1.LocalObjectReference{Name: "root"}}
			return nil
		})}}, "spec.auth", "spec.auth cannot be added to or removed"},
		// Auth turned on through the charts' values, on both callers'
		// live etcds: the CRD's has(self.auth) == has(oldSelf.auth).
		{planCase{name: "auth turned on (etcd.auth values)", req: clusterReq("etcd: {auth: {enabled: true, rootCredentialsSecret: plan-root}}\n")},
			"spec.auth", "spec.auth cannot be added to or removed"},
		{planCase{name: "etcd chart auth turned on (auth values)", req: chartReq("auth: {enabled: true, rootCredentialsSecret: etcd-root}\n")},
			"spec.auth", "spec.auth cannot be added to or removed"},
		{planCase{name: "DataStore driver changed", req: clusterReq(), mods: []apply.Modifier{apply.ForKind(func(d *kamajiv1alpha1.DataStore) error {
			d.Spec.Driver = kamajiv1alpha1.DriverPostgreSQL
			return nil
		})}}, "spec.driver", "Datastore driver is immutable"},
		{planCase{name: "etcd chart size shrunk (values)", req: chartReq("size: 2Gi\n")},
			"spec.storage.size", "spec.storage.size cannot be shrunk"},
		{planCase{name: "RoleBinding roleRef changed", req: chartReq(), mods: []apply.Modifier{apply.ForKind(func(b *rbacv1.RoleBinding) error {
			b.RoleRef.Name = "other-role"
			return nil
		})}}, "roleRef", "roleRef: Invalid value"},
		{planCase{name: "headless Service clusterIP changed", req: chartReq(), mods: []apply.Modifier{apply.ForKind(func(s *corev1.Service) error {
			s.Spec.ClusterIP = "10.0.0.53"
			return nil
		})}}, "spec.clusterIP", "may not change once set"},
	} {
		t.Run("refused/"+c.name, func(t *testing.T) {
			if planRefused(ctx, t, c.planCase, c.path, c.server) {
				pt.refused++
				pt.cover("refused " + c.path)
			}
		})
	}
	// The refusals left the live stacks as they were.
	for _, c := range []planCase{{name: "etcd chart after the refusals", req: chartReq()}, {name: "tenant cluster after the refusals", req: clusterReq()}} {
		if !planUnchanged(ctx, t, c) {
			t.FailNow()
		}
	}

	// Safe and needs-decision updates are accepted, after which the same
	// request plans empty.
	step := func(c planCase, want plan.Verdict, path string, counter *int, label string) {
		t.Helper()
		ok := t.Run(label+"/"+c.name, func(t *testing.T) {
			if planAccepted(ctx, t, c, want, path) != nil && !t.Failed() {
				*counter++
				pt.cover(strings.TrimSpace(label + " " + path))
			}
		})
		if !ok {
			t.FailNow()
		}
	}
	step(planCase{name: "new ratios and storage-class keys, live class kept", req: clusterReq(planUpgradeValues)}, plan.Note, "spec.resources", &pt.safe, "safe")
	step(planCase{name: "replicas 3 -> 1 with other storage-class keys, live class kept", req: clusterReq(planUpgradeValues, "etcd: {replicas: 1}\n")},
		plan.NeedsDecision, "spec.replicas", &pt.decision, "decision")
	checkClass(ctx, t, n, "plan-local", 1)
	upgraded := clusterReq(planUpgradeValues, "etcd: {replicas: 1}\n")
	step(planCase{name: "DataStore endpoints changed", req: upgraded, mods: []apply.Modifier{apply.ForKind(func(d *kamajiv1alpha1.DataStore) error {
		d.Spec.Endpoints = append(d.Spec.Endpoints, "etcd-extra."+planNS+".svc:2379")
		return nil
	})}}, plan.NeedsDecision, "spec.endpoints", &pt.decision, "decision")
	step(planCase{name: "DataStore endpoints changed back", req: upgraded}, plan.NeedsDecision, "spec.endpoints", &pt.decision, "decision")
	// A request that leaves the VPA's API out, against a live VPA: the
	// live object proves the API is served, so plan.ForRequest renders the
	// stack with it and nothing changes (the server writes nothing).
	noVPA := upgraded
	noVPA.APIVersions = []string{etcdshapes.APICiliumNetworkPolicy, etcdshapes.APIVMPodScrape}
	t.Run("unchanged/VPA API not listed: inferred from the live VPA", func(t *testing.T) {
		c := planCase{name: "VPA API not listed", req: noVPA}
		p, _ := planOf(ctx, t, c)
		if len(p.InferredAPIs) != 1 || p.InferredAPIs[0].API != etcdshapes.APIVerticalPodAutoscaler || p.InferredAPIs[0].From.Kind != "VerticalPodAutoscaler" {
			t.Errorf("want the VPA API inferred from the live VPA, got %v", p.InferredAPIs)
		}
		if planUnchanged(ctx, t, c) {
			pt.unchanged++
			pt.cover("unchanged: optional API inferred from its live object")
		}
	})
	// Desired objects built without the VPA (plan.Compute, not plan.ForRequest): the
	// live VPA is deleted, which needs a decision; the server accepts it.
	withoutVPA := func(live []etcdshapes.Object) (*plan.Result, []etcdshapes.Object, error) {
		r := noVPA
		st, err := plan.LiveStateFromObjects(r.Namespace, r.Release, live)
		if err != nil {
			return nil, nil, err
		}
		r.Live = st // the live storage class, as plan.ForRequest reads it
		desired, err := etcdshapes.Render(r)
		if err != nil {
			return nil, nil, err
		}
		p, err := plan.Compute(live, desired)
		return p, desired, err
	}
	step(planCase{name: "VPA left out of the desired objects (Plan): the VPA is deleted", req: noVPA, plan: withoutVPA},
		plan.NeedsDecision, "", &pt.deleted, "delete")
	// A create in a live stack: the VPA is new (its API listed again) or
	// the live objects lack it, which the plan notes.
	step(planCase{name: "VPA API listed again: the VPA is created", req: upgraded}, plan.Note, "", &pt.created, "create")
	step(planCase{name: "new cluster restored from a snapshot", req: etcdshapes.Request{Caller: naming.CallerCluster, Namespace: planNS,
		Release: restoreRelease, Values: upgraded.Values, APIVersions: golden.AllAPIs}, mods: []apply.Modifier{apply.ForKind(etcd.Restore(restoreSrc))}, fresh: true},
		plan.Note, "spec.bootstrap.restore", &pt.created, "create")
	// The quota grows with it, which the running members do not get while
	// the defrag CronJob does: a decision (plan's quotaChange).
	step(planCase{name: "etcd chart size grown (values)", req: chartReq("size: 8Gi\n")}, plan.NeedsDecision, "spec.options.quotaBackendBytes", &pt.decision, "decision")
	step(planCase{name: "etcd chart downgraded 3.6.11 -> 3.5.32", req: chartReq("size: 8Gi\nversion: 3.5.32\n")},
		plan.NeedsDecision, "spec.version", &pt.decision, "decision")
	step(planCase{name: "etcd chart upgraded 3.5.32 -> 3.6.11 (3.5.32: the 3.5 patch release etcd's 3.6 guide requires)", req: chartReq("size: 8Gi\n")}, plan.Note, "spec.version", &pt.safe, "safe")

	// The live KamajiControlPlane, read from the server like the other
	// live objects (plan only: the library never writes it).
	t.Run("kamajicontrolplane", func(t *testing.T) {
		if err := installKCPCRD(ctx); err != nil {
			t.Fatal(err)
		}
		own, shared := n.DataStore(), "tenant-root"
		if err := setKCP(ctx, planNS, planRelease, &own); err != nil {
			t.Fatal(err)
		}
		if planUnchanged(ctx, t, planCase{name: "KamajiControlPlane on the cluster's own DataStore", req: upgraded}) {
			pt.planOnly++
		}
		if err := setKCP(ctx, planNS, planRelease, &shared); err != nil {
			t.Fatal(err)
		}
		p, _ := planOf(ctx, t, planCase{name: "KamajiControlPlane on a shared DataStore", req: upgraded})
		if p != nil {
			if p.Count(plan.Create)+p.Count(plan.Update)+p.Count(plan.Unchanged) != 0 || p.Count(plan.Delete) == 0 {
				t.Errorf("a cluster staying on a shared DataStore renders nothing, so the plan only deletes its stack:\n%s", p)
			}
			for _, want := range []string{"EtcdCluster " + planNS + "/" + n.Cluster, "DataStore " + n.DataStore()} {
				if !hasFinding(p, plan.NeedsDecision, want, "") {
					t.Errorf("deleting %s needs a decision:\n%s", want, p)
				}
			}
			own := upgraded
			own.Live.DataStoreName = n.DataStore()
			ours := map[string]bool{}
			for _, o := range mustRender(t, own) {
				ours[describe(o)] = true
			}
			for _, o := range p.Objects {
				if o.Action == plan.Delete && !ours[o.ObjectRef.String()] {
					t.Errorf("the plan deletes %s, which is not the stack's", o.ObjectRef)
				}
			}
			if !t.Failed() {
				pt.planOnly++
				pt.cover("needs decision: delete EtcdCluster and DataStore (live KamajiControlPlane on a shared DataStore; plan only)")
			}
		}
		if err := setKCP(ctx, planNS, planRelease, nil); err != nil {
			t.Fatal(err)
		}
		p, _ = planOf(ctx, t, planCase{name: "KamajiControlPlane on Kamaji's default DataStore", req: upgraded})
		if p != nil {
			if !hasFinding(p, plan.NeedsDecision, "KamajiControlPlane "+planNS+"/"+planRelease, "spec.dataStoreName") {
				t.Errorf("moving the tenant to its own DataStore is a datastore migration:\n%s", p)
			} else {
				pt.planOnly++
				pt.cover("needs decision: spec.dataStoreName (datastore migration; plan only)")
			}
		}
		if err := setKCP(ctx, planNS, planRelease, &own); err != nil {
			t.Fatal(err)
		}
	})

	// Last, because every later render would shrink it back.
	step(planCase{name: "size grown", req: upgraded, mods: []apply.Modifier{onCluster(func(c *etcdv1alpha2.EtcdCluster) error {
		c.Spec.Storage.Size = resource.MustParse("8Gi")
		return nil
	})}}, plan.Note, "spec.storage.size", &pt.safe, "safe")
	checkClass(ctx, t, n, "plan-local", 1)
}

func toBytes(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

// bystanderObjects are a hand-made snapshot (named snapshot) and a
// snapshot schedule of the tenant cluster n.
func bystanderObjects(t *testing.T, n naming.Names, snapshot string) []etcdshapes.Object {
	t.Helper()
	snap, err := etcd.Snapshot(n, snapshot, pvcDestination(n))
	if err != nil {
		t.Fatal(err)
	}
	sched, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "@daily", Keep: 2, Destination: s3Destination(n)})
	if err != nil {
		t.Fatal(err)
	}
	return []etcdshapes.Object{snap, sched.ServiceAccount, sched.Role, sched.RoleBinding, sched.CronJob}
}

// planOf reads the live objects and plans the case: plan.ForRequest with the
// case's edits as modifiers.
func planOf(ctx context.Context, t *testing.T, c planCase) (*plan.Result, []etcdshapes.Object) {
	t.Helper()
	live, err := readLive(ctx, c.req.Namespace)
	if err != nil {
		t.Fatalf("%s: reading live objects: %v", c.name, err)
	}
	var (
		p       *plan.Result
		desired []etcdshapes.Object
	)
	var opts []plan.Option
	if c.fresh {
		opts = append(opts, plan.FreshInstall())
	}
	if c.plan != nil {
		p, desired, err = c.plan(live)
	} else {
		p, desired, err = plan.ForRequestWith(c.req, live, opts, c.mods...)
	}
	if err != nil {
		t.Fatalf("%s: plan: %v", c.name, err)
	}
	t.Logf("%s:\n%s", c.name, indent(p.String()))
	return p, desired
}

// planUnchanged checks that the case plans empty and safe against the live
// objects, and that applying it anyway writes nothing.
func planUnchanged(ctx context.Context, t *testing.T, c planCase) bool {
	t.Helper()
	p, desired := planOf(ctx, t, c)
	if !p.Empty() || !p.SafeToApply() {
		t.Errorf("%s: want an empty, safe plan:\n%s", c.name, p)
		return false
	}
	before, err := readLive(ctx, c.req.Namespace)
	if err != nil {
		t.Fatal(err)
	}
	reqs, err := apply.Requests(desired)
	if err != nil {
		t.Fatal(err)
	}
	if errs := applyAll(ctx, reqs); len(errs) > 0 {
		t.Errorf("%s: re-applying the unchanged stack was rejected: %v", c.name, errs)
		return false
	}
	after, err := readLive(ctx, c.req.Namespace)
	if err != nil {
		t.Fatal(err)
	}
	rvBefore, rvAfter := resourceVersions(before), resourceVersions(after)
	moved := 0
	for _, r := range reqs {
		ref := refOf(r.Object)
		if rvBefore[ref] != rvAfter[ref] {
			moved++
			t.Errorf("%s: the plan says unchanged, but re-applying %s wrote it (resourceVersion %s -> %s)", c.name, ref, rvBefore[ref], rvAfter[ref])
		}
	}
	return moved == 0
}

// planRefused checks that the plan refuses the case at path and that the
// server agrees: a server-side dry-run apply of the whole stack is
// rejected for exactly the objects the plan refuses, with server naming
// the rule, and a real apply of those objects is rejected and leaves them
// as they were. (Server-side apply is per object: the objects the plan
// does not refuse would be applied, which is why a caller must not apply
// any of a refused plan.)
func planRefused(ctx context.Context, t *testing.T, c planCase, path, server string) bool {
	t.Helper()
	p, desired := planOf(ctx, t, c)
	if p.SafeToApply() {
		t.Errorf("%s: the plan is safe to apply, want refused at %s", c.name, path)
		return false
	}
	refused := map[string]bool{}
	foundPath := false
	for _, f := range p.AllFindings() {
		if f.Verdict != plan.Refused {
			continue
		}
		refused[f.Object.String()] = true
		if f.Path == path {
			foundPath = true
		}
	}
	if !foundPath {
		t.Errorf("%s: no refusal at %s:\n%s", c.name, path, p)
		return false
	}
	reqs, err := apply.Requests(desired)
	if err != nil {
		t.Fatal(err)
	}
	good := true
	check := func(how string, errs map[string]error, reqs []apply.Request) {
		for _, r := range reqs {
			ref := refOf(r.Object)
			err := errs[ref]
			switch {
			case refused[ref] && err == nil:
				good = false
				t.Errorf("%s: the plan refuses %s, but the server accepted it (%s)", c.name, ref, how)
			case refused[ref] && (!apierrors.IsInvalid(err) || !strings.Contains(err.Error(), server)):
				good = false
				t.Errorf("%s: %s was rejected for another reason than %q (%s): %s", c.name, ref, server, how, oneLine(err))
			case refused[ref]:
				t.Logf("%s: rejected as planned (%s): %s", ref, how, oneLine(err))
			case err != nil:
				good = false
				t.Errorf("%s: the plan does not refuse %s, but the server rejected it (%s): %s", c.name, ref, how, oneLine(err))
			}
		}
	}
	check("dry-run apply of the stack", applyAll(ctx, reqs, client.DryRunAll), reqs)

	var refusedReqs []apply.Request
	for _, r := range reqs {
		if refused[refOf(r.Object)] {
			refusedReqs = append(refusedReqs, r)
		}
	}
	before, err := readLive(ctx, c.req.Namespace)
	if err != nil {
		t.Fatal(err)
	}
	check("apply", applyAll(ctx, refusedReqs), refusedReqs)
	after, err := readLive(ctx, c.req.Namespace)
	if err != nil {
		t.Fatal(err)
	}
	rvBefore, rvAfter := resourceVersions(before), resourceVersions(after)
	for ref, rv := range rvBefore {
		if rvAfter[ref] != rv {
			good = false
			t.Errorf("%s: %s changed although the apply was refused", c.name, ref)
		}
	}
	return good
}

// planAccepted checks the plan's strongest verdict (want: "" for no
// finding, Note, or NeedsDecision; refused never), that the finding is at
// path, applies it (deleting what the plan deletes) and checks that the
// server accepts every object and that the same case then plans empty.
func planAccepted(ctx context.Context, t *testing.T, c planCase, want plan.Verdict, path ...string) *plan.Result {
	t.Helper()
	p, desired := planOf(ctx, t, c)
	verdicts := map[plan.Verdict]bool{}
	for _, f := range p.AllFindings() {
		verdicts[f.Verdict] = true
	}
	strongest := plan.Verdict("")
	for _, v := range []plan.Verdict{plan.Note, plan.NeedsDecision, plan.Refused} {
		if verdicts[v] {
			strongest = v
		}
	}
	if strongest != want {
		t.Errorf("%s: strongest verdict %q, want %q:\n%s", c.name, strongest, want, p)
		return nil
	}
	if p.SafeToApply() != (want != plan.NeedsDecision) {
		t.Errorf("%s: SafeToApply() = %v with verdict %q", c.name, p.SafeToApply(), want)
	}
	if len(path) > 0 && path[0] != "" && !hasFinding(p, want, "", path[0]) && !hasChange(p, path[0]) {
		t.Errorf("%s: nothing at %s:\n%s", c.name, path[0], p)
	}
	if p.Empty() {
		t.Errorf("%s: the plan is empty; the case changes nothing", c.name)
	}
	reqs, err := apply.Requests(desired)
	if err != nil {
		t.Fatal(err)
	}
	for ref, err := range applyAll(ctx, reqs) {
		t.Errorf("%s: the plan accepts %s, the server rejected it: %s", c.name, ref, oneLine(err))
	}
	for _, o := range p.Objects {
		if o.Action != plan.Delete {
			continue
		}
		if err := deleteObject(ctx, o.ObjectRef); err != nil {
			t.Errorf("%s: deleting %s: %v", c.name, o.ObjectRef, err)
		}
	}
	if t.Failed() {
		return nil
	}
	again := c
	// After the apply the stack is live: a fresh install's plan is no
	// longer one.
	again.name, again.fresh = again.name+" (after the apply)", false
	after, _ := planOf(ctx, t, again)
	if !after.Empty() {
		t.Errorf("%s: after the apply the same request still plans changes:\n%s", c.name, after)
		return nil
	}
	return p
}

// hasFinding reports a finding with the verdict on the object (any when
// empty) at the path (any when empty).
func hasFinding(p *plan.Result, v plan.Verdict, object, path string) bool {
	for _, f := range p.AllFindings() {
		if f.Verdict == v && (object == "" || f.Object.String() == object) && (path == "" || f.Path == path || strings.HasPrefix(f.Path, path+".")) {
			return true
		}
	}
	return false
}

func hasChange(p *plan.Result, path string) bool {
	for _, o := range p.Objects {
		for _, c := range o.Changes {
			if c.Path == path || strings.HasPrefix(c.Path, path+".") {
				return true
			}
		}
	}
	return false
}

// checkClass checks the live EtcdCluster's storage class and replicas.
func checkClass(ctx context.Context, t *testing.T, n naming.Names, class string, replicas int32) {
	t.Helper()
	c := &etcdv1alpha2.EtcdCluster{}
	if err := k.Get(ctx, client.ObjectKey{Namespace: n.Namespace, Name: n.Cluster}, c); err != nil {
		t.Fatal(err)
	}
	if c.Spec.Storage == nil || c.Spec.Storage.StorageClassName != class || c.Spec.Replicas == nil || *c.Spec.Replicas != replicas {
		t.Errorf("live EtcdCluster: storage %+v, replicas %v; want class %q, replicas %d", c.Spec.Storage, c.Spec.Replicas, class, replicas)
	}
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

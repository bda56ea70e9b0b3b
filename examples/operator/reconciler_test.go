//go:build apiserver

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/kamaji"

	cmv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	"github.com/etcdshapes/etcdshapes"
	etcdv1alpha2 "github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	kamajiv1alpha1 "github.com/etcdshapes/etcdshapes/apis/kamaji/v1alpha1"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/crdpath"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// The test runs the reconciler against a real kube-apiserver (envtest with
// the binaries in $KUBEBUILDER_ASSETS and the CRDs in $ETCDSHAPES_CRDS,
// plus a minimal KamajiControlPlane CRD from testdata). No etcd-operator,
// cert-manager or Kamaji runs: the test checks what the operator sends and
// what the API server accepts, which is the operator's whole job.

var (
	k   client.Client
	cfg *rest.Config
)

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	// ETCDSHAPES_CRDS lists directories like PATH.
	crds := crdpath.Dirs(os.Getenv(crdpath.EnvVar), "")
	if len(crds) == 0 || os.Getenv("KUBEBUILDER_ASSETS") == "" {
		fmt.Fprintln(os.Stderr, "example operator: set KUBEBUILDER_ASSETS (kube-apiserver and etcd) and ETCDSHAPES_CRDS; run `make test-example-operator`. "+crdpath.What)
		return 1
	}
	if err := crdpath.Check(crds, true); err != nil {
		fmt.Fprintln(os.Stderr, "example operator:", err)
		return 1
	}
	s, err := Scheme()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	env := &envtest.Environment{
		Scheme:                   s,
		CRDDirectoryPaths:        append(crds, filepath.Join("testdata")),
		ErrorIfCRDPathMissing:    true,
		ControlPlaneStartTimeout: 2 * time.Minute,
		ControlPlaneStopTimeout:  time.Minute,
	}
	if cfg, err = env.Start(); err != nil {
		_ = env.Stop()
		fmt.Fprintln(os.Stderr, "example operator: starting kube-apiserver and etcd:", err)
		return 1
	}
	code := 1
	if k, err = client.New(cfg, client.Options{Scheme: s}); err == nil {
		code = m.Run()
	} else {
		fmt.Fprintln(os.Stderr, err)
	}
	if err := env.Stop(); err != nil && code == 0 {
		fmt.Fprintln(os.Stderr, "example operator: stopping the control plane:", err)
		code = 1
	}
	return code
}

// harness runs the reconciler directly, one reconcile at a time, so that
// each step's outcome is deterministic.
type harness struct {
	t        *testing.T
	r        *Reconciler
	recorder *events.FakeRecorder
}

func newHarness(t *testing.T) *harness {
	rec := events.NewFakeRecorder(100)
	return &harness{t: t, recorder: rec, r: &Reconciler{
		Client: applyOnly{Client: k}, Reader: k, Mapper: k.RESTMapper(), Recorder: rec, ChartVersion: "1.2.3",
	}}
}

// applies counts the server-side applies the operator made through
// client.Apply.
var applies atomic.Int64

// applyOnly is the operator's client in the tests: it counts server-side
// applies made with client.Apply (client.ApplyConfigurationFromUnstructured
// for the stack, a typed apply configuration for the ConfigMap) and
// refuses server-side apply through Patch (client.RawPatch), so that the
// tests pin the controller-runtime path the docs show.
type applyOnly struct{ client.Client }

func (c applyOnly) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
	applies.Add(1)
	return c.Client.Apply(ctx, obj, opts...)
}

func (c applyOnly) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	if patch.Type() == types.ApplyPatchType {
		return fmt.Errorf("server-side apply of %s through Patch: use client.Apply", obj.GetName())
	}
	return c.Client.Patch(ctx, obj, patch, opts...)
}

// reconcile runs one reconcile of cm and returns the ConfigMap as the
// operator left it and the events it recorded.
func (h *harness) reconcile(cm *corev1.ConfigMap) (*corev1.ConfigMap, []string) {
	h.t.Helper()
	ctx := context.Background()
	if _, err := h.r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(cm)}); err != nil {
		h.t.Fatalf("reconcile: %v", err)
	}
	got := &corev1.ConfigMap{}
	if err := k.Get(ctx, client.ObjectKeyFromObject(cm), got); err != nil {
		h.t.Fatal(err)
	}
	var evs []string
	for {
		select {
		case e := <-h.recorder.Events:
			evs = append(evs, e)
			continue
		default:
		}
		break
	}
	h.t.Logf("%s: %s: %s", got.Annotations[ResultAnnotation], cm.Name, got.Annotations[MessageAnnotation])
	return got, evs
}

func (h *harness) expect(cm *corev1.ConfigMap, evs []string, result Result, event string) {
	h.t.Helper()
	if got := Result(cm.Annotations[ResultAnnotation]); got != result {
		h.t.Fatalf("result %q, want %q: %s\n%s", got, result, cm.Annotations[MessageAnnotation], cm.Annotations[PlanAnnotation])
	}
	if event == "" {
		if len(evs) > 0 {
			h.t.Errorf("events %q, want none", evs)
		}
		return
	}
	for _, e := range evs {
		if strings.HasPrefix(e, event) {
			return
		}
	}
	h.t.Errorf("no %q event in %q", event, evs)
}

func ensureNamespace(t *testing.T, name string) {
	t.Helper()
	err := k.Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
}

// tenantCluster is the names of the tenant cluster release in ns, the
// namespace created.
func tenantCluster(t *testing.T, ns, release string) naming.Names {
	t.Helper()
	n, err := naming.ForCluster(ns, release)
	if err != nil {
		t.Fatal(err)
	}
	ensureNamespace(t, ns)
	return n
}

// create creates o for real; an error fails the test.
func create(t *testing.T, o client.Object, opts ...client.CreateOption) {
	t.Helper()
	if err := k.Create(context.Background(), o, opts...); err != nil {
		t.Fatal(err)
	}
}

func inputConfigMap(namespace, name, release, values string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: map[string]string{StackLabel: StackLabelValue}},
		Data: map[string]string{
			KeyRelease:             release,
			KeyValues:              values,
			KeySnapshotDestination: "pvc:\n  claimName: etcd-backups\n  subPath: " + namespace + "\n",
		},
	}
}

// edit changes the ConfigMap as a user would (another field manager).
func edit(t *testing.T, cm *corev1.ConfigMap, fn func(*corev1.ConfigMap)) {
	t.Helper()
	got := &corev1.ConfigMap{}
	if err := k.Get(context.Background(), client.ObjectKeyFromObject(cm), got); err != nil {
		t.Fatal(err)
	}
	if got.Annotations == nil {
		got.Annotations = map[string]string{}
	}
	fn(got)
	if err := k.Update(context.Background(), got, client.FieldOwner("kubectl-edit")); err != nil {
		t.Fatal(err)
	}
}

func liveCluster(t *testing.T, n naming.Names) *etcdv1alpha2.EtcdCluster {
	t.Helper()
	c := &etcdv1alpha2.EtcdCluster{}
	if err := k.Get(context.Background(), types.NamespacedName{Namespace: n.Namespace, Name: n.Cluster}, c); err != nil {
		t.Fatalf("EtcdCluster %s/%s: %v", n.Namespace, n.Cluster, err)
	}
	return c
}

func checkCluster(t *testing.T, c *etcdv1alpha2.EtcdCluster, class string, replicas int32) {
	t.Helper()
	if c.Spec.Storage == nil || c.Spec.Storage.StorageClassName != class {
		t.Errorf("EtcdCluster %s: storage %+v, want class %q", c.Name, c.Spec.Storage, class)
	}
	if c.Spec.Replicas == nil || *c.Spec.Replicas != replicas {
		t.Errorf("EtcdCluster %s: replicas %v, want %d", c.Name, c.Spec.Replicas, replicas)
	}
}

const opValues = `
etcd:
  replicas: 3
_cluster:
  etcd-storage-class-local: op-local
  etcd-storage-class-replicated: op-replicated
`

// A scale-down to one replica with other storage-class keys: the live
// class must stay (the field is immutable), the member count needs a
// decision.
const opScaleDown = `
etcd:
  replicas: 1
_cluster:
  etcd-storage-class-local: op-local-v2
  etcd-storage-class-replicated: op-replicated-v2
`

// TestCreateUpgradeSnapshot: create the stack, reconcile it unchanged,
// scale it down with other storage-class keys (held for a decision, a
// snapshot taken first), approve, and check that an approval does not
// carry over to the next decision.
func TestCreateUpgradeSnapshot(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t)
	ns, release := "tenant-op", "kubernetes-op"
	n := tenantCluster(t, ns, release)
	cm := inputConfigMap(ns, "etcd-"+release, release, opValues)
	create(t, cm)

	// Create.
	got, evs := h.reconcile(cm)
	h.expect(got, evs, Applied, "Normal Applied")
	c := liveCluster(t, n)
	checkCluster(t, c, "op-local", 3)
	if c.Annotations[ConfigAnnotation] != ns+"/"+cm.Name {
		t.Errorf("EtcdCluster annotations %v, want %s", c.Annotations, ConfigAnnotation)
	}
	if !appliedBy(c.ManagedFields, apply.FieldManager) {
		t.Errorf("EtcdCluster is not applied by %q: %+v", apply.FieldManager, c.ManagedFields)
	}
	served, err := h.r.servedAPIs()
	if err != nil {
		t.Fatal(err)
	}
	desired, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: ns, Release: release,
		Values: map[string]any{}, APIVersions: served})
	if err != nil {
		t.Fatal(err)
	}
	reqs, err := apply.Requests(desired)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reqs {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(r.Object.GroupVersionKind())
		if err := k.Get(ctx, types.NamespacedName{Namespace: r.Namespace, Name: r.Name}, u); err != nil {
			t.Errorf("%s %s/%s was not applied: %v", r.Object.GetKind(), r.Namespace, r.Name, err)
		}
	}
	t.Logf("created: %d objects (every optional API is served)", len(reqs))
	if n := applies.Load(); n < int64(len(reqs)) {
		t.Errorf("%d applies through client.Apply, want at least the %d objects", n, len(reqs))
	}

	// Unchanged: no write, no event.
	rv := c.ResourceVersion
	got, evs = h.reconcile(cm)
	h.expect(got, evs, Unchanged, "")
	if c := liveCluster(t, n); c.ResourceVersion != rv {
		t.Errorf("an unchanged reconcile wrote the EtcdCluster (resourceVersion %s -> %s)", rv, c.ResourceVersion)
	}

	// Scale down with other storage-class keys and ask for a snapshot:
	// the snapshot is taken, the scale-down waits for a decision.
	edit(t, cm, func(cm *corev1.ConfigMap) {
		cm.Data[KeyValues] = opScaleDown
		cm.Annotations[SnapshotAnnotation] = "before-scale-down"
	})
	got, evs = h.reconcile(cm)
	h.expect(got, evs, DecisionNeeded, "Warning DecisionNeeded")
	token := got.Annotations[DecisionAnnotation]
	if token == "" || !strings.Contains(got.Annotations[PlanAnnotation], "DECISION spec.replicas: replicas 3 -> 1") {
		t.Fatalf("no decision token or no replicas decision in the plan:\n%s", got.Annotations[PlanAnnotation])
	}
	checkCluster(t, liveCluster(t, n), "op-local", 3)
	snap := &etcdv1alpha2.EtcdSnapshot{}
	if err := k.Get(ctx, types.NamespacedName{Namespace: ns, Name: "before-scale-down"}, snap); err != nil {
		t.Fatalf("the requested snapshot was not created: %v", err)
	}
	if snap.Spec.ClusterRef.Name != n.Cluster || snap.Spec.Destination.PVC == nil || snap.Spec.Destination.PVC.SubPath != ns {
		t.Errorf("snapshot spec %+v", snap.Spec)
	}
	if got.Annotations[SnapshotTakenAnnotation] != "before-scale-down" {
		t.Errorf("snapshot-taken annotation %q", got.Annotations[SnapshotTakenAnnotation])
	}
	found := false
	for _, e := range evs {
		found = found || strings.HasPrefix(e, "Normal SnapshotRequested")
	}
	if !found {
		t.Errorf("no SnapshotRequested event in %q", evs)
	}

	// A wrong approval applies nothing.
	edit(t, cm, func(cm *corev1.ConfigMap) { cm.Annotations[ApproveAnnotation] = "0123456789abcdef" })
	got, evs = h.reconcile(cm)
	h.expect(got, evs, DecisionNeeded, "Warning DecisionNeeded")
	checkCluster(t, liveCluster(t, n), "op-local", 3)

	// The plan's token applies it: one replica, the live class kept.
	edit(t, cm, func(cm *corev1.ConfigMap) { cm.Annotations[ApproveAnnotation] = token })
	got, evs = h.reconcile(cm)
	h.expect(got, evs, Applied, "Normal Applied")
	checkCluster(t, liveCluster(t, n), "op-local", 1)
	if _, ok := got.Annotations[DecisionAnnotation]; ok {
		t.Errorf("the decision annotation outlived the decision")
	}
	got, evs = h.reconcile(cm)
	h.expect(got, evs, Unchanged, "")

	// The approval does not carry over to the next decision.
	edit(t, cm, func(cm *corev1.ConfigMap) { cm.Data[KeyValues] = opValues })
	got, evs = h.reconcile(cm)
	h.expect(got, evs, DecisionNeeded, "Warning DecisionNeeded")
	if next := got.Annotations[DecisionAnnotation]; next == "" || next == token {
		t.Errorf("scale-up token %q, scale-down token %q: want a new token", next, token)
	}
	checkCluster(t, liveCluster(t, n), "op-local", 1)
}

func appliedBy(fields []metav1.ManagedFieldsEntry, manager string) bool {
	for _, f := range fields {
		if f.Manager == manager && f.Operation == metav1.ManagedFieldsOperationApply {
			return true
		}
	}
	return false
}

// TestRefusesUnsafePlan: an EtcdCluster made by another tool with another
// TLS secret is in the way. Adopting it would change spec.tls, which the
// API server rejects: the operator applies nothing at all (not even the
// objects the plan would create), whatever is approved, and still takes a
// requested snapshot.
func TestRefusesUnsafePlan(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t)
	ns, release := "tenant-op", "kubernetes-adopt"
	n := tenantCluster(t, ns, release)
	objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: ns, Release: release})
	if err != nil {
		t.Fatal(err)
	}
	var legacy *etcdv1alpha2.EtcdCluster
	for _, o := range objs {
		if c, ok := o.(*etcdv1alpha2.EtcdCluster); ok {
			legacy = c.DeepCopy()
		}
	}
	if legacy == nil || legacy.Spec.TLS == nil || legacy.Spec.TLS.Client == nil || legacy.Spec.TLS.Client.ServerSecretRef == nil {
		t.Fatal("the stack's EtcdCluster has no spec.tls.client.serverSecretRef")
	}
	legacy.Spec.TLS.Client.ServerSecretRef.Name = "legacy-server-tls"
	create(t, legacy, client.FieldOwner("helm"))

	cm := inputConfigMap(ns, "etcd-"+release, release, "{}")
	cm.Annotations = map[string]string{SnapshotAnnotation: "before-adoption", ApproveAnnotation: "anything"}
	create(t, cm)
	got, evs := h.reconcile(cm)
	h.expect(got, evs, Refused, "Warning Refused")
	if !strings.Contains(got.Annotations[PlanAnnotation], "REFUSED spec.tls.client.serverSecretRef") {
		t.Errorf("the plan does not name the TLS change:\n%s", got.Annotations[PlanAnnotation])
	}
	if c := liveCluster(t, n); c.Spec.TLS.Client.ServerSecretRef.Name != "legacy-server-tls" {
		t.Errorf("the live TLS secret changed to %q", c.Spec.TLS.Client.ServerSecretRef.Name)
	}
	for _, o := range []client.Object{
		&kamajiv1alpha1.DataStore{ObjectMeta: metav1.ObjectMeta{Name: n.DataStore()}},
		&cmv1.Certificate{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: n.Cluster + "-server"}},
	} {
		if err := k.Get(ctx, client.ObjectKeyFromObject(o), o); !apierrors.IsNotFound(err) {
			t.Errorf("%T %s exists (err %v): a refused plan must apply nothing", o, o.GetName(), err)
		}
	}
	if err := k.Get(ctx, types.NamespacedName{Namespace: ns, Name: "before-adoption"}, &etcdv1alpha2.EtcdSnapshot{}); err != nil {
		t.Errorf("the snapshot requested with a refused plan was not taken: %v", err)
	}
}

// TestSharedDataStore: a tenant cluster whose live KamajiControlPlane
// names a shared DataStore renders no etcd; once it names the cluster's
// own DataStore, which does not exist, the stack is created after a
// person's decision: a control plane on the stack's DataStore is evidence
// that the stack exists, so its missing EtcdCluster and DataStore are a
// partial live stack (plan's TestPartlyLiveStackIsNeverSafe), never
// created unasked.
func TestSharedDataStore(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t)
	ns, release := "tenant-op", "kubernetes-shared"
	n := tenantCluster(t, ns, release)
	if err := setKCP(ctx, ns, release, "tenant-root"); err != nil {
		t.Fatal(err)
	}
	cm := inputConfigMap(ns, "etcd-"+release, release, "{}")
	create(t, cm)
	got, evs := h.reconcile(cm)
	h.expect(got, evs, Unchanged, "")
	if !strings.Contains(got.Annotations[MessageAnnotation], "shared DataStore tenant-root") {
		t.Errorf("message %q", got.Annotations[MessageAnnotation])
	}
	if err := k.Get(ctx, types.NamespacedName{Namespace: ns, Name: n.Cluster}, &etcdv1alpha2.EtcdCluster{}); !apierrors.IsNotFound(err) {
		t.Errorf("an EtcdCluster exists for a cluster on a shared DataStore (err %v)", err)
	}

	if err := setKCP(ctx, ns, release, n.DataStore()); err != nil {
		t.Fatal(err)
	}
	got, evs = h.reconcile(cm)
	h.expect(got, evs, DecisionNeeded, "Warning DecisionNeeded")
	token := got.Annotations[DecisionAnnotation]
	if token == "" || !strings.Contains(got.Annotations[PlanAnnotation], "the live file is partial, or the stack lost it") {
		t.Fatalf("no decision token or no partial-stack decision in the plan:\n%s", got.Annotations[PlanAnnotation])
	}
	if err := k.Get(ctx, types.NamespacedName{Namespace: ns, Name: n.Cluster}, &etcdv1alpha2.EtcdCluster{}); !apierrors.IsNotFound(err) {
		t.Errorf("an EtcdCluster was created before the decision (err %v)", err)
	}
	edit(t, cm, func(cm *corev1.ConfigMap) { cm.Annotations[ApproveAnnotation] = token })
	got, evs = h.reconcile(cm)
	h.expect(got, evs, Applied, "Normal Applied")
	checkCluster(t, liveCluster(t, n), "", 3)

	// A snapshot name another cluster's snapshot holds is not reported
	// as taken.
	other, err := naming.ForCluster(ns, "kubernetes-other")
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := etcd.Snapshot(other, "nightly", etcdv1alpha2.SnapshotLocation{PVC: &etcdv1alpha2.PVCLocation{ClaimName: "backups"}})
	if err != nil {
		t.Fatal(err)
	}
	create(t, theirs)
	edit(t, cm, func(cm *corev1.ConfigMap) { cm.Annotations[SnapshotAnnotation] = "nightly" })
	got, evs = h.reconcile(cm)
	h.expect(got, evs, Unchanged, "")
	if !strings.Contains(got.Annotations[MessageAnnotation], "belongs to another cluster") || got.Annotations[SnapshotTakenAnnotation] != "" {
		t.Errorf("message %q, snapshot-taken %q", got.Annotations[MessageAnnotation], got.Annotations[SnapshotTakenAnnotation])
	}
}

func setKCP(ctx context.Context, ns, name, dataStore string) error {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(kamaji.ControlPlaneKind)
	u.SetNamespace(ns)
	u.SetName(name)
	u.Object["spec"] = map[string]any{"dataStoreName": dataStore, "version": "v1.35.0"}
	return k.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("kamaji-test"), client.ForceOwnership)
}

// TestInvalidInput: input the library refuses is recorded with the field
// and the rule, and nothing is applied.
func TestInvalidInput(t *testing.T) {
	h := newHarness(t)
	ns := "tenant-op"
	ensureNamespace(t, ns)
	for _, c := range []struct {
		name, release, values, want string
	}{
		{"bad-replicas", "kubernetes-bad", "etcd: {replicas: 2}\n", "etcd.replicas: invalid value 2"},
		{"no-release", "", "{}", "data.release"},
		{"bad-release", "Kubernetes_Bad", "{}", "release"},
	} {
		cm := inputConfigMap(ns, c.name, c.release, c.values)
		create(t, cm)
		got, evs := h.reconcile(cm)
		h.expect(got, evs, Invalid, "Warning Invalid")
		if !strings.Contains(got.Annotations[MessageAnnotation], c.want) {
			t.Errorf("%s: message %q, want %q", c.name, got.Annotations[MessageAnnotation], c.want)
		}
	}
}

// TestManagerReconciles runs the operator as main does (manager, cache,
// watch, event recorder) and waits for a new ConfigMap's stack.
func TestManagerReconciles(t *testing.T) {
	ns, release := "tenant-mgr", "kubernetes-mgr"
	n := tenantCluster(t, ns, release)
	mgr, err := NewManager(cfg, ctrl.Options{Metrics: metricsserver.Options{BindAddress: "0"}}, "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("manager: %v", err)
		}
	}()

	cm := inputConfigMap(ns, "etcd-"+release, release, opValues)
	create(t, cm)
	deadline := time.Now().Add(time.Minute)
	for {
		got := &corev1.ConfigMap{}
		if err := k.Get(context.Background(), client.ObjectKeyFromObject(cm), got); err != nil {
			t.Fatal(err)
		}
		if r := got.Annotations[ResultAnnotation]; r != "" {
			if Result(r) != Applied {
				t.Fatalf("result %q: %s", r, got.Annotations[MessageAnnotation])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the manager did not reconcile the ConfigMap within a minute")
		}
		time.Sleep(100 * time.Millisecond)
	}
	checkCluster(t, liveCluster(t, n), "op-local", 3)
}

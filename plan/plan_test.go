package plan_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"
)

// serverize adds what the API server and controllers add to a created
// object and what `kubectl get -o yaml` prints: identity and bookkeeping
// metadata, managedFields, status, defaulted fields, and canonical or
// chart spellings of quantities and numbers. None of it is a change.
func serverize(t *testing.T, u *unstructured.Unstructured) {
	t.Helper()
	set := func(v any, path ...string) {
		require.NoError(t, unstructured.SetNestedField(u.Object, v, path...))
	}
	// What a previous apply by FieldManager owns: every field it sent,
	// as the API server records it.
	fieldsV1, err := plan.AppliedFieldsV1(u.DeepCopy().Object)
	require.NoError(t, err)
	u.SetUID(types.UID("0b0e9a3c-" + u.GetName()))
	u.SetResourceVersion("48151623")
	u.SetGeneration(3)
	set("2025-06-01T10:00:00Z", "metadata", "creationTimestamp")
	ann := u.GetAnnotations()
	if ann == nil {
		ann = map[string]string{}
	}
	ann["meta.helm.sh/release-name"] = "etcd"
	ann["kubectl.kubernetes.io/last-applied-configuration"] = "{}"
	u.SetAnnotations(ann)
	set([]any{map[string]any{
		"apiVersion": u.GetAPIVersion(), "fieldsType": "FieldsV1", "manager": "helm", "operation": "Update",
		"time": "2025-06-01T10:00:00Z", "fieldsV1": map[string]any{"f:metadata": map[string]any{"f:annotations": map[string]any{".": map[string]any{}}}},
	}, map[string]any{
		"apiVersion": u.GetAPIVersion(), "fieldsType": "FieldsV1", "manager": apply.FieldManager, "operation": "Apply",
		"time": "2025-06-01T10:00:00Z", "fieldsV1": fieldsV1,
	}}, "metadata", "managedFields")

	switch u.GetKind() {
	case "EtcdCluster":
		set(int64(600), "spec", "progressDeadlineSeconds")
		set("", "spec", "storage", "medium")
		// Numbers by value: 3 stored as 3.0.
		if r, ok, _ := unstructured.NestedInt64(u.Object, "spec", "replicas"); ok {
			set(float64(r), "spec", "replicas")
		}
		// Quantities as etcdshapes applied them: the API server stores a
		// custom resource's spelling as it is sent (another spelling, a
		// Helm install's, is a change: TestPlanQuantityRespelled).
		set(map[string]any{"readyMembers": int64(3), "clusterID": "abc", "conditions": []any{}}, "status")
	case "CronJob":
		set(false, "spec", "suspend")
		pod := []string{"spec", "jobTemplate", "spec", "template", "spec"}
		set("ClusterFirst", append(pod, "dnsPolicy")...)
		set("default-scheduler", append(pod, "schedulerName")...)
		set(int64(30), append(pod, "terminationGracePeriodSeconds")...)
		containers, _, _ := unstructured.NestedSlice(u.Object, append(pod, "containers")...)
		for _, c := range containers {
			c := c.(map[string]any)
			c["imagePullPolicy"] = "IfNotPresent"
			c["terminationMessagePath"] = "/dev/termination-log"
			c["terminationMessagePolicy"] = "File"
		}
		set(containers, append(pod, "containers")...)
		volumes, _, _ := unstructured.NestedSlice(u.Object, append(pod, "volumes")...)
		for _, v := range volumes {
			if s, ok := v.(map[string]any)["secret"].(map[string]any); ok {
				s["defaultMode"] = int64(420)
			}
		}
		set(volumes, append(pod, "volumes")...)
		set(map[string]any{"lastScheduleTime": "2025-06-01T11:00:00Z"}, "status")
	case "Service":
		set([]any{"None"}, "spec", "clusterIPs")
		set([]any{"IPv4"}, "spec", "ipFamilies")
		set("SingleStack", "spec", "ipFamilyPolicy")
		set("None", "spec", "sessionAffinity")
		set("Cluster", "spec", "internalTrafficPolicy")
		set(map[string]any{"loadBalancer": map[string]any{}}, "status")
	case "Secret":
		set("kubernetes.io/tls", "type")
		set(map[string]any{"tls.crt": "LS0t", "tls.key": "LS0t", "ca.crt": "LS0t"}, "data")
	case "DataStore":
		set(map[string]any{"ready": true, "usedBy": []any{"tenant-demo/kubernetes-demo"}}, "status")
	case "Certificate":
		set(map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True"}}, "revision": int64(1)}, "status")
	}
}

// liveFile is what `kubectl get -o yaml` prints for a rendered stack: the
// marshalled objects with server fields, as one List. For a tenant cluster
// it includes the KamajiControlPlane naming dataStore.
func liveFile(t *testing.T, marshalled []byte, kcp *unstructured.Unstructured) []byte {
	t.Helper()
	objs, err := plan.ReadObjects(marshalled)
	require.NoError(t, err)
	items := make([]any, 0, len(objs)+1)
	for _, o := range objs {
		u := o.(*unstructured.Unstructured)
		serverize(t, u)
		items = append(items, u.Object)
	}
	if kcp != nil {
		items = append(items, kcp.Object)
	}
	out, err := yaml.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items})
	require.NoError(t, err)
	return out
}

func kamajiControlPlane(namespace, release, dataStore string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "controlplane.cluster.x-k8s.io/v1alpha1",
		"kind":       "KamajiControlPlane",
		"metadata":   map[string]any{"name": release, "namespace": namespace, "uid": "kcp"},
		"spec":       map[string]any{"dataStoreName": dataStore, "version": "v1.33.0"},
	}}
	return u
}

// scenarioLive is the live file of a golden scenario: its golden YAML with
// server fields and, for a tenant cluster, the KamajiControlPlane on the
// scenario's datastore.
func scenarioLive(t *testing.T, s golden.Scenario) []byte {
	t.Helper()
	marshalled, err := os.ReadFile(filepath.Join("..", "golden", "testdata", s.Name+".yaml"))
	require.NoError(t, err)
	var kcp *unstructured.Unstructured
	if s.Caller == naming.CallerCluster {
		ds, err := goldentest.DataStore(s)
		require.NoError(t, err)
		kcp = kamajiControlPlane(s.Namespace, s.Release, ds)
	}
	return liveFile(t, marshalled, kcp)
}

// scenarioObjects are the objects of a golden scenario's live file
// (scenarioLive).
func scenarioObjects(t *testing.T, s golden.Scenario) []etcdshapes.Object {
	t.Helper()
	objs, err := plan.ReadObjects(scenarioLive(t, s))
	require.NoError(t, err)
	return objs
}

// scenarioRequest is a golden scenario's request.
func scenarioRequest(t *testing.T, s golden.Scenario) etcdshapes.Request {
	t.Helper()
	req, err := s.Request()
	require.NoError(t, err)
	return req
}

// The plan of a live stack against itself is empty for every golden
// scenario: server fields, defaults, managedFields, status and respelled
// numbers are not changes, and the live state read from the live objects
// renders the same stack.
func TestPlanOfLiveStackAgainstItselfIsEmpty(t *testing.T) {
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			live := scenarioObjects(t, s)
			req := scenarioRequest(t, s)
			req.Live = etcdshapes.LiveState{} // derived from the live objects
			p, desired, err := plan.ForRequest(req, live)
			require.NoError(t, err)
			assert.True(t, p.Empty(), "plan is not empty:\n%s", p)
			assert.True(t, p.SafeToApply(), "%s", p)
			assert.Equal(t, 0, p.Count(plan.Delete))
			for _, o := range p.Objects {
				assert.Equal(t, plan.Unchanged, o.Action, "%s", o.ObjectRef)
			}
			// Hooks are skipped and never returned, everything else is
			// planned.
			rendered, err := s.Render() // with the scenario's live state
			require.NoError(t, err)
			hooks := 0
			for _, o := range rendered {
				if etcdshapes.IsUninstallHook(o) {
					hooks++
				}
			}
			for _, o := range desired {
				require.False(t, etcdshapes.IsUninstallHook(o), "%s %s", kindName(o), o.GetName())
			}
			assert.Len(t, p.Skipped, hooks)
			assert.Len(t, desired, len(rendered)-hooks)
			assert.Len(t, p.Objects, len(desired))
			if len(desired) > 0 {
				assert.Contains(t, p.String(), "No changes.")
			}
		})
	}
}

// The live state comes from the live objects.
func TestLiveStateFromObjects(t *testing.T) {
	for _, s := range golden.All() {
		if s.Caller != naming.CallerCluster {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			live := scenarioObjects(t, s)
			st, err := plan.LiveStateFromObjects(s.Namespace, s.Release, live)
			require.NoError(t, err)
			wantDS, err := goldentest.DataStore(s)
			require.NoError(t, err)
			assert.Equal(t, wantDS, st.DataStoreName)
			if s.Name == "cluster-shared" {
				assert.Nil(t, st.StorageClassName, "no EtcdCluster renders on a shared datastore")
				return
			}
			require.NotNil(t, st.StorageClassName)
			if s.Live.StorageClassName != nil {
				assert.Equal(t, *s.Live.StorageClassName, *st.StorageClassName)
			}
		})
	}
}

// planCluster plans the cluster-demo stack against a live file edited by
// edit.
func planCluster(t *testing.T, edit func(objs []etcdshapes.Object), modify ...func(r *etcdshapes.Request)) *plan.Result {
	t.Helper()
	s := goldentest.Scenario(t, "cluster-demo")
	live := scenarioObjects(t, s)
	if edit != nil {
		edit(live)
	}
	req := scenarioRequest(t, s)
	for _, m := range modify {
		m(&req)
	}
	p, _, err := plan.ForRequest(req, live)
	require.NoError(t, err)
	return p
}

func liveObject(t *testing.T, objs []etcdshapes.Object, kind, name string) *unstructured.Unstructured {
	t.Helper()
	for _, o := range objs {
		if o.GetObjectKind().GroupVersionKind().Kind == kind && o.GetName() == name {
			return o.(*unstructured.Unstructured)
		}
	}
	t.Fatalf("no live %s %s", kind, name)
	return nil
}

func objectPlan(t *testing.T, p *plan.Result, kind, name string) plan.ObjectPlan {
	t.Helper()
	for _, o := range p.Objects {
		if o.Kind == kind && o.Name == name {
			return o
		}
	}
	t.Fatalf("no %s %s in the plan:\n%s", kind, name, p)
	return plan.ObjectPlan{}
}

// noElements is changes without their PathElements, for tests that
// compare the rest.
func noElements(changes []plan.FieldChange) []plan.FieldChange {
	out := make([]plan.FieldChange, len(changes))
	for i, c := range changes {
		c.PathElements = nil
		out[i] = c
	}
	return out
}

func findings(p *plan.Result, v plan.Verdict) []plan.Finding {
	var out []plan.Finding
	for _, f := range p.AllFindings() {
		if f.Verdict == v {
			out = append(out, f)
		}
	}
	return out
}

func TestPlanRefusesTLSChange(t *testing.T) {
	p := planCluster(t, func(objs []etcdshapes.Object) {
		c := liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd")
		require.NoError(t, unstructured.SetNestedField(c.Object, "legacy-server-tls", "spec", "tls", "client", "serverSecretRef", "name"))
	})
	o := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	assert.Equal(t, plan.Update, o.Action)
	// serverSecretRef is an atomic map (x-kubernetes-map-type: atomic):
	// an apply replaces it whole, and that is the change.
	require.Equal(t, []plan.FieldChange{{
		Path: "spec.tls.client.serverSecretRef", Type: plan.FieldChanged,
		PathElements: []string{"f:spec", "f:tls", "f:client", "f:serverSecretRef"},
		Live:         map[string]any{"name": "legacy-server-tls"}, Desired: map[string]any{"name": "kubernetes-demo-etcd-server-tls"},
	}}, o.Changes)
	refused := findings(p, plan.Refused)
	require.Len(t, refused, 1)
	assert.Equal(t, "spec.tls.client.serverSecretRef", refused[0].Path)
	assert.Equal(t, tlsChanged, refused[0].Message)
	assert.False(t, p.SafeToApply())
	text := p.String()
	assert.Contains(t, text, "~ update EtcdCluster tenant-demo/kubernetes-demo-etcd")
	assert.Contains(t, text, `~ spec.tls.client.serverSecretRef: {"name":"legacy-server-tls"} -> {"name":"kubernetes-demo-etcd-server-tls"}`)
	assert.Contains(t, text, "REFUSED spec.tls.client.serverSecretRef: spec.tls is immutable")
	assert.Contains(t, text, "Not safe to apply: 1 refused by the API server, 0 need a decision.")
}

func TestPlanReplicaChangeNeedsDecision(t *testing.T) {
	p := planCluster(t, nil, func(r *etcdshapes.Request) {
		r.Values = map[string]any{"etcd": map[string]any{"replicas": float64(1)}}
	})
	o := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	assert.Equal(t, plan.Update, o.Action)
	var paths []string
	for _, c := range o.Changes {
		paths = append(paths, c.Path)
	}
	assert.Contains(t, paths, "spec.replicas")
	decisions := findings(p, plan.NeedsDecision)
	require.NotEmpty(t, decisions)
	var msg string
	for _, f := range decisions {
		if f.Path == "spec.replicas" {
			msg = f.Message
		}
	}
	assert.Contains(t, msg, "replicas 3 -> 1: quorum 2 -> 1, tolerates 1 -> 0 failed members; the cluster loses fault tolerance")
	assert.False(t, p.SafeToApply())
	// The single member takes the replicated class, which the live
	// cluster's (empty) class pins: no storage class change.
	for _, f := range findings(p, plan.Refused) {
		t.Errorf("unexpected refusal: %s", f)
	}
	// The WorkloadMonitor follows the member count.
	wm := objectPlan(t, p, "WorkloadMonitor", "kubernetes-demo-etcd")
	assert.Equal(t, plan.Update, wm.Action)
}

func TestPlanSizeShrinkRefusedGrowthNoted(t *testing.T) {
	s := goldentest.Scenario(t, "etcd-single-local-10Gi")
	live := scenarioObjects(t, s)

	planSize := func(size string) *plan.Result {
		req := scenarioRequest(t, s)
		req.Values["size"] = size
		p, _, err := plan.ForRequest(req, live)
		require.NoError(t, err)
		return p
	}
	p := planSize("4Gi")
	refused := findings(p, plan.Refused)
	require.Len(t, refused, 1, "%s", p)
	assert.Equal(t, "spec.storage.size", refused[0].Path)
	assert.Contains(t, refused[0].Message, "cannot be shrunk (10Gi -> 4Gi)")

	// The same size spelled in bytes: TestPlanQuantityRespelled.

	p = planSize("20Gi")
	var paths []string
	for _, n := range findings(p, plan.Note) {
		paths = append(paths, n.Path)
		if n.Path == "spec.storage.size" {
			assert.Contains(t, n.Message, "10Gi -> 20Gi")
		}
	}
	assert.Equal(t, []string{"spec.options", "spec.storage.size"}, paths, "%s", p)
	// The backend quota follows the size, and the defrag CronJob's with
	// it at once, while the running members keep theirs: a decision
	// (TestPlanQuotaChangeSplitsDefragFromMembers).
	decisions := findings(p, plan.NeedsDecision)
	require.Len(t, decisions, 1, "%s", p)
	assert.Equal(t, "spec.options.quotaBackendBytes", decisions[0].Path)
}

// A change of the EtcdCluster's backend quota reaches new members only,
// while the defrag CronJob measures against the new quota at once: a
// larger quota (a bigger size, in any spelling; a live spec without a
// quota, etcd's 2 GiB default) needs a decision that says the defrag
// comes too late and what to do; a smaller one (a quota set by hand
// above the size's) is a note, or a decision where the members' quota
// exceeds the volume; the same quota says nothing.
func TestPlanQuotaChangeSplitsDefragFromMembers(t *testing.T) {
	s := goldentest.Scenario(t, "etcd-single-local-10Gi")
	planOf := func(size string, liveQuota any) *plan.Result {
		live := scenarioObjects(t, s)
		c := liveObject(t, live, "EtcdCluster", "etcd")
		if liveQuota == nil {
			unstructured.RemoveNestedField(c.Object, "spec", "options", "quotaBackendBytes")
		} else if liveQuota != "" {
			require.NoError(t, unstructured.SetNestedField(c.Object, liveQuota, "spec", "options", "quotaBackendBytes"))
		}
		req := scenarioRequest(t, s)
		req.Values["size"] = size
		p, _, err := plan.ForRequest(req, live)
		require.NoError(t, err)
		return p
	}
	quotaFinding := func(p *plan.Result) *plan.Finding {
		for _, f := range p.AllFindings() {
			if f.Path == "spec.options.quotaBackendBytes" {
				return &f
			}
		}
		return nil
	}
	for _, tc := range []struct {
		name      string
		size      string
		liveQuota any // "" as rendered; nil removed
		verdict   plan.Verdict
		want      []string
	}{
		{"20Gi", "20Gi", "", plan.NeedsDecision, []string{"10200547328 -> 20401094656", "--quota-backend-bytes=10200547328", "--etcd-storage-quota-bytes=20401094656", "too late", "NOSPACE", "one at a time"}},
		{"20Gi in bytes", "21474836480", "", plan.NeedsDecision, []string{"--quota-backend-bytes=10200547328", "--etcd-storage-quota-bytes=20401094656", "NOSPACE"}},
		{"11G", "11G", "", plan.NeedsDecision, []string{"--quota-backend-bytes=10200547328", "too late"}},
		{"no live quota", "10Gi", nil, plan.NeedsDecision, []string{"2147483648 (etcd's default", "--etcd-storage-quota-bytes=10200547328", "too late"}},
		{"hand quota below", "10Gi", int64(4 << 30), plan.NeedsDecision, []string{"--quota-backend-bytes=4294967296", "too late"}},
		{"hand quota as a quantity", "10Gi", "4Gi", plan.NeedsDecision, []string{"--quota-backend-bytes=4294967296"}},
		{"hand quota above", "10Gi", int64(10 << 30), plan.Note, []string{"--quota-backend-bytes=10737418240", "earlier than the members need"}},
		{"hand quota above the volume", "10Gi", int64(12 << 30), plan.NeedsDecision, []string{"--quota-backend-bytes=12884901888", "exceeds the volume (10737418240 bytes)"}},
		{"same", "10Gi", "", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := planOf(tc.size, tc.liveQuota)
			f := quotaFinding(p)
			if tc.verdict == "" {
				assert.Nil(t, f, "%s", p)
				return
			}
			require.NotNil(t, f, "%s", p)
			assert.Equal(t, tc.verdict, f.Verdict, "%s", p)
			assert.Equal(t, "EtcdCluster", f.Object.Kind)
			for _, w := range tc.want {
				assert.Contains(t, f.Message, w)
			}
			if tc.verdict == plan.NeedsDecision {
				assert.False(t, p.SafeToApply(), "%s", p)
			}
		})
	}
}

func TestPlanStorageClassChangeRefused(t *testing.T) {
	s := goldentest.Scenario(t, "etcd-single-local-10Gi")
	live := scenarioObjects(t, s)
	req := scenarioRequest(t, s)
	req.Values["storageClass"] = "replicated"
	p, _, err := plan.ForRequest(req, live)
	require.NoError(t, err)
	refused := findings(p, plan.Refused)
	require.Len(t, refused, 1, "%s", p)
	assert.Equal(t, "spec.storage.storageClassName", refused[0].Path)
	assert.True(t, strings.HasPrefix(refused[0].Message, classChanged), refused[0].Message)
	assert.Contains(t, p.String(), `~ spec.storage.storageClassName: "local" -> "replicated"`)
}

// The per-cluster stack keeps a live class (the chart's lookup): a live
// cluster on "legacy-ssd" with a new _cluster class renders "legacy-ssd",
// unless the caller overrides the live state, which the plan refuses.
func TestPlanPerClusterStorageClassFollowsLiveState(t *testing.T) {
	p := planCluster(t, func(objs []etcdshapes.Object) {
		c := liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd")
		require.NoError(t, unstructured.SetNestedField(c.Object, "legacy-ssd", "spec", "storage", "storageClassName"))
	}, func(r *etcdshapes.Request) {
		r.Values = map[string]any{"_cluster": map[string]any{"etcd-storage-class-local": "local"}}
	})
	assert.True(t, p.Empty(), "%s", p)

	p = planCluster(t, func(objs []etcdshapes.Object) {
		c := liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd")
		require.NoError(t, unstructured.SetNestedField(c.Object, "legacy-ssd", "spec", "storage", "storageClassName"))
	}, func(r *etcdshapes.Request) {
		sc := "local"
		r.Live.StorageClassName = &sc
	})
	refused := findings(p, plan.Refused)
	require.Len(t, refused, 1, "%s", p)
	assert.Equal(t, "spec.storage.storageClassName", refused[0].Path)
}

func TestPlanDataStoreDriverChangeRefused(t *testing.T) {
	p := planCluster(t, func(objs []etcdshapes.Object) {
		ds := liveObject(t, objs, "DataStore", "tenant-demo.kubernetes-demo")
		require.NoError(t, unstructured.SetNestedField(ds.Object, "PostgreSQL", "spec", "driver"))
	})
	refused := findings(p, plan.Refused)
	require.Len(t, refused, 1, "%s", p)
	assert.Equal(t, "spec.driver", refused[0].Path)
	assert.Equal(t, "DataStore tenant-demo.kubernetes-demo", refused[0].Object.String())
	assert.Contains(t, refused[0].Message, "Datastore driver is immutable")
	assert.Contains(t, p.String(), "REFUSED spec.driver: Datastore driver is immutable")
}

func TestPlanDataStoreEndpointsNeedDecision(t *testing.T) {
	p := planCluster(t, func(objs []etcdshapes.Object) {
		ds := liveObject(t, objs, "DataStore", "tenant-demo.kubernetes-demo")
		require.NoError(t, unstructured.SetNestedStringSlice(ds.Object, []string{"old.tenant-demo.svc:2379"}, "spec", "endpoints"))
	})
	d := findings(p, plan.NeedsDecision)
	require.Len(t, d, 1, "%s", p)
	assert.Equal(t, "spec.endpoints", d[0].Path)
	assert.Contains(t, d[0].Message, "used by tenant-demo/kubernetes-demo")
}

// Each credentials reference of a live DataStore (the Secrets of the CA
// and of the client certificate and key), changed alone with the same
// endpoints: never safe, every control plane on it would authenticate
// with other Secrets.
func TestPlanDataStoreCredentialsNeedDecision(t *testing.T) {
	for _, c := range []struct {
		path  []string
		value any
		want  string
	}{
		{[]string{"spec", "tlsConfig", "certificateAuthority", "certificate", "secretReference", "name"}, "other-ca-tls", "spec.tlsConfig"},
		{[]string{"spec", "tlsConfig", "certificateAuthority", "privateKey", "secretReference", "namespace"}, "tenant-other", "spec.tlsConfig"},
		{[]string{"spec", "tlsConfig", "clientCertificate", "certificate", "secretReference", "keyPath"}, "ca.crt", "spec.tlsConfig"},
		{[]string{"spec", "tlsConfig", "clientCertificate", "privateKey", "secretReference", "name"}, "other-client-tls", "spec.tlsConfig"},
	} {
		t.Run(strings.Join(c.path, "."), func(t *testing.T) {
			p := planCluster(t, func(objs []etcdshapes.Object) {
				ds := liveObject(t, objs, "DataStore", "tenant-demo.kubernetes-demo")
				require.NoError(t, unstructured.SetNestedField(ds.Object, c.value, c.path...))
			})
			d := findings(p, plan.NeedsDecision)
			require.Len(t, d, 1, "%s", p)
			assert.Equal(t, c.want, d[0].Path)
			assert.Contains(t, d[0].Message, "other credentials")
			assert.False(t, p.SafeToApply())
		})
	}
}

// Two releases in one namespace whose DataStore names are one: B's
// <namespace>.<release> is longer than 63 characters, cut and hashed into
// tenant-demo1.kubernetes-<30 b>-3a3d3b82, which is A's plain name (and
// A's release is valid: 50 characters). Planning A against B's live
// stack must not call the DataStore's repointing safe, and says why.
func TestPlanCollidingDataStoreNames(t *testing.T) {
	const ns = "tenant-demo1"
	b := "kubernetes-" + strings.Repeat("b", 40)
	nb, err := naming.ForCluster(ns, b)
	require.NoError(t, err)
	a := strings.TrimPrefix(nb.DataStore(), ns+".")
	na, err := naming.ForCluster(ns, a)
	require.NoError(t, err)
	require.Equal(t, nb.DataStore(), na.DataStore(), "the pair collides")
	require.NotEqual(t, na.ClientEndpoint(), nb.ClientEndpoint())

	bObjs, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: ns, Release: b})
	require.NoError(t, err)
	yamlB, err := etcdshapes.Marshal(bObjs)
	require.NoError(t, err)
	live, err := plan.ReadObjects(yamlB) // as the API server stores B's stack
	require.NoError(t, err)
	aObjs, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: ns, Release: a})
	require.NoError(t, err)
	for name, compute := range map[string]func() (*plan.Result, error){
		"Compute": func() (*plan.Result, error) { return plan.Compute(live, aObjs) },
		"ForRequest": func() (*plan.Result, error) {
			p, _, err := plan.ForRequest(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: ns, Release: a}, live)
			return p, err
		},
	} {
		t.Run(name, func(t *testing.T) {
			p, err := compute()
			require.NoError(t, err)
			require.False(t, p.SafeToApply(), "%s", p)
			var paths []string
			for _, f := range findings(p, plan.NeedsDecision) {
				require.Equal(t, "DataStore "+na.DataStore(), f.Object.String())
				paths = append(paths, f.Path)
				if f.Path == "spec.endpoints" {
					assert.Contains(t, f.Message, "points at another etcd, "+nb.Cluster+" in namespace "+ns)
				}
			}
			assert.Equal(t, []string{"spec.endpoints", "spec.tlsConfig"}, paths, "%s", p)
		})
	}
}

// The colliding pair's DataStore missing from the live file (the live
// objects of the namespace, fetched without datastores, or none at all):
// the plan cannot tell whether the other release's DataStore exists, so
// creating it is never called safe, for either release, through Compute
// and ForRequest; the finding names the other release and the command
// that fetches the DataStore. With the DataStore in the live file the
// plan decides: the other's is the endpoints decision above, its own
// (applied before) is unchanged and safe. A release whose DataStore name
// no other stack can render is safe to create.
func TestPlanCollidingDataStoreMissingFromLive(t *testing.T) {
	const ns = "tenant-demo1"
	b := "kubernetes-" + strings.Repeat("b", 40)
	nb, err := naming.ForCluster(ns, b)
	require.NoError(t, err)
	a := strings.TrimPrefix(nb.DataStore(), ns+".")
	name := nb.DataStore()
	withoutDataStore := func(objs []etcdshapes.Object) []etcdshapes.Object {
		var out []etcdshapes.Object
		for _, o := range objs {
			if kindName(o) != "DataStore" {
				out = append(out, o)
			}
		}
		return out
	}
	liveOf := func(release string) []etcdshapes.Object {
		objs, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: ns, Release: release})
		require.NoError(t, err)
		y, err := etcdshapes.Marshal(objs)
		require.NoError(t, err)
		live, err := plan.ReadObjects(liveFile(t, y, nil))
		require.NoError(t, err)
		return live
	}
	for _, c := range []struct {
		name, release, other string
		live                 []etcdshapes.Object
	}{
		{"A against B's stack without its DataStore", a, "a release whose <namespace>.<release> is longer than 63 characters", withoutDataStore(liveOf(b))},
		{"A against nothing", a, "a release whose <namespace>.<release> is longer than 63 characters", nil},
		{"B against A's stack without its DataStore", b, `release "` + a + `" in namespace "` + ns + `"`, withoutDataStore(liveOf(a))},
		{"B against nothing", b, `release "` + a + `" in namespace "` + ns + `"`, nil},
	} {
		req := etcdshapes.Request{Caller: naming.CallerCluster, Namespace: ns, Release: c.release}
		desired, err := etcdshapes.Render(req)
		require.NoError(t, err)
		for entry, compute := range map[string]func() (*plan.Result, error){
			"Compute": func() (*plan.Result, error) { return plan.Compute(c.live, desired) },
			"ForRequest": func() (*plan.Result, error) {
				p, _, err := plan.ForRequest(req, c.live)
				return p, err
			},
		} {
			t.Run(c.name+"/"+entry, func(t *testing.T) {
				p, err := compute()
				require.NoError(t, err)
				require.False(t, p.SafeToApply(), "%s", p)
				ds := objectPlan(t, p, "DataStore", name)
				require.Equal(t, plan.Create, ds.Action)
				require.Len(t, ds.Findings, 1, "%s", p)
				f := ds.Findings[0]
				assert.Equal(t, plan.NeedsDecision, f.Verdict)
				assert.Contains(t, f.Message, "cannot decide: the live objects hold no DataStore \""+name+"\"")
				assert.Contains(t, f.Message, c.other)
				assert.Contains(t, f.Message, "kubectl get datastores.kamaji.clastix.io "+name+" -o yaml --show-managed-fields")
				// The one decision, and where nothing of the stack is
				// live (another stack's objects are not its), the
				// nothing-live one.
				decisions := findings(p, plan.NeedsDecision)
				if p.NothingLive {
					require.Len(t, decisions, 2, "the collision's and nothing live's: %s", p)
					assert.True(t, strings.HasPrefix(decisions[1].Message, "nothing live: "), decisions[1].Message)
				} else {
					assert.Len(t, decisions, 1, "the one decision: %s", p)
				}
				assert.Contains(t, p.String(), "DECISION: cannot decide")
			})
		}
	}
	// Fetched: the release's own DataStore, as applied, decides it.
	p, _, err := plan.ForRequest(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: ns, Release: a}, liveOf(a))
	require.NoError(t, err)
	require.True(t, p.SafeToApply(), "%s", p)
	require.Equal(t, plan.Unchanged, objectPlan(t, p, "DataStore", name).Action)
	// No other stack can render tenant-demo.kubernetes-demo: its fresh
	// install is safe.
	p, _, err = plan.ForRequestWith(scenarioRequest(t, goldentest.Scenario(t, "cluster-demo")), nil, []plan.Option{plan.FreshInstall()})
	require.NoError(t, err)
	require.True(t, p.SafeToApply(), "%s", p)
}

// The cluster's KamajiControlPlane on another datastore while the caller
// renders the cluster's own: a Kamaji datastore migration.
func TestPlanDataStoreMoveNeedsDecision(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	marshalled, err := os.ReadFile(filepath.Join("..", "golden", "testdata", s.Name+".yaml"))
	require.NoError(t, err)
	live, err := plan.ReadObjects(liveFile(t, marshalled, kamajiControlPlane(s.Namespace, s.Release, "tenant-root")))
	require.NoError(t, err)
	req := scenarioRequest(t, s)
	desired, err := etcdshapes.Render(req) // ignores the live datastore
	require.NoError(t, err)
	p, err := plan.Compute(live, desired)
	require.NoError(t, err)
	require.Len(t, p.Findings, 1, "%s", p)
	f := p.Findings[0]
	assert.Equal(t, plan.NeedsDecision, f.Verdict)
	assert.Equal(t, "KamajiControlPlane tenant-demo/kubernetes-demo", f.Object.String())
	assert.Equal(t, "spec.dataStoreName", f.Path)
	assert.Contains(t, f.Message, `moves from DataStore "tenant-root" to DataStore "tenant-demo.kubernetes-demo"`)
	assert.Contains(t, f.Message, "freezes writes")
	assert.Contains(t, f.Message, "kubelet must be restarted")
	assert.False(t, p.SafeToApply())
	assert.Contains(t, p.String(), "DECISION KamajiControlPlane tenant-demo/kubernetes-demo spec.dataStoreName")

	// Read from the live objects, the state keeps the cluster where it is:
	// nothing renders and the cluster's own (unused) stack is deleted,
	// with decisions for the EtcdCluster and the DataStore.
	p, _, err = plan.ForRequest(req, live)
	require.NoError(t, err)
	assert.Empty(t, p.Findings)
	assert.Equal(t, 0, p.Count(plan.Create)+p.Count(plan.Update))
	assert.Positive(t, p.Count(plan.Delete))
	del := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	assert.Equal(t, plan.Delete, del.Action)
	require.Len(t, del.Findings, 1)
	assert.Equal(t, plan.NeedsDecision, del.Findings[0].Verdict)
}

func TestPlanDetectsDeletes(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	live := scenarioObjects(t, s)
	// Objects the plan must never delete: another stack's in the same
	// namespace, a snapshot, an object of another release, a keep Secret.
	other, err := os.ReadFile(filepath.Join("..", "golden", "testdata", "etcd-defaults.yaml"))
	require.NoError(t, err)
	others, err := plan.ReadObjects([]byte(strings.ReplaceAll(string(other), "tenant-root", "tenant-demo")))
	require.NoError(t, err)
	live = append(live, others...)
	extra, err := plan.ReadObjects([]byte(`
apiVersion: etcd-operator.cozystack.io/v1alpha2
kind: EtcdSnapshot
metadata: {name: kubernetes-demo-etcd-snapshot-0, namespace: tenant-demo}
spec: {clusterRef: {name: kubernetes-demo-etcd}, destination: {pvc: {claimName: backups}}}
---
apiVersion: v1
kind: Secret
metadata: {name: kubernetes-demo-etcd-ca-tls, namespace: tenant-demo}
`))
	require.NoError(t, err)
	live = append(live, extra...)

	// The stack rendered without its optional APIs: its live VPA,
	// VMPodScrape and CiliumNetworkPolicy are deleted, and nothing else.
	req := scenarioRequest(t, s)
	req.APIVersions = nil
	desired, err := etcdshapes.Render(req)
	require.NoError(t, err)
	p, err := plan.Compute(live, desired)
	require.NoError(t, err)
	var deleted []string
	for _, o := range p.Objects {
		if o.Action == plan.Delete {
			deleted = append(deleted, o.ObjectRef.String())
			// The live object proves its API is served: deleting it is
			// not routine.
			require.Len(t, o.Findings, 1, "%s", p)
			assert.Equal(t, plan.NeedsDecision, o.Findings[0].Verdict)
			assert.Contains(t, o.Findings[0].Message, "this live object proves its API is served")
		}
	}
	assert.Equal(t, []string{
		"CiliumNetworkPolicy tenant-demo/kubernetes-demo-etcd",
		"VMPodScrape tenant-demo/kubernetes-demo-etcd-pod-scrape",
		"VerticalPodAutoscaler tenant-demo/kubernetes-demo-etcd",
	}, deleted)
	assert.False(t, p.SafeToApply(), "%s", p)
	assert.Contains(t, p.String(), "- delete CiliumNetworkPolicy tenant-demo/kubernetes-demo-etcd")
	assert.Contains(t, p.String(), "Not safe to apply: 0 refused by the API server, 3 need a decision.")
}

// Plan without ForStack finds the stack from the desired EtcdCluster.
func TestPlanFindsStackFromDesired(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	live := scenarioObjects(t, s)
	req := scenarioRequest(t, s)
	req.APIVersions = []string{etcdshapes.APIVerticalPodAutoscaler}
	desired, err := etcdshapes.Render(req)
	require.NoError(t, err)
	p, err := plan.Compute(live, desired)
	require.NoError(t, err)
	assert.Equal(t, 2, p.Count(plan.Delete), "%s", p)
}

// A changed element of a list is reported at its field, not the list;
// server defaults inside list elements are not changes.
func TestPlanListElementChange(t *testing.T) {
	p := planCluster(t, func(objs []etcdshapes.Object) {
		cj := liveObject(t, objs, "CronJob", "kubernetes-demo-etcd-defrag")
		containers, _, _ := unstructured.NestedSlice(cj.Object, "spec", "jobTemplate", "spec", "template", "spec", "containers")
		containers[0].(map[string]any)["image"] = "ghcr.io/ahrtr/etcd-defrag:v0.12.0"
		require.NoError(t, unstructured.SetNestedSlice(cj.Object, containers, "spec", "jobTemplate", "spec", "template", "spec", "containers"))
	})
	o := objectPlan(t, p, "CronJob", "kubernetes-demo-etcd-defrag")
	require.Len(t, o.Changes, 1, "%s", p)
	assert.Equal(t, `spec.jobTemplate.spec.template.spec.containers[name="etcd-defrag"].image`, o.Changes[0].Path)
	assert.True(t, p.SafeToApply())
}

// Lists merge as the schema says. A container nobody owns, which the
// render does not have, stays (containers are keyed by name: an apply
// leaves elements it did not apply); a defaulted field inside the
// rendered container is not a change. Spread constraints are an atomic
// list: the apply replaces it, one change shown element by element.
func TestPlanListElementsAddedAndRemoved(t *testing.T) {
	p := planCluster(t, func(objs []etcdshapes.Object) {
		cj := liveObject(t, objs, "CronJob", "kubernetes-demo-etcd-defrag")
		path := []string{"spec", "jobTemplate", "spec", "template", "spec", "containers"}
		containers, _, _ := unstructured.NestedSlice(cj.Object, path...)
		containers[0].(map[string]any)["terminationMessagePath"] = "/dev/termination-log"
		sidecar := map[string]any{"name": "sidecar", "image": "busybox"}
		require.NoError(t, unstructured.SetNestedSlice(cj.Object, append([]any{sidecar}, containers...), path...))

		c := liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd")
		spread, _, _ := unstructured.NestedSlice(c.Object, "spec", "topologySpreadConstraints")
		extra := map[string]any{"maxSkew": int64(1), "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule"}
		require.NoError(t, unstructured.SetNestedSlice(c.Object, append(spread, extra), "spec", "topologySpreadConstraints"))
	})

	cj := objectPlan(t, p, "CronJob", "kubernetes-demo-etcd-defrag")
	assert.Equal(t, plan.Unchanged, cj.Action, "%s", p)
	assert.Empty(t, cj.Changes, "%s", p)

	c := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	require.Len(t, c.Changes, 1, "%s", p)
	assert.Equal(t, "spec.topologySpreadConstraints", c.Changes[0].Path)
	assert.Equal(t, plan.FieldChanged, c.Changes[0].Type)
	assert.Len(t, c.Changes[0].Live, 2)
	assert.Len(t, c.Changes[0].Desired, 1)
	assert.Contains(t, p.String(), `        - [1]: {"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"DoNotSchedule"}`)

	// The other way round: the render's constraint replaces an empty list.
	p = planCluster(t, func(objs []etcdshapes.Object) {
		c := liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd")
		require.NoError(t, unstructured.SetNestedSlice(c.Object, []any{}, "spec", "topologySpreadConstraints"))
	})
	c = objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	require.Len(t, c.Changes, 1, "%s", p)
	assert.Equal(t, "spec.topologySpreadConstraints", c.Changes[0].Path)
	assert.Equal(t, plan.FieldChanged, c.Changes[0].Type)
	assert.Contains(t, p.String(), "        + [0]: ")
}

// An atomic list whose elements only moved is one change of the whole
// list: the apply replaces it in the new order.
func TestPlanListReordered(t *testing.T) {
	p := planCluster(t, func(objs []etcdshapes.Object) {
		c := liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd")
		spread, _, _ := unstructured.NestedSlice(c.Object, "spec", "topologySpreadConstraints")
		zone := runtimeCopy(spread[0].(map[string]any))
		zone["topologyKey"], zone["whenUnsatisfiable"] = "topology.kubernetes.io/zone", "DoNotSchedule"
		require.NoError(t, unstructured.SetNestedSlice(c.Object, []any{zone, spread[0]}, "spec", "topologySpreadConstraints"))
	}, func(r *etcdshapes.Request) {
		r.Values["_cluster"] = map[string]any{"scheduling": map[string]any{"globalAppTopologySpreadConstraints": "topologySpreadConstraints:\n- {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway}\n- {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule}\n"}}
	})
	c := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	require.Len(t, c.Changes, 1, "%s", p)
	assert.Equal(t, "spec.topologySpreadConstraints", c.Changes[0].Path)
	assert.Equal(t, plan.FieldChanged, c.Changes[0].Type)
	assert.Contains(t, p.String(), "(the same elements in another order)", "%s", p)
}

// Fields this manager applied before and no longer sets are removed by
// the next apply; the plan reads them from managedFields.
func TestPlanRemovedFieldsFromManagedFields(t *testing.T) {
	p := planCluster(t, func(objs []etcdshapes.Object) {
		c := liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd")
		require.NoError(t, unstructured.SetNestedField(c.Object, "fast", "spec", "storage", "storageClassName"))
		labels := c.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels["team"] = "a"
		c.SetLabels(labels)
		mf, _, _ := unstructured.NestedSlice(c.Object, "metadata", "managedFields")
		mf = append(mf, map[string]any{
			"manager": apply.FieldManager, "operation": "Apply", "apiVersion": "etcd-operator.cozystack.io/v1alpha2", "fieldsType": "FieldsV1",
			"fieldsV1": map[string]any{
				"f:metadata": map[string]any{"f:labels": map[string]any{"f:team": map[string]any{}}},
				"f:spec":     map[string]any{"f:replicas": map[string]any{}, "f:storage": map[string]any{"f:storageClassName": map[string]any{}, "f:size": map[string]any{}}},
			},
		})
		require.NoError(t, unstructured.SetNestedSlice(c.Object, mf, "metadata", "managedFields"))
	}, func(r *etcdshapes.Request) {
		sc := ""
		r.Live.StorageClassName = &sc // as if the live class were ignored
	})
	o := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	require.Equal(t, []plan.FieldChange{
		{Path: "metadata.labels.team", Type: plan.FieldRemoved, Live: "a"},
		{Path: "spec.storage.storageClassName", Type: plan.FieldRemoved, Live: "fast"},
	}, noElements(o.Changes))
	refused := findings(p, plan.Refused)
	require.Len(t, refused, 1)
	assert.Equal(t, "spec.storage.storageClassName", refused[0].Path)
	assert.Equal(t, classAddedOrRemoved, refused[0].Message)
	assert.Contains(t, p.String(), `- spec.storage.storageClassName: "fast"`)
	assert.Contains(t, p.String(), "REFUSED spec.storage.storageClassName: "+classAddedOrRemoved)
}

func TestPlanBootstrapChangeRefused(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	live := scenarioObjects(t, s)
	req := scenarioRequest(t, s)
	p, desired, err := plan.ForRequest(req, live, apply.ForKind(etcdRestore()))
	require.NoError(t, err)
	refused := findings(p, plan.Refused)
	require.Len(t, refused, 1, "%s", p)
	assert.Equal(t, "spec.bootstrap", refused[0].Path)
	assert.Equal(t, bootstrapAddedOrRemoved, refused[0].Message, "added to a live cluster")

	// Into a new cluster (a fresh install) it is a note.
	p, err = plan.Compute(nil, desired, plan.FreshInstall())
	require.NoError(t, err)
	assert.True(t, p.SafeToApply())
	notes := findings(p, plan.Note)
	require.Len(t, notes, 2, "the restore's, and nothing live")
	assert.Equal(t, "spec.bootstrap.restore", notes[0].Path)
	assert.True(t, p.NothingLive)
}

// The CRD's messages (x-kubernetes-validations of the etcd-operator
// EtcdCluster), which the API server prints: a field that appears or
// disappears breaks has(self.f) == has(oldSelf.f), a changed value
// self.f == oldSelf.f, and the two say different things.
const (
	tlsAddedOrRemoved        = "spec.tls cannot be added to or removed from an existing cluster; delete and recreate"
	tlsChanged               = "spec.tls is immutable post-create; delete and recreate the cluster to change TLS configuration"
	bootstrapAddedOrRemoved  = "spec.bootstrap cannot be added to or removed from an existing cluster; it is consulted only at first bootstrap"
	bootstrapChanged         = "spec.bootstrap is immutable post-create; it is consulted only at first bootstrap"
	authAddedOrRemoved       = "spec.auth cannot be added to or removed from an existing cluster; delete and recreate"
	authChanged              = "spec.auth is immutable post-create; delete and recreate the cluster to change auth configuration"
	classAddedOrRemoved      = "spec.storage.storageClassName cannot be added to or removed from an existing cluster; delete and recreate"
	classChanged             = "spec.storage.storageClassName is immutable post-create"
	etcdClusterOfClusterDemo = "EtcdCluster tenant-demo/kubernetes-demo-etcd"
)

// A refused field that is added or removed is reported with the CRD's
// "cannot be added to or removed" message, a changed value (also one
// added or removed inside a field both sides have) with "is immutable".
func TestPlanRefusedAddedRemovedOrChanged(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	req := scenarioRequest(t, s)
	restored := func(key string) apply.Modifier {
		return apply.ForKind(etcd.Restore(v1alpha2.SnapshotLocation{S3: &v1alpha2.S3Location{
			Endpoint: "https://s3.example.com", Bucket: "backups", Key: key,
			CredentialsSecretRef: corev1.LocalObjectReference{Name: "s3-credentials"},
		}}))
	}
	// liveOf is the live file of the stack rendered with mods, as applied
	// by FieldManager (managedFields included), so that what desired no
	// longer sets is removed.
	// withAuth is the request with etcd.auth on with the Secret named, or
	// (secret "") as it is, auth off.
	withAuth := func(secret string) etcdshapes.Request {
		r := req
		if secret != "" {
			r.Values = map[string]any{"etcd": map[string]any{"auth": map[string]any{"enabled": true, "rootCredentialsSecret": secret}}}
		}
		return r
	}
	liveOfRequest := func(t *testing.T, r etcdshapes.Request, mods ...apply.Modifier) []etcdshapes.Object {
		t.Helper()
		objs, err := etcdshapes.Render(r)
		require.NoError(t, err)
		require.NoError(t, apply.Modify(objs, mods...))
		marshalled, err := etcdshapes.Marshal(objs)
		require.NoError(t, err)
		live, err := plan.ReadObjects(liveFile(t, marshalled, kamajiControlPlane(s.Namespace, s.Release, "tenant-demo.kubernetes-demo")))
		require.NoError(t, err)
		return live
	}
	liveOf := func(t *testing.T, mods ...apply.Modifier) []etcdshapes.Object {
		t.Helper()
		return liveOfRequest(t, req, mods...)
	}
	liveWithAuth := func(secret string) func(t *testing.T) []etcdshapes.Object {
		return func(t *testing.T) []etcdshapes.Object { return liveOfRequest(t, withAuth(secret)) }
	}
	editLive := func(edit func(c *unstructured.Unstructured)) func(t *testing.T) []etcdshapes.Object {
		return func(t *testing.T) []etcdshapes.Object {
			live := liveOf(t)
			edit(liveObject(t, live, "EtcdCluster", "kubernetes-demo-etcd"))
			return live
		}
	}
	for _, tc := range []struct {
		name string
		live func(t *testing.T) []etcdshapes.Object
		mods []apply.Modifier
		// desired is the request planned; empty means req.
		desired    string
		path       string
		change     plan.ChangeType
		message    string
		textChange string
	}{
		{
			name: "tls added", path: "spec.tls", change: plan.FieldAdded, message: tlsAddedOrRemoved,
			live:       editLive(func(c *unstructured.Unstructured) { unstructured.RemoveNestedField(c.Object, "spec", "tls") }),
			textChange: "+ spec.tls: {",
		},
		{
			name: "tls changed", path: "spec.tls.client.serverSecretRef", change: plan.FieldChanged, message: tlsChanged,
			live: editLive(func(c *unstructured.Unstructured) {
				require.NoError(t, unstructured.SetNestedField(c.Object, "legacy-server-tls", "spec", "tls", "client", "serverSecretRef", "name"))
			}),
			textChange: `~ spec.tls.client.serverSecretRef: {"name":"legacy-server-tls"} -> {"name":"kubernetes-demo-etcd-server-tls"}`,
		},
		{
			// Added inside spec.tls, which both sides have: the value of
			// spec.tls changes.
			name: "field added inside tls", path: "spec.tls.client.serverSecretRef", change: plan.FieldAdded, message: tlsChanged,
			live: editLive(func(c *unstructured.Unstructured) {
				unstructured.RemoveNestedField(c.Object, "spec", "tls", "client", "serverSecretRef")
			}),
			textChange: "+ spec.tls.client.serverSecretRef: {",
		},
		{
			name: "bootstrap added", path: "spec.bootstrap", change: plan.FieldAdded, message: bootstrapAddedOrRemoved,
			live: func(t *testing.T) []etcdshapes.Object { return liveOf(t) }, mods: []apply.Modifier{restored("a.db")},
			textChange: "+ spec.bootstrap: {",
		},
		{
			name: "bootstrap changed", path: "spec.bootstrap.restore.source.s3.key", change: plan.FieldChanged, message: bootstrapChanged,
			live: func(t *testing.T) []etcdshapes.Object { return liveOf(t, restored("a.db")) }, mods: []apply.Modifier{restored("b.db")},
			textChange: `~ spec.bootstrap.restore.source.s3.key: "a.db" -> "b.db"`,
		},
		{
			name: "auth added", path: "spec.auth", change: plan.FieldAdded, message: authAddedOrRemoved,
			live: func(t *testing.T) []etcdshapes.Object { return liveOf(t) },
			mods: []apply.Modifier{apply.ForKind(func(c *v1alpha2.EtcdCluster) error {
				c.Spec.Auth = &v1alpha2.AuthSpec{Enabled: true, RootCredentialsSecretRef: &corev1.LocalObjectReference{Name: "root"}}
				return nil
			})},
			textChange: "+ spec.auth: {",
		},
		// etcd.auth turned on, off or pointed at another Secret on a live
		// cluster, through the values: refused, the etcd must be
		// recreated.
		{
			name: "auth turned on (values)", path: "spec.auth", change: plan.FieldAdded, message: authAddedOrRemoved,
			live: func(t *testing.T) []etcdshapes.Object { return liveOf(t) }, desired: "etcd-root",
			textChange: `+ spec.auth: {"enabled":true,"rootCredentialsSecretRef":{"name":"etcd-root"}}`,
		},
		{
			name: "auth turned off (values)", path: "spec.auth", change: plan.FieldRemoved, message: authAddedOrRemoved,
			live: liveWithAuth("etcd-root"), textChange: "- spec.auth.enabled: true",
		},
		{
			name: "auth Secret changed (values)", path: "spec.auth.rootCredentialsSecretRef", change: plan.FieldChanged, message: authChanged,
			live: liveWithAuth("etcd-root"), desired: "etcd-root-2",
			textChange: `~ spec.auth.rootCredentialsSecretRef: {"name":"etcd-root"} -> {"name":"etcd-root-2"}`,
		},
		{
			// A live cluster created with auth present but disabled:
			// enabling it changes the value of spec.auth.
			name: "auth enabled in place", path: "spec.auth.enabled", change: plan.FieldChanged, message: authChanged,
			live: func(t *testing.T) []etcdshapes.Object {
				live := liveOfRequest(t, withAuth("etcd-root"))
				c := liveObject(t, live, "EtcdCluster", "kubernetes-demo-etcd")
				require.NoError(t, unstructured.SetNestedField(c.Object, false, "spec", "auth", "enabled"))
				return live
			},
			desired: "etcd-root", textChange: "~ spec.auth.enabled: false -> true",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _, err := plan.ForRequest(withAuth(tc.desired), tc.live(t), tc.mods...)
			require.NoError(t, err)
			o := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
			require.NotEmpty(t, o.Changes, "%s", p)
			// Removed fields are reported leaf by leaf (managedFields).
			for _, c := range o.Changes {
				assert.True(t, c.Path == tc.path || strings.HasPrefix(c.Path, tc.path+"."), "%s", p)
				assert.Equal(t, tc.change, c.Type, "%s", p)
			}
			refused := findings(p, plan.Refused)
			require.Len(t, refused, len(o.Changes), "%s", p)
			for i, f := range refused {
				assert.Equal(t, etcdClusterOfClusterDemo, f.Object.String())
				assert.Equal(t, o.Changes[i].Path, f.Path)
				assert.Equal(t, tc.message, strings.TrimSuffix(f.Message, " (restore into a new cluster)"))
			}
			text := p.String()
			assert.Contains(t, text, tc.textChange)
			assert.Contains(t, text, "REFUSED "+refused[0].Path+": "+refused[0].Message)
			if strings.HasPrefix(tc.path, "spec.auth") {
				assert.Contains(t, refused[0].Message, "delete and recreate", "spec.auth is chosen at creation")
			}
			if tc.message != tlsChanged && tc.message != bootstrapChanged && tc.message != authChanged {
				assert.NotContains(t, text, "immutable", "a field added or removed is not a changed value")
			}
		})
	}
}

// A live EtcdCluster restored from a snapshot keeps spec.bootstrap, which
// the CRD never lets an apply add, change or remove: the live state holds
// it (LiveStateFromObjects, and ForRequest for both callers), the render
// carries it as it is, and so the restored stack planned against itself
// is empty and safe, with or without the same Restore modifier; another
// source is still refused, and so are desired objects without it given
// to Compute, as the API server would refuse them.
func TestPlanRestoredClusterKeepsItsBootstrap(t *testing.T) {
	src := func(key string) v1alpha2.SnapshotLocation {
		return v1alpha2.SnapshotLocation{S3: &v1alpha2.S3Location{
			Endpoint: "https://s3.example.com", Bucket: "backups", Key: key,
			CredentialsSecretRef: corev1.LocalObjectReference{Name: "s3-credentials"},
		}}
	}
	restored := func(key string) apply.Modifier { return apply.ForKind(etcd.Restore(src(key))) }
	for _, name := range []string{"etcd-defaults", "cluster-demo"} {
		t.Run(name, func(t *testing.T) {
			s := goldentest.Scenario(t, name)
			req := scenarioRequest(t, s)
			objs, err := etcdshapes.Render(req)
			require.NoError(t, err)
			require.NoError(t, apply.Modify(objs, restored("a.db")))
			marshalled, err := etcdshapes.Marshal(objs)
			require.NoError(t, err)
			var kcp *unstructured.Unstructured
			cluster := "etcd"
			if s.Caller == naming.CallerCluster {
				kcp = kamajiControlPlane(s.Namespace, s.Release, s.Namespace+"."+s.Release)
				cluster = s.Release + "-etcd"
			}
			// Applied by FieldManager: it owns spec.bootstrap.
			live, err := plan.ReadObjects(liveFile(t, marshalled, kcp))
			require.NoError(t, err)
			want := &v1alpha2.BootstrapSpec{Restore: &v1alpha2.RestoreSpec{Source: src("a.db")}}

			if s.Caller == naming.CallerCluster {
				st, err := plan.LiveStateFromObjects(s.Namespace, s.Release, live)
				require.NoError(t, err)
				require.Equal(t, want, st.Bootstrap)
			}
			for _, mods := range [][]apply.Modifier{nil, {restored("a.db")}} {
				p, desired, err := plan.ForRequest(req, live, mods...)
				require.NoError(t, err)
				require.True(t, p.Empty(), "%s", p)
				require.True(t, p.SafeToApply(), "%s", p)
				var c *v1alpha2.EtcdCluster
				for _, o := range desired {
					if e, ok := o.(*v1alpha2.EtcdCluster); ok {
						c = e
					}
				}
				require.NotNil(t, c)
				require.Equal(t, cluster, c.Name)
				require.Equal(t, want, c.Spec.Bootstrap, "the render carries the live bootstrap")
			}
			// Another source: refused, as the CRD refuses it.
			p, _, err := plan.ForRequest(req, live, restored("b.db"))
			require.NoError(t, err)
			refused := findings(p, plan.Refused)
			require.Len(t, refused, 1, "%s", p)
			assert.Equal(t, "spec.bootstrap.restore.source.s3.key", refused[0].Path)
			assert.Equal(t, bootstrapChanged, strings.TrimSuffix(refused[0].Message, " (restore into a new cluster)"))
			// Desired objects without it, as given to Compute: refused.
			plain, err := etcdshapes.Render(req)
			require.NoError(t, err)
			p, err = plan.Compute(live, plain)
			require.NoError(t, err)
			refused = findings(p, plan.Refused)
			require.NotEmpty(t, refused, "%s", p)
			for _, f := range refused {
				assert.Equal(t, bootstrapAddedOrRemoved, f.Message)
			}
			// The live state given explicitly renders it too.
			req.Live.Bootstrap = want
			objs, err = etcdshapes.Render(req)
			require.NoError(t, err)
			p, err = plan.Compute(live, objs)
			require.NoError(t, err)
			require.True(t, p.SafeToApply(), "%s", p)
		})
	}
}

// plan.ForRequest runs the modifiers on the rendered objects before planning:
// the desired objects it returns are the modified ones, the plan compares
// them, and nothing the caller holds is changed.
func TestPlanRequestWithModifiers(t *testing.T) {
	// The etcd chart's stack: some objects have labels, some none.
	s := goldentest.Scenario(t, "etcd-defaults")
	req := scenarioRequest(t, s)
	team := apply.WithLabels(map[string]string{"team": "a"})
	valuesBefore, err := json.Marshal(req.Values)
	require.NoError(t, err)
	renderedBefore, err := etcdshapes.Render(req)
	require.NoError(t, err)
	stackBefore, err := etcdshapes.Marshal(renderedBefore)
	require.NoError(t, err)

	// Live objects without the label: every object of the stack gets it.
	live := scenarioObjects(t, s)
	liveBefore, err := etcdshapes.Marshal(live)
	require.NoError(t, err)
	p, desired, err := plan.ForRequest(req, live, team)
	require.NoError(t, err)
	require.NotEmpty(t, desired)
	for _, o := range desired {
		assert.Equal(t, "a", o.GetLabels()["team"], "%s %s", kindName(o), o.GetName())
	}
	require.NotEmpty(t, p.Objects)
	labelled := 0
	for _, o := range p.Objects {
		assert.Equal(t, plan.Update, o.Action, "%s", o.ObjectRef)
		want := plan.FieldChange{Path: "metadata.labels", Type: plan.FieldAdded, Desired: map[string]any{"team": "a"}}
		if len(o.Changes) == 1 && o.Changes[0].Path == "metadata.labels.team" {
			want = plan.FieldChange{Path: "metadata.labels.team", Type: plan.FieldAdded, Desired: "a"}
			labelled++
		}
		assert.Equal(t, []plan.FieldChange{want}, noElements(o.Changes), "%s", o.ObjectRef)
		assert.Empty(t, o.Findings, "%s", o.ObjectRef)
	}
	assert.NotZero(t, labelled, "objects with labels of their own: %s", p)
	assert.Less(t, labelled, len(p.Objects), "objects without labels: %s", p)
	assert.True(t, p.SafeToApply(), "%s", p)
	assert.Contains(t, p.String(), `+ metadata.labels.team: "a"`)
	assert.Contains(t, p.String(), `+ metadata.labels: {"team":"a"}`)
	liveAfter, err := etcdshapes.Marshal(live)
	require.NoError(t, err)
	assert.Equal(t, string(liveBefore), string(liveAfter), "the live objects are not changed")

	// What plan.ForRequest returns is what apply.Requests with the same
	// modifiers sends.
	rendered, err := etcdshapes.Render(req)
	require.NoError(t, err)
	want, err := apply.Requests(rendered, team)
	require.NoError(t, err)
	got, err := apply.Requests(desired)
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i := range want {
		assert.JSONEq(t, string(want[i].Body), string(got[i].Body))
	}

	// Live objects that carry the label already: unchanged.
	for _, o := range live {
		labels := o.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels["team"] = "a"
		o.SetLabels(labels)
	}
	p, _, err = plan.ForRequest(req, live, team)
	require.NoError(t, err)
	assert.True(t, p.Empty(), "%s", p)
	for _, o := range p.Objects {
		assert.Equal(t, plan.Unchanged, o.Action, "%s", o.ObjectRef)
	}

	// Without the modifier the plan is of the bare render: nothing a
	// request with the modifier rendered was left modified.
	p, desired, err = plan.ForRequest(req, live)
	require.NoError(t, err)
	for _, o := range desired {
		assert.NotContains(t, o.GetLabels(), "team")
	}
	assert.True(t, p.Empty(), "labels the stack does not set are not compared:\n%s", p)

	// A typed edit deep inside an object changes neither the request nor
	// later renders.
	_, desired, err = plan.ForRequest(req, live, apply.ForKind(func(c *v1alpha2.EtcdCluster) error {
		c.Spec.Storage.Size.Add(c.Spec.Storage.Size)
		c.Spec.Resources.Requests[corev1.ResourceCPU] = resource.MustParse("7")
		return nil
	}))
	require.NoError(t, err)
	valuesAfter, err := json.Marshal(req.Values)
	require.NoError(t, err)
	assert.JSONEq(t, string(valuesBefore), string(valuesAfter))
	renderedAfter, err := etcdshapes.Render(req)
	require.NoError(t, err)
	stackAfter, err := etcdshapes.Marshal(renderedAfter)
	require.NoError(t, err)
	assert.Equal(t, string(stackBefore), string(stackAfter))
	modified, err := etcdshapes.Marshal(desired)
	require.NoError(t, err)
	assert.Contains(t, string(modified), "cpu: \"7\"")

	// A failing modifier fails the plan and returns nothing.
	p, desired, err = plan.ForRequest(req, live, team, apply.WithLabels(map[string]string{"app.kubernetes.io/instance": "other"}))
	var ne *invalid.Error
	require.ErrorAs(t, err, &ne)
	assert.Nil(t, p)
	assert.Nil(t, desired)
}

func kindName(o etcdshapes.Object) string { return o.GetObjectKind().GroupVersionKind().Kind }

func TestReadObjects(t *testing.T) {
	objs, err := plan.ReadObjects([]byte(`# kubectl get -o yaml
apiVersion: v1
items:
- apiVersion: v1
  kind: ServiceAccount
  metadata: {name: a, namespace: tenant-x}
- apiVersion: v1
  kind: ServiceAccount
  metadata: {name: b, namespace: tenant-x}
kind: List
metadata:
  resourceVersion: ""
---
---
{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "c", "namespace": "tenant-x"}}
`))
	require.NoError(t, err)
	var names []string
	for _, o := range objs {
		names = append(names, o.GetName())
	}
	assert.Equal(t, []string{"a", "b", "c"}, names)

	_, err = plan.ReadObjects([]byte("apiVersion: v1\nkind: Secret\nmetadata: {namespace: x}\n"))
	var ne *invalid.Error
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, "live[0].metadata.name", ne.Field)

	_, err = plan.ReadObjects([]byte("just: [a, map\n"))
	require.Error(t, err)
}

func TestPlanRefusesDuplicates(t *testing.T) {
	// ReadObjects refuses them itself (TestDuplicateNamesTheFirst), by
	// their places in the file; Compute, by their places among its objects.
	_, err := plan.ReadObjects([]byte("apiVersion: v1\nkind: Secret\nmetadata: {name: a, namespace: x}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: a, namespace: x}\n"))
	require.EqualError(t, err, `live[1]: invalid value "Secret x/a": must not appear twice (first at live[0])`)
	objs, err := plan.ReadObjects([]byte("apiVersion: v1\nkind: Secret\nmetadata: {name: a, namespace: x}\n"))
	require.NoError(t, err)
	_, err = plan.Compute(append(objs, objs[0].DeepCopyObject().(etcdshapes.Object)), nil)
	var ne *invalid.Error
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, "live[1]", ne.Field)
}

// Typed objects read by a client carry no apiVersion/kind; the plan finds
// them in the scheme.
func TestPlanTypedLiveWithoutTypeMeta(t *testing.T) {
	objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo"})
	require.NoError(t, err)
	live := make([]etcdshapes.Object, len(objs))
	for i, o := range objs {
		c := o.DeepCopyObject().(etcdshapes.Object)
		c.GetObjectKind().SetGroupVersionKind(c.GetObjectKind().GroupVersionKind().GroupVersion().WithKind(""))
		live[i] = c
	}
	p, err := plan.Compute(live, objs)
	require.NoError(t, err)
	assert.True(t, p.Empty(), "%s", p)
}

func TestReplicaQuorumMessages(t *testing.T) {
	for _, tc := range []struct {
		from, to int
		want     string
	}{
		{3, 1, "quorum 2 -> 1, tolerates 1 -> 0 failed members; the cluster loses fault tolerance: any failure of the single member stops the datastore"},
		{1, 3, "quorum 1 -> 2, tolerates 0 -> 1 failed members; new members join one at a time"},
		{3, 4, "the extra member adds no fault tolerance"},
		{5, 3, "tolerates 2 -> 1 failed members; the cluster loses fault tolerance; members are removed"},
	} {
		t.Run(fmt.Sprintf("%d-%d", tc.from, tc.to), func(t *testing.T) {
			s := goldentest.Scenario(t, "etcd-defaults")
			marshalled, err := os.ReadFile(filepath.Join("..", "golden", "testdata", s.Name+".yaml"))
			require.NoError(t, err)
			live, err := plan.ReadObjects(liveFile(t, []byte(strings.Replace(string(marshalled), "replicas: 3", fmt.Sprintf("replicas: %d", tc.from), 1)), nil))
			require.NoError(t, err)
			req := scenarioRequest(t, s)
			req.Values["replicas"] = float64(tc.to)
			p, _, err := plan.ForRequest(req, live)
			require.NoError(t, err)
			var msgs []string
			for _, f := range findings(p, plan.NeedsDecision) {
				msgs = append(msgs, f.Message)
			}
			assert.Contains(t, strings.Join(msgs, "\n"), tc.want)
		})
	}
}

func etcdRestore() func(*v1alpha2.EtcdCluster) error {
	return etcd.Restore(v1alpha2.SnapshotLocation{S3: &v1alpha2.S3Location{
		Endpoint: "https://s3.example.com", Bucket: "backups", Key: "tenant-demo/kubernetes-demo-etcd-snapshot-0.db",
		CredentialsSecretRef: corev1.LocalObjectReference{Name: "s3-credentials"},
	}})
}

// TestPlanVersionChangesFollowEtcdPolicy: a spec.version change is graded
// by etcd's upgrade and downgrade policy, not by ordering: patch changes
// (up or down) and one-minor upgrades (from etcd's minimum patch release)
// are safe; one from below it, a one-minor downgrade, a
// skipped minor version (up or down), a major change and a live version
// that is not one need a decision, with etcd's reason.
func TestPlanVersionChangesFollowEtcdPolicy(t *testing.T) {
	for _, c := range []struct {
		live    string
		verdict plan.Verdict
		message string
	}{
		{"3.6.10", plan.Note, "is a patch change within 3.6"},
		{"3.6.12", plan.Note, "is a patch change within 3.6"},
		{"3.5.32", plan.Note, "upgrades one minor version, which etcd supports as a rolling upgrade"},
		// Below the 3.5 patch release etcd's 3.6 guide requires.
		{"3.5.10", plan.NeedsDecision, "upgrades one minor version from 3.5.10, below 3.5.32: etcd's upgrade guide to 3.6 requires every 3.5 member to run 3.5.32 or later first"},
		{"3.5.31", plan.NeedsDecision, "upgrade to 3.5.32 or later within 3.5 first (a patch change), then to 3.6.11"},
		{"3.4.30", plan.NeedsDecision, `skips a minor version: etcd upgrades one minor version at a time, and "upgrades that skip a minor version are not supported and will likely fail"`},
		{"3.0.0", plan.NeedsDecision, "skips a minor version"},
		{"3.7.0", plan.NeedsDecision, "downgrades one minor version, which etcd supports only after etcdctl downgrade enable 3.6"},
		{"3.8.1", plan.NeedsDecision, "downgrades more than one minor version"},
		{"2.3.8", plan.NeedsDecision, "changes the major version"},
		{"4.6.11", plan.NeedsDecision, "changes the major version"},
		// The CRD's pattern admits leading zeros; no image has them.
		{"3.6.011", plan.NeedsDecision, `etcd "3.6.011" -> "3.6.11" cannot be graded: "3.6.011" is not an etcd version X.Y.Z`},
	} {
		t.Run(c.live, func(t *testing.T) {
			p := planCluster(t, func(objs []etcdshapes.Object) {
				cl := liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd")
				require.NoError(t, unstructured.SetNestedField(cl.Object, c.live, "spec", "version"))
			})
			var got []plan.Finding
			for _, f := range p.AllFindings() {
				if f.Path == "spec.version" {
					got = append(got, f)
				}
			}
			require.Len(t, got, 1, "%s", p)
			assert.Equal(t, c.verdict, got[0].Verdict, got[0].Message)
			if c.verdict == plan.Note || !strings.Contains(c.message, "not an etcd version") {
				assert.Contains(t, got[0].Message, "etcd "+c.live+" -> 3.6.11 ")
			}
			assert.Contains(t, got[0].Message, c.message)
			assert.Equal(t, c.verdict == plan.Note, p.SafeToApply(), "%s", p)
		})
	}
}

// TestPlanMemberFieldChangesNoted: every change of an EtcdCluster field
// that shapes its members (the etcd container's resources, affinity,
// topology spread, image pull Secrets, etcd flags, the metadata of the
// members' objects, the version) gets a note saying that etcd-operator
// gives it only to the members it creates from now on and rolls no
// running member, one per field however many of its leaves change;
// other changes (the volume size, the member count) get none of these.
func TestPlanMemberFieldChangesNoted(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	for _, c := range []struct {
		name string
		edit func(*v1alpha2.EtcdCluster)
		want []string // the member-field notes, by path
	}{
		{"resources", func(c *v1alpha2.EtcdCluster) {
			c.Spec.Resources.Limits[corev1.ResourceMemory] = resource.MustParse("1Gi")
			c.Spec.Resources.Requests[corev1.ResourceCPU] = resource.MustParse("300m")
		}, []string{"spec.resources"}},
		{"affinity", func(c *v1alpha2.EtcdCluster) {
			c.Spec.Affinity.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].Weight = 50
		}, []string{"spec.affinity"}},
		{"required anti-affinity instead of preferred", func(c *v1alpha2.EtcdCluster) {
			pref := c.Spec.Affinity.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution
			c.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = []corev1.PodAffinityTerm{pref[0].PodAffinityTerm}
			c.Spec.Affinity.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution = nil
		}, []string{"spec.affinity"}},
		{"topology spread", func(c *v1alpha2.EtcdCluster) {
			c.Spec.TopologySpreadConstraints[0].TopologyKey = "topology.kubernetes.io/zone"
		}, []string{"spec.topologySpreadConstraints"}},
		{"another topology spread constraint", func(c *v1alpha2.EtcdCluster) {
			zone := *c.Spec.TopologySpreadConstraints[0].DeepCopy()
			zone.TopologyKey = "topology.kubernetes.io/zone"
			c.Spec.TopologySpreadConstraints = append(c.Spec.TopologySpreadConstraints, zone)
		}, []string{"spec.topologySpreadConstraints"}},
		{"image pull Secrets", func(c *v1alpha2.EtcdCluster) {
			c.Spec.ImagePullSecrets = []corev1.LocalObjectReference{{Name: "mirror-credentials"}}
		}, []string{"spec.imagePullSecrets"}},
		{"etcd flags", func(c *v1alpha2.EtcdCluster) {
			n := int64(5000)
			c.Spec.Options.SnapshotCount = &n
			c.Spec.Options.AutoCompactionRetention = "1h"
		}, []string{"spec.options"}},
		{"member metadata", func(c *v1alpha2.EtcdCluster) {
			c.Spec.AdditionalMetadata.Annotations = map[string]string{"backup.example.com/include": "true"}
		}, []string{"spec.additionalMetadata"}},
		{"version", func(c *v1alpha2.EtcdCluster) { c.Spec.Version = "3.6.12" }, []string{"spec.version"}},
		{"resources, spread and flags at once", func(c *v1alpha2.EtcdCluster) {
			c.Spec.Resources.Limits[corev1.ResourceCPU] = resource.MustParse("2")
			c.Spec.TopologySpreadConstraints[0].MaxSkew = 2
			n := int64(1 << 30)
			c.Spec.Options.QuotaBackendBytes = &n
		}, []string{"spec.options", "spec.resources", "spec.topologySpreadConstraints"}},
		{"volume size (no member field)", func(c *v1alpha2.EtcdCluster) {
			c.Spec.Storage.Size = resource.MustParse("8Gi")
		}, nil},
		{"member count (no member field)", func(c *v1alpha2.EtcdCluster) {
			five := int32(5)
			c.Spec.Replicas = &five
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, _, err := plan.ForRequest(scenarioRequest(t, s), scenarioObjects(t, s), apply.ForKind(func(cl *v1alpha2.EtcdCluster) error {
				c.edit(cl)
				return nil
			}))
			require.NoError(t, err)
			cl := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
			require.Equal(t, plan.Update, cl.Action, "%s", p)
			var got []string
			for _, f := range cl.Findings {
				if !strings.Contains(f.Message, "does not roll the running") && !strings.Contains(f.Message, "no member rolls") {
					continue
				}
				assert.Equal(t, plan.Note, f.Verdict, f.Message)
				assert.Contains(t, f.Message, "only", f.Message)
				got = append(got, f.Path)
			}
			sort.Strings(got)
			assert.Equal(t, c.want, got, "%s", p)
			for _, f := range cl.Findings {
				assert.NotContains(t, f.Message, "rolls every member", f.Message)
				assert.NotContains(t, f.Message, "replaces the members", f.Message)
			}
		})
	}
}

// TestPlanQuantityRespelled: a quantity of a custom resource (the
// EtcdCluster's resources and volume size, the VPA's bounds) that the
// live object spells another way than the render, with the same value
// (a Helm install's "0.1" for "100m", bytes for "10Gi"), is a change: the
// API server stores a custom resource as it is sent, so the apply writes
// the object and bumps its generation. The plan names the field and both
// spellings in a note, and nothing else (no member-field note). A
// built-in kind's quantity is stored canonical, so there the respelling
// is no change.
func TestPlanQuantityRespelled(t *testing.T) {
	// planCluster: cluster-demo, rendered with every optional API.
	for _, c := range []struct {
		kind, name string
		path       []string
		live       any
		change     string // the FieldChange's path; empty for none
	}{
		{"EtcdCluster", "kubernetes-demo-etcd", []string{"spec", "resources", "requests", "cpu"}, "0.1", "spec.resources.requests.cpu"},
		{"EtcdCluster", "kubernetes-demo-etcd", []string{"spec", "resources", "limits", "cpu"}, "1000m", "spec.resources.limits.cpu"},
		{"EtcdCluster", "kubernetes-demo-etcd", []string{"spec", "resources", "requests", "memory"}, "512Mi", "spec.resources.requests.memory"},
		{"EtcdCluster", "kubernetes-demo-etcd", []string{"spec", "resources", "limits", "memory"}, int64(536870912), "spec.resources.limits.memory"},
		{"EtcdCluster", "kubernetes-demo-etcd", []string{"spec", "storage", "size"}, "4294967296", "spec.storage.size"},
		{"EtcdCluster", "kubernetes-demo-etcd", []string{"spec", "storage", "size"}, int64(4294967296), "spec.storage.size"},
		{"EtcdCluster", "kubernetes-demo-etcd", []string{"spec", "storage", "size"}, "4096Mi", "spec.storage.size"},
		// Inside an atomic list, replaced whole.
		{"VerticalPodAutoscaler", "kubernetes-demo-etcd", []string{"spec", "resourcePolicy", "containerPolicies"}, nil, "spec.resourcePolicy.containerPolicies"},
		// A built-in kind: the API server prints the canonical form.
		{"CronJob", "kubernetes-demo-etcd-defrag", nil, nil, ""},
	} {
		t.Run(fmt.Sprintf("%s %s %v", c.kind, strings.Join(c.path, "."), c.live), func(t *testing.T) {
			var before any
			p := planCluster(t, func(objs []etcdshapes.Object) {
				u := liveObject(t, objs, c.kind, c.name)
				switch c.kind {
				case "VerticalPodAutoscaler":
					policies, _, _ := unstructured.NestedSlice(u.Object, c.path...)
					min := policies[0].(map[string]any)["minAllowed"].(map[string]any)
					before = min["cpu"]
					min["cpu"] = "0.025"
					require.NoError(t, unstructured.SetNestedSlice(u.Object, policies, c.path...))
				case "CronJob":
					pod := []string{"spec", "jobTemplate", "spec", "template", "spec", "containers"}
					containers, _, _ := unstructured.NestedSlice(u.Object, pod...)
					res := containers[0].(map[string]any)["resources"].(map[string]any)
					res["requests"].(map[string]any)["cpu"] = "0.2"
					require.NoError(t, unstructured.SetNestedSlice(u.Object, containers, pod...))
				default:
					before, _, _ = unstructured.NestedFieldNoCopy(u.Object, c.path...)
					require.NoError(t, unstructured.SetNestedField(u.Object, c.live, c.path...))
				}
			})
			o := objectPlan(t, p, c.kind, c.name)
			require.True(t, p.SafeToApply(), "%s", p)
			if c.change == "" {
				assert.Equal(t, plan.Unchanged, o.Action, "%s", p)
				assert.True(t, p.Empty(), "%s", p)
				return
			}
			require.Equal(t, plan.Update, o.Action, "%s", p)
			require.Len(t, o.Changes, 1, "%s", p)
			ch := o.Changes[0]
			assert.Equal(t, c.change, ch.Path)
			assert.Equal(t, plan.FieldChanged, ch.Type)
			require.Len(t, o.Findings, 1, "%s", p)
			f := o.Findings[0]
			assert.Equal(t, plan.Note, f.Verdict)
			assert.Equal(t, c.change, f.Path)
			assert.Contains(t, f.Message, "metadata.generation goes up by one")
			assert.False(t, p.Empty())
			if c.kind == "VerticalPodAutoscaler" {
				assert.Contains(t, f.Message, `the same quantity spelled another way ([0].minAllowed.cpu "0.025" -> "25m")`)
				assert.Contains(t, f.Message, "its controller reads the same value")
				assert.Equal(t, "25m", before)
				return
			}
			assert.Equal(t, before, ch.Desired, "the render's spelling")
			liveJSON, err := json.Marshal(ch.Live)
			require.NoError(t, err)
			desiredJSON, err := json.Marshal(ch.Desired)
			require.NoError(t, err)
			assert.Contains(t, f.Message, "the same quantity spelled another way ("+string(liveJSON)+" -> "+string(desiredJSON)+")")
			assert.Contains(t, f.Message, "etcd-operator compares quantities by value, so it adopts no new target and no member changes")
			assert.Contains(t, p.String(), "    ~ "+c.change+": "+string(liveJSON)+" -> "+string(desiredJSON)+"\n")
		})
	}
}

// TestPlanQuantityRespelledWithRealChanges: a respelled quantity next to
// a real change keeps its note, and the real change gets its own (the
// EtcdCluster's resources); an atomic list whose elements change besides
// a respelling gets no respelling note.
func TestPlanQuantityRespelledWithRealChanges(t *testing.T) {
	p := planCluster(t, func(objs []etcdshapes.Object) {
		u := liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd")
		require.NoError(t, unstructured.SetNestedField(u.Object, "0.1", "spec", "resources", "requests", "cpu"))
		require.NoError(t, unstructured.SetNestedField(u.Object, "1Gi", "spec", "resources", "limits", "memory"))
		v := liveObject(t, objs, "VerticalPodAutoscaler", "kubernetes-demo-etcd")
		path := []string{"spec", "resourcePolicy", "containerPolicies"}
		policies, _, _ := unstructured.NestedSlice(v.Object, path...)
		policies[0].(map[string]any)["minAllowed"].(map[string]any)["cpu"] = "0.025"
		policies[0].(map[string]any)["maxAllowed"].(map[string]any)["cpu"] = "2"
		require.NoError(t, unstructured.SetNestedSlice(v.Object, policies, path...))
	})
	c := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	var paths []string
	for _, f := range c.Findings {
		paths = append(paths, f.Path)
	}
	// The live 1Gi limit drops to the render's: the memory rule's decision.
	assert.Equal(t, []string{"spec.resources.requests.cpu", "spec.resources", "spec.resources.limits.memory"}, paths, "%s", p)
	assert.Contains(t, c.Findings[0].Message, `("0.1" -> "100m")`)

	v := objectPlan(t, p, "VerticalPodAutoscaler", "kubernetes-demo-etcd")
	assert.Equal(t, plan.Update, v.Action)
	assert.Empty(t, v.Findings, "%s", p)
}

// TestPlanPKIChanges: a change to a CA Certificate's identity, a leaf
// Certificate's Secret, signer, key or subject, or an Issuer is a
// decision; a leaf's other names are not (cert-manager re-issues it from
// the same CA, as SPEC's difference 7 does).
func TestPlanPKIChanges(t *testing.T) {
	set := func(kind, name string, value any, path ...string) func([]etcdshapes.Object) {
		return func(objs []etcdshapes.Object) {
			o := liveObject(t, objs, kind, name)
			require.NoError(t, unstructured.SetNestedField(o.Object, value, path...))
		}
	}
	for _, c := range []struct {
		name     string
		edit     func([]etcdshapes.Object)
		decision string // the path of the decision; "" for none
	}{
		{"CA secretName", set("Certificate", "kubernetes-demo-etcd-ca", "old-ca-tls", "spec", "secretName"), "spec.secretName"},
		{"CA commonName", set("Certificate", "kubernetes-demo-etcd-ca", "old", "spec", "commonName"), "spec.commonName"},
		{"CA key algorithm", set("Certificate", "kubernetes-demo-etcd-peer-ca", "ECDSA", "spec", "privateKey", "algorithm"), "spec.privateKey"},
		{"CA isCA", set("Certificate", "kubernetes-demo-etcd-ca", false, "spec", "isCA"), "spec.isCA"},
		{"leaf secretName", set("Certificate", "kubernetes-demo-etcd-server", "old-server-tls", "spec", "secretName"), "spec.secretName"},
		{"leaf issuer", set("Certificate", "kubernetes-demo-etcd-client", "other-issuer", "spec", "issuerRef", "name"), "spec.issuerRef"},
		{"leaf commonName", set("Certificate", "kubernetes-demo-etcd-client", "someone", "spec", "commonName"), "spec.commonName"},
		{"Issuer CA Secret", set("Issuer", "kubernetes-demo-etcd-issuer", "old-ca-tls", "spec", "ca", "secretName"), "spec.ca.secretName"},
		{"leaf names", set("Certificate", "kubernetes-demo-etcd-server", []any{"kubernetes-demo-etcd"}, "spec", "dnsNames"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := planCluster(t, c.edit)
			ds := findings(p, plan.NeedsDecision)
			if c.decision == "" {
				assert.Empty(t, ds)
				assert.True(t, p.SafeToApply(), p.String())
				return
			}
			require.Len(t, ds, 1, p.String())
			assert.Equal(t, c.decision, ds[0].Path)
			assert.Contains(t, ds[0].Message, "When a CA must change")
			assert.False(t, p.SafeToApply())
		})
	}
}

// TestPlanMemoryLimitDropNeedsDecision: etcd-operator gives a new memory
// limit to the members it creates from now on, and such a member copies
// and maps the whole database while it joins: a lower limit (in any
// spelling), or one set where the live spec has none, can OOMKill every
// replacement, so it needs a decision; a higher limit, the same limit
// respelled and a limit removed are the member fields' note only.
func TestPlanMemoryLimitDropNeedsDecision(t *testing.T) {
	s := goldentest.Scenario(t, "etcd-single-local-10Gi")
	planOf := func(memory string, liveLimit any) *plan.Result {
		live := scenarioObjects(t, s)
		c := liveObject(t, live, "EtcdCluster", "etcd")
		if liveLimit == nil {
			unstructured.RemoveNestedField(c.Object, "spec", "resources", "limits", "memory")
		} else if liveLimit != "" {
			require.NoError(t, unstructured.SetNestedField(c.Object, liveLimit, "spec", "resources", "limits", "memory"))
		}
		req := scenarioRequest(t, s)
		req.Values["resources"] = map[string]any{"cpu": "1", "memory": memory}
		p, _, err := plan.ForRequest(req, live)
		require.NoError(t, err)
		return p
	}
	limitFinding := func(p *plan.Result) *plan.Finding {
		for _, f := range p.AllFindings() {
			if f.Path == "spec.resources.limits.memory" && f.Verdict != plan.Note {
				return &f
			}
		}
		return nil
	}
	for _, tc := range []struct {
		name      string
		memory    string
		liveLimit any // "" as rendered (512Mi); nil removed
		decision  bool
		want      []string
	}{
		{"lower", "256Mi", "", true, []string{"512Mi -> 256Mi", "OOMKilled", "kubectl top pod"}},
		{"lower in bytes", "268435456", "", true, []string{"512Mi -> 268435456", "OOMKilled"}},
		{"lower in another unit", "500M", "", true, []string{"512Mi -> 500M"}},
		{"set where none was", "512Mi", nil, true, []string{"a memory limit 512Mi is set where the running members have none"}},
		// A limit of 0 is no limit, live or desired, in any spelling.
		{"set where the live limit is 0", "512Mi", "0", true, []string{"a memory limit 512Mi is set where the running members have none"}},
		{"set where the live limit is 0Mi", "512Mi", "0Mi", true, []string{"a memory limit 512Mi is set where the running members have none"}},
		{"set where the live limit is the number 0", "512Mi", int64(0), true, []string{"a memory limit 512Mi is set where the running members have none"}},
		{"removed (0)", "0", "", false, nil},
		// A live limit the plan cannot read as a quantity is graded as
		// the drop it may be.
		{"from 2^63-1", "512Mi", "9223372036854775807", true, []string{"no quantity the plan can compare with 512Mi"}},
		{"from 8Ei", "512Mi", "8Ei", true, []string{"no quantity the plan can compare with 512Mi"}},
		{"from 1e100", "512Mi", "1e100", true, []string{"no quantity the plan can compare with 512Mi"}},
		{"from a negative limit", "512Mi", "-1Gi", true, []string{"no quantity the plan can compare with 512Mi (negative)"}},
		{"higher", "1Gi", "", false, nil},
		{"respelled", "536870912", "", false, nil},
		{"same", "512Mi", "", false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := planOf(tc.memory, tc.liveLimit)
			f := limitFinding(p)
			if !tc.decision {
				assert.Nil(t, f, "%s", p)
				return
			}
			require.NotNil(t, f, "%s", p)
			assert.Equal(t, plan.NeedsDecision, f.Verdict, "%s", p)
			assert.Equal(t, "EtcdCluster", f.Object.Kind)
			for _, w := range tc.want {
				assert.Contains(t, f.Message, w)
			}
			assert.False(t, p.SafeToApply(), "%s", p)
		})
	}
}

// TestPlanEphemeralStorageLimitDropNeedsDecision: the ephemeral storage's
// limit is graded as the memory's (the kubelet evicts a Pod past it, and
// a new member gets the new limit): set where none was, or lower, is a
// decision; a raise and a removal are not.
func TestPlanEphemeralStorageLimitDropNeedsDecision(t *testing.T) {
	s := goldentest.Scenario(t, "etcd-single-local-10Gi")
	const field = "spec.resources.limits.ephemeral-storage"
	planOf := func(desired string, live any) *plan.Result {
		objs := scenarioObjects(t, s)
		c := liveObject(t, objs, "EtcdCluster", "etcd")
		if live != nil {
			require.NoError(t, unstructured.SetNestedField(c.Object, live, "spec", "resources", "limits", "ephemeral-storage"))
		}
		req := scenarioRequest(t, s)
		res := map[string]any{"cpu": "1", "memory": "512Mi"}
		if desired != "" {
			res["ephemeral-storage"] = desired
		}
		req.Values["resources"] = res
		p, _, err := plan.ForRequest(req, objs)
		require.NoError(t, err)
		return p
	}
	decision := func(p *plan.Result) *plan.Finding {
		for _, f := range p.AllFindings() {
			if f.Path == field && f.Verdict == plan.NeedsDecision {
				return &f
			}
		}
		return nil
	}
	for _, tc := range []struct {
		name     string
		desired  string
		live     any
		decision string // a word of its message; "" for none
	}{
		{"set where none was", "1Gi", nil, "an ephemeral-storage limit 1Gi is set where the running members have none"},
		{"lower", "1Gi", "2Gi", "the ephemeral-storage limit drops 2Gi -> 1Gi"},
		{"higher", "4Gi", "2Gi", ""},
		{"removed", "", "2Gi", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := planOf(tc.desired, tc.live)
			f := decision(p)
			if tc.decision == "" {
				assert.Nil(t, f, "%s", p)
				return
			}
			require.NotNil(t, f, "%s", p)
			assert.Contains(t, f.Message, tc.decision)
			assert.Contains(t, f.Message, "evicted by the kubelet")
			assert.False(t, p.SafeToApply(), "%s", p)
		})
	}
}

package plan_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testtier"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	runtimeJSON "k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// A live object of an optional kind of the stack proves its API is
// served: plan.ForRequest renders the stack as if the API were listed, so the
// object is compared (here: unchanged), never deleted, and the plan says
// which live object the API was inferred from.
func TestPlanInfersOptionalAPIs(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo") // rendered with every optional API
	live := scenarioObjects(t, s)
	vpa := plan.InferredAPI{API: etcdshapes.APIVerticalPodAutoscaler,
		From: plan.ObjectRef{APIVersion: "autoscaling.k8s.io/v1", Kind: "VerticalPodAutoscaler", Namespace: "tenant-demo", Name: "kubernetes-demo-etcd"}}
	scrape := plan.InferredAPI{API: etcdshapes.APIVMPodScrape,
		From: plan.ObjectRef{APIVersion: "operator.victoriametrics.com/v1beta1", Kind: "VMPodScrape", Namespace: "tenant-demo", Name: "kubernetes-demo-etcd-pod-scrape"}}
	cnp := plan.InferredAPI{API: etcdshapes.APICiliumNetworkPolicy,
		From: plan.ObjectRef{APIVersion: "cilium.io/v2", Kind: "CiliumNetworkPolicy", Namespace: "tenant-demo", Name: "kubernetes-demo-etcd"}}
	for _, tc := range []struct {
		name   string
		listed []string
		want   []plan.InferredAPI
	}{
		{"none listed", nil, []plan.InferredAPI{vpa, scrape, cnp}},
		{"VPA listed", []string{etcdshapes.APIVerticalPodAutoscaler}, []plan.InferredAPI{scrape, cnp}},
		{"Cilium listed", []string{etcdshapes.APICiliumNetworkPolicy}, []plan.InferredAPI{vpa, scrape}},
		{"all listed", golden.AllAPIs, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := scenarioRequest(t, s)
			req.APIVersions = tc.listed
			p, desired, err := plan.ForRequest(req, live)
			require.NoError(t, err)
			assert.Equal(t, tc.want, p.InferredAPIs)
			assert.True(t, p.Empty(), "%s", p)
			assert.True(t, p.SafeToApply(), "%s", p)
			assert.Zero(t, p.Count(plan.Delete), "%s", p)
			kinds := map[string]bool{}
			for _, o := range desired {
				kinds[kindName(o)] = true
			}
			for _, k := range []string{"VerticalPodAutoscaler", "VMPodScrape", "CiliumNetworkPolicy"} {
				assert.True(t, kinds[k], "the desired stack renders the %s", k)
			}
			text := p.String()
			for _, a := range tc.want {
				assert.Contains(t, text, "API served: "+a.API+": inferred from live object "+a.From.String()+"\n")
			}
			if tc.want == nil {
				assert.NotContains(t, text, "API served")
			}
			assert.Contains(t, text, "No changes.")
		})
	}
}

// Only the stack's own objects infer an API, whatever version they were
// read at; another stack's object of the kind neither infers it nor is
// touched.
func TestPlanInfersOptionalAPIsFromTheStackOnly(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	live := scenarioObjects(t, s)
	// The VPA belongs to another stack; the policy was read at another
	// version.
	liveObject(t, live, "VerticalPodAutoscaler", "kubernetes-demo-etcd").SetName("kubernetes-other-etcd")
	liveObject(t, live, "CiliumNetworkPolicy", "kubernetes-demo-etcd").SetAPIVersion("cilium.io/v2alpha1")
	req := scenarioRequest(t, s)
	req.APIVersions = nil
	p, desired, err := plan.ForRequest(req, live)
	require.NoError(t, err)
	var apis []string
	for _, a := range p.InferredAPIs {
		apis = append(apis, a.API)
	}
	assert.Equal(t, []string{etcdshapes.APIVMPodScrape, etcdshapes.APICiliumNetworkPolicy}, apis)
	assert.Equal(t, "cilium.io/v2alpha1", p.InferredAPIs[1].From.APIVersion)
	for _, o := range desired {
		assert.NotEqual(t, "VerticalPodAutoscaler", kindName(o), "no live VPA of the stack: the API is not inferred")
	}
	assert.True(t, p.Empty(), "%s", p)
}

// The growth of plan time with the length of a live list, a live map, the
// managedFields and the number of live objects: from 2,000 to 20,000
// elements the CPU time of ReadObjects and plan.ForRequest must grow about
// ten times (linear; n log n, the sorted sets of structured-merge-diff,
// gives about thirteen), less than fifteen, far from the hundred times of
// a quadratic path, and 20,000 elements take less than 10 seconds.
// CPU time, not the wall clock, and the fastest of up to three runs, so
// that a loaded machine does not fail it. The quick tier plans each shape
// at 2,000 elements and checks what the plan says; the growth to 20,000
// (some 6 s of CPU) is the slow tier's (go test -tags slow).
func TestPlanTimeIsLinear(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	req := scenarioRequest(t, s)
	pod := []string{"spec", "jobTemplate", "spec", "template", "spec"}
	ofKind := func(objs []any, kind string) map[string]any {
		for _, o := range objs {
			if m := o.(map[string]any); m["kind"] == kind {
				return m
			}
		}
		t.Fatal("no " + kind)
		return nil
	}
	cronJob := func(objs []any) map[string]any { return ofKind(objs, "CronJob") }
	etcdCluster := func(objs []any) map[string]any { return ofKind(objs, "EtcdCluster") }
	named := func(prefix string, n int, extra map[string]any) []any {
		out := make([]any, n)
		for i := range out {
			e := map[string]any{"name": fmt.Sprintf("%s-%d", prefix, i)}
			for k, v := range extra {
				e[k] = v
			}
			out[i] = e
		}
		return out
	}
	shapes := []struct {
		name string
		grow func(objs []any, n int) []any
		// check is what the plan must say about the grown live stack.
		check func(t *testing.T, p *plan.Result, n int)
	}{
		{"CronJob args", func(objs []any, n int) []any {
			c := cronJob(objs)
			containers, _, _ := unstructured.NestedSlice(c, append(pod, "containers")...)
			args := containers[0].(map[string]any)["args"].([]any)
			for i := 0; i < n; i++ {
				args = append(args, fmt.Sprintf("--arg-%d", i))
			}
			containers[0].(map[string]any)["args"] = args
			require.NoError(t, unstructured.SetNestedSlice(c, containers, append(pod, "containers")...))
			return objs
		}, func(t *testing.T, p *plan.Result, n int) {
			o := objectPlan(t, p, "CronJob", "kubernetes-demo-etcd-defrag")
			require.Len(t, o.Changes, 1)
			assert.Len(t, o.Changes[0].Live, 9+n)
		}},
		{"sidecar containers", func(objs []any, n int) []any {
			c := cronJob(objs)
			containers, _, _ := unstructured.NestedSlice(c, append(pod, "containers")...)
			require.NoError(t, unstructured.SetNestedSlice(c, append(containers, named("sidecar", n, map[string]any{"image": "busybox"})...), append(pod, "containers")...))
			return objs
		}, func(t *testing.T, p *plan.Result, n int) {
			// Containers are keyed by name: sidecars no manager owns stay.
			assert.Equal(t, plan.Unchanged, objectPlan(t, p, "CronJob", "kubernetes-demo-etcd-defrag").Action)
		}},
		{"spread constraints", func(objs []any, n int) []any {
			c := etcdCluster(objs)
			spread, _, _ := unstructured.NestedSlice(c, "spec", "topologySpreadConstraints")
			for i := 0; i < n; i++ {
				spread = append(spread, map[string]any{"maxSkew": int64(1), "topologyKey": fmt.Sprintf("k%d", i), "whenUnsatisfiable": "DoNotSchedule"})
			}
			require.NoError(t, unstructured.SetNestedSlice(c, spread, "spec", "topologySpreadConstraints"))
			return objs
		}, func(t *testing.T, p *plan.Result, n int) {
			// An atomic list: the apply replaces it whole.
			ch := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd").Changes
			require.Len(t, ch, 1)
			assert.Len(t, ch[0].Live, n+1)
		}},
		{"labels", func(objs []any, n int) []any {
			labels := map[string]any{}
			for i := 0; i < n; i++ {
				labels[fmt.Sprintf("example.com/l%d", i)] = "x"
			}
			require.NoError(t, unstructured.SetNestedMap(etcdCluster(objs), labels, "metadata", "labels"))
			return objs
		}, func(t *testing.T, p *plan.Result, n int) {
			assert.True(t, p.Empty(), "labels the stack does not set are not compared")
		}},
		{"managedFields entries", func(objs []any, n int) []any {
			c := etcdCluster(objs)
			entries, _, _ := unstructured.NestedSlice(c, "metadata", "managedFields")
			labels := map[string]any{}
			for i := 0; i < n; i++ {
				l := fmt.Sprintf("example.com/l%d", i)
				labels[l] = "x"
				entries = append(entries, map[string]any{"manager": fmt.Sprintf("m%d", i), "operation": "Update",
					"fieldsV1": map[string]any{"f:metadata": map[string]any{"f:labels": map[string]any{"f:" + l: map[string]any{}}}}})
			}
			require.NoError(t, unstructured.SetNestedMap(c, labels, "metadata", "labels"))
			require.NoError(t, unstructured.SetNestedSlice(c, entries, "metadata", "managedFields"))
			return objs
		}, func(t *testing.T, p *plan.Result, n int) {
			assert.True(t, p.Empty(), "%s", p)
		}},
		{"managed list elements the render dropped", func(objs []any, n int) []any {
			// FieldManager applied n init containers, which the render
			// no longer has: every one is removed.
			c := cronJob(objs)
			require.NoError(t, unstructured.SetNestedSlice(c, named("init", n, map[string]any{"image": "busybox"}), append(pod, "initContainers")...))
			owned := map[string]any{}
			for i := 0; i < n; i++ {
				owned[fmt.Sprintf(`k:{"name":"init-%d"}`, i)] = map[string]any{".": map[string]any{}, "f:image": map[string]any{}, "f:name": map[string]any{}}
			}
			entries, _, _ := unstructured.NestedSlice(c, "metadata", "managedFields")
			entries = append(entries, map[string]any{"manager": apply.FieldManager, "operation": "Apply",
				"fieldsV1": map[string]any{"f:spec": map[string]any{"f:jobTemplate": map[string]any{"f:spec": map[string]any{"f:template": map[string]any{
					"f:spec": map[string]any{"f:initContainers": owned}}}}}}})
			require.NoError(t, unstructured.SetNestedSlice(c, entries, "metadata", "managedFields"))
			return objs
		}, func(t *testing.T, p *plan.Result, n int) {
			assert.Len(t, objectPlan(t, p, "CronJob", "kubernetes-demo-etcd-defrag").Changes, n)
		}},
		{"live objects", func(objs []any, n int) []any {
			for i := 0; i < n; i++ {
				objs = append(objs, map[string]any{"apiVersion": "v1", "kind": "Secret",
					"metadata": map[string]any{"name": fmt.Sprintf("s%d", i), "namespace": "tenant-demo"}})
			}
			return objs
		}, func(t *testing.T, p *plan.Result, n int) {
			assert.True(t, p.Empty(), "objects of no stack are ignored")
		}},
	}
	// The live stack as kubectl get -o json prints it (JSON keeps the
	// YAML parser's constant out of the measure; its cost is linear).
	var base map[string]any
	require.NoError(t, yaml.Unmarshal(scenarioLive(t, s), &base))
	liveOf := func(grow func([]any, int) []any, n int) []byte {
		list := runtimeCopy(base)
		list["items"] = grow(list["items"].([]any), n)
		out, err := json.Marshal(list)
		require.NoError(t, err)
		return out
	}
	timedPlan := func(t *testing.T, data []byte) (*plan.Result, time.Duration) {
		runtime.GC()
		start := cpuTime()
		live, err := plan.ReadObjects(data)
		require.NoError(t, err)
		p, _, err := plan.ForRequest(req, live)
		took := cpuTime() - start
		require.NoError(t, err)
		return p, took
	}
	// Linear is x10, n log n about x12, quadratic x100; a larger heap's
	// garbage collection and a loaded machine add a few, so x25 fails
	// every super-linear shape and no linear one.
	const bound = 25.0
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			smallData := liveOf(sh.grow, 2000)
			p, small := timedPlan(t, smallData)
			sh.check(t, p, 2000)
			testtier.SkipUnlessSlow(t, "plan time from 2,000 to 20,000 elements")
			largeData := liveOf(sh.grow, 20000)
			for run := 0; run < 2; run++ {
				if _, took := timedPlan(t, smallData); took < small {
					small = took
				}
			}
			// The fastest of up to three runs: a run slowed by a loaded
			// machine is run again.
			p, large := timedPlan(t, largeData)
			sh.check(t, p, 20000)
			for run := 0; run < 2 && float64(large)/float64(small) >= bound; run++ {
				if _, took := timedPlan(t, largeData); took < large {
					large = took
				}
			}
			ratio := float64(large) / float64(small)
			t.Logf("2,000: %v; 20,000: %v (x%.1f)", small, large, ratio)
			assert.Less(t, ratio, bound, "plan time grows faster than linearly: 2,000 take %v, 20,000 take %v", small, large)
			assert.Less(t, large, 10*time.Second)
		})
	}
}

// runtimeCopy is a deep copy of a JSON tree.
func runtimeCopy(m map[string]any) map[string]any {
	return runtimeJSON.DeepCopyJSON(m)
}

// A live object as a client or a hand-written file may give it, without
// the fields the API server defaults: what the desired object sets to
// the default is no change, and the CRD's defaults count in the rules.
func TestPlanAppliesDefaultsToLiveObjects(t *testing.T) {
	p := planCluster(t, func(objs []etcdshapes.Object) {
		c := liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd")
		unstructured.RemoveNestedField(c.Object, "spec", "replicas")          // CRD default 3
		unstructured.RemoveNestedField(c.Object, "spec", "storage", "medium") // CRD default ""
		require.NoError(t, unstructured.SetNestedField(c.Object, nil, "spec", "progressDeadlineSeconds"))
		cj := liveObject(t, objs, "CronJob", "kubernetes-demo-etcd-defrag")
		unstructured.RemoveNestedField(cj.Object, "spec", "successfulJobsHistoryLimit") // built-in default 3
		unstructured.RemoveNestedField(cj.Object, "spec", "failedJobsHistoryLimit")     // built-in default 1
	})
	assert.True(t, p.Empty(), "%s", p)

	// From a live cluster without replicas (3) to 1 member: the CRD's
	// default is the live count.
	p = planCluster(t, func(objs []etcdshapes.Object) {
		unstructured.RemoveNestedField(liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd").Object, "spec", "replicas")
	}, func(r *etcdshapes.Request) {
		r.Values = map[string]any{"etcd": map[string]any{"replicas": float64(1)}}
	})
	c := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	assert.Contains(t, noElements(c.Changes), plan.FieldChange{Path: "spec.replicas", Type: plan.FieldChanged, Live: int64(3), Desired: int64(1)})
	var msgs []string
	for _, f := range findings(p, plan.NeedsDecision) {
		msgs = append(msgs, f.Message)
	}
	assert.Contains(t, strings.Join(msgs, "\n"), "replicas 3 -> 1: quorum 2 -> 1")

	// A live cluster without storage has the CRD's default storage
	// (1Gi): the render's 4Gi grows it.
	p = planCluster(t, func(objs []etcdshapes.Object) {
		c := liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd")
		unstructured.RemoveNestedField(c.Object, "spec", "storage")
	})
	c = objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	assert.Equal(t, []plan.FieldChange{{Path: "spec.storage.size", Type: plan.FieldChanged, Live: "1Gi", Desired: "4Gi"}}, noElements(c.Changes), "%s", p)
	assert.Contains(t, p.String(), "note spec.storage.size: the data volumes grow 1Gi -> 4Gi")
}

// A field FieldManager applied and no longer sets is removed by the
// apply and defaulted again by the API server: a change to the default.
func TestPlanRemovedFieldWithADefaultIsAChangeToIt(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	req := scenarioRequest(t, s)
	objs, err := etcdshapes.Render(req)
	require.NoError(t, err)
	memory := apply.ForKind(func(c *v1alpha2.EtcdCluster) error {
		c.Spec.Storage.Medium = "Memory"
		return nil
	})
	require.NoError(t, apply.Modify(objs, memory))
	marshalled, err := etcdshapes.Marshal(objs)
	require.NoError(t, err)
	live, err := plan.ReadObjects(liveFile(t, marshalled, kamajiControlPlane(s.Namespace, s.Release, "tenant-demo.kubernetes-demo")))
	require.NoError(t, err)
	// serverize gives every live EtcdCluster the default medium.
	require.NoError(t, unstructured.SetNestedField(liveObject(t, live, "EtcdCluster", "kubernetes-demo-etcd").Object, "Memory", "spec", "storage", "medium"))
	p, _, err := plan.ForRequest(req, live)
	require.NoError(t, err)
	c := objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	require.Equal(t, []plan.FieldChange{{Path: "spec.storage.medium", Type: plan.FieldChanged, Live: "Memory", Desired: ""}}, noElements(c.Changes), "%s", p)
	refused := findings(p, plan.Refused)
	require.Len(t, refused, 1, "%s", p)
	assert.Equal(t, "spec.storage.medium", refused[0].Path)
	assert.Contains(t, refused[0].Message, "spec.storage.medium is immutable")
	assert.Contains(t, p.String(), `~ spec.storage.medium: "Memory" -> ""`)

	// A field without a default is removed.
	unlabelled := apply.WithLabels(map[string]string{"team": "a"})
	objs, err = etcdshapes.Render(req)
	require.NoError(t, err)
	require.NoError(t, apply.Modify(objs, unlabelled))
	marshalled, err = etcdshapes.Marshal(objs)
	require.NoError(t, err)
	live, err = plan.ReadObjects(liveFile(t, marshalled, kamajiControlPlane(s.Namespace, s.Release, "tenant-demo.kubernetes-demo")))
	require.NoError(t, err)
	p, _, err = plan.ForRequest(req, live)
	require.NoError(t, err)
	c = objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd")
	assert.Equal(t, []plan.FieldChange{{Path: "metadata.labels.team", Type: plan.FieldRemoved, Live: "a"}}, noElements(c.Changes), "%s", p)
}

// A size is a quantity in either spelling: a live size stored as a
// number shrinks like one stored as a string.
func TestPlanNumericSizeShrinkRefused(t *testing.T) {
	for _, size := range []any{int64(10737418240), float64(10737418240), "10Gi", "10737418240"} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			p := planCluster(t, func(objs []etcdshapes.Object) {
				c := liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd")
				require.NoError(t, unstructured.SetNestedField(c.Object, size, "spec", "storage", "size"))
			})
			refused := findings(p, plan.Refused)
			require.Len(t, refused, 1, "%s", p)
			assert.Equal(t, "spec.storage.size", refused[0].Path)
			assert.Contains(t, refused[0].Message, "cannot be shrunk")
		})
	}
}

// WriteText returns the first write error and stops writing.
func TestPlanWriteTextReportsWriteErrors(t *testing.T) {
	p := planCluster(t, nil)
	for _, after := range []int{0, 1, 2} {
		w := &failingWriter{after: after}
		err := p.WriteText(w)
		require.ErrorIs(t, err, errDiskFull, "after %d writes", after)
		assert.Equal(t, after+1, w.calls, "no write after the failing one")
	}
	var b strings.Builder
	require.NoError(t, p.WriteText(&b))
	assert.Equal(t, p.String(), b.String())
}

var errDiskFull = errors.New("no space left on device")

// failingWriter accepts after writes, then fails every one.
type failingWriter struct{ after, calls int }

func (w *failingWriter) Write(b []byte) (int, error) {
	w.calls++
	if w.calls > w.after {
		return 0, errDiskFull
	}
	return len(b), nil
}

// serverFixtureRequests are the e2e suite's fixtureRequests: the stacks
// testdata/apiserver/live.yaml holds as kube-apiserver returned them.
func serverFixtureRequests(apis []string) []etcdshapes.Request {
	return []etcdshapes.Request{
		{Caller: naming.CallerEtcd, Namespace: "tenant-fixture", ChartVersion: "1.2.3"},
		{Caller: naming.CallerCluster, Namespace: "tenant-fixture", Release: "kubernetes-fixture", ChartVersion: "1.2.3", APIVersions: apis},
	}
}

// A live stack as `kubectl get -o yaml --show-managed-fields` returns it
// after the API server defaulted it (recorded from a real kube-apiserver
// by the e2e suite), planned against the same desired stack: no changes,
// with or without the optional APIs listed.
func TestPlanOfServerDefaultedStacksIsEmpty(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "apiserver", "live.yaml"))
	require.NoError(t, err)
	live, err := plan.ReadObjects(data)
	require.NoError(t, err)
	for _, apis := range [][]string{golden.AllAPIs, nil} {
		for _, req := range serverFixtureRequests(apis) {
			t.Run(fmt.Sprintf("%s %v", req.Caller, apis), func(t *testing.T) {
				p, desired, err := plan.ForRequest(req, live)
				require.NoError(t, err)
				assert.True(t, p.Empty(), "%s", p)
				assert.True(t, p.SafeToApply(), "%s", p)
				assert.NotEmpty(t, desired)
				if req.Caller == naming.CallerCluster && apis == nil {
					assert.Len(t, p.InferredAPIs, 3, "%s", p)
				} else {
					assert.Empty(t, p.InferredAPIs, "%s", p)
				}
			})
		}
	}
}

// A typed List (SecretList) may leave its items' apiVersion and kind out,
// as the API server does; they are the list's.
func TestReadObjectsTypedList(t *testing.T) {
	objs, err := plan.ReadObjects([]byte("apiVersion: v1\nkind: SecretList\nitems:\n- metadata: {name: a, namespace: tenant-x}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n"))
	require.NoError(t, err)
	require.Len(t, objs, 2)
	assert.Equal(t, "/v1, Kind=Secret", objs[0].GetObjectKind().GroupVersionKind().String())
	assert.Equal(t, "ConfigMap", kindName(objs[1]))
	// JSON documents (kubectl get -o json) read the same.
	js, err := plan.ReadObjects([]byte(`{"apiVersion": "v1", "kind": "SecretList", "items": [{"metadata": {"name": "a", "namespace": "tenant-x"}}]}`))
	require.NoError(t, err)
	require.Len(t, js, 1)
	assert.Equal(t, objs[0], js[0])
}

// Every field of the live objects the rules read, and every field above
// them, replaced by a value of another type: LiveStateFromObjects and
// Plan either go on (a field the plan only compares is a change like any
// other) or refuse with a *invalid.Error naming a field of the object;
// they never panic and never fail with another error.
func TestPlanMalformedLiveFieldsAreTypedErrors(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	req := scenarioRequest(t, s)
	base := scenarioObjects(t, s)
	rendered, err := etcdshapes.Render(req)
	require.NoError(t, err)
	printed, err := etcdshapes.Marshal(rendered)
	require.NoError(t, err)
	desired, err := plan.ReadObjects(printed) // unstructured: the plan reads them as they are
	require.NoError(t, err)
	others := []any{"x", 1.5, map[string]any{"a": "b"}}
	cases, refused := 0, 0
	for i, o := range base {
		kind := kindName(o)
		if kind != "EtcdCluster" && kind != "DataStore" && kind != "KamajiControlPlane" && kind != "CronJob" {
			continue
		}
		u := o.(*unstructured.Unstructured)
		for _, p := range mapPaths(u.Object, nil, 3) {
			for _, v := range others {
				live := make([]etcdshapes.Object, len(base))
				copy(live, base)
				c := u.DeepCopy()
				setAt(c.Object, p, v)
				live[i] = c
				cases++
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s %s = %v: panic: %v", kind, strings.Join(p, "."), v, r)
						}
					}()
					_, err := plan.LiveStateFromObjects(req.Namespace, req.Release, live)
					if err == nil {
						_, err = plan.Compute(live, desired)
					}
					if err == nil {
						return
					}
					refused++
					var ne *invalid.Error
					if !errors.As(err, &ne) {
						t.Errorf("%s %s = %v: not a *invalid.Error: %T %v", kind, strings.Join(p, "."), v, err, err)
						return
					}
					assert.True(t, strings.HasPrefix(ne.Field, fmt.Sprintf("live[%d].", i)), "%s %s = %v: %v", kind, strings.Join(p, "."), v, err)
				}()
			}
		}
	}
	t.Logf("%d malformed live stacks, %d refused", cases, refused)
	assert.Positive(t, refused)
}

// mapPaths lists the paths of the map keys of a tree down to depth
// levels below spec and status (metadata: its own keys and one below).
func mapPaths(m map[string]any, prefix []string, depth int) [][]string {
	var out [][]string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		p := append(append([]string{}, prefix...), k)
		out = append(out, p)
		if c, ok := m[k].(map[string]any); ok && depth > 0 {
			out = append(out, mapPaths(c, p, depth-1)...)
		}
	}
	return out
}

func setAt(m map[string]any, p []string, v any) {
	for _, k := range p[:len(p)-1] {
		m = m[k].(map[string]any)
	}
	m[p[len(p)-1]] = v
}

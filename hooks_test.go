package etcdshapes_test

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// runsOnUninstall reads an object's JSON as the API server would store it
// and reports whether Helm runs it on uninstall: its helm.sh/hook names
// post-delete or pre-delete. It reads the annotation itself, not through
// IsUninstallHook, so that the tests below check that rule too.
func runsOnUninstall(t *testing.T, body []byte) bool {
	t.Helper()
	var o struct {
		Metadata struct {
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(body, &o))
	hook := o.Metadata.Annotations["helm.sh/hook"]
	return strings.Contains(hook, "post-delete") || strings.Contains(hook, "pre-delete")
}

// objectJSON is the object as the apply body would carry it.
func objectJSON(t *testing.T, o etcdshapes.Object) []byte {
	t.Helper()
	b, err := json.Marshal(o)
	require.NoError(t, err)
	return b
}

// TestNothingAppliedRunsOnUninstall: for every golden stack, what the Go
// API gives for applying (apply.Requests, with and without modifiers,
// WithoutUninstallHooks) holds no object Helm runs on uninstall, and every
// other object; the explicit opt-in (apply.UninstallHookRequests) holds
// exactly those objects; the plan never creates, updates or deletes one,
// not even when they are live (a stack applied from an earlier render that
// printed them), and lists them as not applied.
func TestNothingAppliedRunsOnUninstall(t *testing.T) {
	hooksSeen := 0
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			objs, err := s.Render()
			require.NoError(t, err)
			var want, hooks []string
			for _, o := range objs {
				ref := o.GetObjectKind().GroupVersionKind().Kind + "/" + o.GetName()
				if runsOnUninstall(t, objectJSON(t, o)) {
					hooks = append(hooks, ref)
				} else {
					want = append(want, ref)
				}
			}
			if len(objs) > 0 {
				require.Len(t, hooks, 4, "the cleanup's ServiceAccount, Role, RoleBinding and Job")
			}
			hooksSeen += len(hooks)

			refs := func(reqs []apply.Request) []string {
				var out []string
				for _, r := range reqs {
					out = append(out, r.Object.GetKind()+"/"+r.Name)
				}
				return out
			}
			for _, mods := range [][]apply.Modifier{nil, {apply.WithLabels(map[string]string{"team": "a"})}} {
				reqs, err := apply.Requests(objs, mods...)
				require.NoError(t, err)
				require.Equal(t, want, refs(reqs))
				for _, r := range reqs {
					assert.False(t, runsOnUninstall(t, r.Body), "%s/%s would run on apply", r.Object.GetKind(), r.Name)
				}
				opted, err := apply.UninstallHookRequests(objs, mods...)
				require.NoError(t, err)
				require.Equal(t, hooks, refs(opted))
				for _, r := range opted {
					assert.True(t, runsOnUninstall(t, r.Body), "%s/%s", r.Object.GetKind(), r.Name)
				}
			}
			var kept []string
			for _, o := range etcdshapes.WithoutUninstallHooks(objs) {
				require.False(t, runsOnUninstall(t, objectJSON(t, o)))
				kept = append(kept, o.GetObjectKind().GroupVersionKind().Kind+"/"+o.GetName())
			}
			require.Equal(t, want, kept)

			// Planned against nothing, and against the whole render live.
			live, err := plan.ReadObjects(mustMarshal(t, objs))
			require.NoError(t, err)
			for _, l := range [][]etcdshapes.Object{nil, live} {
				res, err := plan.Compute(l, objs)
				require.NoError(t, err)
				var skipped []string
				for _, r := range res.Skipped {
					skipped = append(skipped, r.Kind+"/"+r.Name)
				}
				require.Equal(t, hooks, skipped)
				for _, op := range res.Objects {
					require.NotContains(t, hooks, op.Kind+"/"+op.Name, "planned: %s %s", op.Action, op.ObjectRef)
				}
				if l != nil {
					require.True(t, res.SafeToApply())
					for _, op := range res.Objects {
						require.Equal(t, plan.Unchanged, op.Action, "%s", op.ObjectRef)
					}
				}
			}
			// The live hooks, with an object gone from the render (the
			// CronJob): that object is deleted, the hooks never.
			if len(live) > 0 {
				var desired []etcdshapes.Object
				for _, o := range objs {
					if o.GetObjectKind().GroupVersionKind().Kind != "CronJob" {
						desired = append(desired, o)
					}
				}
				res, err := plan.Compute(live, desired)
				require.NoError(t, err)
				deletes := 0
				for _, op := range res.Objects {
					require.NotContains(t, hooks, op.Kind+"/"+op.Name, "planned: %s %s", op.Action, op.ObjectRef)
					if op.Action == plan.Delete {
						deletes++
						require.Equal(t, "CronJob", op.Kind)
					}
				}
				require.Equal(t, 1, deletes, "the plan deletes what left the stack")
			}
		})
	}
	require.NotZero(t, hooksSeen)
}

func mustMarshal(t *testing.T, objs []etcdshapes.Object) []byte {
	t.Helper()
	b, err := etcdshapes.Marshal(objs)
	require.NoError(t, err)
	return b
}

// TestModifiersNeverDecideWhatIsApplied: whether an object is a Helm
// uninstall hook is decided before any modifier runs, at every entry point
// that runs modifiers or takes modified objects (apply.Requests,
// apply.Modified and apply.Modify followed by what takes their output,
// plan.ForRequest and its desired objects), for every modifier the apply
// package makes and the edits a caller writes: a modifier that would
// turn a hook into an object that is applied (its helm.sh/hook removed,
// rewritten, or every annotation replaced) or an applied object into a
// hook is refused, and no entry point ever gives a hook to apply. The
// explicit opt-in (apply.UninstallHookRequests) gives the hooks alone.
func TestModifiersNeverDecideWhatIsApplied(t *testing.T) {
	owner := metav1.OwnerReference{APIVersion: "example.com/v1", Kind: "Tenant", Name: "demo", UID: "7c0e"}
	modifiers := []struct {
		name string
		mod  func(given []etcdshapes.Object) apply.Modifier
		// hostile: changes whether some object is a hook, so it must be
		// refused wherever it runs on such an object.
		hostile bool
	}{
		{"WithLabels", func([]etcdshapes.Object) apply.Modifier { return apply.WithLabels(map[string]string{"team": "a"}) }, false},
		{"WithAnnotations", func([]etcdshapes.Object) apply.Modifier { return apply.WithAnnotations(map[string]string{"team": "a"}) }, false},
		{"WithOwnerReference", func([]etcdshapes.Object) apply.Modifier { return apply.WithOwnerReference(owner) }, false},
		{"ForKind EtcdCluster", func([]etcdshapes.Object) apply.Modifier {
			return apply.ForKind(func(c *v1alpha2.EtcdCluster) error {
				c.Spec.ImagePullSecrets = append(c.Spec.ImagePullSecrets, corev1.LocalObjectReference{Name: "registry"})
				return nil
			})
		}, false},
		{"hook widened to another uninstall event", func([]etcdshapes.Object) apply.Modifier {
			return func(o etcdshapes.Object) error {
				if a := o.GetAnnotations(); a["helm.sh/hook"] == "post-delete" {
					a = maps.Clone(a)
					a["helm.sh/hook"] = "post-delete,pre-delete"
					o.SetAnnotations(a)
				}
				return nil
			}
		}, false},
		{"WithAnnotations helm.sh/hook post-delete", func([]etcdshapes.Object) apply.Modifier {
			return apply.WithAnnotations(map[string]string{"helm.sh/hook": "post-delete"})
		}, true},
		{"ForKind Job without helm.sh/hook", func([]etcdshapes.Object) apply.Modifier {
			return apply.ForKind(func(j *batchv1.Job) error { delete(j.Annotations, "helm.sh/hook"); return nil })
		}, true},
		{"every annotation replaced", func([]etcdshapes.Object) apply.Modifier {
			return func(o etcdshapes.Object) error { o.SetAnnotations(map[string]string{"team": "a"}); return nil }
		}, true},
		{"hook rewritten to an install hook", func([]etcdshapes.Object) apply.Modifier {
			return func(o etcdshapes.Object) error {
				if a := o.GetAnnotations(); a["helm.sh/hook"] != "" {
					a = maps.Clone(a)
					a["helm.sh/hook"] = "pre-install"
					o.SetAnnotations(a)
				}
				return nil
			}
		}, true},
		{"a modifier that edits the objects given, not its copy", func(given []etcdshapes.Object) apply.Modifier {
			return func(etcdshapes.Object) error {
				for _, o := range given {
					if a := o.GetAnnotations(); a["helm.sh/hook"] != "" {
						a = maps.Clone(a)
						delete(a, "helm.sh/hook")
						o.SetAnnotations(a)
					}
				}
				return nil
			}
		}, true},
	}
	type out struct {
		ref  string
		body []byte
	}
	fromRequests := func(reqs []apply.Request, err error) ([]out, error) {
		var o []out
		for _, r := range reqs {
			o = append(o, out{r.Object.GetKind() + "/" + r.Name, r.Body})
		}
		return o, err
	}
	fromObjects := func(t *testing.T, objs []etcdshapes.Object) []out {
		var o []out
		for _, x := range objs {
			o = append(o, out{x.GetObjectKind().GroupVersionKind().Kind + "/" + x.GetName(), objectJSON(t, x)})
		}
		return o
	}
	fromPlan := func(p *plan.Result) []out {
		var o []out
		for _, op := range p.Objects {
			o = append(o, out{op.Kind + "/" + op.Name, nil})
		}
		return o
	}
	entries := []struct {
		name string
		run  func(t *testing.T, req etcdshapes.Request, objs []etcdshapes.Object, m apply.Modifier) ([]out, error)
	}{
		{"apply.Requests", func(t *testing.T, _ etcdshapes.Request, objs []etcdshapes.Object, m apply.Modifier) ([]out, error) {
			return fromRequests(apply.Requests(objs, m))
		}},
		{"apply.Modified, then apply.Requests", func(t *testing.T, _ etcdshapes.Request, objs []etcdshapes.Object, m apply.Modifier) ([]out, error) {
			mod, err := apply.Modified(objs, m)
			if err != nil {
				return nil, err
			}
			return fromRequests(apply.Requests(mod))
		}},
		{"apply.Modify, then WithoutUninstallHooks (what Marshal prints for kubectl)", func(t *testing.T, _ etcdshapes.Request, objs []etcdshapes.Object, m apply.Modifier) ([]out, error) {
			if err := apply.Modify(objs, m); err != nil {
				return nil, err
			}
			return fromObjects(t, etcdshapes.WithoutUninstallHooks(objs)), nil
		}},
		{"apply.Modify, then plan.Compute", func(t *testing.T, _ etcdshapes.Request, objs []etcdshapes.Object, m apply.Modifier) ([]out, error) {
			if err := apply.Modify(objs, m); err != nil {
				return nil, err
			}
			p, err := plan.Compute(nil, objs)
			if err != nil {
				return nil, err
			}
			return fromPlan(p), nil
		}},
		{"plan.ForRequest", func(t *testing.T, req etcdshapes.Request, _ []etcdshapes.Object, m apply.Modifier) ([]out, error) {
			p, _, err := plan.ForRequest(req, nil, m)
			if err != nil {
				return nil, err
			}
			return fromPlan(p), nil
		}},
		{"plan.ForRequest's desired objects", func(t *testing.T, req etcdshapes.Request, _ []etcdshapes.Object, m apply.Modifier) ([]out, error) {
			_, desired, err := plan.ForRequest(req, nil, m)
			if err != nil {
				return nil, err
			}
			return fromObjects(t, desired), nil
		}},
		{"plan.ForRequest's desired objects, then apply.Requests", func(t *testing.T, req etcdshapes.Request, _ []etcdshapes.Object, m apply.Modifier) ([]out, error) {
			_, desired, err := plan.ForRequest(req, nil, m)
			if err != nil {
				return nil, err
			}
			return fromRequests(apply.Requests(desired))
		}},
	}
	for _, name := range []string{"etcd-defaults", "cluster-demo"} {
		s := goldentest.Scenario(t, name)
		req, err := s.Request()
		require.NoError(t, err)
		rendered, err := s.Render()
		require.NoError(t, err)
		var want, hooks []string
		for _, o := range rendered {
			ref := o.GetObjectKind().GroupVersionKind().Kind + "/" + o.GetName()
			if runsOnUninstall(t, objectJSON(t, o)) {
				hooks = append(hooks, ref)
			} else {
				want = append(want, ref)
			}
		}
		require.Len(t, hooks, 4, "the cleanup's ServiceAccount, Role, RoleBinding and Job")
		for _, m := range modifiers {
			refused := 0
			for _, e := range entries {
				t.Run(name+"/"+m.name+"/"+e.name, func(t *testing.T) {
					objs, err := s.Render() // Modify changes its objects
					require.NoError(t, err)
					got, err := e.run(t, req, objs, m.mod(objs))
					if err != nil {
						require.True(t, m.hostile, "a modifier that keeps every object's class is refused: %v", err)
						assert.Contains(t, err.Error(), "helm.sh/hook", "the refusal names the annotation")
						refused++
						return
					}
					var refs []string
					for _, o := range got {
						refs = append(refs, o.ref)
						require.NotContains(t, hooks, o.ref, "an uninstall hook is given to apply")
						if o.body != nil {
							require.False(t, runsOnUninstall(t, o.body), "%s runs on uninstall", o.ref)
						}
					}
					require.Equal(t, want, refs, "every object but the hooks, and nothing else")
				})
			}
			// The explicit opt-in: the hooks, and nothing else.
			objs, err := s.Render()
			require.NoError(t, err)
			opted, err := apply.UninstallHookRequests(objs, m.mod(objs))
			if err != nil {
				require.True(t, m.hostile, "%s: %v", m.name, err)
				refused++
			} else {
				got, _ := fromRequests(opted, nil)
				var refs []string
				for _, o := range got {
					refs = append(refs, o.ref)
					assert.True(t, runsOnUninstall(t, o.body), "%s", o.ref)
				}
				require.Equal(t, hooks, refs, "%s", m.name)
			}
			if m.hostile {
				assert.Positive(t, refused, "%s %s: a hostile modifier is refused somewhere", name, m.name)
			}
		}
	}
}

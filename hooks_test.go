package etcdshapes_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

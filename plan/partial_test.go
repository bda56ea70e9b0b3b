package plan_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/partialtest"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/require"
)

// TestPartlyLiveStackIsNeverSafe: a live file that holds something of a
// stack, or something that refers to it (a KamajiControlPlane on its
// DataStore, its TLS Secrets, its members' volumes, Pods and Services,
// its snapshots and their schedule, its check Job), but not its stateful
// core (the EtcdCluster, the DataStore) is partial, and its plan is never
// safe to apply, with or without ExpectExisting: each missing core
// object's create is a decision naming the kubectl get that fetches it,
// Result.MissingCore names them, and nothing is "nothing live". With the
// core present, the whole stack, referrers and all, is safe, with
// ExpectExisting too. Every kind the stacks emit, and every kind that
// refers to one, is a case alone, through ForRequest and Compute;
// cmd/etcdshapes's TestPlanPartlyLiveStackIsNeverSafe runs the same table
// through the CLI.
func TestPartlyLiveStackIsNeverSafe(t *testing.T) {
	stacks, err := partialtest.Stacks()
	require.NoError(t, err)
	for _, s := range stacks {
		alone := map[string]bool{}
		for _, c := range s.Cases() {
			if len(c.Objects) == 1 {
				alone[c.Objects[0]["kind"].(string)] = true
			}
			t.Run(s.Caller.String()+"/"+c.Name, func(t *testing.T) {
				data, err := c.LiveFile()
				require.NoError(t, err)
				live, err := plan.ReadObjects(data)
				require.NoError(t, err)
				rendered, err := etcdshapes.Render(s.Request())
				require.NoError(t, err)
				for _, expect := range []bool{false, true} {
					var opts []plan.Option
					if expect {
						opts = append(opts, plan.ExpectExisting())
					}
					p, _, err := plan.ForRequestWith(s.Request(), live, opts)
					require.NoError(t, err)
					checkPartial(t, c, p, expect)
					q, err := plan.Compute(live, rendered, opts...)
					require.NoError(t, err)
					checkPartial(t, c, q, expect)
				}
			})
		}
		// Every kind the stack emits, and every kind that refers to it, is
		// a case alone.
		for _, sh := range etcdshapes.Shapes() {
			if slices.Contains(sh.Callers, s.Caller) {
				require.True(t, alone[sh.Kind.Kind], "%s: no case holds a %s alone (shape %s)", s.Caller, sh.Kind.Kind, sh.ID)
			} else if len(sh.Callers) == 0 {
				// The shapes built outside the stacks (a snapshot, its
				// schedule, the check Job) refer to one.
				require.True(t, alone[sh.Kind.Kind], "%s: no case holds a %s alone (shape %s)", s.Caller, sh.Kind.Kind, sh.ID)
			}
		}
		for _, k := range []string{"KamajiControlPlane", "TenantControlPlane", "DataStore", "Secret", "PersistentVolumeClaim", "Pod", "EtcdMember",
			"PodDisruptionBudget", "Service", "EtcdSnapshot", "CronJob", "ServiceAccount", "Role", "RoleBinding", "Job"} {
			require.True(t, slices.ContainsFunc(s.Referrers, func(o partialtest.Object) bool { return o.Kind == k }), "%s: no referrer of kind %s", s.Caller, k)
		}
	}
}

// checkPartial checks the plan of one case.
func checkPartial(t *testing.T, c partialtest.Case, p *plan.Result, expect bool) {
	t.Helper()
	require.False(t, p.NothingLive, "%s", p)
	if !c.CoreMissing {
		require.True(t, p.SafeToApply(), "%s", p)
		require.Empty(t, p.MissingCore)
		require.True(t, strings.HasPrefix(p.Summary(), "No changes") || strings.HasPrefix(p.Summary(), "Safe to apply"), p.Summary())
		return
	}
	require.False(t, p.SafeToApply(), "%s", p)
	require.True(t, strings.HasPrefix(p.Summary(), "Not safe to apply: "), p.Summary())
	require.NotEmpty(t, p.MissingCore, "%s", p)
	for _, ref := range p.MissingCore {
		require.Contains(t, []string{"EtcdCluster", "DataStore"}, ref.Kind)
		op := objectPlan(t, p, ref.Kind, ref.Name)
		require.Equal(t, plan.Create, op.Action)
		require.True(t, slices.ContainsFunc(op.Findings, func(f plan.Finding) bool {
			return f.Verdict == plan.NeedsDecision && strings.HasPrefix(f.Message, "missing from the live objects: the live file is partial, or the stack lost it: ") &&
				strings.Contains(f.Message, "kubectl get ")
		}), "%s %s: no decision\n%s", ref.Kind, ref.Name, p)
	}
	partial := slices.ContainsFunc(p.Findings, func(f plan.Finding) bool {
		return f.Verdict == plan.NeedsDecision && strings.HasPrefix(f.Message, "the live file is partial: the stack is expected to exist")
	})
	require.Equal(t, expect, partial, "%s", p)
}

// A tenant cluster that stays on a shared DataStore renders no core:
// ExpectExisting needs only its KamajiControlPlane live, and refuses a
// live file without it.
func TestExpectExistingOnASharedDataStore(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-shared")
	req := scenarioRequest(t, s)
	ds, err := goldentest.DataStore(s)
	require.NoError(t, err)
	kcp := kamajiControlPlane(s.Namespace, s.Release, ds)
	p, _, err := plan.ForRequestWith(req, []etcdshapes.Object{kcp}, []plan.Option{plan.ExpectExisting()})
	require.NoError(t, err)
	require.True(t, p.SafeToApply(), "%s", p)
	require.Empty(t, p.MissingCore)
	require.False(t, p.NothingLive)
	req.Live.DataStoreName = ds // as the KamajiControlPlane would have said
	p, _, err = plan.ForRequestWith(req, nil, []plan.Option{plan.ExpectExisting()})
	require.NoError(t, err)
	require.False(t, p.SafeToApply(), "%s", p)
	require.True(t, p.NothingLive)
}

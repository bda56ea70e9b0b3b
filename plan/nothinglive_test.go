package plan_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/partialtest"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/require"
)

// expectations are the three things a caller can say of the stack before
// the plan: nothing (the default), that it does not exist yet
// (FreshInstall), that it does (ExpectExisting).
var expectations = []struct {
	name string
	opts []plan.Option
}{
	{"default", nil},
	{"FreshInstall", []plan.Option{plan.FreshInstall()}},
	{"ExpectExisting", []plan.Option{plan.ExpectExisting()}},
}

// TestNothingLiveIsNeverSafeByDefault: a live file that holds nothing of
// the stack (an empty file, as a failed kubectl get leaves it; document
// separators only; a List whose items are null or empty; only another
// namespace's or another release's objects: a misdirected kubectl get)
// plans a fresh install, and that needs a decision unless the caller says
// it is one (FreshInstall): by default and with ExpectExisting the plan is
// not safe to apply, with FreshInstall it is, a note saying so. The whole
// stack live is the other way round: safe by default and with
// ExpectExisting, a decision with FreshInstall (the install is not
// fresh). Through ForRequestWith and Compute, and the verdict agrees
// everywhere: SafeToApply, Summary, and the JSON form's safeToApply,
// verdict and nothingLive. cmd/etcdshapes's TestPlanNothingLiveClass runs
// the same table through the CLI.
func TestNothingLiveIsNeverSafeByDefault(t *testing.T) {
	stacks, err := partialtest.Stacks()
	require.NoError(t, err)
	for _, s := range stacks {
		cases, err := s.NothingLive()
		require.NoError(t, err)
		whole, err := s.Whole()
		require.NoError(t, err)
		cases = append(cases, partialtest.NothingCase{Name: "the whole stack", File: whole})
		rendered, err := etcdshapes.Render(s.Request())
		require.NoError(t, err)
		for _, c := range cases {
			nothing := c.Name != "the whole stack"
			live, err := plan.ReadObjects(c.File)
			require.NoError(t, err)
			for _, e := range expectations {
				t.Run(string(s.Caller)+"/"+c.Name+"/"+e.name, func(t *testing.T) {
					p, _, err := plan.ForRequestWith(s.Request(), live, e.opts)
					require.NoError(t, err)
					q, err := plan.Compute(live, rendered, e.opts...)
					require.NoError(t, err)
					for _, r := range []*plan.Result{p, q} {
						checkNothingLive(t, r, nothing, e.name)
					}
				})
			}
		}
	}
}

// checkNothingLive checks the plan of one case of
// TestNothingLiveIsNeverSafeByDefault.
func checkNothingLive(t *testing.T, p *plan.Result, nothing bool, expect string) {
	t.Helper()
	require.Equal(t, nothing, p.NothingLive, "%s", p)
	safe := nothing == (expect == "FreshInstall")
	require.Equal(t, safe, p.SafeToApply(), "%s", p)
	if safe {
		require.True(t, strings.HasPrefix(p.Summary(), "Safe to apply") || strings.HasPrefix(p.Summary(), "No changes"), p.Summary())
	} else {
		require.True(t, strings.HasPrefix(p.Summary(), "Not safe to apply: 0 refused by the API server, 1 need a decision"), "%s", p)
	}
	var js struct {
		SafeToApply bool   `json:"safeToApply"`
		Verdict     string `json:"verdict"`
		NothingLive bool   `json:"nothingLive"`
	}
	b, err := json.Marshal(p)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &js))
	require.Equal(t, p.SafeToApply(), js.SafeToApply)
	require.Equal(t, p.Summary(), js.Verdict)
	require.Equal(t, nothing, js.NothingLive)

	var found []plan.Finding
	for _, f := range p.Findings {
		if strings.HasPrefix(f.Message, "nothing live: ") || strings.HasPrefix(f.Message, "a fresh install was expected") {
			found = append(found, f)
		}
	}
	switch {
	case nothing && expect == "default":
		require.Len(t, found, 1, "%s", p)
		require.Equal(t, plan.NeedsDecision, found[0].Verdict)
		for _, s := range []string{"the live file holds nothing of the stack, so the plan is of a fresh install", "failed", "another namespace", "another context",
			"the stack's kinds left out", "to plan a fresh install, say so: etcdshapes plan --fresh-install (plan.FreshInstall)"} {
			require.Contains(t, found[0].Message, s)
		}
	case nothing && expect == "FreshInstall":
		require.Len(t, found, 1, "%s", p)
		require.Equal(t, plan.Note, found[0].Verdict)
		require.Contains(t, found[0].Message, "a fresh install, as expected (--fresh-install, plan.FreshInstall)")
	case nothing:
		require.Len(t, found, 1, "%s", p)
		require.Equal(t, plan.NeedsDecision, found[0].Verdict)
		require.Contains(t, found[0].Message, "yet the stack is expected to exist (--expect-existing, plan.ExpectExisting)")
	case expect == "FreshInstall":
		require.Len(t, found, 1, "%s", p)
		require.Equal(t, plan.NeedsDecision, found[0].Verdict)
		require.True(t, strings.HasPrefix(found[0].Message, "a fresh install was expected (--fresh-install, plan.FreshInstall), but the stack is live: "), found[0].Message)
	default:
		require.Empty(t, found, "%s", p)
	}
}

// TestFreshInstallWithExpectExisting: the two options contradict each
// other, in either order, and Compute and ForRequestWith refuse them.
func TestFreshInstallWithExpectExisting(t *testing.T) {
	stacks, err := partialtest.Stacks()
	require.NoError(t, err)
	s := stacks[0]
	rendered, err := etcdshapes.Render(s.Request())
	require.NoError(t, err)
	const want = `opts: invalid value "ExpectExisting, FreshInstall": must not hold both: ExpectExisting says the stack exists, ` +
		`FreshInstall that it does not (the CLI's --expect-existing and --fresh-install)`
	for _, opts := range [][]plan.Option{
		{plan.FreshInstall(), plan.ExpectExisting()},
		{plan.ExpectExisting(), plan.AsFieldManager("op"), plan.FreshInstall()},
	} {
		_, err := plan.Compute(nil, rendered, opts...)
		require.EqualError(t, err, want)
		p, desired, err := plan.ForRequestWith(s.Request(), nil, opts)
		require.EqualError(t, err, want)
		require.Nil(t, p)
		require.Nil(t, desired)
	}
}

package doccheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestApplyCommandProblems: the check sees every kubectl apply that
// applies otherwise than the plan predicts, and only those.
func TestApplyCommandProblems(t *testing.T) {
	const ok = "kubectl apply --server-side --field-manager=etcdshapes --force-conflicts -f -"
	for _, text := range []string{
		"etcdshapes render etcd -n tenant-root | " + ok,
		"etcdshapes render etcd -n tenant-root |\n  kubectl apply --server-side \\\n  --field-manager etcdshapes --force-conflicts -f -",
		"Before `kubectl apply` of a render", // the command named
		"// What helm install creates, for kubectl apply: the uninstall hooks left out.",
		"a v1 List, which kubectl apply and plan --live read",
		"`kubectl apply --prune` deletes what the set lacks", "`kubectl apply --force` when its patch fails",
		"apply with the same (" + ok + ").",
		"(kubectl apply --server-side --field-manager NAME --force-conflicts)", // a synopsis
	} {
		assert.Empty(t, ApplyCommandProblems(text, "etcdshapes"), text)
	}
	for _, tc := range []struct{ text, manager, want string }{
		{"render ... | kubectl apply -f -", "etcdshapes", `"kubectl apply -f -": lacks --server-side, --field-manager=etcdshapes, --force-conflicts: the plan predicts`},
		{"`kubectl apply -n tenant-demo`", "etcdshapes", `"kubectl apply -n tenant-demo": lacks --server-side, --field-manager=etcdshapes, --force-conflicts`},
		{"kubectl apply --server-side -f -", "etcdshapes", `lacks --field-manager=etcdshapes, --force-conflicts`},
		{"kubectl apply --server-side --field-manager=etcdshapes -f -", "etcdshapes", `lacks --force-conflicts`},
		{"kubectl apply --server-side --force-conflicts --field-manager kubectl -f -", "etcdshapes", `applies as field manager "kubectl" where the plan predicts "etcdshapes"`},
		{ok, "tenant-etcd-operator", `applies as field manager "etcdshapes" where the plan predicts "tenant-etcd-operator"`},
		{"x | kubectl apply \\\n  -f -", "etcdshapes", `"kubectl apply    -f -": lacks --server-side`},
	} {
		got := ApplyCommandProblems(tc.text, tc.manager)
		if assert.Len(t, got, 1, tc.text) {
			assert.Contains(t, got[0], tc.want)
		}
	}
}

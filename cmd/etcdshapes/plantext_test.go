package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// changedLines are the "~ PATH: LIVE -> DESIRED" lines of a text plan,
// split; the renders these tests plan hold no " -> " in a value.
func changedLines(t *testing.T, text string) [][3]string {
	t.Helper()
	var out [][3]string
	for _, line := range strings.Split(text, "\n") {
		// Fields are indented; "~ update KIND NAME" heads an object.
		rest, isChange := strings.CutPrefix(strings.TrimLeft(line, " "), "~ ")
		if !isChange || !strings.HasPrefix(line, " ") {
			continue
		}
		path, sides, found := strings.Cut(rest, ": ")
		require.True(t, found, line)
		l, d, found := strings.Cut(sides, " -> ")
		require.True(t, found, line)
		require.NotContains(t, d, " -> ", "a value holds the separator: the test cannot split %q", line)
		out = append(out, [3]string{path, l, d})
	}
	return out
}

// TestPlanTextShowsLongChanges: a change of a value too long for a line
// shows where the two sides differ, and no changed line prints its two
// sides alike: the spread constraint of examples/values/cluster.yaml
// (kubernetes.io/hostname -> topology.kubernetes.io/zone, inside an
// element of an atomic list) and a bigger etcd volume (the defrag
// CronJob's --etcd-storage-quota-bytes, the seventh of its arguments).
func TestPlanTextShowsLongChanges(t *testing.T) {
	clusterLive := writeTemp(t, []byte(ok(t, "", "render", "cluster", "kubernetes-demo", "-n", "tenant-demo", "--set", "etcd.replicas=3")))
	etcdLive := writeTemp(t, []byte(ok(t, "", "render", "etcd", "-n", "tenant-root")))

	for _, tc := range []struct {
		name string
		args []string
		want []string // lines the plan must hold
	}{
		{"cluster.yaml against 3 members", []string{"plan", "cluster", "kubernetes-demo", "-n", "tenant-demo", "-f", filepath.Join("..", "..", "examples", "values", "cluster.yaml"), "--live", clusterLive},
			[]string{`        ~ [0].topologyKey: "kubernetes.io/hostname" -> "topology.kubernetes.io/zone"`}},
		{"size=5Gi", []string{"plan", "etcd", "-n", "tenant-root", "--set", "size=5Gi", "--live", etcdLive},
			[]string{`    ~ spec.jobTemplate.spec.template.spec.containers[name="etcd-defrag"].args: …"--etcd-storage-quota-bytes=4080218931","--defrag-rule","d… -> …"--etcd-storage-quota-bytes=5100273664","--defrag-rule","d…`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stdout, stderr := cli(t, "", tc.args...)
			lines := strings.Split(stdout, "\n")
			for _, w := range tc.want {
				assert.Contains(t, lines, w, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
			changes := changedLines(t, stdout)
			require.NotEmpty(t, changes, stdout)
			for _, c := range changes {
				assert.NotEqual(t, c[1], c[2], "%s prints its two sides alike:\n%s", c[0], stdout)
			}
		})
	}
}

// The testers' plan: a tenant cluster moved to a shared datastore
// (tenant-root), its live stack, uninstall hooks included, still there.
// The render is empty, so the plan prints no pipe into kubectl apply
// (which fails on no objects) and says there is nothing to apply; it says
// that applying does not delete, and prints one kubectl delete for each
// object it deletes (never a hook), the DataStore before the EtcdCluster
// before the PKI, the stateful ones flagged; -o json holds the same
// commands.
func TestPlanTextSaysHowDeletesAreDone(t *testing.T) {
	stack := ok(t, "", "render", "cluster", "kubernetes-demo", "-n", "tenant-demo", "--include-hooks")
	live := writeTemp(t, []byte(stack+"---\napiVersion: controlplane.cluster.x-k8s.io/v1alpha1\nkind: KamajiControlPlane\n"+
		"metadata:\n  name: kubernetes-demo\n  namespace: tenant-demo\nspec:\n  dataStoreName: tenant-root\n"))
	args := []string{"plan", "cluster", "kubernetes-demo", "-n", "tenant-demo", "--live", live}
	code, text, stderr := cli(t, "", args...)
	require.Equal(t, exitUnsafe, code, stderr)
	assert.NotContains(t, text, "| kubectl apply", text)
	assert.Contains(t, text, "\nNothing to apply: ", text)
	assert.Contains(t, text, "\nApplying does not delete: ", text)
	var deletes []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "  kubectl delete ") {
			deletes = append(deletes, line)
			assert.NotContains(t, line, "-cleanup", "an uninstall hook is never deleted")
		}
	}
	require.Len(t, deletes, strings.Count(text, "\n- delete "), text)
	index := func(what string) int {
		for i, d := range deletes {
			if strings.Contains(d, what) {
				return i
			}
		}
		t.Fatalf("no delete of %s:\n%s", what, text)
		return -1
	}
	assert.Equal(t, "  kubectl delete datastore.kamaji.clastix.io/tenant-demo.kubernetes-demo   # stateful: what points the tenant control planes at the etcd goes with it", deletes[0])
	assert.Less(t, index("cronjob.batch/kubernetes-demo-etcd-defrag"), index("etcdcluster.etcd-operator.cozystack.io/kubernetes-demo-etcd"))
	assert.Less(t, index("etcdcluster.etcd-operator.cozystack.io/"), index("certificate.cert-manager.io/kubernetes-demo-etcd-server"))
	assert.Contains(t, deletes[index("etcdcluster.")], "# stateful: the etcd's data")

	_, js, _ := cli(t, "", append(args, "-o", "json")...)
	var p struct {
		NothingToApply bool `json:"nothingToApply"`
		Deletes        []struct {
			Command string `json:"command"`
			Holds   string `json:"holds"`
		} `json:"deletes"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &p), js)
	assert.True(t, p.NothingToApply)
	require.Len(t, p.Deletes, len(deletes))
	for i, d := range p.Deletes {
		assert.True(t, strings.HasPrefix(deletes[i], "  "+d.Command), "%s vs %s", deletes[i], d.Command)
	}
}

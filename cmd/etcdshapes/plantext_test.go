package main

import (
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

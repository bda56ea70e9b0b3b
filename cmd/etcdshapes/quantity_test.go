package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/stretchr/testify/require"
)

// TestQuantityBounds: the quantity bounds through every flag and file
// that carries a quantity, as the issue reported them (before the gate
// the first ran out of memory and the --set lines never ended): each is
// refused on one line naming the flag or key, the value as typed and the
// bound, with exit status 1 and nothing on stdout, within cli's hang
// limit.
func TestQuantityBounds(t *testing.T) {
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		return p
	}
	rng := ": " + quantity.RangeRule
	expo := ": " + quantity.ExponentRule
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "etcd", "-n", "tenant-root", "-f", file("size.yaml", "size: 1e999999999\n")}, `values.size: invalid value "1e999999999"` + expo},
		{[]string{"render", "etcd", "-n", "tenant-root", "-f", file("size2.yaml", "size: 9223372036854775807\n")}, `values.size: invalid value 9223372036854775807` + rng},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "resources.memory=1e999999999"}, `values.resources.memory: invalid value "1e999999999"` + expo},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "resources.cpu=1e-999999999"}, `values.resources.cpu: invalid value "1e-999999999"` + expo},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "resources.cpu=1e400"}, `values.resources.cpu: invalid value "1e400"` + expo},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "resources.cpu=2000E"}, `values.resources.cpu: invalid value "2000E"` + rng},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set-string", "size=8Ei"}, `values.size: invalid value "8Ei"` + rng},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set-json", `size="1e100000"`}, `values.size: invalid value "1e100000"` + expo},
		{[]string{"render", "etcd", "-n", "tenant-root", "-f", file("ratio.yaml", "_cluster:\n  cpu-allocation-ratio: 1e-400\n")}, `_cluster.cpu-allocation-ratio: invalid value 1e-400: must be a number above 0 and at most 1e15`},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "1e999999999"}, `--size: invalid value "1e999999999"` + expo},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "1e100000"}, `--size: invalid value "1e100000"` + expo},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "10E"}, `--size: invalid value "10E"` + rng},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "8Ei"}, `--size: invalid value "8Ei"` + rng},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "1e-999999999"}, `--size: invalid value "1e-999999999"` + expo},
		{[]string{"plan", "etcd", "-n", "tenant-root", "--live", file("live.yaml", "apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdCluster\nmetadata: {name: etcd, namespace: tenant-root}\nspec:\n  storage: {size: 8Ei}\n")}, `live[0].spec.storage.size: invalid value "8Ei"` + rng},
	} {
		code, stdout, stderr := cli(t, "", c.args...)
		require.Equal(t, 1, code, "%q: %s", c.args, stderr)
		require.Empty(t, stdout, "%q", c.args)
		require.Equal(t, "etcdshapes: "+c.want+"\n", stderr, "%q", c.args)
	}

	// A live EtcdCluster holding such quantities where the render sets
	// others plans, in bounded time, as their change (the rest of the
	// stack live with it: an EtcdCluster alone is a stack without its
	// PKI, which needs a decision).
	docs := strings.Split(ok(t, "", "render", "etcd", "-n", "tenant-root"), "\n---\n")
	edited := 0
	for i, d := range docs {
		if strings.Contains(d, "\nkind: EtcdCluster\n") {
			docs[i] = strings.NewReplacer("memory: 512Mi", `memory: "1e999999999"`, "cpu: 100m", `cpu: "1e-999999999"`).Replace(d)
			edited++
		}
	}
	require.Equal(t, 1, edited)
	live := strings.Join(docs, "\n---\n")
	out := ok(t, "", "plan", "etcd", "-n", "tenant-root", "--live", file("huge.yaml", live))
	require.Contains(t, out, `~ spec.resources.limits.memory: "1e999999999" -> "512Mi"`)
	require.Contains(t, out, `~ spec.resources.requests.cpu: "1e-999999999" -> "100m"`)
}

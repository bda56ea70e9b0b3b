package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/jsonnum"
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
		{[]string{"render", "etcd", "-n", "tenant-root", "-f", file("size2.yaml", "size: 9223372036854775807\n")}, `values.size: invalid value 9223372036854775807: ` + jsonnum.Digits.Rule(9223372036854775807)},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "resources.memory=1e999999999"}, `values.resources.memory: invalid value "1e999999999"` + expo},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "resources.cpu=1e-999999999"}, `values.resources.cpu: invalid value "1e-999999999"` + expo},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "resources.cpu=1e400"}, `values.resources.cpu: invalid value "1e400"` + expo},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "resources.cpu=2000E"}, `values.resources.cpu: invalid value "2000E"` + rng},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set-string", "size=8Ei"}, `values.size: invalid value "8Ei"` + rng},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set-json", `size="1e100000"`}, `values.size: invalid value "1e100000"` + expo},
		{[]string{"render", "etcd", "-n", "tenant-root", "-f", file("ratio.yaml", "_cluster:\n  cpu-allocation-ratio: 1e-400\n")}, `_cluster.cpu-allocation-ratio: invalid value 1e-400: ` + jsonnum.Underflow.Rule(0)},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "1e999999999"}, `--size: invalid value "1e999999999"` + expo},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "1e100000"}, `--size: invalid value "1e100000"` + expo},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "10E"}, `--size: invalid value "10E"` + rng},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "8Ei"}, `--size: invalid value "8Ei"` + rng},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "1e-999999999"}, `--size: invalid value "1e-999999999"` + expo},
		{[]string{"plan", "etcd", "-n", "tenant-root", "--live", file("live.yaml", "apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdCluster\nmetadata: {name: etcd, namespace: tenant-root}\nspec:\n  storage: {size: 8Ei}\n")}, "--live " + filepath.Join(dir, "live.yaml") + `: live[0].spec.storage.size: invalid value "8Ei"` + rng},
		// The charts' rules (quantity.ChartRule) and etcd.MinSize, as
		// typed, through the flags and the live size render check reads.
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "resources.cpu=123456789012345678m"}, `values.resources.cpu: invalid value "123456789012345678m": ` + quantity.DigitsChartRule},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "resources.memory=1.5n"}, `values.resources.memory: invalid value "1.5n": ` + quantity.NanoChartRule},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "size=100k"}, `values.size: invalid value "100k": ` + etcd.MinSizeRule},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "0.1234567890123456789Gi"}, `--size: invalid value "0.1234567890123456789Gi": ` + quantity.DigitsChartRule},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "1Ei"}, `--size: invalid value "1Ei": ` + quantity.DigitsChartRule},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "1048576"}, `--size: invalid value "1048576": ` + etcd.MinSizeRule},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", "255Mi"}, `--size: invalid value "255Mi": ` + etcd.MinSizeRule},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--live", file("small.yaml", "apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdCluster\nmetadata: {name: etcd, namespace: tenant-root}\nspec:\n  storage: {size: 100Mi}\n")},
			`live: spec.storage.size: invalid value "100Mi": ` + etcd.MinSizeRule},
		{[]string{"render", "check", "etcd", "-n", "tenant-root", "--live", file("precise.yaml", "apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdCluster\nmetadata: {name: etcd, namespace: tenant-root}\nspec:\n  storage: {size: \"1234567890123450000\"}\n")},
			`live: spec.storage.size: invalid value "1234567890123450000": ` + quantity.ExactChartRule},
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
	// The limit the plan cannot compare is graded as the drop it may be.
	code, out, stderr := cli(t, "", "plan", "etcd", "-n", "tenant-root", "--live", file("huge.yaml", live))
	require.Equal(t, 3, code, "%s", stderr)
	require.Contains(t, out, "no quantity the plan can compare with 512Mi")
	require.Contains(t, out, `~ spec.resources.limits.memory: "1e999999999" -> "512Mi"`)
	require.Contains(t, out, `~ spec.resources.requests.cpu: "1e-999999999" -> "100m"`)
}

// TestNumbersAsWritten: a number no float64 holds as written (a negative
// zero, one too close to zero or too large for a float64, more
// significant digits than one holds) is refused through every flag and
// file that carries one, on one line naming the key and quoting the
// number as typed, exit status 1; --keep reads decimal digits only.
func TestNumbersAsWritten(t *testing.T) {
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		return p
	}
	under, digits, negz := jsonnum.Underflow.Rule(0), jsonnum.Digits.Rule(3), jsonnum.NegativeZero.Rule(0)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "etcd", "-n", "tenant-root", "-f", file("cpu.yaml", "resources:\n  cpu: 1e-400\n")}, `values.resources.cpu: invalid value 1e-400: ` + under},
		{[]string{"render", "etcd", "-n", "tenant-root", "-f", file("replicas.yaml", "replicas: 3.0000000000000000001\n")}, `values.replicas: invalid value 3.0000000000000000001: ` + digits},
		{[]string{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "-f", file("etcd.yaml", "etcd:\n  replicas: -0.0\n")}, `etcd.replicas: invalid value -0.0: ` + negz},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "replicas=-0"}, `values.replicas: invalid value -0: ` + negz},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set-json", `resources={"cpu":1e-400}`}, `values.resources.cpu: invalid value 1e-400: ` + under},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set-json", `replicas=3.0000000000000000001`}, `values.replicas: invalid value 3.0000000000000000001: ` + digits},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set-string", "_cluster.cpu-allocation-ratio=3.0000000000000000001"}, `_cluster.cpu-allocation-ratio: invalid value "3.0000000000000000001": ` + digits},
		{[]string{"plan", "etcd", "-n", "tenant-root", "--live", file("live.yaml", "apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdCluster\nmetadata: {name: etcd, namespace: tenant-root}\nspec:\n  replicas: 3.0000000000000000001\n")},
			`live[0].spec.replicas: invalid value 3.0000000000000000001: ` + digits},
		{[]string{"plan", "etcd", "-n", "tenant-root", "--live", file("live.json", `{"apiVersion": "etcd-operator.cozystack.io/v1alpha2", "kind": "EtcdCluster", "metadata": {"name": "etcd", "namespace": "tenant-root"}, "spec": {"replicas": 1e-400}}`)},
			`live[0].spec.replicas: invalid value 1e-400: ` + under},
	} {
		code, stdout, stderr := cli(t, "", c.args...)
		require.Equal(t, 1, code, "%q: %s", c.args, stderr)
		require.Empty(t, stdout, "%q", c.args)
		want := c.want
		// A live file's errors are prefixed with the flag and the file.
		if i := slices.Index(c.args, "--live"); i >= 0 {
			want = "--live " + c.args[i+1] + ": " + want
		}
		require.Equal(t, "etcdshapes: "+want+"\n", stderr, "%q", c.args)
	}
	snapshot := []string{"render", "snapshot", "etcd", "-n", "tenant-root", "--schedule", "@daily", "--pvc", "backups", "--keep"}
	for _, keep := range []string{"010", "0x8", "+8", "1_0", "-0", "8.0", "1e1", ""} {
		code, stdout, stderr := cli(t, "", append(snapshot, keep)...)
		require.Equal(t, 2, code, "--keep %q: %s", keep, stderr)
		require.Empty(t, stdout)
		require.Contains(t, stderr, `invalid argument "`+keep+`" for "--keep" flag: must be a whole number in decimal digits`, "--keep %q", keep)
	}
	out := ok(t, "", append(snapshot, "10")...)
	require.Contains(t, out, "etcd-snapshot-9")
	require.NotContains(t, out, "etcd-snapshot-10")
	code, _, stderr := cli(t, "", append(snapshot, "-3")...)
	require.Equal(t, 1, code)
	require.Equal(t, "etcdshapes: --keep: invalid value -3: must be between 2 and 100 (the ring always keeps its newest completed snapshot, the last good backup, so it needs a second slot for the next one)\n", stderr)
}

// TestQuantityWithoutDigit: a quantity whose number has no digit ("Mi",
// "m", ".", "+", "-", "e5", ".e5", "Ki") is no quantity in Kubernetes'
// grammar (the CRDs' pattern the API server checks needs a digit), though
// resource.ParseQuantity reads most of them as 0: a "memory: Mi" would
// silently render a limit of 0 (new members BestEffort). Each is refused
// in every place a quantity is read, naming the key or flag and quoting
// the text as typed; a live value of one is a change, never a respelling
// of the render's quantity.
func TestQuantityWithoutDigit(t *testing.T) {
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		return p
	}
	syntax := ": " + quantity.SyntaxRule
	for _, s := range []string{"Mi", "Ki", "Gi", "m", "k", ".", "+", "-", "+.", "-Mi", "e5", ".e5", "E3", ".m"} {
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"render", "etcd", "-n", "tenant-root", "--set-string", "resources.memory=" + s}, `values.resources.memory: invalid value "` + s + `"` + syntax},
			{[]string{"render", "etcd", "-n", "tenant-root", "--set-string", "resources.cpu=" + s}, `values.resources.cpu: invalid value "` + s + `"` + syntax},
			{[]string{"render", "etcd", "-n", "tenant-root", "--set-string", "resources.ephemeral-storage=" + s}, `values.resources.ephemeral-storage: invalid value "` + s + `"` + syntax},
			{[]string{"render", "etcd", "-n", "tenant-root", "-f", file("f.yaml", "resources:\n  memory: \""+s+"\"\n")}, `values.resources.memory: invalid value "` + s + `"` + syntax},
			{[]string{"render", "check", "etcd", "-n", "tenant-root", "--size", s}, `--size: invalid value "` + s + `": must be a quantity, e.g. "` + etcd.DefaultSize + `"`},
		} {
			code, stdout, stderr := cli(t, "", c.args...)
			require.Equal(t, 1, code, "%q: %s", c.args, stderr)
			require.Empty(t, stdout, "%q", c.args)
			require.Equal(t, "etcdshapes: "+c.want+"\n", stderr, "%q", c.args)
		}
	}
	live := file("live.yaml", "apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdCluster\nmetadata: {name: etcd, namespace: tenant-root}\nspec:\n  resources: {limits: {memory: Mi}}\n")
	code, stdout, stderr := cli(t, "", "plan", "etcd", "-n", "tenant-root", "--live", live)
	require.Equal(t, 3, code, "%s", stderr)
	require.Contains(t, stdout, `~ spec.resources.limits.memory: "Mi" -> "512Mi"`, "no respelling of 0")
}

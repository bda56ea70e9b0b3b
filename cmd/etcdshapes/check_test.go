package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// renderCheck runs 'etcdshapes render check ARGS...'.
func renderCheck(args []string, stdout, stderr io.Writer) int {
	return run(append([]string{"render", "check"}, args...), strings.NewReader(""), stdout, stderr)
}

// The CLI prints what the builders build: the etcd package's golden files.
func TestRenderCheckMatchesBuilders(t *testing.T) {
	checkMatchesBuilders(t, renderCheck, []builderCase{
		{"check-etcd", []string{"etcd", "--namespace", "tenant-root"}},
		{"check-etcd-version-size", []string{"etcd", "-n", "tenant-root", "--release", "etcd", "--etcd-version", "3.5.21", "--size", "10Gi", "--load", "l", "--datascale"}},
		{"check-cluster-datascale", []string{"cluster", "-ntenant-demo", "--release=kubernetes-demo", "--load=m", "--datascale"}},
		{"check-cluster-maxname", []string{"cluster", "-n", "tenant-demo", "--release", "kubernetes-production-cluster-eu-west-1-abcdefghijk", "--load", "xl"}},
	})
	// -o json and --show-only work as for render etcd.
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, renderCheck([]string{"etcd", "-n", "tenant-root", "-o", "json", "--show-only", "Job/etcd-check"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), `"kind": "List"`)
	assert.Contains(t, stdout.String(), `"name": "etcd-check"`)
	// --image for a registry of one's own.
	stdout.Reset()
	require.Equal(t, 0, renderCheck([]string{"cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--image", "registry.example.com/etcd:v3.6.11"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "image: registry.example.com/etcd:v3.6.11\n")
	assert.NotContains(t, stdout.String(), etcd.EtcdImageRepository)
}

func TestRenderCheckErrors(t *testing.T) {
	checkUsage(t, renderCheck, []usageCase{
		{nil, 2, "Usage:"},
		{[]string{"-h"}, 0, "Usage:"},
		{[]string{"cluster", "--help"}, 0, "etcdshapes render check cluster RELEASE --namespace NS"},
		{[]string{"mysql", "--namespace", "tenant-root"}, 2, `unknown caller "mysql"`},
		{[]string{"etcd"}, 2, "--namespace is required"},
		{[]string{"cluster", "-n", "tenant-demo"}, 2, "--release is required for render check cluster"},
		{[]string{"cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--size", "8Gi"}, 2, "unknown flag: --size"},
		{[]string{"cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--etcd-version", "3.6.0"}, 2, "unknown flag: --etcd-version"},
		{[]string{"etcd", "-n", "tenant-root", "etcd", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"etcd", "-n", "tenant-root", "--load", "huge"}, 1, `--load: invalid value "huge": must be one of s, m, l or xl`},
		{[]string{"etcd", "-n", "tenant-root", "--load", "xl", "--datascale"}, 1, `--load: invalid value "xl": etcdctl check perf and check datascale would write about 4.3 GB`},
		{[]string{"etcd", "-n", "tenant-root", "--size", "1Gi", "--load", "l"}, 1, "more than half of the cluster's quota of 1020054733 bytes (size 1Gi)"},
		{[]string{"etcd", "-n", "tenant-root", "--size", "lots"}, 1, `--size: invalid value "lots": must be a quantity`},
		{[]string{"etcd", "-n", "tenant-root", "--size", "-1Gi"}, 1, `--size: invalid value "-1Gi": must be a positive quantity`},
		{[]string{"etcd", "-n", "tenant-root", "--etcd-version", "latest"}, 1, `--etcd-version: invalid value "latest": must be an etcd version X.Y.Z`},
		// The default image would be gcr.io/etcd-development/etcd:v3.6.011,
		// which does not exist.
		{[]string{"etcd", "-n", "tenant-root", "--etcd-version", "3.6.011"}, 1, `--etcd-version: invalid value "3.6.011": must be an etcd version X.Y.Z (decimal numbers without leading zeros`},
		{[]string{"etcd", "-n", "tenant-root", "--etcd-version", "3.6.11-rc.0"}, 1, `--etcd-version: invalid value "3.6.11-rc.0": must be an etcd version X.Y.Z`},
		{[]string{"etcd", "-n", "tenant-root", "--release", "other"}, 1, `release: invalid value "other"`},
		{[]string{"etcd", "-n", "default"}, 1, `namespace: invalid value "default"`},
		{[]string{"cluster", "-n", "tenant-demo", "--release", "kubernetes-" + strings.Repeat("x", 41)}, 1, "more than 56"},
		{[]string{"etcd", "-n", "tenant-root", "-o", "xml"}, 2, `--output must be yaml or json, not "xml"`},
		{[]string{"cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--image", "my etcd"}, 1, `--image: invalid value "my etcd": must be an image reference`},
		{[]string{"cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--image", "Upper/etcd:v3.6.11"}, 1, `--image: invalid value "Upper/etcd:v3.6.11": must be a container image reference as the kubelet parses it`},
		{[]string{"cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--image", "a:b:c"}, 1, `--image: invalid value "a:b:c": must be a container image reference as the kubelet parses it`},
		{[]string{"etcd", "-n", "tenant-root", "--image", "-etcd"}, 1, `--image: invalid value "-etcd": must be a container image reference as the kubelet parses it`},
	})
}

// TestRenderCheckUsesTheLiveCluster: with --live, the quota guard bounds
// the load by the smaller of the live quota (etcd's default without one) and
// the load by the live EtcdCluster's spec.storage.size and the check runs
// the etcdctl of its spec.version, whatever --size and --etcd-version (or
// their defaults, or the kubernetes chart's fixed ones) say: a live
// cluster smaller than the flag refuses a load the flag would allow, a
// larger one allows a load the flag would refuse; stderr warns when they
// differ (the same quantity spelled otherwise does not), for both stacks,
// the size as a string or a JSON number, the file from stdin too. A live
// file without the stack's EtcdCluster is refused, naming what it holds;
// a live cluster without a size leaves the flag's.
func TestRenderCheckUsesTheLiveCluster(t *testing.T) {
	dir := t.TempDir()
	// quota is spec.options.quotaBackendBytes as written, "" for none.
	liveEtcd := func(name, size, version, quota string) string {
		p := filepath.Join(dir, name)
		doc := "apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdCluster\nmetadata:\n  name: etcd\n  namespace: tenant-root\nspec:\n"
		if version != "" {
			doc += "  version: " + version + "\n"
		}
		if quota != "" {
			doc += "  options:\n    quotaBackendBytes: " + quota + "\n"
		}
		if size != "" {
			doc += "  storage:\n    size: " + size + "\n"
		}
		require.NoError(t, os.WriteFile(p, []byte(doc), 0o644))
		return p
	}
	// The stacks set the quota of the size (etcd.QuotaBackendBytes).
	small, large := liveEtcd("small.yaml", "1Gi", "3.6.11", "1020054733"), liveEtcd("large.yaml", "8589934592", "3.6.11", "8160437862")
	same := liveEtcd("same.yaml", "4294967296", "3.6.11", "4080218931")
	older := liveEtcd("older.yaml", "", "3.6.10", "4080218931")
	// A quota set by hand below the size's, one as a float, none (etcd's
	// 2 GiB default, below a 4Gi volume's), 0 (the same), bad ones.
	handQuota := liveEtcd("hand.yaml", "4Gi", "3.6.11", "1000000000")
	floatQuota := liveEtcd("float.yaml", "4Gi", "3.6.11", "1e9")
	noQuota := liveEtcd("noquota.yaml", "4Gi", "3.6.11", "")
	zeroQuota := liveEtcd("zeroquota.yaml", "4Gi", "3.6.11", "0")
	bigQuota := liveEtcd("bigquota.yaml", "1Gi", "3.6.11", "8589934592")
	negQuota := liveEtcd("negquota.yaml", "4Gi", "3.6.11", "-1")
	strQuota := liveEtcd("strquota.yaml", "4Gi", "3.6.11", "'1Gi'")
	fracQuota := liveEtcd("fracquota.yaml", "4Gi", "3.6.11", "1.5")
	clusterLive := filepath.Join(dir, "cluster.json")
	require.NoError(t, os.WriteFile(clusterLive, []byte(`{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"etcd-operator.cozystack.io/v1alpha2","kind":"EtcdCluster","metadata":{"name":"kubernetes-demo-etcd","namespace":"tenant-demo"},"spec":{"version":"3.6.11","storage":{"size":1073741824}}}]}`), 0o644))
	etcdArgs := []string{"etcd", "-n", "tenant-root"}
	clusterArgs := []string{"cluster", "-n", "tenant-demo", "--release", "kubernetes-demo"}
	with := func(base []string, more ...string) []string { return append(append([]string{}, base...), more...) }
	refusedL := func(size string) string {
		return `--load: invalid value "l": etcdctl check perf would write about 624.0 MB, more than half of the cluster's quota of 1020054733 bytes (size ` + size + `): filling the quota stops every write; use a smaller load or a larger size`
	}
	for _, c := range []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stderr []string // each line, in order, without "etcdshapes: "
		quiet  bool
		image  string
	}{
		{name: "the default size, a smaller live cluster", args: with(etcdArgs, "--load", "l", "--live", small), code: 1,
			stderr: []string{"warning: the live EtcdCluster tenant-root/etcd has spec.storage.size 1Gi, not the default size 4Gi: the check's quota guard uses the live size", refusedL("1Gi")}},
		{name: "--size larger than the live cluster", args: with(etcdArgs, "--load", "l", "--size", "4Gi", "--live", small), code: 1,
			stderr: []string{"warning: the live EtcdCluster tenant-root/etcd has spec.storage.size 1Gi, not --size 4Gi: the check's quota guard uses the live size", refusedL("1Gi")}},
		{name: "--size smaller than the live cluster", args: with(etcdArgs, "--load", "l", "--size", "1Gi", "--live", large), code: 0,
			stderr: []string{"warning: the live EtcdCluster tenant-root/etcd has spec.storage.size 8589934592, not --size 1Gi: the check's quota guard uses the live size"}},
		{name: "the same size spelled otherwise", args: with(etcdArgs, "--load", "l", "--size", "4Gi", "--live", same), code: 0, quiet: true},
		{name: "the default size, the same live size", args: with(etcdArgs, "--live", same), code: 0, quiet: true},
		{name: "a live cluster without a size, another version", args: with(etcdArgs, "--size", "1Gi", "--load", "l", "--live", older), code: 1,
			stderr: []string{"warning: the live EtcdCluster tenant-root/etcd has spec.version 3.6.10, not the default version 3.6.11: the check runs etcdctl of the live version", refusedL("1Gi")}},
		{name: "--etcd-version other than the live one", args: with(etcdArgs, "--etcd-version", "3.6.11", "--live", older), code: 0, image: "gcr.io/etcd-development/etcd:v3.6.10",
			stderr: []string{"warning: the live EtcdCluster tenant-root/etcd has spec.version 3.6.10, not --etcd-version 3.6.11: the check runs etcdctl of the live version"}},
		{name: "a tenant cluster, the size a JSON number", args: with(clusterArgs, "--load", "l", "--live", clusterLive), code: 1,
			stderr: []string{"warning: the live EtcdCluster tenant-demo/kubernetes-demo-etcd has spec.storage.size 1073741824, not the kubernetes chart's size 4Gi: the check's quota guard uses the live size", refusedL("1073741824")}},
		{name: "from stdin", args: with(etcdArgs, "--load", "l", "--live", "-"), stdin: "apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdCluster\nmetadata: {name: etcd, namespace: tenant-root}\nspec: {version: 3.6.11, storage: {size: 1Gi}}\n", code: 1,
			stderr: []string{"warning: the live EtcdCluster tenant-root/etcd has spec.storage.size 1Gi, not the default size 4Gi: the check's quota guard uses the live size", refusedL("1Gi")}},
		{name: "a quota set below the size's", args: with(etcdArgs, "--load", "l", "--live", handQuota), code: 1,
			stderr: []string{"warning: the live EtcdCluster tenant-root/etcd has spec.options.quotaBackendBytes 1000000000, not the 4080218931 bytes of size 4Gi: the check's quota guard uses the live quota",
				`--load: invalid value "l": etcdctl check perf would write about 624.0 MB, more than half of the cluster's quota of 1000000000 bytes (the running cluster's quotaBackendBytes): filling the quota stops every write; use a smaller load or a cluster with a larger quota`}},
		{name: "a quota written as a float", args: with(etcdArgs, "--load", "l", "--live", floatQuota), code: 1,
			stderr: []string{"warning: the live EtcdCluster tenant-root/etcd has spec.options.quotaBackendBytes 1000000000, not the 4080218931 bytes of size 4Gi: the check's quota guard uses the live quota",
				`--load: invalid value "l": etcdctl check perf would write about 624.0 MB, more than half of the cluster's quota of 1000000000 bytes (the running cluster's quotaBackendBytes): filling the quota stops every write; use a smaller load or a cluster with a larger quota`}},
		{name: "no quota: etcd's default", args: with(etcdArgs, "--load", "l", "--datascale", "--live", noQuota), code: 1,
			stderr: []string{"warning: the live EtcdCluster tenant-root/etcd has no spec.options.quotaBackendBytes (etcd's default 2147483648), not the 4080218931 bytes of size 4Gi: the check's quota guard uses the live quota",
				`--load: invalid value "l": etcdctl check perf and check datascale would write about 1.7 GB, more than half of the cluster's quota of 2147483648 bytes (the running cluster's quotaBackendBytes): filling the quota stops every write; use a smaller load or a cluster with a larger quota`}},
		{name: "quota 0: etcd's default", args: with(etcdArgs, "--live", zeroQuota), code: 0,
			stderr: []string{"warning: the live EtcdCluster tenant-root/etcd has no spec.options.quotaBackendBytes (etcd's default 2147483648), not the 4080218931 bytes of size 4Gi: the check's quota guard uses the live quota"}},
		{name: "a quota above the volume's: the volume bounds", args: with(etcdArgs, "--load", "l", "--live", bigQuota), code: 1,
			stderr: []string{"warning: the live EtcdCluster tenant-root/etcd has spec.storage.size 1Gi, not the default size 4Gi: the check's quota guard uses the live size", refusedL("1Gi")}},
		{name: "a negative quota", args: with(etcdArgs, "--live", negQuota), code: 1,
			stderr: []string{`live: spec.options.quotaBackendBytes: invalid value -1: must be a whole number of bytes, 0 or more (the EtcdCluster CRD's int64)`}},
		{name: "a quota as a string", args: with(etcdArgs, "--live", strQuota), code: 1,
			stderr: []string{`live: spec.options.quotaBackendBytes: invalid value "1Gi": must be a whole number of bytes, 0 or more (the EtcdCluster CRD's int64)`}},
		{name: "a fractional quota", args: with(etcdArgs, "--live", fracQuota), code: 1,
			stderr: []string{`live: spec.options.quotaBackendBytes: invalid value 1.5: must be a whole number of bytes, 0 or more (the EtcdCluster CRD's int64)`}},
		{name: "another stack's live file", args: with(clusterArgs, "--live", small), code: 1,
			stderr: []string{`--live: invalid value "` + small + `": holds no EtcdCluster tenant-demo/kubernetes-demo-etcd (EtcdClusters: tenant-root/etcd): pass what 'kubectl get -n tenant-demo -o yaml etcdclusters.etcd-operator.cozystack.io kubernetes-demo-etcd' prints`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"render", "check"}, c.args...), strings.NewReader(c.stdin), &stdout, &stderr)
			require.Equal(t, c.code, code, stderr.String())
			if c.quiet {
				require.Empty(t, stderr.String())
			} else {
				var want strings.Builder
				for _, l := range c.stderr {
					want.WriteString("etcdshapes: " + l + "\n")
				}
				require.Equal(t, want.String(), stderr.String())
			}
			if c.image != "" {
				require.Contains(t, stdout.String(), "image: "+c.image+"\n")
			}
		})
	}
	// Without --live the flag decides, as before: the same load passes.
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, renderCheck(with(etcdArgs, "--load", "l"), &stdout, &stderr), stderr.String())
}

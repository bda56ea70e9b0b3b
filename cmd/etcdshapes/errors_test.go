package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/require"
)

// TestEveryErrorOneALine: bad input is reported with every refusal, one a
// line with the prefix, the first the one the chart prints; the exit
// status stays 1.
func TestEveryErrorOneALine(t *testing.T) {
	f := filepath.Join(t.TempDir(), "values.yaml")
	require.NoError(t, os.WriteFile(f, []byte("size: 0\nreplicas: 100\n_cluster:\n  cpu-allocation-ratio: \"-1\"\n"), 0o600))
	code, stdout, stderr := cli(t, "", "render", "etcd", "-n", "default", "-f", f, "--chart-version", "one")
	require.Equal(t, 1, code, stderr)
	require.Empty(t, stdout)
	require.Equal(t, []string{
		"etcdshapes: values.replicas: invalid value 100: is out of range: must be at most 99 (etcd advises at most 7 members)",
		"etcdshapes: values.size: invalid value 0: must be a positive quantity of bytes",
		`etcdshapes: _cluster.cpu-allocation-ratio: invalid value "-1": must be a number above 0 and at most 1e15`,
		`etcdshapes: namespace: invalid value "default": must be a tenant namespace ("tenant-<name>")`,
		`etcdshapes: chartVersion: invalid value "one": must be a chart version as Helm reads it (SemVer 2, e.g. 1.2.3 or 1.2.3-rc.1): invalid semantic version`,
	}, strings.Split(strings.TrimSuffix(stderr, "\n"), "\n"))

	// One bad input is one line, as before.
	code, _, stderr = cli(t, "", "render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--set", "etcd.replicas=2")
	require.Equal(t, 1, code)
	require.Equal(t, "etcdshapes: etcd.replicas: invalid value 2: must be 1 or 3\n", stderr)
}

// TestCheckFlagErrorList: every refusal of a list names its flag, in
// order; a field that is no flag is kept.
func TestCheckFlagErrorList(t *testing.T) {
	err := checkFlagError(invalid.Join(invalid.Errorf("Version", "3", "r"), invalid.Errorf("Size", "0", "r"), invalid.Errorf("namespace", "x", "r")))
	var got []string
	for _, e := range invalid.All(err) {
		got = append(got, e.Field)
	}
	require.Equal(t, []string{"--etcd-version", "--size", "namespace"}, got)
	require.Equal(t, "--load", checkFlagError(invalid.Errorf("Load", "x", "r")).(*invalid.Error).Field)
}

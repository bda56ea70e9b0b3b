package main

import (
	"bytes"
	"io"
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

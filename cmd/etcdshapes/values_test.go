package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIgnoredValuesKeys: render and plan, for both callers, warn on
// stderr about each ignored values key that resembles one the chart
// reads, one line a key, sorted, however the key came (-f, --set,
// --set-string, --set-json, --set-literal), and render exactly what they
// render without it; the chart's other keys are not told (the values
// package's TestClusterWarnings holds the class of keys).
func TestIgnoredValuesKeys(t *testing.T) {
	const clusterWarn = `etcdshapes: warning: values: %s is ignored, as the kubernetes chart's etcd ignores every key it does not read: did you mean %s?` + "\n"
	const etcdWarn = `etcdshapes: warning: values: %s is ignored, as the etcd chart ignores every key it does not read: did you mean %s?` + "\n"
	live := writeTemp(t, []byte(""))
	commands := map[string][]string{
		"render etcd":    {"render", "etcd", "-n", "tenant-root"},
		"render cluster": {"render", "cluster", "kubernetes-demo", "-n", "tenant-demo"},
		// An empty live file: a fresh install, so said.
		"plan etcd":    {"plan", "etcd", "-n", "tenant-root", "--live", live, "--fresh-install"},
		"plan cluster": {"plan", "cluster", "kubernetes-demo", "-n", "tenant-demo", "--live", live, "--fresh-install"},
	}
	for _, tc := range []struct {
		command string
		flags   []string
		want    []string // warnings: format, key, read key
	}{
		{"render cluster", []string{"--set", "etcdd.replicas=1"}, []string{clusterWarn, `"etcdd"`, `"etcd"`}},
		{"plan cluster", []string{"--set", "etcdd.replicas=1"}, []string{clusterWarn, `"etcdd"`, `"etcd"`}},
		{"render cluster", []string{"--set-string", "Etcd.replicas=1"}, []string{clusterWarn, `"Etcd"`, `"etcd"`}},
		{"render cluster", []string{"--set-json", `ectd={"replicas":1}`}, []string{clusterWarn, `"ectd"`, `"etcd"`}},
		{"render cluster", []string{"--set-literal", "_clustr.cpu-allocation-ratio=2"}, []string{clusterWarn, `"_clustr"`, `"_cluster"`}},
		{"render cluster", []string{"-f", writeValuesFile(t, "etcd: {replicas: 1}\n_cluster:\n  etcd-storage-class-locl: x\n  cpu_allocation_ratio: 2\n")},
			[]string{clusterWarn, `"_cluster.cpu_allocation_ratio"`, `"_cluster.cpu-allocation-ratio"`, clusterWarn, `"_cluster.etcd-storage-class-locl"`, `"_cluster.etcd-storage-class-local"`}},
		{"render etcd", []string{"--set", "_cluster.memory-allocation-ration=2"}, []string{etcdWarn, `"_cluster.memory-allocation-ration"`, `"_cluster.memory-allocation-ratio"`}},
		{"plan etcd", []string{"--set", "_cluster.scheduling.globalAppTopologySpreadConstraint=x"},
			[]string{etcdWarn, `"_cluster.scheduling.globalAppTopologySpreadConstraint"`, `"_cluster.scheduling.globalAppTopologySpreadConstraints"`}},
		{"render etcd", []string{"--set", "_cluster.etcd-storage-class-local=x"}, nil}, // the kubernetes chart's key
		{"render cluster", []string{"--set", "version=v1.32,host=k.example.org,storageClass=replicated,_namespace.etcd=tenant-root"}, nil},
		{"plan cluster", []string{"--set", "nodeGroups.md0.minReplicas=0,_cluster.root-host=example.org"}, nil},
	} {
		args := append(append([]string{}, commands[tc.command]...), tc.flags...)
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, stdout, stderr := cli(t, "", args...)
			require.Contains(t, []int{exitOK, exitUnsafe}, code, stderr)
			var want strings.Builder
			for i := 0; i < len(tc.want); i += 3 {
				want.WriteString(strings.Replace(strings.Replace(tc.want[i], "%s", tc.want[i+1], 1), "%s", tc.want[i+2], 1))
			}
			assert.Equal(t, want.String(), withoutHooksNote(stderr))
			_, plain, _ := cli(t, "", commands[tc.command]...)
			if len(tc.want) > 0 && !strings.Contains(strings.Join(tc.flags, " "), "-f") {
				// The plan's render command names the flags as given.
				assert.Equal(t, withoutRenderCommand(plain), withoutRenderCommand(stdout), "an ignored key renders nothing")
			}
		})
	}
}

// withoutRenderCommand is a plan's text without the render command it
// prints, which names every flag as given.
func withoutRenderCommand(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(l, "  etcdshapes render ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/hostilefs"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testtier"
	"github.com/stretchr/testify/require"
)

// TestConcurrentRunsIntoOneDirectory: two runs writing one directory at
// once, over and over (render --output-dir in goroutines and as two
// processes, gen chart as two processes), both succeed and leave a
// manifest that agrees with the files, and a third run afterwards
// succeeds: they take turns on the directory's lock. Without it, the
// first round already leaves a file the manifest does not list or lists
// with another hash, and every later run refuses it. The quick tier runs
// 5 rounds in goroutines and 2 as processes; the slow tier 15 and 5, and
// gen chart's processes (which generate the library chart, 1.5 s of CPU
// each; TestHeldLockFailsClearly has gen chart wait for the lock).
func TestConcurrentRunsIntoOneDirectory(t *testing.T) {
	t.Run("render --output-dir", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "out")
		rounds := func(from, to int) {
			for round := from; round < to; round++ {
				runs := [][]string{
					{"render", "etcd", "-n", "tenant-root", "--output-dir", dir, "--set", fmt.Sprintf("replicas=%d", 1+2*(round%3))},
					{"render", "etcd", "-n", "tenant-root", "--output-dir", dir, "--include-hooks", "--set", "size=" + fmt.Sprint(5+round) + "Gi"},
				}
				codes := make([]int, len(runs))
				stderrs := make([]string, len(runs))
				var wg sync.WaitGroup
				start := make(chan struct{})
				for i, args := range runs {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						var out, errOut bytes.Buffer
						codes[i] = run(args, nil, &out, &errOut)
						stderrs[i] = errOut.String()
					}()
				}
				hostilefs.Within(t, hangLimit, func() { close(start); wg.Wait() })
				for i := range runs {
					require.Equal(t, 0, codes[i], "round %d, run %d: %s", round, i, stderrs[i])
				}
				requireManifestAgrees(t, dir)
			}
			ok(t, "", "render", "etcd", "-n", "tenant-root", "--output-dir", dir)
			requireManifestAgrees(t, dir)
		}
		rounds(0, 5)
		testtier.SkipUnlessSlow(t, "rounds 6 to 15")
		rounds(5, 15)
	})
	// Processes: rounds from to to-1, two processes each.
	processes := func(t *testing.T, dir string, from, to int, argv func(round, i int) []string) {
		for round := from; round < to; round++ {
			var cmds []*exec.Cmd
			var stderrs []*bytes.Buffer
			for i := range 2 {
				cmd := exec.Command(os.Args[0], argv(round, i)...)
				cmd.Env = append(os.Environ(), runAsCommand+"=1")
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				cmds, stderrs = append(cmds, cmd), append(stderrs, &stderr)
			}
			hostilefs.Within(t, hangLimit, func() {
				for _, c := range cmds {
					require.NoError(t, c.Start())
				}
				for i, c := range cmds {
					require.NoError(t, c.Wait(), "round %d, process %d: %s", round, i, stderrs[i])
				}
			})
			requireManifestAgrees(t, dir)
		}
	}
	t.Run("render --output-dir, two processes", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "out")
		argv := func(round, i int) []string {
			// --prune-unsafe: a run without the API removes the network
			// policy the other wrote (TestOutputDirKeepsGatedKindsUnasked).
			args := []string{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--output-dir", dir, "--prune-unsafe", "--set", fmt.Sprintf("etcd.replicas=%d", 1+2*i)}
			if (round+i)%2 == 0 {
				args = append(args, "--api-versions", "cilium.io/v2/CiliumNetworkPolicy")
			}
			return args
		}
		rounds := func(from, to int) {
			processes(t, dir, from, to, argv)
			ok(t, "", "render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--output-dir", dir, "--prune-unsafe")
			requireManifestAgrees(t, dir)
		}
		rounds(0, 2)
		testtier.SkipUnlessSlow(t, "rounds 3 to 5")
		rounds(2, 5)
	})
	t.Run("gen chart, two processes", func(t *testing.T) {
		testtier.SkipUnlessSlow(t, "two gen chart processes")
		dir := filepath.Join(t.TempDir(), "chart")
		processes(t, dir, 0, 1, func(round, i int) []string {
			return []string{"gen", "chart", "--caller", "etcd", "--out", dir, "--chart-version", fmt.Sprintf("%d.0.%d", i+1, round)}
		})
		code, _, stderr := gen(t, "--caller", "etcd", "--out", dir)
		require.Equal(t, 0, code, stderr)
		requireGenerated(t, dir, chartgen.Options{Caller: "etcd"})
		requireManifestAgrees(t, dir)
	})
}

// TestGenHelpSaysTheLockWait: the help's figure is the wait's.
func TestGenHelpSaysTheLockWait(t *testing.T) {
	require.Equal(t, 30*time.Second, chartwrite.DefaultLockWait)
	help := ok(t, "", "gen", "chart", "--help")
	require.Contains(t, strings.Join(strings.Fields(help), " "), "A run waits at most 30 seconds for another")
}

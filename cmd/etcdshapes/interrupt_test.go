//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/stretchr/testify/require"
)

// The child process's test settings (the test binary run as the command,
// runAsCommand): a file size limit, so that a write fails as on a full
// disk, a step of the directory write to pause at, so that the test
// can signal or kill it there, and the wait for a FIFO's writer (fifoWait),
// so that a process refusing a FIFO takes less than the default's 10 s.
const (
	envFileSize = "ETCDSHAPES_TEST_FSIZE"
	envPauseAt  = "ETCDSHAPES_TEST_PAUSE_AT"
	envFIFOWait = "ETCDSHAPES_TEST_FIFO_WAIT"
	pausedLine  = "etcdshapes-test: paused at "
)

// asChild applies the child's test settings.
func asChild() {
	if v := os.Getenv(envFIFOWait); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			panic(err)
		}
		fifoWait = d
	}
	if v := os.Getenv(envFileSize); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			panic(err)
		}
		// Past the limit a write fails with EFBIG (Go ignores SIGXFSZ).
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
			panic(err)
		}
	}
	if at := os.Getenv(envPauseAt); at != "" {
		chartwrite.TestHook = func(ctx context.Context, step string) error {
			if step != at {
				return nil
			}
			fmt.Fprintf(os.Stderr, "%s%s\n", pausedLine, step)
			// Until the command's signal handler cancels the write (or
			// the test kills the process).
			select {
			case <-ctx.Done():
			case <-time.After(time.Minute):
			}
			return nil
		}
	}
}

// child is the command as a process with the test settings env.
func child(args []string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), runAsCommand+"=1"), env...)
	return cmd
}

// exitCode is the status a shell reports for a finished process: 128+N
// for one killed by signal N.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	ee, ok := err.(*exec.ExitError)
	require.True(t, ok, "%v", err)
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}

// runPaused runs args as a child paused at step, sends it sig there and
// returns its exit status and stderr.
func runPaused(t *testing.T, args []string, step string, sig syscall.Signal) (int, string) {
	t.Helper()
	cmd := child(args, envPauseAt+"="+step)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	cmd.Stdout = io.Discard
	require.NoError(t, cmd.Start())
	var seen strings.Builder
	r := bufio.NewReader(stderr)
	paused := make(chan error, 1)
	go func() {
		for {
			line, err := r.ReadString('\n')
			seen.WriteString(line)
			if strings.HasPrefix(line, pausedLine) || err != nil {
				paused <- err
				return
			}
		}
	}()
	select {
	case err := <-paused:
		require.NoError(t, err, "the child ended before it paused at %q: %s", step, seen.String())
	case <-time.After(hangLimit):
		_ = cmd.Process.Kill()
		t.Fatalf("the child never paused at %q", step)
	}
	require.NoError(t, cmd.Process.Signal(sig))
	rest, _ := io.ReadAll(r)
	code := exitCode(t, cmd.Wait())
	return code, seen.String() + string(rest)
}

// writeRun is one directory write of the test: the first run (the old
// set) and the second (the new), for render --output-dir and gen chart.
type writeRun struct {
	name          string
	first, second []string // without the directory
	dirFlag       string
}

func (w writeRun) args(base []string, dir string) []string {
	return append(append(append([]string{}, base...), w.dirFlag), dir)
}

var writeRuns = []writeRun{
	{"render --output-dir", []string{"render", "etcd", "-n", "tenant-root"},
		[]string{"render", "etcd", "-n", "tenant-root", "--set", "replicas=5", "--set", "size=5Gi", "--include-hooks"}, "--output-dir"},
	{"gen chart", []string{"gen", "chart", "--caller", "etcd", "--chart-version", "1.0.0"},
		[]string{"gen", "chart", "--caller", "etcd", "--chart-version", "2.0.0"}, "--out"},
}

// setsOf are, for w, the files of its first and second run's directory.
func setsOf(t *testing.T, w writeRun) (oldSet, newSet map[string]string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ref")
	code, _, stderr := cli(t, "", w.args(w.first, dir)...)
	require.Equal(t, 0, code, stderr)
	oldSet = files(t, dir)
	code, _, stderr = cli(t, "", w.args(w.second, dir)...)
	require.Equal(t, 0, code, stderr)
	return oldSet, files(t, dir)
}

// TestWriteErrorLeavesTheOldSet (B8): a write that fails midway, as on a
// full disk (a file size limit on the process: the new files fit, the
// manifest does not), leaves the directory exactly as it was, with no
// temporary file, and says nothing was written; the next runs, back and
// forth, find every file their own. Before the fix the new files stayed
// beside the old manifest, and every later run refused them as "edited
// since".
func TestWriteErrorLeavesTheOldSet(t *testing.T) {
	for _, c := range []struct {
		writeRun
		limit int
	}{{writeRuns[0], 2000}, {writeRuns[1], 600}} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			code, _, stderr := cli(t, "", c.args(c.first, dir)...)
			require.Equal(t, 0, code, stderr)
			before, oldSet := tree(t, dir), files(t, dir)
			out, err := child(c.args(c.second, dir), envFileSize+"="+strconv.Itoa(c.limit)).CombinedOutput()
			require.Equal(t, exitError, exitCode(t, err), "%s", out)
			require.Contains(t, string(out), "file too large")
			require.Contains(t, string(out), "etcdshapes: nothing was written to "+dir+"\n")
			require.Equal(t, before, tree(t, dir), "%s", out)
			// The next run finds every file its own (gen costs seconds:
			// forth only).
			code, _, stderr = cli(t, "", c.args(c.second, dir)...)
			require.Equal(t, 0, code, stderr)
			requireManifestAgrees(t, dir)
			if c.name == "gen chart" {
				requireGenerated(t, dir, chartgen.Options{Caller: "etcd", Version: "2.0.0"})
				return
			}
			code, _, stderr = cli(t, "", c.args(c.first, dir)...)
			require.Equal(t, 0, code, stderr)
			require.Equal(t, oldSet, files(t, dir))
			requireManifestAgrees(t, dir)
		})
	}
}

// TestSignalsLeaveOneSet (B8): SIGINT, SIGTERM or SIGHUP during a write,
// before its commit point, leaves the directory exactly as it was (no
// temporary file, no journal) and the command exits 128+N saying so;
// after it, the write finishes (the new set), then the command exits
// 128+N. SIGKILL, which cannot be caught, at any step leaves whole files
// only: the next run undoes the write (before the commit point) or
// finishes it (after), says so, and then does its own.
func TestSignalsLeaveOneSet(t *testing.T) {
	for _, w := range writeRuns {
		t.Run(w.name, func(t *testing.T) {
			// gen costs seconds a run: one case, before the commit
			// point; render all of them.
			cases := []struct {
				step string
				sig  syscall.Signal
			}{{"stage 1", syscall.SIGTERM}}
			var oldSet, newSet map[string]string
			if w.name == "render --output-dir" {
				// remove: the second run prints the hooks, the first
				// does not; reversed, so that something is removed.
				w = writeRun{w.name, w.second, w.first, w.dirFlag}
				oldSet, newSet = setsOf(t, w)
				cases = append(cases, []struct {
					step string
					sig  syscall.Signal
				}{{"rename 2", syscall.SIGKILL}, {"stage 2", syscall.SIGINT}, {"rename 1", syscall.SIGTERM}, {"stage 2", syscall.SIGKILL},
					{"journal staging", syscall.SIGHUP}, {"rename 3", syscall.SIGINT}, {"journal commit", syscall.SIGKILL}, {"remove 1", syscall.SIGKILL}}...)
			}
			for _, c := range cases {
				t.Run(fmt.Sprintf("%s at %s", c.sig, c.step), func(t *testing.T) {
					dir := filepath.Join(t.TempDir(), "out")
					code, _, stderr := cli(t, "", w.args(w.first, dir)...)
					require.Equal(t, 0, code, stderr)
					before := tree(t, dir)
					code, stderr = runPaused(t, w.args(w.second, dir), c.step, c.sig)
					require.Equal(t, 128+int(c.sig), code, stderr)
					committed := strings.HasPrefix(c.step, "rename ") || strings.HasPrefix(c.step, "remove ")
					switch {
					case c.sig == syscall.SIGKILL:
						// Only whole files: each the old or the new.
						for name, got := range files(t, dir) {
							if strings.HasPrefix(filepath.Base(name), ".etcdshapes-tmp-") {
								continue
							}
							require.Contains(t, []string{oldSet[name], newSet[name]}, got, name)
						}
						// The next run (the first's again) undoes or
						// finishes it, and says so.
						code, _, stderr := cli(t, "", w.args(w.first, dir)...)
						require.Equal(t, 0, code, stderr)
						if committed {
							require.Contains(t, stderr, "etcdshapes: an earlier run into "+dir+" was interrupted after its commit point; it was finished first\n")
						} else {
							require.Contains(t, stderr, "etcdshapes: an earlier run into "+dir+" was interrupted before its commit point; its temporary files were removed, leaving the files as they were before it\n")
						}
						require.Equal(t, oldSet, files(t, dir))
					case committed:
						require.Contains(t, stderr, "etcdshapes: "+signalName(c.sig)+" arrived after the write into "+dir+" had passed its commit point: it was finished, then etcdshapes stopped\n")
						require.Equal(t, newSet, files(t, dir))
					default:
						require.Contains(t, stderr, "etcdshapes: interrupted by "+signalName(c.sig)+" before anything was written to "+dir+"; nothing changed there\n")
						require.Equal(t, before, tree(t, dir))
					}
					requireManifestAgrees(t, dir)
				})
			}
		})
	}
}

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testtier"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flagsOfTree calls fn with every flag of every command of the tree, with
// the command's arguments ("render", "etcd").
func flagsOfTree(fn func(cmdArgs []string, f *pflag.Flag)) {
	root := newRootCmd(env{strings.NewReader(""), io.Discard, io.Discard})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		args := strings.Fields(c.CommandPath())[1:]
		c.Flags().VisitAll(func(f *pflag.Flag) { fn(args, f) })
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// inputFlag is a flag of a command that reads a file: one whose value's
// placeholder in the help names a FILE or a PATH (-f FILE, --live FILE,
// --set-file KEY=PATH).
type inputFlag struct {
	cmdArgs []string
	flag    *pflag.Flag
}

func (f inputFlag) String() string { return strings.Join(f.cmdArgs, " ") + " --" + f.flag.Name }

// inputFlags are the tree's flags that read a file, found by walking it,
// so that a new one is covered.
func inputFlags() []inputFlag {
	var out []inputFlag
	flagsOfTree(func(cmdArgs []string, f *pflag.Flag) {
		if name, _ := pflag.UnquoteUsage(f); strings.Contains(name, "FILE") || strings.Contains(name, "PATH") {
			out = append(out, inputFlag{cmdArgs, f})
		}
	})
	return out
}

// args is a command line on which f reads path, with what else the
// command needs to read it (and, for plan, an empty live file).
func (f inputFlag) args(t *testing.T, path, emptyLive string) []string {
	base := map[string][]string{
		"render etcd":          {"-n", "tenant-root"},
		"render cluster":       {"kubernetes-demo", "-n", "tenant-demo"},
		"plan etcd":            {"-n", "tenant-root"},
		"plan cluster":         {"kubernetes-demo", "-n", "tenant-demo"},
		"render check etcd":    {"-n", "tenant-root"},
		"render check cluster": {"kubernetes-demo", "-n", "tenant-demo"},
	}
	cmd := strings.Join(f.cmdArgs, " ")
	b, ok := base[cmd]
	require.True(t, ok, "no arguments for %s: add the ones it needs", cmd)
	args := append(append([]string{}, f.cmdArgs...), b...)
	if f.cmdArgs[0] == "plan" && f.flag.Name != "live" {
		args = append(args, "--live", emptyLive)
	}
	if f.cmdArgs[0] == "plan" {
		// The live files here hold nothing of the stack: a fresh
		// install, which exits 0 only so said.
		args = append(args, "--fresh-install")
	}
	if name, _ := pflag.UnquoteUsage(f.flag); strings.HasPrefix(name, "KEY=") {
		path = "_cluster.x=" + path
	}
	return append(args, "--"+f.flag.Name, path)
}

// errFlag is how an error names the flag.
func (f inputFlag) errFlag() string { return "--" + f.flag.Name }

// content is what a writer writes for the flag: a document it reads.
func (f inputFlag) content() string {
	switch {
	case f.flag.Name == "live" && f.cmdArgs[1] == "check":
		// render check reads the stack's live EtcdCluster.
		ns, name := "tenant-root", "etcd"
		if f.cmdArgs[2] == "cluster" {
			ns, name = "tenant-demo", "kubernetes-demo-etcd"
		}
		return "apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdCluster\nmetadata: {name: " + name + ", namespace: " + ns + "}\nspec: {version: 3.6.11, storage: {size: 10Gi}}\n"
	case f.flag.Name == "live":
		return "apiVersion: v1\nkind: List\nitems: []\n"
	case f.flag.Name == "restore-from":
		// A Complete snapshot of the stack's cluster.
		return snapshotsOf(f.cmdArgs[1], snap("nightly-0", "", "Complete", "2025-01-01T00:00:00Z"))
	case f.cmdArgs[1] == "cluster":
		return "etcd:\n  replicas: 1\n"
	}
	return "replicas: 1\n"
}

// writeFIFO opens the FIFO path for writing after delay, writes data
// after pause (endlessly when data is nil) and closes it. It never waits
// for a reader in open: it tries again until one is there, for at most a
// minute, so that it cannot outlive the test in a blocked open.
func writeFIFO(path string, delay, pause time.Duration, data []byte) {
	go func() {
		time.Sleep(delay)
		deadline := time.Now().Add(time.Minute)
		var w *os.File
		for {
			var err error
			if w, err = os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				break
			}
			if !errors.Is(err, syscall.ENXIO) || time.Now().After(deadline) {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		defer w.Close()
		time.Sleep(pause)
		if data == nil {
			_, _ = io.Copy(w, &endless{}) // ends with EPIPE when the reader closes
			return
		}
		_, _ = w.Write(data)
	}()
}

// TestFIFOInputs: every flag that reads a file, given a FIFO, ends:
// without a writer, after the wait (fifoWait), with exit 1 and one line
// naming the flag and the path; with a writer that comes a second later,
// one that opens at once and writes only after the wait, or one that
// comes and goes without writing, as a file with that content (exit 0);
// with a writer that never stops, at the size limit (exit 1); and an
// anonymous pipe read as /dev/fd/N, as a shell's process substitution
// <(...) gives one, the same. Each command runs under hangLimit.
func TestFIFOInputs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	flags := inputFlags()
	var names []string
	for _, f := range flags {
		names = append(names, f.String())
	}
	for _, want := range []string{"render etcd --values", "render etcd --set-file", "render cluster --values", "render cluster --set-file",
		"plan etcd --live", "plan etcd --values", "plan etcd --set-file", "plan cluster --live",
		"render etcd --restore-from", "render cluster --restore-from", "plan etcd --restore-from", "plan cluster --restore-from"} {
		require.Contains(t, names, want)
	}

	old := fifoWait
	fifoWait = 3 * time.Second
	defer func() { fifoWait = old }()
	emptyLive := writeTemp(t, nil)

	type row struct {
		name string
		// source makes the input for f: a path, and what the command
		// prints or says (want) with its exit status.
		source func(t *testing.T, f inputFlag) string
		code   int
		want   func(f inputFlag, path string) string
		// minTime is the least time the command must take.
		minTime time.Duration
		linux   bool
		// endless rows read 16 MiB: one at a time.
		endless bool
	}
	fifo := func(t *testing.T) string {
		p := filepath.Join(t.TempDir(), "fifo")
		require.NoError(t, syscall.Mkfifo(p, 0o600))
		return p
	}
	rows := []row{
		{name: "no writer", source: func(t *testing.T, f inputFlag) string { return fifo(t) }, code: exitError,
			want: func(f inputFlag, path string) string {
				return fmt.Sprintf("etcdshapes: %s: invalid value %q: is a FIFO that no process opened for writing within 3s: start its writer first, or give a pipe or a file\n", f.errFlag(), path)
			}, minTime: 3 * time.Second},
		{name: "writer a second late", source: func(t *testing.T, f inputFlag) string {
			p := fifo(t)
			writeFIFO(p, time.Second, 0, []byte(f.content()))
			return p
		}, minTime: time.Second},
		{name: "writer silent beyond the wait", source: func(t *testing.T, f inputFlag) string {
			p := fifo(t)
			writeFIFO(p, 0, 4*time.Second, []byte(f.content()))
			return p
		}, minTime: 4 * time.Second},
		{name: "writer that writes nothing", source: func(t *testing.T, f inputFlag) string {
			p := fifo(t)
			writeFIFO(p, time.Second, 0, []byte{})
			return p
		}, linux: true},
		{name: "anonymous pipe", source: func(t *testing.T, f inputFlag) string {
			r, w, err := os.Pipe()
			require.NoError(t, err)
			t.Cleanup(func() { r.Close() })
			go func() {
				time.Sleep(time.Second)
				_, _ = io.WriteString(w, f.content())
				w.Close()
			}()
			return fmt.Sprintf("/dev/fd/%d", r.Fd())
		}, minTime: time.Second, linux: true},
		{name: "writer that never stops", source: func(t *testing.T, f inputFlag) string {
			p := fifo(t)
			writeFIFO(p, 0, 0, nil)
			return p
		}, code: exitError, want: func(f inputFlag, path string) string {
			if f.errFlag() == "--live" || f.errFlag() == "--restore-from" {
				return fmt.Sprintf("etcdshapes: %s: invalid value %q: is larger than 67108864 bytes (64 MiB), the limit for a live file\n", f.errFlag(), path)
			}
			return fmt.Sprintf("etcdshapes: %s: invalid value %q: is larger than 16777216 bytes (16 MiB), the limit for a values file\n", f.errFlag(), path)
		}, endless: true},
	}
	type result struct {
		code           int
		stdout, stderr string
		took           time.Duration
	}
	// The rows that wait run at once (they take seconds, doing nothing);
	// those that read 16 MiB one after the other.
	for _, parallel := range []bool{true, false} {
		type job struct {
			name string
			r    row
			f    inputFlag
			path string
			done chan result
		}
		var jobs []*job
		for _, r := range rows {
			if r.endless == parallel {
				continue
			}
			if r.linux && runtime.GOOS != "linux" {
				continue
			}
			for _, f := range flags {
				j := &job{name: r.name + "/" + f.String(), r: r, f: f, done: make(chan result, 1)}
				j.path = r.source(t, f)
				jobs = append(jobs, j)
				start := func() {
					go func() {
						var stdout, stderr bytes.Buffer
						begin := time.Now()
						code := run(f.args(t, j.path, emptyLive), strings.NewReader(""), &stdout, &stderr)
						j.done <- result{code, stdout.String(), stderr.String(), time.Since(begin)}
					}()
				}
				start()
				if !parallel {
					select {
					case res := <-j.done:
						j.done <- res
					case <-time.After(hangLimit):
						t.Fatalf("%s: no end within %s", j.name, hangLimit)
					}
				}
			}
		}
		deadline := time.Now().Add(hangLimit)
		for _, j := range jobs {
			t.Run(j.name, func(t *testing.T) {
				var res result
				select {
				case res = <-j.done:
				default:
					select {
					case res = <-j.done:
					case <-time.After(time.Until(deadline)):
						t.Fatalf("no end within %s", hangLimit)
					}
				}
				if j.r.name == "writer that writes nothing" && j.f.flag.Name == "restore-from" {
					// Read to its end, an empty file holds no snapshot
					// to restore from, and is refused so.
					require.Equal(t, exitError, res.code, res.stderr)
					assert.Contains(t, res.stderr, `"0 snapshots": hold no EtcdSnapshot of cluster`)
					return
				}
				if j.r.name == "writer that writes nothing" && j.f.flag.Name == "live" && j.f.cmdArgs[1] == "check" {
					// render check needs the stack's EtcdCluster in the
					// file: read to its end, an empty one is refused so.
					require.Equal(t, exitError, res.code, res.stderr)
					assert.Contains(t, res.stderr, "holds no EtcdCluster")
					return
				}
				require.Equal(t, j.r.code, res.code, res.stderr)
				// The writer's clock starts before the command's (it is
				// started first): allow for the scheduling between them.
				assert.GreaterOrEqual(t, res.took, j.r.minTime-100*time.Millisecond)
				if j.r.want != nil {
					assert.Equal(t, j.r.want(j.f, j.path), res.stderr)
					assert.Empty(t, res.stdout)
					return
				}
				assert.NotEmpty(t, res.stdout)
				if j.f.String() == "render "+j.f.cmdArgs[1]+" --values" && j.r.name != "writer that writes nothing" {
					assert.Contains(t, res.stdout, "\n  replicas: 1\n", "the values were read")
				}
			})
		}
	}
}

// TestFIFOProcess: the command as a process, run by a shell as the
// tester did: a FIFO no process writes ends after the wait with exit 1
// (timeout 20 gives 124 otherwise); one whose writer a shell starts a
// second later, and a process substitution whose writer sleeps a second,
// render, with the default wait. The quick tier waits 2s for the FIFOs no
// process writes (envFIFOWait); the slow tier adds them with the default
// wait (10s), well within 20 seconds.
func TestFIFOProcess(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil || runtime.GOOS == "windows" {
		t.Skip("no bash")
	}
	t.Parallel()
	self, err := os.Executable()
	require.NoError(t, err)
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "etcdshapes"), []byte("#!/bin/sh\n"+runAsCommand+"=1 exec '"+self+"' \"$@\"\n"), 0o755))
	noWriter := func(flag string) string {
		return `etcdshapes: ` + flag + `: invalid value "f": is a FIFO that no process opened for writing within %s: start its writer first, or give a pipe or a file` + "\n"
	}
	for _, c := range []struct {
		name, script string
		code         int
		stderr       string
		// wait is the child's fifoWait; zero is the default, in the slow
		// tier, and a negative wait the default in both.
		wait     time.Duration
		min, max time.Duration
	}{
		{"no writer", `mkfifo f; timeout 20 etcdshapes render etcd -n tenant-root -f f`, exitError,
			noWriter("--values"), 2 * time.Second, 2 * time.Second, 19 * time.Second},
		{"--set-file, no writer", `mkfifo f; timeout 20 etcdshapes render etcd -n tenant-root --set-file _cluster.x=f`, exitError,
			noWriter("--set-file"), 2 * time.Second, 2 * time.Second, 19 * time.Second},
		{"no writer, the default wait", `mkfifo f; timeout 20 etcdshapes render etcd -n tenant-root -f f`, exitError,
			noWriter("--values"), 0, 10 * time.Second, 19 * time.Second},
		{"--set-file, no writer, the default wait", `mkfifo f; timeout 20 etcdshapes render etcd -n tenant-root --set-file _cluster.x=f`, exitError,
			noWriter("--set-file"), 0, 10 * time.Second, 19 * time.Second},
		{"writer a second late", `mkfifo f; (sleep 1; echo 'replicas: 1' > f) & timeout 20 etcdshapes render etcd -n tenant-root -f f --include-hooks | grep -c 'replicas: 1'`, 0,
			"", -1, time.Second, 19 * time.Second},
		{"process substitution", `timeout 20 etcdshapes plan etcd -n tenant-root --fresh-install --live <(sleep 1; echo 'apiVersion: v1'; echo 'kind: List'; echo 'items: []') -o json | grep -c '"create"'`, 0,
			"", -1, time.Second, 19 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.wait == 0 {
				testtier.SkipUnlessSlow(t, "a FIFO without a writer refused after the default wait (10s)")
			}
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
			defer cancel()
			cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", "set -o pipefail; cd \"$1\" && "+c.script, "bash", t.TempDir())
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			if c.wait > 0 {
				cmd.Env = append(cmd.Env, envFIFOWait+"="+c.wait.String())
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			begin := time.Now()
			err := cmd.Run()
			took := time.Since(begin)
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else {
				require.NoError(t, err)
			}
			require.Equal(t, c.code, code, "stdout %s, stderr %s", stdout.String(), stderr.String())
			if c.stderr != "" {
				wait := c.wait
				if wait == 0 {
					wait = inputlimit.FIFOWait
				}
				assert.Equal(t, fmt.Sprintf(c.stderr, wait), stderr.String())
			} else {
				assert.NotEqual(t, "0\n", stdout.String(), stderr.String())
			}
			assert.GreaterOrEqual(t, took, c.min)
			assert.Less(t, took, c.max)
		})
	}
}

package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bashCompletionScripts are where the bash-completion package installs its
// functions on Debian, Fedora and Homebrew's bash-completion@2.
var bashCompletionScripts = []string{"/usr/share/bash-completion/bash_completion", "/opt/homebrew/share/bash-completion/bash_completion", "/usr/local/share/bash-completion/bash_completion"}

// TestBashCompletionNeedsBashCompletion: 'completion --help' and
// 'completion bash --help' say that the bash script needs the
// bash-completion package, and what a bare bash does; and it is so. The
// script, sourced in a bash without the package (bash --norc), loads
// without a word and fails at the first completion with the message the
// help quotes; with the package loaded (where it is installed) the same
// completion completes.
func TestBashCompletionNeedsBashCompletion(t *testing.T) {
	for _, args := range [][]string{{"completion", "--help"}, {"completion", "bash", "--help"}} {
		help := ok(t, "", args...)
		assert.Contains(t, help, "The bash script needs the bash-completion package loaded in the shell")
		assert.Contains(t, help, `every TAB prints "_get_comp_words_by_ref: command not found"`)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	// An etcdshapes on PATH: this test binary, running the command.
	self, err := os.Executable()
	require.NoError(t, err)
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "etcdshapes"), []byte("#!/bin/sh\n"+runAsCommand+"=1 exec '"+self+"' \"$@\"\n"), 0o755))
	script := filepath.Join(t.TempDir(), "etcdshapes.bash")
	require.NoError(t, os.WriteFile(script, []byte(ok(t, "", "completion", "bash")), 0o600))
	// A TAB after "etcdshapes ren", as readline calls the function.
	complete := `source "$1" || exit 9
COMP_WORDS=(etcdshapes ren); COMP_CWORD=1; COMP_LINE="etcdshapes ren"; COMP_POINT=${#COMP_LINE}
__start_etcdshapes etcdshapes ren etcdshapes
echo "rc=$? reply=${COMPREPLY[*]}"
`
	run := func(prelude string) (string, string) {
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prelude+complete, "bash", script)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		require.NoError(t, cmd.Run(), stderr.String())
		return stdout.String(), stderr.String()
	}
	stdout, stderr := run("unset -f _get_comp_words_by_ref _filedir _init_completion 2>/dev/null\n")
	assert.Equal(t, "rc=127 reply=\n", stdout)
	assert.Contains(t, stderr, "_get_comp_words_by_ref: command not found")

	for _, pkg := range bashCompletionScripts {
		if _, err := os.Stat(pkg); err == nil {
			stdout, stderr = run("source '" + pkg + "'\n")
			assert.Equal(t, "rc=0 reply=render\n", stdout, stderr)
			return
		}
	}
	t.Log("the bash-completion package is not installed: only the bare bash was checked")
}

// TestEveryFlagCompletion: every flag whose value completes from a fixed
// list, or to nothing (no file names), completes so when the shell asks
// (__complete): its words, and the directive that no file names follow.
// The flags of every kind are among them.
func TestEveryFlagCompletion(t *testing.T) {
	var names []string
	flagsOfTree(func(cmdArgs []string, f *pflag.Flag) {
		want, ok := f.Annotations[completionValues]
		if !ok {
			return
		}
		name := strings.Join(cmdArgs, " ") + " --" + f.Name
		names = append(names, name)
		t.Run(name, func(t *testing.T) {
			code, out, stderr := cli(t, "", append(append([]string{cobra.ShellCompNoDescRequestCmd}, cmdArgs...), "--"+f.Name, "")...)
			require.Equal(t, 0, code, stderr)
			require.Equal(t, strings.Join(append(append([]string{}, want...), fmt.Sprintf(":%d", cobra.ShellCompDirectiveNoFileComp)), "\n")+"\n", out)
		})
	})
	for _, want := range []string{"render etcd --namespace", "render etcd --output", "render etcd --release", "render cluster --api-versions",
		"render cluster --live-storage-class", "render check etcd --load", "plan etcd --output", "plan cluster --field-manager",
		"gen chart --caller", "version --output"} {
		assert.Contains(t, names, want)
	}
}

// TestCommandTreesAreCollected: a command line run in process leaves
// nothing of its command tree behind once it returned (cobra keeps flag
// completion functions in a package-level map that is never emptied:
// registerCompletions). A completion request keeps its tree: the shell
// runs one process for each.
func TestCommandTreesAreCollected(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for _, args := range [][]string{{"version"}, {"render", "etcd", "-n", "tenant-root"}, {"plan", "etcd", "-n", "tenant-root", "--live", os.DevNull}, {"render", "--help"}} {
		run(args, strings.NewReader(""), io.Discard, io.Discard) // what is built once per process
		before := heap()
		for range 100 {
			run(args, strings.NewReader(""), io.Discard, io.Discard)
		}
		// A tree is some 90 KB: 100 kept would be 9 MB.
		grew := int64(heap()) - int64(before)
		assert.Less(t, grew, int64(2<<20), "%q: the heap grew by %d bytes over 100 runs", args, grew)
	}
}

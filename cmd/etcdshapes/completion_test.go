package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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

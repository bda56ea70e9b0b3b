package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allCommands are the paths of every command of the tree (commandPaths).
func allCommands(t *testing.T) [][]string {
	t.Helper()
	root := newRootCmd(env{})
	root.InitDefaultHelpCmd()
	paths := commandPaths(root, nil)
	require.GreaterOrEqual(t, len(paths), 18, "%q", paths)
	return paths
}

// TestVerbosityFlag: -v is no flag of any command (kubectl's verbosity,
// cobra's --version shorthand): in every spelling kubectl users type, on
// every command, a usage error (exit 2, nothing on stdout) whose second
// line says why and points at --version.
func TestVerbosityFlag(t *testing.T) {
	for _, path := range allCommands(t) {
		for _, v := range []string{"-v", "-v=6", "-v6", "-vv"} {
			args := append(append([]string{}, path...), v)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, stdout, stderr := cli(t, "", args...)
				require.Equal(t, exitUsage, code, stderr)
				assert.Empty(t, stdout)
				assert.Contains(t, stderr, "etcdshapes: unknown shorthand flag: 'v' in "+v+"\n")
				assert.Contains(t, stderr, "\netcdshapes: -v is not a flag of etcdshapes: there is no log verbosity (kubectl's -v) to set; the version is --version or 'etcdshapes version'\n")
				assert.Contains(t, stderr, "Run 'etcdshapes")
			})
		}
	}
}

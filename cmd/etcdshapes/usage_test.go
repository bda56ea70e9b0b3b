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

// usageArgs are the positional arguments each command's usage line must
// name, as its words: a subcommand's place, the release, help's command.
// Every command of the tree is listed, so a new one must say its own.
var usageArgs = map[string][]string{
	"":                        {"[command]"},
	"render":                  {"etcd|cluster|snapshot|check"},
	"render etcd":             {"[RELEASE]"},
	"render cluster":          {"RELEASE"},
	"render snapshot":         {"etcd|cluster"},
	"render snapshot etcd":    {"[RELEASE]"},
	"render snapshot cluster": {"RELEASE"},
	"render check":            {"etcd|cluster"},
	"render check etcd":       {"[RELEASE]"},
	"render check cluster":    {"RELEASE"},
	"plan":                    {"etcd|cluster"},
	"plan etcd":               {"[RELEASE]"},
	"plan cluster":            {"RELEASE"},
	"gen":                     {"chart"},
	"gen chart":               nil,
	"version":                 nil,
	"help":                    {"[command]"},
	"completion":              {"[command]"},
	"completion bash":         nil,
	"completion zsh":          nil,
	"completion fish":         nil,
	"completion powershell":   nil,
}

// TestUsageLines: the usage line of every command ('Usage:' in its help)
// says "[flags]" and names its positional arguments (usageArgs); a
// command whose line names none takes none (a usage error, exit 2).
func TestUsageLines(t *testing.T) {
	paths := allCommands(t)
	require.Len(t, paths, len(usageArgs), "every command is in usageArgs")
	for _, path := range paths {
		name := strings.Join(path, " ")
		want, listed := usageArgs[name]
		require.True(t, listed, "%q is not in usageArgs", name)
		t.Run("etcdshapes "+name, func(t *testing.T) {
			help := ok(t, "", append(append([]string{}, path...), "--help")...)
			_, usage, found := strings.Cut(help, "\nUsage:\n")
			require.True(t, found, help)
			usage, _, _ = strings.Cut(usage, "\n\n")
			lines := strings.Split(usage, "\n")
			first := strings.Fields(lines[0])
			require.Equal(t, append([]string{"etcdshapes"}, path...), first[:len(path)+1], "%q", lines[0])
			assert.Contains(t, first, "[flags]", "%q", lines[0])
			words := strings.Fields(usage)
			for _, w := range want {
				assert.Contains(t, words, w, "%q", usage)
			}
			if len(want) == 0 {
				code, stdout, stderr := cli(t, "", append(append([]string{}, path...), "extra")...)
				assert.Equal(t, exitUsage, code, stderr)
				assert.Empty(t, stdout)
				assert.Contains(t, stderr, `"extra"`)
			}
		})
	}
}

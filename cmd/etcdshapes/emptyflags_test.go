package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmptyFlagValues: every flag of every command (the tree walked, so
// that a new flag is covered), given an empty value, is a usage error
// (exit 2, nothing on stdout) naming the flag, however the empty value is
// written (--flag "", --flag=, -flag "", -x "", after a value of a
// repeated flag), before any other check; but for the flags whose empty
// value is documented to mean something (emptyMeans), which are exactly
// those listed here. A flag that takes no text (a number, a boolean)
// refuses an empty value as pflag does, naming the flag.
func TestEmptyFlagValues(t *testing.T) {
	var seen, meaningful []string
	flagsOfTree(func(cmdArgs []string, f *pflag.Flag) {
		where := strings.Join(cmdArgs, " ") + " --" + f.Name
		if f.Hidden {
			return
		}
		if f.Annotations[emptyMeans] != nil {
			meaningful = append(meaningful, where)
			return
		}
		seen = append(seen, where)
		forms := [][]string{{"--" + f.Name + "="}}
		if textFlag(f) {
			forms = append(forms, []string{"--" + f.Name, ""}, []string{"-" + f.Name, ""})
			if f.Shorthand != "" {
				forms = append(forms, []string{"-" + f.Shorthand, ""})
			}
			if t := f.Value.Type(); strings.HasSuffix(t, "Array") || strings.HasSuffix(t, "Slice") {
				forms = append(forms, []string{"--" + f.Name, "x", "--" + f.Name, ""})
			}
		}
		for _, form := range forms {
			args := append(append([]string{}, cmdArgs...), form...)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, stdout, stderr := cli(t, "", args...)
				require.Equal(t, exitUsage, code, stderr)
				assert.Empty(t, stdout)
				lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
				require.Len(t, lines, 2, stderr)
				if textFlag(f) {
					assert.Regexp(t, `^etcdshapes: --`+f.Name+` is empty, where \S.* is expected \(is a shell variable unset\?\)$`, lines[0])
				} else {
					assert.Contains(t, lines[0], `"--`+f.Name+`"`)
				}
				assert.Equal(t, "Run '"+strings.Join(append([]string{"etcdshapes"}, cmdArgs...), " ")+" --help' for usage.", lines[1])
			})
		}
	})
	// The walk reached the flags the class is about.
	for _, want := range []string{
		"render etcd --output-dir", "render cluster --output-dir", "render etcd --values", "render etcd --set",
		"render etcd --set-file", "render etcd --namespace", "render etcd --release", "render etcd --chart-version",
		"render cluster --api-versions", "render cluster --live-datastore", "plan etcd --live", "plan cluster --field-manager",
		"plan etcd --output", "render snapshot etcd --s3-key", "render check etcd --size", "gen chart --out", "version --output",
		"render snapshot cluster --keep", "render etcd --force",
	} {
		assert.Contains(t, seen, want)
	}
	assert.Equal(t, []string{"plan cluster --live-storage-class", "render cluster --live-storage-class"}, slices.Sorted(slices.Values(meaningful)),
		"the flags whose empty value means something")

	// An empty value that means something is taken.
	code, _, stderr := cli(t, "", "render", "cluster", "kubernetes-demo", "-n", "tenant-demo", "--live-storage-class", "")
	require.Equal(t, exitOK, code, stderr)

	// Every empty flag is named, one a line, in the flags' order.
	code, _, stderr = cli(t, "", "render", "etcd", "--output-dir", "", "-n", "", "--set", "a=1", "--set", "")
	require.Equal(t, exitUsage, code)
	assert.Equal(t, `etcdshapes: --namespace is empty, where NS is expected (is a shell variable unset?)
etcdshapes: --output-dir is empty, where DIR is expected (is a shell variable unset?)
etcdshapes: --set is empty, where KEY=VALUE is expected (is a shell variable unset?)
Run 'etcdshapes render etcd --help' for usage.
`, stderr)
}

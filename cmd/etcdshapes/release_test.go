package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// releaseCommands are the commands that take a Helm release, each with
// the other arguments one of its renders needs (a plan's live objects
// on stdin, empty: a fresh install, so said) and the release it renders.
var releaseCommands = map[string]struct {
	args    []string
	release string
}{
	"render etcd":             {[]string{"-n", "tenant-root"}, "etcd"},
	"render cluster":          {[]string{"-n", "tenant-demo"}, "kubernetes-demo"},
	"plan etcd":               {[]string{"-n", "tenant-root", "--live", "-", "--fresh-install"}, "etcd"},
	"plan cluster":            {[]string{"-n", "tenant-demo", "--live", "-", "--fresh-install"}, "kubernetes-demo"},
	"render snapshot etcd":    {[]string{"-n", "tenant-root", "--name", "s1", "--pvc", "backups"}, "etcd"},
	"render snapshot cluster": {[]string{"-n", "tenant-demo", "--schedule", "@daily", "--pvc", "backups"}, "kubernetes-demo"},
	"render check etcd":       {[]string{"-n", "tenant-root"}, "etcd"},
	"render check cluster":    {[]string{"-n", "tenant-demo", "--datascale"}, "kubernetes-demo"},
}

// TestPositionalRelease: every command that takes --release takes the
// release as helm template takes its NAME, as its one argument, with the
// same output, exit status and stderr, also beside an equal --release;
// an argument and a --release that differ, or a second argument, are
// usage errors (exit 2, nothing on stdout). The table must list every
// command with a --release flag.
func TestPositionalRelease(t *testing.T) {
	root := newRootCmd(env{})
	var found []string
	for _, path := range allCommands(t) {
		cmd, _, err := root.Find(path)
		require.NoError(t, err)
		if cmd.Flags().Lookup("release") != nil {
			found = append(found, strings.Join(path, " "))
		}
	}
	require.Len(t, found, len(releaseCommands), "commands with --release: %q", found)
	for _, name := range found {
		tc, listed := releaseCommands[name]
		require.True(t, listed, "%s takes --release but is not in releaseCommands", name)
		path := strings.Fields(name)
		with := func(more ...string) []string {
			return append(append(append([]string{}, path...), tc.args...), more...)
		}
		t.Run(name, func(t *testing.T) {
			code, want, wantErr := cli(t, "", with("--release", tc.release)...)
			require.Equal(t, exitOK, code, wantErr)
			require.NotEmpty(t, want)
			for _, args := range [][]string{
				append(append(append([]string{}, path...), tc.release), tc.args...), // helm's order: NAME first
				with(tc.release),
				with(tc.release, "--release", tc.release),
				with("--release="+tc.release, "--", tc.release),
			} {
				code, out, stderr := cli(t, "", args...)
				assert.Equal(t, exitOK, code, "%q: %s", args, stderr)
				assert.Equal(t, want, out, "%q", args)
				assert.Equal(t, wantErr, stderr, "%q", args)
			}
			for _, bad := range []struct {
				args []string
				want string
			}{
				{with(tc.release, "--release", tc.release+"x"), `etcdshapes: the release is given twice, as the argument "` + tc.release + `" and as --release "` + tc.release + `x": give it once` + "\n"},
				{with("--release", "other", tc.release), `the release is given twice, as the argument "` + tc.release + `" and as --release "other"`},
				{with(tc.release, "chart"), `etcdshapes: unexpected argument "chart": the one argument is the release (RELEASE, as --release)` + "\n"},
				{with(tc.release, "a\x1b]52;c;x\a"), `unexpected argument "a\x1b]52;c;x\a"`},
			} {
				code, out, stderr := cli(t, "", bad.args...)
				assert.Equal(t, exitUsage, code, "%q: %s", bad.args, stderr)
				assert.Empty(t, out, "%q", bad.args)
				assert.Contains(t, stderr, bad.want, "%q", bad.args)
				assert.Contains(t, stderr, "Run 'etcdshapes "+name+" --help' for usage.\n", "%q", bad.args)
			}
		})
	}
	// Without either, a tenant cluster's release is required.
	for _, name := range []string{"render cluster", "plan cluster", "render snapshot cluster", "render check cluster"} {
		args := append(strings.Fields(name), releaseCommands[name].args...)
		code, out, stderr := cli(t, "", args...)
		assert.Equal(t, exitUsage, code, "%q: %s", args, stderr)
		assert.Empty(t, out)
		assert.Contains(t, stderr, "etcdshapes: --release is required for "+name+" (or the release as its argument: "+name+" RELEASE)\n")
	}
}

// TestClusterReleaseWarning: every tenant cluster's command warns, once,
// on stderr, when the release does not start with "kubernetes-", as
// Cozystack names the kubernetes chart's releases, and renders the
// release as given ("demo" renders demo-etcd); a kubernetes-<name>
// release, and the etcd chart's commands, warn about nothing.
func TestClusterReleaseWarning(t *testing.T) {
	warning := func(rel string) string {
		return `etcdshapes: warning: release "` + rel + `" does not start with "kubernetes-", as Cozystack names a tenant cluster's release (cluster "` + rel +
			`": "kubernetes-` + rel + `"); the objects are named after the release as given: "` + rel + `-etcd"` + "\n"
	}
	for name, tc := range releaseCommands {
		path := strings.Fields(name)
		cluster := path[len(path)-1] == "cluster"
		for _, rel := range []string{"demo", "kubernetes", "kube-demo", "k8s-kubernetes-demo", "kubernetes-demo", "kubernetes-a-b"} {
			t.Run(name+" "+rel, func(t *testing.T) {
				if !cluster {
					rel = "etcd"
				}
				args := append(append(append([]string{}, path...), rel), tc.args...)
				code, stdout, stderr := cli(t, "", args...)
				require.Equal(t, exitOK, code, "%q: %s", args, stderr)
				n := strings.Count(stderr, "warning: release ")
				if cluster && !strings.HasPrefix(rel, "kubernetes-") {
					assert.Equal(t, 1, n, stderr)
					assert.Contains(t, stderr, warning(rel))
					assert.Contains(t, stdout, rel+"-etcd")
				} else {
					assert.Zero(t, n, stderr)
				}
			})
		}
		// A release that is refused is not warned about as well.
		args := append(append(append([]string{}, path...), "Demo"), tc.args...)
		code, _, stderr := cli(t, "", args...)
		assert.Equal(t, exitError, code, "%q: %s", args, stderr)
		assert.NotContains(t, stderr, "warning", "%q", args)
	}
}

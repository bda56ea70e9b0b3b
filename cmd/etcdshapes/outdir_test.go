package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dirWriter is one command line that writes a directory (render
// --output-dir, gen chart --out): args end with the flag, the directory
// is appended.
type dirWriter struct {
	name  string
	args  []string
	owner string // what the manifest records
}

func (w dirWriter) run(t *testing.T, dir string, more ...string) (int, string, string) {
	t.Helper()
	return cli(t, "", append(append(append([]string{}, w.args...), dir), more...)...)
}

// dirWriters are the writers of the class "a command that keeps a
// manifest of the files it wrote": every render that takes --output-dir
// (both stacks, another namespace, snapshots, checks) and gen chart (one
// owner for every chart, since a chart's files are all generated and hold
// no state; the library chart, the cheapest to generate, stands for them).
func dirWriters() []dirWriter {
	return []dirWriter{
		{"render cluster", []string{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--output-dir"}, "render cluster tenant-demo/kubernetes-demo"},
		{"render etcd", []string{"render", "etcd", "-n", "tenant-root", "--output-dir"}, "render etcd tenant-root/etcd"},
		{"render etcd, another namespace", []string{"render", "etcd", "-n", "tenant-other", "-o", "json", "--output-dir"}, "render etcd tenant-other/etcd"},
		{"render snapshot", []string{"render", "snapshot", "etcd", "-n", "tenant-root", "--name", "before-upgrade", "--pvc", "backups", "--output-dir"}, "render snapshot etcd tenant-root/etcd"},
		{"render check", []string{"render", "check", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--output-dir"}, "render check cluster tenant-demo/kubernetes-demo"},
		{"gen chart", []string{"gen", "chart", "--library", "--out"}, "gen chart"},
	}
}

// ownerLine matches the manifest's record of its writer.
var ownerLine = regexp.MustCompile(`(?m)^# owner: .*\n`)

// TestOneDirectoryOneWriter (B7): every writer keeps its manifest in the
// directory it writes; a second writer run into that directory, in either
// order (render then gen, gen then render, one stack then another, a
// snapshot into a stack's directory), refuses it with a message naming
// both writers and changes nothing, even with --force: it would remove the
// first's files as stale, and the first would remove its own. A manifest
// written before writers were recorded is refused the same way when it
// cannot be the writer's (gen's lists Chart.yaml, render's only its
// NN-kind-name files). The first writer afterwards still finds its
// directory as it left it.
func TestOneDirectoryOneWriter(t *testing.T) {
	writers := dirWriters()
	made := map[string]string{}
	base := t.TempDir()
	for i, w := range writers {
		dir := filepath.Join(base, "w", strings.Repeat("x", i+1))
		code, _, stderr := w.run(t, dir)
		require.Equal(t, 0, code, "%s: %s", w.name, stderr)
		m, err := os.ReadFile(filepath.Join(dir, chartwrite.ManifestName))
		require.NoError(t, err)
		require.Contains(t, string(m), "# owner: etcdshapes "+w.owner+"\n", w.name)
		made[w.name] = dir
	}
	copyDir := func(t *testing.T, from string) string {
		t.Helper()
		to := filepath.Join(t.TempDir(), "out")
		require.NoError(t, os.CopyFS(to, os.DirFS(from)))
		return to
	}
	byName := map[string]dirWriter{}
	for _, w := range writers {
		byName[w.name] = w
	}
	isGen := func(w dirWriter) bool { return w.args[0] == "gen" }
	type pair struct {
		a, b   dirWriter
		legacy bool
	}
	// Every order of two renders; a render and a chart, and the two
	// charts, in both orders (gen costs a second or two a run); a
	// manifest from before owners, render's and gen's.
	var pairs []pair
	for _, a := range writers {
		for _, b := range writers {
			if a.name != b.name && !isGen(a) && !isGen(b) {
				pairs = append(pairs, pair{a: a, b: b})
			}
		}
	}
	// gen costs a second or more a run: render then gen, gen then
	// render, and one manifest from before owners each way.
	pairs = append(pairs,
		pair{a: byName["render cluster"], b: byName["gen chart"]},
		pair{a: byName["gen chart"], b: byName["render cluster"]},
		pair{byName["render etcd"], byName["gen chart"], true},
		pair{byName["gen chart"], byName["render check"], true})
	for _, p := range pairs {
		a, b, legacy := p.a, p.b, p.legacy
		name := a.name + " then " + b.name
		if legacy {
			name += " (manifest from before owners)"
		}
		t.Run(name, func(t *testing.T) {
			dir := copyDir(t, made[a.name])
			if legacy {
				p := filepath.Join(dir, chartwrite.ManifestName)
				m, err := os.ReadFile(p)
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(p, ownerLine.ReplaceAll(m, nil), 0o644))
			}
			before := tree(t, dir)
			forces := [][]string{nil, {"--force"}}
			if isGen(b) {
				forces = forces[1:] // with --force only: the costlier
			}
			for _, force := range forces {
				code, stdout, stderr := b.run(t, dir, force...)
				require.Equal(t, exitError, code, "%s\n%s", stdout, stderr)
				require.Empty(t, stdout)
				field := "--out"
				if b.args[0] == "render" {
					field = "--output-dir"
				}
				require.Contains(t, stderr, "etcdshapes: "+field+": invalid value \""+filepath.Join(dir, chartwrite.ManifestName)+"\": ")
				if legacy {
					require.Contains(t, stderr, "was written by an earlier etcdshapes for another command than 'etcdshapes "+b.owner+"'")
				} else {
					require.Contains(t, stderr, "records the files of 'etcdshapes "+a.owner+"', not of 'etcdshapes "+b.owner+"'")
				}
				require.Contains(t, stderr, "never writes into another command's directory, even with --force")
				require.Contains(t, stderr, "etcdshapes: nothing was written to "+dir+"\n")
				require.Equal(t, before, tree(t, dir))
			}
			if !isGen(a) {
				// The first writer's directory is still its own.
				code, stdout, stderr := a.run(t, dir)
				require.Equal(t, 0, code, stderr)
				require.Regexp(t, `^wrote 0 files to .*, \d+ unchanged\n$`, stdout)
			}
		})
	}
}

// TestOutputDirNeverDropsStateUnasked (N4): every way a whole render
// writes fewer objects than the directory holds files for (a tenant
// cluster moving to a shared datastore, another stack into a directory
// from before owners were recorded, a snapshot no longer rendered, a
// --force over an edited file) removes a file whose object holds state
// (an EtcdCluster, a DataStore, a CA Certificate, an Issuer, a Secret, an
// EtcdSnapshot) only with --prune-unsafe: without it the render exits 3
// naming each such file and what a GitOps prune would delete, and writes
// nothing. Objects without state (optional APIs no longer served, hooks
// no longer printed) are removed as before, and an object that moves to
// another file name (its place in the stack changed) is not removed at all.
func TestOutputDirNeverDropsStateUnasked(t *testing.T) {
	cluster := []string{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo"}
	etcdArgs := []string{"render", "etcd", "-n", "tenant-root"}
	with := func(base []string, more ...string) []string { return append(append([]string{}, base...), more...) }
	stateful := func(prefix string) []string {
		return []string{
			"01-certificate-" + prefix + "-ca", "04-certificate-" + prefix + "-peer-ca",
			"06-datastore-tenant-demo.kubernetes-demo", "07-etcdcluster-" + prefix,
			"08-issuer-" + prefix + "-issuer", "09-issuer-" + prefix + "-peer-issuer", "10-issuer-" + prefix + "-selfsigning-issuer",
		}
	}
	all := strings.Join(etcdshapes.OptionalAPIs(), ",")
	for _, c := range []struct {
		name          string
		first, second []string
		legacy        bool   // strip the first manifest's owner line
		edit          string // a file to edit between the runs (with --force then)
		unsafe        []string
		gated         []string // files of kinds an API gates, which the second run's list lacks
	}{
		{name: "a cluster moves to a shared datastore", first: cluster, second: with(cluster, "--live-datastore", "shared"),
			unsafe: stateful("kubernetes-demo-etcd")},
		{name: "a cluster moves to a shared datastore, JSON", first: with(cluster, "-o", "json"), second: with(cluster, "-o", "json", "--live-datastore", "shared"),
			unsafe: stateful("kubernetes-demo-etcd")},
		{name: "with --force over an edited file", first: cluster, second: with(cluster, "--live-datastore", "shared", "--force"),
			edit: "07-etcdcluster-kubernetes-demo-etcd.yaml", unsafe: stateful("kubernetes-demo-etcd")},
		{name: "another namespace, a manifest from before owners", first: etcdArgs, second: []string{"render", "etcd", "-n", "tenant-other"}, legacy: true,
			unsafe: []string{"04-certificate-etcd-ca", "07-certificate-etcd-peer-ca", "09-datastore-tenant-root", "10-etcdcluster-etcd",
				"11-issuer-etcd-issuer", "12-issuer-etcd-peer-issuer", "13-issuer-etcd-selfsigning-issuer", "19-secret-etcd-ca-tls", "20-secret-etcd-client-tls"}},
		{name: "a snapshot no longer rendered", first: []string{"render", "snapshot", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--name", "before-upgrade", "--pvc", "backups"},
			second: []string{"render", "snapshot", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--schedule", "@daily", "--pvc", "backups"},
			unsafe: []string{"00-etcdsnapshot-before-upgrade"}},
		{name: "optional APIs no longer listed: renamed files, and the gated kinds' asked", first: with(cluster, "-a", all), second: cluster,
			gated: []string{"06-ciliumnetworkpolicy-kubernetes-demo-etcd", "09-grafanadashboard-kubernetes-demo-etcd-grafana-dashboard",
				"13-podmonitor-kubernetes-demo-etcd-pod-monitor", "14-vmpodscrape-kubernetes-demo-etcd-pod-scrape", "15-verticalpodautoscaler-kubernetes-demo-etcd"}},
		{name: "uninstall hooks no longer printed", first: with(etcdArgs, "--include-hooks"), second: etcdArgs},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			code, _, stderr := cli(t, "", with(c.first, "--output-dir", dir)...)
			require.Equal(t, 0, code, stderr)
			if c.legacy {
				p := filepath.Join(dir, chartwrite.ManifestName)
				m, err := os.ReadFile(p)
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(p, ownerLine.ReplaceAll(m, nil), 0o644))
			}
			if c.edit != "" {
				p := filepath.Join(dir, c.edit)
				b, err := os.ReadFile(p)
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(p, append(b, "# edited\n"...), 0o644))
			}
			ext := ".yaml"
			if strings.Contains(strings.Join(c.first, " "), "-o json") {
				ext = ".json"
			}
			before, old := tree(t, dir), files(t, dir)
			code, stdout, stderr := cli(t, "", with(c.second, "--output-dir", dir)...)
			if len(c.unsafe)+len(c.gated) == 0 {
				require.Equal(t, 0, code, stderr)
				require.Regexp(t, `removed \d+ stale generated files?`, stdout)
				requireManifestAgrees(t, dir)
				return
			}
			require.Equal(t, exitUnsafe, code, "%s\n%s", stdout, stderr)
			require.Empty(t, stdout)
			require.Equal(t, before, tree(t, dir))
			var named, gated []string
			for _, line := range strings.Split(stderr, "\n") {
				if m := regexp.MustCompile(`^etcdshapes: --output-dir: invalid value "([^"]+)": holds (\S+) (\S+), which this render no longer prints: `).FindStringSubmatch(line); m != nil {
					named = append(named, strings.TrimSuffix(m[1], ext))
					require.Contains(t, line, "rerun with --prune-unsafe to remove it")
				}
				if m := regexp.MustCompile(`^etcdshapes: --output-dir: invalid value "([^"]+)": holds (\S+) (\S+), which this render prints only where --api-versions lists (\S+), and it does not: `).FindStringSubmatch(line); m != nil {
					gated = append(gated, strings.TrimSuffix(m[1], ext))
					require.Contains(t, line, "rerun with --api-versions "+m[4]+"; to remove the object, rerun with --prune-unsafe")
				}
			}
			require.Equal(t, c.unsafe, named, stderr)
			require.Equal(t, c.gated, gated, stderr)
			require.Contains(t, stderr, "etcdshapes: nothing was written to "+dir+"\n")
			// Asked: removed.
			code, stdout, stderr = cli(t, "", with(c.second, "--output-dir", dir, "--prune-unsafe")...)
			require.Equal(t, 0, code, stderr)
			require.Regexp(t, `removed \d+ stale generated files?`, stdout)
			// Each is gone, or holds the object of the stack rendered now.
			after := files(t, dir)
			for _, f := range append(append([]string{}, c.unsafe...), c.gated...) {
				if got, ok := after[f+ext]; ok {
					require.NotEqual(t, old[f+ext], got, f)
				}
			}
			requireManifestAgrees(t, dir)
		})
	}
}

// TestOutputDirKeepsGatedKindsUnasked (M3): for each caller and each API
// that gates one of its kinds (etcdshapes.OptionalAPIsOf: the
// CiliumNetworkPolicy, the VPA, the scrapes, the dashboard), a render into
// a directory that an earlier render wrote with the API listed, now
// without it (a forgotten --api-versions), exits 3 and writes nothing:
// one refusal, naming the file, the object and the API to list again. With
// --prune-unsafe the file goes, and the summary names every file removed,
// each with what became of its objects.
func TestOutputDirKeepsGatedKindsUnasked(t *testing.T) {
	for _, caller := range naming.Callers() {
		base := []string{"render", caller.String(), "-n", "tenant-demo"}
		if caller == naming.CallerCluster {
			base = append(base, "--release", "kubernetes-demo")
		}
		apis := etcdshapes.OptionalAPIsOf(caller)
		require.NotEmpty(t, apis)
		for _, api := range apis {
			t.Run(caller.String()+" "+api, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "out")
				with := func(apis []string, more ...string) []string {
					args := append([]string{}, base...)
					for _, a := range apis {
						args = append(args, "--api-versions", a)
					}
					return append(append(args, "--output-dir", dir), more...)
				}
				ok(t, "", with(apis)...)
				before := tree(t, dir)
				rest := slices.DeleteFunc(slices.Clone(apis), func(a string) bool { return a == api })
				code, stdout, stderr := cli(t, "", with(rest)...)
				require.Equal(t, exitUnsafe, code, "%s\n%s", stdout, stderr)
				require.Empty(t, stdout)
				require.Equal(t, before, tree(t, dir))
				lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
				require.Len(t, lines, 2, stderr)
				assert.Regexp(t, `^etcdshapes: --output-dir: invalid value "[0-9]{2}-[a-z]+-[^"]+\.yaml": holds \S+ \S+, which this render prints only where --api-versions lists `+regexp.QuoteMeta(api)+", and it does not: ", lines[0])
				assert.Contains(t, lines[0], "rerun with --api-versions "+api+"; to remove the object, rerun with --prune-unsafe")
				assert.Equal(t, "etcdshapes: nothing was written to "+dir, lines[1])

				out := ok(t, "", with(rest, "--prune-unsafe")...)
				summary := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
				m := regexp.MustCompile(`removed (\d+) stale generated files?`).FindStringSubmatch(summary[0])
				require.NotNil(t, m, out)
				require.Equal(t, m[1], strconv.Itoa(len(summary)-1), "one line per removed file:\n%s", out)
				gone := 0
				for _, l := range summary[1:] {
					require.Regexp(t, `^  removed `+regexp.QuoteMeta(dir)+`/[0-9]{2}-[a-z]+-\S+\.yaml: \S+ \S+ is (now in [0-9]{2}-\S+\.yaml|no longer rendered)$`, l)
					if strings.HasSuffix(l, "is no longer rendered") {
						gone++
					}
				}
				assert.Equal(t, 1, gone, out)
			})
		}
	}
}

// TestReportNamesRemovedFiles: the summary of a directory write names each
// file it removed, escaped (a directory's name may hold anything), the
// first maxRemovedListed and how many more.
func TestReportNamesRemovedFiles(t *testing.T) {
	var removed []string
	for i := range maxRemovedListed + 5 {
		removed = append(removed, fmt.Sprintf("%02d-x.yaml", i))
	}
	var stdout bytes.Buffer
	dir := "out\x1b]52;c;eA==\a"
	require.NoError(t, reportWritten(dir, chartwrite.Result{Removed: removed}, "", func(p string) string { return "fate of " + p }, &stdout, io.Discard))
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	require.Len(t, lines, 1+maxRemovedListed+1)
	assert.Equal(t, `wrote 0 files to out\x1b]52;c;eA==\a, 0 unchanged, removed 25 stale generated files`, lines[0])
	assert.Equal(t, `  removed out\x1b]52;c;eA==\a/00-x.yaml: fate of 00-x.yaml`, lines[1])
	assert.Equal(t, "  and 5 more removed", lines[len(lines)-1])
	assert.NotContains(t, stdout.String(), "\x1b")
}

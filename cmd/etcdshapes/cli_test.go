package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/plan"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/hostilefs"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// cli runs a command line within a deadline and returns its results.
func cli(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	hostilefs.Within(t, hangLimit, func() {
		code = run(args, strings.NewReader(stdin), &out, &errOut)
	})
	return code, out.String(), errOut.String()
}

// ok runs a command line that must succeed with an empty stderr, but for
// the line saying which Helm uninstall hooks render left out.
func ok(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	code, stdout, stderr := cli(t, stdin, args...)
	require.Equal(t, 0, code, "%q: %s", args, stderr)
	require.Empty(t, dirHooksWarning.ReplaceAllString(hooksWarning.ReplaceAllString(withoutHooksNote(stderr), ""), ""), "%q", args)
	return stdout
}

// hooksNote is the line render prints on stderr when it left out Helm
// uninstall hooks.
var hooksNote = regexp.MustCompile(`(?m)^etcdshapes: left out \d+ Helm uninstall hooks? \([^)\n]*\): helm install never creates (it|them), and applying (it|them) runs the cleanup, which deletes [^;\n]*; --include-hooks prints (it|them)\n`)

// hooksWarning is the line render prints on stderr when the environment
// put Helm uninstall hooks into its output (hooksPrinted).
var hooksWarning = regexp.MustCompile(`(?m)^etcdshapes: warning: the output holds \d+ Helm uninstall hooks? \([^)\n]*\), printed because ` + envIncludeHooks + `=\S* is set: [^\n]*\n`)

// dirHooksWarning is the line render prints on stderr when --include-hooks
// writes the uninstall hooks into an --output-dir.
var dirHooksWarning = regexp.MustCompile(`(?m)^etcdshapes: warning: \S+ holds \d+ Helm uninstall hooks? \([^)\n]*\), written because of --include-hooks: [^\n]*\n`)

// withoutHooksNote is stderr without that line.
func withoutHooksNote(stderr string) string { return hooksNote.ReplaceAllString(stderr, "") }

// storageClassWarning is the line render prints on stderr when a tenant
// cluster keeps a live storage class its values would not choose
// (etcdshapes.StorageClassWarnings).
var storageClassWarning = regexp.MustCompile(`(?m)^etcdshapes: warning: the EtcdCluster keeps its live storage class .*\n`)

// withoutStorageClassWarning is stderr without that line.
func withoutStorageClassWarning(stderr string) string {
	return storageClassWarning.ReplaceAllString(stderr, "")
}

// The command line: shorthand with its value attached, --set, -o json.
func TestRenderClusterSetJSON(t *testing.T) {
	out := ok(t, "", "render", "cluster", "-ntenant-demo", "--release", "kubernetes-demo", "--set", "etcd.replicas=1", "-o", "json")
	var list struct {
		APIVersion, Kind string
		Items            []map[string]any
	}
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	require.Equal(t, "v1", list.APIVersion)
	require.Equal(t, "List", list.Kind)
	want := ok(t, "etcd:\n  replicas: 1\n", "render", "cluster", "--namespace", "tenant-demo", "--release", "kubernetes-demo", "-f", "-")
	require.Equal(t, yamlDocs(t, want), list.Items)
	found := false
	for _, it := range list.Items {
		if it["kind"] == "EtcdCluster" {
			found = true
			require.EqualValues(t, 1, it["spec"].(map[string]any)["replicas"])
		}
	}
	require.True(t, found)
}

// yamlDocs parses multi-document YAML into its objects, as JSON values.
func yamlDocs(t *testing.T, s string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, doc := range strings.Split(s, "---\n") {
		if strings.TrimSpace(doc) == "" {
			continue
		}
		js, err := yaml.YAMLToJSON([]byte(doc))
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(js, &m))
		out = append(out, m)
	}
	return out
}

// scenarioArgs are a golden scenario's render flags, its values on stdin.
func scenarioArgs(s golden.Scenario) []string {
	args := []string{"render", s.Caller.String(), "--namespace", s.Namespace, "--chart-version", "0.0.0", "-f", "-"}
	if s.Release != "" {
		args = append(args, "--release", s.Release)
	}
	for _, a := range s.APIVersions {
		args = append(args, "--api-versions", a)
	}
	if s.Live.DataStoreName != "" {
		args = append(args, "--live-datastore", s.Live.DataStoreName)
	}
	if s.Live.StorageClassName != nil {
		args = append(args, "--live-storage-class", *s.Live.StorageClassName)
	}
	return args
}

// TestJSONOutput: -o json is one v1 List whose items are the YAML
// documents, in order, for every golden scenario, and ReadObjects (plan
// --live) reads it as the same objects.
func TestJSONOutput(t *testing.T) {
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			code, y, _ := cli(t, s.Values, scenarioArgs(s)...)
			require.Equal(t, 0, code)
			code, j, _ := cli(t, s.Values, append(scenarioArgs(s), "-o", "json")...)
			require.Equal(t, 0, code)
			var list struct {
				Items []map[string]any `json:"items"`
			}
			require.NoError(t, json.Unmarshal([]byte(j), &list))
			docs := yamlDocs(t, y)
			if docs == nil {
				docs = []map[string]any{}
			}
			require.Equal(t, docs, list.Items)
			require.True(t, strings.HasPrefix(j, "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"List\",\n    \"items\": ["), j[:min(80, len(j))])
			fromYAML, err := plan.ReadObjects([]byte(y))
			require.NoError(t, err)
			fromJSON, err := plan.ReadObjects([]byte(j))
			require.NoError(t, err)
			require.Equal(t, fromYAML, fromJSON)
		})
	}
}

// TestSetFlags: each of the --set family says what a values file would,
// with Helm's types, order and syntax, for both callers.
func TestSetFlags(t *testing.T) {
	dir := t.TempDir()
	spread := filepath.Join(dir, "spread.yaml")
	require.NoError(t, os.WriteFile(spread, []byte("topologySpreadConstraints:\n- maxSkew: 2\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n"), 0o600))
	etcd := []string{"render", "etcd", "-n", "tenant-root"}
	cluster := []string{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo"}
	for _, tc := range []struct {
		name   string
		base   []string
		flags  []string
		values string // the values file saying the same
	}{
		{"set number", etcd, []string{"--set", "replicas=5"}, "replicas: 5\n"},
		{"set several", etcd, []string{"--set", "replicas=1,size=10Gi", "--set", "resources.cpu=2"}, "replicas: 1\nsize: 10Gi\nresources: {cpu: 2}\n"},
		{"set nested", cluster, []string{"--set", "etcd.replicas=1"}, "etcd: {replicas: 1}\n"},
		{"set null deletes a default", etcd, []string{"--set", "resources.memory=null"}, "resources: {memory: null}\n"},
		{"set list", etcd, []string{"--set", "affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey=zone",
			"--set", "affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchLabels.app=etcd"},
			"affinity:\n  podAntiAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n    - topologyKey: zone\n      labelSelector: {matchLabels: {app: etcd}}\n"},
		{"set escaped dots", cluster, []string{"--set", `_cluster.etcd-storage-class-local=local\.ssd`}, "_cluster: {etcd-storage-class-local: local.ssd}\n"},
		{"set-string", etcd, []string{"--set-string", "version=3.6.11,storageClass=fast"}, "version: 3.6.11\nstorageClass: fast\n"},
		{"set-json", cluster, []string{"--set-json", `etcd={"replicas":1}`, "--set-json", `_cluster={"cpu-allocation-ratio":4}`}, "etcd: {replicas: 1}\n_cluster: {cpu-allocation-ratio: 4}\n"},
		{"set-file", cluster, []string{"--set-file", "_cluster.scheduling.globalAppTopologySpreadConstraints=" + spread},
			"_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: |\n      topologySpreadConstraints:\n      - maxSkew: 2\n        topologyKey: zone\n        whenUnsatisfiable: DoNotSchedule\n"},
		{"set-literal", etcd, []string{"--set-literal", "storageClass=a"}, "storageClass: a\n"},
		// Helm's order: --set-json, --set, --set-string, --set-file,
		// --set-literal, whatever the command line's order; all after -f.
		{"order", etcd, []string{"--set-literal", "size=8Gi", "--set-string", "size=7Gi", "--set", "size=6Gi", "--set-json", `size="5Gi"`}, "size: 8Gi\n"},
		{"order set over json", etcd, []string{"--set", "replicas=1", "--set-json", "replicas=5"}, "replicas: 1\n"},
		{"later set wins", etcd, []string{"--set", "replicas=5", "--set", "replicas=1"}, "replicas: 1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ok(t, "", append(append([]string{}, tc.base...), tc.flags...)...)
			want := ok(t, tc.values, append(append([]string{}, tc.base...), "-f", "-")...)
			require.Equal(t, want, got)
			// Over a values file: the flags win.
			overValues := "size: 1Gi\nreplicas: 3\n"
			if tc.base[1] == "cluster" {
				overValues = "etcd: {replicas: 3}\n"
			}
			overFile := writeValuesFile(t, overValues)
			over := ok(t, "", append(append(append([]string{}, tc.base...), "-f", overFile), tc.flags...)...)
			require.Equal(t, ok(t, tc.values, append(append([]string{}, tc.base...), "-f", overFile, "-f", "-")...), over)
		})
	}
	// --set-file reads stdin.
	got := ok(t, "fast", append(append([]string{}, etcd...), "--set-file", "storageClass=-")...)
	require.Equal(t, ok(t, "storageClass: fast\n", append(append([]string{}, etcd...), "-f", "-")...), got)
}

// TestSetFlagErrors: a malformed argument exits 1 naming the flag and the
// argument; a well-formed one with a bad value is refused by the library
// as the same value in a file would be; a --set-file is read with the
// values file limits.
func TestSetFlagErrors(t *testing.T) {
	base := []string{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo"}
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--set", "etcd.replicas"}, `etcdshapes: --set: invalid value "etcd.replicas": must be KEY=VALUE[,KEY=VALUE]... as for helm --set: key "replicas" has no value`},
		{[]string{"--set", "etcd[x]=1"}, `etcdshapes: --set: invalid value "etcd[x]=1": must be KEY=VALUE`},
		{[]string{"--set-json", "etcd={"}, `etcdshapes: --set-json: invalid value "etcd={": must be KEY=JSON`},
		{[]string{"--set-string", "a"}, `etcdshapes: --set-string: invalid value "a"`},
		{[]string{"--set-literal", "a"}, `etcdshapes: --set-literal: invalid value "a"`},
		{[]string{"--set", "etcd.replicas=2"}, "etcdshapes: etcd.replicas: invalid value 2: must be 1 or 3"},
		{[]string{"--set", "etcd.replicas=02"}, `etcdshapes: etcd.replicas: invalid value "02"`},
		{[]string{"--set-string", "etcd.replicas=1"}, `etcdshapes: etcd.replicas: invalid value "1"`},
		{[]string{"--set", "etcd.size=1Gi"}, `etcdshapes: etcd.size: invalid value "1Gi"`},
		{[]string{"--set-file", "etcd.replicas=/nonexistent"}, "etcdshapes: --set-file: open /nonexistent: no such file or directory"},
		{[]string{"--set-file", "a=/dev/zero"}, `etcdshapes: --set-file: invalid value "/dev/zero": is larger than 16777216 bytes`},
		{[]string{"--set", strings.Repeat("k[65536]=1,", 17)}, "allocate more than 1048576 list elements"},
	} {
		t.Run(strings.Join(tc.flags, " "), func(t *testing.T) {
			code, stdout, stderr := cli(t, "", append(append([]string{}, base...), tc.flags...)...)
			require.Equal(t, 1, code, stderr)
			require.Empty(t, stdout)
			require.Contains(t, stderr, tc.want)
			require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
		})
	}
}

func TestShowOnly(t *testing.T) {
	etcd := []string{"render", "etcd", "-n", "tenant-root"}
	all := yamlDocs(t, ok(t, "", etcd...))
	names := func(docs []map[string]any) []string {
		var out []string
		for _, d := range docs {
			out = append(out, d["kind"].(string)+"/"+d["metadata"].(map[string]any)["name"].(string))
		}
		return out
	}
	for _, tc := range []struct {
		sel  []string
		want []string
	}{
		{[]string{"EtcdCluster/etcd"}, []string{"EtcdCluster/etcd"}},
		{[]string{"etcdcluster/etcd"}, []string{"EtcdCluster/etcd"}},
		{[]string{"etcdclusters/etcd"}, []string{"EtcdCluster/etcd"}},
		{[]string{"etcdclusters.etcd-operator.cozystack.io/etcd"}, []string{"EtcdCluster/etcd"}},
		{[]string{"Certificate/*-ca"}, []string{"Certificate/etcd-ca", "Certificate/etcd-peer-ca"}},
		{[]string{"-s", "datastore/tenant-root", "-s", "CronJob/*"}, []string{"CronJob/etcd-defrag", "DataStore/tenant-root"}},
		{[]string{"*/etcd"}, []string{"EtcdCluster/etcd", "VerticalPodAutoscaler/etcd", "WorkloadMonitor/etcd"}},
	} {
		t.Run(strings.Join(tc.sel, " "), func(t *testing.T) {
			args := append([]string{}, etcd...)
			if tc.sel[0] == "-s" {
				args = append(args, tc.sel...)
			} else {
				args = append(args, "--show-only", tc.sel[0])
			}
			got := yamlDocs(t, ok(t, "", args...))
			require.Equal(t, tc.want, names(got))
			// The objects are the full render's, in its order.
			var want []map[string]any
			for _, d := range all {
				for _, n := range tc.want {
					if names([]map[string]any{d})[0] == n {
						want = append(want, d)
					}
				}
			}
			require.Equal(t, want, got)
		})
	}
	// A selector that matches nothing: exit 1, the rendered objects of
	// its kind listed (TestShowOnlyKind: a kind the render holds none of).
	code, stdout, stderr := cli(t, "", append(etcd, "--show-only", "EtcdCluster/etcd", "--show-only", "Secret/nope")...)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, `etcdshapes: --show-only: invalid value "Secret/nope": matches no rendered object; rendered of that kind: Secret/etcd-ca-tls, Secret/etcd-client-tls`+"\n", stderr)
	// Wrong group.
	code, _, stderr = cli(t, "", append(etcd, "--show-only", "etcdclusters.example.com/etcd")...)
	require.Equal(t, 1, code, stderr)
	// Nothing rendered (a shared datastore).
	code, _, stderr = cli(t, "", "render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--live-datastore", "tenant-root", "--show-only", "EtcdCluster/x")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "matches no object: nothing was rendered")
}

// TestOutputDir: one file per object, named by order, kind and name; a
// second run changes nothing; objects no longer rendered are removed;
// files etcdshapes did not write are refused (exit 1, nothing written)
// unless --force, and links and FIFOs always.
func TestOutputDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	all := etcdshapes.OptionalAPIs()
	args := []string{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--output-dir", dir}
	withAPIs := append(append([]string{}, args...), "-a", strings.Join(all, ","))
	out := ok(t, "", withAPIs...)
	require.Regexp(t, `^wrote \d+ files to .*/out, 0 unchanged; recorded them in .*/out/\.etcdshapes-generated\n$`, out)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var files []string
	for _, e := range entries {
		files = append(files, e.Name())
	}
	require.Contains(t, files, chartwrite.ManifestName)
	require.Contains(t, files, "00-cronjob-kubernetes-demo-etcd-defrag.yaml")
	// The files together are the stdout render.
	stdout := ok(t, "", "render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "-a", strings.Join(all, ","))
	var joined strings.Builder
	sort.Strings(files)
	for _, f := range files {
		if f == chartwrite.ManifestName {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, f))
		require.NoError(t, err)
		joined.Write(b)
	}
	require.Equal(t, stdout, joined.String())

	require.Regexp(t, `^wrote 0 files to .*, \d+ unchanged\n$`, ok(t, "", withAPIs...))
	// Without the optional APIs: their files are removed, asked
	// (--prune-unsafe, TestOutputDirKeepsGatedKindsUnasked), the others
	// renamed.
	require.Regexp(t, `removed \d+ stale generated files`, ok(t, "", append(args, "--prune-unsafe")...))
	_, err = os.Stat(filepath.Join(dir, "00-cronjob-kubernetes-demo-etcd-defrag.yaml"))
	require.NoError(t, err)
	// JSON files.
	jdir := filepath.Join(t.TempDir(), "json")
	ok(t, "", "render", "etcd", "-n", "tenant-root", "-o", "json", "--output-dir", jdir, "-s", "EtcdCluster/etcd")
	b, err := os.ReadFile(filepath.Join(jdir, "10-etcdcluster-etcd.json")) // its place in the whole stack
	require.NoError(t, err)
	var obj map[string]any
	require.NoError(t, json.Unmarshal(b, &obj))
	require.Equal(t, "EtcdCluster", obj["kind"])

	// Files it did not write.
	hand := filepath.Join(t.TempDir(), "hand")
	put(t, filepath.Join(hand, "03-cronjob-etcd-defrag.yaml"), "mine\n")
	put(t, filepath.Join(hand, "notes.txt"), "other files are left alone\n")
	before := tree(t, hand)
	code, stdout2, stderr := cli(t, "", "render", "etcd", "-n", "tenant-root", "--output-dir", hand)
	require.Equal(t, 1, code)
	require.Empty(t, stdout2)
	require.Contains(t, stderr, fmt.Sprintf("etcdshapes: --output-dir: invalid value %q: exists and was not written by etcdshapes", filepath.Join(hand, "03-cronjob-etcd-defrag.yaml")))
	require.Contains(t, stderr, "etcdshapes: nothing was written to "+hand)
	require.Equal(t, before, tree(t, hand))
	ok(t, "", "render", "etcd", "-n", "tenant-root", "--output-dir", hand, "--force")
	b, err = os.ReadFile(filepath.Join(hand, "03-cronjob-etcd-defrag.yaml"))
	require.NoError(t, err)
	require.Contains(t, string(b), "kind: CronJob")
	b, err = os.ReadFile(filepath.Join(hand, "notes.txt"))
	require.NoError(t, err)
	require.Equal(t, "other files are left alone\n", string(b))

	// Never, even with --force: a link as the directory, a FIFO in the way.
	elsewhere := t.TempDir()
	outside := tree(t, elsewhere)
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(elsewhere, link))
	fifoDir := t.TempDir()
	mkfifo(t, filepath.Join(fifoDir, "03-cronjob-etcd-defrag.yaml"))
	for _, d := range []string{link, fifoDir} {
		code, _, stderr := cli(t, "", "render", "etcd", "-n", "tenant-root", "--output-dir", d, "--force")
		require.Equal(t, 1, code, stderr)
		require.Contains(t, stderr, "etcdshapes: --output-dir: invalid value ")
	}
	require.Equal(t, outside, tree(t, elsewhere))
}

// TestVersion: --version (and -version) and version print the module
// version the build recorded; -v does not (TestVerbosityFlag).
func TestVersion(t *testing.T) {
	want := readBuildVersion().Version
	require.NotEmpty(t, want)
	require.Equal(t, "etcdshapes version "+want+"\n", ok(t, "", "--version"))
	require.Equal(t, "etcdshapes version "+want+"\n", ok(t, "", "-version"))
	text := ok(t, "", "version")
	require.True(t, strings.HasPrefix(text, "etcdshapes "+want+"\n  module:   github.com/etcdshapes/etcdshapes "+want+"\n  go:       go"), text)
	var v buildVersion
	require.NoError(t, json.Unmarshal([]byte(ok(t, "", "version", "-o", "json")), &v))
	require.Equal(t, want, v.Version)
	require.Equal(t, modulePath, v.Module)

	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want buildVersion
	}{
		{"go install @v1.2.3", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "v1.2.3", Sum: "h1:abc"},
			Settings: []debug.BuildSetting{{Key: "GOOS", Value: "darwin"}, {Key: "GOARCH", Value: "arm64"}}},
			buildVersion{Version: "v1.2.3", Module: modulePath, Sum: "h1:abc", GoVersion: "go1.26.8", Platform: "darwin/arm64"}},
		{"git checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "v0.0.0-20260101120000-0123456789ab+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.time", Value: "2026-01-01T12:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			buildVersion{Version: "v0.0.0-20260101120000-0123456789ab+dirty", Module: modulePath, GoVersion: "go1.26.8", Revision: "0123456789abcdef", Time: "2026-01-01T12:00:00Z", Modified: true}},
		{"no VCS", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "(devel)"}},
			buildVersion{Version: "(devel)", Module: modulePath, GoVersion: "go1.26.8"}},
		{"a dependency of another module", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "example.com/tools", Version: "v9.9.9"},
			Deps: []*debug.Module{{Path: "k8s.io/api", Version: "v0.37.2"}, {Path: modulePath, Version: "v1.4.0", Sum: "h1:x"}}},
			buildVersion{Version: "v1.4.0", Module: modulePath, Sum: "h1:x", GoVersion: "go1.26.8"}},
		{"no build information", nil, buildVersion{Version: "(devel)", Module: modulePath}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := versionOf(tc.info)
			if tc.want.Platform == "" {
				tc.want.Platform = got.Platform
			}
			if tc.want.GoVersion == "" {
				tc.want.GoVersion = got.GoVersion
			}
			require.Equal(t, tc.want, got)
		})
	}
	require.Contains(t, versionOf(&debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}}).text(), "  revision: abc (modified)\n")
}

// TestCompletion: completion scripts for every shell cobra supports, and
// the completions they ask the command for.
func TestCompletion(t *testing.T) {
	for shell, marker := range map[string]string{
		"bash": "# bash completion V2 for etcdshapes", "zsh": "#compdef etcdshapes",
		"fish": "# fish completion for etcdshapes", "powershell": "# powershell completion for etcdshapes",
	} {
		out := ok(t, "", "completion", shell)
		require.True(t, strings.HasPrefix(out, marker), "%s: %.80s", shell, out)
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{""}, []string{"completion", "gen", "help", "plan", "render", "version"}},
		{[]string{"render", ""}, []string{"check", "cluster", "etcd", "snapshot"}},
		{[]string{"plan", ""}, []string{"cluster", "etcd"}},
		{[]string{"render", "cluster", "--api-versions", ""}, etcdshapes.OptionalAPIs()},
		{[]string{"render", "etcd", "-o", ""}, []string{"yaml", "json"}},
		{[]string{"plan", "etcd", "-o", ""}, []string{"text", "json"}},
		{[]string{"gen", "chart", "--caller", ""}, []string{"etcd", "cluster"}},
		{[]string{"render", "etcd", "--set-j"}, []string{"--set-json"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, stderr := cli(t, "", append([]string{cobra.ShellCompNoDescRequestCmd}, tc.args...)...)
			require.Equal(t, 0, code, stderr)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			require.True(t, strings.HasPrefix(lines[len(lines)-1], ":"), out)
			require.Equal(t, tc.want, lines[:len(lines)-1])
		})
	}
}

// commandPaths lists every command of the tree, as its path after
// "etcdshapes" (nil for the root).
func commandPaths(c *cobra.Command, path []string) [][]string {
	out := [][]string{path}
	for _, sub := range c.Commands() {
		if sub.Hidden || sub.Name() == cobra.ShellCompRequestCmd || sub.Name() == cobra.ShellCompNoDescRequestCmd {
			continue
		}
		out = append(out, commandPaths(sub, append(append([]string{}, path...), sub.Name()))...)
	}
	return out
}

// TestEveryCommandsHelp: every command of the tree answers --help, -h,
// -help and 'etcdshapes help <command>' with the same help on stdout
// (exit 0): its description, usage, and every flag it takes.
func TestEveryCommandsHelp(t *testing.T) {
	root := newRootCmd(env{})
	root.InitDefaultHelpCmd()
	paths := commandPaths(root, nil)
	require.GreaterOrEqual(t, len(paths), 18, "%q", paths)
	for _, path := range paths {
		t.Run(strings.Join(append([]string{"etcdshapes"}, path...), " "), func(t *testing.T) {
			cmd, _, err := root.Find(path)
			require.NoError(t, err)
			help := ok(t, "", append(append([]string{}, path...), "--help")...)
			require.Contains(t, help, "Usage:")
			long := cmd.Long
			if long == "" {
				long = cmd.Short
			}
			require.True(t, strings.HasPrefix(help, strings.TrimRight(long, "\n")), "%.200s", help)
			cmd.Flags().VisitAll(func(f *pflag.Flag) {
				if !cmd.DisableFlagParsing {
					require.Contains(t, help, "--"+f.Name, "flag %s", f.Name)
				}
			})
			for _, h := range []string{"-h", "-help"} {
				require.Equal(t, help, ok(t, "", append(append([]string{}, path...), h)...))
			}
			if len(path) > 0 {
				require.Equal(t, help, ok(t, "", append([]string{"help"}, path...)...))
			}
		})
	}
}

// TestGoStyleFlags: the standard flag package's spellings still work
// beside pflag's: every one renders the same bytes.
func TestGoStyleFlags(t *testing.T) {
	values := writeValuesFile(t, "etcd:\n  replicas: 1\n")
	want := ok(t, "", "render", "cluster", "--namespace", "tenant-demo", "--release", "kubernetes-demo", "--values", values, "--api-versions", etcdshapes.APICiliumNetworkPolicy)
	for _, args := range [][]string{
		{"-namespace", "tenant-demo", "-release", "kubernetes-demo", "-f", values, "-api-versions", etcdshapes.APICiliumNetworkPolicy},
		{"-namespace=tenant-demo", "-release=kubernetes-demo", "-values=" + values, "-api-versions=" + etcdshapes.APICiliumNetworkPolicy},
		{"-ntenant-demo", "--release=kubernetes-demo", "-f" + values, "-a" + etcdshapes.APICiliumNetworkPolicy},
		{"-n=tenant-demo", "--release", "kubernetes-demo", "-f=" + values, "-a", etcdshapes.APICiliumNetworkPolicy},
		{"--release", "kubernetes-demo", "-f", values, "-a", etcdshapes.APICiliumNetworkPolicy, "-n", "tenant-demo"},
	} {
		require.Equal(t, want, ok(t, "", append([]string{"render", "cluster"}, args...)...), "%q", args)
	}
	// A value is never rewritten, even one spelled like a flag.
	code, _, stderr := cli(t, "", "render", "etcd", "-n", "tenant-root", "-f", "-release")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "--values: open -release: no such file or directory")
	// After "--" nothing is a flag: "-release" is the release argument.
	code, _, stderr = cli(t, "", "render", "etcd", "-n", "tenant-root", "--", "-release")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, `release: invalid value "-release"`)
	code, _, stderr = cli(t, "", "render", "etcd", "-n", "tenant-root", "--", "etcd", "-release")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, `unexpected argument "-release"`)
}

// TestExitStatuses: 0 ok, 1 bad input, 2 usage, 3 a plan not safe to
// apply, whatever the command.
func TestExitStatuses(t *testing.T) {
	live := filepath.Join(t.TempDir(), "live.yaml")
	require.NoError(t, os.WriteFile(live, []byte(ok(t, "", "render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo")), 0o600))
	for _, tc := range []struct {
		code int
		args []string
	}{
		{0, []string{"render", "etcd", "-n", "tenant-root"}},
		{0, []string{"plan", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--live", live}},
		{0, []string{"version"}},
		{0, []string{"help"}},
		{1, []string{"render", "etcd", "-n", "default"}},
		{1, []string{"render", "etcd", "-n", "tenant-root", "--set", "replicas"}},
		{1, []string{"render", "etcd", "-n", "tenant-root", "--chart-version", "1.2.3-01"}},
		{0, []string{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "-a", "cilium.io/v2"}},  // a warning
		{2, []string{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "-a", `cilium.io/v2"`}}, // not CSV, as for Helm
		{1, []string{"gen", "chart", "--caller", "etcd", "--chart-version", "1.2.3-01", "--out", t.TempDir()}},
		{2, []string{}},
		{2, []string{"render"}},
		{2, []string{"completion"}},
		{2, []string{"render", "etcd"}},
		{2, []string{"render", "etcd", "-n", "tenant-root", "--nope"}},
		{3, []string{"plan", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--live", live, "--set", "etcd.replicas=1"}},
	} {
		code, stdout, stderr := cli(t, "", tc.args...)
		require.Equal(t, tc.code, code, "%q: %s%s", tc.args, stdout, stderr)
		if tc.code == 1 || tc.code == 2 {
			require.Empty(t, stdout, "%q", tc.args)
			require.NotEmpty(t, stderr, "%q", tc.args)
		}
		if tc.code == 1 {
			require.True(t, strings.HasPrefix(stderr, "etcdshapes: "), "%q: %s", tc.args, stderr)
		}
	}
}

// The errors of --set flags are *invalid.Error, like every bad input.
func TestSetErrorIsNamingError(t *testing.T) {
	_, err := render("etcd", []string{"-n", "tenant-root", "--set", "a[x]=1"}, strings.NewReader(""), &bytes.Buffer{})
	var ne *invalid.Error
	require.True(t, errors.As(err, &ne), "%T %v", err, err)
	assert.Equal(t, "--set", ne.Field)
	assert.Equal(t, "a[x]=1", ne.Value)
}

// usageCase is a command line and what it must give: the exit code, and
// text that stdout (help, exit 0) or else stderr contains.
type usageCase struct {
	args []string
	code int
	want string
}

// checkUsage runs each case through cmd: help goes to stdout with nothing
// on stderr, an error to stderr with nothing on stdout.
func checkUsage(t *testing.T, cmd func(args []string, stdout, stderr io.Writer) int, cases []usageCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := cmd(tc.args, &stdout, &stderr)
			assert.Equal(t, tc.code, code, stderr.String())
			if tc.code == 0 { // help: on stdout
				assert.Contains(t, stdout.String(), tc.want)
				assert.Empty(t, stderr.String())
				return
			}
			assert.Contains(t, stderr.String(), tc.want)
			assert.Empty(t, stdout.String())
		})
	}
}

// builderCase is a command line whose output must be the etcd package's
// golden file of that name.
type builderCase struct {
	golden string
	args   []string
}

// checkMatchesBuilders runs each case through cmd and compares its stdout
// with the golden file the etcd package's builders are pinned to.
func checkMatchesBuilders(t *testing.T, cmd func(args []string, stdout, stderr io.Writer) int, cases []builderCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.golden, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("..", "..", "etcd", "testdata", tc.golden+".yaml"))
			require.NoError(t, err)
			var stdout, stderr bytes.Buffer
			code := cmd(tc.args, &stdout, &stderr)
			require.Equal(t, 0, code, stderr.String())
			assert.Equal(t, string(want), stdout.String())
		})
	}
}

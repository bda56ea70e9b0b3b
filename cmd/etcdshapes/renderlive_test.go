package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withBootstrap is a rendered stack as a restored cluster keeps it: its
// EtcdCluster with spec.bootstrap.restore, which render never writes.
func withBootstrap(t *testing.T, stack string) string {
	t.Helper()
	docs := strings.Split(stack, "\n---\n")
	found := false
	for i, d := range docs {
		if strings.Contains(d, "\nkind: EtcdCluster\n") {
			require.Contains(t, d, "\nspec:\n")
			docs[i] = strings.Replace(d, "\nspec:\n", "\nspec:\n  bootstrap:\n    restore:\n      source:\n        pvc:\n          claimName: etcd-snapshots\n          subPath: before-change\n", 1)
			found = true
		}
	}
	require.True(t, found, "no EtcdCluster in\n%s", stack)
	return strings.Join(docs, "\n---\n")
}

// Every kind of live state plan reads from its live file (a tenant
// cluster's storage class, the shared datastore its KamajiControlPlane
// uses, an EtcdCluster's spec.bootstrap after a restore, for both
// callers) is rendered by 'render --live' as the plan rendered it: the
// output is the plan's desired objects, and so is the output of the
// render command the plan prints, and an --output-dir render. Without
// --live, render differs from each: what was applied was not what was
// planned.
func TestRenderLiveIsWhatPlanPlanned(t *testing.T) {
	cluster := []string{"cluster", "kubernetes-demo", "-n", "tenant-demo", "--set", "etcd.replicas=1"}
	etcdChart := []string{"etcd", "-n", "tenant-root", "--set", "replicas=1"}
	// render is render's stdout; its stderr may say that a cluster on
	// a shared datastore renders nothing.
	render := func(args ...string) string {
		code, stdout, stderr := cli(t, "", append([]string{"render"}, args...)...)
		require.Equal(t, exitOK, code, stderr)
		return stdout
	}
	for _, tc := range []struct {
		name string
		args []string // the caller and its render flags
		live func(t *testing.T) string
	}{
		{"live storage class", cluster, func(t *testing.T) string {
			return render(append(cluster, "--live-storage-class", "replicated")...)
		}},
		{"shared datastore", cluster, func(t *testing.T) string {
			return "apiVersion: controlplane.cluster.x-k8s.io/v1alpha1\nkind: KamajiControlPlane\nmetadata:\n  name: kubernetes-demo\n  namespace: tenant-demo\nspec:\n  dataStoreName: tenant-root\n"
		}},
		{"bootstrap (cluster)", cluster, func(t *testing.T) string { return withBootstrap(t, render(cluster...)) }},
		{"bootstrap (etcd chart)", etcdChart, func(t *testing.T) string { return withBootstrap(t, render(etcdChart...)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			liveFile := writeTemp(t, []byte(tc.live(t)))
			liveObjs, err := plan.ReadObjects([]byte(tc.live(t)))
			require.NoError(t, err)

			// The objects the plan compared the live ones with.
			req := etcdshapes.Request{Caller: naming.Caller(tc.args[0]), Namespace: "tenant-root", Values: map[string]any{"replicas": 1}}
			if tc.args[0] == naming.CallerCluster.String() {
				req = etcdshapes.Request{Caller: naming.Caller(tc.args[0]), Namespace: "tenant-demo", Release: "kubernetes-demo", Values: map[string]any{"etcd": map[string]any{"replicas": 1}}}
			}
			_, desired, err := plan.ForRequest(req, liveObjs)
			require.NoError(t, err)
			want := ""
			if len(desired) > 0 {
				b, err := etcdshapes.Marshal(desired)
				require.NoError(t, err)
				want = string(b)
			}

			withLive := append(append([]string{}, tc.args...), "--live", liveFile)
			got := render(withLive...)
			assert.Equal(t, want, got, "render --live is the plan's desired render")
			assert.NotEqual(t, want, render(tc.args...), "without --live, render differs from the plan (the break)")

			// The render command the plan prints (text and JSON) is
			// this one, and gives the same objects.
			code, text, stderr := cli(t, "", append([]string{"plan"}, withLive...)...)
			require.Contains(t, []int{exitOK, exitUnsafe}, code, stderr)
			var pj struct {
				RenderCommand  string `json:"renderCommand"`
				NothingToApply bool   `json:"nothingToApply"`
			}
			_, js, _ := cli(t, "", append(append([]string{"plan"}, withLive...), "-o", "json")...)
			require.NoError(t, json.Unmarshal([]byte(js), &pj), js)
			require.NotEmpty(t, pj.RenderCommand)
			if pj.NothingToApply {
				// An empty render piped into kubectl apply fails: the
				// plan prints no such pipe.
				assert.Contains(t, text, "\nNothing to apply: ")
				assert.NotContains(t, text, "| kubectl apply")
			} else {
				assert.Contains(t, text, "\n  "+pj.RenderCommand+" | "+plan.ApplyCommand("")+"\n")
			}
			words := shellWords(t, pj.RenderCommand)
			require.Equal(t, []string{"etcdshapes", "render"}, words[:2])
			assert.Equal(t, want, render(words[2:]...), "the plan's render command renders what it planned")

			// --output-dir writes the same objects.
			dir := t.TempDir()
			_, _, stderr = cli(t, "", append(append([]string{"render"}, withLive...), "--output-dir", dir)...)
			assert.Equal(t, want, dirObjects(t, dir), stderr)
		})
	}
}

// dirObjects is the objects an --output-dir render wrote, in its files'
// order, as one multi-document YAML.
func dirObjects(t *testing.T, dir string) string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	require.NoError(t, err)
	sort.Strings(names)
	var docs []string
	for _, n := range names {
		b, err := os.ReadFile(n)
		require.NoError(t, err)
		docs = append(docs, strings.TrimPrefix(string(b), "---\n"))
	}
	if len(docs) == 0 {
		return ""
	}
	return "---\n" + strings.Join(docs, "---\n")
}

// shellWords splits a command line quoted as plan.ShellWord quotes: words
// apart at spaces, single quotes, and '\” for a quote.
func shellWords(t *testing.T, s string) []string {
	t.Helper()
	var (
		words  []string
		cur    strings.Builder
		inWord bool
		quoted bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			cur.WriteByte(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	require.False(t, quoted, "unterminated quote in %q", s)
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// A live state flag and --live that say other things are refused, naming
// both, by render and by plan; flags that agree with the live file, or
// that it says nothing of, are no contradiction.
func TestRenderLiveContradiction(t *testing.T) {
	cluster := []string{"cluster", "kubernetes-demo", "-n", "tenant-demo"}
	// The live storage class is none the values choose: render warns.
	code, live, stderr := cli(t, "", append([]string{"render"}, append(cluster, "--live-storage-class", "replicated")...)...)
	require.Equal(t, 0, code, stderr)
	require.Empty(t, withoutHooksNote(withoutStorageClassWarning(stderr)))
	require.Contains(t, stderr, `keeps its live storage class "replicated"`)
	sc := writeTemp(t, []byte(live))
	kcp := writeTemp(t, []byte("apiVersion: controlplane.cluster.x-k8s.io/v1alpha1\nkind: KamajiControlPlane\nmetadata:\n  name: kubernetes-demo\n  namespace: tenant-demo\nspec:\n  dataStoreName: tenant-root\n"))
	for _, command := range []string{"render", "plan"} {
		for _, tc := range []struct {
			flags []string
			want  []string // "" for no refusal
		}{
			{[]string{"--live", sc, "--live-storage-class", "local"}, []string{`--live-storage-class "local"`, "--live " + sc, `"replicated"`}},
			{[]string{"--live", sc, "--live-storage-class", ""}, []string{`--live-storage-class ""`, "--live " + sc}},
			{[]string{"--live", kcp, "--live-datastore", "other"}, []string{`--live-datastore "other"`, "--live " + kcp, `"tenant-root"`}},
			{[]string{"--live", sc, "--live-storage-class", "replicated"}, nil},
			{[]string{"--live", kcp, "--live-datastore", "tenant-root"}, nil},
			{[]string{"--live", kcp, "--live-storage-class", "local"}, nil}, // no live EtcdCluster
		} {
			args := append(append([]string{command}, cluster...), tc.flags...)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, _, stderr := cli(t, "", args...)
				if tc.want == nil {
					require.Contains(t, []int{exitOK, exitUnsafe}, code, stderr)
					return
				}
				require.Equal(t, exitUsage, code, stderr)
				for _, w := range tc.want {
					assert.Contains(t, stderr, w)
				}
			})
		}
	}
}

// TestRenderCommandStdin: a plan that read stdin ("-" as --live, as a
// values file or as a --set-file's file) prints a render command that
// reads it too, and says so (text and -o json's renderReadsStdin); one
// that read only files says nothing of stdin.
func TestRenderCommandStdin(t *testing.T) {
	base := []string{"plan", "cluster", "kubernetes-demo", "-n", "tenant-demo"}
	_, live, _ := cli(t, "", "render", "cluster", "kubernetes-demo", "-n", "tenant-demo")
	liveFile := writeTemp(t, []byte(live))
	valuesFile := writeTemp(t, []byte("etcd: {replicas: 3}\n"))
	const note = "  (it reads stdin where the plan did: give it the same input again, or save that input to a file and name the file)\n"
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		reads bool
	}{
		{"files only", "", []string{"--live", liveFile, "-f", valuesFile, "--set-file", "_namespace.note=" + valuesFile}, false},
		{"--live -", live, []string{"--live", "-"}, true},
		{"-f -", "etcd: {replicas: 3}\n", []string{"--live", liveFile, "-f", "-"}, true},
		{"--set-file KEY=-", "x\n", []string{"--live", liveFile, "--set-file", "_namespace.note=-"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, text, stderr := cli(t, tc.stdin, append(append([]string{}, base...), tc.args...)...)
			require.Contains(t, []int{exitOK, exitUnsafe}, code, stderr)
			assert.Equal(t, tc.reads, strings.Contains(text, note), text)
			var pj struct {
				RenderReadsStdin bool `json:"renderReadsStdin"`
			}
			_, js, stderr := cli(t, tc.stdin, append(append(append([]string{}, base...), tc.args...), "-o", "json")...)
			require.NoError(t, json.Unmarshal([]byte(js), &pj), js+stderr)
			assert.Equal(t, tc.reads, pj.RenderReadsStdin)
		})
	}
}

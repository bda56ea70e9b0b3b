package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testtier"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/require"
)

// printed are the objects an output holds, read back as kubectl would read
// them: from multi-document YAML, a v1 List, or each file of a directory
// (the manifest left out).
func printed(t *testing.T, format, stdout, dir string) []map[string]any {
	t.Helper()
	switch {
	case dir != "":
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		var out []map[string]any
		for _, e := range entries {
			if e.Name() == chartwrite.ManifestName {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			require.NoError(t, err)
			out = append(out, printed(t, format, string(b), "")...)
		}
		return out
	case format == outputJSON && strings.Contains(stdout, `"kind": "List"`):
		var list struct {
			Items []map[string]any `json:"items"`
		}
		require.NoError(t, json.Unmarshal([]byte(stdout), &list))
		return list.Items
	case format == outputJSON:
		var o map[string]any
		require.NoError(t, json.Unmarshal([]byte(stdout), &o))
		return []map[string]any{o}
	}
	return yamlDocs(t, stdout)
}

// runsOnUninstall reports whether Helm runs the object on uninstall: its
// helm.sh/hook annotation names post-delete or pre-delete (read here, not
// through the library's rule).
func runsOnUninstall(o map[string]any) bool {
	meta, _ := o["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	hook, _ := ann["helm.sh/hook"].(string)
	return strings.Contains(hook, "post-delete") || strings.Contains(hook, "pre-delete")
}

func kindName(o map[string]any) string {
	return o["kind"].(string) + "/" + o["metadata"].(map[string]any)["name"].(string)
}

// TestUninstallHooksOnlyOnRequest: for every golden stack and every output
// form (YAML, -o json, --output-dir in both formats), render prints no
// object Helm runs on uninstall unless asked (--include-hooks, or
// ETCDSHAPES_INCLUDE_HOOKS=1 or true), says on stderr which it left out,
// and prints every one of them when asked, beside every other object.
// The quick tier asks every way in every form for one stack of each
// caller, and for the others without and with --include-hooks in one
// form (YAML and JSON in turn); the slow tier, every way in both formats.
func TestUninstallHooksOnlyOnRequest(t *testing.T) {
	type outputForm struct {
		name   string
		format string
		dir    bool
	}
	type option struct {
		name, env string
		flags     []string
		hooks     bool
	}
	options := []option{
		{"default", "", nil, false},
		{"env 0", "0", nil, false},
		{"--include-hooks", "", []string{"--include-hooks"}, true},
		{"env 1", "1", nil, true},
		{"env true", "true", nil, true},
		// The flag wins over the environment: the plan's printed
		// render command says --include-hooks=false for that.
		{"env 1, --include-hooks=false", "1", []string{"--include-hooks=false"}, false},
	}
	dirDone := map[naming.Caller]bool{}
	for n, s := range golden.All() {
		objs, err := s.Render()
		require.NoError(t, err)
		if len(objs) == 0 {
			continue
		}
		var all, hooks []string
		for _, o := range objs {
			b, err := json.Marshal(o)
			require.NoError(t, err)
			var m map[string]any
			require.NoError(t, json.Unmarshal(b, &m))
			all = append(all, kindName(m))
			if runsOnUninstall(m) {
				hooks = append(hooks, kindName(m))
			}
		}
		require.Len(t, hooks, 4, s.Name)
		deletes := cleanupDeletes(objs)
		sort.Strings(all)
		// The directory forms (one fsync a file) for one stack of each
		// caller: the objects are chosen before the form is.
		forms := []outputForm{{"yaml", outputYAML, false}, {"json", outputJSON, false}}
		full := !dirDone[s.Caller]
		if full {
			dirDone[s.Caller] = true
			forms = append(forms, outputForm{"output-dir yaml", outputYAML, true}, outputForm{"output-dir json", outputJSON, true})
		}
		t.Run(s.Name, func(t *testing.T) {
			check := func(form outputForm, opt option) {
				t.Setenv(envIncludeHooks, opt.env)
				args := append(append(scenarioArgs(s), "-o", form.format), opt.flags...)
				dir := ""
				if form.dir {
					dir = filepath.Join(t.TempDir(), "out")
					args = append(args, "--output-dir", dir)
				}
				code, stdout, stderr := cli(t, s.Values, args...)
				require.Equal(t, 0, code, "%s %s: %s", form.name, opt.name, stderr)
				if form.dir {
					require.True(t, strings.HasPrefix(stdout, "wrote "), stdout)
					stdout = ""
				}
				var got, gotHooks []string
				for _, o := range printed(t, form.format, stdout, dir) {
					got = append(got, kindName(o))
					if runsOnUninstall(o) {
						gotHooks = append(gotHooks, kindName(o))
					}
				}
				sort.Strings(got)
				// The environment never puts the hooks into a
				// directory (a GitOps tool syncs it): only the flag.
				envIgnored := form.dir && opt.hooks && len(opt.flags) == 0
				if envIgnored {
					require.Empty(t, gotHooks, "%s %s: the environment put uninstall hooks into the directory", form.name, opt.name)
					require.Equal(t, hooksLeftOut(hooks, deletes)+"\netcdshapes: warning: "+envIncludeHooks+" is ignored with --output-dir: a directory a GitOps tool syncs never holds the uninstall hooks unless --include-hooks is given\n",
						withoutStorageClassWarning(stderr), "%s %s", form.name, opt.name)
					return
				}
				if opt.hooks {
					require.Equal(t, all, got, "%s %s", form.name, opt.name)
					require.ElementsMatch(t, hooks, gotHooks, "%s %s", form.name, opt.name)
					// Turned on by the environment, they are warned of.
					want := ""
					if len(opt.flags) == 0 {
						want = hooksPrinted(hooks, deletes) + "\n"
					}
					if form.dir {
						// Written into a directory by the flag: warned of.
						require.Regexp(t, dirHooksWarning, stderr, "%s %s", form.name, opt.name)
						stderr = dirHooksWarning.ReplaceAllString(stderr, "")
					}
					require.Equal(t, want, withoutStorageClassWarning(stderr), "%s %s", form.name, opt.name)
					return
				}
				require.Empty(t, gotHooks, "%s %s: printed objects Helm runs on uninstall", form.name, opt.name)
				require.Len(t, got, len(all)-len(hooks), "%s %s", form.name, opt.name)
				require.Equal(t, hooksLeftOut(hooks, deletes)+"\n", withoutStorageClassWarning(stderr), "%s %s", form.name, opt.name)
			}
			quick := func(f, o int) bool { return full || (f == n%2 && (o == 0 || o == 2)) }
			var rest [][2]int
			for f, form := range forms {
				for o, opt := range options {
					if quick(f, o) {
						check(form, opt)
					} else {
						rest = append(rest, [2]int{f, o})
					}
				}
			}
			if len(rest) == 0 {
				return
			}
			testtier.SkipUnlessSlow(t, "the other ways to ask, in both formats")
			for _, r := range rest {
				check(forms[r[0]], options[r[1]])
			}
		})
	}
}

// TestIncludeHooksEnvironment: ETCDSHAPES_INCLUDE_HOOKS other than unset,
// empty, 0, false, 1 or true is a usage error naming the variable, with
// nothing printed or written; commands that print no hooks (render
// snapshot, render check, plan) do not read it.
func TestIncludeHooksEnvironment(t *testing.T) {
	for _, v := range []string{"yes", "TRUE", "True", " 1", "1 ", "2", "on", "-1", "\x1b]52;c;x\x07"} {
		t.Run(v, func(t *testing.T) {
			t.Setenv(envIncludeHooks, v)
			dir := filepath.Join(t.TempDir(), "out")
			for _, args := range [][]string{
				{"render", "etcd", "-n", "tenant-root"},
				{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "-o", "json"},
				{"render", "etcd", "-n", "tenant-root", "--output-dir", dir},
			} {
				code, stdout, stderr := cli(t, "", args...)
				require.Equal(t, exitUsage, code, "%q: %s", args, stderr)
				require.Empty(t, stdout)
				require.Contains(t, stderr, "etcdshapes: "+envIncludeHooks+"=")
				require.Contains(t, stderr, "must be 1 or true")
				require.NoDirExists(t, dir)
			}
			// Set to a bad value, the flag still decides.
			ok(t, "", "render", "etcd", "-n", "tenant-root", "--include-hooks")
			ok(t, "", "render", "snapshot", "etcd", "-n", "tenant-root", "--name", "s", "--pvc", "backups")
			ok(t, "", "render", "check", "etcd", "-n", "tenant-root")
		})
	}
	// Plan never applies hooks, whatever the environment says, and the
	// render command it prints leaves them out in that environment too.
	t.Setenv(envIncludeHooks, "1")
	code, rendered, stderr := cli(t, "", "render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo")
	require.Equal(t, 0, code, stderr)
	require.Regexp(t, hooksWarning, stderr, "the environment's hooks are warned of")
	live := writeTemp(t, []byte(rendered))
	out := ok(t, "", "plan", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--live", live)
	require.Contains(t, out, "Not applied (Helm uninstall hooks): ")
	require.Contains(t, out, "\nNo changes, qualified: ", out)
	m := regexp.MustCompile(`(?m)^  (etcdshapes render .*) \| kubectl apply`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	words := strings.Fields(m[1])
	require.Equal(t, "--include-hooks=false", words[len(words)-1], m[1])
	code, again, stderr := cli(t, "", words[1:]...)
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, again, "-cleanup", "the printed render command applied the uninstall hooks")
	require.NotRegexp(t, hooksWarning, stderr)
}

// TestShowOnlyUninstallHooks: a --show-only that matches only uninstall
// hooks prints nothing without --include-hooks, so it is refused, saying
// why; one that matches hooks and other objects prints the others and says
// which hooks it left out; with --include-hooks the hooks are printed.
func TestShowOnlyUninstallHooks(t *testing.T) {
	etcd := []string{"render", "etcd", "-n", "tenant-root"}
	for _, sel := range []string{"Job/etcd-cleanup", "*/etcd-cleanup", "jobs/*", "serviceaccounts/*"} {
		code, stdout, stderr := cli(t, "", append(etcd, "-s", sel)...)
		require.Equal(t, exitError, code, sel)
		require.Empty(t, stdout)
		require.Contains(t, stderr, `etcdshapes: --show-only: invalid value "`+sel+`": matches only Helm uninstall hooks (`)
		require.Contains(t, stderr, "add --include-hooks to print them")
		require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)

		docs := yamlDocs(t, ok(t, "", append(etcd, "-s", sel, "--include-hooks")...))
		require.NotEmpty(t, docs)
		for _, d := range docs {
			require.True(t, runsOnUninstall(d), kindName(d))
		}
	}
	code, stdout, stderr := cli(t, "", append(etcd, "-s", "Role/*")...)
	require.Equal(t, 0, code, stderr)
	var got []string
	for _, d := range yamlDocs(t, stdout) {
		got = append(got, kindName(d))
	}
	require.Equal(t, []string{"Role/etcd-dashboard-resources"}, got)
	require.Equal(t, hooksLeftOut([]string{"Role/etcd-cleanup"}, etcdDeletes(3))+"\n", stderr)
	// The pre-install Secrets are no uninstall hooks: helm install creates
	// them, so render prints them.
	require.Len(t, yamlDocs(t, ok(t, "", append(etcd, "-s", "Secret/*")...)), 2)
}

// files is every regular file under dir (the manifest included), by its
// slash-separated path, and its content.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	}))
	return out
}

// TestFilteredOutputDirNeverRemoves: --output-dir with --show-only writes
// the selected objects' files, under the names a whole render gives them,
// and removes no file, so a GitOps tool pruning the directory deletes
// nothing; the manifest keeps listing the other files, so the next whole
// render still replaces or removes them. A whole render without the hooks
// removes the hook files an --include-hooks run wrote.
func TestFilteredOutputDirNeverRemoves(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	etcd := []string{"render", "etcd", "-n", "tenant-root", "--output-dir", dir}
	ok(t, "", append(etcd, "--include-hooks")...)
	whole := files(t, dir)
	require.Len(t, whole, 25) // 24 objects and the manifest

	// The same objects, filtered: nothing written, nothing removed.
	for _, sel := range [][]string{{"-s", "Certificate/etcd-ca"}, {"-s", "EtcdCluster/etcd", "-s", "DataStore/*"}, {"-s", "Role/*"}} {
		require.Regexp(t, `^wrote 0 files to .*, \d unchanged\n$`, ok(t, "", append(etcd, sel...)...), sel)
		require.Equal(t, whole, files(t, dir), sel)
	}
	// Changed objects, filtered: only their files change.
	out := ok(t, "", append(etcd, "-s", "EtcdCluster/etcd", "--set", "replicas=5")...)
	require.Equal(t, "wrote 1 file to "+dir+", 0 unchanged\n", out)
	now := files(t, dir)
	require.Len(t, now, 25)
	for name, content := range whole {
		switch name {
		case "10-etcdcluster-etcd.yaml":
			require.Contains(t, now[name], "replicas: 5")
		case chartwrite.ManifestName:
			require.NotEqual(t, content, now[name])
		default:
			require.Equal(t, content, now[name], name)
		}
	}
	requireManifestAgrees(t, dir)
	// A whole render with the hooks takes the directory back, refusing
	// nothing: the manifest still listed every file.
	require.Regexp(t, `^wrote 1 file to .*, 23 unchanged\n$`, ok(t, "", append(etcd, "--include-hooks")...))
	require.Equal(t, whole, files(t, dir))
	// A whole render without the hooks removes their files: the directory
	// holds what render prints for kubectl.
	require.Regexp(t, `^wrote 0 files to .*, 20 unchanged, removed 4 stale generated files\n(  removed \S+-etcd-cleanup\.yaml: \w+ tenant-root/etcd-cleanup is no longer rendered\n){4}$`, ok(t, "", etcd...))
	for name := range files(t, dir) {
		require.NotContains(t, name, "cleanup")
	}
	requireManifestAgrees(t, dir)
}

// requireManifestAgrees: the directory's manifest lists exactly its other
// files, each with its content's SHA-256, and no lock file, temporary file
// or journal is left.
func requireManifestAgrees(t *testing.T, dir string) {
	t.Helper()
	got := files(t, dir)
	require.NotContains(t, got, chartwrite.LockName)
	for name := range got {
		require.False(t, strings.HasPrefix(filepath.Base(name), ".etcdshapes-tmp-"), "left behind in %s: %s", dir, name)
	}
	manifest := got[chartwrite.ManifestName]
	delete(got, chartwrite.ManifestName)
	listed := map[string]string{}
	for _, line := range strings.Split(manifest, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sum, p, found := strings.Cut(line, "  ")
		require.True(t, found, line)
		listed[p] = sum
	}
	onDisk := map[string]string{}
	for name, content := range got {
		onDisk[name] = sha256Hex(content)
	}
	require.Equal(t, onDisk, listed, "the manifest disagrees with the files in %s", dir)
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// etcdDeletes is what the etcd chart's cleanup deletes with replicas
// members, as the stderr line says it.
func etcdDeletes(replicas int) string {
	var pvcs []string
	for i := range replicas {
		pvcs = append(pvcs, fmt.Sprintf("data-etcd-%d", i))
	}
	return "the etcd members' data volumes (PersistentVolumeClaims " + strings.Join(pvcs, ", ") +
		") and the TLS Secrets etcd-peer-ca-tls, etcd-ca-tls, etcd-server-tls, etcd-peer-tls, etcd-client-tls (the CAs' included)"
}

// TestHooksLineSaysWhatCleanupDeletes: the line render prints when it
// leaves the uninstall hooks out says what their cleanup deletes, read
// from the hooks: for the etcd chart the members' data volumes (one
// PersistentVolumeClaim a member, whatever the replicas) and the TLS
// Secrets, for a tenant cluster its TLS Secrets. Each name it gives is
// one the printed cleanup Role allows deleting and the cleanup Job's
// script deletes.
func TestHooksLineSaysWhatCleanupDeletes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "etcd", "-n", "tenant-root"}, etcdDeletes(3)},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "replicas=1"}, etcdDeletes(1)},
		{[]string{"render", "etcd", "-n", "tenant-root", "--set", "replicas=5", "-o", "json"}, etcdDeletes(5)},
		{[]string{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo"},
			"the TLS Secrets kubernetes-demo-etcd-peer-ca-tls, kubernetes-demo-etcd-ca-tls, kubernetes-demo-etcd-server-tls, kubernetes-demo-etcd-peer-tls, kubernetes-demo-etcd-client-tls (the CAs' included)"},
	} {
		code, _, stderr := cli(t, "", c.args...)
		require.Equal(t, 0, code, stderr)
		require.Contains(t, stderr, "applying them runs the cleanup, which deletes "+c.want+"; --include-hooks prints them\n", "%q", c.args)
		// The names are the Role's and the Job's.
		var role, job map[string]any
		for _, d := range yamlDocs(t, ok(t, "", append(c.args[:len(c.args):len(c.args)], "--include-hooks", "-s", "*/*-cleanup", "-o", "yaml")...)) {
			switch d["kind"] {
			case "Role":
				role = d
			case "Job":
				job = d
			}
		}
		require.NotNil(t, role)
		require.NotNil(t, job)
		script, err := json.Marshal(job["spec"])
		require.NoError(t, err)
		var names []string
		for _, r := range role["rules"].([]any) {
			for _, n := range r.(map[string]any)["resourceNames"].([]any) {
				names = append(names, n.(string))
			}
		}
		require.NotEmpty(t, names)
		for _, n := range names {
			require.Contains(t, c.want, n)
			require.Contains(t, string(script), n)
		}
	}
}

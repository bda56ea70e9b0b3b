package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/hostilefs"
	"github.com/stretchr/testify/require"
)

// gen runs the CLI with args after "gen chart" within a deadline (a FIFO
// opened for reading would block forever).
func gen(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	hostilefs.Within(t, hangLimit, func() {
		code = run(append([]string{"gen", "chart"}, args...), nil, &out, &errOut)
	})
	return code, out.String(), errOut.String()
}

func tree(t *testing.T, dir string) map[string]string { return hostilefs.Snapshot(t, dir) }

// mkfifo makes a FIFO at p, or skips the test where there are none.
func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := hostilefs.Mkfifo(p); errors.Is(err, hostilefs.ErrUnsupported) {
		t.Skip("no FIFOs here")
	} else {
		require.NoError(t, err)
	}
}

func put(t *testing.T, p, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// requireGenerated: dir holds exactly what chartgen generates for o.
func requireGenerated(t *testing.T, dir string, o chartgen.Options) {
	t.Helper()
	files, err := chartgen.Chart(o)
	require.NoError(t, err)
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		require.NoError(t, err)
		require.Equal(t, string(f.Data), string(got), f.Path)
	}
}

func TestGenChartWritesThenChangesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "chart")
	own, err := chartgen.Chart(chartgen.Options{Caller: "cluster", Version: "1.2.3"})
	require.NoError(t, err)
	all, err := chartgen.Chart(chartgen.Options{Caller: "cluster", Version: "1.2.3", Vendor: true})
	require.NoError(t, err)
	tb, tbAll := chartgen.TemplateBytes(own), chartgen.TemplateBytes(all)
	code, stdout, stderr := gen(t, "--caller", "cluster", "--out", dir, "--chart-version", "1.2.3")
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr)
	require.Equal(t, fmt.Sprintf("wrote 6 files to %s, 0 unchanged (template text: %d bytes, %d with the library chart); recorded them in %s\n", dir, tb, tbAll, filepath.Join(dir, chartwrite.ManifestName)), stdout)
	requireGenerated(t, dir, chartgen.Options{Caller: "cluster", Version: "1.2.3"})

	// Idempotent: the second run touches nothing and says so.
	before := tree(t, dir)
	code, stdout, stderr = gen(t, "--caller", "cluster", "--out", dir, "--chart-version", "1.2.3")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, fmt.Sprintf("wrote 0 files to %s, 6 unchanged (template text: %d bytes, %d with the library chart)\n", dir, tb, tbAll), stdout)
	require.Equal(t, before, tree(t, dir))

	// Another version replaces only Chart.yaml.
	code, stdout, stderr = gen(t, "--caller", "cluster", "--out", dir, "--chart-version", "1.2.4")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, fmt.Sprintf("wrote 1 file to %s, 5 unchanged (", dir))
}

// TestGenChartRemovesOnlyItsOwnStaleFiles: files gen wrote and no longer
// generates (the etcd chart's, when the directory becomes the cluster's)
// are removed; a hand-written file stays.
func TestGenChartRemovesOnlyItsOwnStaleFiles(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := gen(t, "--caller", "etcd", "--out", dir)
	require.Equal(t, 0, code, stderr)
	own := filepath.Join(dir, "templates", "NOTES.txt")
	put(t, own, "written by hand\n")

	code, stdout, stderr := gen(t, "--caller", "cluster", "--out", dir, "--chart-version", "1.2.3")
	require.Equal(t, 0, code, stderr)
	etcdFiles, err := chartgen.Chart(chartgen.Options{Caller: "etcd"})
	require.NoError(t, err)
	clusterFiles, err := chartgen.Chart(chartgen.Options{Caller: "cluster"})
	require.NoError(t, err)
	generated := map[string]bool{}
	for _, f := range clusterFiles {
		generated[f.Path] = true
	}
	var stale []string
	for _, f := range etcdFiles {
		if !generated[f.Path] {
			stale = append(stale, f.Path)
		}
	}
	require.NotEmpty(t, stale)
	require.Contains(t, stdout, fmt.Sprintf("removed %d stale generated %s", len(stale), plural(len(stale), "file", "files")))
	for _, p := range stale {
		require.NoFileExists(t, filepath.Join(dir, filepath.FromSlash(p)))
	}
	requireGenerated(t, dir, chartgen.Options{Caller: "cluster", Version: "1.2.3"})
	require.FileExists(t, own)
}

// TestGenChartLeavesWhatBecameAFIFO: a generated file no longer generated
// that is now a FIFO is left in place (exit 0, a note on stderr) and
// forgotten; gen never opens it.
func TestGenChartLeavesWhatBecameAFIFO(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := gen(t, "--caller", "etcd", "--out", dir)
	require.Equal(t, 0, code, stderr)
	rule := filepath.Join(dir, "ci", "custom-values.yaml") // the etcd chart's only
	require.NoError(t, os.Remove(rule))
	mkfifo(t, rule)
	code, stdout, stderr := gen(t, "--caller", "cluster", "--out", dir)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "wrote ")
	require.Contains(t, stderr, fmt.Sprintf("etcdshapes: left %s: is a FIFO (named pipe), not a regular file; it is no longer generated, so etcdshapes left it in place and forgot it\n", rule))
	fi, err := os.Lstat(rule)
	require.NoError(t, err)
	require.NotZero(t, fi.Mode()&os.ModeNamedPipe)
	manifest, err := os.ReadFile(filepath.Join(dir, chartwrite.ManifestName))
	require.NoError(t, err)
	require.NotContains(t, string(manifest), "custom-values.yaml")
}

// TestGenChartRefusesFilesItDidNotWrite: a hand-written values.yaml or
// template, or a generated file edited since, is refused (exit 1, each path
// named with how to proceed, nothing written) until --force.
func TestGenChartRefusesFilesItDidNotWrite(t *testing.T) {
	dir := t.TempDir()
	values := filepath.Join(dir, "values.yaml")
	tpl := filepath.Join(dir, "templates", "etcd.yaml")
	put(t, values, "replicas: 5\n")
	put(t, tpl, "{{/* mine */}}\n")
	before := tree(t, dir)
	code, stdout, stderr := gen(t, "--caller", "etcd", "--out", dir)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, fmt.Sprintf(`etcdshapes: --out: invalid value %q: exists and was not written by etcdshapes (the directory has no .etcdshapes-generated): move it away, or rerun with --force to replace it
etcdshapes: --out: invalid value %q: exists and was not written by etcdshapes (the directory has no .etcdshapes-generated): move it away, or rerun with --force to replace it
etcdshapes: nothing was written to %s
`, tpl, values, dir), stderr)
	require.Equal(t, before, tree(t, dir))

	code, stdout, stderr = gen(t, "--caller", "etcd", "--out", dir, "--force")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "wrote 6 files")
	requireGenerated(t, dir, chartgen.Options{Caller: "etcd"})

	// Edited since gen wrote it.
	put(t, values, "replicas: 5\n")
	before = tree(t, dir)
	code, stdout, stderr = gen(t, "--caller", "etcd", "--out", dir)
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Contains(t, stderr, fmt.Sprintf("--out: invalid value %q: was edited since etcdshapes wrote it", values))
	require.Contains(t, stderr, "rerun with --force to replace it")
	require.Equal(t, before, tree(t, dir))
}

// TestGenChartFromBeforeTheManifest: a chart an earlier etcdshapes wrote
// (files with chartgen.Header, no manifest) is adopted where it is current;
// a generated file that differs is refused, saying where it came from.
func TestGenChartFromBeforeTheManifest(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := gen(t, "--caller", "etcd", "--out", dir)
	require.Equal(t, 0, code, stderr)
	require.NoError(t, os.Remove(filepath.Join(dir, chartwrite.ManifestName)))
	code, stdout, stderr := gen(t, "--caller", "etcd", "--out", dir)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "wrote 0 files")
	require.Contains(t, stdout, "6 unchanged (template text: ")
	require.Contains(t, stdout, "; recorded them in")

	require.NoError(t, os.Remove(filepath.Join(dir, chartwrite.ManifestName)))
	chart := filepath.Join(dir, "Chart.yaml")
	code, _, stderr = gen(t, "--caller", "etcd", "--out", dir, "--chart-version", "9.9.9")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, fmt.Sprintf("--out: invalid value %q: carries the header of an earlier etcdshapes", chart))
	code, _, stderr = gen(t, "--caller", "etcd", "--out", dir, "--chart-version", "9.9.9", "--force")
	require.Equal(t, 0, code, stderr)
	requireGenerated(t, dir, chartgen.Options{Caller: "etcd", Version: "9.9.9"})
}

// TestGenChartLibraryLeavesOtherChartsAlone: --library --out DIR writes only
// the library chart's own files; the charts in DIR's subdirectories (one
// generated by gen with its manifest, one vendored with generated-looking
// files) are not read, replaced or removed, even with --force, and neither
// is any other file.
func TestGenChartLibraryLeavesOtherChartsAlone(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "templates", "_cozy.tpl"), "{{- define \"cozy\" }}{{ end }}\n")
	code, _, stderr := gen(t, "--caller", "etcd", "--out", filepath.Join(dir, "etcd"))
	require.Equal(t, 0, code, stderr)
	put(t, filepath.Join(dir, "charts", "vendored", "Chart.yaml"), "apiVersion: v2\nname: vendored\nversion: 1.0.0\n")
	put(t, filepath.Join(dir, "charts", "vendored", "templates", "_etcdshapes_cluster.tpl"), "{{- /* "+chartgen.Header+" */ -}}\n")
	before := tree(t, dir)

	for _, force := range []bool{false, true} {
		args := []string{"--library", "--out", dir}
		if force {
			args = append(args, "--force")
		}
		code, stdout, stderr := gen(t, args...)
		require.Equal(t, 0, code, stderr)
		require.Empty(t, stderr)
		require.Contains(t, stdout, "wrote ")
		after := tree(t, dir)
		for p, desc := range before {
			require.Equal(t, desc, after[p], p)
		}
		requireGenerated(t, dir, chartgen.Options{Library: true})
		for p := range after {
			if _, ok := before[p]; ok {
				continue
			}
			rel, _ := filepath.Rel(dir, p)
			require.True(t, rel == "templates" || rel == "files" || rel == "Chart.yaml" || rel == chartwrite.ManifestName ||
				strings.HasPrefix(rel, filepath.Join("templates", "_etcdshapes")) || strings.HasPrefix(rel, "files"+string(filepath.Separator)), "new: %s", rel)
		}
	}
}

// TestGenChartBadInputs: what gen chart refuses to touch, through the CLI:
// exit 1, nothing on stdout, the path named on stderr with the rule and how
// to proceed, nothing written anywhere (inside or outside --out), and
// nothing hangs. Cases marked always are refused with --force too.
func TestGenChartBadInputs(t *testing.T) {
	elsewhere := t.TempDir()
	put(t, filepath.Join(elsewhere, "_etcdshapes.tpl"), "outside\n")
	outside := tree(t, elsewhere)
	for _, c := range []struct {
		name   string
		setup  func(t *testing.T, out string) string // prepares out, returns --out
		value  string                                // the path named, relative to out
		rule   string
		always bool
	}{
		{"hand-written values.yaml", func(t *testing.T, out string) string {
			put(t, filepath.Join(out, "values.yaml"), "replicas: 5\n")
			return out
		}, "values.yaml", "exists and was not written by etcdshapes", false},
		{"edited template", func(t *testing.T, out string) string {
			code, _, stderr := gen(t, "--caller", "cluster", "--out", out)
			require.Equal(t, 0, code, stderr)
			put(t, filepath.Join(out, "templates", "etcd.yaml"), "edited\n")
			return out
		}, "templates/etcd.yaml", "was edited since etcdshapes wrote it", false},
		{"out is a link", func(t *testing.T, out string) string {
			require.NoError(t, os.Symlink(elsewhere, filepath.Join(out, "link")))
			return filepath.Join(out, "link")
		}, "link", "is a symbolic link", true},
		{"templates is a link", func(t *testing.T, out string) string {
			require.NoError(t, os.Symlink(elsewhere, filepath.Join(out, "templates")))
			return out
		}, "templates", "is a symbolic link", true},
		{"a template is a link", func(t *testing.T, out string) string {
			put(t, filepath.Join(out, "templates", ".keep"), "")
			require.NoError(t, os.Symlink(filepath.Join(elsewhere, "_etcdshapes.tpl"), filepath.Join(out, "templates", "etcd.yaml")))
			return out
		}, "templates/etcd.yaml", "is a symbolic link", true},
		{"values.yaml is a FIFO", func(t *testing.T, out string) string {
			mkfifo(t, filepath.Join(out, "values.yaml"))
			return out
		}, "values.yaml", "is a FIFO (named pipe), not a regular file", true},
		{"the manifest is a FIFO", func(t *testing.T, out string) string {
			mkfifo(t, filepath.Join(out, chartwrite.ManifestName))
			return out
		}, chartwrite.ManifestName, "is a FIFO (named pipe)", true},
		{"Chart.yaml is a directory", func(t *testing.T, out string) string {
			put(t, filepath.Join(out, "Chart.yaml", "x"), "")
			return out
		}, "Chart.yaml", "is a directory, not a regular file", true},
		{"templates is another chart", func(t *testing.T, out string) string {
			put(t, filepath.Join(out, "templates", "Chart.yaml"), "apiVersion: v2\nname: other\nversion: 1.0.0\n")
			return out
		}, "templates", "is another chart (it has its own Chart.yaml)", true},
		{"a manifest gen cannot have written", func(t *testing.T, out string) string {
			put(t, filepath.Join(out, chartwrite.ManifestName), strings.Repeat("0", 64)+"  ../../x\n")
			return out
		}, chartwrite.ManifestName, `line 1: path "../../x" must be a clean relative`, true},
	} {
		for _, force := range []bool{false, true} {
			if force && !c.always {
				continue
			}
			t.Run(fmt.Sprintf("%s force=%v", c.name, force), func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out")
				require.NoError(t, os.Mkdir(out, 0o755))
				dir := c.setup(t, out)
				before := tree(t, filepath.Dir(out))
				args := []string{"--caller", "cluster", "--out", dir}
				if force {
					args = append(args, "--force")
				}
				code, stdout, stderr := gen(t, args...)
				require.Equal(t, 1, code, stderr)
				require.Empty(t, stdout)
				require.Contains(t, stderr, fmt.Sprintf("etcdshapes: --out: invalid value %q: %s", filepath.Join(out, filepath.FromSlash(c.value)), c.rule))
				require.Equal(t, before, tree(t, filepath.Dir(out)))
				require.Equal(t, outside, tree(t, elsewhere))
			})
		}
	}
}

// TestCheckedInManifestsAreCurrent: go generate ./chartgen, run again on
// the checked-in charts, writes nothing (their manifests list exactly the
// generated files); chartgen's TestCheckedInChartsAreCurrent checks the
// files themselves.
func TestCheckedInManifestsAreCurrent(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "chartgen", "doc.go"))
	require.NoError(t, err)
	var n int
	for _, line := range strings.Split(string(doc), "\n") {
		args, ok := strings.CutPrefix(line, "//go:generate go run ../cmd/etcdshapes gen chart ")
		if !ok {
			continue
		}
		n++
		fields := strings.Fields(args)
		src := filepath.Join("..", "..", "chartgen", filepath.FromSlash(fields[len(fields)-1]))
		dir := filepath.Join(t.TempDir(), filepath.Base(src))
		require.NoError(t, os.CopyFS(dir, os.DirFS(src)))
		code, stdout, stderr := gen(t, append(fields[:len(fields)-1], dir)...)
		require.Equal(t, 0, code, stderr)
		require.True(t, strings.HasPrefix(stdout, "wrote 0 files to "), "%s is stale: run go generate ./chartgen (%s)", src, stdout)
		require.NotContains(t, stdout, "recorded", "%s has no manifest: run go generate ./chartgen", src)
	}
	require.Equal(t, 3, n)
}

func TestGenUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"gen"}, 2, "Usage"},
		{[]string{"gen", "--help"}, 0, "Usage"},
		{[]string{"gen", "chart", "--help"}, 0, "--library"},
		{[]string{"gen", "values"}, 2, "unknown gen target"},
		{[]string{"gen", "chart", "--out", "x"}, 2, "--caller"},
		{[]string{"gen", "chart", "--caller", "etcd"}, 2, "--out"},
		{[]string{"gen", "chart", "--caller", "etcd", "--out", "x", "extra"}, 2, "unexpected argument"},
		{[]string{"gen", "chart", "--caller", "nope", "--out", "x"}, 1, `caller: invalid value "nope"`},
		{[]string{"gen", "chart", "--caller", "etcd", "--chart-version", "1.x", "--out", "x"}, 1, "--chart-version: invalid value"},
	} {
		var out, errOut bytes.Buffer
		code := run(c.args, nil, &out, &errOut)
		require.Equal(t, c.code, code, strings.Join(c.args, " "))
		if c.code == 0 { // help: on stdout
			require.Contains(t, out.String(), c.msg, strings.Join(c.args, " "))
			require.Empty(t, errOut.String(), strings.Join(c.args, " "))
			continue
		}
		require.Contains(t, errOut.String(), c.msg, strings.Join(c.args, " "))
		require.Empty(t, out.String(), strings.Join(c.args, " "))
	}
}

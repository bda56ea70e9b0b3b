package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/stretchr/testify/require"
)

func TestGenChartWritesAndPrunes(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "templates", "old-shape.yaml")
	own := filepath.Join(dir, "templates", "NOTES.txt")
	require.NoError(t, os.MkdirAll(filepath.Dir(stale), 0o755))
	require.NoError(t, os.WriteFile(stale, []byte("{{- /* "+chartgen.Header+" */ -}}\n"), 0o644))
	require.NoError(t, os.WriteFile(own, []byte("written by hand\n"), 0o644))

	var out, errOut bytes.Buffer
	code := run([]string{"gen", "chart", "--caller", "cluster", "--out", dir, "--chart-version", "1.2.3"}, nil, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	require.Contains(t, out.String(), "removed 1 stale generated files")
	require.Regexp(t, `\(templates: [0-9]+ bytes\)`, out.String())

	files, err := chartgen.Chart(chartgen.Options{Caller: "cluster", Version: "1.2.3"})
	require.NoError(t, err)
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		require.NoError(t, err)
		require.Equal(t, string(f.Data), string(got), f.Path)
	}
	require.NoFileExists(t, stale)
	require.FileExists(t, own)
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
		{[]string{"gen", "chart", "--caller", "etcd", "--chart-version", "1.x", "--out", "x"}, 1, "chartVersion"},
		{[]string{"gen", "chart", "--library", "--caller", "etcd", "--out", "x"}, 1, "library chart, which serves both callers"},
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

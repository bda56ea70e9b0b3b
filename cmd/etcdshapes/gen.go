package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/etcdshapes/etcdshapes/chartgen"
)

const genDetails = `Usage:
` + synopsisGen + `
  gen chart --caller C writes the caller's application chart (Chart.yaml, values.yaml,
                       values.schema.json, templates/etcd.yaml, ci/) that renders its stack
                       from the charts' values; it depends on the library chart
                       (file://../library: helm dependency build fetches it).
  gen chart --library  writes the library chart (Chart.yaml type library, the named
                       templates of both callers) the application charts depend on and
                       an existing chart can depend on too.

  Files generated before and no longer produced are removed; files without the
  generated header are never touched.

Flags of gen chart:
  --caller etcd|cluster  the stack: "etcd" (the etcd chart) or "cluster" (the kubernetes
                         chart's etcd); required unless --library
  --out DIR              the chart's directory, created if missing; required
  --chart-version V      the generated charts' version in Chart.yaml (default 0.0.0)
  --library              write the library chart (default false)
  --vendor               with --caller, also write the library chart into DIR/charts/etcdshapes,
                         as helm dependency build would (default false)

  The layout of charts/ in the repository:
    etcdshapes gen chart --library --out charts/library
    etcdshapes gen chart --caller etcd --out charts/etcd
    etcdshapes gen chart --caller cluster --out charts/cluster
`

var (
	genCmd = command{"etcdshapes gen",
		"etcdshapes gen writes files generated from the builders; its one target, chart, writes a Helm chart.\n\n" + genDetails}
	genChartCmd = command{"etcdshapes gen chart",
		"etcdshapes gen chart writes a Helm chart, generated from the builders, that renders the same\nobjects as 'etcdshapes render' from the same values.\n\n" + genDetails}
)

// runGen is the gen command.
func runGen(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, genCmd.usage)
		return exitUsage
	}
	if isHelp(args[0]) {
		return genCmd.help(stdout, stderr)
	}
	if args[0] != "chart" {
		return genCmd.misuse(stderr, fmt.Errorf("unknown gen target %q (want chart)", args[0]))
	}
	cmd := genChartCmd
	fs := flag.NewFlagSet("etcdshapes gen chart", flag.ContinueOnError)
	var o chartgen.Options
	var out string
	fs.StringVar(&o.Caller, "caller", "", "")
	fs.StringVar(&o.Version, "chart-version", "", "")
	fs.BoolVar(&o.Library, "library", false, "")
	fs.BoolVar(&o.Vendor, "vendor", false, "")
	fs.StringVar(&out, "out", "", "")
	if err := parseFlags(fs, args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cmd.help(stdout, stderr)
		}
		return cmd.misuse(stderr, err)
	}
	if fs.NArg() > 0 {
		return cmd.misuse(stderr, fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	if out == "" || (o.Caller == "" && !o.Library) {
		return cmd.misuse(stderr, errors.New("--out and --caller are required (--caller may be left out with --library)"))
	}
	files, err := chartgen.Chart(o)
	if err != nil {
		return cmd.exit(err, stdout, stderr)
	}
	removed, err := writeDir(out, files)
	if err != nil {
		return cmd.exit(err, stdout, stderr)
	}
	fmt.Fprintf(stdout, "wrote %d files to %s (templates: %d bytes)", len(files), out, chartgen.TemplateBytes(files))
	if removed > 0 {
		fmt.Fprintf(stdout, ", removed %d stale generated files", removed)
	}
	fmt.Fprintln(stdout)
	return exitOK
}

// writeDir writes files under dir and removes the files under dir that a
// previous generation wrote (they carry chartgen.Header) but this one did
// not, so a renamed shape leaves no stale template behind. A file without
// the header is someone's own and stays.
func writeDir(dir string, files []chartgen.File) (removed int, err error) {
	want := map[string]bool{}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		want[p] = true
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return 0, err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return 0, err
		}
	}
	var stale []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || want[p] {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if isGenerated(data) {
			stale = append(stale, p)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	sort.Strings(stale)
	for _, p := range stale {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, err
		}
		removed++
	}
	return removed, nil
}

// isGenerated reports whether a file carries the generated header near its
// top (first line of templates and YAML, the schema's $comment).
func isGenerated(data []byte) bool {
	head := data
	if len(head) > 512 {
		head = head[:512]
	}
	return bytes.Contains(head, []byte(chartgen.Header))
}

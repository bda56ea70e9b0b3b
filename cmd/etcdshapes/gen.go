package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
)

const genDetails = `Usage:
` + synopsisGen + `
  gen chart --caller C writes the caller's application chart (Chart.yaml, values.yaml,
                       values.schema.json, templates/etcd.yaml, ci/) that renders its stack
                       from the charts' values. It depends on the library chart at
                       file://../library, which helm dependency build fetches into DIR/charts.
  gen chart --library  writes the library chart (Chart.yaml type library, the templates and
                       the files they run) that the application charts depend on, and that
                       an existing chart can depend on too.

  The layout of charts/ in the repository, and of any checkout:
    etcdshapes gen chart --library --out charts/library
    etcdshapes gen chart --caller etcd --out charts/etcd
    etcdshapes gen chart --caller cluster --out charts/cluster
  For a chart that renders without helm dependency build, write the library
  into its charts/ directory as well:
    etcdshapes gen chart --library --out DIR/charts/etcdshapes

  gen never destroys a file it did not write. It records what it wrote in
  DIR/` + chartwrite.ManifestName + ` (each file's SHA-256) and then:
    - writes missing files, leaves files that already hold the new content,
      replaces files it wrote that are unchanged since, and removes files it
      wrote, unchanged since, that are no longer generated;
    - refuses any other file: one it did not write (a hand-written values.yaml
      or template, a copy made before the manifest existed) and one edited
      since it wrote it. The error names each path; nothing is written.
      --force replaces or removes those, if they are regular files;
    - never, even with --force: follows a symbolic link (DIR itself, a file,
      or a directory such as templates -> elsewhere), opens or replaces a
      FIFO, socket, device or directory, or reads, writes or removes anything
      in another chart (a subdirectory with its own Chart.yaml or manifest).
  It does not walk DIR: only the files it generates and those its manifest
  lists are looked at, each read with a size limit. Running it twice changes
  nothing the second time ("wrote 0 files").

Flags of gen chart:
  --caller etcd|cluster  the stack: "etcd" (the etcd chart) or "cluster" (the kubernetes
                         chart's etcd); required unless --library
  --out DIR              the chart's directory, created if missing; required
  --chart-version V      the generated charts' version in Chart.yaml, and the library
                         dependency's (default 0.0.0)
  --library              write the library chart (default false)
  --force                replace or remove regular files gen did not write or that were
                         edited since (default false)

Exit status: 0 written, 1 bad input or a refused file (nothing written), 2 usage.
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
	fs.StringVar(&out, "out", "", "")
	var force bool
	fs.BoolVar(&force, "force", false, "")
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
	res, err := writeChart(out, files, force)
	if err != nil {
		var refused *chartwrite.RefusedError
		if errors.As(err, &refused) {
			for _, line := range strings.Split(err.Error(), "\n") {
				fmt.Fprintf(stderr, "etcdshapes: %s\n", line)
			}
			fmt.Fprintf(stderr, "etcdshapes: nothing was written to %s\n", out)
			return exitError
		}
		return cmd.exit(err, stdout, stderr)
	}
	for _, n := range res.Left {
		fmt.Fprintf(stderr, "etcdshapes: left %s: %s\n", filepath.Join(out, filepath.FromSlash(n.Path)), n.Reason)
	}
	fmt.Fprintf(stdout, "wrote %d files to %s, %d unchanged", len(res.Written), out, len(res.Unchanged))
	fmt.Fprintf(stdout, " (template text: %d bytes", chartgen.TemplateBytes(files))
	if !o.Library {
		// An application chart renders with the library chart it depends on.
		vo := o
		vo.Vendor = true
		if all, err := chartgen.Chart(vo); err == nil {
			fmt.Fprintf(stdout, ", %d with the library chart", chartgen.TemplateBytes(all))
		}
	}
	fmt.Fprint(stdout, ")")
	if len(res.Removed) > 0 {
		fmt.Fprintf(stdout, ", removed %d stale generated files", len(res.Removed))
	}
	if res.ManifestCreated {
		fmt.Fprintf(stdout, "; recorded them in %s", filepath.Join(out, chartwrite.ManifestName))
	}
	fmt.Fprintln(stdout)
	return exitOK
}

// writeChart writes the generated files into dir with chartwrite: only
// files gen wrote (its manifest says which) are ever replaced or removed.
// Files carrying chartgen.Header in a directory without a manifest came
// from an etcdshapes that kept none; they are refused like any other file
// (the message says so) unless force.
func writeChart(dir string, files []chartgen.File, force bool) (chartwrite.Result, error) {
	w := make([]chartwrite.File, len(files))
	for i, f := range files {
		w[i] = chartwrite.File{Path: f.Path, Data: f.Data}
	}
	return chartwrite.Write(dir, w, chartwrite.Options{Force: force, Marker: chartgen.Header})
}

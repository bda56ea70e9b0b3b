package main

import (
	"fmt"

	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/spf13/cobra"
)

const genDetails = synopsisGen + `
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
  The manifest also records that gen wrote DIR ("# owner: etcdshapes gen
  chart"): a DIR render --output-dir wrote is refused, even with --force (each
  would remove the other's files as stale), and render refuses gen's.
  The files change as a whole: gen stages every new file as a temporary file
  under a journal (DIR/.etcdshapes-tmp-journal), then renames them into place.
  An error (a full disk) or SIGINT, SIGTERM or SIGHUP before that commit
  point leaves DIR exactly as it was, temporary files removed (exit 1, or
  128+N for a signal); after it, gen finishes first. A run that was killed
  (SIGKILL, a crash) is undone or finished by the next run into DIR, which
  says so.
  Two runs into one DIR at once (gen, or render --output-dir) take turns: each
  holds a lock file, DIR/` + chartwrite.LockName + `, while it writes and removes it
  after, so the manifest always agrees with the files. A run waits at most
  30 seconds for another, then exits 1 naming the lock, having written nothing.
  A symbolic link, FIFO, directory or file with content in its place is refused.

Exit status: 0 written, 1 bad input, a refused file or a failed write (nothing
written), 2 usage, 128+N stopped by signal N (SIGINT 130, SIGTERM 143).
`

// newGenCmd is 'etcdshapes gen' and its one target, chart.
func newGenCmd(e env) *cobra.Command {
	gen := parentCommand(&cobra.Command{
		Use:   "gen chart",
		Short: "Write files generated from the builders: a Helm chart",
		Long:  "etcdshapes gen writes files generated from the builders; its one target, chart, writes a Helm chart.\n\n" + genDetails,
	}, func(arg string) error {
		return usagef("unknown gen target %q (want chart)", arg)
	})
	var (
		o      chartgen.Options
		caller string
		out    string
		force  bool
	)
	chart := &cobra.Command{
		Use:   "chart --caller etcd|cluster --out DIR [--chart-version V] [--force]",
		Short: "Write a Helm chart that renders the same objects from the same values",
		Long: "etcdshapes gen chart writes a Helm chart, generated from the builders, that renders the same\n" +
			"objects as 'etcdshapes render' from the same values.\n\n" + genDetails,
		Example: "  etcdshapes gen chart --caller cluster --out ./charts/etcd-cluster --chart-version 1.2.3\n" +
			"  etcdshapes gen chart --library --out ./charts/library",
		Args: noArgs,
	}
	fs := chart.Flags()
	fs.StringVar(&caller, "caller", "", "the stack: \"etcd\" (the etcd chart) or \"cluster\" (the kubernetes chart's etcd);\nrequired unless --library")
	fs.StringVar(&o.Version, "chart-version", "", "the generated chart's version `V` in Chart.yaml and the library dependency's, SemVer as Helm checks it (default "+chartgen.DefaultVersion+")")
	fs.BoolVar(&o.Library, "library", false, "write the library chart (Chart.yaml type: library) that the application charts depend on")
	fs.StringVar(&out, "out", "", "the chart's directory `DIR`, created if missing; required")
	fs.BoolVar(&force, "force", false, "replace or remove regular files gen did not write or that were edited since")
	completeFlag(chart, "caller", "etcd", "cluster")
	completeFlag(chart, "chart-version")
	_ = chart.MarkFlagDirname("out")
	chart.RunE = runE(func(*cobra.Command, []string) error {
		o.Caller = naming.Caller(caller)
		if out == "" || (o.Caller == "" && !o.Library) {
			return usagef("--out and --caller are required (--caller may be left out with --library)")
		}
		files, err := chartgen.Chart(o)
		if err != nil {
			return inFlagTerms(err, flagField{field: "chartVersion", flag: "--chart-version"}, flagField{field: "caller", flag: "--caller"})
		}
		// One owner for every chart: a chart's files are all generated,
		// so a directory may change from one chart to another (its
		// files removed as stale), but never from or to a render's
		// objects.
		return writeDirectory("--out", out, chartFiles(files), chartwrite.Options{Force: force, Marker: chartgen.Header, Owner: "gen chart", Adopts: adoptsChart},
			func() string { return templateSize(o, files) }, nil, e.stdout, e.stderr)
	})
	gen.AddCommand(chart)
	return gen
}

// chartFiles are the generated files as chartwrite writes them: only
// files gen wrote (its manifest says which) are ever replaced or removed.
// Files carrying chartgen.Header in a directory without a manifest came
// from an etcdshapes that kept none; they are refused like any other file
// (the message says so) unless --force.
func chartFiles(files []chartgen.File) []chartwrite.File {
	w := make([]chartwrite.File, len(files))
	for i, f := range files {
		w[i] = chartwrite.File{Path: f.Path, Data: f.Data}
	}
	return w
}

// templateSize is gen chart's report of the template text it wrote, and
// for an application chart with the library chart it renders with: what a
// reviewer reads (chartgen.TemplateBytes).
func templateSize(o chartgen.Options, files []chartgen.File) string {
	s := fmt.Sprintf("template text: %d bytes", chartgen.TemplateBytes(files))
	if !o.Library {
		vo := o
		vo.Vendor = true
		if all, err := chartgen.Chart(vo); err == nil {
			s += fmt.Sprintf(", %d with the library chart", chartgen.TemplateBytes(all))
		}
	}
	return s
}

// Command etcdshapes renders the etcd stacks of Cozystack's etcd and
// kubernetes charts from the etcdshapes builders, reading the charts' own
// values files.
//
//	etcdshapes render etcd    --namespace NS [--release etcd] [-f VALUES]... [--chart-version V]
//	etcdshapes render cluster --namespace NS --release REL [-f VALUES]... [--chart-version V]
//	                          [--api-versions GROUP/VERSION/Kind]... [--live-datastore NAME]
//	                          [--live-storage-class NAME]
//	etcdshapes gen chart --caller etcd|cluster --out DIR [--chart-version V] [--force]
//	etcdshapes gen chart --library [--caller etcd|cluster] --out DIR [--force]
//	etcdshapes plan etcd|cluster --live FILE <render flags> [--output text|json]
//	etcdshapes render snapshot etcd    --namespace NS [--release etcd] (--name NAME | --schedule CRON [--keep N]) DESTINATION
//	etcdshapes render snapshot cluster --namespace NS --release REL (--name NAME | --schedule CRON [--keep N]) DESTINATION
//
// Every command answers -h, -help or --help with its own usage on stdout.
//
// Output is multi-document YAML on stdout; errors go to stderr with a
// non-zero exit.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/etcdshapes/etcdshapes"
)

// The usage texts are built from these pieces so that each command's help
// and the overview say the same thing.
const (
	synopsisRenderEtcd    = "  etcdshapes render etcd    --namespace NS [--release etcd] [-f VALUES]... [--chart-version V]\n"
	synopsisRenderCluster = `  etcdshapes render cluster --namespace NS --release REL [-f VALUES]... [--chart-version V]
                            [--api-versions GROUP/VERSION/Kind]...
                            [--live-datastore NAME] [--live-storage-class NAME]
`
	synopsisGen = `  etcdshapes gen chart --caller etcd|cluster --out DIR [--chart-version V] [--force]
  etcdshapes gen chart --library --out DIR [--chart-version V] [--force]
`
	synopsisPlan = "  etcdshapes plan etcd|cluster --live FILE <render flags> [--output text|json]\n"

	aboutRenderEtcd = `  render etcd      the etcd chart: one shared etcd per tenant namespace, named "etcd".
                   Values: version, replicas, size, storageClass, resources (flat map),
                   affinity, and the platform's _cluster map. Unknown keys are refused.
`
	aboutRenderCluster = `  render cluster   the kubernetes chart's etcd for one tenant cluster, named
                   "<release>-etcd". Values: etcd.replicas (1 or 3) and _cluster
                   (allocation ratios, scheduling.globalAppTopologySpreadConstraints,
                   etcd-storage-class-local, etcd-storage-class-replicated); other keys
                   are ignored, unknown keys under etcd: are refused.
`
	aboutGen = `  gen chart        writes a Helm chart generated from the builders that renders the same
                   objects from the same values; --library writes only its named templates.
                   It never replaces or removes a file it did not write (run
                   'etcdshapes gen --help').
`
	aboutPlan = `  plan             compares a render with live objects (kubectl get -o yaml) and says what
                   server-side apply would create, update (each field), keep or delete; exit 3
                   when the API server would refuse a change or it needs a decision
                   (run 'etcdshapes plan --help').
`
	aboutRenderSnapshot = `  render snapshot  an EtcdSnapshot (--name) or a scheduled snapshot CronJob keeping the last
                   N (--schedule, --keep) to S3 or a PVC (run 'etcdshapes render snapshot --help').
`

	// flagsRender are the flags of render etcd and render cluster (and
	// plan's render flags); flagsRenderCluster those of cluster alone.
	flagsRender = `  -n, --namespace NS          tenant namespace ("tenant-…"); required
  --release NAME              Helm release (etcd: must be "etcd", the default; cluster:
                              "kubernetes-<name>", required)
  -f, --values FILE           values file in the chart's shape; repeat to merge like Helm
                              (later files win, null deletes a default); "-" reads stdin
  --chart-version V           calling chart's version, shown by the WorkloadMonitor (default 0.0.0)
`
	flagsRenderCluster = `  --api-versions API          (cluster) a served API, as for helm template; repeat or comma-separate.
                              The VPA, VMPodScrape and CiliumNetworkPolicy render only when listed:
                                autoscaling.k8s.io/v1/VerticalPodAutoscaler
                                operator.victoriametrics.com/v1beta1/VMPodScrape
                                cilium.io/v2/CiliumNetworkPolicy
  --live-datastore NAME       (cluster) spec.dataStoreName of the live KamajiControlPlane. If it names
                              another datastore, the cluster stays there and nothing is rendered.
  --live-storage-class NAME   (cluster) spec.storage.storageClassName of the live EtcdCluster; it is
                              immutable, so it wins over the _cluster classes (pass "" for a live
                              cluster without a class).
`
	exampleRenderCluster = "  etcdshapes render cluster --namespace tenant-demo --release kubernetes-demo\n"
	exampleRenderEtcd    = "  etcdshapes render etcd --namespace tenant-root -f values.yaml\n"
	renderOutput         = "Output is multi-document YAML on stdout; errors go to stderr with a non-zero exit.\n"
)

// usage is the overview: etcdshapes --help.
const usage = `etcdshapes renders the etcd objects of Cozystack's charts as typed, validated YAML.

Usage:
` + synopsisRenderEtcd + synopsisRenderCluster + synopsisGen + synopsisPlan + synopsisRenderSnapshot + `
` + aboutRenderEtcd + aboutRenderCluster + aboutGen + aboutPlan + aboutRenderSnapshot + `
Flags:
` + flagsRender + flagsRenderCluster + `
Examples:
` + exampleRenderCluster + exampleRenderEtcd + `
Every command answers -h or --help with its own usage, e.g. 'etcdshapes render cluster --help'.
`

var (
	renderCmd = command{"etcdshapes render", `etcdshapes render prints the objects of one stack.

Usage:
` + synopsisRenderEtcd + synopsisRenderCluster + synopsisRenderSnapshot + `
` + aboutRenderEtcd + aboutRenderCluster + aboutRenderSnapshot + `
Flags of render etcd and render cluster:
` + flagsRender + flagsRenderCluster + `
Examples:
` + exampleRenderCluster + exampleRenderEtcd + `
` + renderOutput}

	renderEtcdCmd = command{"etcdshapes render etcd", `etcdshapes render etcd renders the etcd chart's stack for a tenant namespace.

Usage:
` + synopsisRenderEtcd + `
` + aboutRenderEtcd + `
Flags:
` + flagsRender + `
Example:
` + exampleRenderEtcd + `
` + renderOutput}

	renderClusterCmd = command{"etcdshapes render cluster", `etcdshapes render cluster renders the kubernetes chart's etcd stack for one tenant cluster.

Usage:
` + synopsisRenderCluster + `
` + aboutRenderCluster + `
Flags:
` + flagsRender + flagsRenderCluster + `
Example:
` + exampleRenderCluster + `
` + renderOutput}
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command, testable without a process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	top := command{"etcdshapes", usage}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	if isHelp(args[0]) {
		return top.help(stdout, stderr)
	}
	switch args[0] {
	case "gen":
		return runGen(args[1:], stdout, stderr)
	case "plan":
		return runPlan(args[1:], stdin, stdout, stderr)
	case "render":
		return runRender(args[1:], stdin, stdout, stderr)
	}
	return top.misuse(stderr, fmt.Errorf("unknown command %q (want render, gen or plan)", args[0]))
}

// runRender is the render command; args follow "render".
func runRender(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, renderCmd.usage)
		return exitUsage
	}
	if isHelp(args[0]) {
		return renderCmd.help(stdout, stderr)
	}
	caller := args[0]
	var cmd command
	switch caller {
	case "snapshot":
		return renderSnapshot(args[1:], stdout, stderr)
	case etcdshapes.CallerEtcd:
		cmd = renderEtcdCmd
	case etcdshapes.CallerCluster:
		cmd = renderClusterCmd
	default:
		return renderCmd.exit(&usageError{fmt.Errorf("unknown caller %q (want etcd, cluster or snapshot)", caller)}, stdout, stderr)
	}
	out, err := render(caller, args[1:], stdin, stderr)
	if err != nil {
		return cmd.exit(err, stdout, stderr)
	}
	if _, err := stdout.Write(out); err != nil {
		return cmd.exit(err, stdout, stderr)
	}
	return exitOK
}

type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// optionalString records whether a flag was given, even as "".
type optionalString struct {
	set   bool
	value string
}

func (o *optionalString) String() string { return o.value }
func (o *optionalString) Set(v string) error {
	o.set, o.value = true, v
	return nil
}

func render(caller string, args []string, stdin io.Reader, stderr io.Writer) ([]byte, error) {
	fs := flag.NewFlagSet("etcdshapes render "+caller, flag.ContinueOnError)
	var rf renderFlags
	rf.register(fs, caller)
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if err := rf.check(fs, "render"); err != nil {
		return nil, err
	}
	req, err := rf.request(stdin)
	if err != nil {
		return nil, err
	}
	objs, err := etcdshapes.Render(req)
	if err != nil {
		return nil, err
	}
	if caller == etcdshapes.CallerCluster && len(objs) == 0 {
		fmt.Fprintf(stderr, "etcdshapes: the cluster stays on the shared datastore %q; no etcd objects rendered\n", req.Live.DataStoreName)
	}
	return etcdshapes.Marshal(objs)
}

func readValues(files []string, stdin io.Reader) ([][]byte, error) {
	docs := make([][]byte, 0, len(files))
	for _, f := range files {
		b, err := readInput("--values", f, stdin)
		if err != nil {
			return nil, err
		}
		docs = append(docs, b)
	}
	return docs, nil
}

// Command etcdshapes renders the etcd stacks of Cozystack's etcd and
// kubernetes charts from the etcdshapes builders, reading the charts' own
// values files.
//
//	etcdshapes render etcd    --namespace NS [--release etcd] [-f VALUES]... [--chart-version V]
//	etcdshapes render cluster --namespace NS --release REL [-f VALUES]... [--chart-version V]
//	                          [--api-versions GROUP/VERSION/Kind]... [--live-datastore NAME]
//	                          [--live-storage-class NAME]
//	etcdshapes gen chart --caller etcd|cluster --out DIR [--chart-version V] [--library]
//	etcdshapes plan etcd|cluster --live FILE <render flags>
//	etcdshapes render snapshot etcd|cluster --namespace NS [--release REL] (--name NAME | --schedule CRON [--keep N]) DESTINATION
//
// Output is multi-document YAML on stdout; errors go to stderr with a
// non-zero exit.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/etcdshapes/etcdshapes"
)

const usage = `etcdshapes renders the etcd objects of Cozystack's charts as typed, validated YAML.

Usage:
  etcdshapes render etcd    --namespace NS [--release etcd] [-f VALUES]... [--chart-version V]
  etcdshapes render cluster --namespace NS --release REL [-f VALUES]... [--chart-version V]
                            [--api-versions GROUP/VERSION/Kind]...
                            [--live-datastore NAME] [--live-storage-class NAME]
  etcdshapes gen chart --caller etcd|cluster --out DIR [--chart-version V]
  etcdshapes gen chart --library [--caller etcd|cluster] --out DIR
  etcdshapes plan etcd|cluster --live FILE <render flags> [--output text|json]
  etcdshapes render snapshot etcd|cluster --namespace NS [--release REL]
                            (--name NAME | --schedule CRON [--keep N]) DESTINATION

  render etcd      the etcd chart: one shared etcd per tenant namespace, named "etcd".
                   Values: version, replicas, size, storageClass, resources (flat map),
                   affinity, and the platform's _cluster map. Unknown keys are refused.
  render cluster   the kubernetes chart's etcd for one tenant cluster, named
                   "<release>-etcd". Values: etcd.replicas (1 or 3) and _cluster
                   (allocation ratios, scheduling.globalAppTopologySpreadConstraints,
                   etcd-storage-class-local, etcd-storage-class-replicated); other keys
                   are ignored, unknown keys under etcd: are refused.
  gen chart        writes a Helm chart generated from the builders that renders the same
                   objects from the same values; --library writes only its named templates
                   (run 'etcdshapes gen --help').
  plan             compares a render with live objects (kubectl get -o yaml) and says what
                   server-side apply would create, update (each field), keep or delete; exit 3
                   when the API server would refuse a change or it needs a decision
                   (run 'etcdshapes plan --help').
  render snapshot  an EtcdSnapshot (--name) or a scheduled snapshot CronJob keeping the last
                   N (--schedule, --keep) to S3 or a PVC (run 'etcdshapes render snapshot --help').

Flags:
  -n, --namespace NS          tenant namespace ("tenant-…"); required
  --release NAME              Helm release (etcd: must be "etcd"; cluster: "kubernetes-<name>")
  -f, --values FILE           values file in the chart's shape; repeat to merge like Helm
                              (later files win, null deletes a default); "-" reads stdin
  --chart-version V           calling chart's version, shown by the WorkloadMonitor (default 0.0.0)
  --api-versions API          (cluster) a served API, as for helm template; repeat or comma-separate.
                              The VPA, VMPodScrape and CiliumNetworkPolicy render only when listed:
                                autoscaling.k8s.io/v1/VerticalPodAutoscaler
                                operator.victoriametrics.com/v1beta1/VMPodScrape
                                cilium.io/v2/CiliumNetworkPolicy
  --live-datastore NAME       (cluster) spec.dataStoreName of the live KamajiControlPlane. If it names
                              another datastore, the cluster stays there and nothing is rendered.
  --live-storage-class NAME   (cluster) spec.storage.storageClassName of the live EtcdCluster; it is
                              immutable, so it wins over the _cluster classes (pass "" for a live
                              cluster without a class).

Examples:
  etcdshapes render cluster --namespace tenant-demo --release kubernetes-demo
  etcdshapes render etcd --namespace tenant-root -f values.yaml
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command, testable without a process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || isHelp(args[0]) {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "gen":
		return runGen(args[1:], stdout, stderr)
	case "plan":
		return runPlan(args[1:], stdin, stdout, stderr)
	}
	if args[0] != "render" {
		fmt.Fprintf(stderr, "etcdshapes: unknown command %q (want render, gen or plan)\n\n%s", args[0], usage)
		return 2
	}
	if len(args) < 2 || isHelp(args[1]) {
		fmt.Fprint(stderr, usage)
		if len(args) < 2 {
			return 2
		}
		return 0
	}
	caller := args[1]
	if caller == "snapshot" {
		return renderSnapshot(args[2:], stdout, stderr)
	}
	if caller != "etcd" && caller != "cluster" {
		fmt.Fprintf(stderr, "etcdshapes: unknown caller %q (want etcd or cluster)\n", caller)
		return 2
	}
	out, err := render(caller, args[2:], stdin, stderr)
	if err != nil {
		var flagErr *usageError
		if errors.As(err, &flagErr) {
			fmt.Fprintf(stderr, "etcdshapes: %v\nRun 'etcdshapes --help' for usage.\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "etcdshapes: %v\n", err)
		return 1
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "etcdshapes: %v\n", err)
		return 1
	}
	return 0
}

func isHelp(a string) bool { return a == "-h" || a == "--help" || a == "help" }

type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }

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
	fs.SetOutput(io.Discard)
	var rf renderFlags
	rf.register(fs, caller)
	if err := fs.Parse(args); err != nil {
		return nil, &usageError{err}
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
		var b []byte
		var err error
		if f == "-" {
			b, err = io.ReadAll(stdin)
		} else {
			b, err = os.ReadFile(f)
		}
		if err != nil {
			return nil, fmt.Errorf("values file: %w", err)
		}
		docs = append(docs, b)
	}
	return docs, nil
}

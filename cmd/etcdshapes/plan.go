package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/etcdshapes/etcdshapes"
)

const (
	synopsisPlanEtcd = `  etcdshapes plan etcd    --live FILE --namespace NS [--release etcd] [-f VALUES]... [--chart-version V]
                          [--output text|json]
`
	synopsisPlanCluster = `  etcdshapes plan cluster --live FILE --namespace NS --release REL [-f VALUES]... [--chart-version V]
                          [--api-versions GROUP/VERSION/Kind]... [--live-datastore NAME]
                          [--live-storage-class NAME] [--output text|json]
`
	planAbout = `
  Renders the stack as 'etcdshapes render' does and compares it with the live objects:
  what server-side apply would create, update (naming the fields), leave unchanged or
  delete, what the API server will refuse (EtcdCluster spec.tls, storageClassName,
  medium, bootstrap, a shrinking size; DataStore driver; RoleBinding roleRef) and what
  needs a decision (member count and its quorum, DataStore endpoints, a tenant cluster
  moving to another DataStore, deleting the EtcdCluster or the DataStore).

  --live FILE   the live objects as 'kubectl get -o yaml' prints them (one object, a List,
                or several documents; "-" reads stdin), e.g.
                  kubectl get -n NS -o yaml --show-managed-fields \
                    etcdclusters.etcd-operator.cozystack.io,certificates.cert-manager.io,...
                The live state (the EtcdCluster's storage class, the KamajiControlPlane's
                datastore) is read from it unless --live-storage-class/--live-datastore
                say otherwise. With managedFields, fields applied by the "etcdshapes"
                field manager and no longer rendered show as removed (or as changed to
                their default, where the API server fills one in).
  -o, --output  text (default) or json (the plan as a JSON object).
`
	planInference = `
  (cluster) A live VPA, VMPodScrape or CiliumNetworkPolicy of the stack proves its API is
  served: the stack is planned as if --api-versions listed it, and the plan says so
  ("API served: ...: inferred from live object ..."), so a forgotten --api-versions never
  deletes them.
`
	planExit = `
  Exit status: 0 safe to apply (or no changes), 3 something is refused or needs a
  decision, 1 an error (a malformed live file, a plan that cannot be written), 2 a
  usage error.
`
)

var (
	planCmd = command{"etcdshapes plan",
		"etcdshapes plan says what applying a render to a live stack would change, and whether it is safe.\n\nUsage:\n" +
			synopsisPlanEtcd + synopsisPlanCluster + planAbout + planInference +
			"\n  The render flags are those of 'etcdshapes render etcd|cluster'; 'etcdshapes plan etcd --help'\n  and 'etcdshapes plan cluster --help' list them.\n" +
			planExit}
	planEtcdCmd = command{"etcdshapes plan etcd",
		"etcdshapes plan etcd says what applying the etcd chart's render to its live stack would change.\n\nUsage:\n" +
			synopsisPlanEtcd + planAbout + "\nRender flags (as for 'etcdshapes render etcd'):\n" + flagsRender + planExit}
	planClusterCmd = command{"etcdshapes plan cluster",
		"etcdshapes plan cluster says what applying a tenant cluster's etcd render to its live stack would change.\n\nUsage:\n" +
			synopsisPlanCluster + planAbout + planInference + "\nRender flags (as for 'etcdshapes render cluster'):\n" + flagsRender + flagsRenderCluster + planExit}
)

// Exit statuses of plan.
const (
	planSafe   = 0
	planUnsafe = 3
)

// runPlan is the plan command; args follow "plan".
func runPlan(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, planCmd.usage)
		return exitUsage
	}
	if isHelp(args[0]) {
		return planCmd.help(stdout, stderr)
	}
	caller := args[0]
	var cmd command
	switch caller {
	case etcdshapes.CallerEtcd:
		cmd = planEtcdCmd
	case etcdshapes.CallerCluster:
		cmd = planClusterCmd
	default:
		return planCmd.misuse(stderr, fmt.Errorf("unknown caller %q (want etcd or cluster)", caller))
	}
	p, format, err := plan(caller, args[1:], stdin)
	if err != nil {
		return cmd.exit(err, stdout, stderr)
	}
	if format == "json" {
		b, err := json.MarshalIndent(p, "", "  ")
		if err != nil {
			return cmd.exit(err, stdout, stderr)
		}
		if _, err := fmt.Fprintf(stdout, "%s\n", b); err != nil {
			return cmd.exit(fmt.Errorf("writing the plan: %w", err), stdout, stderr)
		}
	} else if err := p.WriteText(stdout); err != nil {
		return cmd.exit(fmt.Errorf("writing the plan: %w", err), stdout, stderr)
	}
	if !p.SafeToApply() {
		return planUnsafe
	}
	return planSafe
}

func plan(caller string, args []string, stdin io.Reader) (*etcdshapes.PlanResult, string, error) {
	fs := flag.NewFlagSet("etcdshapes plan "+caller, flag.ContinueOnError)
	var (
		rf       renderFlags
		liveFile string
		output   = "text"
	)
	rf.register(fs, caller)
	fs.StringVar(&liveFile, "live", "", "")
	fs.StringVar(&output, "output", output, "")
	fs.StringVar(&output, "o", output, "")
	if err := parseFlags(fs, args); err != nil {
		return nil, "", err
	}
	if err := rf.check(fs, "plan"); err != nil {
		return nil, "", err
	}
	switch {
	case liveFile == "":
		return nil, "", &usageError{errors.New("--live is required (the live objects, as kubectl get -o yaml prints them)")}
	case output != "text" && output != "json":
		return nil, "", &usageError{fmt.Errorf("--output must be text or json, not %q", output)}
	}
	stdinUsers := 0
	for _, f := range append([]string{liveFile}, rf.valueFiles...) {
		if f == "-" {
			stdinUsers++
		}
	}
	if stdinUsers > 1 {
		return nil, "", &usageError{errors.New("only one of --live and -f can read stdin")}
	}

	liveData, err := readInput("--live", liveFile, stdin)
	if err != nil {
		return nil, "", err
	}
	live, err := etcdshapes.ReadObjects(liveData)
	if err != nil {
		return nil, "", err
	}
	// Live state flags that are not given are read from the live objects.
	req, err := rf.request(stdin)
	if err != nil {
		return nil, "", err
	}
	p, _, err := etcdshapes.PlanRequest(req, live)
	if err != nil {
		return nil, "", err
	}
	return p, output, nil
}

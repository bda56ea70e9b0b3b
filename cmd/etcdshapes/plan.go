package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/etcdshapes/etcdshapes"
)

const planUsage = `Usage:
  etcdshapes plan etcd    --live FILE --namespace NS [--release etcd] [-f VALUES]... [--chart-version V]
  etcdshapes plan cluster --live FILE --namespace NS --release REL [-f VALUES]... [--chart-version V]
                          [--api-versions GROUP/VERSION/Kind]... [--live-datastore NAME]
                          [--live-storage-class NAME]
  (both: [--output text|json])

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
                field manager and no longer rendered show as removed.

  Exit status: 0 safe to apply (or no changes), 3 something is refused or needs a
  decision, 1 an error, 2 a usage error.
`

// Exit statuses of plan.
const (
	planSafe   = 0
	planUnsafe = 3
)

// runPlan is the plan command; args follow "plan".
func runPlan(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || isHelp(args[0]) {
		fmt.Fprint(stderr, planUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	caller := args[0]
	if caller != etcdshapes.CallerEtcd && caller != etcdshapes.CallerCluster {
		fmt.Fprintf(stderr, "etcdshapes: unknown caller %q (want etcd or cluster)\n\n%s", caller, planUsage)
		return 2
	}
	p, format, err := plan(caller, args[1:], stdin)
	if err != nil {
		var flagErr *usageError
		if errors.As(err, &flagErr) {
			fmt.Fprintf(stderr, "etcdshapes: %v\nRun 'etcdshapes plan --help' for usage.\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "etcdshapes: %v\n", err)
		return 1
	}
	if format == "json" {
		b, err := json.MarshalIndent(p, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "etcdshapes: %v\n", err)
			return 1
		}
		if _, err := fmt.Fprintf(stdout, "%s\n", b); err != nil {
			fmt.Fprintf(stderr, "etcdshapes: %v\n", err)
			return 1
		}
	} else {
		p.WriteText(stdout)
	}
	if !p.SafeToApply() {
		return planUnsafe
	}
	return planSafe
}

func plan(caller string, args []string, stdin io.Reader) (*etcdshapes.PlanResult, string, error) {
	fs := flag.NewFlagSet("etcdshapes plan "+caller, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var (
		rf       renderFlags
		liveFile string
		output   = "text"
	)
	rf.register(fs, caller)
	fs.StringVar(&liveFile, "live", "", "")
	fs.StringVar(&output, "output", output, "")
	fs.StringVar(&output, "o", output, "")
	if err := fs.Parse(args); err != nil {
		return nil, "", &usageError{err}
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

	var liveData []byte
	var err error
	if liveFile == "-" {
		liveData, err = io.ReadAll(stdin)
	} else {
		liveData, err = os.ReadFile(liveFile)
	}
	if err != nil {
		return nil, "", fmt.Errorf("live file: %w", err)
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

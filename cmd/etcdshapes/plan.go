package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/spf13/cobra"
)

const (
	synopsisPlanEtcd = `  etcdshapes plan etcd    [RELEASE] --live FILE --namespace NS [-f VALUES]... [--chart-version V]
                          [--restore-from FILE [--restore-snapshot NAME]]
                          [--expect-existing|--fresh-install] [--output text|json]
                          [--field-manager NAME]
`
	synopsisPlanCluster = `  etcdshapes plan cluster RELEASE --live FILE --namespace NS [-f VALUES]... [--chart-version V]
                          [--api-versions GROUP/VERSION/Kind]... [--live-datastore NAME]
                          [--live-storage-class NAME] [--restore-from FILE [--restore-snapshot NAME]]
                          [--expect-existing|--fresh-install] [--output text|json]
                          [--field-manager NAME]
`
	planAbout = `
  Renders the stack as 'etcdshapes render' does and compares it with the live objects:
  what server-side apply would create, update (naming the fields), leave unchanged or
  delete, what the API server will refuse (EtcdCluster spec.tls, storageClassName,
  medium, bootstrap, a shrinking size; DataStore driver; RoleBinding roleRef) and what
  needs a decision (member count and its quorum, an etcd version change etcd does not
  support as a rolling one: a skipped minor, a major change, a downgrade, a minor upgrade
  from below the patch release etcd's upgrade guide requires such as 3.5.10 -> 3.6.11; a
  DataStore's endpoints or the Secrets of its TLS config, which two releases whose
  DataStore names collide would change; a new DataStore whose name another release can
  render while the live file lacks it, since the plan cannot tell whether it exists; a
  tenant cluster moving to another DataStore, deleting the EtcdCluster or the DataStore;
  creating an EtcdCluster, a DataStore, an Issuer or a Certificate while the rest of the
  stack is live: the live file lacks it, or the stack lost it).
  Helm's uninstall hooks (the cleanup Job that deletes the PVCs and TLS Secrets) are never
  planned: the plan lists them as not applied.

  --live FILE is what 'kubectl get -o yaml' prints (one object, a List, or several
  documents, each after a line ---; "-" reads stdin; at most 64 MiB, 20,000 documents
  and 2,500,000 YAML nodes or JSON values in all: a busy namespace with managed fields
  fits; a number no float64 holds as written, anywhere in it, is refused), e.g.
    kubectl get -n NS -o yaml --show-managed-fields \
      etcdclusters.etcd-operator.cozystack.io,certificates.cert-manager.io,...
  The live state (the EtcdCluster's storage class and spec.bootstrap, which a restored
  cluster keeps, and the KamajiControlPlane's datastore) is read from it unless
  --live-storage-class/--live-datastore say otherwise. The plan is of a server-side apply
  as the field manager (--field-manager, "etcdshapes" by default), with force: apply the
  render so, and only so (a client-side apply, or kubectl's default manager "kubectl",
  removes and keeps other fields than the plan shows), and plan with the manager you apply
  with (metav1.ApplyOptions.FieldManager in Go); the plan's text prints the command:
    etcdshapes render ... | kubectl apply --server-side --field-manager=etcdshapes --force-conflicts -f -
  An apply never deletes: a plan with deletes says so and prints the kubectl delete of
  each, in the order to run them after the decisions (what depends on an object before
  the object; the stateful ones flagged; -o json: "deletes"), and a plan whose render
  holds nothing to apply prints no apply command ("Nothing to apply"; "nothingToApply").
  With managedFields, fields applied by the field manager and no longer rendered show as
  removed (or as changed to their default, where the API server fills one in); every other
  manager's are kept, and a change of one is a conflict, which force takes. A live stack
  none of whose fields the manager owns (applied under another name) is said, and the
  verdict is qualified. Without managedFields (kubectl get without --show-managed-fields, a
  saved render) ownership is unknown: a live immutable or member-shaping field the render
  leaves out is a decision (the apply removes it if the manager owns it), and the verdict
  is qualified. -o json prints the plan as a JSON object, led by its verdict: "safeToApply",
  "empty", "verdict" (the text's last line), "counts" (create, update, delete, unchanged,
  refused, needsDecision, notes, conflicts) and "fieldManager"; "nothingLive" and
  "missingCore" say that the live file holds nothing of the stack, or lacks its core.

  The DataStore is cluster-scoped: list datastores.kamaji.clastix.io among the kinds
  (kubectl then fetches every DataStore), or append it by name:
    { echo ---; kubectl get datastores.kamaji.clastix.io NAME -o yaml --show-managed-fields; } >> FILE
  An object of a namespaced kind without metadata.namespace (a hand-written or trimmed
  file) is refused, naming it: the plan does not guess namespaces; so is an object of a
  stack kind whose kind or apiVersion is spelled with another case or with whitespace
  around it ("etcdcluster", "EtcdCluster "), which kubectl never prints. An object being
  deleted (deletionTimestamp) gets a note, and so do objects of the stack's kinds in
  other namespaces than NS. A key given twice in one map, at any depth, is refused with
  both lines, as the API server's strict decoding refuses it: two outputs appended
  without a line --- between them read as one document with every key twice.

  A live file that holds some of the stack, or an object that refers to it (a
  KamajiControlPlane or TenantControlPlane on its DataStore, its TLS Secrets, its
  members' PVCs, Pods or Services, its EtcdSnapshots), but not an object it renders (a
  kubectl get that dropped one kind: RBAC Forbidden, a kind left out, an ignored failure)
  is partial: that object plans as a create, with the kubectl get that fetches it, a
  decision (exit 3) for the EtcdCluster, the DataStore, the Issuers and Certificates (and
  one of the etcd chart's two Secrets while the other is live), a note for any other kind
  (an API newly served).

  --restore-from FILE (the namespace's EtcdSnapshots, as 'kubectl get
  etcdsnapshots.etcd-operator.cozystack.io -n NS -o yaml' prints them) plans the restore of
  'etcdshapes render --restore-from': the EtcdCluster bootstraps from the newest Complete
  snapshot of its cluster (--restore-snapshot NAME: that one), and the render command the plan
  prints names it (--restore-snapshot), so that a snapshot completed since changes nothing.
  Delete the EtcdCluster first (docs/procedures.md, "Recover from a snapshot"): with it gone
  from the live file, its create is the decision above ("bootstrapped from the snapshot"); with
  it live, spec.bootstrap is REFUSED (the CRD takes it at creation only), and stderr says so.

  A live file that holds nothing of the stack (empty, "---" only, a List without items,
  another namespace's or release's objects) is what a failed or misdirected kubectl get
  leaves (its error on stderr; another namespace or context; the stack's kinds left
  out): it plans a fresh install, every object a create, and that needs a decision (exit
  3), stderr saying why. To plan a fresh install, say so: --fresh-install makes nothing
  live a note (exit 0 where nothing else needs a decision), and a live file that holds
  the stack a decision (the install is not fresh). --expect-existing says the stack
  exists: nothing live is a decision, and so is a live file that lacks the stack's
  EtcdCluster or DataStore (exit 3); use it wherever the stack is known to exist, so
  that a failed, partial or misdirected kubectl get never plans a create over a live
  cluster. The two flags are not given together.
`
	planInference = `
  (cluster) A live VPA, VMPodScrape or CiliumNetworkPolicy of the stack proves its API is
  served: the stack is planned as if --api-versions listed it, and the plan says so
  ("API served: ...: inferred from live object ..."), so a forgotten --api-versions never
  deletes them.
`
	planExit = `
  Exit status: 0 safe to apply (or no changes), 3 something is refused or needs a
  decision (a live file that holds nothing of the stack is one, unless --fresh-install;
  with --fresh-install, one that holds the stack; with --expect-existing, one without
  the stack's EtcdCluster or DataStore), 1 an error (a malformed live file, a plan that
  cannot be written), 2 a usage error (--fresh-install with --expect-existing, say). The
  status is the verdict the plan prints last (and -o json's "safeToApply"): 0 for "Safe
  to apply" and "No changes", 3 for "Not safe to apply"; an error prints no plan.
`
)

// newPlanCmd is 'etcdshapes plan' and its two callers.
func newPlanCmd(e env) *cobra.Command {
	return callersCommand(e, &cobra.Command{
		Use:   "plan etcd|cluster",
		Short: "Say what applying a render to a live stack would change, and whether it is safe",
		Long: "etcdshapes plan says what applying a render to a live stack would change, and whether it is safe.\n\n" +
			synopsisPlanEtcd + synopsisPlanCluster + aboutRelease + planAbout + planInference +
			"\n  The render flags are those of 'etcdshapes render etcd|cluster'; 'etcdshapes plan etcd --help'\n  and 'etcdshapes plan cluster --help' list them.\n" +
			planExit,
	}, newPlanCallerCmd)
}

func newPlanCallerCmd(e env, caller naming.Caller) *cobra.Command {
	var (
		rf           renderFlags
		output       string
		expect       expectation
		fieldManager string
	)
	cmd := callerCommand(caller, callerHelp{
		use:   "etcd [RELEASE] --live FILE --namespace NS [-f VALUES]... [--set KEY=VALUE]... [flags]",
		short: "Plan the etcd chart's stack against its live objects",
		long: "etcdshapes plan etcd says what applying the etcd chart's render to its live stack would change.\n\n" +
			synopsisPlanEtcd + aboutRelease + planAbout + "\n  The render flags are those of 'etcdshapes render etcd'.\n" + planExit,
		example: "  kubectl get -n tenant-root -o yaml --show-managed-fields etcdclusters.etcd-operator.cozystack.io,... > live.yaml\n" +
			"  etcdshapes plan etcd -n tenant-root -f values.yaml --live live.yaml",
	}, callerHelp{
		use:   "cluster RELEASE --live FILE --namespace NS [-f VALUES]... [--set KEY=VALUE]... [flags]",
		short: "Plan a tenant cluster's etcd stack against its live objects",
		long: "etcdshapes plan cluster says what applying a tenant cluster's etcd render to its live stack would change.\n\n" +
			synopsisPlanCluster + aboutRelease + planAbout + planInference + "\n  The render flags are those of 'etcdshapes render cluster'.\n" + planExit,
		example: "  kubectl get -n tenant-demo -o yaml --show-managed-fields etcdclusters.etcd-operator.cozystack.io,... > live.yaml\n" +
			"  etcdshapes plan cluster kubernetes-demo -n tenant-demo -f values.yaml --live live.yaml",
	})
	rf.register(cmd, caller)
	fs := cmd.Flags()
	fs.StringVar(&rf.live, "live", "", "the live objects `FILE` as 'kubectl get -o yaml' prints them (one object, a List or\nseveral documents; -o json too); \"-\" reads stdin; required")
	fs.StringVarP(&output, "output", "o", "text", "the plan's `FORMAT`: text or json (the plan as a JSON object)")
	fs.BoolVar(&expect.existing, "expect-existing", false, "the stack exists: exit 3 when the live file lacks its EtcdCluster or DataStore (a\nfailed, partial or misdirected kubectl get), rather than plan a create over it")
	fs.BoolVar(&expect.fresh, "fresh-install", false, "the stack does not exist yet: plan a fresh install, and exit 3 when the live file\nholds objects of the stack; without it a live file that holds nothing of the stack\n(a failed or misdirected kubectl get) exits 3. Not with --expect-existing")
	fs.StringVar(&fieldManager, "field-manager", apply.FieldManager,
		"the field manager `NAME` the objects will be applied as, with force:\n"+
			"kubectl apply --server-side --field-manager NAME --force-conflicts\n"+
			"Its fields in the live managedFields are its own, every other manager's another's.\n"+
			"Checked as the API server checks it: at most 128 bytes, printable, not empty")
	completeFlag(cmd, "field-manager")
	_ = cmd.MarkFlagFilename("live", "yaml", "yml", "json")
	completeFlag(cmd, "output", "text", "json")
	cmd.RunE = runE(func(*cobra.Command, []string) error {
		p, err := planLive(&rf, output, fieldManager, expect, e.stdin, e.stderr)
		if err != nil {
			return err
		}
		if output == "json" {
			b, err := json.MarshalIndent(p, "", "  ")
			if err != nil {
				return err
			}
			if _, err := fmt.Fprintf(e.stdout, "%s\n", escapeJSON(b)); err != nil {
				return fmt.Errorf("writing the plan: %w", err)
			}
		} else if err := p.WriteText(e.stdout); err != nil {
			return fmt.Errorf("writing the plan: %w", err)
		}
		switch {
		case expect.existing && p.NothingLive:
			sayf(e.stderr, "--expect-existing: the live file holds none of the stack's objects, so the plan is of a fresh install: not safe to apply over a stack that exists; check the kubectl get that wrote %s (its namespace, context and kinds)", liveSource(rf.live))
		case expect.existing && len(p.MissingCore) > 0:
			sayf(e.stderr, "--expect-existing: the live file is partial: it lacks the stack's %s; fetch %s into the live file and plan again (the plan names the kubectl get of each)", refsText(p.MissingCore), plural(len(p.MissingCore), "it", "them"))
		case expect.fresh && !p.NothingLive:
			sayf(e.stderr, "--fresh-install: the live file holds objects of the stack (the plan names them), so the install is not fresh: not safe to apply as one; check the release, the namespace and %s, or plan the apply over the live stack without --fresh-install", liveSource(rf.live))
		case !expect.fresh && p.NothingLive:
			sayf(e.stderr, "the live file holds nothing of the stack, so the plan is of a fresh install: not safe to apply unless the stack does not exist; check the kubectl get that wrote %s (did it fail? its namespace, context and kinds), or plan a fresh install with --fresh-install", liveSource(rf.live))
		}
		// The plan's own verdict, the one its text and JSON print
		// (Result.Summary): nothing live (without --fresh-install), a
		// live stack (with it) and --expect-existing are decisions in it.
		if !p.SafeToApply() {
			return &exitStatus{exitUnsafe}
		}
		return nil
	})
	return cmd
}

// runPlan runs 'etcdshapes plan ARGS...'.
func runPlan(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(append([]string{"plan"}, args...), stdin, stdout, stderr)
}

// expectation is what plan's --expect-existing and --fresh-install say
// of the stack: it exists, or it does not yet; never both.
type expectation struct{ existing, fresh bool }

func planLive(rf *renderFlags, output, fieldManager string, expect expectation, stdin io.Reader, stderr io.Writer) (*plan.Result, error) {
	if err := rf.check("plan"); err != nil {
		return nil, err
	}
	switch {
	case rf.live == "":
		return nil, &usageError{errors.New("--live is required (the live objects, as kubectl get -o yaml prints them)")}
	case output != "text" && output != "json":
		return nil, usagef("--output must be text or json, not %q", output)
	case expect.existing && expect.fresh:
		return nil, usagef("--fresh-install and --expect-existing contradict each other: --fresh-install says the stack does not exist yet, --expect-existing that it does; give one")
	}
	if err := checkStdin(rf.stdinUsers()); err != nil {
		return nil, err
	}
	if err := apply.ValidateFieldManager("--field-manager", fieldManager); err != nil {
		return nil, err
	}

	live, err := rf.liveObjects(stdin)
	if err != nil {
		return nil, err
	}
	// A live state flag that contradicts the live file is refused, as
	// render refuses it: the render command the plan prints must render
	// what it planned.
	if err := rf.checkLive(live); err != nil {
		return nil, err
	}
	// Live state flags that are not given are read from the live objects.
	req, err := rf.request(stdin)
	if err != nil {
		return nil, err
	}
	if rf.restored, err = rf.readRestore(stdin); err != nil {
		return nil, err
	}
	opts := []plan.Option{plan.AsFieldManager(fieldManager)}
	if expect.existing {
		opts = append(opts, plan.ExpectExisting())
	}
	if expect.fresh {
		opts = append(opts, plan.FreshInstall())
	}
	var mods []apply.Modifier
	if rf.restored != nil {
		mods = append(mods, rf.restored.modifier(rf))
	}
	p, _, err := plan.ForRequestWith(req, live, opts, mods...)
	if err != nil {
		return nil, rf.liveError(err)
	}
	if rf.restored != nil {
		ds := req.Live.DataStoreName
		if ds == "" && rf.caller == naming.CallerCluster {
			if st, err := plan.LiveStateFromObjects(rf.namespace, rf.release, live); err == nil {
				ds = st.DataStoreName
			}
		}
		if err := rf.checkRestored(rf.restored, ds); err != nil {
			return nil, err
		}
	}
	p.RenderCommand = rf.renderCommand()
	p.RenderReadsStdin = rf.readsStdin()
	// The APIs a live object proves served are planned as listed, so
	// their groups' other entries are no mistake.
	apis := req.APIVersions
	for _, a := range p.InferredAPIs {
		apis = append(apis, a.API)
	}
	warn(stderr, releaseWarnings(rf.caller, rf.release))
	warn(stderr, rf.valueWarnings(req.Values))
	warn(stderr, rf.apiWarnings(apis))
	rf.sayRestore(stderr, live)
	return p, nil
}

// namesLive reports whether a plan's error is about a live object (a
// field "live[i]..."), which the CLI names by its file as it does every
// other refusal of the live file.
func namesLive(err error) bool {
	for _, e := range invalid.All(err) {
		if strings.HasPrefix(e.Field, "live[") || e.Field == "live" {
			return true
		}
	}
	return false
}

// liveSource names the live file for a message: its path, or stdin for
// --live -.
func liveSource(live string) string {
	if live == "-" {
		return "stdin (--live -)"
	}
	return live
}

// refsText is "EtcdCluster ns/name and DataStore name".
func refsText(refs []plan.ObjectRef) string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.String()
	}
	return strings.Join(out, " and ")
}

// plural is one for a count of 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

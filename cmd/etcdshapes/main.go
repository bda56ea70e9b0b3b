// Command etcdshapes renders the etcd stacks of Cozystack's etcd and
// kubernetes charts from the etcdshapes builders, reading the charts' own
// values files and Helm's --set flags.
//
//	etcdshapes render etcd    [RELEASE] --namespace NS [-f VALUES]... [--set KEY=VALUE]... [--chart-version V]
//	                          [--live FILE] [--restore-from FILE [--restore-snapshot NAME]]
//	etcdshapes render cluster RELEASE --namespace NS [-f VALUES]... [--set KEY=VALUE]... [--chart-version V]
//	                          [--api-versions GROUP/VERSION/Kind]... [--live FILE] [--live-datastore NAME]
//	                          [--live-storage-class NAME] [--restore-from FILE [--restore-snapshot NAME]]
//	etcdshapes render snapshot etcd|cluster [RELEASE] --namespace NS (--name NAME | --schedule CRON [--keep N]) DESTINATION
//	etcdshapes render check etcd|cluster [RELEASE] --namespace NS [--load s|m|l|xl] [--datascale]
//	etcdshapes gen chart --caller etcd|cluster --out DIR [--chart-version V] [--force]
//	etcdshapes gen chart --library [--caller etcd|cluster] --out DIR [--force]
//	etcdshapes plan etcd|cluster [RELEASE] --live FILE <render flags> [--output text|json] [--field-manager NAME]
//	etcdshapes version
//	etcdshapes completion bash|zsh|fish|powershell
//
// RELEASE is the Helm release, given as helm template's NAME is or as
// --release RELEASE (both: the same); the etcd chart's is "etcd", the
// default, a tenant cluster's is required.
//
// The flags are POSIX/GNU style, as kubectl's and helm's (spf13/pflag):
// -ntenant-demo, -n tenant-demo, --namespace=tenant-demo. Go-style
// single-dash long flags (-namespace tenant-demo) are still accepted.
// Every command answers -h or --help, and 'etcdshapes help COMMAND', with
// its own help on stdout.
//
// Render output is multi-document YAML on stdout (-o json: one v1 List);
// errors go to stderr with a non-zero exit: 1 bad input, 2 usage, 3 a plan
// that is not safe to apply or an --output-dir render that would remove
// objects holding state, 128+N a directory write stopped by signal N.
package main

import (
	"errors"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/internal/errwriter"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/spf13/cobra"
)

// Synopses, shared by the overview and each command's help.
const (
	synopsisRenderEtcd = "  etcdshapes render etcd    [RELEASE] --namespace NS [-f VALUES]... [--set KEY=VALUE]...\n" +
		"                            [--chart-version V] [--live FILE]\n" +
		"                            [--restore-from FILE [--restore-snapshot NAME]]\n" +
		"                            [-o yaml|json] [--output-dir DIR] [--show-only KIND[/NAME]]...\n"
	synopsisRenderCluster = `  etcdshapes render cluster RELEASE --namespace NS [-f VALUES]... [--set KEY=VALUE]...
                            [--chart-version V] [--api-versions GROUP/VERSION/Kind]...
                            [--live FILE] [--live-datastore NAME] [--live-storage-class NAME]
                            [--restore-from FILE [--restore-snapshot NAME]]
                            [-o yaml|json] [--output-dir DIR] [--show-only KIND[/NAME]]...
`
	synopsisGen = `  etcdshapes gen chart --caller etcd|cluster --out DIR [--chart-version V] [--force]
  etcdshapes gen chart --library --out DIR [--chart-version V] [--force]
`
	synopsisPlan = "  etcdshapes plan etcd|cluster [RELEASE] --live FILE <render flags> [--output text|json] [--field-manager NAME]\n"
	synopsisMore = "  etcdshapes version\n  etcdshapes completion bash|zsh|fish|powershell\n"

	// aboutRelease follows the synopses of the commands that take a
	// release.
	aboutRelease = `
  RELEASE is the Helm release, given as helm template's NAME ('render cluster kubernetes-demo')
  or as --release RELEASE; given both ways, it must be the same release.
`
	aboutRenderEtcd = `  render etcd      the etcd chart: one shared etcd per tenant namespace, named "etcd".
                   Values: version, replicas, size, storageClass, resources (flat map),
                   affinity, auth (enabled, rootCredentialsSecret: etcd authentication,
                   off by default, for a new etcd only; docs/auth.md), and the
                   platform's _cluster map. Unknown keys are refused;
                   _cluster keys it does not read are ignored, and one that resembles a
                   key it reads (cpu_allocation_ratio) is warned about on stderr.
`
	aboutRenderCluster = `  render cluster   the kubernetes chart's etcd for one tenant cluster, named after its
                   release: "RELEASE-etcd", e.g. kubernetes-demo-etcd for release
                   kubernetes-demo. Cozystack names tenant cluster <name>'s release
                   "kubernetes-<name>"; a RELEASE without that prefix renders as given
                   ("demo-etcd" for demo), with a warning on stderr.
                   Values: etcd.replicas (1 or 3), etcd.auth (as the etcd chart's auth)
                   and _cluster
                   (allocation ratios, scheduling.globalAppTopologySpreadConstraints,
                   etcd-storage-class-local, etcd-storage-class-replicated); unknown keys
                   under etcd: are refused, other keys are ignored (the chart has many),
                   and an ignored key that resembles a key read at its level (etcdd,
                   Etcd, _cluster.cpu_allocation_ratio: the same but for case, "-" and
                   "_", or a few letters off) is warned about on stderr, one line a key.
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
	aboutValues = `Values: -f files merge first, in order, like helm -f (maps merge key by key, a later
file wins, null deletes a default). Then the --set family is laid over them in Helm's
order, whatever the order on the command line: every --set-json, then --set,
--set-string, --set-file and --set-literal, each in the order given, with Helm's own
syntax and types (--set a.b=1,c[0]=x,d={x,y}; whole numbers become numbers, true and
false booleans, null deletes a default; --set-string keeps strings). A quantity (size,
resources) must be at most 64 characters long, with an exponent (e/E) between -99 and 99,
below 2^63 (8Ei) as a float64, and one the charts' float64 arithmetic holds exactly: at
most 15 significant digits in its number and in its value (999999Gi is 16), a whole
number of nano-units (not 1.5n), a float64 from 2^53 on. The size is at least 256Mi
(etcd's write-ahead log takes 128 MB before a key is stored), a memory limit 0 (none) or
at least 32Mi (a member holds 32 MiB before it stores a key). A ratio is at most 64
characters, the spread constraints' string 32 KiB. A number (or a ratio) no float64
holds as written is refused, not read as another: -0, 1e-400 (read as 0),
3.0000000000000000001 (read as 3); write at most 15 significant digits. A values file
holds at most 16 MiB and 250,000 YAML nodes (a block scalar or a string is one node);
an argument of the --set family must be UTF-8.
`
	aboutOutput = `Output: multi-document YAML on stdout in helm template's order (Helm's install order of
kinds, then the hooks, which helm install runs at their events); -o json prints one v1
List (as kubectl get -o json does), which kubectl apply and plan --live read. What render
prints is what helm install creates: the Helm uninstall hooks (the post-delete cleanup
ServiceAccount, Role, RoleBinding and Job, whose Job deletes the etcd's TLS Secrets, and
the etcd chart's data volumes, as soon as it is created) are left out, and stderr says
which and what their cleanup deletes; --include-hooks (or ` + envIncludeHooks + `=1) prints them too, as helm template
does, for golden comparisons and Helm-like diffs, never to apply. --output-dir writes one
file per object instead (NN-kind-name.yaml|json, NN the object's place in the whole stack),
never replacing or removing a file it did not write (--force replaces regular files), nor
writing into a directory another command or stack wrote; a render with --show-only never
removes a file, and one without it removes the file of an object that holds state (an
EtcdCluster, DataStore, EtcdSnapshot, CA Certificate, Issuer or Secret) or of a kind an
API gates (network policy, VPA, scrape, dashboard: a forgotten --api-versions) only with
--prune-unsafe (else exit 3, naming the files and the API); the summary names each file
removed and what became of its objects. The files change as a whole: an error,
SIGINT or SIGTERM leaves the old set, a killed run is undone or finished by the next one
(exit 128+N after a signal). --show-only KIND[/NAME] prints only the
objects it matches (a kind or resource name in any case, as kubectl get reads it; without
NAME every object of the kind; NAME may be a glob); each must match something, an
uninstall hook only with --include-hooks, and a KIND the render holds none of is refused
with the kinds it holds.
Errors go to stderr with a non-zero exit: 1 bad input (every bad input, one a line,
the first being what the chart prints), 3 an --output-dir render that would remove
objects holding state or of a kind an API gates (without --prune-unsafe), 2 usage (` + envIncludeHooks + ` other than
1, true, 0, false or empty included); output that cannot be written (a closed pipe,
a full disk) exits 1. What a message quotes of the input is escaped as Go quotes
strings ("\n", "\x1b", "\u202e"): no control character reaches the terminal.
`
	aboutRestore = `Restore: --restore-from FILE reads the namespace's EtcdSnapshots (kubectl get
etcdsnapshots.etcd-operator.cozystack.io -n NS -o yaml > FILE; "-" reads stdin) and seeds the
stack's EtcdCluster, and nothing else, from the newest snapshot of its cluster that completed
(phase Complete), or from the one --restore-snapshot NAME names: spec.bootstrap.restore.source,
the snapshot's file. Snapshots of other clusters are never taken; none Complete is refused,
naming the phases found. The CRD takes spec.bootstrap on a new cluster only: delete the live
EtcdCluster first, and plan with a live file fetched after (docs/procedures.md, "Recover from
a snapshot"); the render command a plan prints names the snapshot it planned.
`
	exampleRenderCluster = "  etcdshapes render cluster kubernetes-demo -n tenant-demo --set etcd.replicas=1 -o json\n"
	exampleRenderEtcd    = "  etcdshapes render etcd --namespace tenant-root -f values.yaml --show-only EtcdCluster\n"
)

// env is where a command line reads and writes.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func main() {
	os.Exit(command(os.Args[1:]))
}

// command is the process: run on the process's streams, with SIGPIPE
// ignored. Go's runtime otherwise kills a process whose write to stdout
// or stderr finds the pipe closed (exit 141 in a shell, with nothing
// said), as in 'etcdshapes render ... | true' once true has exited; ignored, the write
// fails with EPIPE like any other write, and the command exits 1.
func command(args []string) int {
	signal.Ignore(syscall.SIGPIPE)
	return run(args, os.Stdin, os.Stdout, os.Stderr)
}

// run is the whole command, testable without a process: it returns the
// exit status after printing any error. Output that cannot be written, on
// stdout (said on stderr) or on stderr (said nowhere), makes the status 1,
// whatever it would have been.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out, errOut := errwriter.New(stdout), errwriter.New(stderr)
	code := runOn(args, stdin, out, errOut)
	if errOut.Err() != nil {
		return exitError
	}
	return code
}

func runOn(args []string, stdin io.Reader, out *errwriter.Writer, stderr io.Writer) int {
	cmd, err := execute(args, stdin, out, stderr)
	var re *runError
	if out.Err() != nil && !errors.As(err, &re) {
		// Output that could not be written, by cobra itself (help,
		// version, completion scripts), which ignores the error or
		// returns it unwrapped.
		sayErr(stderr, out.Err())
		return exitError
	}
	return report(cmd, err, stderr)
}

// execute runs the command line and returns the command it ran and its
// error, unreported.
func execute(args []string, stdin io.Reader, stdout, stderr io.Writer) (*cobra.Command, error) {
	root := newRootCmd(env{stdin, stdout, stderr})
	if isCompletionRequest(args) {
		registerCompletions(root)
	}
	root.SetArgs(normalizeArgs(root, args))
	return root.ExecuteC()
}

func newRootCmd(e env) *cobra.Command {
	root := &cobra.Command{
		Use:   "etcdshapes",
		Short: "Render the etcd objects of Cozystack's charts as typed, validated YAML",
		Long: `etcdshapes renders the etcd objects of Cozystack's charts as typed, validated YAML.

` + synopsisRenderEtcd + synopsisRenderCluster + synopsisRenderSnapshot + synopsisRenderCheck + synopsisGen + synopsisPlan + synopsisMore + aboutRelease + `
` + aboutRenderEtcd + aboutRenderCluster + aboutRenderSnapshot + aboutRenderCheck + aboutGen + aboutPlan + `
` + aboutValues + `
` + aboutOutput,
		Example:       strings.TrimSuffix(exampleRenderCluster+exampleRenderEtcd, "\n"),
		Version:       moduleVersion(),
		Args:          nil, // cobra's own check: unknown commands, with suggestions
		SilenceErrors: true,
		SilenceUsage:  true,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return errNoSubcommand
		}),
	}
	// No custom templates (SetVersionTemplate, SetUsageTemplate,
	// SetHelpTemplate): cobra's defaults are plain Go, while text/template's
	// reflection keeps the linker from dropping unused methods, which
	// grows the binary from 18.6 MB to 30 MB.
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	// --version without cobra's -v shorthand: kubectl users read -v as
	// log verbosity (kubectl -v=6), and etcdshapes has no levels of
	// logging to offer (it prints its objects and, on stderr, warnings
	// and errors only), so -v is not a flag at all: a verbosity flag that
	// changed nothing would mislead, and -v printing the version would
	// surprise. -v, -v=6 or -vv is a usage error that says so (verbosityHint).
	root.Flags().Bool("version", false, "print the version the build recorded ('etcdshapes version' prints more)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{verbosityHint(err)} })
	root.AddCommand(newRenderCmd(e), newGenCmd(e), newPlanCmd(e), newVersionCmd(e))
	root.SetHelpCommand(newHelpCmd())
	root.InitDefaultHelpCmd()
	// cobra's completion command (bash, zsh, fish, powershell); without a
	// shell it is a usage error, as for every command that needs a
	// subcommand (cobra would print its help and exit 0).
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.RunE = runE(func(*cobra.Command, []string) error { return errNoSubcommand })
			completionHelp(c)
		}
	}
	refuseEmptyFlags(root)
	return root
}

// bashCompletionNeed is what the bash script needs, said by 'completion
// --help' and 'completion bash --help': cobra's bash script (its V2) calls
// _get_comp_words_by_ref and _filedir, which the bash-completion package
// defines; a bare bash without it sources the script without a word and
// then fails at every TAB.
const bashCompletionNeed = `The bash script needs the bash-completion package loaded in the shell: it calls that
package's _get_comp_words_by_ref and _filedir (checked with bash-completion 2.11; version 2
needs bash 4.1 or newer). On a bare bash, 'source <(etcdshapes completion bash)' succeeds
silently, then every TAB prints "_get_comp_words_by_ref: command not found" and completes
nothing. 'type _get_comp_words_by_ref' says whether it is loaded; install it with the
package manager (apt install bash-completion, dnf install bash-completion, brew install
bash-completion@2 and the line brew prints for ~/.bash_profile) and start a new shell.
zsh, fish and powershell need nothing beyond their own completion systems.
`

// completionHelp gives cobra's completion command and its bash
// subcommand the help that says what the bash script needs.
func completionHelp(c *cobra.Command) {
	c.Long = "etcdshapes completion prints the shell completion script of etcdshapes (commands, flags\n" +
		"and their values) for bash, zsh, fish or powershell on stdout; each shell's help says how\n" +
		"to load it.\n\n" + bashCompletionNeed
	for _, sub := range c.Commands() {
		// The flags exist (-h, --no-descriptions): say so in the usage line.
		sub.DisableFlagsInUseLine = false
		if sub.Name() != "bash" {
			continue
		}
		sub.Long = "Generate the autocompletion script for the bash shell.\n\n" + bashCompletionNeed + `
To load completions in your current shell session:

	source <(etcdshapes completion bash)

To load completions for every new session, execute once:

#### Linux:

	etcdshapes completion bash > /etc/bash_completion.d/etcdshapes

  or, for your user only (bash-completion 2 loads it when first needed):

	etcdshapes completion bash > ~/.local/share/bash-completion/completions/etcdshapes

#### macOS:

	etcdshapes completion bash > $(brew --prefix)/etc/bash_completion.d/etcdshapes

You will need to start a new shell for this setup to take effect.
`
	}
}

// newHelpCmd is 'etcdshapes help [COMMAND]...': the command's help on
// stdout, exit 0; an unknown command is a usage error (cobra's own help
// command exits 0 on one).
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help prints the help of any command, e.g. 'etcdshapes help render cluster'.",
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				return usagef("unknown help topic %q", strings.Join(args, " "))
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			cmd, _, err := c.Root().Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []cobra.Completion
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					names = append(names, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
	}
}

func newRenderCmd(e env) *cobra.Command {
	cmd := parentCommand(&cobra.Command{
		Use:   "render etcd|cluster|snapshot|check",
		Short: "Print the objects of one stack",
		Long: `etcdshapes render prints the objects of one stack.

` + synopsisRenderEtcd + synopsisRenderCluster + synopsisRenderSnapshot + synopsisRenderCheck + aboutRelease + `
` + aboutRenderEtcd + aboutRenderCluster + aboutRenderSnapshot + aboutRenderCheck + `
` + aboutValues + `
` + aboutOutput,
		Example: strings.TrimSuffix(exampleRenderCluster+exampleRenderEtcd, "\n"),
	}, func(arg string) error {
		return usagef("unknown caller %q (want etcd, cluster, snapshot or check)", arg)
	})
	cmd.AddCommand(newRenderCallerCmd(e, naming.CallerEtcd), newRenderCallerCmd(e, naming.CallerCluster), newRenderSnapshotCmd(e), newRenderCheckCmd(e))
	return cmd
}

func newRenderCallerCmd(e env, caller naming.Caller) *cobra.Command {
	var rf renderFlags
	cmd := callerCommand(caller, callerHelp{
		use:   "etcd [RELEASE] --namespace NS [-f VALUES]... [--set KEY=VALUE]... [flags]",
		short: `The etcd chart's stack: one shared etcd per tenant namespace, named "etcd"`,
		long: "etcdshapes render etcd renders the etcd chart's stack for a tenant namespace.\n\n" +
			synopsisRenderEtcd + aboutRelease + "\n" + aboutRenderEtcd + "\n" + aboutValues + "\n" + aboutRestore + "\n" + aboutOutput,
		example: strings.TrimSuffix(exampleRenderEtcd, "\n"),
	}, callerHelp{
		use:   "cluster RELEASE --namespace NS [-f VALUES]... [--set KEY=VALUE]... [flags]",
		short: `The kubernetes chart's etcd for one tenant cluster, named "<release>-etcd"`,
		long: "etcdshapes render cluster renders the kubernetes chart's etcd stack for one tenant cluster.\n\n" +
			synopsisRenderCluster + aboutRelease + "\n" + aboutRenderCluster + "\n" + aboutValues + "\n" + aboutRestore + "\n" + aboutOutput,
		example: strings.TrimSuffix(exampleRenderCluster, "\n"),
	})
	rf.register(cmd, caller)
	cmd.Flags().StringVar(&rf.live, "live", "", liveHelp)
	_ = cmd.MarkFlagFilename("live", "yaml", "yml", "json")
	of := printObjects(cmd, e, caller, func() string { return stackName(caller, rf.namespace, rf.release) }, func() ([]etcdshapes.Object, error) { return renderObjects(&rf, e) })
	of.served = func() []string { return rf.served }
	return cmd
}

// renderObjects renders the stack the flags describe; a tenant cluster
// that stays on a shared datastore renders nothing, which is said on
// stderr.
func renderObjects(rf *renderFlags, e env) ([]etcdshapes.Object, error) {
	if err := rf.check("render"); err != nil {
		return nil, err
	}
	if err := checkStdin(rf.stdinUsers()); err != nil {
		return nil, err
	}
	req, err := rf.request(e.stdin)
	if err != nil {
		return nil, err
	}
	var live []etcdshapes.Object
	if rf.live != "" {
		// The live state as plan reads it, with plan's own code, so
		// that the render is the one the plan compared with.
		if live, err = rf.liveObjects(e.stdin); err != nil {
			return nil, err
		}
		if err := rf.checkLive(live); err != nil {
			return nil, err
		}
		if req, err = plan.RequestFromLive(req, live); err != nil {
			return nil, rf.liveError(err)
		}
	}
	if rf.restored, err = rf.readRestore(e.stdin); err != nil {
		return nil, err
	}
	objs, err := etcdshapes.Render(req)
	if err != nil {
		return nil, err
	}
	if rf.restored != nil {
		// The stack's EtcdCluster only, as the Go procedure does:
		// apply.Modify(objs, apply.ForKind(etcd.Restore(src))).
		if err := apply.Modify(objs, rf.restored.modifier(rf)); err != nil {
			return nil, err
		}
		if err := rf.checkRestored(rf.restored, req.Live.DataStoreName); err != nil {
			return nil, err
		}
	}
	rf.served = req.APIVersions
	rf.sayRestore(e.stderr, live)
	warn(e.stderr, releaseWarnings(rf.caller, rf.release))
	warn(e.stderr, rf.valueWarnings(req.Values))
	warn(e.stderr, rf.apiWarnings(req.APIVersions))
	warn(e.stderr, etcdshapes.StorageClassWarnings(req))
	if rf.caller == naming.CallerCluster && len(objs) == 0 {
		sayf(e.stderr, "the cluster stays on the shared datastore %q; no etcd objects rendered", req.Live.DataStoreName)
	}
	return objs, nil
}

// render renders like 'etcdshapes render CALLER ARGS...' and returns the
// output and the error, unreported.
func render(caller naming.Caller, args []string, stdin io.Reader, stderr io.Writer) ([]byte, error) {
	var out strings.Builder
	_, err := execute(append([]string{"render", caller.String()}, args...), stdin, &out, stderr)
	var re *runError
	if errors.As(err, &re) {
		err = re.err
	}
	return []byte(out.String()), err
}

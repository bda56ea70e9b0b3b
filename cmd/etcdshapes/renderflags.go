package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/strvals"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// renderFlags are the flags that describe one render; render and plan share
// them so that a plan always describes what render would print.
type renderFlags struct {
	caller                           naming.Caller
	namespace, release, chartVersion string
	valueFiles, apiVersions          []string
	apiFlag                          *apiVersionsValue
	sets                             strvals.Sets
	liveDataStore, liveStorageClass  string
	// live is --live FILE: the live objects plan compares the render
	// with, and render reads the live state from as plan does.
	live string
	// restoreFrom and restoreSnapshot are --restore-from FILE (the
	// namespace's EtcdSnapshots) and --restore-snapshot NAME; restored is
	// the snapshot they chose, once read.
	restoreFrom, restoreSnapshot string
	restored                     *restore
	flags                        *pflag.FlagSet
	// served are the APIs the render listed (Request.APIVersions), once
	// it rendered.
	served []string
}

func (r *renderFlags) register(cmd *cobra.Command, caller naming.Caller) {
	r.caller = caller
	fs := cmd.Flags()
	r.flags = fs
	fs.StringVarP(&r.namespace, "namespace", "n", "", "the tenant namespace `NS` (\"tenant-…\"); required")
	registerRelease(cmd, caller, &r.release)
	fs.StringVar(&r.chartVersion, "chart-version", "",
		"the calling chart's version `V` (SemVer, as Helm checks it), shown by the WorkloadMonitor (default "+monitoring.DefaultChartVersion+")")
	fs.StringArrayVarP(&r.valueFiles, "values", "f", nil,
		"a values `FILE` in the chart's shape; repeat to merge like helm -f (later files win, null\ndeletes a default); \"-\" reads stdin")
	fs.StringArrayVar(&r.sets.Values, "set", nil,
		"set `KEY=VALUE`[,KEY=VALUE]... after the -f files, as helm --set (whole numbers become\nnumbers, true/false booleans, null deletes a default)")
	fs.StringArrayVar(&r.sets.Strings, "set-string", nil, "set `KEY=VALUE`[,KEY=VALUE]... as helm --set-string: every value a string")
	fs.StringArrayVar(&r.sets.Files, "set-file", nil,
		"set `KEY=PATH`[,KEY=PATH]... as helm --set-file: the value is the file's content\n(16 MiB at most; \"-\" reads stdin)")
	fs.StringArrayVar(&r.sets.JSON, "set-json", nil, "set `KEY=JSON`[,KEY=JSON]... as helm --set-json (e.g. etcd='{\"replicas\":1}')")
	fs.StringArrayVar(&r.sets.Literals, "set-literal", nil, "set `KEY=VALUE` as helm --set-literal: the value taken literally, commas and all")
	gated := "The VPA, VMPodScrape, CiliumNetworkPolicy, PodMonitor and GrafanaDashboard render only when listed:"
	if caller == naming.CallerEtcd {
		gated = "The PodMonitor and GrafanaDashboard render only when listed (the VPA and VMPodScrape always):"
	}
	r.apiFlag = newAPIVersionsValue(&r.apiVersions)
	fs.VarP(r.apiFlag, "api-versions", "a",
		"a served `API` as GROUP/VERSION/Kind, as for helm template; repeat or comma-separate.\n"+
			gated+"\n  "+strings.Join(etcdshapes.OptionalAPIs(), "\n  ")+"\n"+
			"Values are read as helm template reads them (commas split, double quotes quote, spaces and\n"+
			"case are kept, a value is read up to its first line break) and an entry serves only the API\n"+
			"it equals byte for byte, as .Capabilities.APIVersions.Has. Nothing is refused: an entry that\n"+
			"is not GROUP/VERSION[/Kind] (\"cilium.io/v2/CiliumNetworkPolicy \"), or of one of their groups\n"+
			"while the list lacks its exact API (cilium.io/v2), renders nothing and is warned about on stderr.")
	completeFlag(cmd, "api-versions", etcdshapes.OptionalAPIs()...)
	if caller == naming.CallerCluster {
		fs.StringVar(&r.liveDataStore, "live-datastore", "",
			"spec.dataStoreName of the live KamajiControlPlane, a DataStore `NAME`. If it names another\ndatastore, the cluster stays there and nothing is rendered.")
		fs.StringVar(&r.liveStorageClass, "live-storage-class", "",
			"spec.storage.storageClassName of the live EtcdCluster, a StorageClass `NAME`; it is\nimmutable, so it wins over the _cluster classes (pass \"\" for a live cluster without one)")
		allowEmpty(cmd, "live-storage-class", "a live EtcdCluster without a storage class")
		completeFlag(cmd, "live-datastore")
		completeFlag(cmd, "live-storage-class")
	}
	r.registerRestore(cmd)
	for _, f := range []string{"namespace", "chart-version", "set", "set-string", "set-json", "set-literal"} {
		completeFlag(cmd, f)
	}
	_ = cmd.MarkFlagFilename("values", "yaml", "yml", "json")
}

// fixedCompletion completes a flag's value from a fixed list.
func fixedCompletion(values ...string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// check reports a missing or malformed flag; command names the command in
// the message ("render", "plan").
func (r *renderFlags) check(command string) error {
	if r.namespace == "" {
		return &usageError{errors.New("--namespace is required")}
	}
	if err := requireRelease(r.caller, r.release, command+" cluster"); err != nil {
		return err
	}
	if r.caller == naming.CallerCluster && r.flags.Changed("live-datastore") && r.liveDataStore == "" {
		return &usageError{errors.New("--live-datastore needs a DataStore name")}
	}
	return r.checkRestore()
}

// valueWarnings are the warnings about the values the command renders
// with: the keys the caller's chart ignores that resemble a key it reads
// (values.ClusterWarnings, values.EtcdChartWarnings).
func (r *renderFlags) valueWarnings(vals map[string]any) []string {
	if r.caller == naming.CallerCluster {
		return values.ClusterWarnings(vals)
	}
	return values.EtcdChartWarnings(vals)
}

// paths name the Request's inputs the flags set by the flags, so that
// the library refuses each under its flag (Request.Paths). A live state
// flag not given leaves its path the library's, "live.dataStoreName":
// with --live, plan reads that value from the live file.
func (r *renderFlags) paths() etcdshapes.RequestPaths {
	p := etcdshapes.RequestPaths{Names: namePaths, ChartVersion: field.NewPath("--chart-version")}
	if r.caller == naming.CallerCluster && r.flags.Changed("live-datastore") {
		p.LiveDataStoreName = field.NewPath("--live-datastore")
	}
	if r.caller == naming.CallerCluster && r.flags.Changed("live-storage-class") {
		p.LiveStorageClassName = field.NewPath("--live-storage-class")
	}
	return p
}

// flagLive is the live state the flags give.
func (r *renderFlags) flagLive() etcdshapes.LiveState {
	var l etcdshapes.LiveState
	if r.caller != naming.CallerCluster {
		return l
	}
	l.DataStoreName = r.liveDataStore
	if r.flags.Changed("live-storage-class") {
		sc := r.liveStorageClass
		l.StorageClassName = &sc
	}
	return l
}

// stdinUsers names the flags whose value is "-" (stdin), once per use.
func (r *renderFlags) stdinUsers() []string {
	var users []string
	if r.live == "-" {
		users = append(users, "--live")
	}
	if r.restoreFrom == "-" {
		users = append(users, "--restore-from")
	}
	for _, f := range r.valueFiles {
		if f == "-" {
			users = append(users, "-f")
		}
	}
	for _, p := range r.sets.FilePaths() {
		if isStdin(p) {
			users = append(users, "--set-file")
		}
	}
	return users
}

// isStdin reports whether a --set-file path means stdin (Helm trims it).
func isStdin(path string) bool { return strings.TrimSpace(path) == "-" }

// checkStdin refuses a command line on which more than one input reads
// stdin: the second would read nothing.
func checkStdin(users []string) error {
	if len(users) > 1 {
		return usagef("stdin (\"-\") can be read by one input only, not by %s and %s", strings.Join(users[:len(users)-1], ", "), users[len(users)-1])
	}
	return nil
}

// request reads the values files, lays the --set family over them and
// builds the render request. Live state flags that were not given stay
// unset.
func (r *renderFlags) request(stdin io.Reader) (etcdshapes.Request, error) {
	docs := make([][]byte, 0, len(r.valueFiles))
	for _, f := range r.valueFiles {
		b, err := readInput("--values", f, stdin)
		if err != nil {
			return etcdshapes.Request{}, err
		}
		docs = append(docs, b)
	}
	values, err := values.Merge(docs...)
	if err != nil {
		return etcdshapes.Request{}, err
	}
	err = r.sets.Apply(values, func(path string) ([]byte, error) {
		if isStdin(path) {
			path = "-"
		}
		return readInput(strvals.FlagFile, path, stdin)
	})
	if err != nil {
		return etcdshapes.Request{}, err
	}
	req := etcdshapes.Request{Caller: r.caller, Namespace: r.namespace, Release: r.release, ChartVersion: r.chartVersion, Values: values, Paths: r.paths()}
	req.APIVersions = append([]string(nil), r.apiVersions...)
	if r.caller != naming.CallerCluster {
		return req, nil
	}
	req.Live.DataStoreName = r.liveDataStore
	if r.flags.Changed("live-storage-class") {
		sc := r.liveStorageClass
		req.Live.StorageClassName = &sc
	}
	return req, nil
}

// liveHelp is render's --live: plan's live file, read alike.
const liveHelp = "the live objects `FILE` as 'kubectl get -o yaml' prints them, read as 'etcdshapes plan --live'\n" +
	"reads them (\"-\" reads stdin): the live state the plan reads (a tenant cluster's storage class\n" +
	"and datastore, the EtcdCluster's spec.bootstrap, the APIs live objects prove served) is\n" +
	"rendered as the plan rendered it; render with the plan's --live and flags to apply what it planned"

// liveObjects reads --live as plan reads it (readLiveObjects).
func (r *renderFlags) liveObjects(stdin io.Reader) ([]etcdshapes.Object, error) {
	return readLiveObjects(r.live, stdin)
}

// readLiveObjects reads a --live file, as plan, render and render check
// read it (readObjectsFile).
func readLiveObjects(path string, stdin io.Reader) ([]etcdshapes.Object, error) {
	return readObjectsFile("--live", path, stdin)
}

// readObjectsFile reads a file of objects as kubectl get prints them, for
// --live and --restore-from alike: the live input's limits (readInput),
// plan.ReadObjects, a refusal named by the flag and the file.
func readObjectsFile(flag, path string, stdin io.Reader) ([]etcdshapes.Object, error) {
	data, err := readInput(flag, path, stdin)
	if err != nil {
		return nil, err
	}
	objs, err := plan.ReadObjects(data)
	if err != nil {
		// The refusal names its place in the file; this, the file.
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return objs, nil
}

// liveError names the live file in an error about a live object, as
// ReadObjects' refusals are named: the file, then the place in it; any
// other refusal names the flag, as the request's paths name it.
func (r *renderFlags) liveError(err error) error {
	if namesLive(err) {
		return fmt.Errorf("--live %s: %w", r.live, err)
	}
	return err
}

// checkLive refuses a --live-storage-class or --live-datastore that
// contradicts the live file: both say what is live, and one of them is
// wrong; the render (or plan) of either would apply what the other does
// not expect, an immutable storage class refused or a stack on the wrong
// datastore. A flag the live file says nothing of (no live EtcdCluster,
// a KamajiControlPlane without spec.dataStoreName) is no contradiction.
func (r *renderFlags) checkLive(live []etcdshapes.Object) error {
	if r.caller != naming.CallerCluster {
		return nil
	}
	sc, ds := r.flags.Changed("live-storage-class"), r.flags.Changed("live-datastore")
	if !sc && !ds {
		return nil
	}
	// The names first, under their flags: LiveStateFromObjects refuses
	// them as "namespace" and "release".
	if _, err := naming.ClusterDataStoreAt(r.namespace, r.release, namePaths); err != nil {
		return err
	}
	st, err := plan.LiveStateFromObjects(r.namespace, r.release, live)
	if err != nil {
		// A live value the file and a flag both give (they agree, or
		// this is a contradiction) is refused as the flag's, which the
		// user typed; a value of the file alone, as the file's.
		if ferr := r.paths().ValidateLive(r.flagLive()); ferr != nil {
			return ferr
		}
		return r.liveError(err)
	}
	if sc && st.StorageClassName != nil && *st.StorageClassName != r.liveStorageClass {
		cluster, _ := naming.ClusterEtcdName(r.release) // LiveStateFromObjects checked it
		return usagef("--live-storage-class %q contradicts --live %s, whose EtcdCluster %s/%s has spec.storage.storageClassName %q: drop --live-storage-class (the live file says it) or fetch the live file again",
			r.liveStorageClass, r.live, r.namespace, cluster, *st.StorageClassName)
	}
	if ds && st.DataStoreName != "" && st.DataStoreName != r.liveDataStore {
		return usagef("--live-datastore %q contradicts --live %s, whose KamajiControlPlane %s/%s has spec.dataStoreName %q: drop --live-datastore (the live file says it) or fetch the live file again",
			r.liveDataStore, r.live, r.namespace, r.release, st.DataStoreName)
	}
	return nil
}

// readsStdin says whether the render reads its standard input: "-" as
// the --live or --restore-from file, a values file or a --set-file's file.
func (r *renderFlags) readsStdin() bool {
	return r.live == "-" || r.restoreFrom == "-" || slices.Contains(r.valueFiles, "-") || slices.Contains(r.sets.FilePaths(), "-")
}

// renderCommand is the 'etcdshapes render' command line these flags
// describe, each value one shell word: the flags as given, the --set
// family in Helm's order (the order it applies them in, whatever the
// command line's), --live, the restore flags, and --include-hooks=false.
// A plan prints it, so that what is applied is what was planned: a
// restore names the snapshot the plan restored from (--restore-snapshot),
// so that a snapshot completed since, in a file fetched again, does not
// change what is applied.
func (r *renderFlags) renderCommand() string {
	w := []string{"etcdshapes", "render", r.caller.String()}
	if r.release != "" {
		w = append(w, plan.ShellWord(r.release))
	}
	w = append(w, "-n", plan.ShellWord(r.namespace))
	add := func(flag string, vals ...string) {
		for _, v := range vals {
			w = append(w, flag, plan.ShellWord(v))
		}
	}
	add("-f", r.valueFiles...)
	add("--set-json", r.sets.JSON...)
	add("--set", r.sets.Values...)
	add("--set-string", r.sets.Strings...)
	add("--set-file", r.sets.Files...)
	add("--set-literal", r.sets.Literals...)
	if r.flags.Changed("chart-version") {
		add("--chart-version", r.chartVersion)
	}
	add("--api-versions", r.apiFlag.given...)
	if r.caller == naming.CallerCluster {
		if r.flags.Changed("live-datastore") {
			add("--live-datastore", r.liveDataStore)
		}
		if r.flags.Changed("live-storage-class") {
			add("--live-storage-class", r.liveStorageClass)
		}
	}
	if r.live != "" {
		add("--live", r.live)
	}
	if r.restoreFrom != "" {
		add("--restore-from", r.restoreFrom)
		switch {
		case r.restored != nil:
			add("--restore-snapshot", r.restored.snap.Name)
		case r.restoreSnapshot != "":
			add("--restore-snapshot", r.restoreSnapshot)
		}
	}
	// What a plan applies never holds the uninstall hooks (their cleanup
	// Job deletes the CAs and the volumes): say so on the command line,
	// which ETCDSHAPES_INCLUDE_HOOKS in the shell that runs it cannot
	// then override.
	w = append(w, "--include-hooks=false")
	return strings.Join(w, " ")
}

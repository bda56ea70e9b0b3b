package main

import (
	"errors"
	"github.com/etcdshapes/etcdshapes/values"
	"io"
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/strvals"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// renderFlags are the flags that describe one render; render and plan share
// them so that a plan always describes what render would print.
type renderFlags struct {
	caller                           string
	namespace, release, chartVersion string
	valueFiles, apiVersions          []string
	apiFlag                          *apiVersionsValue
	sets                             strvals.Sets
	liveDataStore, liveStorageClass  string
	flags                            *pflag.FlagSet
	// served are the APIs the render listed (Request.APIVersions), once
	// it rendered.
	served []string
}

func (r *renderFlags) register(cmd *cobra.Command, caller string) {
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
	if caller == etcdshapes.CallerEtcd {
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
	if caller == etcdshapes.CallerCluster {
		fs.StringVar(&r.liveDataStore, "live-datastore", "",
			"spec.dataStoreName of the live KamajiControlPlane, a DataStore `NAME`. If it names another\ndatastore, the cluster stays there and nothing is rendered.")
		fs.StringVar(&r.liveStorageClass, "live-storage-class", "",
			"spec.storage.storageClassName of the live EtcdCluster, a StorageClass `NAME`; it is\nimmutable, so it wins over the _cluster classes (pass \"\" for a live cluster without one)")
		allowEmpty(cmd, "live-storage-class", "a live EtcdCluster without a storage class")
		completeFlag(cmd, "live-datastore")
		completeFlag(cmd, "live-storage-class")
	}
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
	if r.caller == etcdshapes.CallerCluster && r.flags.Changed("live-datastore") && r.liveDataStore == "" {
		return &usageError{errors.New("--live-datastore needs a DataStore name")}
	}
	return nil
}

// valueWarnings are the warnings about the values the command renders
// with: the keys the caller's chart ignores that resemble a key it reads
// (values.ClusterWarnings, values.EtcdChartWarnings).
func (r *renderFlags) valueWarnings(vals map[string]any) []string {
	if r.caller == etcdshapes.CallerCluster {
		return values.ClusterWarnings(vals)
	}
	return values.EtcdChartWarnings(vals)
}

// inFlagTerms names the refusals of the inputs the flags set (the Request's
// namespace, release, chart version and live state) by the flags.
func (r *renderFlags) inFlagTerms(err error) error {
	return inFlagTerms(err, r.flags,
		flagField{field: "namespace", flag: "--namespace", value: &r.namespace},
		flagField{field: "release", flag: "--release", value: &r.release},
		flagField{field: "chartVersion", flag: "--chart-version", value: &r.chartVersion},
		flagField{field: "live.dataStoreName", flag: "--live-datastore", value: &r.liveDataStore},
		flagField{field: "live.storageClassName", flag: "--live-storage-class", value: &r.liveStorageClass})
}

// stdinUsers names the flags whose value is "-" (stdin), once per use.
func (r *renderFlags) stdinUsers() []string {
	var users []string
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
	req := etcdshapes.Request{Caller: r.caller, Namespace: r.namespace, Release: r.release, ChartVersion: r.chartVersion, Values: values}
	req.APIVersions = append([]string(nil), r.apiVersions...)
	if r.caller != etcdshapes.CallerCluster {
		return req, nil
	}
	req.Live.DataStoreName = r.liveDataStore
	if r.flags.Changed("live-storage-class") {
		sc := r.liveStorageClass
		req.Live.StorageClassName = &sc
	}
	return req, nil
}

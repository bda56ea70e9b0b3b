package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/invalid"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

const (
	synopsisCheckEtcd = `  etcdshapes render check etcd    [RELEASE] --namespace NS [--load s|m|l|xl] [--datascale]
                                  [--etcd-version X.Y.Z] [--size QUANTITY] [--live FILE] [--image IMAGE]
`
	synopsisCheckCluster = `  etcdshapes render check cluster RELEASE --namespace NS [--load s|m|l|xl] [--datascale]
                                  [--live FILE] [--image IMAGE]
`
	// synopsisRenderCheck is the overview's.
	synopsisRenderCheck = `  etcdshapes render check etcd|cluster [RELEASE] --namespace NS [--load s|m|l|xl] [--datascale]
`
	aboutRenderCheck = `  render check     a Job that runs etcdctl check perf (and check datascale) against the
                   stack's etcd (run 'etcdshapes render check --help').
`
	checkDetailsFormat = `
  The Job "<cluster>-check" runs etcdctl check perf, and with --datascale then check
  datascale, with the load --load (etcdctl's workload models: s, the default, writes 150
  keys a second for a minute; xl 15,000), through the cluster Service with the client
  certificate. Its image is etcd's release image of the cluster's version. The pod needs
  no Kubernetes API access: no ServiceAccount, Role or RoleBinding is rendered and no
  token is mounted. It runs at the Pod Security "restricted" level, a tenant cluster's
  pod carries policy.cozystack.io/allow-to-etcd-cluster, it is not retried, and the
  finished Job stays a day: kubectl logs job/<cluster>-check --all-containers.

  The checks write into the live cluster and load it: run them when the tenant control
  planes can take it. A load that would write more than half the quota is refused.
` + "%s" + `
  Output is multi-document YAML on stdout (-o json, --output-dir and --show-only as for
  'etcdshapes render etcd'); errors go to stderr with a non-zero exit.
`
)

// checkDetails are the help's details for caller "" (both), etcd or
// cluster: only the etcd chart's etcd has a version and size to give.
func checkDetails(caller naming.Caller) string {
	note := ""
	switch caller {
	case naming.CallerEtcd:
		note = "  Pass the etcd chart's values.version and values.size as --etcd-version and --size.\n"
	case naming.CallerCluster:
		note = "  A tenant cluster's etcd has the kubernetes chart's fixed version and size.\n"
	default:
		note = "  A tenant cluster's etcd has the kubernetes chart's fixed version and size; for the\n" +
			"  etcd chart, pass its values.version and values.size as --etcd-version and --size.\n"
	}
	return fmt.Sprintf(checkDetailsFormat, note+checkLiveNote)
}

// checkLiveNote is the help's word on --live.
const checkLiveNote = `  --live FILE (what 'kubectl get -o yaml' prints; "-" reads stdin) reads the live
  EtcdCluster of the stack: its spec.storage.size bounds the load (and its
  spec.options.quotaBackendBytes, where that is smaller: etcd's 2 GiB default where it is
  absent) and its spec.version picks etcdctl, over the flags and their defaults, since
  they are what the check runs against; stderr warns when they differ from what the
  flags (or their defaults) say.
`

// newRenderCheckCmd is 'etcdshapes render check' and its two callers.
func newRenderCheckCmd(e env) *cobra.Command {
	return callersCommand(e, &cobra.Command{
		Use:   "check etcd|cluster",
		Short: "A Job that checks the etcd's performance with etcdctl check perf",
		Long: "etcdshapes render check renders a Job that checks a stack's etcd with etcdctl check perf and, optionally, check datascale.\n\n" +
			synopsisCheckEtcd + synopsisCheckCluster + aboutRelease + checkDetails(""),
	}, newRenderCheckCallerCmd)
}

// checkFlags are the flags of render check etcd|cluster.
type checkFlags struct {
	namespace, release, load, version, size, image, live string
	datascale                                            bool
}

func newRenderCheckCallerCmd(e env, caller naming.Caller) *cobra.Command {
	var cf checkFlags
	cmd := callerCommand(caller, callerHelp{
		use:   "etcd [RELEASE] --namespace NS [--load s|m|l|xl] [--datascale] [flags]",
		short: "Check the etcd chart's etcd with etcdctl check perf",
		long: "etcdshapes render check etcd renders a Job that checks the etcd chart's etcd with etcdctl.\n\n" +
			synopsisCheckEtcd + aboutRelease + checkDetails(naming.CallerEtcd),
	}, callerHelp{
		use:   "cluster RELEASE --namespace NS [--load s|m|l|xl] [--datascale] [flags]",
		short: "Check a tenant cluster's etcd with etcdctl check perf",
		long: "etcdshapes render check cluster renders a Job that checks a tenant cluster's etcd with etcdctl.\n\n" +
			synopsisCheckCluster + aboutRelease + checkDetails(naming.CallerCluster),
	})
	fs := cmd.Flags()
	fs.StringVarP(&cf.namespace, "namespace", "n", "", "the stack's tenant namespace `NS` (\"tenant-…\"); required")
	if caller == naming.CallerEtcd {
		fs.StringVar(&cf.version, "etcd-version", "", fmt.Sprintf("the cluster's etcd `X.Y.Z` (the chart's values.version), whose etcdctl runs (default %s)", etcd.DefaultVersion))
		fs.StringVar(&cf.size, "size", "", fmt.Sprintf("the cluster's data volume `QUANTITY` (the chart's values.size), whose quota bounds the load\n(default %s; at least %s; at most 15 significant digits and 64 characters, whole nano-units)", etcd.DefaultSize, etcd.MinSize))
		completeFlag(cmd, "etcd-version")
		completeFlag(cmd, "size")
	}
	registerRelease(cmd, caller, &cf.release)
	fs.StringVar(&cf.live, "live", "", "the live objects `FILE` as 'kubectl get -o yaml' prints them (\"-\" reads stdin): the stack's\n"+
		"EtcdCluster's spec.storage.size and spec.version are what the check runs against, and win\n"+
		"over the flags and their defaults (a warning on stderr says when they differ)")
	_ = cmd.MarkFlagFilename("live", "yaml", "yml", "json")
	fs.StringVar(&cf.load, "load", etcd.DefaultCheckLoad, "etcdctl's workload `MODEL`: s, m, l or xl")
	fs.BoolVar(&cf.datascale, "datascale", false, "also run etcdctl check datascale after check perf")
	fs.StringVar(&cf.image, "image", "", "the `IMAGE` whose /usr/local/bin/etcdctl runs, for a registry of your own: a reference\nthe kubelet parses, registry and repository in lowercase (default "+etcd.EtcdImageRepository+":v<the cluster's version>)")
	completeFlag(cmd, "image")
	completeFlag(cmd, "load", "s", "m", "l", "xl")
	completeFlag(cmd, "namespace")
	printObjects(cmd, e, "", func() string { return stackName(caller, cf.namespace, cf.release) }, func() ([]etcdshapes.Object, error) {
		objs, err := checkObjects(caller, &cf, e.stdin, e.stderr)
		if err == nil {
			warn(e.stderr, releaseWarnings(caller, cf.release))
		}
		return objs, err
	})
	return cmd
}

func checkObjects(caller naming.Caller, f *checkFlags, stdin io.Reader, stderr io.Writer) ([]etcdshapes.Object, error) {
	if f.namespace == "" {
		return nil, &usageError{errors.New("--namespace is required")}
	}
	if err := requireRelease(caller, f.release, "render check cluster"); err != nil {
		return nil, err
	}
	// Every refusal is collected, in the order of the checks
	// (names, --size as a quantity, then CheckJob's), so that one run
	// names every bad flag.
	var (
		c   invalid.Collector
		n   naming.Names
		err error
		o   etcd.Options
		// skip are CheckJob's refusals a refusal above already stands for.
		// It stays (not validate-once) for two reasons: CheckJobAt
		// validates the names itself and refuses names the constructor
		// refused as "names" (it has no form that takes the options
		// without names), and --size is refused as text (the bounds
		// before ParseQuantity, whose cost grows with the number) before
		// CheckJobAt sees a quantity, which then needs refusedSize so
		// that the quota rule is not checked against a size the user
		// did not mean.
		skip = map[string]bool{}
	)
	if caller == naming.CallerEtcd {
		release := f.release
		if release == "" {
			release = naming.EtcdChartRelease
		}
		n, err = naming.ForEtcdChartAt(f.namespace, release, namePaths)
		// Unmade names: CheckJob's "names" refusal would only repeat it.
		skip["names"] = c.Add(err)
		o.Version = f.version
		if f.size != "" {
			var sizeErr error
			// The quantity bounds and the charts' rules before
			// ParseQuantity, whose cost grows with the number a text
			// spells; then a size's own rules (a positive size, at
			// least etcd.MinSize), all quoting the size as typed.
			rule := quantity.ChartRule(f.size)
			if rule == "" {
				if o.Size, err = resource.ParseQuantity(f.size); err != nil {
					rule = quantity.SyntaxRule
				} else {
					// Zero, the library's "default size", is a bad
					// size typed on the command line, as values.size: 0
					// is: QuotaBackendBytes refuses it.
					rule = sizeRule(o.Size)
				}
			}
			switch rule {
			case "":
			case quantity.SyntaxRule:
				sizeErr = invalid.Errorf("--size", f.size, "must be a quantity, e.g. %q", etcd.DefaultSize)
			default:
				sizeErr = invalid.Errorf("--size", f.size, "%s", rule)
			}
			if skip[sizeFlag] = c.Add(sizeErr); skip[sizeFlag] {
				o.Size = refusedSize()
			}
		}
	} else {
		n, err = naming.ForClusterAt(f.namespace, f.release, namePaths)
		skip["names"] = c.Add(err)
	}
	// flagOf names the flag (or the live field) that set each option.
	flagOf := maps.Clone(checkFlagOf)
	// paths name the options CheckJob validates by the flag that set
	// them, or the live field that replaced it.
	paths := etcd.Paths{Version: field.NewPath("--etcd-version"), Size: field.NewPath(sizeFlag)}
	var liveQuota int64
	if f.live != "" && !skip["names"] {
		live, err := liveClusterOf(f.live, stdin, n)
		if !c.Add(err) {
			var warnings []string
			if !skip[sizeFlag] && live.size != nil {
				given := o.Size
				what := "--size " + f.size
				if f.size == "" {
					given, what = resource.MustParse(etcd.DefaultSize), "the default size "+etcd.DefaultSize
					if caller == naming.CallerCluster {
						what = "the kubernetes chart's size " + etcd.DefaultSize
					}
				}
				if given.Cmp(*live.size) != 0 {
					warnings = append(warnings, fmt.Sprintf("the live %s has spec.storage.size %s, not %s: the check's quota guard uses the live size", live.ref, live.size.String(), what))
				}
				o.Size = *live.size
				paths.Size = field.NewPath("live: spec.storage.size")
			}
			if live.version != "" {
				given, what := f.version, "--etcd-version "+f.version
				if f.version == "" {
					given, what = etcd.DefaultVersion, "the default version "+etcd.DefaultVersion
					if caller == naming.CallerCluster {
						what = "the kubernetes chart's version " + etcd.DefaultVersion
					}
				}
				if given != live.version {
					warnings = append(warnings, fmt.Sprintf("the live %s has spec.version %s, not %s: the check runs etcdctl of the live version", live.ref, live.version, what))
				}
				o.Version = live.version
				paths.Version = field.NewPath("live: spec.version")
			}
			// The quota rule guards the quota the members run with.
			// The volume bounds it too: only a smaller quota than the
			// size's changes the guard, and only that is worth a warning.
			if sized, err := etcd.QuotaBackendBytes(o.Size); err == nil && live.quota < sized {
				what := "spec.options.quotaBackendBytes " + strconv.FormatInt(live.quota, 10)
				if live.quota == etcd.EtcdDefaultQuotaBackendBytes {
					what = "no spec.options.quotaBackendBytes (etcd's default " + strconv.FormatInt(live.quota, 10) + ")"
				}
				warnings = append(warnings, fmt.Sprintf("the live %s has %s, not the %s bytes of size %s: the check's quota guard uses the live quota", live.ref, what, strconv.FormatInt(sized, 10), o.Size.String()))
			}
			liveQuota = live.quota
			flagOf["QuotaBackendBytes"] = "live: spec.options.quotaBackendBytes"
			for _, w := range warnings {
				sayf(stderr, "warning: %s", w)
			}
		}
	}
	job, err := etcd.CheckJobAt(n, o, etcd.CheckOptions{Load: f.load, Datascale: f.datascale, Image: f.image, QuotaBackendBytes: liveQuota}, paths)
	c.AddEach(err, func(e *invalid.Error) *invalid.Error {
		if skip[e.Field] {
			return nil
		}
		return renamed(e, flagOf)
	})
	if err := c.Err(); err != nil {
		return nil, err
	}
	return []etcdshapes.Object{job}, nil
}

// refusedSize stands for a --size the command refused: a size CheckJob
// refuses as well (a negative one), since CheckJob checks its quota rule
// only for a valid size, so that no load is refused for a size the user
// did not mean; CheckJob's refusal of it is left out, as the --size
// refusal stands for it.
func refusedSize() resource.Quantity { return *resource.NewQuantity(-1, resource.BinarySI) }

// sizeFlag is the flag of the size.
const sizeFlag = "--size"

// checkFlagOf names the flag that set each CheckOptions field CheckJob may
// refuse, so that the error names what the user typed (the options' own
// are named by the paths CheckJobAt validates them under).
var checkFlagOf = map[string]string{
	"Load":  "--load",
	"Image": "--image",
}

// renamed is e with its field named as flagOf names it (the flag that set
// it, or the live field); a field flagOf does not name is kept.
func renamed(e *invalid.Error, flagOf map[string]string) *invalid.Error {
	if e == nil {
		return e
	}
	flag, ok := flagOf[e.Field]
	if !ok {
		return e
	}
	c := *e
	c.Field = flag
	return &c
}

// liveCluster is what render check reads of the stack's live EtcdCluster.
type liveCluster struct {
	ref     string             // "EtcdCluster NS/NAME", for messages
	size    *resource.Quantity // spec.storage.size; nil when absent
	version string             // spec.version; "" when absent
	// quota is the quota the members run with: spec.options'
	// quotaBackendBytes, or etcd's default where it is absent or 0 (the
	// CRD's word), whatever the size.
	quota int64
}

// liveClusterOf reads the live objects at path (plan reads them alike:
// every field it reads checked, a quantity through the bounds) and the
// stack's EtcdCluster among them: its size and version, each only where
// set. A file without the EtcdCluster is refused, naming what it holds.
func liveClusterOf(path string, stdin io.Reader, n naming.Names) (liveCluster, error) {
	objs, err := readLiveObjects(path, stdin)
	if err != nil {
		// readLiveObjects names the file in a refusal of its content, as
		// plan --live does; not wrapped here: the command's collector
		// would record the refusal without the file. A file that cannot
		// be read is named by the flag already.
		if strings.HasPrefix(err.Error(), "--live "+path+": ") {
			return liveCluster{}, errors.New(err.Error())
		}
		return liveCluster{}, err
	}
	gk := v1alpha2.SchemeGroupVersion.WithKind("EtcdCluster").GroupKind()
	ref := "EtcdCluster " + n.Namespace + "/" + n.Cluster
	var clusters []string
	for _, o := range objs {
		if o.GetObjectKind().GroupVersionKind().GroupKind() != gk {
			continue
		}
		clusters = append(clusters, o.GetNamespace()+"/"+o.GetName())
		if o.GetName() != n.Cluster || (o.GetNamespace() != "" && o.GetNamespace() != n.Namespace) {
			continue
		}
		u, ok := o.(*unstructured.Unstructured)
		if !ok {
			break
		}
		out := liveCluster{ref: ref}
		if v, found, _ := unstructured.NestedFieldNoCopy(u.Object, "spec", "storage", "size"); found && v != nil {
			// The check computes its quota guard from the live size:
			// it is held to what --size is held to, the charts' rules
			// and MinSize included (a live etcd below it never ran).
			q, rule := liveQuantity(v)
			if rule == "" {
				rule = sizeRule(q)
			}
			if rule != "" {
				return liveCluster{}, invalid.Errorf("live: spec.storage.size", v, "%s", rule)
			}
			out.size = &q
		}
		out.version, _, _ = unstructured.NestedString(u.Object, "spec", "version")
		out.quota = etcd.EtcdDefaultQuotaBackendBytes
		if v, found, _ := unstructured.NestedFieldNoCopy(u.Object, "spec", "options", "quotaBackendBytes"); found && v != nil {
			q, ok := liveInt64(v)
			if !ok || q < 0 {
				return liveCluster{}, invalid.Errorf("live: spec.options.quotaBackendBytes", v, "must be a whole number of bytes, 0 or more (the EtcdCluster CRD's int64)")
			}
			if q > 0 {
				out.quota = q
			}
		}
		return out, nil
	}
	found := "none"
	if len(clusters) > 0 {
		found = strings.Join(clusters, ", ")
	}
	return liveCluster{}, invalid.Errorf("--live", path, "holds no %s (EtcdClusters: %s): pass what 'kubectl get -n %s -o yaml etcdclusters.%s %s' prints", ref, found, n.Namespace, v1alpha2.GroupName, n.Cluster)
}

// sizeRule is the rule of etcd.QuotaBackendBytes that the size q breaks
// (its value's, its sign, etcd.MinSize), "" for none.
func sizeRule(q resource.Quantity) string {
	var ne *invalid.Error
	if _, err := etcd.QuotaBackendBytes(q); errors.As(err, &ne) {
		return ne.Rule
	}
	return ""
}

// liveInt64 is v as an int64, where it is one: an integer, or a float
// (what a YAML or JSON decoder may make of 2e9) with no fraction, in range.
func liveInt64(v any) (int64, bool) {
	switch t := v.(type) {
	case int64:
		return t, true
	case float64:
		if t == math.Trunc(t) && t >= math.MinInt64 && t < math.MaxInt64 {
			return int64(t), true
		}
	}
	return 0, false
}

// liveQuantity reads a live quantity as the plan does (a string, or a
// JSON number) through the bounds and the charts' rules before it is
// parsed: render check computes the quota guard from it.
func liveQuantity(v any) (resource.Quantity, string) {
	var s string
	switch t := v.(type) {
	case string:
		s = t
	case int64:
		s = strconv.FormatInt(t, 10)
	case float64:
		s = strconv.FormatFloat(t, 'f', -1, 64)
	default:
		return resource.Quantity{}, quantity.SyntaxRule
	}
	if rule := quantity.ChartRule(s); rule != "" {
		return resource.Quantity{}, rule
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return resource.Quantity{}, quantity.SyntaxRule
	}
	return q, ""
}

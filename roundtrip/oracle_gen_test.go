package roundtrip

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
	"sigs.k8s.io/yaml"
)

// The generator of TestUpstreamOracle. One seed gives one input of one
// caller: namespace, release, served APIs, live state and values in the
// caller's chart shape. Every choice is drawn from a class (size units,
// resources, ratios, spread constraints, affinity, tenant depths, name
// lengths at every limit, API sets, live state, platform values, replicas,
// version, storage class) and recorded, so that a run can show and require
// its coverage. About one input in four carries one deliberate fault (a
// value the library must refuse); the test does not trust the generator's
// notes to classify the outcome, it checks the input itself.

// oracleInput is one generated input.
type oracleInput struct {
	seed      int64
	caller    naming.Caller
	namespace string
	release   string
	apis      []string
	live      etcdshapes.LiveState
	values    map[string]any
	// classes are the generator's choices, "dimension/class".
	classes []string
}

// valuesYAML is the values file the input renders with (Helm and the
// library both read these bytes).
func (in oracleInput) valuesYAML() []byte {
	b, err := yaml.Marshal(in.values)
	if err != nil {
		panic(err) // generated values are plain maps, lists and scalars
	}
	return b
}

// describe prints the input for a failure message.
func (in oracleInput) describe() string {
	live := "none"
	if in.live.DataStoreName != "" || in.live.StorageClassName != nil {
		live = fmt.Sprintf("dataStoreName=%q", in.live.DataStoreName)
		if in.live.StorageClassName != nil {
			live += fmt.Sprintf(" storageClassName=%q", *in.live.StorageClassName)
		}
	}
	return fmt.Sprintf("seed %d, caller %s, namespace %q, release %q, apis %q, live %s\nclasses: %s\nvalues:\n%s",
		in.seed, in.caller, in.namespace, in.release, in.apis, live, strings.Join(in.classes, " "), in.valuesYAML())
}

type gen struct {
	r       *rand.Rand
	classes []string
	// fault is the one fault this input may carry ("" when none is
	// planned); each dimension that draws it consumes it.
	fault string
}

func (g *gen) note(dim, class string) { g.classes = append(g.classes, dim+"/"+class) }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) intn(n int) int { return g.r.Intn(n) }

func choose[T any](g *gen, xs ...T) T { return xs[g.r.Intn(len(xs))] }

// faulty reports whether the dimension dim carries this input's fault, and
// consumes it.
func (g *gen) faulty(dim string) bool {
	if g.fault == dim {
		g.fault = ""
		return true
	}
	return false
}

// faultDims are the dimensions a fault can be planted in, per caller.
var faultDims = map[naming.Caller][]string{
	naming.CallerEtcd:    {"namespace", "release", "version", "replicas", "size", "storageClass", "resources", "ratio", "spread", "affinity", "cluster"},
	naming.CallerCluster: {"namespace", "release", "replicas", "storageClass", "ratio", "spread", "cluster", "live"},
}

// generate draws the input of one seed for caller.
func generate(caller naming.Caller, seed int64) oracleInput {
	g := &gen{r: rand.New(rand.NewSource(seed))}
	if g.chance(0.25) {
		g.fault = choose(g, faultDims[caller]...)
		g.note("fault", g.fault)
	}
	in := oracleInput{seed: seed, caller: caller, values: map[string]any{}}
	in.namespace = g.namespace()
	in.apis = g.apiSet()
	if caller == naming.CallerEtcd {
		in.release = "etcd"
		if g.faulty("release") {
			in.release = choose(g, "etcd2", "etcd-a", "kubernetes-demo", "Etcd")
			g.note("release", "not-etcd")
		}
		g.etcdValues(in.values)
	} else {
		in.release = g.clusterRelease(in.namespace)
		g.clusterValues(in.values)
		in.live = g.liveState(in.namespace, in.release)
	}
	g.platform(caller, in.values)
	g.nulls(caller, in.values)
	in.classes = g.classes
	return in
}

// --- names

// tenantSegment is one tenant name of a namespace path.
func (g *gen) tenantSegment() string {
	return strings.TrimRight(choose(g, "a", "b", "abc", "demo", "prod", "x1", "team7", "q", "longer-name"[:5+g.intn(6)]), "-")
}

func (g *gen) namespace() string {
	if g.faulty("namespace") {
		g.note("namespace", "not-a-tenant")
		return choose(g, "default", "kube-system", "tenant-", "tenant--a", "tenant-a-", "tenant-A", "tenants-a", "tenant-"+strings.Repeat("n", 57))
	}
	switch k := g.intn(10); {
	case k == 0:
		g.note("namespace", "tenant-root")
		return "tenant-root"
	case k <= 6:
		depth := 1 + g.intn(5)
		g.note("namespace", fmt.Sprintf("depth-%d", depth))
		ns := "tenant"
		for i := 0; i < depth; i++ {
			ns += "-" + g.tenantSegment()
		}
		return ns
	default:
		// Long namespaces, up to the 63-character limit of a namespace.
		n := choose(g, 40, 50, 53, 54, 55, 56, 60, 62, 63)
		g.note("namespace", fmt.Sprintf("length-%d", n))
		ns := "tenant"
		for len(ns) < n-1 {
			ns += "-" + g.tenantSegment()
		}
		ns = ns[:min(len(ns), n)]
		ns = strings.TrimRight(ns, "-")
		for len(ns) < n {
			ns += "z"
		}
		return ns
	}
}

// clusterRelease is a kubernetes chart release, "kubernetes-<name>", at or
// around every length where a rule starts: the defrag CronJob name (52 with
// "-etcd-defrag"), the cleanup Job name (63 with "-etcd-cleanup"), the etcd
// name (56 with "-etcd") and the DataStore name (63 with "<ns>.").
func (g *gen) clusterRelease(ns string) string {
	if g.faulty("release") {
		g.note("release", "invalid")
		switch g.intn(5) {
		case 0:
			return g.releaseOfLength(52 + g.intn(12)) // etcd name over 56
		case 1:
			return "1kubernetes-" + g.tenantSegment()
		case 2:
			return "kubernetes." + g.tenantSegment()
		case 3:
			return "Kubernetes-" + g.tenantSegment()
		default:
			return "kubernetes-" + g.tenantSegment() + "-"
		}
	}
	var n int
	switch k := g.intn(8); k {
	case 0, 1:
		n = 12 + g.intn(28)
		g.note("release", "short")
	case 2:
		n = choose(g, 39, 40, 41, 42)
		g.note("release", fmt.Sprintf("defrag-limit%+d", n-40))
	case 3:
		n = choose(g, 49, 50, 51)
		g.note("release", fmt.Sprintf("cleanup-limit%+d", n-50))
	case 4:
		n = 51
		g.note("release", "etcd-name-limit")
	default:
		// "<ns>.<release>" around 63.
		n = 63 - len(ns) - 1 + choose(g, -1, 0, 1, 2, 5)
		if n < 12 || n > 51 {
			n = 12 + g.intn(40)
			g.note("release", "short")
		} else {
			g.note("release", fmt.Sprintf("datastore-limit%+d", len(ns)+1+n-63))
		}
	}
	return g.releaseOfLength(n)
}

// releaseOfLength is "kubernetes-…" of n characters, with dashes placed at
// the cut points of the hash truncations now and then.
func (g *gen) releaseOfLength(n int) string {
	rel := "kubernetes-" + choose(g, "demo", "prod", "a", "eu", "x")
	for len(rel) < n {
		if g.chance(0.2) {
			rel += "-"
		} else {
			rel += string("abcdefghijklmnopqrstuvwxyz0123456789"[g.intn(36)])
		}
	}
	rel = rel[:n]
	if g.chance(0.3) {
		// A dash right where a truncation cuts: trunc36/46 of the name,
		// trunc54 of "<ns>.<release>".
		for _, cut := range []int{36 - 5, 46 - 5, 35 - 5, 45 - 5} {
			if cut > 11 && cut < n-1 {
				rel = rel[:cut] + "-" + rel[cut+1:]
			}
		}
	}
	b := []byte(rel)
	if b[len(b)-1] == '-' {
		b[len(b)-1] = 'z'
	}
	return strings.ReplaceAll(string(b), "--", "-z")
}

// --- API sets and live state

// unrelatedAPIs are entries the stacks render nothing for: of no optional
// API's group, in one without being its API, or an optional API but for
// spaces, case or a character (Helm's Has matches whole entries; the
// library refuses none of them). The PodMonitor and the GrafanaDashboard,
// which the upstream charts do not render, are left to the round trip
// against the library (TestRandomValues, the golden scenarios) and to
// TestAPIVersionsDifferential.

var unrelatedAPIs = []string{
	"apps/v1/Deployment", "v1", "batch/v1", "cilium.io/v2/CiliumClusterwideNetworkPolicy",
	"autoscaling.k8s.io/v1beta2/VerticalPodAutoscaler", "operator.victoriametrics.com/v1beta1/VMServiceScrape",
	"monitoring.coreos.com/v1/ServiceMonitor", "autoscaling.k8s.io/v1", "cilium.io/v2", "grafana.integreatly.org/v1beta1",
	"cilium.io/v2/CiliumNetworkPolicy ", " autoscaling.k8s.io/v1/VerticalPodAutoscaler", "operator.victoriametrics.com/v1beta1/VMPodScrape\t",
	"", "Cilium.io/v2/CiliumNetworkPolicy", "operator.victoriametrics.com/v1beta1/vmpodscrape", "ciliüm.io/v2/CiliumNetworkPolicy",
}

func (g *gen) apiSet() []string {
	var apis []string
	var names []string
	for _, a := range []struct{ api, name string }{
		{etcdshapes.APICiliumNetworkPolicy, "cilium"},
		{etcdshapes.APIVerticalPodAutoscaler, "vpa"},
		{etcdshapes.APIVMPodScrape, "vmpodscrape"},
	} {
		if g.chance(0.5) {
			apis = append(apis, a.api)
			names = append(names, a.name)
		}
	}
	if len(names) == 0 {
		names = append(names, "none")
	}
	g.note("apis", strings.Join(names, "+"))
	if g.chance(0.3) {
		for i := 1 + g.intn(3); i > 0; i-- {
			apis = append(apis, choose(g, unrelatedAPIs...))
		}
		g.note("apis", "unrelated")
	}
	g.r.Shuffle(len(apis), func(i, j int) { apis[i], apis[j] = apis[j], apis[i] })
	return apis
}

func (g *gen) liveState(ns, release string) etcdshapes.LiveState {
	var l etcdshapes.LiveState
	if g.faulty("live") {
		g.note("live", "invalid-name")
		if g.chance(0.5) {
			sc := choose(g, "Bad_SC", "-x", "a b")
			l.StorageClassName = &sc
		} else {
			l.DataStoreName = choose(g, "Bad_DS", "x..y")
		}
		return l
	}
	switch g.intn(6) {
	case 0, 1:
		g.note("live", "none")
	case 2:
		g.note("live", "datastore-own")
		l.DataStoreName = ownDataStoreName(ns, release)
	case 3:
		g.note("live", "datastore-other")
		l.DataStoreName = choose(g, "tenant-root", ns, "tenant-root.kubernetes-old", ns+".other")
	case 4:
		g.note("live", "storage-class")
		sc := choose(g, "legacy-ssd", "replicated", "local.path")
		l.StorageClassName = &sc
	default:
		g.note("live", "storage-class-empty")
		sc := ""
		l.StorageClassName = &sc
	}
	if l.StorageClassName == nil && g.chance(0.2) {
		g.note("live", "storage-class-too")
		sc := choose(g, "", "legacy-ssd")
		l.StorageClassName = &sc
	}
	return l
}

// --- values

func (g *gen) etcdValues(v map[string]any) {
	if g.faulty("version") {
		g.note("version", "invalid")
		v["version"] = choose[any](g, "", "3.6", "v3.6.11", "3.6.11-rc.0", "latest", 3.6, 3.0)
	} else if g.chance(0.4) {
		g.note("version", "X.Y.Z")
		v["version"] = fmt.Sprintf("%d.%d.%d", 3, g.intn(7), g.intn(20))
	}
	if g.faulty("replicas") {
		g.note("replicas", "invalid")
		v["replicas"] = choose[any](g, 0.0, -1.0, 100.0, 2.5, "3")
	} else if g.chance(0.5) {
		n := choose(g, 1, 2, 3, 4, 5, 7, 9, 99)
		g.note("replicas", fmt.Sprint(n))
		v["replicas"] = float64(n)
	}
	if g.faulty("size") {
		v["size"] = g.badSize()
	} else if g.chance(0.7) {
		v["size"] = g.size()
	}
	if g.faulty("storageClass") {
		g.note("storageClass", "invalid")
		v["storageClass"] = choose[any](g, "Bad_Class", "a b", 5.0)
	} else if g.chance(0.3) {
		c := choose(g, "local", "replicated", "fast.ssd", "")
		g.note("storageClass", map[bool]string{true: "empty", false: "named"}[c == ""])
		v["storageClass"] = c
	}
	if g.faulty("resources") {
		v["resources"] = g.badResources()
	} else if g.chance(0.75) {
		v["resources"] = g.resources()
	}
	if g.faulty("affinity") {
		v["affinity"] = g.badAffinity()
	} else if g.chance(0.4) {
		v["affinity"] = g.affinity()
	}
	if g.chance(0.3) {
		g.note("platform", "backup")
		v["backup"] = g.anyMap(3)
	}
}

func (g *gen) clusterValues(v map[string]any) {
	if g.faulty("replicas") {
		g.note("replicas", "invalid")
		v["etcd"] = map[string]any{"replicas": choose[any](g, 0.0, 2.0, 5.0, 1.5, "3")}
	} else if g.chance(0.6) {
		n := choose(g, 1.0, 3.0)
		g.note("replicas", fmt.Sprint(n))
		v["etcd"] = map[string]any{"replicas": n}
	}
	// The kubernetes chart's own values, which the etcd does not read.
	if g.chance(0.5) {
		g.note("platform", "chart-values")
		v["controlPlane"] = map[string]any{"replicas": 2.0, "apiServer": map[string]any{"resourcesPreset": "small"}}
		v["host"] = "k8s.example.org"
	}
}

// mantissas and units spell quantities; each unit is paired with mantissas
// that keep the amount in a range the rules care about.
var (
	binaryUnits  = []string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	decimalUnits = []string{"k", "M", "G", "T", "P", "E"}
)

// sizeSpellings are sizes of every spelling of the quantity grammar.
func (g *gen) size() any {
	switch g.intn(12) {
	case 0, 1, 2:
		u := choose(g, binaryUnits...)
		m := map[string][]string{
			"Ki": {"1", "1024", "4194304", "1.5", "0.5", "3"}, "Mi": {"1", "512", "4096", "1.5", ".5", "100"},
			"Gi": {"1", "4", "8", "10", "1.5", "0.25", "+2", "100", "7.", "2.75"}, "Ti": {"1", "2", "0.5", "1.25", "16"},
			"Pi": {"1", "2", "0.001", "4"}, "Ei": {"1", "2", "7", "8", "0.5", "0.001"},
		}[u]
		g.note("size", u)
		return choose(g, m...) + u
	case 3, 4:
		u := choose(g, decimalUnits...)
		m := map[string][]string{
			"k": {"1", "4000000", "12345", "1.5"}, "M": {"1", "500", "4096", "1.5", "0.5"}, "G": {"1", "4", "10", "1.5", "100"},
			"T": {"1", "2", "0.5"}, "P": {"1", "2", "0.25"}, "E": {"1", "2", "9"},
		}[u]
		g.note("size", u)
		return choose(g, m...) + u
	case 5:
		g.note("size", "m")
		return choose(g, "5000m", "4294967296000m", "1500m", "4000000000000m")
	case 6:
		g.note("size", "plain-integer")
		return choose(g, "5000000000", "4294967296", "1", "123456789", "1073741824", "+8589934592")
	case 7:
		g.note("size", "plain-decimal")
		return choose(g, "1.5", "5000000000.5", "4294967296.25", "2.5")
	case 8:
		g.note("size", "exponent")
		return choose(g, "1e9", "1E3", "4e+9", "5e6", "2.5e9", "1E10", "1e0", "0.5e10", ".5E9")
	case 9, 10:
		g.note("size", "number")
		return choose(g, 5000000000.0, 1073741824.0, 1e9, 4294967296.0, 1.0, 123456789.0, 1e12)
	default:
		g.note("size", "Gi-default-spelling")
		return fmt.Sprintf("%dGi", 1+g.intn(64))
	}
}

func (g *gen) badSize() any {
	g.note("size", "invalid")
	return choose[any](g, "10Gb", "1e3Mi", "abc", "", "Mi", "1 Gi", "0", "-1Gi", "-5G", "10E", "20Ei", "100m", "0.5", "1e-3", 1.5, true, "4gi",
		// Beyond the quantity bounds.
		"8Ei", "1e999999999", "1e-999999999", "9223372036854775808", 9223372036854775808.0)
}

// cpuSpellings, memorySpellings and storageSpellings are quantities of every
// unit for each standard resource (YAML numbers included).
var (
	cpuSpellings     = []any{"1000m", "500m", "250m", "1", "2", "4", "1.5", "0.5", "100m", "1e1", "2E0", "1500000u", "2000000000n", "0.1", "3", "1k", 2.0, 0.5, 1.0, 16.0, "333m", "0.001", "7"}
	memorySpellings  = []any{"512Mi", "1Gi", "1G", "1e9", "1E9", "1.5Gi", "100M", "1Ti", "1Pi", "123456789", "64k", "1000Ki", "0.5Gi", "2048Mi", "3Gi", "1M", "1T", "2e9", "1Ei", "1P", "2.5e8", 1073741824.0, 536870912.0, 1e9}
	storageSpellings = []any{"10Gi", "1T", "500M", "2e10", "1Ti", "40Gi", "7G", "123456789012", "100Mi", 10737418240.0, "4.5Gi"}
)

func (g *gen) resources() map[string]any {
	res := map[string]any{}
	for _, r := range []struct {
		name  string
		p     float64
		spell []any
	}{{"cpu", 0.7, cpuSpellings}, {"memory", 0.7, memorySpellings}, {"ephemeral-storage", 0.35, storageSpellings}} {
		switch {
		case g.chance(r.p):
			q := choose(g, r.spell...)
			g.note("resources", r.name+"-"+quantityClass(q))
			res[r.name] = q
		case r.name != "ephemeral-storage" && g.chance(0.15):
			// A null deletes the chart's default.
			g.note("resources", r.name+"-null")
			res[r.name] = nil
		}
	}
	if g.chance(0.2) {
		g.note("resources", "hugepages")
		if g.chance(0.5) {
			res["hugepages-2Mi"] = choose[any](g, "2Mi", "4Mi", "1Gi", "0", 4194304.0)
		} else {
			res["hugepages-1Gi"] = choose[any](g, "1Gi", "2Gi")
		}
		if res["cpu"] == nil && res["memory"] == nil {
			res["memory"] = choose(g, memorySpellings...)
		}
	}
	if g.chance(0.2) {
		g.note("resources", "extended")
		res[choose(g, "example.com/device", "nvidia.com/gpu", "vendor.io/fpga")] = choose[any](g, "1", "2", 1.0, 4.0, "0", "1k")
	}
	return res
}

// quantityClass names the spelling of a quantity.
func quantityClass(q any) string {
	s, ok := q.(string)
	if !ok {
		return "number"
	}
	for _, u := range binaryUnits {
		if strings.HasSuffix(s, u) {
			return u
		}
	}
	if strings.ContainsAny(s, "eE") && !strings.HasSuffix(s, "E") {
		return "exponent"
	}
	for _, u := range append(decimalUnits, "m", "u", "n") {
		if strings.HasSuffix(s, u) {
			return u
		}
	}
	if strings.Contains(s, ".") {
		return "decimal"
	}
	return "integer"
}

func (g *gen) badResources() any {
	g.note("resources", "invalid")
	switch g.intn(14) {
	case 0:
		return map[string]any{"limits": map[string]any{"cpu": "1"}}
	case 1:
		return map[string]any{"cpu": map[string]any{"value": "1"}}
	case 2:
		return map[string]any{"gpu": "1"}
	case 3:
		return map[string]any{"kubernetes.io/foo": "1"}
	case 4:
		return map[string]any{"storage": "1Gi"}
	case 5:
		return map[string]any{"example.com/device": choose[any](g, "0.5", 1.5, "500m")}
	case 6:
		return map[string]any{"hugepages-2Mi": choose(g, "3Mi", "1Mi", "3000000")}
	case 7:
		return map[string]any{choose(g, "hugepages-0", "hugepages-1m", "hugepages-abc", "hugepages-"): "2Mi"}
	case 8:
		return map[string]any{"cpu": nil, "memory": nil, "hugepages-2Mi": "2Mi"}
	case 9:
		return map[string]any{"memory": choose[any](g, "1e21", "2000E", "1e22", "1e999999999", "8Ei", "1e400")}
	case 10:
		return map[string]any{"ephemeral-storage": choose[any](g, "abc", "10Gb", "-1Gi", true)}
	case 11:
		return map[string]any{"cpu": "123456789.123456789"}
	case 12:
		return map[string]any{"cpu": choose[any](g, "-1", "lots", "1e3m", "1e-999999999", "1e400")}
	default:
		return choose[any](g, "1Gi", []any{"cpu"})
	}
}

// --- platform values

var (
	ratioNumbers = []any{1.0, 2.0, 3.0, 4.0, 10.0, 40.0, 7.0, 1.5, 2.5, 100.0, 16.0, 1.25}
	ratioStrings = []any{"1", "2", "3", "4", "1.5", "2.5", "6", "10", "33", "40", "100", "1e1", "1.1", "3.3333"}
	ratioBelow1  = []any{0.5, 0.3, "0.7", "0.25", 0.999}
)

func (g *gen) ratio(name string) any {
	var v any
	switch k := g.intn(20); {
	case k < 9:
		v = choose(g, ratioNumbers...)
	case k < 18:
		v = choose(g, ratioStrings...)
	default:
		v = choose(g, ratioBelow1...)
	}
	class := "number"
	if _, ok := v.(string); ok {
		class = "string"
	}
	s := fmt.Sprint(v)
	switch {
	case strings.HasPrefix(s, "0."):
		class += "-below-1"
	case strings.ContainsAny(s, ".e"):
		class += "-fraction"
	default:
		class += "-integer"
	}
	g.note("ratio", name+"-"+class)
	return v
}

func (g *gen) badRatio() any {
	g.note("ratio", "invalid")
	return choose[any](g, 0.0, "0", -1.0, "-2", "abc", "", " 2", true)
}

var ratioKeys = []string{"cpu-allocation-ratio", "memory-allocation-ratio", "ephemeral-storage-allocation-ratio"}

func (g *gen) platform(caller naming.Caller, v map[string]any) {
	c := map[string]any{}
	badRatio := g.faulty("ratio")
	badKey := ""
	if badRatio {
		badKey = choose(g, ratioKeys...)
	}
	for _, k := range ratioKeys {
		switch {
		case k == badKey:
			c[k] = g.badRatio()
		case g.chance(0.5):
			c[k] = g.ratio(strings.TrimSuffix(k, "-allocation-ratio"))
		}
	}
	if g.faulty("spread") {
		c["scheduling"] = g.badSpread()
	} else if g.chance(0.45) {
		c["scheduling"] = g.spread()
	}
	if caller == naming.CallerCluster || g.chance(0.3) {
		// Read by the kubernetes chart; unknown to the etcd chart.
		bad := g.faulty("storageClass")
		for _, k := range []string{"etcd-storage-class-local", "etcd-storage-class-replicated"} {
			switch {
			case bad && (k == "etcd-storage-class-local" || g.chance(0.5)):
				g.note("storageClass", "invalid")
				c[k] = choose[any](g, "Bad_SC", "a b", "-x")
				bad = false
			case g.chance(0.6):
				c[k] = choose(g, "local", "local-path", "replicated", "drbd.r3", "")
				g.note("storageClass", k+map[bool]string{true: "-empty", false: "-named"}[c[k] == ""])
			}
		}
	}
	if g.chance(0.6) {
		g.note("platform", "unknown-cluster-keys")
		for i := 1 + g.intn(4); i > 0; i-- {
			switch g.intn(6) {
			case 0:
				c["root-host"] = "example.org"
			case 1:
				c["bundle-name"] = choose(g, "paas-full", "distro-full")
			case 2:
				c["images-registry"] = "registry.example.org/mirror/"
			case 3:
				c["ipv4-cluster-cidr"] = "10.244.0.0/16"
			case 4:
				c["branding"] = map[string]any{"title": "Acme", "logo": map[string]any{"dark": "x.svg"}}
			default:
				c["x-"+g.tenantSegment()] = g.anyValue(2)
			}
		}
	}
	if g.faulty("cluster") {
		g.note("platform", "cluster-not-a-map")
		v["_cluster"] = choose[any](g, "x", []any{"a"}, 5.0)
	} else if len(c) > 0 || g.chance(0.3) {
		v["_cluster"] = c
	}
	if g.chance(0.5) {
		g.note("platform", "_namespace")
		ns := map[string]any{}
		for _, k := range []string{"etcd", "monitoring", "ingress", "host", "seaweedfs"} {
			if g.chance(0.6) {
				ns[k] = choose[any](g, "tenant-root", "tenant-a", "a.example.org", "")
			}
		}
		if g.chance(0.4) {
			ns["x-"+g.tenantSegment()] = g.anyValue(3)
		}
		v["_namespace"] = ns
	}
}

// nulls sets a few of the keys the charts read to null, which deletes a
// chart default (Helm) or means no value.
func (g *gen) nulls(caller naming.Caller, v map[string]any) {
	if !g.chance(0.15) {
		return
	}
	g.note("nulls", "some")
	paths := [][]string{{"_cluster"}, {"_cluster", "scheduling"}, {"_cluster", "scheduling", "globalAppTopologySpreadConstraints"},
		{"_cluster", "cpu-allocation-ratio"}, {"_cluster", "memory-allocation-ratio"}, {"_cluster", "etcd-storage-class-local"}}
	paths = append(paths, []string{"_namespace"})
	if caller == naming.CallerEtcd {
		paths = append(paths, []string{"version"}, []string{"replicas"}, []string{"size"}, []string{"storageClass"}, []string{"affinity"},
			[]string{"resources"}, []string{"resources", "cpu"}, []string{"resources", "example.com/device"})
		paths = append(paths, []string{"backup"})
	} else {
		paths = append(paths, []string{"etcd"}, []string{"etcd", "replicas"})
	}
	for i := 1 + g.intn(3); i > 0; i-- {
		p := choose(g, paths...)
		m := v
		for _, k := range p[:len(p)-1] {
			if _, ok := m[k].(map[string]any); !ok {
				m[k] = map[string]any{}
			}
			m = m[k].(map[string]any)
		}
		m[p[len(p)-1]] = nil
		g.note("nulls", strings.Join(p, "."))
	}
}

// anyValue is a value of any YAML type, nested up to depth.
func (g *gen) anyValue(depth int) any {
	k := g.intn(8)
	if depth <= 0 {
		k %= 6
	}
	switch k {
	case 0:
		return choose(g, "x", "", "3", "true", "s3://bucket/path")
	case 1:
		return choose(g, 0.0, 1.0, -2.5, 1e9)
	case 2:
		return g.chance(0.5)
	case 3:
		return nil
	case 4:
		return []any{}
	case 5:
		return map[string]any{}
	case 6:
		l := []any{}
		for i := g.intn(3); i > 0; i-- {
			l = append(l, g.anyValue(depth-1))
		}
		return l
	default:
		return g.anyMap(depth - 1)
	}
}

func (g *gen) anyMap(depth int) map[string]any {
	m := map[string]any{}
	keys := []string{"enabled", "s3Region", "s3Bucket", "schedule", "cleanupStrategy", "resticPassword", "s3AccessKey", "nested", "etcd", "replicas", "size"}
	for i := g.intn(5); i > 0; i-- {
		m[choose(g, keys...)] = g.anyValue(depth)
	}
	return m
}

// --- spread constraints

var topologyKeys = []string{"kubernetes.io/hostname", "topology.kubernetes.io/zone", "topology.kubernetes.io/region", "example.com/rack"}

// spread is a valid _cluster.scheduling: no, one or several constraints,
// with or without their own labelSelector.
func (g *gen) spread() any {
	sched := map[string]any{}
	if g.chance(0.2) {
		sched["otherSetting"] = g.anyValue(1)
		g.note("spread", "other-scheduling-keys")
	}
	if g.chance(0.1) {
		g.note("spread", "empty-string")
		sched["globalAppTopologySpreadConstraints"] = ""
		return sched
	}
	if g.chance(0.06) {
		// Not empty, but holding no constraint: upstream treats it as
		// constraints, the library must not render the default.
		g.note("spread", "blank")
		sched["globalAppTopologySpreadConstraints"] = choose(g, "  ", "\n", "# none\n", "{}")
		return sched
	}
	n := choose(g, 1, 1, 2, 3, 4)
	g.note("spread", map[bool]string{true: "one", false: "several"}[n == 1])
	// Distinct (topologyKey, whenUnsatisfiable) pairs, as the API requires.
	type pair struct{ key, when string }
	var pairs []pair
	for _, k := range topologyKeys {
		for _, w := range []string{"DoNotSchedule", "ScheduleAnyway"} {
			pairs = append(pairs, pair{k, w})
		}
	}
	g.r.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	var list []any
	for i := 0; i < n; i++ {
		c := map[string]any{"maxSkew": float64(1 + g.intn(3)), "topologyKey": pairs[i].key, "whenUnsatisfiable": pairs[i].when}
		if g.chance(0.3) {
			g.note("spread", "with-selector")
			if g.chance(0.5) {
				c["labelSelector"] = map[string]any{"matchLabels": map[string]any{"tier": choose(g, "etcd", "db")}}
			} else {
				c["labelSelector"] = map[string]any{"matchExpressions": []any{map[string]any{"key": "tier", "operator": "In", "values": []any{"etcd"}}}}
			}
		}
		if pairs[i].when == "DoNotSchedule" && g.chance(0.2) {
			g.note("spread", "minDomains")
			c["minDomains"] = float64(1 + g.intn(3))
		}
		if g.chance(0.1) {
			g.note("spread", "policies")
			c["nodeAffinityPolicy"] = choose(g, "Honor", "Ignore")
			c["nodeTaintsPolicy"] = choose(g, "Honor", "Ignore")
		}
		if g.chance(0.1) {
			g.note("spread", "matchLabelKeys")
			c["matchLabelKeys"] = []any{"pod-template-hash"}
		}
		list = append(list, c)
	}
	s, err := yaml.Marshal(map[string]any{"topologySpreadConstraints": list})
	if err != nil {
		panic(err)
	}
	sched["globalAppTopologySpreadConstraints"] = string(s)
	return sched
}

func (g *gen) badSpread() any {
	g.note("spread", "invalid")
	const valid = "topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: topology.kubernetes.io/zone\n  whenUnsatisfiable: DoNotSchedule\n"
	var v any
	switch g.intn(12) {
	case 0:
		v = "topologySpreadConstraints:\n- maxSkew: 0\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n"
	case 1:
		v = "topologySpreadConstraints:\n- maxSkew: 1\n  whenUnsatisfiable: DoNotSchedule\n"
	case 2:
		v = "topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: Maybe\n"
	case 3:
		v = valid + "  minDomains: 0\n"
	case 4:
		v = "topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: ScheduleAnyway\n  minDomains: 2\n"
	case 5:
		v = valid + "- maxSkew: 2\n  topologyKey: topology.kubernetes.io/zone\n  whenUnsatisfiable: DoNotSchedule\n"
	case 6:
		v = "topologySpreadConstraints: []\n"
	case 7:
		v = choose(g, "foo: 1\n",
			"foo: 1\ntopologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n")
	case 8:
		v = map[string]any{"topologySpreadConstraints": []any{}}
	case 9:
		return "not-a-map"
	case 10:
		v = valid + "  labelSelector:\n    matchLabels:\n      tier: \"-bad-\"\n"
	default: // 11
		v = valid + "  topologyKey2: x\n"
	}
	return map[string]any{"globalAppTopologySpreadConstraints": v}
}

// --- affinity

func (g *gen) affinity() any {
	switch g.intn(7) {
	case 0:
		g.note("affinity", "empty")
		return map[string]any{}
	case 1:
		g.note("affinity", "node-required")
		return map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{
			"nodeSelectorTerms": []any{map[string]any{"matchExpressions": []any{map[string]any{"key": "node-role.kubernetes.io/etcd", "operator": "Exists"}}}}}}}
	case 2:
		g.note("affinity", "node-preferred")
		return map[string]any{"nodeAffinity": map[string]any{"preferredDuringSchedulingIgnoredDuringExecution": []any{map[string]any{
			"weight": float64(1 + g.intn(100)), "preference": map[string]any{"matchExpressions": []any{map[string]any{"key": "disk", "operator": "In", "values": []any{"ssd", "nvme"}}}}}}}}
	case 3:
		g.note("affinity", "pod-anti-required")
		return map[string]any{"podAntiAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": []any{map[string]any{
			"labelSelector": map[string]any{"matchLabels": map[string]any{"app.kubernetes.io/instance": "etcd"}}, "topologyKey": choose(g, topologyKeys...)}}}}
	case 4:
		g.note("affinity", "pod-anti-preferred")
		return map[string]any{"podAntiAffinity": map[string]any{"preferredDuringSchedulingIgnoredDuringExecution": []any{map[string]any{
			"weight": float64(1 + g.intn(100)), "podAffinityTerm": map[string]any{"topologyKey": choose(g, topologyKeys...),
				"labelSelector": map[string]any{"matchExpressions": []any{map[string]any{"key": "app", "operator": "NotIn", "values": []any{"x"}}}}}}}}}
	case 5:
		g.note("affinity", "pod-preferred")
		return map[string]any{"podAffinity": map[string]any{"preferredDuringSchedulingIgnoredDuringExecution": []any{map[string]any{
			"weight": 50.0, "podAffinityTerm": map[string]any{"topologyKey": "topology.kubernetes.io/zone", "namespaces": []any{"tenant-root"},
				"labelSelector": map[string]any{"matchLabels": map[string]any{"app": "api"}}}}}}}
	default:
		g.note("affinity", "combined")
		return map[string]any{
			"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{
				"nodeSelectorTerms": []any{map[string]any{"matchExpressions": []any{map[string]any{"key": "zone", "operator": "NotIn", "values": []any{"z9"}}}}}}},
			"podAntiAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": []any{map[string]any{
				"labelSelector": map[string]any{"matchLabels": map[string]any{"app.kubernetes.io/instance": "etcd"}}, "topologyKey": "kubernetes.io/hostname"}}},
		}
	}
}

func (g *gen) badAffinity() any {
	g.note("affinity", "invalid")
	switch g.intn(7) {
	case 0:
		return map[string]any{"podAntiAffinity": map[string]any{"preferredDuringSchedulingIgnoredDuringExecution": []any{map[string]any{
			"weight": choose(g, 0.0, 101.0), "podAffinityTerm": map[string]any{"topologyKey": "kubernetes.io/hostname"}}}}}
	case 1:
		return map[string]any{"podAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": []any{map[string]any{
			"labelSelector": map[string]any{"matchLabels": map[string]any{"a": "b"}}}}}}
	case 2:
		return map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{"nodeSelectorTerms": []any{}}}}
	case 3:
		return map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{
			"nodeSelectorTerms": []any{map[string]any{"matchExpressions": []any{map[string]any{"key": "a", "operator": "Has"}}}}}}}
	case 4:
		return map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{
			"nodeSelectorTerms": []any{map[string]any{"matchExpressions": []any{map[string]any{"key": "a", "operator": "In"}}}}}}}
	case 5:
		return map[string]any{"nodeAffinityX": map[string]any{}}
	default:
		return "x"
	}
}

// sortedClasses returns the distinct classes of ins, sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

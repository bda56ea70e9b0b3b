package chartgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

// sentinel is one set of inputs the builders render so that the generator
// can tell every value-dependent piece of their output from the constant
// structure: names and values are distinctive strings that appear nowhere
// else.
type sentinel struct {
	namespace    string
	release      string // cluster caller only; the etcd chart's is "etcd"
	version      string
	chartVersion string
	storageClass string
	size         string
	replicas     map[string]int32 // by caller
	ratios       etcd.Ratios
}

// sentinelMarker is in every sentinel name; none may survive generation.
const sentinelMarker = "zzsentinel"

// sentinels are two different input sets. The generator writes the shapes
// from both and requires identical text: a field of the builders' output
// that depends on an input without a rule or a substitution here makes the
// two differ and fails generation instead of freezing one input's value.
// The first has the longest per-cluster etcd name (56 characters), so every
// name with a length limit takes its hashed form; the second is short, so
// none does. A name the library starts to hash that the templates do not
// know either leaves a truncated sentinel behind or makes the runs differ.
var sentinels = [2]sentinel{
	{
		namespace:    "tenant-zzsentinelnamespaceaa",
		release:      "kubernetes-zzsentinelreleaseaaaaaaaaaaaaaaaaaaaaaaa",
		version:      "97.98.99",
		chartVersion: "99.98.97-zzsentinel.a",
		storageClass: "zzsentinel-storage-class-a",
		size:         "7777Mi",
		replicas:     map[string]int32{etcdshapes.CallerEtcd: 3, etcdshapes.CallerCluster: 3},
		ratios:       etcd.Ratios{CPU: "10", Memory: "1", EphemeralStorage: "40"},
	},
	{
		namespace:    "tenant-zzsentinelnsbb",
		release:      "kubernetes-zzsentinelrelbb",
		version:      "96.95.94",
		chartVersion: "99.98.97-zzsentinel.b",
		storageClass: "zzsentinel-storage-class-b",
		size:         "3333Mi",
		replicas:     map[string]int32{etcdshapes.CallerEtcd: 5, etcdshapes.CallerCluster: 1},
		ratios:       etcd.Ratios{CPU: "3", Memory: "1.5", EphemeralStorage: "7"},
	},
}

// quota is the quota of the sentinel size, as the builders print it.
func (s sentinel) quota() (string, error) {
	size, err := resource.ParseQuantity(s.size)
	if err != nil {
		return "", err
	}
	q, err := etcd.QuotaBackendBytes(size)
	return strconv.FormatInt(q, 10), err
}

// literals are the sentinel values that contain no marker; they must not
// survive generation either.
func (s sentinel) literals() ([]string, error) {
	quota, err := s.quota()
	return []string{s.version, s.chartVersion, s.size, quota}, err
}

func (s sentinel) names(caller string) (naming.Names, error) {
	if caller == etcdshapes.CallerEtcd {
		return naming.ForEtcdChart(s.namespace, naming.EtcdChartRelease)
	}
	return naming.ForCluster(s.namespace, s.release)
}

// render builds the caller's stack from the sentinel inputs.
func (s sentinel) render(caller string, apis []string, live etcdshapes.LiveState) ([]etcdshapes.Object, error) {
	size, err := resource.ParseQuantity(s.size)
	if err != nil {
		return nil, err
	}
	switch caller {
	case etcdshapes.CallerEtcd:
		return etcdshapes.EtcdChart(etcdshapes.EtcdChartOptions{
			Namespace:    s.namespace,
			Release:      naming.EtcdChartRelease,
			ChartVersion: s.chartVersion,
			Etcd: etcd.Options{
				Version:          s.version,
				Replicas:         s.replicas[caller],
				Size:             size,
				StorageClassName: s.storageClass,
				Ratios:           s.ratios,
			},
		})
	case etcdshapes.CallerCluster:
		// The per-cluster etcd fixes version and size; the sentinel run
		// proves that (a varying value would survive as a literal).
		return etcdshapes.Cluster(etcdshapes.ClusterOptions{
			Namespace:              s.namespace,
			Release:                s.release,
			ChartVersion:           s.chartVersion,
			Replicas:               s.replicas[caller],
			Ratios:                 s.ratios,
			StorageClassLocal:      s.storageClass,
			StorageClassReplicated: s.storageClass,
			APIVersions:            apis,
			Live:                   live,
		})
	}
	return nil, fmt.Errorf("chartgen: unknown caller %q", caller)
}

// substitutions are the sentinel texts of one run and the config fields
// ($., see the etcdshapes.config helper) that compute them, longest first.
func (s sentinel) substitutions(caller string, n naming.Names) ([]subst, error) {
	quota, err := s.quota()
	if err != nil {
		return nil, err
	}
	var subs []subst
	if caller == etcdshapes.CallerCluster {
		subs = append(subs, subst{n.Cluster, "$.cluster"}, subst{n.Release, "$.release"})
	} else {
		subs = append(subs, subst{strings.Join(s.pvcs(n, s.replicas[caller]), " "), `join " " $.pvcs`})
	}
	subs = append(subs,
		subst{n.Namespace, "$.namespace"},
		subst{s.storageClass, "$.storageClass"},
		subst{s.chartVersion, "$.chartVersion"},
		subst{s.version, "$.version"},
		subst{s.size, "$.size"},
		subst{quota, "$.quota"},
	)
	sort.SliceStable(subs, func(i, j int) bool { return len(subs[i].from) > len(subs[j].from) })
	return subs, nil
}

func (s sentinel) pvcs(n naming.Names, replicas int32) []string {
	var out []string
	for i := 0; i < int(replicas); i++ {
		out = append(out, n.DataPVC(i))
	}
	return out
}

// config is what each config expression of the shapes evaluates to for the
// caller in this sentinel run: the merger compares the two callers' objects
// with it.
func (s sentinel) config(caller string, n naming.Names) (map[string]string, error) {
	version, size := s.version, s.size
	if caller == etcdshapes.CallerCluster {
		// The per-cluster etcd fixes version and size.
		version, size = etcd.DefaultVersion, etcd.DefaultSize
	}
	q, err := resource.ParseQuantity(size)
	if err != nil {
		return nil, err
	}
	quota, err := etcd.QuotaBackendBytes(q)
	if err != nil {
		return nil, err
	}
	return map[string]string{
		"$.namespace":     n.Namespace,
		"$.cluster":       n.Cluster,
		"$.release":       n.Release,
		"$.storageClass":  s.storageClass,
		"$.chartVersion":  s.chartVersion,
		"$.version":       version,
		"$.size":          size,
		"$.quota":         strconv.FormatInt(quota, 10),
		`join " " $.pvcs`: strings.Join(s.pvcs(n, s.replicas[caller]), " "),
	}, nil
}

// shapeID names the shape an object of a stack is: the define and file
// names of the templates derive from it. Objects are told apart by kind and,
// where a kind repeats, by their derived names.
func shapeID(n naming.Names, kind, name string) (string, error) {
	byName := func(m map[string]string) (string, error) {
		if id, ok := m[name]; ok {
			return id, nil
		}
		return "", fmt.Errorf("chartgen: no shape for %s %q; teach shapeID the new object", kind, name)
	}
	switch kind {
	case "EtcdCluster":
		return "etcdCluster", nil
	case "CronJob":
		return "defragCronJob", nil
	case "WorkloadMonitor":
		return "workloadMonitor", nil
	case "DataStore":
		return "dataStore", nil
	case "VerticalPodAutoscaler":
		return "verticalPodAutoscaler", nil
	case "VMPodScrape":
		return "podScrape", nil
	case "CiliumNetworkPolicy":
		return "networkPolicy", nil
	case "PrometheusRule":
		return "prometheusRule", nil
	case "Service":
		return "legacyHeadlessService", nil
	case "ServiceAccount":
		return "cleanupServiceAccount", nil
	case "Job":
		return "cleanupJob", nil
	case "Issuer":
		return byName(map[string]string{n.SelfSigningIssuer(): "selfSigningIssuer", n.PeerIssuer(): "peerIssuer", n.Issuer(): "issuer"})
	case "Certificate":
		return byName(map[string]string{
			n.PeerCACertificate(): "peerCACertificate", n.CACertificate(): "caCertificate",
			n.ServerCertificate(): "serverCertificate", n.PeerCertificate(): "peerCertificate",
			n.ClientCertificate(): "clientCertificate",
		})
	case "Secret":
		return byName(map[string]string{n.CASecret(): "caSecret", n.ClientSecret(): "clientSecret"})
	case "Role":
		return byName(map[string]string{n.Cleanup(): "cleanupRole", n.DashboardResources(): "dashboardRole"})
	case "RoleBinding":
		return byName(map[string]string{n.Cleanup(): "cleanupRoleBinding", n.DashboardResources(): "dashboardRoleBinding"})
	}
	return "", fmt.Errorf("chartgen: no shape for kind %s; teach shapeID the new object", kind)
}

// shapeRules is rules; tests replace it to prove generation notices a field
// without one.
var shapeRules = rules

// rules are the value-dependent fields of each shape that are not plain
// string substitutions: numbers, optional fields, whole subtrees the
// helpers compute, and per-tenant lists. Every rule must match a field of
// the builders' output, so a renamed field fails generation.
func rules(caller, shape string) map[string]rule {
	switch shape {
	// The names with a length limit: hashed when too long.
	case "dataStore":
		return map[string]rule{"metadata.name": {stringExpr, "$.dataStore"}}
	case "defragCronJob":
		return map[string]rule{"metadata.name": {stringExpr, "$.defragCronJob"}}
	case "cleanupJob":
		return map[string]rule{"metadata.name": {stringExpr, "$.cleanupJob"}}
	case "etcdCluster":
		return map[string]rule{
			"spec.replicas":                  {scalarExpr, "$.replicas"},
			"spec.options.quotaBackendBytes": {scalarExpr, "$.quota"},
			"spec.storage.storageClassName":  {optional, "$.storageClass"},
			"spec.resources":                 {optionalYAML, "$.resources"},
			"spec.topologySpreadConstraints": {yamlOrDefault, "$.spread"},
			"spec.affinity":                  {yamlOrDefault, "$.affinity"},
		}
	case "workloadMonitor":
		return map[string]rule{
			"spec.replicas":    {scalarExpr, "$.replicas"},
			"spec.minReplicas": {scalarExpr, "$.minReplicas"},
		}
	case "verticalPodAutoscaler":
		// The requests the sanitiser derives from the builder's fixed
		// bounds and the platform's ratios.
		return map[string]rule{
			"spec.resourcePolicy.containerPolicies[0].minAllowed": {yamlExpr, "$.vpaMinAllowed"},
			"spec.resourcePolicy.containerPolicies[0].maxAllowed": {yamlExpr, "$.vpaMaxAllowed"},
		}
	case "cleanupRole":
		if caller == etcdshapes.CallerEtcd {
			return map[string]rule{"rules[0].resourceNames": {yamlExpr, "$.pvcs"}}
		}
	case "dashboardRoleBinding":
		return map[string]rule{"subjects": {mode: rangeTenants}}
	}
	return nil
}

// object is one object of a caller's stack, as the shape it is.
type object struct {
	id    string
	tree  map[string]any
	rules map[string]rule
	gates []string
}

// stack is a caller's stack rendered from one sentinel set.
type stack struct {
	caller  string
	subs    []subst
	cfg     map[string]string
	tenants []string
	objects []object
}

// emitter is a fresh emitter for one object of the stack.
func (st stack) emitter(o object, reasons map[string]string, said map[string]bool) *emitter {
	return &emitter{subs: st.subs, rules: o.rules, used: map[string]bool{}, tenants: st.tenants, reasons: reasons, said: said}
}

// renderStack renders the caller's stack from sentinel s, in the builders'
// install order, every optional API served.
func renderStack(caller string, s sentinel) (stack, error) {
	st := stack{caller: caller}
	n, err := s.names(caller)
	if err != nil {
		return st, err
	}
	gates, err := shapeGates(caller, s)
	if err != nil {
		return st, err
	}
	var apis []string
	if caller == etcdshapes.CallerCluster {
		apis = optionalAPIs
	}
	objs, err := s.render(caller, apis, etcdshapes.LiveState{})
	if err != nil {
		return st, err
	}
	if st.subs, err = s.substitutions(caller, n); err != nil {
		return st, err
	}
	if st.cfg, err = s.config(caller, n); err != nil {
		return st, err
	}
	st.tenants = naming.TenantPath(n.Namespace)
	seen := map[string]bool{}
	for _, o := range objs {
		id, err := shapeID(n, o.GetObjectKind().GroupVersionKind().Kind, o.GetName())
		if err != nil {
			return st, err
		}
		if seen[id] {
			return st, fmt.Errorf("chartgen: two objects are shape %s", id)
		}
		seen[id] = true
		m, err := objectMap(o)
		if err != nil {
			return st, err
		}
		st.objects = append(st.objects, object{id: id, tree: m, rules: shapeRules(caller, id), gates: append([]string{"$.render"}, gates[id]...)})
	}
	return st, nil
}

// optionalAPIs are the per-cluster stack's optional APIs (stack.go).
var optionalAPIs = []string{etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APIVMPodScrape, etcdshapes.APICiliumNetworkPolicy}

// apiGate is the config expression that says whether an optional API is
// served (the etcd chart serves its objects unconditionally).
func apiGate(api string) string { return fmt.Sprintf("(index $.apis %q)", api) }

// shapeGates finds the condition of every optional object by rendering the
// stack without the optional APIs, with each one alone, and with a live
// KamajiControlPlane on another datastore: an object that appears only with
// an API is gated on it. Every object is gated on $.render, which is false
// for a cluster that stays on a shared datastore; the generator checks
// that such a cluster renders nothing.
func shapeGates(caller string, s sentinel) (map[string][]string, error) {
	gates := map[string][]string{}
	if caller != etcdshapes.CallerCluster {
		return gates, nil
	}
	n, err := s.names(caller)
	if err != nil {
		return nil, err
	}
	ids := func(apis []string, live etcdshapes.LiveState) (map[string]bool, error) {
		objs, err := s.render(caller, apis, live)
		if err != nil {
			return nil, err
		}
		set := map[string]bool{}
		for _, o := range objs {
			id, err := shapeID(n, o.GetObjectKind().GroupVersionKind().Kind, o.GetName())
			if err != nil {
				return nil, err
			}
			set[id] = true
		}
		return set, nil
	}
	base, err := ids(nil, etcdshapes.LiveState{})
	if err != nil {
		return nil, err
	}
	all, err := ids(optionalAPIs, etcdshapes.LiveState{})
	if err != nil {
		return nil, err
	}
	shared, err := ids(optionalAPIs, etcdshapes.LiveState{DataStoreName: sentinelMarker + "-other-datastore"})
	if err != nil {
		return nil, err
	}
	if len(shared) > 0 {
		return nil, fmt.Errorf("chartgen: a cluster on a shared datastore renders %d objects; the templates render none", len(shared))
	}
	for _, api := range optionalAPIs {
		with, err := ids([]string{api}, etcdshapes.LiveState{})
		if err != nil {
			return nil, err
		}
		for id := range with {
			if !base[id] {
				gates[id] = append(gates[id], apiGate(api))
			}
		}
	}
	for id := range all {
		if !base[id] && len(gates[id]) != 1 {
			return nil, fmt.Errorf("chartgen: %s renders only with all optional APIs together; gate it explicitly", id)
		}
	}
	return gates, nil
}

// objectMap is the object as Marshal prints it, decoded with numbers kept
// as written.
func objectMap(o etcdshapes.Object) (map[string]any, error) {
	y, err := etcdshapes.MarshalObject(o)
	if err != nil {
		return nil, err
	}
	j, err := yaml.YAMLToJSON(y)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// defineName is the named template of a shape; both callers' stacks share
// it, the config says which caller renders.
func defineName(id string) string { return "etcdshapes." + id }

// allName is the template that renders a caller's whole stack.
func allName(caller string) string { return "etcdshapes." + caller + ".all" }

// define writes one shape as a named template that takes the config.
func define(id string, gates []string, body []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{{- define %q }}\n", defineName(id))
	cond := gates[0]
	if len(gates) > 1 {
		cond = "and " + strings.Join(gates, " ")
	}
	fmt.Fprintf(&b, "{{- if %s }}\n---\n", cond)
	for _, l := range body {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString("{{- end }}\n{{- end }}\n")
	return b.String()
}

// allDefine writes the template that renders every shape of a caller as one
// multi-document YAML, the config computed once.
func allDefine(caller string, ids []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{{- define %q }}\n", allName(caller))
	fmt.Fprintf(&b, "{{- $_ := set . \"caller\" %q }}\n", caller)
	b.WriteString("{{- include \"etcdshapes.config\" . }}\n")
	for _, id := range ids {
		fmt.Fprintf(&b, "{{- template %q . }}\n", defineName(id))
	}
	b.WriteString("{{- end }}\n")
	return b.String()
}

// shapesHeader tells a reader of the shapes file how to use it.
const shapesHeader = `{{- /*
The objects of both callers' stacks, generated from the Go builders' output:
one define per object ("etcdshapes.<object>") and one per caller for the
whole stack ("etcdshapes.etcd.all", "etcdshapes.cluster.all", which take
dict "root" $ and optionally "values").

Each object's define takes the config dict that etcdshapes.config filled
(_etcdshapes.tpl): $ is that dict, and every field that depends on the
input reads it ($.namespace, $.cluster, $.quota, ...). Where the etcd chart
and a tenant cluster's etcd differ, the template switches on $.etcdChart.
Each define starts its own YAML document and renders nothing unless
$.render is true (false for a cluster that stays on a shared datastore).
*/ -}}
`

// shapesText writes the shapes of both callers from one sentinel set.
func shapesText(s sentinel) (string, map[string][]string, error) {
	stacks := map[string]stack{}
	for _, caller := range []string{etcdshapes.CallerEtcd, etcdshapes.CallerCluster} {
		st, err := renderStack(caller, s)
		if err != nil {
			return "", nil, err
		}
		stacks[caller] = st
	}
	se, sc := stacks[etcdshapes.CallerEtcd], stacks[etcdshapes.CallerCluster]
	byID := map[string]map[string]object{}
	var order []string
	lists := map[string][]string{}
	for _, st := range []stack{se, sc} {
		for _, o := range st.objects {
			if byID[o.id] == nil {
				byID[o.id] = map[string]object{}
				order = append(order, o.id)
			}
			byID[o.id][st.caller] = o
			lists[st.caller] = append(lists[st.caller], o.id)
		}
	}
	var b strings.Builder
	b.WriteString(shapesHeader)
	said := map[string]bool{}
	for _, id := range order {
		oe, inE := byID[id][etcdshapes.CallerEtcd]
		oc, inC := byID[id][etcdshapes.CallerCluster]
		reasons := shapeReasons(id)
		var lines []string
		var gates []string
		var ems []*emitter
		switch {
		case inE && inC:
			if len(oe.gates) != 1 {
				return "", nil, fmt.Errorf("chartgen: the etcd chart's %s is gated %v; the merged template assumes the etcd chart renders every object", id, oe.gates)
			}
			m := &merger{
				etcd:    side{e: se.emitter(oe, reasons, said), cfg: se.cfg},
				clus:    side{e: sc.emitter(oc, reasons, said), cfg: sc.cfg},
				reasons: reasons, said: said,
			}
			if err := m.mapBody(oe.tree, oc.tree, 0, ""); err != nil {
				return "", nil, fmt.Errorf("chartgen: %s: %w", id, err)
			}
			lines, gates, ems = m.lines, oc.gates, []*emitter{m.etcd.e, m.clus.e}
		default:
			o, st := oe, se
			if !inE {
				o, st = oc, sc
			}
			e := st.emitter(o, reasons, said)
			if err := e.mapBody(o.tree, 0, ""); err != nil {
				return "", nil, fmt.Errorf("chartgen: %s: %w", id, err)
			}
			lines, gates, ems = e.lines, o.gates, []*emitter{e}
		}
		for _, e := range ems {
			var unused []string
			for path := range e.rules {
				if !e.used[path] {
					unused = append(unused, path)
				}
			}
			if len(unused) > 0 {
				sort.Strings(unused)
				return "", nil, fmt.Errorf("chartgen: %s: the builders' output has no field %s any more; update rules", id, strings.Join(unused, ", "))
			}
		}
		for path := range reasons {
			if !said[path] {
				return "", nil, fmt.Errorf("chartgen: %s: no field %s for its reason; update reasons.go", id, path)
			}
		}
		clear(said)
		b.WriteString(define(id, gates, lines))
	}
	for _, caller := range []string{etcdshapes.CallerEtcd, etcdshapes.CallerCluster} {
		b.WriteString(allDefine(caller, lists[caller]))
	}
	return b.String(), lists, nil
}

// shapesFile writes the shapes from the first sentinel set, after checking
// that the second set writes the same text: a field that depends on an
// input the templates do not compute makes the two differ.
func shapesFile() (string, map[string][]string, error) {
	var texts [2]string
	var lists map[string][]string
	for i, s := range sentinels {
		text, l, err := shapesText(s)
		if err != nil {
			return "", nil, err
		}
		texts[i] = text
		if i == 0 {
			lists = l
		}
		if strings.Contains(text, sentinelMarker) {
			return "", nil, fmt.Errorf("chartgen: a sentinel survived generation: %s", firstLineWith(text, sentinelMarker))
		}
		lits, err := s.literals()
		if err != nil {
			return "", nil, err
		}
		for _, lit := range lits {
			if strings.Contains(text, lit) {
				return "", nil, fmt.Errorf("chartgen: sentinel value %q survived generation: %s", lit, firstLineWith(text, lit))
			}
		}
	}
	if texts[0] != texts[1] {
		return "", nil, fmt.Errorf("chartgen: the builders' output depends on an input the templates do not compute:\n%s", firstDifference(texts[0], texts[1]))
	}
	return texts[0], lists, nil
}

func firstLineWith(text, needle string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, needle) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

func firstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n  %s\n  %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths differ: %d and %d lines", len(al), len(bl))
}

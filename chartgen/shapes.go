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
// ($c, see the etcdshapes.config helper) that compute them, longest first.
func (s sentinel) substitutions(caller string, n naming.Names) ([]subst, error) {
	quota, err := s.quota()
	if err != nil {
		return nil, err
	}
	var subs []subst
	if caller == etcdshapes.CallerCluster {
		subs = append(subs, subst{n.Cluster, "$c.cluster"}, subst{n.Release, "$c.release"})
	} else {
		var pvcs []string
		for i := 0; i < int(s.replicas[caller]); i++ {
			pvcs = append(pvcs, n.DataPVC(i))
		}
		subs = append(subs, subst{strings.Join(pvcs, " "), `join " " $c.pvcs`})
	}
	subs = append(subs,
		subst{n.Namespace, "$c.namespace"},
		subst{s.storageClass, "$c.storageClass"},
		subst{s.chartVersion, "$c.chartVersion"},
		subst{s.version, "$c.version"},
		subst{s.size, "$c.size"},
		subst{quota, "$c.quota"},
	)
	sort.SliceStable(subs, func(i, j int) bool { return len(subs[i].from) > len(subs[j].from) })
	return subs, nil
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

// vpaBound is the expression of a VPA bound: the requests the sanitiser
// derives from the builder's fixed limits and the platform's ratios.
func vpaBound(cpu, memory string) string {
	return fmt.Sprintf(`(get (include "etcdshapes.sanitize" (dict "field" "values.resources" "limits" (dict "cpu" %q "memory" %q) "ratios" $c.ratios "bound" true) | fromJson) "requests")`, cpu, memory)
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
		return map[string]rule{"metadata.name": {stringExpr, "$c.dataStore"}}
	case "defragCronJob":
		return map[string]rule{"metadata.name": {stringExpr, "$c.defragCronJob"}}
	case "cleanupJob":
		return map[string]rule{"metadata.name": {stringExpr, "$c.cleanupJob"}}
	case "etcdCluster":
		return map[string]rule{
			"spec.replicas":                  {scalarExpr, "$c.replicas"},
			"spec.options.quotaBackendBytes": {scalarExpr, "$c.quota"},
			"spec.storage.storageClassName":  {optional, "$c.storageClass"},
			"spec.resources":                 {optionalYAML, "$c.resources"},
			"spec.topologySpreadConstraints": {yamlOrDefault, "$c.spread"},
			"spec.affinity":                  {yamlOrDefault, "$c.affinity"},
		}
	case "workloadMonitor":
		return map[string]rule{
			"spec.replicas":    {scalarExpr, "$c.replicas"},
			"spec.minReplicas": {scalarExpr, "$c.minReplicas"},
		}
	case "verticalPodAutoscaler":
		return map[string]rule{
			"spec.resourcePolicy.containerPolicies[0].minAllowed": {yamlExpr, vpaBound(etcd.VPAMinCPU, etcd.VPAMinMemory)},
			"spec.resourcePolicy.containerPolicies[0].maxAllowed": {yamlExpr, vpaBound(etcd.VPAMaxCPU, etcd.VPAMaxMemory)},
		}
	case "cleanupRole":
		if caller == etcdshapes.CallerEtcd {
			return map[string]rule{"rules[0].resourceNames": {yamlExpr, "$c.pvcs"}}
		}
	case "dashboardRoleBinding":
		return map[string]rule{"subjects": {mode: rangeTenants}}
	}
	return nil
}

// shape is one generated define: the template text of one object.
type shape struct {
	id string
	// gates are the template conditions under which the object renders.
	gates []string
	body  []string
}

// stackShapes turns the caller's stack rendered from sentinel s into shapes,
// in the builders' install order.
func stackShapes(caller string, s sentinel) ([]shape, error) {
	n, err := s.names(caller)
	if err != nil {
		return nil, err
	}
	gates, err := shapeGates(caller, s)
	if err != nil {
		return nil, err
	}
	var apis []string
	if caller == etcdshapes.CallerCluster {
		apis = optionalAPIs
	}
	objs, err := s.render(caller, apis, etcdshapes.LiveState{})
	if err != nil {
		return nil, err
	}
	subs, err := s.substitutions(caller, n)
	if err != nil {
		return nil, err
	}
	var out []shape
	seen := map[string]bool{}
	for _, o := range objs {
		kind := o.GetObjectKind().GroupVersionKind().Kind
		id, err := shapeID(n, kind, o.GetName())
		if err != nil {
			return nil, err
		}
		if seen[id] {
			return nil, fmt.Errorf("chartgen: two objects are shape %s", id)
		}
		seen[id] = true
		m, err := objectMap(o)
		if err != nil {
			return nil, err
		}
		e := &emitter{subs: subs, rules: shapeRules(caller, id), used: map[string]bool{}, tenants: naming.TenantPath(n.Namespace)}
		if err := e.mapBody(m, 0, ""); err != nil {
			return nil, fmt.Errorf("chartgen: %s: %w", id, err)
		}
		var unused []string
		for path := range e.rules {
			if !e.used[path] {
				unused = append(unused, path)
			}
		}
		if len(unused) > 0 {
			sort.Strings(unused)
			return nil, fmt.Errorf("chartgen: %s: the builders' output has no field %s any more; update rules", id, strings.Join(unused, ", "))
		}
		out = append(out, shape{id: id, gates: gates[id], body: e.lines})
	}
	return out, nil
}

// optionalAPIs are the per-cluster stack's optional APIs (stack.go).
var optionalAPIs = []string{etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APIVMPodScrape, etcdshapes.APICiliumNetworkPolicy}

// shapeGates finds the condition of every optional object by rendering the
// stack without the optional APIs, with each one alone, and with a live
// KamajiControlPlane on another datastore: an object that appears only with
// an API is gated on it, one that disappears on a shared datastore is gated
// on $c.render.
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
	for id := range all {
		if !shared[id] {
			gates[id] = append(gates[id], "$c.render")
		}
	}
	for _, api := range optionalAPIs {
		with, err := ids([]string{api}, etcdshapes.LiveState{})
		if err != nil {
			return nil, err
		}
		for id := range with {
			if !base[id] {
				gates[id] = append(gates[id], fmt.Sprintf("(.root.Capabilities.APIVersions.Has %q)", api))
			}
		}
	}
	for id := range all {
		if !base[id] && len(gates[id]) < 2 {
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

// defineName is the named template of a caller's shape.
func defineName(caller, id string) string {
	return "etcdshapes." + caller + "." + id
}

// define writes one shape as a named template that takes a dict:
//
//	root   - the calling chart's root context ($)
//	values - optional; the values in the caller's chart shape (root.Values)
//	config - optional; a config computed by etcdshapes.config (the "all"
//	         template passes it so that it is computed once)
func (sh shape) define(caller string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{{- define %q }}\n", defineName(caller, sh.id))
	b.WriteString("{{- $c := .config }}\n")
	fmt.Fprintf(&b, "{{- if not $c }}{{ $c = include \"etcdshapes.config\" (dict \"root\" .root \"caller\" %q \"values\" .values) | fromJson }}{{ end }}\n", caller)
	if len(sh.gates) > 0 {
		cond := sh.gates[0]
		if len(sh.gates) > 1 {
			cond = "and " + strings.Join(sh.gates, " ")
		}
		fmt.Fprintf(&b, "{{- if %s }}\n", cond)
	}
	for _, l := range sh.body {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if len(sh.gates) > 0 {
		b.WriteString("{{- end }}\n")
	}
	b.WriteString("{{- end }}\n")
	return b.String()
}

// allDefine writes the template that renders every shape of a caller as one
// multi-document YAML, computing the config once.
func allDefine(caller string, shapes []shape) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{{- define %q }}\n", defineName(caller, "all"))
	fmt.Fprintf(&b, "{{- $c := include \"etcdshapes.config\" (dict \"root\" .root \"caller\" %q \"values\" .values) | fromJson }}\n", caller)
	b.WriteString("{{- $args := dict \"root\" .root \"values\" .values \"config\" $c }}\n")
	b.WriteString("{{- range $s := list")
	for _, sh := range shapes {
		fmt.Fprintf(&b, " %q", defineName(caller, sh.id))
	}
	b.WriteString(" }}\n")
	b.WriteString("{{- $doc := include $s $args | trim }}\n")
	b.WriteString("{{- if $doc }}\n---\n{{ $doc }}\n{{- end }}\n")
	b.WriteString("{{- end }}\n")
	b.WriteString("{{- end }}\n")
	return b.String()
}

// shapesHeader tells a reader of a shapes file how to use it.
const shapesHeader = `{{- /*
One define per object of the stack, generated from the Go builders' output,
and "<caller>.all" for the whole stack. Each takes a dict:
  root   - the calling chart's root context ($)
  values - optional; values in the caller's chart shape (default root.Values)
  config - optional; the output of etcdshapes.config, computed once by "all"
$c is the config: every value-dependent field reads it (see _etcdshapes.tpl).
*/ -}}
`

// shapesFile writes the named templates of a caller's shapes from the first
// sentinel run, after checking that the second run writes the same text.
func shapesFile(caller string) (string, []shape, error) {
	var texts [2]string
	var first []shape
	for i, s := range sentinels {
		shapes, err := stackShapes(caller, s)
		if err != nil {
			return "", nil, err
		}
		var b strings.Builder
		b.WriteString(shapesHeader)
		for _, sh := range shapes {
			b.WriteString(sh.define(caller))
		}
		b.WriteString(allDefine(caller, shapes))
		texts[i] = b.String()
		if i == 0 {
			first = shapes
		}
		if strings.Contains(texts[i], sentinelMarker) {
			return "", nil, fmt.Errorf("chartgen: %s: a sentinel survived generation: %s", caller, firstLineWith(texts[i], sentinelMarker))
		}
		lits, err := s.literals()
		if err != nil {
			return "", nil, err
		}
		for _, lit := range lits {
			if strings.Contains(texts[i], lit) {
				return "", nil, fmt.Errorf("chartgen: %s: sentinel value %q survived generation: %s", caller, lit, firstLineWith(texts[i], lit))
			}
		}
	}
	if texts[0] != texts[1] {
		return "", nil, fmt.Errorf("chartgen: %s: the builders' output depends on an input the templates do not compute:\n%s", caller, firstDifference(texts[0], texts[1]))
	}
	return texts[0], first, nil
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

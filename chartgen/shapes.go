package chartgen

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/plainjson"
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
	replicas     map[naming.Caller]int32 // by caller
	ratios       etcd.Ratios
	// authSecret is the root credentials Secret: the sentinels render
	// auth on, so that spec.auth is in the shapes (its block holds the
	// config's text, empty when auth is off).
	authSecret string
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
		replicas:     map[naming.Caller]int32{naming.CallerEtcd: 3, naming.CallerCluster: 3},
		ratios:       etcd.Ratios{CPU: "10", Memory: "1", EphemeralStorage: "40"},
		authSecret:   "zzsentinel-root-credentials-a",
	},
	{
		namespace:    "tenant-zzsentinelnsbb",
		release:      "kubernetes-zzsentinelrelbb",
		version:      "96.95.94",
		chartVersion: "99.98.97-zzsentinel.b",
		storageClass: "zzsentinel-storage-class-b",
		size:         "3333Mi",
		replicas:     map[naming.Caller]int32{naming.CallerEtcd: 5, naming.CallerCluster: 1},
		ratios:       etcd.Ratios{CPU: "3", Memory: "1.5", EphemeralStorage: "7"},
		authSecret:   "zzsentinel-root-b",
	},
}

// quota is the quota of the sentinel size, as the builders print it.
func (s sentinel) quota() (string, error) { return quotaText(s.size) }

// quotaText is etcd's --quota-backend-bytes for a data volume of size, in
// decimal as the builders print it: the templates carry the quotas the
// generator computes here, so they come from the library's one formula.
func quotaText(size string) (string, error) {
	q, err := resource.ParseQuantity(size)
	if err != nil {
		return "", err
	}
	b, err := etcd.QuotaBackendBytes(q)
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(b, 10), nil
}

// literals are the sentinel values that contain no marker; they must not
// survive generation either.
func (s sentinel) literals() ([]string, error) {
	quota, err := s.quota()
	return []string{s.version, s.chartVersion, s.size, quota}, err
}

func (s sentinel) names(caller naming.Caller) (naming.Names, error) {
	if caller == naming.CallerEtcd {
		return naming.ForEtcdChart(s.namespace, naming.EtcdChartRelease)
	}
	return naming.ForCluster(s.namespace, s.release)
}

// render builds the caller's stack from the sentinel inputs.
func (s sentinel) render(caller naming.Caller, apis []string, live etcdshapes.LiveState) ([]etcdshapes.Object, error) {
	size, err := resource.ParseQuantity(s.size)
	if err != nil {
		return nil, err
	}
	switch caller {
	case naming.CallerEtcd:
		return etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{
			Namespace:    s.namespace,
			Release:      naming.EtcdChartRelease,
			ChartVersion: s.chartVersion,
			APIVersions:  apis,
			Etcd: etcd.Options{
				Version:          s.version,
				Replicas:         s.replicas[caller],
				Size:             size,
				StorageClassName: s.storageClass,
				Ratios:           s.ratios,
				Auth:             s.auth(),
			},
		})
	case naming.CallerCluster:
		// The per-cluster etcd fixes version and size; the sentinel run
		// proves that (a varying value would survive as a literal).
		return etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{
			Namespace:              s.namespace,
			Release:                s.release,
			ChartVersion:           s.chartVersion,
			Replicas:               s.replicas[caller],
			Ratios:                 s.ratios,
			StorageClassLocal:      s.storageClass,
			StorageClassReplicated: s.storageClass,
			Auth:                   s.auth(),
			APIVersions:            apis,
			Live:                   live,
		})
	}
	return nil, fmt.Errorf("chartgen: unknown caller %q", caller)
}

func (s sentinel) auth() etcd.Auth {
	return etcd.Auth{Enabled: true, RootCredentialsSecret: s.authSecret}
}

// substitutions are the sentinel texts of one run and the tokens of the
// config fields (see the etcdshapes.config helper) that compute them,
// longest first; the stacks write each token as its field's action.
func (s sentinel) substitutions(caller naming.Caller, n naming.Names) ([]subst, error) {
	quota, err := s.quota()
	if err != nil {
		return nil, err
	}
	var subs []subst
	if caller == naming.CallerCluster {
		subs = append(subs, subst{from: n.Cluster, to: tokenFor("cluster")}, subst{from: n.Release, to: tokenFor("release")})
	} else {
		pvcs, err := s.pvcs(n, s.replicas[caller])
		if err != nil {
			return nil, err
		}
		subs = append(subs, subst{from: strings.Join(pvcs, " "), to: tokenFor("pvcNames")})
	}
	subs = append(subs,
		subst{from: n.DashboardUID(), to: tokenFor("dashboardUid")},
		subst{from: n.Namespace, to: tokenFor("namespace")},
		subst{from: s.storageClass, to: tokenFor("storageClass")},
		subst{from: s.chartVersion, to: tokenFor("chartVersion")},
		subst{from: s.version, to: tokenFor("version")},
		subst{from: s.size, to: tokenFor("size")},
		subst{from: quota, to: tokenFor("quota")},
	)
	sort.SliceStable(subs, func(i, j int) bool { return len(subs[i].from) > len(subs[j].from) })
	return subs, nil
}

// tokenFor is the token of a config field, which names it while the
// stacks are generated (never in a chart: emit writes its action, and the
// dashboard's model its placeholder): "storageClass" is __STORAGE_CLASS__.
func tokenFor(key string) string {
	var b strings.Builder
	b.WriteString("__")
	for i, r := range key {
		if r >= 'A' && r <= 'Z' && i > 0 {
			b.WriteByte('_')
		}
		b.WriteString(strings.ToUpper(string(r)))
	}
	b.WriteString("__")
	return b.String()
}

// keyFor is the config field of a placeholder, tokenFor's inverse.
func keyFor(token string) string {
	parts := strings.Split(strings.Trim(token, "_"), "_")
	for i, p := range parts {
		p = strings.ToLower(p)
		if i > 0 {
			p = strings.ToUpper(p[:1]) + p[1:]
		}
		parts[i] = p
	}
	return strings.Join(parts, "")
}

func (s sentinel) pvcs(n naming.Names, replicas int32) ([]string, error) {
	var out []string
	for i := 0; i < int(replicas); i++ {
		pvc, err := n.DataPVC(i)
		if err != nil {
			return nil, err
		}
		out = append(out, pvc)
	}
	return out, nil
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
	case "PodMonitor":
		return "podMonitor", nil
	case "GrafanaDashboard":
		return "grafanaDashboard", nil
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
// helpers compute, and lists that repeat per item. Every rule must match a
// field of the builders' output, so a renamed field fails generation.
func rules(caller naming.Caller, shape string) map[string]rule {
	str := func(key string) rule { return rule{mode: stringExpr, token: tokenFor(key)} }
	num := func(key string) rule { return rule{mode: scalarExpr, token: tokenFor(key)} }
	switch shape {
	// The names with a length limit: hashed when too long.
	case "dataStore":
		return map[string]rule{"metadata.name": str("dataStore")}
	case "defragCronJob":
		return map[string]rule{"metadata.name": str("defragCronJob")}
	case "cleanupJob":
		return map[string]rule{"metadata.name": str("cleanupJob")}
	case "etcdCluster":
		return map[string]rule{
			"spec.replicas":                  num("replicas"),
			"spec.options.quotaBackendBytes": num("quota"),
			"spec.storage.storageClassName":  {mode: optional, token: tokenFor("storageClass")},
			"spec.resources":                 {mode: optionalBlock, token: tokenFor("resources")},
			"spec.topologySpreadConstraints": {mode: blockOrDefault, token: tokenFor("spread")},
			"spec.affinity":                  {mode: blockOrDefault, token: tokenFor("affinity")},
			"spec.auth":                      {mode: optionalBlock, token: tokenFor("auth")},
		}
	case "workloadMonitor":
		return map[string]rule{
			"spec.replicas":    num("replicas"),
			"spec.minReplicas": num("minReplicas"),
		}
	case "verticalPodAutoscaler":
		// The requests the sanitiser derives from the builder's fixed
		// bounds and the platform's ratios.
		const p = "spec.resourcePolicy.containerPolicies[0]."
		return map[string]rule{
			p + "minAllowed.cpu":    str("vpaMinCpu"),
			p + "minAllowed.memory": str("vpaMinMemory"),
			p + "maxAllowed.cpu":    str("vpaMaxCpu"),
			p + "maxAllowed.memory": str("vpaMaxMemory"),
		}
	case "cleanupRole":
		if caller == naming.CallerEtcd {
			return map[string]rule{"rules[0].resourceNames": {mode: stringList, token: tokenFor("pvcs")}}
		}
	case "dashboardRoleBinding":
		return map[string]rule{"subjects": {mode: rangeTenants}}
	case "grafanaDashboard":
		// The dashboard's model is a file of the library chart
		// (dashboardFile), filled by the define dashboardDefine, which
		// also sets the dashboard's names on the config for the fields
		// after it.
		return map[string]rule{"spec.json": {mode: textBlock, token: fmt.Sprintf("include %q .", dashboardDefine)}}
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
	caller  naming.Caller
	subs    []subst
	tenants []string
	objects []object
}

// renderStack renders the caller's stack from sentinel s, in the builders'
// install order, every optional API served.
func renderStack(caller naming.Caller, s sentinel) (stack, error) {
	st := stack{caller: caller}
	n, err := s.names(caller)
	if err != nil {
		return st, err
	}
	gates, err := shapeGates(caller, s)
	if err != nil {
		return st, err
	}
	objs, err := s.render(caller, optionalAPIs, etcdshapes.LiveState{})
	if err != nil {
		return st, err
	}
	if st.subs, err = s.substitutions(caller, n); err != nil {
		return st, err
	}
	if st.tenants, err = naming.TenantPath(n.Namespace); err != nil {
		return st, err
	}
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
		// Helm puts a namespaced object without metadata.namespace in the
		// release namespace, as the upstream templates rely on: the
		// stacks leave it out, which also spares Helm parsing it.
		if md, ok := m["metadata"].(map[string]any); ok && md["namespace"] == n.Namespace {
			delete(md, "namespace")
		}
		st.objects = append(st.objects, object{id: id, tree: m, rules: shapeRules(caller, id), gates: gates[id]})
	}
	return st, nil
}

// optionalAPIs are the stacks' optional APIs (the table of shapes).
var optionalAPIs = etcdshapes.OptionalAPIs()

// alwaysAPIs are the optional APIs whose shapes caller renders whatever is
// served (Shape.AlwaysFor): its config serves them.
func alwaysAPIs(caller naming.Caller) []string {
	var out []string
	for _, s := range etcdshapes.Shapes() {
		if s.API != "" && slices.Contains(s.AlwaysFor, caller) && !slices.Contains(out, s.API) {
			out = append(out, s.API)
		}
	}
	return out
}

// apiGate is the config expression that says whether an optional API is
// served (or, for the APIs of alwaysAPIs, rendered regardless).
func apiGate(api string) string { return fmt.Sprintf("(index .apis %q)", api) }

// shapeGates finds the condition of every optional object by rendering the
// stack without the optional APIs and with each one alone: an object that
// appears only with an API is gated on it. The whole stack is gated on
// $.render, which is false for a cluster that stays on a shared datastore;
// the generator checks that such a cluster renders nothing.
func shapeGates(caller naming.Caller, s sentinel) (map[string][]string, error) {
	gates := map[string][]string{}
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
	if caller == naming.CallerCluster {
		shared, err := ids(optionalAPIs, etcdshapes.LiveState{DataStoreName: sentinelMarker + "-other-datastore"})
		if err != nil {
			return nil, err
		}
		if len(shared) > 0 {
			return nil, fmt.Errorf("chartgen: a cluster on a shared datastore renders %d objects; the templates render none", len(shared))
		}
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
	return plainjson.DecodeMap(j)
}

// The defines of the stacks: a caller's own objects, and the objects both
// callers render.
func stackName(caller naming.Caller) string { return "etcdshapes." + caller.String() + ".objects" }

const sharedStackName = "etcdshapes.objects"

// objectFile is the file of an object kept apart from the stack text: one
// whose data holds template delimiters, which is plain YAML to print.
func objectFile(caller naming.Caller, id string) string {
	return "files/" + caller.String() + "-" + kebab(id) + ".yaml"
}

// kebab turns a shape id into a file name: "prometheusRule" →
// "prometheus-rule".
func kebab(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				b.WriteByte('-')
			}
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// objText is one object of a caller's stack as written: its text and the
// gates of its optional API.
type objText struct {
	id    string
	gates []string
	body  string
}

// stackText is a caller's stack: its objects' texts (with placeholders
// and the actions for what is conditional) and the files of the objects
// kept apart.
type stackText struct {
	objs    []objText
	objects []File
	tags    map[string]ruleMode
}

// writeStack writes a caller's stack.
func writeStack(st stack, reasonsFor func(string) map[string]string) (stackText, error) {
	out := stackText{tags: map[string]ruleMode{}}
	for _, o := range st.objects {
		said := map[string]bool{}
		reasons := reasonsFor(o.id)
		e := &emitter{subs: st.subs, rules: o.rules, used: map[string]bool{}, tenants: st.tenants,
			reasons: reasons, said: said, tags: out.tags, delims: new(bool), acted: new(bool)}
		if err := e.mapBody(o.tree, 0, ""); err != nil {
			return out, fmt.Errorf("chartgen: %s %s: %w", st.caller, o.id, err)
		}
		var unused []string
		for path := range e.rules {
			if !e.used[path] {
				unused = append(unused, path)
			}
		}
		if len(unused) > 0 {
			sort.Strings(unused)
			return out, fmt.Errorf("chartgen: %s: the builders' output has no field %s any more; update rules", o.id, strings.Join(unused, ", "))
		}
		for path := range reasons {
			if !said[path] {
				return out, fmt.Errorf("chartgen: %s: no field %s for its reason; update reasons.go", o.id, path)
			}
		}
		body := strings.Join(e.lines, "\n")
		if *e.delims {
			// Data holding template delimiters (the PrometheusRule's own
			// templates): the object is a file of its own, printed as it
			// is, which must hold no action.
			if *e.acted {
				return out, fmt.Errorf("chartgen: %s holds template delimiters in its data and also actions or comments; write it differently", o.id)
			}
			name := objectFile(st.caller, o.id)
			out.objects = append(out.objects, File{Path: name, Data: []byte("# " + Header + "\n" + body + "\n")})
			body = fmt.Sprintf("{{ include \"etcdshapes.file\" (dict \"c\" . \"name\" %q) | trimSuffix \"\\n\" }}", name)
		}
		if strings.Contains(body, "`") {
			return out, fmt.Errorf("chartgen: the %s %s holds a backtick; the stacks are written as raw strings", st.caller, o.id)
		}
		out.objs = append(out.objs, objText{id: o.id, gates: o.gates, body: body})
	}
	return out, nil
}

// stackDefine is the define name of objs, all rendered only when the
// config's render is true, their tagged lines as if blocks (ifBlocks).
func stackDefine(name string, objs []objText, about string) string {
	var b strings.Builder
	b.WriteString("{{- /*\n" + about + "\n*/ -}}\n{{- define " + jsonQuote(name) + " }}\n{{- if .render }}\n")
	for _, o := range objs {
		if len(o.gates) > 0 {
			cond := o.gates[0]
			if len(o.gates) > 1 {
				cond = "and " + strings.Join(o.gates, " ")
			}
			fmt.Fprintf(&b, "{{- if %s }}\n", cond)
		}
		b.WriteString("---\n" + ifBlocks(o.body) + "\n")
		if len(o.gates) > 0 {
			b.WriteString("{{- end }}\n")
		}
	}
	b.WriteString("{{- end }}\n{{- end }}\n")
	return b.String()
}

// mergeStacks puts every object both callers render and whose texts merge
// in the shared stack, and the others in their caller's own.
func mergeStacks(e, c []objText) (shared []objText, own map[naming.Caller][]objText, err error) {
	fixedE, err := fixedValues(naming.CallerEtcd)
	if err != nil {
		return nil, nil, err
	}
	fixedC, err := fixedValues(naming.CallerCluster)
	if err != nil {
		return nil, nil, err
	}
	own = map[naming.Caller][]objText{}
	inEtcd := map[string]objText{}
	for _, o := range e {
		inEtcd[o.id] = o
	}
	merged := map[string]bool{}
	for _, co := range c {
		eo, ok := inEtcd[co.id]
		if !ok {
			own[naming.CallerCluster] = append(own[naming.CallerCluster], co)
			continue
		}
		text, ok := mergeObject(eo.body, co.body, fixedE, fixedC)
		if ok {
			// Each caller's view must be its own text.
			if err := sameText(view(text, true), eo.body, fixedE); err != nil {
				return nil, nil, fmt.Errorf("chartgen: the shared %s is not the etcd chart's: %w", co.id, err)
			}
			if err := sameText(view(text, false), co.body, fixedC); err != nil {
				return nil, nil, fmt.Errorf("chartgen: the shared %s is not a tenant cluster's: %w", co.id, err)
			}
			// The etcd chart's config serves every optional API.
			shared = append(shared, objText{id: co.id, gates: co.gates, body: text})
			merged[co.id] = true
			continue
		}
		own[naming.CallerCluster] = append(own[naming.CallerCluster], co)
	}
	for _, eo := range e {
		if !merged[eo.id] {
			own[naming.CallerEtcd] = append(own[naming.CallerEtcd], eo)
		}
	}
	return shared, own, nil
}

// stackFile is the library chart's template of the objects both callers
// render; callerFile a caller's, its config and its own objects.
const stackFile = "templates/_etcdshapes_objects.tpl"

func callerFile(caller naming.Caller) string {
	return "templates/_etcdshapes_" + caller.String() + ".tpl"
}

// The headers of the stack files.
const (
	sharedStackAbout = `etcdshapes.objects: the objects both callers render, as the builders
render them, with an action where a value depends on the input and, where
the two differ, the lines of each in an if block (.etcdChart); dot is the
config (etcdshapes.config).`
	ownStackAbout = `%s: the objects only the %s renders, as the builders
render them, with an action where a value depends on the input; dot is
the config (etcdshapes.config).`
)

// libraryStacks writes both callers' stacks from one sentinel set: the
// template of the objects both render, each caller's template (its config
// and its own objects) and the objects kept apart as files.
func libraryStacks(s sentinel) ([]File, error) {
	texts := map[naming.Caller]stackText{}
	for _, caller := range naming.Callers() {
		st, err := renderStack(caller, s)
		if err != nil {
			return nil, err
		}
		sx, err := writeStack(st, shapeReasons)
		if err != nil {
			return nil, err
		}
		texts[caller] = sx
	}
	shared, own, err := mergeStacks(texts[naming.CallerEtcd].objs, texts[naming.CallerCluster].objs)
	if err != nil {
		return nil, err
	}
	out := []File{{Path: stackFile, Data: []byte(tplHeader("") + stackDefine(sharedStackName, shared, sharedStackAbout))}}
	for _, caller := range naming.Callers() {
		ownText := stackDefine(stackName(caller), own[caller], fmt.Sprintf(ownStackAbout, stackName(caller), callerTitle[caller]))
		out = append(out, texts[caller].objects...)
		out = append(out, File{Path: callerFile(caller), Data: []byte(tplHeader("") + ownText)})
	}
	return out, nil
}

// callerTitle names a caller in the files' comments.
var callerTitle = map[naming.Caller]string{naming.CallerEtcd: "etcd chart", naming.CallerCluster: "per-cluster etcd"}

// shapesFiles writes the stacks from the first sentinel set, after
// checking that the second set writes the same text: a field that depends
// on an input the templates do not compute makes the two differ.
func shapesFiles() ([]File, error) {
	var runs [2][]File
	for i, s := range sentinels {
		files, err := libraryStacks(s)
		if err != nil {
			return nil, err
		}
		var all strings.Builder
		for _, f := range files {
			all.Write(f.Data)
		}
		if strings.Contains(all.String(), sentinelMarker) {
			return nil, fmt.Errorf("chartgen: a sentinel survived generation: %s", firstLineWith(all.String(), sentinelMarker))
		}
		lits, err := s.literals()
		if err != nil {
			return nil, err
		}
		for _, lit := range lits {
			if strings.Contains(all.String(), lit) {
				return nil, fmt.Errorf("chartgen: sentinel value %q survived generation: %s", lit, firstLineWith(all.String(), lit))
			}
		}
		runs[i] = files
	}
	if len(runs[0]) != len(runs[1]) {
		return nil, fmt.Errorf("chartgen: the builders' output depends on an input the templates do not compute: %d files, then %d", len(runs[0]), len(runs[1]))
	}
	for j := range runs[0] {
		a, b := runs[0][j], runs[1][j]
		if a.Path != b.Path || !bytes.Equal(a.Data, b.Data) {
			return nil, fmt.Errorf("chartgen: the builders' output depends on an input the templates do not compute (%s):\n%s", a.Path, firstDifference(string(a.Data), string(b.Data)))
		}
	}
	return runs[0], nil
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

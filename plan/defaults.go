package plan

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/etcdshapes/etcdshapes/internal/jsontree"
	"github.com/etcdshapes/etcdshapes/internal/plainjson"
)

// The API server fills defaults into every object it stores: a CRD's from
// its structural schema (an EtcdCluster without spec.replicas has 3), a
// built-in kind's from its Go defaulting functions (a CronJob's
// concurrencyPolicy is Allow). The plan applies the same defaults to live
// objects before comparing, so that a field the desired object sets to
// its default is no change where the live object leaves it out (a typed
// object from a client, a file written by hand), and so that a field this
// field manager stops setting is reported as what it becomes: its default
// where it has one.
//
// Defaults that depend on other fields (a container's imagePullPolicy on
// its image tag, a Service port's targetPort on its port, a RoleBinding
// subject's apiGroup on its kind) are derived where the built-in table
// says (defaultsNode.derive), as the API server derives them: after an
// apply removes such a field, the server fills it in again.

// defaultsNode is the part of a schema that carries defaults: the default
// of the field itself and the nodes of its properties, list items and
// map values that have defaults somewhere below. A nil node has none.
type defaultsNode struct {
	value    any // the default, normalized; meaningful when hasValue
	hasValue bool
	nullable bool // a null is kept (else it is replaced by the default)
	// required are the properties an object here must have (a CRD's
	// required; the API server refuses an object without them).
	required   []string
	properties map[string]*defaultsNode
	items      *defaultsNode
	additional *defaultsNode
	// derive fills in the defaults of an object at this node that depend
	// on its other fields (a built-in kind's SetDefaults_* functions), if
	// write, and reports whether it would change m; nil for most nodes.
	derive func(m map[string]any, write bool) bool
}

// apply fills the defaults into v as the API server's structural
// defaulting does: a property with a default that is absent (or null
// where the schema does not allow null) takes a copy of the default,
// within objects that exist; then every property, list item and map value
// is defaulted in turn, defaults just filled in included.
func (n *defaultsNode) apply(v any) {
	if n == nil {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		for k, p := range n.properties {
			if p.takesDefault(t, k) {
				t[k] = copyJSON(p.value)
			}
		}
		if n.derive != nil {
			n.derive(t, true)
		}
		if n.additional != nil {
			for k, c := range t {
				if p, ok := n.properties[k]; ok {
					p.apply(c)
				} else {
					n.additional.apply(c)
				}
			}
			return
		}
		for k, p := range n.properties {
			if c, ok := t[k]; ok {
				p.apply(c)
			}
		}
	case []any:
		if n.items != nil {
			for _, e := range t {
				n.items.apply(e)
			}
		}
	}
}

// missingRequired is the path of the first property an object of v
// requires and lacks, at any depth within objects that exist; "" when
// there is none.
func (n *defaultsNode) missingRequired(v any, path string) string {
	if n == nil {
		return ""
	}
	switch t := v.(type) {
	case map[string]any:
		for _, r := range n.required {
			if _, ok := t[r]; !ok {
				return strings.TrimPrefix(path+"."+r, ".")
			}
		}
		for _, k := range slices.Sorted(maps.Keys(t)) {
			p, ok := n.properties[k]
			if !ok {
				p = n.additional
			}
			if m := p.missingRequired(t[k], path+"."+k); m != "" {
				return m
			}
		}
	case []any:
		for i, e := range t {
			if m := n.items.missingRequired(e, path+"["+strconv.Itoa(i)+"]"); m != "" {
				return m
			}
		}
	}
	return ""
}

// takesDefault reports whether the property k of the object t, whose
// node is p, takes p's default: p has one and k is absent, or null where
// the schema does not allow null. apply and changes decide alike here.
func (p *defaultsNode) takesDefault(t map[string]any, k string) bool {
	if !p.hasValue {
		return false
	}
	cur, ok := t[k]
	return !ok || (cur == nil && !p.nullable)
}

// changes reports whether apply would change v.
func (n *defaultsNode) changes(v any) bool {
	if n == nil {
		return false
	}
	switch t := v.(type) {
	case map[string]any:
		for k, p := range n.properties {
			if p.takesDefault(t, k) {
				return true
			}
		}
		if n.derive != nil && n.derive(t, false) {
			return true
		}
		for k, c := range t {
			p, ok := n.properties[k]
			if !ok {
				p = n.additional
			}
			if p.changes(c) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if n.items.changes(e) {
				return true
			}
		}
	}
	return false
}

// child is the node of a field (a property or a map value) or of a list
// element; nil when there is none.
func (n *defaultsNode) child(pe fieldpath.PathElement) *defaultsNode {
	if n == nil {
		return nil
	}
	if pe.FieldName != nil {
		if p, ok := n.properties[*pe.FieldName]; ok {
			return p
		}
		return n.additional
	}
	return n.items
}

// at is the node of a path of field names, "spec.replicas"; nil when none.
func (n *defaultsNode) at(path string) *defaultsNode {
	for _, pe := range dotted(path) {
		n = n.child(pe)
	}
	return n
}

// copyJSON is a deep copy of a decoded JSON tree.
func copyJSON(v any) any { return jsontree.Copy(v, nil) }

// defaultsFor is the defaults node of an object's apiVersion and kind:
// the CRD's (generated from the CRDs, zz_generated.crddefaults.go) or the
// built-in kind's (builtinDefaults); nil when there is none.
func defaultsFor(apiVersion, kind string) (*defaultsNode, error) {
	table, err := defaultsByKind()
	if err != nil {
		return nil, err
	}
	return table[kindKey{apiVersion, kind}], nil
}

// kindKey is an apiVersion and a kind.
type kindKey struct{ apiVersion, kind string }

// splitKindKey reads "group/version/Kind" (or "v1/Kind").
func splitKindKey(gvk string) kindKey {
	i := strings.LastIndex(gvk, "/")
	return kindKey{gvk[:max(i, 0)], gvk[i+1:]}
}

// defaultsByKind is defaultsTable keyed by kindKey, for lookups that
// build no string.
var defaultsByKind = sync.OnceValues(func() (map[kindKey]*defaultsNode, error) {
	table, err := defaultsTable()
	if err != nil {
		return nil, err
	}
	out := make(map[kindKey]*defaultsNode, len(table))
	for gvk, n := range table {
		out[splitKindKey(gvk)] = n
	}
	return out, nil
})

// defaultsTable is every kind's defaults node by "group/version/Kind"
// ("v1/Service" for the core group), built on first use.
var defaultsTable = sync.OnceValues(func() (map[string]*defaultsNode, error) {
	var raw map[string]any
	if err := plainjson.Decode([]byte(crdDefaultsJSON), &raw); err != nil {
		return nil, fmt.Errorf("the generated CRD defaults do not parse: %w", err)
	}
	table := make(map[string]*defaultsNode, len(raw)+len(builtinDefaults))
	for gvk, v := range raw {
		n, err := parseDefaults(v)
		if err != nil {
			return nil, fmt.Errorf("the generated CRD defaults of %s: %w", gvk, err)
		}
		table[gvk] = n
	}
	for gvk, n := range builtinDefaults {
		if _, dup := table[gvk]; dup {
			return nil, fmt.Errorf("%s has defaults from a CRD and built-in ones", gvk)
		}
		table[gvk] = n
	}
	return table, nil
})

// parseDefaults reads a node of the generated table: {"default": ...,
// "nullable": true, "properties": {...}, "items": {...},
// "additionalProperties": {...}}, each key optional.
func parseDefaults(v any) (*defaultsNode, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("a node must be an object, not %T", v)
	}
	n := &defaultsNode{}
	for k, c := range m {
		var err error
		switch k {
		case "default":
			n.hasValue = true
			n.value, err = normalize(c)
		case "nullable":
			n.nullable, ok = c.(bool)
			if !ok {
				err = fmt.Errorf("nullable must be a bool")
			}
		case "required":
			names, ok := c.([]any)
			if !ok {
				return nil, fmt.Errorf("required must be a list")
			}
			for _, r := range names {
				name, ok := r.(string)
				if !ok {
					return nil, fmt.Errorf("required must list names")
				}
				n.required = append(n.required, name)
			}
		case "properties":
			props, ok := c.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("properties must be an object")
			}
			n.properties = make(map[string]*defaultsNode, len(props))
			for name, p := range props {
				if n.properties[name], err = parseDefaults(p); err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
			}
		case "items":
			n.items, err = parseDefaults(c)
		case "additionalProperties":
			n.additional, err = parseDefaults(c)
		default:
			err = fmt.Errorf("unknown key %q", k)
		}
		if err != nil {
			return nil, err
		}
	}
	return n, nil
}

// The built-in kinds' defaults, as k8s.io/kubernetes' SetDefaults_*
// functions (pkg/apis/{core,batch,rbac}/v1) set them for the kinds and
// fields the stacks emit. The e2e suite records what a real API server
// returns for the rendered stacks (testdata/apiserver), and
// TestBuiltinDefaultsMatchTheAPIServer checks this table against it.
var builtinDefaults = func() map[string]*defaultsNode {
	def := func(v any) *defaultsNode { return &defaultsNode{value: v, hasValue: true} }
	obj := func(props map[string]*defaultsNode) *defaultsNode { return &defaultsNode{properties: props} }
	list := func(items *defaultsNode) *defaultsNode { return &defaultsNode{items: items} }

	container := obj(map[string]*defaultsNode{
		"terminationMessagePath":   def("/dev/termination-log"),
		"terminationMessagePolicy": def("File"),
		"ports":                    list(obj(map[string]*defaultsNode{"protocol": def("TCP")})),
		"env": list(obj(map[string]*defaultsNode{"valueFrom": obj(map[string]*defaultsNode{
			"fieldRef": obj(map[string]*defaultsNode{"apiVersion": def("v1")}),
		})})),
	})
	container.derive = pullPolicy
	mode := obj(map[string]*defaultsNode{"defaultMode": def(int64(0o644))})
	podSpec := obj(map[string]*defaultsNode{
		"dnsPolicy":                     def("ClusterFirst"),
		"restartPolicy":                 def("Always"),
		"schedulerName":                 def("default-scheduler"),
		"securityContext":               def(map[string]any{}),
		"terminationGracePeriodSeconds": def(int64(30)),
		"containers":                    list(container),
		"initContainers":                list(container),
		"volumes": list(obj(map[string]*defaultsNode{
			"secret":    mode,
			"configMap": mode,
			"projected": mode,
		})),
	})
	podSpec.derive = serviceAccountMirror
	template := obj(map[string]*defaultsNode{"spec": podSpec})
	jobSpec := func(withJobDefaults bool) *defaultsNode {
		props := map[string]*defaultsNode{"template": template}
		if withJobDefaults {
			props["backoffLimit"] = def(int64(6))
			props["completionMode"] = def("NonIndexed")
			props["completions"] = def(int64(1))
			props["parallelism"] = def(int64(1))
			props["podReplacementPolicy"] = def("TerminatingOrFailed")
			props["suspend"] = def(false)
		}
		return obj(props)
	}
	return map[string]*defaultsNode{
		"batch/v1/CronJob": obj(map[string]*defaultsNode{"spec": obj(map[string]*defaultsNode{
			"concurrencyPolicy":          def("Allow"),
			"failedJobsHistoryLimit":     def(int64(1)),
			"successfulJobsHistoryLimit": def(int64(3)),
			"suspend":                    def(false),
			// SetDefaults_Job runs on Jobs, not on a CronJob's template.
			"jobTemplate": obj(map[string]*defaultsNode{"spec": jobSpec(false)}),
		})}),
		"batch/v1/Job": obj(map[string]*defaultsNode{"spec": jobSpec(true)}),
		"v1/Service": obj(map[string]*defaultsNode{"spec": obj(map[string]*defaultsNode{
			"sessionAffinity": def("None"),
			"type":            def("ClusterIP"),
			"ports":           list(servicePort),
		})}),
		"v1/Secret": obj(map[string]*defaultsNode{"type": def("Opaque")}),
		"rbac.authorization.k8s.io/v1/RoleBinding": obj(map[string]*defaultsNode{
			"roleRef":  obj(map[string]*defaultsNode{"apiGroup": def("rbac.authorization.k8s.io")}),
			"subjects": list(subject),
		}),
	}
}()

// servicePort is a Service port's defaults: protocol TCP, targetPort the
// port (SetDefaults_Service).
var servicePort = &defaultsNode{
	properties: map[string]*defaultsNode{"protocol": {value: "TCP", hasValue: true}},
	derive: func(m map[string]any, write bool) bool {
		if tp, ok := m["targetPort"]; !ok || tp == nil || tp == int64(0) || tp == "" {
			if port, ok := m["port"]; ok {
				if write {
					m["targetPort"] = port
				}
				return true
			}
		}
		return false
	},
}

// subject is a RoleBinding subject's defaults: the RBAC API group for a
// User or Group (SetDefaults_Subject; a ServiceAccount's stays "", which
// is not printed).
var subject = &defaultsNode{derive: func(m map[string]any, write bool) bool {
	if g, ok := m["apiGroup"]; ok && g != nil && g != "" {
		return false
	}
	switch m["kind"] {
	case "User", "Group":
		if write {
			m["apiGroup"] = "rbac.authorization.k8s.io"
		}
		return true
	}
	return false
}}

// serviceAccountMirror is a pod spec's deprecated serviceAccount, which
// the v1 conversion keeps equal to serviceAccountName (and reads it from
// when serviceAccountName is empty).
func serviceAccountMirror(m map[string]any, write bool) bool {
	name, _ := m["serviceAccountName"].(string)
	old, _ := m["serviceAccount"].(string)
	switch {
	case name == "" && old != "":
		if write {
			m["serviceAccountName"] = old
		}
		return true
	case name != "" && old != name:
		if write {
			m["serviceAccount"] = name
		}
		return true
	}
	return false
}

// pullPolicy is a container's imagePullPolicy default
// (SetDefaults_Container): Always for the "latest" tag or no tag and no
// digest, IfNotPresent otherwise.
func pullPolicy(m map[string]any, write bool) bool {
	if p, ok := m["imagePullPolicy"]; ok && p != nil && p != "" {
		return false
	}
	if !write {
		return true
	}
	image, _ := m["image"].(string)
	name, digest, _ := strings.Cut(image, "@")
	tag := ""
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
		tag = name[i+1:]
	}
	if tag == "" && digest == "" {
		tag = "latest"
	}
	if tag == "latest" {
		m["imagePullPolicy"] = "Always"
	} else {
		m["imagePullPolicy"] = "IfNotPresent"
	}
	return true
}

package etcdshapes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
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
// subject's apiGroup on its kind) are not in the tables; live fields the
// desired objects do not set are never compared anyway (see project), so
// they are never changes.

// defaultsNode is the part of a schema that carries defaults: the default
// of the field itself and the nodes of its properties, list items and
// map values that have defaults somewhere below. A nil node has none.
type defaultsNode struct {
	value      any // the default, normalized; meaningful when hasValue
	hasValue   bool
	nullable   bool // a null is kept (else it is replaced by the default)
	properties map[string]*defaultsNode
	items      *defaultsNode
	additional *defaultsNode
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
			if !p.hasValue {
				continue
			}
			if cur, ok := t[k]; !ok || (cur == nil && !p.nullable) {
				t[k] = copyJSON(p.value)
			}
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

func copyJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, c := range t {
			out[k] = copyJSON(c)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, c := range t {
			out[i] = copyJSON(c)
		}
		return out
	}
	return v
}

// defaultsFor is the defaults node of an object's apiVersion and kind:
// the CRD's (generated from the CRDs, zz_generated.crddefaults.go) or the
// built-in kind's (builtinDefaults); nil when there is none.
func defaultsFor(apiVersion, kind string) (*defaultsNode, error) {
	table, err := defaultsTable()
	if err != nil {
		return nil, err
	}
	return table[apiVersion+"/"+kind], nil
}

// defaultsTable is every kind's defaults node by "group/version/Kind"
// ("v1/Service" for the core group), built on first use.
var defaultsTable = sync.OnceValues(func() (map[string]*defaultsNode, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(crdDefaultsJSON)))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
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
			"ports":           list(obj(map[string]*defaultsNode{"protocol": def("TCP")})),
		})}),
		"v1/Secret": obj(map[string]*defaultsNode{"type": def("Opaque")}),
	}
}()

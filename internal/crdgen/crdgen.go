// Package crdgen generates Go source from the CustomResourceDefinitions of
// the custom kinds the library emits (the directories ETCDSHAPES_CRDS
// lists, ../shared/crds and ../shared/crds-planned beside a checkout), so
// that the library itself never reads them at run time.
//
// Today it generates the defaults table the plan applies to live objects
// (zz_generated.crddefaults.go in the root package): for every served
// version of every CRD, the defaults its structural schema declares at
// any depth (properties, list items, map values), each pruned as the API
// server prunes a default, whether the field allows null, and the
// properties each object requires (an apply that leaves one out is
// refused).
//
// Run it with go generate in the repository root; TestCRDDefaultsUpToDate
// fails when the checked-in file no longer matches the CRDs.
package crdgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/format"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/etcdshapes/etcdshapes/internal/crdpath"
	"github.com/etcdshapes/etcdshapes/internal/plainjson"

	"sigs.k8s.io/yaml"
)

// Node is the part of a schema that carries defaults and required
// fields, in the form the generated table stores: each key is left out
// when empty.
type Node struct {
	// Default is the schema's default, pruned as the API server prunes it.
	Default json.RawMessage `json:"default,omitempty"`
	// Nullable is the schema's nullable, kept only with a Default: the API
	// server keeps an explicit null of a nullable field instead of defaulting
	// it.
	Nullable bool `json:"nullable,omitempty"`
	// Required are the properties an object here must have (the API
	// server refuses it without them: "spec: Required value").
	Required []string `json:"required,omitempty"`
	// Properties are the nodes of the object's properties that carry a default
	// or required fields below them.
	Properties map[string]*Node `json:"properties,omitempty"`
	// Items is the node of an array's items.
	Items *Node `json:"items,omitempty"`
	// AdditionalProperties is the node of a map's values.
	AdditionalProperties *Node `json:"additionalProperties,omitempty"`
}

// Defaults reads every CRD in each of dirs (*.yaml, *.yml, *.json; other
// files and documents of other kinds are skipped) and returns the defaults
// node of each served version, keyed by "group/version/Kind". A version
// without any default is left out.
func Defaults(dirs ...string) (map[string]*Node, error) {
	out := map[string]*Node{}
	crds := 0
	for _, dir := range dirs {
		n, err := defaultsOfDir(dir, out)
		if err != nil {
			return nil, err
		}
		crds += n
	}
	if crds == 0 {
		return nil, fmt.Errorf("no CustomResourceDefinition in %s", strings.Join(dirs, string(os.PathListSeparator)))
	}
	return out, nil
}

// defaultsOfDir adds the defaults of the CRDs in dir to out and returns
// how many CRDs it read.
func defaultsOfDir(dir string, out map[string]*Node) (int, error) {
	docs, err := crdpath.Documents(dir)
	if err != nil {
		return 0, err
	}
	crds := 0
	for _, d := range docs {
		n, err := defaultsOfCRD(d.Data, out)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", d.Path, err)
		}
		crds += n
	}
	return crds, nil
}

// crd is the part of a CustomResourceDefinition the generator reads.
type crd struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Spec       struct {
		Group string `json:"group"`
		Names struct {
			Kind string `json:"kind"`
		} `json:"names"`
		Versions []struct {
			Name   string `json:"name"`
			Served bool   `json:"served"`
			Schema *struct {
				OpenAPIV3Schema json.RawMessage `json:"openAPIV3Schema"`
			} `json:"schema"`
		} `json:"versions"`
	} `json:"spec"`
}

// defaultsOfCRD adds the defaults of one YAML document to out when it is
// a CustomResourceDefinition; it returns 1 if it was.
func defaultsOfCRD(doc []byte, out map[string]*Node) (int, error) {
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return 0, err
	}
	if t := bytes.TrimSpace(js); len(t) == 0 || string(t) == "null" {
		return 0, nil
	}
	var c crd
	if err := json.Unmarshal(js, &c); err != nil {
		return 0, err
	}
	if c.Kind != "CustomResourceDefinition" {
		return 0, nil
	}
	if c.APIVersion != "apiextensions.k8s.io/v1" {
		return 0, fmt.Errorf("CustomResourceDefinition of %s is %s; only apiextensions.k8s.io/v1 is read", c.Spec.Names.Kind, c.APIVersion)
	}
	for _, v := range c.Spec.Versions {
		if !v.Served {
			continue
		}
		gvk := c.Spec.Group + "/" + v.Name + "/" + c.Spec.Names.Kind
		if v.Schema == nil || len(v.Schema.OpenAPIV3Schema) == 0 {
			return 0, fmt.Errorf("%s has no schema", gvk)
		}
		var s map[string]any
		if err := plainjson.Decode(v.Schema.OpenAPIV3Schema, &s); err != nil {
			return 0, fmt.Errorf("%s: %w", gvk, err)
		}
		n, err := nodeOf(s, gvk)
		if err != nil {
			return 0, err
		}
		if _, dup := out[gvk]; dup {
			return 0, fmt.Errorf("%s is defined twice", gvk)
		}
		if n != nil {
			out[gvk] = n
		}
	}
	return 1, nil
}

// nodeOf is the defaults node of a schema; nil when nothing at or below
// it has a default.
func nodeOf(s map[string]any, path string) (*Node, error) {
	n := &Node{}
	if d, ok := s["default"]; ok {
		pruned := prune(d, s)
		b, err := plainjson.Marshal(pruned, "")
		if err != nil {
			return nil, fmt.Errorf("%s: default: %w", path, err)
		}
		n.Default = b
		n.Nullable, _ = s["nullable"].(bool)
	}
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			name, ok := r.(string)
			if !ok {
				return nil, fmt.Errorf("%s: required: %v is not a property name", path, r)
			}
			n.Required = append(n.Required, name)
		}
		slices.Sort(n.Required)
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(props)) {
			ps, ok := props[k].(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s.%s: not a schema", path, k)
			}
			c, err := nodeOf(ps, path+"."+k)
			if err != nil {
				return nil, err
			}
			if c != nil {
				if n.Properties == nil {
					n.Properties = map[string]*Node{}
				}
				n.Properties[k] = c
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		c, err := nodeOf(items, path+"[]")
		if err != nil {
			return nil, err
		}
		n.Items = c
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		c, err := nodeOf(ap, path+"{}")
		if err != nil {
			return nil, err
		}
		n.AdditionalProperties = c
	}
	if n.Default == nil && n.Required == nil && n.Properties == nil && n.Items == nil && n.AdditionalProperties == nil {
		return nil, nil
	}
	return n, nil
}

// prune drops from a default what the API server's structural pruning
// drops from it (PruneDefaults): fields of an object that its schema
// does not know, unless it preserves unknown fields or is an embedded
// resource (which keeps apiVersion, kind and metadata).
func prune(v any, s map[string]any) any {
	switch t := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		ap, _ := s["additionalProperties"].(map[string]any)
		preserve, _ := s["x-kubernetes-preserve-unknown-fields"].(bool)
		embedded, _ := s["x-kubernetes-embedded-resource"].(bool)
		out := make(map[string]any, len(t))
		for k, c := range t {
			switch ps, known := props[k].(map[string]any); {
			case known:
				out[k] = prune(c, ps)
			case ap != nil:
				out[k] = prune(c, ap)
			case preserve || (embedded && (k == "apiVersion" || k == "kind" || k == "metadata")):
				out[k] = c
			}
		}
		return out
	case []any:
		items, _ := s["items"].(map[string]any)
		out := make([]any, len(t))
		for i, c := range t {
			if items != nil {
				out[i] = prune(c, items)
			} else {
				out[i] = c
			}
		}
		return out
	}
	return v
}

// Source is the generated Go file of the defaults of the CRDs in dirs, for
// package pkg.
func Source(dirs []string, pkg string) ([]byte, error) {
	nodes, err := Defaults(dirs...)
	if err != nil {
		return nil, err
	}
	table, err := json.MarshalIndent(nodes, "", "\t")
	if err != nil {
		return nil, err
	}
	if bytes.ContainsRune(table, '`') {
		return nil, errors.New("a default holds a backquote, which the generated raw string cannot")
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by internal/crdgen from the CRDs (ETCDSHAPES_CRDS); DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	b.WriteString(`// crdDefaultsJSON holds, for every served version of every CRD of a kind
// the library emits ("group/version/Kind"), the defaults its structural
// schema declares: each node's default, whether it allows null, the
// properties it requires, and the nodes of its properties, list items and
// map values that have defaults or requirements below them. See
// plan_defaults.go.
`)
	fmt.Fprintf(&b, "const crdDefaultsJSON = `%s`\n", table)
	return format.Source(b.Bytes())
}

// Dirs are the CRD directories: those $ETCDSHAPES_CRDS lists
// (crdpath.Dirs, relative ones taken from root), else ../shared/crds and
// ../shared/crds-planned beside root.
func Dirs(root string) []string {
	dirs, _ := crdpath.Resolve(root)
	return dirs
}

package etcdshapes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"
)

// Marshal prints objects as multi-document YAML, each document opened by
// "---", in the given order. Each document is sigs.k8s.io/yaml's form of the
// object (keys sorted, TypeMeta first as set by the builders) without the
// noise typed structs carry: a top-level status holding only empty maps,
// and empty metadata of nested templates. cert-manager
// durations are printed the way the charts spell them ("87600h", not
// "87600h0m0s"): the same value, and the same bytes the API server stores.
func Marshal(objs []Object) ([]byte, error) {
	var buf bytes.Buffer
	for _, o := range objs {
		doc, err := MarshalObject(o)
		if err != nil {
			return nil, err
		}
		buf.WriteString("---\n")
		buf.Write(doc)
	}
	return buf.Bytes(), nil
}

// MarshalObject prints one object as Marshal does, without the separator.
func MarshalObject(o Object) ([]byte, error) {
	m, err := toMap(o)
	if err != nil {
		return nil, err
	}
	return yaml.Marshal(m)
}

// toMap is the object's JSON form with the serializer's clean-ups applied.
func toMap(o Object) (map[string]any, error) {
	gvk := o.GetObjectKind().GroupVersionKind()
	if gvk.Kind == "" || gvk.Version == "" {
		return nil, fmt.Errorf("etcdshapes: %T %q has no apiVersion/kind set", o, o.GetName())
	}
	raw, err := json.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("etcdshapes: marshal %s %q: %w", gvk.Kind, o.GetName(), err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	// Builders never set status; typed structs still print their zero
	// status (e.g. a Service's "loadBalancer: {}").
	if st, ok := m["status"].(map[string]any); ok && isEmptyTree(st) {
		delete(m, "status")
	}
	for k, v := range m {
		if k != "metadata" {
			dropEmptyMetadata(v)
		}
	}
	if gvk.Group == "cert-manager.io" && gvk.Kind == "Certificate" {
		if spec, ok := m["spec"].(map[string]any); ok {
			for _, k := range []string{"duration", "renewBefore"} {
				if d, ok := spec[k].(string); ok {
					spec[k] = shortDuration(d)
				}
			}
			// cert-manager's isCA is omitempty; the charts state it on
			// serving certificates, so print false there too.
			if _, set := spec["isCA"]; !set && len(asList(spec["dnsNames"])) > 0 {
				spec["isCA"] = false
			}
		}
	}
	return m, nil
}

// dropEmptyMetadata removes the "metadata: {}" that typed pod and job
// templates carry when they set no labels.
func dropEmptyMetadata(v any) {
	switch t := v.(type) {
	case map[string]any:
		if md, ok := t["metadata"].(map[string]any); ok && len(md) == 0 {
			delete(t, "metadata")
		}
		for _, c := range t {
			dropEmptyMetadata(c)
		}
	case []any:
		for _, c := range t {
			dropEmptyMetadata(c)
		}
	}
}

// isEmptyTree reports whether a map holds nothing but empty maps.
func isEmptyTree(m map[string]any) bool {
	for _, v := range m {
		c, ok := v.(map[string]any)
		if !ok || !isEmptyTree(c) {
			return false
		}
	}
	return true
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// shortDuration drops the zero minutes and seconds time.Duration.String
// appends: "87600h0m0s" → "87600h", "1h30m0s" → "1h30m".
func shortDuration(d string) string {
	if strings.HasSuffix(d, "m0s") {
		d = strings.TrimSuffix(d, "0s")
	}
	if strings.HasSuffix(d, "h0m") {
		d = strings.TrimSuffix(d, "0m")
	}
	return d
}

package bench

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"sigs.k8s.io/yaml"
)

// This is marshal.go's printer before the fast emitter, copied so the
// benchmark measures it as it was: the object's JSON read back into maps,
// cleaned, and printed by sigs.k8s.io/yaml. TestPrintersAgree checks that it
// still prints what etcdshapes.Marshal prints.

func oldMarshalObject(o etcdshapes.Object) ([]byte, error) {
	m, err := oldToMap(o)
	if err != nil {
		return nil, err
	}
	return yaml.Marshal(m)
}

func oldToMap(o etcdshapes.Object) (map[string]any, error) {
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
	if st, ok := m["status"].(map[string]any); ok && oldIsEmptyTree(st) {
		delete(m, "status")
	}
	for k, v := range m {
		if k != "metadata" {
			oldDropEmptyMetadata(v)
		}
	}
	if gvk.Group == "cert-manager.io" && gvk.Kind == "Certificate" {
		if spec, ok := m["spec"].(map[string]any); ok {
			for _, k := range []string{"duration", "renewBefore"} {
				if d, ok := spec[k].(string); ok {
					spec[k] = oldShortDuration(d)
				}
			}
			if l, _ := spec["dnsNames"].([]any); len(l) > 0 {
				if _, set := spec["isCA"]; !set {
					spec["isCA"] = false
				}
			}
		}
	}
	return m, nil
}

func oldDropEmptyMetadata(v any) {
	switch t := v.(type) {
	case map[string]any:
		if md, ok := t["metadata"].(map[string]any); ok && len(md) == 0 {
			delete(t, "metadata")
		}
		for _, c := range t {
			oldDropEmptyMetadata(c)
		}
	case []any:
		for _, c := range t {
			oldDropEmptyMetadata(c)
		}
	}
}

func oldIsEmptyTree(m map[string]any) bool {
	for _, v := range m {
		c, ok := v.(map[string]any)
		if !ok || !oldIsEmptyTree(c) {
			return false
		}
	}
	return true
}

func oldShortDuration(d string) string {
	if strings.HasSuffix(d, "m0s") {
		d = strings.TrimSuffix(d, "0s")
	}
	if strings.HasSuffix(d, "h0m") {
		d = strings.TrimSuffix(d, "0m")
	}
	return d
}

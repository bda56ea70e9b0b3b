package crdcheck

import (
	"fmt"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Default returns a copy of obj (a custom resource's JSON tree) with the
// defaults of its CRD filled in by the API server's own structural
// defaulting (the defaults pruned as the server prunes them), as the
// server does when it decodes a request or reads an object from etcd.
func (c *Checker) Default(obj map[string]any) (map[string]any, error) {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, fmt.Errorf("crdcheck: %w", err)
	}
	cv, ok := c.kinds[gv.WithKind(kind)]
	if !ok {
		return nil, fmt.Errorf("crdcheck: no CRD serves %s/%s", apiVersion, kind)
	}
	out := runtime.DeepCopyJSON(obj)
	structuraldefaulting.Default(out, cv.structural)
	return out, nil
}

// Skeleton is an object of gvk in which every object the schema declares
// exists and is empty, and every list of objects or map of objects holds
// one empty element ("x"), depth first down to the leaves: the object in
// which structural defaulting fills in the most defaults.
func (c *Checker) Skeleton(gvk schema.GroupVersionKind) (map[string]any, error) {
	cv, ok := c.kinds[gvk]
	if !ok {
		return nil, fmt.Errorf("crdcheck: no CRD serves %s", gvk)
	}
	obj, _ := skeleton(cv.structural, 0).(map[string]any)
	if obj == nil {
		obj = map[string]any{}
	}
	obj["apiVersion"] = gvk.GroupVersion().String()
	obj["kind"] = gvk.Kind
	obj["metadata"] = map[string]any{"name": "skeleton", "namespace": "skeleton"}
	return obj, nil
}

func skeleton(s *structuralschema.Structural, depth int) any {
	if s == nil || depth > 40 {
		return nil
	}
	switch s.Type {
	case "object":
		out := map[string]any{}
		for k := range s.Properties {
			p := s.Properties[k]
			if v := skeleton(&p, depth+1); v != nil {
				out[k] = v
			}
		}
		if ap := s.AdditionalProperties; ap != nil && ap.Structural != nil {
			if v := skeleton(ap.Structural, depth+1); v != nil {
				out["x"] = v
			}
		}
		return out
	case "array":
		if v := skeleton(s.Items, depth+1); v != nil {
			return []any{v}
		}
		return []any{}
	}
	return nil
}

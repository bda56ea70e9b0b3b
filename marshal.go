package etcdshapes

import (
	"fmt"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/manifest"

	"github.com/etcdshapes/etcdshapes/internal/jsontree"
	"github.com/etcdshapes/etcdshapes/internal/printer"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Marshal prints objects as multi-document YAML, each document opened by
// "---", in the given order. Each document is sigs.k8s.io/yaml's form of the
// object (keys sorted, TypeMeta first as set by the builders) without the
// noise typed structs carry: a top-level status holding only empty maps,
// and empty metadata of nested templates. cert-manager
// durations are printed the way the charts spell them ("87600h", not
// "87600h0m0s"): the same value, and the same bytes the API server stores.
//
// Those bytes are written by internal/yamlemit straight from the typed
// object (a reflection walk with encoding/json's rules, no JSON written or
// read), 50–80 times faster than going through sigs.k8s.io/yaml; an object
// it cannot print exactly (see its package doc) is printed through
// sigs.k8s.io/yaml.
func Marshal(objs []Object) ([]byte, error) {
	if len(objs) == 0 {
		return nil, nil // no objects, no document: nil, not an empty slice
	}
	st := printer.Get()
	defer printer.Put(st)
	out := make([]byte, 0, st.SizeHint(len(objs)))
	for i, o := range objs {
		if manifest.IsNil(o) {
			return nil, invalid.Errorf(fmt.Sprintf("objects[%d]", i), nil, "must be an object, not nil")
		}
		if err := checkTree(fmt.Sprintf("objects[%d]", i), o); err != nil {
			return nil, err
		}
		out = append(out, "---\n"...)
		var err error
		if out, err = st.AppendObject(out, o); err != nil {
			return nil, invalid.Safe(err)
		}
	}
	st.PerDoc = len(out) / len(objs)
	return out, nil
}

// MarshalObject prints one object as Marshal does, without the separator.
func MarshalObject(o Object) ([]byte, error) {
	if manifest.IsNil(o) {
		return nil, invalid.Errorf("object", nil, "must be an object, not nil")
	}
	if err := checkTree("object", o); err != nil {
		return nil, err
	}
	st := printer.Get()
	defer printer.Put(st)
	b, err := st.AppendObject(nil, o)
	return b, invalid.Safe(err)
}

// checkTree refuses an unstructured object whose tree the printer could
// not walk: one that contains itself or nests absurdly deep (see
// jsontree.Check). Typed objects are trees by their types.
func checkTree(field string, o Object) error {
	if u, ok := o.(*unstructured.Unstructured); ok {
		return jsontree.Check(field, u.Object)
	}
	return nil
}

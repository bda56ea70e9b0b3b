package printer

import (
	"fmt"

	"github.com/etcdshapes/etcdshapes/internal/jsontree"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/manifest"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Marshal is etcdshapes.Marshal (see its doc): it lives here, below the
// root package, so that the packages the root does not build on (the
// plan's and the apply requests' typed JSON, internal/typedjson) print
// objects without importing the root.
func Marshal(objs []manifest.Object) ([]byte, error) {
	if len(objs) == 0 {
		return nil, nil // no objects, no document: nil, not an empty slice
	}
	st := Get()
	defer Put(st)
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

// MarshalObject is etcdshapes.MarshalObject: one object as Marshal prints
// it, without the separator.
func MarshalObject(o manifest.Object) ([]byte, error) {
	if manifest.IsNil(o) {
		return nil, invalid.Errorf("object", nil, "must be an object, not nil")
	}
	if err := checkTree("object", o); err != nil {
		return nil, err
	}
	st := Get()
	defer Put(st)
	b, err := st.AppendObject(nil, o)
	return b, invalid.Safe(err)
}

// checkTree refuses an unstructured object whose tree the printer could
// not walk: one that contains itself or nests absurdly deep (see
// jsontree.Check). Typed objects are trees by their types.
func checkTree(field string, o manifest.Object) error {
	if u, ok := o.(*unstructured.Unstructured); ok {
		return jsontree.Check(field, u.Object)
	}
	return nil
}

// Package typedjson turns a typed object into the JSON that Marshal's YAML
// stands for (keys sorted), for the plan's desired and live trees and the
// apply requests' bodies. A typed object read by a client without
// apiVersion and kind gets them from the library's scheme.
package typedjson

import (
	"fmt"
	"strings"
	"sync"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/invalid"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// scheme knows every kind the stacks contain, for typed objects that
// arrive without TypeMeta (controller-runtime clears it on typed reads).
// Built on first use.
var scheme = sync.OnceValues(func() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	return s, etcdshapes.AddToScheme(s)
})

// Of is a typed object as Marshal prints it, in JSON (keys
// sorted). Typed objects read by a client without apiVersion and kind get
// them from the scheme.
func Of(field string, o etcdshapes.Object) ([]byte, error) {
	o, err := WithKind(field, o)
	if err != nil {
		return nil, err
	}
	doc, err := etcdshapes.MarshalObject(o)
	if err != nil {
		return nil, invalid.Errorf(field, fmt.Sprintf("%T %s", o, o.GetName()), "must marshal: %s", strings.TrimPrefix(err.Error(), "etcdshapes: "))
	}
	return yaml.YAMLToJSON(doc)
}

// WithKind is o, or a copy of it with apiVersion and kind from the scheme
// when it has none (controller-runtime clears them on typed reads).
func WithKind(field string, o etcdshapes.Object) (etcdshapes.Object, error) {
	if o.GetObjectKind().GroupVersionKind().Kind != "" {
		return o, nil
	}
	s, err := scheme()
	if err != nil {
		return nil, err
	}
	gvks, _, err := s.ObjectKinds(o)
	if err != nil || len(gvks) == 0 {
		return nil, invalid.Errorf(field+".kind", "", "must be set: %T is not a kind this library knows", o)
	}
	c, ok := o.DeepCopyObject().(etcdshapes.Object)
	if !ok {
		return nil, invalid.Errorf(field, fmt.Sprintf("%T", o), "must copy to an etcdshapes.Object")
	}
	c.GetObjectKind().SetGroupVersionKind(gvks[0])
	return c, nil
}

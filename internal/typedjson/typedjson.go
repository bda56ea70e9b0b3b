// Package typedjson turns a typed object into the JSON that Marshal's YAML
// stands for (keys sorted), for the plan's desired and live trees and the
// apply requests' bodies. A typed object read by a client without
// apiVersion and kind gets them from the scheme its caller gives (the
// library's, etcdshapes.AddToScheme): the scheme is passed in, not
// imported, so that this package stands below the root package and its
// users (plan, apply) above it.
package typedjson

import (
	"fmt"
	"strings"
	"sync"

	"github.com/etcdshapes/etcdshapes/internal/printer"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/manifest"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// Kinds knows the kinds of a scheme, for typed objects that arrive
// without TypeMeta (controller-runtime clears it on typed reads).
type Kinds struct {
	scheme func() (*runtime.Scheme, error)
}

// NewKinds is the Kinds of the scheme addToScheme registers, built on
// first use.
func NewKinds(addToScheme func(*runtime.Scheme) error) *Kinds {
	return &Kinds{scheme: sync.OnceValues(func() (*runtime.Scheme, error) {
		s := runtime.NewScheme()
		return s, addToScheme(s)
	})}
}

// Of is a typed object as Marshal prints it, in JSON (keys
// sorted). Typed objects read by a client without apiVersion and kind get
// them from the scheme.
func (k *Kinds) Of(field string, o manifest.Object) ([]byte, error) {
	o, err := k.WithKind(field, o)
	if err != nil {
		return nil, err
	}
	doc, err := printer.MarshalObject(o)
	if err != nil {
		return nil, invalid.Errorf(field, fmt.Sprintf("%T %s", o, o.GetName()), "must marshal: %s", strings.TrimPrefix(err.Error(), "etcdshapes: "))
	}
	return yaml.YAMLToJSON(doc)
}

// WithKind is o, or a copy of it with apiVersion and kind from the scheme
// when it has none (controller-runtime clears them on typed reads).
func (k *Kinds) WithKind(field string, o manifest.Object) (manifest.Object, error) {
	if o.GetObjectKind().GroupVersionKind().Kind != "" {
		return o, nil
	}
	s, err := k.scheme()
	if err != nil {
		return nil, err
	}
	gvks, _, err := s.ObjectKinds(o)
	if err != nil || len(gvks) == 0 {
		return nil, invalid.Errorf(field+".kind", "", "must be set: %T is not a kind this library knows", o)
	}
	c, ok := o.DeepCopyObject().(manifest.Object)
	if !ok {
		return nil, invalid.Errorf(field, fmt.Sprintf("%T", o), "must copy to an etcdshapes.Object")
	}
	c.GetObjectKind().SetGroupVersionKind(gvks[0])
	return c, nil
}

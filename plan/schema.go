package plan

import (
	"fmt"
	"github.com/etcdshapes/etcdshapes/internal/smdjson"
	"sync"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// The plan merges with the schema the API server merges server-side apply
// patches with: which lists are keyed (containers by name, ports by port
// and protocol), which are sets and which atomic, which maps are atomic.
// zz_generated.smdschema.go embeds it for every kind the library emits,
// converted at go generate time (internal/schemagen, a module of its own)
// from the CRDs, the way apiextensions-apiserver converts them, and from
// the built-in schema client-go's apply configurations carry. The
// library reads nothing at run time and costs no package for it.

// smdTypes is the embedded schema, decoded on first use (a few
// milliseconds).
var smdTypes = sync.OnceValues(func() (*schema.Schema, error) {
	types, err := smdjson.Decode([]byte(smdSchemaJSON))
	if err != nil {
		return nil, fmt.Errorf("the embedded structured-merge-diff schema: %w", err)
	}
	return &schema.Schema{Types: types}, nil
})

// smdTypeOf is the embedded schema's type of apiVersion/kind; ok is false
// for a kind the library does not emit.
func smdTypeOf(apiVersion, kind string) (typed.ParseableType, bool, error) {
	name, ok := smdKindIndex()[kindKey{apiVersion, kind}]
	if !ok {
		return typed.ParseableType{}, false, nil
	}
	s, err := smdTypes()
	if err != nil {
		return typed.ParseableType{}, false, err
	}
	return typed.ParseableType{Schema: s, TypeRef: schema.TypeRef{NamedType: name}}, true, nil
}

// smdKindIndex is smdKinds keyed by kindKey, each type name once.
var smdKindIndex = sync.OnceValue(func() map[kindKey]*string {
	out := make(map[kindKey]*string, len(smdKinds))
	for gvk, name := range smdKinds {
		out[splitKindKey(gvk)] = &name
	}
	return out
})

// The JSON form of the schema: structured-merge-diff's YAML schema with
// the same keys, one type per line (internal/schemagen/json.go writes it;
// encoding/json reads it in a fraction of the YAML parser's time).

package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	types, err := decodeSMDSchema([]byte(smdSchemaJSON))
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

type smdTypeJSON struct {
	Name string `json:"name"`
	smdAtomJSON
}

type smdAtomJSON struct {
	Scalar string       `json:"scalar,omitempty"`
	List   *smdListJSON `json:"list,omitempty"`
	Map    *smdMapJSON  `json:"map,omitempty"`
}

type smdRefJSON struct {
	NamedType string `json:"namedType,omitempty"`
	smdAtomJSON
	ElementRelationship string `json:"elementRelationship,omitempty"`
	Nullable            bool   `json:"nullable,omitempty"`
}

type smdMapJSON struct {
	Fields              []smdFieldJSON `json:"fields,omitempty"`
	Unions              []smdUnionJSON `json:"unions,omitempty"`
	ElementType         *smdRefJSON    `json:"elementType,omitempty"`
	ElementRelationship string         `json:"elementRelationship,omitempty"`
}

type smdFieldJSON struct {
	Name    string     `json:"name"`
	Type    smdRefJSON `json:"type"`
	Default any        `json:"default,omitempty"`
}

type smdUnionJSON struct {
	Discriminator    *string             `json:"discriminator,omitempty"`
	DeduceInvalidDis bool                `json:"deduceInvalidDiscriminator,omitempty"`
	Fields           []smdUnionFieldJSON `json:"fields,omitempty"`
}

type smdUnionFieldJSON struct {
	FieldName          string `json:"fieldName"`
	DiscriminatorValue string `json:"discriminatorValue"`
}

type smdListJSON struct {
	ElementType         smdRefJSON `json:"elementType"`
	ElementRelationship string     `json:"elementRelationship,omitempty"`
	Keys                []string   `json:"keys,omitempty"`
}

func decodeSMDSchema(js []byte) ([]schema.TypeDef, error) {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var raw []smdTypeJSON
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	out := make([]schema.TypeDef, len(raw))
	for i, t := range raw {
		a, err := smdAtom(t.smdAtomJSON)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		out[i] = schema.TypeDef{Name: t.Name, Atom: a}
	}
	return out, nil
}

func smdAtom(a smdAtomJSON) (schema.Atom, error) {
	var out schema.Atom
	if a.Scalar != "" {
		s := schema.Scalar(a.Scalar)
		out.Scalar = &s
	}
	if a.List != nil {
		et, err := smdRef(a.List.ElementType)
		if err != nil {
			return out, err
		}
		out.List = &schema.List{ElementType: et, ElementRelationship: schema.ElementRelationship(a.List.ElementRelationship), Keys: a.List.Keys}
	}
	if a.Map != nil {
		m := &schema.Map{ElementRelationship: schema.ElementRelationship(a.Map.ElementRelationship)}
		for _, f := range a.Map.Fields {
			t, err := smdRef(f.Type)
			if err != nil {
				return out, err
			}
			d, err := smdDefault(f.Default)
			if err != nil {
				return out, fmt.Errorf("%s: %w", f.Name, err)
			}
			m.Fields = append(m.Fields, schema.StructField{Name: f.Name, Type: t, Default: d})
		}
		for _, u := range a.Map.Unions {
			su := schema.Union{Discriminator: u.Discriminator, DeduceInvalidDiscriminator: u.DeduceInvalidDis}
			for _, f := range u.Fields {
				su.Fields = append(su.Fields, schema.UnionField{FieldName: f.FieldName, DiscriminatorValue: f.DiscriminatorValue})
			}
			m.Unions = append(m.Unions, su)
		}
		if a.Map.ElementType != nil {
			et, err := smdRef(*a.Map.ElementType)
			if err != nil {
				return out, err
			}
			m.ElementType = et
		}
		out.Map = m
	}
	return out, nil
}

func smdRef(r smdRefJSON) (schema.TypeRef, error) {
	a, err := smdAtom(r.smdAtomJSON)
	if err != nil {
		return schema.TypeRef{}, err
	}
	out := schema.TypeRef{Inlined: a, Nullable: r.Nullable}
	if r.NamedType != "" {
		n := r.NamedType
		out.NamedType = &n
	}
	if r.ElementRelationship != "" {
		e := schema.ElementRelationship(r.ElementRelationship)
		out.ElementRelationship = &e
	}
	return out, nil
}

// smdDefault is a field default as the YAML schema holds it: whole numbers
// as int, anything else as encoding/json decodes it.
func smdDefault(v any) (any, error) {
	n, ok := v.(json.Number)
	if !ok {
		return v, nil
	}
	if i, err := n.Int64(); err == nil {
		return int(i), nil
	}
	return n.Float64()
}

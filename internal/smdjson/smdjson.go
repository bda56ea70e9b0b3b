// Package smdjson is the JSON form of a structured-merge-diff schema that
// the plan embeds: structured-merge-diff's YAML schema with the same keys,
// as JSON, one type per line. internal/schemagen writes it with Encode at
// go generate time; the plan reads it with Decode (a few milliseconds;
// the YAML parser takes 60).
package smdjson

import (
	"bytes"
	"encoding/json"
	"fmt"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/etcdshapes/etcdshapes/internal/plainjson"
)

type typeJSON struct {
	Name string `json:"name"`
	atomJSON
}

type atomJSON struct {
	Scalar string    `json:"scalar,omitempty"`
	List   *listJSON `json:"list,omitempty"`
	Map    *mapJSON  `json:"map,omitempty"`
}

type refJSON struct {
	NamedType string `json:"namedType,omitempty"`
	atomJSON
	ElementRelationship string `json:"elementRelationship,omitempty"`
	Nullable            bool   `json:"nullable,omitempty"`
}

type mapJSON struct {
	Fields              []fieldJSON `json:"fields,omitempty"`
	Unions              []unionJSON `json:"unions,omitempty"`
	ElementType         *refJSON    `json:"elementType,omitempty"`
	ElementRelationship string      `json:"elementRelationship,omitempty"`
}

type fieldJSON struct {
	Name    string  `json:"name"`
	Type    refJSON `json:"type"`
	Default any     `json:"default,omitempty"`
}

type unionJSON struct {
	Discriminator    *string          `json:"discriminator,omitempty"`
	DeduceInvalidDis bool             `json:"deduceInvalidDiscriminator,omitempty"`
	Fields           []unionFieldJSON `json:"fields,omitempty"`
}

type unionFieldJSON struct {
	FieldName          string `json:"fieldName"`
	DiscriminatorValue string `json:"discriminatorValue"`
}

type listJSON struct {
	ElementType         refJSON  `json:"elementType"`
	ElementRelationship string   `json:"elementRelationship,omitempty"`
	Keys                []string `json:"keys,omitempty"`
}

// Encode writes types in the JSON form, one type per line.
func Encode(types []smdschema.TypeDef) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, t := range types {
		line, err := plainjson.Marshal(typeJSON{Name: t.Name, atomJSON: atomOf(t.Atom)}, "")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		b.Write(line)
		if i < len(types)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]")
	return b.Bytes(), nil
}

func atomOf(a smdschema.Atom) atomJSON {
	var out atomJSON
	if a.Scalar != nil {
		out.Scalar = string(*a.Scalar)
	}
	if a.List != nil {
		out.List = &listJSON{ElementType: refOf(a.List.ElementType), ElementRelationship: string(a.List.ElementRelationship), Keys: a.List.Keys}
	}
	if a.Map != nil {
		m := &mapJSON{ElementRelationship: string(a.Map.ElementRelationship)}
		for _, f := range a.Map.Fields {
			m.Fields = append(m.Fields, fieldJSON{Name: f.Name, Type: refOf(f.Type), Default: f.Default})
		}
		for _, u := range a.Map.Unions {
			uj := unionJSON{Discriminator: u.Discriminator, DeduceInvalidDis: u.DeduceInvalidDiscriminator}
			for _, f := range u.Fields {
				uj.Fields = append(uj.Fields, unionFieldJSON{FieldName: f.FieldName, DiscriminatorValue: f.DiscriminatorValue})
			}
			m.Unions = append(m.Unions, uj)
		}
		if r := refOf(a.Map.ElementType); r != (refJSON{}) {
			m.ElementType = &r
		}
		out.Map = m
	}
	return out
}

func refOf(r smdschema.TypeRef) refJSON {
	out := refJSON{atomJSON: atomOf(r.Inlined), Nullable: r.Nullable}
	if r.NamedType != nil {
		out.NamedType = *r.NamedType
	}
	if r.ElementRelationship != nil {
		out.ElementRelationship = string(*r.ElementRelationship)
	}
	return out
}

// Decode reads the JSON form back into types. Field defaults come back
// as the YAML schema holds them: whole numbers as int.
func Decode(js []byte) ([]smdschema.TypeDef, error) {
	var raw []typeJSON
	if err := plainjson.Decode(js, &raw); err != nil {
		return nil, err
	}
	out := make([]smdschema.TypeDef, len(raw))
	for i, t := range raw {
		a, err := toAtom(t.atomJSON)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		out[i] = smdschema.TypeDef{Name: t.Name, Atom: a}
	}
	return out, nil
}

func toAtom(a atomJSON) (smdschema.Atom, error) {
	var out smdschema.Atom
	if a.Scalar != "" {
		s := smdschema.Scalar(a.Scalar)
		out.Scalar = &s
	}
	if a.List != nil {
		et, err := toRef(a.List.ElementType)
		if err != nil {
			return out, err
		}
		out.List = &smdschema.List{ElementType: et, ElementRelationship: smdschema.ElementRelationship(a.List.ElementRelationship), Keys: a.List.Keys}
	}
	if a.Map != nil {
		m := &smdschema.Map{ElementRelationship: smdschema.ElementRelationship(a.Map.ElementRelationship)}
		for _, f := range a.Map.Fields {
			t, err := toRef(f.Type)
			if err != nil {
				return out, err
			}
			d, err := number(f.Default)
			if err != nil {
				return out, fmt.Errorf("%s: %w", f.Name, err)
			}
			m.Fields = append(m.Fields, smdschema.StructField{Name: f.Name, Type: t, Default: d})
		}
		for _, u := range a.Map.Unions {
			su := smdschema.Union{Discriminator: u.Discriminator, DeduceInvalidDiscriminator: u.DeduceInvalidDis}
			for _, f := range u.Fields {
				su.Fields = append(su.Fields, smdschema.UnionField{FieldName: f.FieldName, DiscriminatorValue: f.DiscriminatorValue})
			}
			m.Unions = append(m.Unions, su)
		}
		if a.Map.ElementType != nil {
			et, err := toRef(*a.Map.ElementType)
			if err != nil {
				return out, err
			}
			m.ElementType = et
		}
		out.Map = m
	}
	return out, nil
}

func toRef(r refJSON) (smdschema.TypeRef, error) {
	a, err := toAtom(r.atomJSON)
	if err != nil {
		return smdschema.TypeRef{}, err
	}
	out := smdschema.TypeRef{Inlined: a, Nullable: r.Nullable}
	if r.NamedType != "" {
		n := r.NamedType
		out.NamedType = &n
	}
	if r.ElementRelationship != "" {
		e := smdschema.ElementRelationship(r.ElementRelationship)
		out.ElementRelationship = &e
	}
	return out, nil
}

// number turns a JSON number of a default into the int or float the YAML
// schema holds; other values are returned as they are.
func number(v any) (any, error) {
	n, ok := v.(json.Number)
	if !ok {
		return v, nil
	}
	if i, err := n.Int64(); err == nil {
		return int(i), nil
	}
	return n.Float64()
}

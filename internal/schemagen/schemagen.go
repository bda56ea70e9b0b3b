// Command schemagen writes the root package's structured-merge-diff schema
// (zz_generated.smdschema.go): for every kind the library emits, the schema
// the API server merges server-side apply patches with, trimmed to those
// kinds and the types they reference.
//
//   - Custom kinds: every CRD in $ETCDSHAPES_CRDS (../shared/crds and
//     ../shared/crds-planned beside the repository), each served
//     version, built the way apiextensions-apiserver builds its apply
//     models
//     (builder.BuildOpenAPIV3, merged, then managedfields.NewTypeConverter,
//     which is kube-openapi's schemaconv): list types and keys, map types,
//     key defaults, preserve-unknown-fields, ObjectMeta.
//   - Built-in kinds: the schema client-go's apply configurations carry
//     (k8s.io/client-go/applyconfigurations, generated from Kubernetes'
//     OpenAPI), for the kinds in builtinKinds.
//
// It is a module of its own so that client-go and the API server packages
// stay out of the library's go.mod: the library embeds the result and
// costs no package for it. go generate runs it from the repository root:
//
//	go run -C internal/schemagen . -out ../../plan/zz_generated.smdschema.go -package plan
//
// TestUpToDate (go test in this directory) fails when the checked-in file
// is stale.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/etcdshapes/etcdshapes/internal/crdpath"
	"github.com/etcdshapes/etcdshapes/internal/jsontree"
	"github.com/etcdshapes/etcdshapes/internal/smdjson"
	"go/format"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v2"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kube-openapi/pkg/spec3"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	sigsyaml "sigs.k8s.io/yaml"
)

// builtinKinds are the built-in kinds the library emits (the stacks, their
// Helm hooks and the snapshot schedules). The plan package's
// TestSchemaCoversEveryKind fails when a kind of the table of shapes is
// neither here nor a CRD.
var builtinKinds = []schema.GroupVersionKind{
	{Group: "batch", Version: "v1", Kind: "CronJob"},
	{Group: "batch", Version: "v1", Kind: "Job"},
	{Group: "", Version: "v1", Kind: "Secret"},
	{Group: "", Version: "v1", Kind: "Service"},
	{Group: "", Version: "v1", Kind: "ServiceAccount"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "Role"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleBinding"},
}

func main() {
	out := flag.String("out", "../../plan/zz_generated.smdschema.go", "the file to write")
	pkg := flag.String("package", "plan", "its package")
	flag.Parse()
	wd, err := os.Getwd()
	if err != nil {
		fail(err)
	}
	// Every CRD must be there: a schema generated from some of them
	// would plan the others' objects with the deduced schema.
	dirs, fromEnv := crdpath.Resolve(filepath.Join(wd, "..", ".."))
	if err := crdpath.Check(dirs, fromEnv); err != nil {
		fail(err)
	}
	src, err := Source(dirs, *pkg)
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "schemagen:", err)
	os.Exit(1)
}

// crdDirs are the directories of $ETCDSHAPES_CRDS, a list like PATH (each
// relative to the repository root when relative), else what CI sets
// (.ci/run): ../shared/crds and ../shared/crds-planned beside the
// repository. The embedded schema covers the kinds of both (the
// GrafanaDashboard and the PodMonitor are in crds-planned), so a fallback
// to crds alone would call the checked-in schema stale.
func crdDirs(root string) []string {
	dirs, _ := crdpath.Resolve(root)
	return dirs
}

// kindSchema is one kind's root type and the schema it lives in.
type kindSchema struct {
	gvk    schema.GroupVersionKind
	name   string
	schema *smdschema.Schema
}

// Source is the generated Go file for the CRDs in dirs and builtinKinds.
func Source(dirs []string, pkg string) ([]byte, error) {
	var kinds []kindSchema
	for _, dir := range dirs {
		k, err := crdKinds(dir)
		if err != nil {
			return nil, err
		}
		kinds = append(kinds, k...)
	}
	bk, err := builtins()
	if err != nil {
		return nil, err
	}
	kinds = append(kinds, bk...)
	sort.Slice(kinds, func(i, j int) bool { return gvkString(kinds[i].gvk) < gvkString(kinds[j].gvk) })

	types := map[string]smdschema.TypeDef{}
	for _, k := range kinds {
		if err := collect(k.schema, k.name, types); err != nil {
			return nil, fmt.Errorf("%s: %w", gvkString(k.gvk), err)
		}
	}
	names := make([]string, 0, len(types))
	for n := range types {
		names = append(names, n)
	}
	sort.Strings(names)
	trimmed := smdschema.Schema{}
	for _, n := range names {
		trimmed.Types = append(trimmed.Types, types[n])
	}
	y, err := yaml.Marshal(&trimmed)
	if err != nil {
		return nil, err
	}
	// What the library parses must be a schema structured-merge-diff
	// accepts, with every kind's type.
	p, err := typed.NewParser(typed.YAMLObject(y))
	if err != nil {
		return nil, fmt.Errorf("the trimmed schema does not parse: %w", err)
	}
	for _, k := range kinds {
		if !p.Type(k.name).IsValid() {
			return nil, fmt.Errorf("%s: type %s is not in the trimmed schema", gvkString(k.gvk), k.name)
		}
	}
	omit, err := omitZero(types)
	if err != nil {
		return nil, err
	}
	js, err := smdjson.Encode(trimmed.Types)
	if err != nil {
		return nil, err
	}
	back, err := smdjson.Decode(js)
	if err != nil {
		return nil, err
	}
	if !(&smdschema.Schema{Types: back}).Equals(&trimmed) {
		return nil, errors.New("the schema does not survive its JSON form")
	}
	if bytes.ContainsRune(js, '`') {
		return nil, errors.New("the schema holds a backquote, which the generated raw string cannot")
	}

	var b bytes.Buffer
	b.WriteString("// Code generated by internal/schemagen from the CRDs (ETCDSHAPES_CRDS) and client-go's apply schema; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	b.WriteString(`// smdKinds names, for every kind the library emits ("group/version/Kind",
// "v1/Service" for the core group), its type in smdSchemaJSON.
var smdKinds = map[string]string{
`)
	for _, k := range kinds {
		fmt.Fprintf(&b, "\t%q: %q,\n", gvkString(k.gvk), k.name)
	}
	b.WriteString("}\n\n")
	b.WriteString(`// smdOmitZero lists, for the built-in kinds' types, the fields a Go round
// trip drops when they hold their zero value ("", 0, false): scalar
// fields tagged omitempty that are not pointers. The API server stores
// built-in objects through their Go types.
var smdOmitZero = map[string][]string{
`)
	for _, name := range sortedNames(omit) {
		fmt.Fprintf(&b, "\t%q: {", name)
		for i, f := range omit[name] {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q", f)
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n\n")
	b.WriteString(`// smdSchemaJSON is the structured-merge-diff schema the API server merges
// apply patches of those kinds with (list types and keys, map types, key
// defaults) and the types they reference: the types of structured-merge-diff's
// YAML schema as JSON, one per line. See plan_schema.go.
`)
	fmt.Fprintf(&b, "const smdSchemaJSON = `%s`\n", js)
	return format.Source(b.Bytes())
}

func gvkString(gvk schema.GroupVersionKind) string {
	if gvk.Group == "" {
		return gvk.Version + "/" + gvk.Kind
	}
	return gvk.Group + "/" + gvk.Version + "/" + gvk.Kind
}

// crdKinds converts every served version of every CRD in dir the way
// apiextensions-apiserver does for server-side apply
// (buildOpenAPIModelsForApply in its customresource_handler.go).
func crdKinds(dir string) ([]kindSchema, error) {
	docs, err := crdpath.Documents(dir)
	if err != nil {
		return nil, err
	}
	var out []kindSchema
	for _, d := range docs {
		ks, err := crdKind(d.Data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Path, err)
		}
		out = append(out, ks...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no CustomResourceDefinition in %s", dir)
	}
	return out, nil
}

func crdKind(doc []byte) ([]kindSchema, error) {
	var meta struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := sigsyaml.Unmarshal(doc, &meta); err != nil {
		return nil, err
	}
	if meta.Kind != "CustomResourceDefinition" {
		return nil, nil
	}
	if meta.APIVersion != "apiextensions.k8s.io/v1" {
		return nil, fmt.Errorf("a CustomResourceDefinition of %s; only apiextensions.k8s.io/v1 is read", meta.APIVersion)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := sigsyaml.UnmarshalStrict(doc, &crd); err != nil {
		return nil, err
	}
	var specs []*spec3.OpenAPI
	for _, v := range crd.Spec.Versions {
		s, err := builder.BuildOpenAPIV3(&crd, v.Name, builder.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", crd.Name, v.Name, err)
		}
		specs = append(specs, s)
	}
	merged, err := builder.MergeSpecsV3(specs...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", crd.Name, err)
	}
	tc, err := managedfields.NewTypeConverter(merged.Components.Schemas, crd.Spec.PreserveUnknownFields)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", crd.Name, err)
	}
	var out []kindSchema
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(gvk)
		ks, err := kindOf(tc, gvk, u)
		if err != nil {
			return nil, err
		}
		out = append(out, ks)
	}
	return out, nil
}

// builtins are builtinKinds' types in client-go's apply schema.
func builtins() ([]kindSchema, error) {
	tc := applyconfigurations.NewTypeConverter(scheme.Scheme)
	var out []kindSchema
	for _, gvk := range builtinKinds {
		obj, err := scheme.Scheme.New(gvk)
		if err != nil {
			return nil, err
		}
		obj.GetObjectKind().SetGroupVersionKind(gvk)
		ks, err := kindOf(tc, gvk, obj)
		if err != nil {
			return nil, err
		}
		out = append(out, ks)
	}
	return out, nil
}

func kindOf(tc managedfields.TypeConverter, gvk schema.GroupVersionKind, obj runtime.Object) (kindSchema, error) {
	tv, err := tc.ObjectToTyped(obj)
	if err != nil {
		return kindSchema{}, fmt.Errorf("%s: %w", gvkString(gvk), err)
	}
	ref := tv.TypeRef()
	if ref.NamedType == nil {
		return kindSchema{}, fmt.Errorf("%s: the converter gives no named type", gvkString(gvk))
	}
	return kindSchema{gvk: gvk, name: *ref.NamedType, schema: tv.Schema()}, nil
}

// collect adds the type name and every type it references to types. A
// name another kind's schema already brought must be the same type (the
// meta types every schema carries).
func collect(s *smdschema.Schema, name string, types map[string]smdschema.TypeDef) error {
	if have, ok := types[name]; ok {
		td, found := find(s, name)
		if !found {
			return fmt.Errorf("type %s is not in its schema", name)
		}
		sortFields(&td.Atom)
		if !have.Equals(&td) {
			return fmt.Errorf("type %s differs between two schemas", name)
		}
		return nil
	}
	td, found := find(s, name)
	if !found {
		return fmt.Errorf("type %s is not in its schema", name)
	}
	sortFields(&td.Atom)
	types[name] = td
	var refs []string
	refsOfAtom(td.Atom, &refs)
	slices.Sort(refs)
	for _, r := range slices.Compact(refs) {
		if err := collect(s, r, types); err != nil {
			return err
		}
	}
	return nil
}

func find(s *smdschema.Schema, name string) (smdschema.TypeDef, bool) {
	td, ok := s.FindNamedType(name)
	if !ok {
		return smdschema.TypeDef{}, false
	}
	return td, true
}

// sortFields sorts every map's fields by name, at any depth (the CRD
// converter lists them in map order, and the order means nothing to a
// merge), and gives every field default its JSON form (whole numbers as
// int, maps keyed by string), as the library reads it back.
func sortFields(a *smdschema.Atom) {
	if a.Map != nil {
		fields := slices.Clone(a.Map.Fields)
		sort.Slice(fields, func(i, j int) bool { return fields[i].Name < fields[j].Name })
		for i := range fields {
			sortFields(&fields[i].Type.Inlined)
			fields[i].Default = jsonValue(fields[i].Default)
		}
		et := a.Map.ElementType
		sortFields(&et.Inlined)
		a.Map = &smdschema.Map{Fields: fields, Unions: a.Map.Unions, ElementType: et, ElementRelationship: a.Map.ElementRelationship}
	}
	if a.List != nil {
		l := *a.List
		sortFields(&l.ElementType.Inlined)
		a.List = &l
	}
}

func refsOfAtom(a smdschema.Atom, out *[]string) {
	if a.Map != nil {
		for _, f := range a.Map.Fields {
			refsOfRef(f.Type, out)
		}
		refsOfRef(a.Map.ElementType, out)
	}
	if a.List != nil {
		refsOfRef(a.List.ElementType, out)
	}
}

func refsOfRef(r smdschema.TypeRef, out *[]string) {
	if r.NamedType != nil {
		*out = append(*out, *r.NamedType)
		return
	}
	refsOfAtom(r.Inlined, out)
}

// jsonValue is the JSON form of a field default: whole numbers as int,
// maps keyed by string.
func jsonValue(v any) any { return jsontree.Copy(v, jsonLeaf) }

// jsonLeaf is jsonValue of a value that is neither a map[string]any nor an
// []any.
func jsonLeaf(v any) any {
	switch t := v.(type) {
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, c := range t {
			out[fmt.Sprint(k)] = jsonValue(c)
		}
		return out
	case int64:
		return int(t)
	case float64:
		if t == float64(int(t)) {
			return int(t)
		}
	}
	return v
}

// omitZero finds, for every built-in kind's Go type and the struct types
// it reaches, the scalar fields encoding/json omits when zero (omitempty,
// not a pointer), by their OpenAPI names ("io.k8s.api.core.v1.VolumeMount"),
// for the types in the trimmed schema.
func omitZero(types map[string]smdschema.TypeDef) (map[string][]string, error) {
	out := map[string][]string{}
	seen := map[reflect.Type]bool{}
	var visit func(t reflect.Type)
	visit = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || reflect.PointerTo(t).Implements(marshalerType) || t.Implements(marshalerType) {
			return
		}
		seen[t] = true
		name := openAPIName(t)
		var fields []string
		var walk func(t reflect.Type)
		walk = func(t reflect.Type) {
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				if !f.IsExported() {
					continue
				}
				tag := f.Tag.Get("json")
				jsonName, opts, _ := strings.Cut(tag, ",")
				if jsonName == "-" {
					continue
				}
				if f.Anonymous && jsonName == "" {
					walk(f.Type)
					continue
				}
				visit(f.Type)
				if !strings.Contains(","+opts+",", ",omitempty,") {
					continue
				}
				switch f.Type.Kind() {
				case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
					reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
					if jsonName == "" {
						jsonName = f.Name
					}
					fields = append(fields, jsonName)
				}
			}
		}
		walk(t)
		if _, ok := types[name]; ok && len(fields) > 0 {
			sort.Strings(fields)
			out[name] = fields
		}
	}
	for _, gvk := range builtinKinds {
		obj, err := scheme.Scheme.New(gvk)
		if err != nil {
			return nil, err
		}
		visit(reflect.TypeOf(obj))
	}
	return out, nil
}

var marshalerType = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

// openAPIName is a Go type's OpenAPI model name: its package path with the
// domain reversed ("k8s.io/api/core/v1" -> "io.k8s.api.core.v1"), then
// its name.
func openAPIName(t reflect.Type) string {
	parts := strings.Split(t.PkgPath(), "/")
	domain := strings.Split(parts[0], ".")
	slices.Reverse(domain)
	parts[0] = strings.Join(domain, ".")
	return strings.Join(parts, ".") + "." + t.Name()
}

func sortedNames(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

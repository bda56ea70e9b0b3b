// Package crdcheck validates rendered objects the way the API server does
// on create, without an API server: custom resources against their
// CustomResourceDefinition (structural schema, defaulting, unknown-field
// pruning as strict field validation, OpenAPI schema validation, list-type
// invariants, embedded ObjectMeta and CEL x-kubernetes-validations), and the
// built-in kinds the library emits with a strict typed round trip plus the
// API server's basic rules for them (see builtin.go).
//
// It is test support only. It lives under a testdata directory so that the
// go tool's ./... patterns (go build, go list -deps, go vet) do not match it
// and the library's dependency graph does not grow by
// k8s.io/apiextensions-apiserver; tests import it by its full path.
//
// The CRDs are read from directories (the ETCDSHAPES_CRDS environment
// variable in tests, a list like PATH; see internal/crdpath); they are
// never copied into the project.
package crdcheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/crdpath"
	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/yaml"
)

// EnvVar names the directories of CRD manifests the tests read.
const EnvVar = crdpath.EnvVar

// Checker validates objects against a set of CRDs and the built-in kinds.
// It is safe for concurrent use.
type Checker struct {
	kinds map[schema.GroupVersionKind]*crdVersion
}

// crdVersion is one served version of one CRD, prepared as the API
// server's customresource handler prepares it.
type crdVersion struct {
	gvk        schema.GroupVersionKind
	crdName    string
	namespaced bool
	structural *structuralschema.Structural
	validator  apiservervalidation.SchemaValidator
	cel        *cel.Validator
	scale      *apiextensionsinternal.CustomResourceSubresourceScale
	status     bool
}

// Load reads every *.yaml, *.yml and *.json file in each of dirs and
// prepares each served version of each CustomResourceDefinition in them. A
// kind defined twice, in one directory or in two, is an error.
func Load(dirs ...string) (*Checker, error) {
	c := &Checker{kinds: map[schema.GroupVersionKind]*crdVersion{}}
	for _, dir := range dirs {
		if err := c.load(dir); err != nil {
			return nil, err
		}
	}
	if len(c.kinds) == 0 {
		return nil, fmt.Errorf("crdcheck: no CustomResourceDefinition in %s", strings.Join(dirs, string(os.PathListSeparator)))
	}
	return c, nil
}

func (c *Checker) load(dir string) error {
	docs, err := crdpath.Documents(dir)
	if err != nil {
		return fmt.Errorf("crdcheck: %w", err)
	}
	for _, d := range docs {
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.Unmarshal(d.Data, &crd); err != nil {
			return fmt.Errorf("crdcheck: %s: %w", d.Path, err)
		}
		if crd.Kind != "CustomResourceDefinition" {
			continue
		}
		if err := c.add(&crd); err != nil {
			return fmt.Errorf("crdcheck: %s: %w", d.Path, err)
		}
	}
	return nil
}

func (c *Checker) add(crd *apiextensionsv1.CustomResourceDefinition) error {
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(crd)
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}
		val, err := apihelpers.GetSchemaForVersion(crd, v.Name)
		if err != nil {
			return err
		}
		if val == nil || val.OpenAPIV3Schema == nil {
			return fmt.Errorf("%s has no schema", gvk)
		}
		internal := &apiextensionsinternal.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
			return fmt.Errorf("%s: converting the schema to internal: %w", gvk, err)
		}
		s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
		if err != nil {
			return fmt.Errorf("%s: the schema is not structural: %w", gvk, err)
		}
		s = s.DeepCopy()
		if err := structuraldefaulting.PruneDefaults(s); err != nil {
			return fmt.Errorf("%s: pruning defaults: %w", gvk, err)
		}
		validator, _, err := apiservervalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
		if err != nil {
			return fmt.Errorf("%s: %w", gvk, err)
		}
		cv := &crdVersion{
			gvk:        gvk,
			crdName:    crd.Name,
			namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
			structural: s,
			validator:  validator,
			cel:        cel.NewValidator(s, true, celconfig.PerCallLimit),
		}
		sub, err := apihelpers.GetSubresourcesForVersion(crd, v.Name)
		if err != nil {
			return err
		}
		if sub != nil && sub.Scale != nil {
			cv.scale = &apiextensionsinternal.CustomResourceSubresourceScale{}
			if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(sub.Scale, cv.scale, nil); err != nil {
				return err
			}
		}
		cv.status = sub != nil && sub.Status != nil
		if _, dup := c.kinds[gvk]; dup {
			return fmt.Errorf("%s is defined twice", gvk)
		}
		c.kinds[gvk] = cv
	}
	return nil
}

var (
	envOnce    sync.Once
	envChecker *Checker
	envErr     error
)

// Dirs are the directories ETCDSHAPES_CRDS lists (crdpath.Dirs), none when
// it is unset. A relative path is taken from the repository root (the
// directory of the go.mod of module github.com/etcdshapes/etcdshapes,
// found upwards from the working directory), because go test runs each
// package in its own directory: ETCDSHAPES_CRDS=../shared/crds go test
// ./... then means the same directory for every package.
func Dirs() []string {
	return crdpath.Dirs(os.Getenv(EnvVar), repoRoot())
}

// Find returns the path of the CRD file named name in the first of Dirs
// that holds one.
func Find(name string) (string, error) {
	dirs := Dirs()
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("crdcheck: %s is in none of %q", name, dirs)
}

// repoRoot walks up from the working directory to the library's go.mod.
func repoRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; d = filepath.Dir(d) {
		if raw, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			for _, line := range strings.Split(string(raw), "\n") {
				if strings.TrimSpace(line) == "module github.com/etcdshapes/etcdshapes" {
					return d
				}
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// FromEnv loads the CRDs from the directories ETCDSHAPES_CRDS lists (Dirs)
// once per process. ok is false when the variable lists none.
func FromEnv() (c *Checker, ok bool, err error) {
	dirs := Dirs()
	if len(dirs) == 0 {
		return nil, false, nil
	}
	envOnce.Do(func() { envChecker, envErr = Load(dirs...) })
	return envChecker, true, envErr
}

// ForTest returns the checker of ETCDSHAPES_CRDS, skipping the test when the
// variable is unset and failing it when the CRDs do not load.
func ForTest(tb testing.TB) *Checker {
	tb.Helper()
	c, ok, err := FromEnv()
	if !ok {
		tb.Skip(crdpath.SkipMessage)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// Kinds lists the custom kinds the checker knows, sorted.
func (c *Checker) Kinds() []schema.GroupVersionKind {
	out := make([]schema.GroupVersionKind, 0, len(c.kinds))
	for gvk := range c.kinds {
		out = append(out, gvk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// Covers reports whether the checker validates objects of gvk, either
// against a CRD or as a built-in kind.
func (c *Checker) Covers(gvk schema.GroupVersionKind) bool {
	_, crd := c.kinds[gvk]
	_, builtin := builtins[gvk]
	return crd || builtin
}

// Error lists everything the checker found wrong with one object.
type Error struct {
	GVK       schema.GroupVersionKind
	Namespace string
	Name      string
	Errs      field.ErrorList
}

func (e *Error) Error() string {
	msgs := make([]string, 0, len(e.Errs))
	for _, fe := range e.Errs {
		msgs = append(msgs, fe.Error())
	}
	id := e.Name
	if e.Namespace != "" {
		id = e.Namespace + "/" + e.Name
	}
	return fmt.Sprintf("%s %s: %s", e.GVK.Kind, id, strings.Join(msgs, "; "))
}

// ValidateObject validates a typed object through its JSON form.
func (c *Checker) ValidateObject(obj runtime.Object) error {
	raw, err := json.Marshal(obj)
	if err != nil {
		return fmt.Errorf("crdcheck: marshal %T: %w", obj, err)
	}
	return c.ValidateJSON(raw)
}

// ValidateYAML validates every document of a multi-document YAML stream as
// the CLI prints it; it reports every failing object.
func (c *Checker) ValidateYAML(stream []byte) error {
	docs, err := splitYAML(stream)
	if err != nil {
		return err
	}
	var errs []error
	for _, doc := range docs {
		// Strict: duplicate keys are refused as strict field validation
		// refuses them.
		raw, err := yaml.YAMLToJSONStrict(doc)
		if err != nil {
			errs = append(errs, fmt.Errorf("crdcheck: %w", err))
			continue
		}
		if err := c.ValidateJSON(raw); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// ValidateJSON validates one object in its JSON form.
func (c *Checker) ValidateJSON(raw []byte) error {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(raw); err != nil {
		return fmt.Errorf("crdcheck: %w", err)
	}
	gvk := u.GroupVersionKind()
	if cv, ok := c.kinds[gvk]; ok {
		return cv.validate(u)
	}
	if b, ok := builtins[gvk]; ok {
		return validateBuiltin(gvk, b, raw, u)
	}
	return &Error{GVK: gvk, Namespace: u.GetNamespace(), Name: u.GetName(), Errs: field.ErrorList{
		field.NotSupported(field.NewPath("apiVersion/kind"), gvk.String(), c.supported()),
	}}
}

func (c *Checker) supported() []string {
	var out []string
	for _, gvk := range c.Kinds() {
		out = append(out, gvk.String())
	}
	for gvk := range builtins {
		out = append(out, gvk.String())
	}
	sort.Strings(out)
	return out
}

// validate runs the create path of the customresource handler on a copy of
// obj: strict pruning, null pruning, embedded ObjectMeta coercion,
// defaulting, then the strategy's validation.
func (cv *crdVersion) validate(orig *unstructured.Unstructured) error {
	u := orig.DeepCopy()
	e := &Error{GVK: cv.gvk, Namespace: u.GetNamespace(), Name: u.GetName()}
	add := func(errs ...*field.Error) { e.Errs = append(e.Errs, errs...) }

	// Decoding: ObjectMeta fields the API does not know.
	if _, _, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true}); err != nil {
		add(field.Invalid(field.NewPath("metadata"), nil, err.Error()))
	} else {
		for _, p := range unknown {
			add(field.Invalid(field.NewPath(p), nil, "unknown field (strict field validation)"))
		}
	}
	// Pruning: every field the schema does not know is an error, as with
	// kubectl's default --validate=strict.
	pruned := structuralpruning.PruneWithOptions(u.Object, cv.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	sort.Strings(pruned)
	for _, p := range pruned {
		add(field.Invalid(field.NewPath(p), nil, "unknown field (strict field validation): the API server would prune it"))
	}
	// A null the server drops silently is a field that was never sent.
	before := u.DeepCopy()
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, cv.structural)
	if !reflect.DeepEqual(before.Object, u.Object) {
		add(field.Invalid(field.NewPath(""), nil, "null values the API server would drop (non-nullable fields without defaults)"))
	}
	if err, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, cv.structural, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true}); err != nil {
		add(err)
	} else {
		for _, p := range paths {
			add(field.Invalid(field.NewPath(p), nil, "unknown field in embedded ObjectMeta (strict field validation)"))
		}
	}
	structuraldefaulting.Default(u.Object, cv.structural)

	// The strategy's Validate (registry/customresource).
	ctx := context.Background()
	if u.GetKind() != cv.gvk.Kind || u.GetAPIVersion() != cv.gvk.GroupVersion().String() {
		add(field.Invalid(field.NewPath("apiVersion"), u.GetAPIVersion(), "must be "+cv.gvk.GroupVersion().String()))
	}
	add(validateMeta(u, cv.namespaced, apimachineryvalidation.NameIsDNSSubdomain)...)
	if st, ok := u.Object["status"].(map[string]any); ok && cv.status && len(st) > 0 {
		add(field.Forbidden(field.NewPath("status"), "the status subresource drops status on create; do not render it"))
	}
	add(apiservervalidation.ValidateCustomResource(nil, u.UnstructuredContent(), cv.validator)...)
	add(cv.validateScale(u)...)
	add(schemaobjectmeta.Validate(ctx, nil, u.Object, cv.structural, false)...)
	add(structurallisttype.ValidateListSetsAndMaps(nil, cv.structural, u.Object)...)
	add(validatePassThrough(cv.gvk.Kind, u.Object)...)
	if len(e.Errs) == 0 {
		errs, _ := cv.cel.Validate(ctx, nil, cv.structural, u.Object, nil, celconfig.RuntimeCELCostBudget)
		add(errs...)
	}
	if len(e.Errs) > 0 {
		return e
	}
	return nil
}

func (cv *crdVersion) validateScale(u *unstructured.Unstructured) field.ErrorList {
	if cv.scale == nil {
		return nil
	}
	p := strings.TrimPrefix(cv.scale.SpecReplicasPath, ".")
	v, found, err := unstructured.NestedFieldNoCopy(u.Object, strings.Split(p, ".")...)
	if err != nil || !found {
		return nil
	}
	n, ok := v.(int64)
	if !ok {
		return field.ErrorList{field.Invalid(field.NewPath(cv.scale.SpecReplicasPath), v, "must be an integer")}
	}
	if n < 0 || n > 1<<31-1 {
		return field.ErrorList{field.Invalid(field.NewPath(cv.scale.SpecReplicasPath), n, "must be a non-negative 32-bit integer")}
	}
	return nil
}

// validateMeta is the ObjectMeta validation of a create: name rule,
// namespace per scope, labels, annotations.
func validateMeta(u *unstructured.Unstructured, namespaced bool, nameFn apimachineryvalidation.ValidateNameFunc) field.ErrorList {
	md, _, err := schemaobjectmeta.GetObjectMeta(u.Object, false)
	if err != nil {
		return field.ErrorList{field.Invalid(field.NewPath("metadata"), nil, err.Error())}
	}
	if md == nil {
		return field.ErrorList{field.Required(field.NewPath("metadata"), "")}
	}
	return apimachineryvalidation.ValidateObjectMeta(md, namespaced, nameFn, field.NewPath("metadata"))
}

func splitYAML(stream []byte) ([][]byte, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(stream)))
	var out [][]byte
	for {
		doc, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		out = append(out, doc)
	}
}

func stripComments(doc []byte) []byte {
	var b bytes.Buffer
	for _, line := range bytes.Split(doc, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' || string(t) == "---" {
			continue
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

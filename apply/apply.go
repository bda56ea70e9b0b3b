package apply

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/jsontree"
	"github.com/etcdshapes/etcdshapes/internal/typedjson"
	"github.com/etcdshapes/etcdshapes/internal/yamlemit"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/manifest"
	"reflect"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// FieldManager is the field manager etcdshapes applies with, the default.
// The plan reads the fields it owns from a live object's managedFields to
// see which fields an apply removes; use it for every apply of these
// stacks, or plan with your own name (plan.AsFieldManager, checked by
// ValidateFieldManager) and apply with that one every time.
const FieldManager = "etcdshapes"

// MaxFieldManagerLength is the longest field manager name, in bytes, the
// API server accepts (metav1validation.FieldManagerMaxLength).
const MaxFieldManagerLength = 128

// ValidateFieldManager checks a field manager name as the API server
// checks an apply's (metav1validation.ValidateFieldManager, which kubectl
// apply --server-side --field-manager meets): at most 128 bytes, every
// character printable (unicode.IsPrint: letters, marks, numbers,
// punctuation, symbols and the ASCII space). It also refuses what the API
// server would not store as given: an empty name (an apply needs one; the
// API server refuses it) and bytes that are not UTF-8 (they would come
// back as U+FFFD, another manager). field names the name in the caller's
// terms ("fieldManager", "--field-manager"); the refusal is an
// *invalid.Error quoting the name, bounded and escaped.
func ValidateFieldManager(field, name string) error {
	switch {
	case name == "":
		return invalid.Errorf(field, name, "must not be empty: a server-side apply needs a field manager")
	case len(name) > MaxFieldManagerLength:
		return invalid.Errorf(field, name, "must be at most %d bytes, as the API server accepts (%d given)", MaxFieldManagerLength, len(name))
	case !utf8.ValidString(name):
		return invalid.Errorf(field, name, "must be valid UTF-8: the API server would store another name")
	}
	for i, r := range name {
		if !unicode.IsPrint(r) {
			return invalid.Errorf(field, name, "must hold printable characters only, as the API server requires: %U at byte %d is not", r, i)
		}
	}
	return nil
}

// Request is one object ready for server-side apply. The body is the
// object exactly as Marshal prints it (the golden files' bytes, as JSON):
// only the fields the builders mean, so the field manager owns nothing it
// did not choose. No client is involved; send it with the client you
// have:
//
//	// controller-runtime (Apply writes the server's answer into the
//	// object it is given, hence the copy)
//	err := c.Apply(ctx, client.ApplyConfigurationFromUnstructured(r.Object.DeepCopy()),
//		client.FieldOwner(apply.FieldManager), client.ForceOwnership)
//
//	// client-go dynamic client
//	_, err := dyn.Resource(r.Resource).Namespace(r.Namespace).Apply(ctx, r.Name, r.Object,
//		metav1.ApplyOptions{FieldManager: apply.FieldManager, Force: true})
//
// Body is the same object as JSON, for clients that send raw apply patches.
//
// Force takes over fields another manager (Helm, on a release moving to
// apply) set to the same value; run Plan first, since it is what says
// whether a value changes.
type Request struct {
	// Object is the object to apply.
	Object *unstructured.Unstructured
	// Resource is the object's API resource (for dynamic clients), from
	// etcdshapes.ResourceFor: its group and version always, its resource
	// empty for a kind outside the table of shapes (an object a caller
	// adds), whose resource only the API server's discovery knows (a
	// RESTMapper).
	Resource schema.GroupVersionResource
	// Namespace is the object's namespace; empty for a cluster-scoped
	// object (the DataStore).
	Namespace string
	// Name is the object's name.
	Name string
	// PatchType is always types.ApplyPatchType.
	PatchType types.PatchType
	// Body is the apply patch: the object as JSON.
	Body []byte
}

// Requests turns a stack into apply requests in its order, after
// applying the modifiers to copies of the objects (the inputs are not
// changed). Helm uninstall hooks are always left out (see
// IsUninstallHook): applying the cleanup Job runs it, and it deletes the
// cluster's TLS Secrets and, for the etcd chart, its data volumes. A
// caller that uninstalls a stack as helm uninstall does asks for them
// explicitly with UninstallHookRequests.
//
// The messages of its errors, and of Modify's and Modified's, are safe to
// print (invalid.Safe), a modifier's own errors included.
func Requests(objs []etcdshapes.Object, mods ...Modifier) ([]Request, error) {
	out, err := requests(objs, false, mods)
	return out, invalid.Safe(err)
}

// UninstallHookRequests is the explicit opt-in to the Helm uninstall hooks
// Requests leaves out: apply requests for the stack's uninstall hooks only
// (IsUninstallHook), in its order, modified as Requests modifies. Applying
// them runs the cleanup at once: the Job deletes the cluster's TLS Secrets,
// the CA's included, and for the etcd chart the members' volumes
// (data-etcd-0, ...). It is what helm uninstall runs after it deleted the
// release's objects; use it only to uninstall, after deleting the objects
// Requests applied.
func UninstallHookRequests(objs []etcdshapes.Object, mods ...Modifier) ([]Request, error) {
	out, err := requests(objs, true, mods)
	return out, invalid.Safe(err)
}

// requests are the apply requests of the objects that are uninstall
// hooks (hooks) or of those that are not. Each object is classified as
// given, before any modifier runs: the modifiers run only on the objects
// chosen, and modifiedCopy refuses one that changes the class.
func requests(objs []etcdshapes.Object, hooks bool, mods []Modifier) ([]Request, error) {
	if err := checkModifiers(mods); err != nil {
		return nil, err
	}
	classes, err := hookClasses(objs)
	if err != nil {
		return nil, err
	}
	out := make([]Request, 0, len(objs))
	for i, o := range objs {
		if classes[i] != hooks {
			continue
		}
		c, err := modifiedCopy(i, o, classes[i], mods)
		if err != nil {
			return nil, err
		}
		r, err := applyRequest(fmt.Sprintf("objects[%d]", i), c)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// kinds gives typed objects read without apiVersion and kind (as
// controller-runtime reads them) theirs, from the library's scheme.
var kinds = typedjson.NewKinds(etcdshapes.AddToScheme)

func applyRequest(field string, o etcdshapes.Object) (Request, error) {
	var body []byte
	if u, ok := o.(*unstructured.Unstructured); ok {
		b, err := u.MarshalJSON()
		if err != nil {
			return Request{}, err
		}
		body = b
	} else {
		b, err := kinds.Of(field, o)
		if err != nil {
			return Request{}, err
		}
		body = b
	}
	body = bytes.TrimSpace(body)
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(body); err != nil {
		return Request{}, fmt.Errorf("etcdshapes: %s %q: %w", o.GetObjectKind().GroupVersionKind().Kind, o.GetName(), err)
	}
	gvk := u.GroupVersionKind()
	if gvk.Kind == "" || gvk.Version == "" || u.GetName() == "" {
		return Request{}, fmt.Errorf("etcdshapes: %T %q needs apiVersion, kind and metadata.name to be applied", o, o.GetName())
	}
	// ok is false for a kind outside the table: its resource stays empty
	// (see Request.Resource) rather than a guess.
	gvr, _ := etcdshapes.ResourceFor(gvk)
	return Request{
		Object:    u,
		Resource:  gvr,
		Namespace: u.GetNamespace(),
		Name:      u.GetName(),
		PatchType: types.ApplyPatchType,
		Body:      body,
	}, nil
}

// Modifier is a cross-cutting edit of objects: owner references, labels,
// annotations, or a typed edit of one kind (ForKind). Modifiers run on
// the builders' output before Plan or Marshal (Modify), or are given to
// plan.ForRequest and Requests, which run them on copies. Plan with the
// modifiers you apply with: a plan of the unmodified objects reports what
// a modifier adds as removed (from managedFields).
//
// A modifier never decides what is applied: whether an object is a Helm
// uninstall hook (etcdshapes.IsUninstallHook) is read before any modifier
// runs, and a modifier that changes it (removes or rewrites the cleanup
// Job's helm.sh/hook annotation, or adds helm.sh/hook: post-delete to the
// EtcdCluster) is refused, by every function that runs modifiers, with the
// object and the annotation named. A nil Modifier is refused too.
type Modifier func(etcdshapes.Object) error

// Modify applies modifiers to every object, in place, in order. It is all
// or nothing: the modifiers run on copies, and the objects change only
// when every modifier succeeded on every object; the first error is
// returned.
func Modify(objs []etcdshapes.Object, mods ...Modifier) error {
	copies, err := Modified(objs, mods...)
	if err != nil {
		return err
	}
	for i, o := range objs {
		reflect.ValueOf(o).Elem().Set(reflect.ValueOf(copies[i]).Elem())
	}
	return nil
}

// Modified returns deep copies of objs with mods applied, in order (Modify
// is Modified in place). objs, and anything they share with the caller or
// with each other, are never touched; on an error nothing is returned.
func Modified(objs []etcdshapes.Object, mods ...Modifier) ([]etcdshapes.Object, error) {
	if err := checkModifiers(mods); err != nil {
		return nil, invalid.Safe(err)
	}
	classes, err := hookClasses(objs)
	if err != nil {
		return nil, invalid.Safe(err)
	}
	out := make([]etcdshapes.Object, len(objs))
	for i, o := range objs {
		c, err := modifiedCopy(i, o, classes[i], mods)
		if err != nil {
			return nil, invalid.Safe(err)
		}
		out[i] = c
	}
	return out, nil
}

// hookClasses says, for every object, whether it is a Helm uninstall hook,
// read from all of them before any modifier runs (a modifier cannot then
// change the answer, not even by editing objects it was not given); a nil
// object is refused.
func hookClasses(objs []etcdshapes.Object) ([]bool, error) {
	classes := make([]bool, len(objs))
	for i, o := range objs {
		if manifest.IsNil(o) {
			return nil, fmt.Errorf("etcdshapes: objects[%d] is nil", i)
		}
		classes[i] = etcdshapes.IsUninstallHook(o)
	}
	return classes, nil
}

// modifiedCopy deep-copies o, which is objects[i] (for the error) and an
// uninstall hook or not as hook says (hookClasses), into its own pointer
// type and applies mods to the copy, in order.
func modifiedCopy(i int, o etcdshapes.Object, hook bool, mods []Modifier) (etcdshapes.Object, error) {
	if u, ok := o.(*unstructured.Unstructured); ok {
		// DeepCopy recurses: a tree that contains itself would overflow
		// the stack.
		if err := jsontree.Check(fmt.Sprintf("objects[%d]", i), u.Object); err != nil {
			return nil, err
		}
	}
	c, ok := o.DeepCopyObject().(etcdshapes.Object)
	if !ok || reflect.TypeOf(c) != reflect.TypeOf(o) || reflect.TypeOf(o).Kind() != reflect.Pointer {
		return nil, fmt.Errorf("etcdshapes: %T does not copy to itself", o)
	}
	if etcdshapes.IsUninstallHook(o) != hook {
		return nil, hookChanged(i, -1, o, o, hook)
	}
	for j, m := range mods { // not nil: checkModifiers
		if err := m(c); err != nil {
			return nil, err
		}
		if etcdshapes.IsUninstallHook(c) != hook {
			return nil, hookChanged(i, j, o, c, hook)
		}
	}
	return c, nil
}

// checkModifiers refuses a nil modifier before any object is copied.
func checkModifiers(mods []Modifier) error {
	for j, m := range mods {
		if m == nil {
			return invalid.Errorf(fmt.Sprintf("modifiers[%d]", j), nil, "must be a modifier, not nil")
		}
	}
	return nil
}

// hookChanged is the refusal of modifier j, which made objects[i] (o,
// now c) an uninstall hook (wasHook false) or no longer one; j is -1 when a
// modifier changed the object given (o itself, not its copy) before its
// turn.
func hookChanged(i, j int, o, c etcdshapes.Object, wasHook bool) error {
	field := fmt.Sprintf("objects[%d].metadata.annotations.%s", i, etcd.HookAnnotation)
	what := fmt.Sprintf("%s %q", kindOf(o), o.GetName())
	now, had := c.GetAnnotations()[etcd.HookAnnotation]
	var value any = now
	if !had {
		value = nil
	}
	who := fmt.Sprintf("modifiers[%d]", j)
	if j < 0 {
		who = "a modifier (on the object given, not its copy)"
	}
	if wasHook {
		return invalid.Errorf(field, value, "%s must not change %s's %s annotation: it is a Helm uninstall hook, which runs the stack's cleanup (it deletes the TLS Secrets and, for the etcd chart, the data volumes) and is never applied",
			who, what, etcd.HookAnnotation)
	}
	return invalid.Errorf(field, value, "%s must not make %s a Helm uninstall hook: what is applied is decided before any modifier runs, and an object with that annotation would no longer be planned or applied", who, what)
}

func kindOf(o etcdshapes.Object) string { return o.GetObjectKind().GroupVersionKind().Kind }

// ForKind turns a typed edit into a Modifier that runs on the objects of
// type T and skips the others:
//
//	apply.ForKind(func(c *v1alpha2.EtcdCluster) error { ...; return nil })
//	apply.ForKind(etcd.Restore(source))
//
// A nil fn is refused when the modifier runs, and so is a nil object, as
// every modifier of this package refuses one: errors, not panics.
func ForKind[T etcdshapes.Object](fn func(T) error) Modifier {
	return func(o etcdshapes.Object) error {
		if err := notNil(o); err != nil {
			return err
		}
		if t, ok := o.(T); ok {
			if fn == nil {
				return invalid.Errorf("ForKind", nil, "needs an edit of %T, not nil", t)
			}
			return fn(t)
		}
		return nil
	}
}

// notNil refuses a nil object (or a typed nil pointer) given to a
// modifier directly.
func notNil(o etcdshapes.Object) error {
	if manifest.IsNil(o) {
		return invalid.Errorf("object", nil, "must be an object, not nil")
	}
	return nil
}

// WithLabels adds labels to every object's metadata (not to pod
// templates, whose labels feed selectors). A key the builder already sets
// to another value is refused: the builders' labels carry meaning. Each
// key and value is checked as the API server checks them (apimachinery's
// metav1validation.ValidateLabels: a qualified name, a label value of at
// most 63 characters), each refusal naming its key ("labels.<key>").
func WithLabels(labels map[string]string) Modifier {
	return func(o etcdshapes.Object) error {
		if err := notNil(o); err != nil {
			return err
		}
		merged, err := mergeMeta("labels", o, o.GetLabels(), labels, func(k, v string) error {
			return labelErrors(k, v)
		}, nil)
		if err != nil {
			return err
		}
		o.SetLabels(merged)
		return nil
	}
}

// WithAnnotations adds annotations to every object's metadata. A key the
// builder already sets to another value is refused: Helm's hook and keep
// annotations change what happens to an object. Keys are checked, and the
// object's annotations (the builder's and these) measured, as the API
// server does (apimachinery's apivalidation.ValidateAnnotations: a
// qualified name in any case, at most TotalAnnotationSizeLimitB, 256 KiB,
// of keys and values together), each refusal naming its key.
func WithAnnotations(annotations map[string]string) Modifier {
	return func(o etcdshapes.Object) error {
		if err := notNil(o); err != nil {
			return err
		}
		merged, err := mergeMeta("annotations", o, o.GetAnnotations(), annotations, func(k, v string) error {
			if err := fieldErrors("annotation", apivalidation.ValidateAnnotations(map[string]string{k: ""}, field.NewPath("annotations").Key(k))); err != nil {
				return err
			}
			// Any text the API server stores, except what the YAML
			// printer (etcdshapes.Marshal) and encoding/json would
			// not print as it is: never print another value.
			if i, r := yamlemit.Unfaithful(v); i >= 0 {
				what := fmt.Sprintf("%U", r)
				if r == utf8.RuneError {
					what = fmt.Sprintf("the invalid UTF-8 byte 0x%02x", v[i])
				}
				return &invalid.Error{Value: v, Rule: "must be a valid annotation value: holds " + what + ", which YAML cannot carry byte for byte (valid UTF-8 without DEL, the C1 controls, U+FFFE or U+FFFF)"}
			}
			return nil
		}, annotationsSize)
		if err != nil {
			return err
		}
		o.SetAnnotations(merged)
		return nil
	}
}

// labelErrors is metav1validation.ValidateLabels of one label, as a
// refusal of labels.<key> quoting the key or the value it is about.
func labelErrors(k, v string) error {
	return fieldErrors("label", metav1validation.ValidateLabels(map[string]string{k: v}, field.NewPath("labels").Key(k)))
}

// fieldErrors turns apimachinery's errors about one label or annotation
// (kind) into the refusal of its key: the first error's value, its part
// (the key, a qualified name, or the value) and every detail.
func fieldErrors(kind string, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	details := make([]string, len(errs))
	for i, e := range errs {
		details[i] = e.Detail
		if e.Type == field.ErrorTypeTooLong {
			details[i] = e.ErrorBody()
		}
	}
	part := "key (a qualified name, as " + kind + " keys are)"
	if errs[0].Origin == "format=k8s-label-value" {
		part = "value"
	}
	return &invalid.Error{Value: errs[0].BadValue, Rule: "must be a valid " + kind + " " + part + ": " + strings.Join(details, "; ")}
}

// annotationsSize is the API server's bound on an object's annotations
// (apivalidation.ValidateAnnotationsSize); when merged passes it, the
// refusal names the first key, in sorted order, whose annotation takes
// them past it.
func annotationsSize(merged map[string]string, added []string) error {
	err := apivalidation.ValidateAnnotationsSize(merged)
	if err == nil {
		return nil
	}
	isAdded := make(map[string]bool, len(added))
	for _, k := range added {
		isAdded[k] = true
	}
	total := 0
	for k, v := range merged {
		if !isAdded[k] {
			total += len(k) + len(v)
		}
	}
	at := added[len(added)-1]
	for _, k := range added {
		if total += len(k) + len(merged[k]); total > apivalidation.TotalAnnotationSizeLimitB {
			at = k
			break
		}
	}
	return invalid.Errorf("annotations."+at, merged[at], "takes the object's annotations past what the API server accepts: %v (bytes of keys and values, 256 KiB)", err)
}

func mergeMeta(fieldName string, o etcdshapes.Object, have, add map[string]string, check func(k, v string) error, total func(merged map[string]string, added []string) error) (map[string]string, error) {
	if len(add) == 0 {
		return have, nil
	}
	keys := make([]string, 0, len(add))
	for k := range add {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]string, len(have)+len(add))
	for k, v := range have {
		out[k] = v
	}
	var added []string
	for _, k := range keys {
		v := add[k]
		if err := check(k, v); err != nil {
			var ne *invalid.Error
			if errors.As(err, &ne) {
				ne.Field = fieldName + "." + k
			}
			return nil, err
		}
		if cur, ok := have[k]; ok && cur != v {
			return nil, invalid.Errorf(fieldName+"."+k, v, "conflicts with %q, which the builder sets on %s %q", cur, o.GetObjectKind().GroupVersionKind().Kind, o.GetName())
		}
		if _, ok := have[k]; !ok {
			added = append(added, k)
		}
		out[k] = v
	}
	if total != nil && len(added) > 0 {
		if err := total(out, added); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// WithOwnerReference makes ref an owner of every namespaced object, so
// that deleting the owner (say, the operator's own custom resource in the
// tenant namespace) garbage-collects the stack. Cluster-scoped objects
// (the DataStore) are left alone: a namespaced owner cannot own them, and
// the garbage collector reports such a reference as invalid. A second
// controller reference is refused.
func WithOwnerReference(ref metav1.OwnerReference) Modifier {
	return func(o etcdshapes.Object) error {
		if err := validateOwnerReference(ref); err != nil {
			return err
		}
		if err := notNil(o); err != nil {
			return err
		}
		if o.GetNamespace() == "" {
			return nil
		}
		refs := o.GetOwnerReferences()
		for _, r := range refs {
			if r.UID == ref.UID {
				return nil
			}
			if isController(r) && isController(ref) {
				return invalid.Errorf("ownerReference.controller", true, "%s %q already has controller %s %q", o.GetObjectKind().GroupVersionKind().Kind, o.GetName(), r.Kind, r.Name)
			}
		}
		o.SetOwnerReferences(append(refs, *ref.DeepCopy()))
		return nil
	}
}

func isController(r metav1.OwnerReference) bool { return r.Controller != nil && *r.Controller }

// The bounds of an owner reference's names: what an owner the API server
// holds can have. A reference that names no object that can exist leaves
// the stack's objects without any owner present, which the garbage
// collector deletes.
const (
	// MaxOwnerUID: the API server gives every object a UUID as its
	// metadata.uid, 36 characters.
	MaxOwnerUID = 36
)

// validateOwnerReference checks ref's fields as names of an object the
// API server can hold, each rule after the one before: apiVersion a
// group/version (a DNS-1123 subdomain of at most 253 characters, a
// version that is a DNS-1035 label of at most 63, as a CRD's), kind one
// whose lower case is a DNS-1035 label (a CRD's kind), name a DNS-1123
// subdomain (metadata.name, at most 253), uid at most MaxOwnerUID.
func validateOwnerReference(ref metav1.OwnerReference) error {
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	switch {
	case ref.APIVersion == "":
		return invalid.Errorf("ownerReference.apiVersion", ref.APIVersion, "must not be empty")
	case err != nil || gv.Version == "" || (gv.Group != "" && len(validation.IsDNS1123Subdomain(gv.Group)) > 0) || len(validation.IsDNS1035Label(gv.Version)) > 0:
		return invalid.Errorf("ownerReference.apiVersion", ref.APIVersion, "must be an API version: a version (a DNS-1035 label, e.g. v1) after a group (a DNS-1123 subdomain) and a /, as the owner's apiVersion")
	case ref.Kind == "":
		return invalid.Errorf("ownerReference.kind", ref.Kind, "must not be empty")
	case len(validation.IsDNS1035Label(strings.ToLower(ref.Kind))) > 0:
		return invalid.Errorf("ownerReference.kind", ref.Kind, "must be a kind: one whose lower case is a DNS-1035 label of at most 63 characters, as an API's kinds are")
	case ref.Name == "":
		return invalid.Errorf("ownerReference.name", ref.Name, "must not be empty")
	case len(validation.IsDNS1123Subdomain(ref.Name)) > 0:
		return invalid.Errorf("ownerReference.name", ref.Name, "must be an object name (a DNS-1123 subdomain of at most 253 characters)")
	case ref.UID == "":
		return invalid.Errorf("ownerReference.uid", string(ref.UID), "must not be empty (the owner's metadata.uid)")
	case len(ref.UID) > MaxOwnerUID:
		return invalid.Errorf("ownerReference.uid", string(ref.UID), "must be at most %d characters: the owner's metadata.uid, a UUID the API server gives", MaxOwnerUID)
	}
	return nil
}

package etcdshapes_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// exportedFuncs lists the exported functions and methods of the package
// in dir (its non-test files), as "Func" and "Type.Method".
func exportedFuncs(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() {
				continue
			}
			name := fn.Name.Name
			if fn.Recv != nil {
				typ := fn.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				id, ok := typ.(*ast.Ident)
				if !ok || !id.IsExported() {
					continue
				}
				name = id.Name + "." + name
			}
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// TestPlanAndApplyAreNilSafe: every exported function and method of the
// plan and apply packages (listed from their source, so that a new one
// must join the table) takes nil for every argument it has that can be
// nil (objects, typed nil pointers, a nil receiver, a nil writer, nil
// options and modifiers, and the modifiers' nil objects) and answers with
// an error or a documented value, never a panic. So do the root's object
// predicates (IsKept, IsUninstallHook, WithoutUninstallHooks, Sort).
func TestPlanAndApplyAreNilSafe(t *testing.T) {
	var nilResult *plan.Result
	var nilSecret *corev1.Secret
	var nilBuffer *bytes.Buffer
	secret := func() *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "a", "namespace": "tenant-demo"}}}
	}
	owner := metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "o", UID: "u"}
	objects := [][]etcdshapes.Object{nil, {nil}, {nilSecret}, {secret(), nil}}
	// errs: each call must return a non-nil error.
	errs := func(calls ...func() error) func(*testing.T) {
		return func(t *testing.T) {
			for i, c := range calls {
				require.Error(t, c(), "call %d", i)
			}
		}
	}
	// runs: each call must return without a panic.
	runs := func(calls ...func()) func(*testing.T) {
		return func(t *testing.T) {
			for _, c := range calls {
				c()
			}
		}
	}
	modifierOnNil := func(m apply.Modifier) []func() error {
		return []func() error{
			func() error { return m(nil) },
			func() error { return m(nilSecret) },
			func() error { return m((*unstructured.Unstructured)(nil)) },
		}
	}
	calls := map[string]func(*testing.T){
		"plan.Compute": errs(
			func() error { _, err := plan.Compute([]etcdshapes.Object{nil}, nil); return err },
			func() error { _, err := plan.Compute(nil, []etcdshapes.Object{nilSecret}); return err },
			func() error { _, err := plan.Compute(nil, nil, nil); return err },
			func() error { _, err := plan.Compute(nil, nil, plan.ForStack(naming.Names{})); return err },
		),
		"plan.ForRequest": errs(
			func() error { _, _, err := plan.ForRequest(etcdshapes.Request{}, nil); return err },
			func() error {
				_, _, err := plan.ForRequest(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root"}, []etcdshapes.Object{nil})
				return err
			},
			func() error {
				_, _, err := plan.ForRequest(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root"}, nil, nil)
				return err
			},
			func() error {
				_, _, err := plan.ForRequest(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root"}, nil, apply.ForKind[*v1alpha2.EtcdCluster](nil))
				return err
			},
		),
		"plan.ReadObjects": runs(func() { _, _ = plan.ReadObjects(nil) }),
		"plan.LiveStateFromObjects": errs(
			func() error { _, err := plan.LiveStateFromObjects("", "", nil); return err },
			func() error {
				_, err := plan.LiveStateFromObjects("tenant-demo", "kubernetes-demo", []etcdshapes.Object{nilSecret})
				return err
			},
		),
		"plan.RequestFromLive": errs(func() error {
			_, err := plan.RequestFromLive(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root"}, []etcdshapes.Object{nil})
			return err
		}),
		"plan.ForStack":        errs(func() error { _, err := plan.Compute(nil, nil, plan.ForStack(naming.Names{})); return err }),
		"plan.TargetDataStore": runs(func() { _, _ = plan.Compute(nil, nil, plan.TargetDataStore("")) }),
		"plan.AsFieldManager":  errs(func() error { _, err := plan.Compute(nil, nil, plan.AsFieldManager("\x00")); return err }),
		"plan.ForRequestWith": errs(
			func() error { _, _, err := plan.ForRequestWith(etcdshapes.Request{}, nil, nil); return err },
			func() error {
				_, _, err := plan.ForRequestWith(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root"}, []etcdshapes.Object{nil}, []plan.Option{nil})
				return err
			},
		),
		"plan.Result.AllFindings": func(t *testing.T) {
			require.Nil(t, nilResult.AllFindings())
		},
		"plan.Result.SafeToApply":    func(t *testing.T) { require.False(t, nilResult.SafeToApply()) },
		"plan.Result.Empty":          func(t *testing.T) { require.False(t, nilResult.Empty()) },
		"plan.Result.NothingToApply": func(t *testing.T) { require.False(t, nilResult.NothingToApply()) },
		"plan.Result.Summary":        func(t *testing.T) { require.Equal(t, "No plan.", nilResult.Summary()) },
		"plan.ApplyCommand": func(t *testing.T) {
			require.Equal(t, "kubectl apply --server-side --field-manager=etcdshapes --force-conflicts -f -", plan.ApplyCommand(""))
			require.Equal(t, "kubectl apply --server-side --field-manager='a b'\\''c' --force-conflicts -f -", plan.ApplyCommand("a b'c"))
		},
		"plan.ShellWord": func(t *testing.T) {
			require.Equal(t, "''", plan.ShellWord(""))
			require.Equal(t, "'a b'\\''c'", plan.ShellWord("a b'c"))
			require.Equal(t, "tenant-demo", plan.ShellWord("tenant-demo"))
		},
		"plan.ExpectExisting": runs(func() { _, _ = plan.Compute(nil, nil, plan.ExpectExisting()) }),
		"plan.FreshInstall": errs(func() error {
			_, err := plan.Compute(nil, nil, plan.FreshInstall(), plan.ExpectExisting())
			return err
		}),
		"plan.Result.Count":  func(t *testing.T) { require.Zero(t, nilResult.Count(plan.Create)) },
		"plan.Result.Counts": func(t *testing.T) { require.Zero(t, nilResult.Counts()) },
		"plan.Result.MarshalJSON": func(t *testing.T) {
			b, err := json.Marshal(nilResult)
			require.NoError(t, err)
			require.Equal(t, "null", string(b))
			b, err = plan.Result{}.MarshalJSON()
			require.NoError(t, err)
			require.JSONEq(t, `{"safeToApply":true,"empty":true,"verdict":"No changes.","counts":{"create":0,"update":0,"delete":0,"unchanged":0,"refused":0,"needsDecision":0,"notes":0,"conflicts":0},"nothingToApply":true,"fieldManager":"etcdshapes","objects":null}`, string(b))
		},
		"plan.Result.String": func(t *testing.T) { require.Equal(t, "<nil>", nilResult.String()) },
		"plan.Result.WriteText": errs(
			func() error { return nilResult.WriteText(&bytes.Buffer{}) },
			func() error { return (&plan.Result{}).WriteText(nil) },
			func() error { return (&plan.Result{}).WriteText(nilBuffer) },
		),
		"plan.ObjectRef.String":   runs(func() { _ = plan.ObjectRef{}.String() }),
		"plan.Finding.String":     runs(func() { _ = plan.Finding{}.String() }),
		"plan.InferredAPI.String": runs(func() { _ = plan.InferredAPI{}.String() }),
		"plan.Manager.String":     runs(func() { _ = plan.Manager{}.String() }),

		"apply.Requests": func(t *testing.T) {
			for _, objs := range objects[1:] {
				_, err := apply.Requests(objs)
				require.Error(t, err)
			}
			_, err := apply.Requests([]etcdshapes.Object{secret()}, nil)
			require.Error(t, err)
		},
		"apply.UninstallHookRequests": func(t *testing.T) {
			for _, objs := range objects[1:] {
				_, err := apply.UninstallHookRequests(objs)
				require.Error(t, err)
			}
			_, err := apply.UninstallHookRequests(nil, nil)
			require.Error(t, err)
		},
		"apply.Modify": func(t *testing.T) {
			for _, objs := range objects[1:] {
				require.Error(t, apply.Modify(objs))
			}
			require.Error(t, apply.Modify([]etcdshapes.Object{secret()}, nil))
		},
		"apply.Modified": func(t *testing.T) {
			for _, objs := range objects[1:] {
				_, err := apply.Modified(objs)
				require.Error(t, err)
			}
			_, err := apply.Modified(nil, nil)
			require.Error(t, err)
		},
		"apply.ForKind": errs(append(modifierOnNil(apply.ForKind(func(*corev1.Secret) error { return nil })),
			func() error { return apply.ForKind[*corev1.Secret](nil)(&corev1.Secret{}) })...),
		"apply.WithLabels":           errs(modifierOnNil(apply.WithLabels(map[string]string{"a": "b"}))...),
		"apply.WithAnnotations":      errs(modifierOnNil(apply.WithAnnotations(map[string]string{"a": "b"}))...),
		"apply.WithOwnerReference":   errs(modifierOnNil(apply.WithOwnerReference(owner))...),
		"apply.ValidateFieldManager": errs(func() error { return apply.ValidateFieldManager("fieldManager", "") }),

		"etcdshapes.IsKept": func(t *testing.T) {
			require.False(t, etcdshapes.IsKept(nil))
			require.False(t, etcdshapes.IsKept(nilSecret))
		},
		"etcdshapes.IsUninstallHook": func(t *testing.T) {
			require.False(t, etcdshapes.IsUninstallHook(nil))
			require.False(t, etcdshapes.IsUninstallHook(nilSecret))
		},
		"etcdshapes.WithoutUninstallHooks": runs(func() { _ = etcdshapes.WithoutUninstallHooks([]etcdshapes.Object{nil, nilSecret}) }),
		"etcdshapes.Sort":                  runs(func() { etcdshapes.Sort([]etcdshapes.Object{nil, nilSecret, secret()}) }),
	}
	var listed []string
	for _, pkg := range []string{"plan", "apply"} {
		for _, f := range exportedFuncs(t, pkg) {
			listed = append(listed, pkg+"."+f)
		}
	}
	require.NotEmpty(t, listed)
	for _, name := range listed {
		require.Contains(t, calls, name, "an exported function the nil table does not try: add it")
	}
	names := make([]string, 0, len(calls))
	for name := range calls {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !strings.HasPrefix(name, "etcdshapes.") {
			require.True(t, slices.Contains(listed, name), "%s is not an exported function of plan or apply", name)
		}
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%s panics: %v", name, fmt.Sprint(r))
				}
			}()
			calls[name](t)
		})
	}
}

//go:build apiserver

package e2e

import (
	"context"
	"errors"
	"fmt"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/plan"
	"sort"
	"sync"
	"time"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"
)

// summaries are lines the suite prints before its closing line: what the
// tests that are not counted as golden objects confirmed.
var summaries = &summaryLines{}

type summaryLines struct {
	mu    sync.Mutex
	lines []string
}

func (s *summaryLines) add(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, fmt.Sprintf(format, args...))
}

func (s *summaryLines) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

// applyAll sends each request the way the library documents it: its body,
// unchanged, as a server-side apply patch owned by apply.FieldManager,
// forcing ownership, with strict field validation. The errors are keyed by
// the object (plan.ObjectRef.String()), so that a test can compare
// them with the plan's findings object by object.
func applyAll(ctx context.Context, reqs []apply.Request, opts ...client.PatchOption) map[string]error {
	errs := map[string]error{}
	for _, r := range reqs {
		if err := ensureNamespace(ctx, r.Namespace); err != nil {
			errs[refOf(r.Object)] = err
			continue
		}
		o := append([]client.PatchOption{client.FieldOwner(apply.FieldManager), client.ForceOwnership, strict}, opts...)
		// Patch decodes the answer into its object: send a copy so that
		// the request stays as the library built it.
		if err := k.Patch(ctx, r.Object.DeepCopy(), client.RawPatch(r.PatchType, r.Body), o...); err != nil {
			errs[refOf(r.Object)] = err
		}
	}
	return errs
}

func refOf(o client.Object) string {
	gvk := o.GetObjectKind().GroupVersionKind()
	return plan.ObjectRef{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Namespace: o.GetNamespace(), Name: o.GetName()}.String()
}

// stackKinds are the kinds a live read lists: every kind the two stacks
// can render (all optional APIs on), plus the kinds that share their
// namespaces and that a plan must leave alone (EtcdSnapshots, the
// snapshot schedule's RBAC) and the tenant's KamajiControlPlane.
func stackKinds() ([]schema.GroupVersionKind, error) {
	seen := map[schema.GroupVersionKind]bool{}
	var out []schema.GroupVersionKind
	add := func(gvk schema.GroupVersionKind) {
		if !seen[gvk] {
			seen[gvk] = true
			out = append(out, gvk)
		}
	}
	cluster, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-kinds", Release: "kubernetes-kinds",
		APIVersions: []string{etcdshapes.APICiliumNetworkPolicy, etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APIVMPodScrape}})
	if err != nil {
		return nil, err
	}
	chart, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-kinds", Release: naming.EtcdChartRelease})
	if err != nil {
		return nil, err
	}
	for _, o := range append(cluster, chart...) {
		add(o.GetObjectKind().GroupVersionKind())
	}
	add(schema.GroupVersionKind{Group: "etcd-operator.cozystack.io", Version: "v1alpha2", Kind: "EtcdSnapshot"})
	add(kcpGVK)
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out, nil
}

// readLive lists every object of the stack kinds in namespace, and every
// DataStore (cluster-scoped), as unstructured objects with their
// managedFields: what `kubectl get -o yaml --show-managed-fields` gives
// the CLI. Objects of other stacks are included on purpose: the plan must
// ignore them. Kinds the server does not serve are skipped.
func readLive(ctx context.Context, namespace string) ([]etcdshapes.Object, error) {
	kinds, err := stackKinds()
	if err != nil {
		return nil, err
	}
	var out []etcdshapes.Object
	for _, gvk := range kinds {
		m, err := k.RESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version)
		if meta.IsNoMatchError(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		list := &unstructured.UnstructuredList{}
		list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		var opts []client.ListOption
		if m.Scope.Name() == meta.RESTScopeNameNamespace {
			opts = append(opts, client.InNamespace(namespace))
		}
		if err := k.List(ctx, list, opts...); err != nil {
			return nil, fmt.Errorf("listing %s: %w", gvk.Kind, err)
		}
		for i := range list.Items {
			item := &list.Items[i]
			// A List's items may come without apiVersion and kind.
			item.SetGroupVersionKind(gvk)
			out = append(out, item)
		}
	}
	return out, nil
}

// The tenant cluster's KamajiControlPlane. Its CRD is not in
// $ETCDSHAPES_CRDS (the library never renders one, it only reads
// spec.dataStoreName), so tests that need one install the minimal CRD
// below: an open schema is enough to store the field the plan reads.
var kcpGVK = schema.GroupVersionKind{Group: "controlplane.cluster.x-k8s.io", Version: "v1alpha1", Kind: "KamajiControlPlane"}

const kcpCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: kamajicontrolplanes.controlplane.cluster.x-k8s.io
spec:
  group: controlplane.cluster.x-k8s.io
  names:
    kind: KamajiControlPlane
    listKind: KamajiControlPlaneList
    plural: kamajicontrolplanes
    singular: kamajicontrolplane
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              dataStoreName:
                type: string
            x-kubernetes-preserve-unknown-fields: true
`

// installKCPCRD creates the minimal KamajiControlPlane CRD and waits until
// the server serves it.
func installKCPCRD(ctx context.Context) error {
	crd := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(kcpCRD), &crd.Object); err != nil {
		return err
	}
	if err := k.Create(ctx, crd); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating the KamajiControlPlane CRD: %w", err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		list := &unstructured.UnstructuredList{}
		list.SetGroupVersionKind(kcpGVK.GroupVersion().WithKind("KamajiControlPlaneList"))
		err := k.List(ctx, list)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the KamajiControlPlane CRD is not served after a minute: %w", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// setKCP creates or updates the KamajiControlPlane namespace/name with
// spec.dataStoreName (none when dataStore is nil).
func setKCP(ctx context.Context, namespace, name string, dataStore *string) error {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(kcpGVK)
	u.SetNamespace(namespace)
	u.SetName(name)
	// A field of its own, so that the spec stays an object when
	// dataStoreName goes (server-side apply prunes an emptied map).
	spec := map[string]any{"version": "v1.35.0"}
	if dataStore != nil {
		spec["dataStoreName"] = *dataStore
	}
	u.Object["spec"] = spec
	body, err := u.MarshalJSON()
	if err != nil {
		return err
	}
	// Another manager than etcdshapes: the library never writes it.
	return k.Patch(ctx, u, client.RawPatch("application/apply-patch+yaml", body), client.FieldOwner("e2e-kamaji"), client.ForceOwnership)
}

// resourceVersions maps every object to its resourceVersion.
func resourceVersions(objs []etcdshapes.Object) map[string]string {
	out := make(map[string]string, len(objs))
	for _, o := range objs {
		out[refOf(o)] = o.GetResourceVersion()
	}
	return out
}

// deleteObject deletes the object a plan names.
func deleteObject(ctx context.Context, ref plan.ObjectRef) error {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(ref.APIVersion)
	u.SetKind(ref.Kind)
	u.SetNamespace(ref.Namespace)
	u.SetName(ref.Name)
	err := k.Delete(ctx, u, client.PropagationPolicy(metav1.DeletePropagationBackground))
	if apierrors.IsNotFound(err) {
		return errors.New(ref.String() + " does not exist")
	}
	return err
}

// sleep paces a poll of the API server.
func sleep() { time.Sleep(100 * time.Millisecond) }

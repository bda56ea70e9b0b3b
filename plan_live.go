package etcdshapes

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// Kinds the plan reads from live objects besides the stack's own.
var (
	// KamajiControlPlaneKind is the tenant cluster's control plane; the
	// kubernetes chart names it after its release.
	KamajiControlPlaneKind = schema.GroupKind{Group: "controlplane.cluster.x-k8s.io", Kind: "KamajiControlPlane"}
	etcdClusterKind        = schema.GroupKind{Group: "etcd-operator.cozystack.io", Kind: "EtcdCluster"}
	dataStoreKind          = schema.GroupKind{Group: "kamaji.clastix.io", Kind: "DataStore"}
)

// ReadObjects reads objects as `kubectl get -o yaml` (or -o json) prints
// them: one object, a List of objects, or several YAML documents of
// either. Empty documents are skipped. The objects are
// *unstructured.Unstructured, ready for Plan and LiveStateFromObjects.
// Data over MaxValuesBytes or MaxValuesIndicators is refused unparsed.
func ReadObjects(data []byte) ([]Object, error) {
	if err := inputlimit.Check(data); err != nil {
		return nil, naming.Errorf("live", firstLine(data), "%v", err)
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var out []Object
	for doc := 0; ; doc++ {
		raw, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		field := "live[" + strconv.Itoa(doc) + "]"
		if err != nil {
			return nil, naming.Errorf(field, "", "must be YAML: %v", err)
		}
		js, err := yaml.YAMLToJSON(raw)
		if err != nil {
			return nil, naming.Errorf(field, firstLine(raw), "must be YAML: %v", err)
		}
		if t := bytes.TrimSpace(js); len(t) == 0 || bytes.Equal(t, []byte("null")) {
			continue
		}
		obj, _, err := unstructured.UnstructuredJSONScheme.Decode(js, nil, nil)
		if err != nil {
			return nil, naming.Errorf(field, firstLine(raw), "must be a Kubernetes object or List with apiVersion and kind: %v", err)
		}
		switch t := obj.(type) {
		case *unstructured.UnstructuredList:
			for i := range t.Items {
				item := &t.Items[i]
				if item.GetKind() == "" || item.GetName() == "" {
					return nil, naming.Errorf(field+".items["+strconv.Itoa(i)+"]", item.GetName(), "must have a kind and a metadata.name")
				}
				out = append(out, item)
			}
		case *unstructured.Unstructured:
			if t.GetName() == "" {
				return nil, naming.Errorf(field+".metadata.name", "", "must not be empty")
			}
			out = append(out, t)
		default:
			return nil, naming.Errorf(field, firstLine(raw), "must be a Kubernetes object, got %T", obj)
		}
	}
}

// planObject is an object in the plan's form: its identity and its
// normalized JSON tree.
type planObject struct {
	key  objectKey
	ref  ObjectRef
	tree map[string]any
	obj  Object
}

// objectKey identifies an object across API versions.
type objectKey struct {
	group, kind, namespace, name string
}

func (k objectKey) groupKind() schema.GroupKind {
	return schema.GroupKind{Group: k.group, Kind: k.kind}
}

// planForm converts an object into its JSON tree: an unstructured object
// as it is, a typed one as Marshal prints it (typed objects from a client
// without apiVersion and kind get them from the scheme).
func planForm(o Object) (*planObject, error) {
	if o == nil || reflectNil(o) {
		return nil, errors.New("etcdshapes: nil object")
	}
	var raw map[string]any
	if u, ok := o.(*unstructured.Unstructured); ok {
		raw = u.Object
	} else {
		m, err := typedTree(o)
		if err != nil {
			return nil, err
		}
		raw = m
	}
	n, err := normalize(raw)
	if err != nil {
		return nil, fmt.Errorf("%w (%s %q)", err, o.GetObjectKind().GroupVersionKind().Kind, o.GetName())
	}
	tree, ok := n.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("etcdshapes: object %q is not a JSON object", o.GetName())
	}
	apiVersion, _ := tree["apiVersion"].(string)
	kind, _ := tree["kind"].(string)
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil || kind == "" || apiVersion == "" {
		return nil, fmt.Errorf("etcdshapes: object %q has no valid apiVersion/kind (%q, %q)", o.GetName(), apiVersion, kind)
	}
	meta, _ := tree["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	ns, _ := meta["namespace"].(string)
	if name == "" {
		return nil, fmt.Errorf("etcdshapes: %s object without metadata.name", kind)
	}
	return &planObject{
		key:  objectKey{group: gv.Group, kind: kind, namespace: ns, name: name},
		ref:  ObjectRef{APIVersion: apiVersion, Kind: kind, Namespace: ns, Name: name},
		tree: tree,
		obj:  o,
	}, nil
}

func reflectNil(o Object) bool {
	v := reflect.ValueOf(o)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// planScheme knows every kind the stacks contain, for typed objects that
// arrive without TypeMeta (controller-runtime clears it on typed reads).
// Built on first use.
var planScheme = sync.OnceValues(func() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	return s, AddToScheme(s)
})

// typedTree is a typed object's JSON tree as Marshal prints it.
func typedTree(o Object) (map[string]any, error) {
	js, err := typedJSON(o)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// typedJSON is a typed object as Marshal prints it, in JSON (keys
// sorted). Typed objects read by a client without apiVersion and kind get
// them from the scheme.
func typedJSON(o Object) ([]byte, error) {
	if o.GetObjectKind().GroupVersionKind().Kind == "" {
		scheme, err := planScheme()
		if err != nil {
			return nil, err
		}
		gvks, _, err := scheme.ObjectKinds(o)
		if err != nil || len(gvks) == 0 {
			return nil, fmt.Errorf("etcdshapes: %T %q has no apiVersion/kind and is not a kind this library knows", o, o.GetName())
		}
		c, ok := o.DeepCopyObject().(Object)
		if !ok {
			return nil, fmt.Errorf("etcdshapes: %T is not an Object", o)
		}
		c.GetObjectKind().SetGroupVersionKind(gvks[0])
		o = c
	}
	doc, err := MarshalObject(o)
	if err != nil {
		return nil, err
	}
	return yaml.YAMLToJSON(doc)
}

// LiveStateFromObjects reads a tenant cluster's live state from live
// objects (see ReadObjects): the storage class of the EtcdCluster
// "<release>-etcd" (an EtcdCluster without the field yields "", which
// keeps the field omitted) and the spec.dataStoreName of the
// KamajiControlPlane "<release>", both in namespace. Objects that are not
// these two are ignored, so the whole live stack can be passed. Rendering
// with this state and planning against the same live objects changes
// nothing on a live stack the library rendered.
func LiveStateFromObjects(namespace, release string, live []Object) (LiveState, error) {
	n, err := naming.ForCluster(namespace, release)
	if err != nil {
		return LiveState{}, err
	}
	var st LiveState
	for _, o := range live {
		p, err := planForm(o)
		if err != nil {
			return LiveState{}, err
		}
		if p.key.namespace != namespace {
			continue
		}
		spec, _ := p.tree["spec"].(map[string]any)
		switch {
		case p.key.groupKind() == etcdClusterKind && p.key.name == n.Cluster:
			storage, _ := spec["storage"].(map[string]any)
			sc := ""
			if v, ok := storage["storageClassName"]; ok && v != nil {
				s, ok := v.(string)
				if !ok {
					return LiveState{}, naming.Errorf("live EtcdCluster "+n.Cluster+" spec.storage.storageClassName", v, "must be a string")
				}
				sc = s
			}
			st.StorageClassName = &sc
		case p.key.groupKind() == KamajiControlPlaneKind && p.key.name == n.Release:
			if v, ok := spec["dataStoreName"]; ok && v != nil {
				s, ok := v.(string)
				if !ok {
					return LiveState{}, naming.Errorf("live KamajiControlPlane "+n.Release+" spec.dataStoreName", v, "must be a string")
				}
				st.DataStoreName = s
			}
		}
	}
	if err := validateLive(st); err != nil {
		return LiveState{}, err
	}
	return st, nil
}

// stackScope is every object a stack with these names can render, whatever
// its values and served APIs: what a plan may delete. It renders the stack
// with every optional kind on, so it cannot drift from the builders. Helm
// uninstall hooks and "keep" objects are left out: the plan never deletes
// them.
func stackScope(n naming.Names) (map[objectKey]bool, error) {
	var objs []Object
	var err error
	if n.Caller == naming.EtcdChart {
		objs, err = EtcdChart(EtcdChartOptions{Namespace: n.Namespace, Release: n.Release})
	} else {
		objs, err = Cluster(ClusterOptions{Namespace: n.Namespace, Release: n.Release,
			APIVersions: []string{APICiliumNetworkPolicy, APIVerticalPodAutoscaler, APIVMPodScrape}})
	}
	if err != nil {
		return nil, err
	}
	scope := make(map[objectKey]bool, len(objs))
	for _, o := range objs {
		if IsUninstallHook(o) || isKept(o) {
			continue
		}
		scope[objectKey{group: o.GetObjectKind().GroupVersionKind().Group, kind: kindOf(o), namespace: o.GetNamespace(), name: o.GetName()}] = true
	}
	return scope, nil
}

// namesOfStack finds the stack a desired set of objects belongs to from
// its EtcdCluster: "etcd" is the etcd chart's, "<release>-etcd" a tenant
// cluster's.
func namesOfStack(desired []*planObject) (naming.Names, bool) {
	for _, d := range desired {
		if d.key.groupKind() != etcdClusterKind {
			continue
		}
		if d.key.name == naming.EtcdChartName {
			n, err := naming.ForEtcdChart(d.key.namespace, naming.EtcdChartRelease)
			return n, err == nil
		}
		if rel, ok := strings.CutSuffix(d.key.name, "-etcd"); ok {
			n, err := naming.ForCluster(d.key.namespace, rel)
			return n, err == nil
		}
	}
	return naming.Names{}, false
}

// Helm annotations the plan and apply honour.
const (
	helmHookAnnotation           = "helm.sh/hook"
	helmResourcePolicyAnnotation = "helm.sh/resource-policy"
)

// IsUninstallHook reports whether o is a Helm hook that never runs on
// install or upgrade (post-delete, pre-delete, rollback and test hooks):
// the cleanup hooks. Plan and ApplyRequests leave them
// out, because creating the cleanup Job deletes the cluster's TLS Secrets
// and data volumes.
func IsUninstallHook(o Object) bool {
	hook, ok := o.GetAnnotations()[helmHookAnnotation]
	if !ok {
		return false
	}
	for _, h := range strings.Split(hook, ",") {
		switch strings.TrimSpace(h) {
		case "pre-install", "post-install", "pre-upgrade", "post-upgrade":
			return false
		}
	}
	return true
}

// isKept reports Helm's "keep" policy: the object outlives its release.
func isKept(o Object) bool {
	return o.GetAnnotations()[helmResourcePolicyAnnotation] == "keep"
}

package apply_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/invalid"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"
)

// meantZeroValues are the zero values the builders mean to send, each
// with why. Every other "", false, 0, {} or [] in an apply body would make
// the field manager own a field it never chose.
var meantZeroValues = map[string]string{
	"allowPrivilegeEscalation=false": "restricted pod security requires it stated",
	"emptyDir={}":                    "an emptyDir volume is its empty source",
	"selfSigned={}":                  "a self-signed Issuer is its empty config",
	"isCA=false":                     "the charts state it on serving certificates",
	"apiGroups[]=\"\"":               "the core API group is the empty string",
}

func zeroValues(path, key string, v any, out *[]string) {
	zero := ""
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			zero = "{}"
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			zeroValues(path+"."+k, k, t[k], out)
		}
	case []any:
		if len(t) == 0 {
			zero = "[]"
		}
		for i, c := range t {
			zeroValues(fmt.Sprintf("%s[%d]", path, i), key+"[]", c, out)
		}
	case string:
		if t == "" {
			zero = `""`
		}
	case bool:
		if !t {
			zero = "false"
		}
	case float64:
		if t == 0 {
			zero = "0"
		}
	case nil:
		zero = "null"
	}
	if zero != "" {
		if _, ok := meantZeroValues[key+"="+zero]; !ok {
			*out = append(*out, path+"="+zero)
		}
	}
}

// Every apply body of every golden scenario is the golden document as
// JSON, carries no zero value the builders do not mean, and no Helm
// uninstall hook is applied.
func TestApplyRequestsAreGoldenAndMeanEveryField(t *testing.T) {
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			objs, err := s.Render()
			require.NoError(t, err)
			reqs, err := apply.Requests(objs)
			require.NoError(t, err)
			want := 0
			for _, o := range objs {
				if !etcdshapes.IsUninstallHook(o) {
					want++
				}
			}
			require.Len(t, reqs, want)
			i := 0
			for _, o := range objs {
				if etcdshapes.IsUninstallHook(o) {
					continue
				}
				r := reqs[i]
				i++
				doc, err := etcdshapes.MarshalObject(o)
				require.NoError(t, err)
				js, err := yaml.YAMLToJSON(doc)
				require.NoError(t, err)
				assert.JSONEq(t, string(js), string(r.Body), "%s %s", r.Object.GetKind(), r.Name)
				assert.Equal(t, types.ApplyPatchType, r.PatchType)
				assert.Equal(t, o.GetName(), r.Name)
				assert.Equal(t, o.GetNamespace(), r.Namespace)
				assert.NotEmpty(t, r.Resource.Resource)
				assert.Equal(t, o.GetObjectKind().GroupVersionKind().GroupVersion(), r.Resource.GroupVersion())

				var tree map[string]any
				require.NoError(t, json.Unmarshal(r.Body, &tree))
				var zeros []string
				zeroValues("", "", tree, &zeros)
				assert.Empty(t, zeros, "%s %s sends zero values the builder does not mean", r.Object.GetKind(), r.Name)
				assert.NotContains(t, tree, "status")
			}
		})
	}
}

func TestApplyRequestsDoNotChangeInputs(t *testing.T) {
	objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo"})
	require.NoError(t, err)
	before, err := etcdshapes.Marshal(objs)
	require.NoError(t, err)
	reqs, err := apply.Requests(objs, apply.WithLabels(map[string]string{"team": "a"}))
	require.NoError(t, err)
	after, err := etcdshapes.Marshal(objs)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))
	for _, r := range reqs {
		assert.Equal(t, "a", r.Object.GetLabels()["team"])
		assert.Contains(t, string(r.Body), `"team":"a"`)
	}
}

func TestWithOwnerReference(t *testing.T) {
	objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo"})
	require.NoError(t, err)
	yes := true
	owner := metav1.OwnerReference{APIVersion: "apps.cozystack.io/v1alpha1", Kind: "Kubernetes", Name: "demo", UID: "1234", Controller: &yes, BlockOwnerDeletion: &yes}
	require.NoError(t, apply.Modify(objs, apply.WithOwnerReference(owner), apply.WithOwnerReference(owner)))
	for _, o := range objs {
		if o.GetNamespace() == "" {
			assert.Empty(t, o.GetOwnerReferences(), "cluster-scoped %s", o.GetName())
			continue
		}
		assert.Equal(t, []metav1.OwnerReference{owner}, o.GetOwnerReferences(), "%s", o.GetName())
	}
	// A second controller is refused.
	other := owner
	other.UID = "5678"
	err = apply.Modify(objs, apply.WithOwnerReference(other))
	var ne *invalid.Error
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, "ownerReference.controller", ne.Field)
	// An owner without a uid is refused.
	err = apply.Modify(objs, apply.WithOwnerReference(metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "x"}))
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, "ownerReference.uid", ne.Field)
}

func TestWithLabelsAndAnnotationsRefuseConflictsAndBadKeys(t *testing.T) {
	objs, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root"})
	require.NoError(t, err)
	var ne *invalid.Error

	err = apply.Modify(objs, apply.WithAnnotations(map[string]string{"helm.sh/resource-policy": "delete"}))
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, "annotations.helm.sh/resource-policy", ne.Field)
	assert.Contains(t, ne.Rule, `conflicts with "keep"`)

	err = apply.Modify(objs, apply.WithLabels(map[string]string{"app.kubernetes.io/instance": "other"}))
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, "labels.app.kubernetes.io/instance", ne.Field)

	err = apply.Modify(objs, apply.WithLabels(map[string]string{"bad key": "x"}))
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, "labels.bad key", ne.Field)

	err = apply.Modify(objs, apply.WithLabels(map[string]string{"ok": strings.Repeat("x", 64)}))
	require.ErrorAs(t, err, &ne)

	// The same value is no conflict.
	require.NoError(t, apply.Modify(objs, apply.WithLabels(map[string]string{"app.kubernetes.io/instance": "etcd", "team": "a"})))
}

func TestForKindEditsOneKind(t *testing.T) {
	objs, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root"})
	require.NoError(t, err)
	seconds := int32(900)
	n := 0
	require.NoError(t, apply.Modify(objs, apply.ForKind(func(c *v1alpha2.EtcdCluster) error {
		c.Spec.ProgressDeadlineSeconds = &seconds
		n++
		return nil
	})))
	assert.Equal(t, 1, n)
	out, err := etcdshapes.Marshal(objs)
	require.NoError(t, err)
	assert.True(t, bytes.Contains(out, []byte("progressDeadlineSeconds: 900")))
}

// TestRequestResourceOfOtherKinds: a request for an object of a kind
// outside the table of shapes (one a caller adds) has its group and
// version but no resource, rather than a guessed plural (Endpoints is not
// "endpointses"); the stack's objects have the table's resource.
func TestRequestResourceOfOtherKinds(t *testing.T) {
	for _, o := range []*unstructured.Unstructured{
		{Object: map[string]any{"apiVersion": "v1", "kind": "Endpoints", "metadata": map[string]any{"name": "x", "namespace": "tenant-root"}}},
		{Object: map[string]any{"apiVersion": "metrics.k8s.io/v1beta1", "kind": "PodMetrics", "metadata": map[string]any{"name": "x", "namespace": "tenant-root"}}},
		{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "EtcdCluster", "metadata": map[string]any{"name": "x", "namespace": "tenant-root"}}},
	} {
		reqs, err := apply.Requests([]etcdshapes.Object{o})
		require.NoError(t, err)
		require.Len(t, reqs, 1)
		assert.Equal(t, o.GroupVersionKind().GroupVersion().WithResource(""), reqs[0].Resource, o.GetKind())
	}
	objs, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root"})
	require.NoError(t, err)
	reqs, err := apply.Requests(objs)
	require.NoError(t, err)
	for _, r := range reqs {
		want, ok := etcdshapes.ResourceFor(r.Object.GroupVersionKind())
		require.True(t, ok, r.Object.GetKind())
		assert.Equal(t, want, r.Resource)
	}
}

// Modify is all or nothing: a modifier failing on a later object leaves
// the earlier ones untouched.
func TestModifyIsAtomic(t *testing.T) {
	objs, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root"})
	require.NoError(t, err)
	before, err := etcdshapes.Marshal(objs)
	require.NoError(t, err)
	err = apply.Modify(objs,
		apply.WithLabels(map[string]string{"team": "a"}),
		apply.WithAnnotations(map[string]string{"helm.sh/hook": "post-install"}), // the cleanup hooks say post-delete
	)
	require.Error(t, err)
	after, err := etcdshapes.Marshal(objs)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))
}

// TestLabelsAndAnnotationsTextClass: a label or annotation passed in is
// printed byte for byte or refused with its key named: each C0 control,
// DEL, each C1 control, U+2028, U+2029, the BOM, noncharacters and invalid
// UTF-8. Label values refuse them all (the label grammar); an annotation
// value keeps what YAML carries (C0 controls, U+2028/U+2029, the BOM) and
// refuses the rest.
func TestLabelsAndAnnotationsTextClass(t *testing.T) {
	var class []string
	for r := rune(0); r < 0x20; r++ {
		class = append(class, string(r))
	}
	for r := rune(0x7F); r <= 0x9F; r++ {
		class = append(class, string(r))
	}
	class = append(class, "\u2028", "\u2029", "\ufeff", "\ufffe", "\uffff", "\xff", "\xc3")
	for _, c := range class {
		v := "a" + c + "b"
		objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo"})
		require.NoError(t, err)
		err = apply.Modify(objs, apply.WithLabels(map[string]string{"example.com/l": v}))
		var bad *invalid.Error
		require.ErrorAs(t, err, &bad, "%q", c)
		assert.Equal(t, "labels.example.com/l", bad.Field)

		err = apply.Modify(objs, apply.WithAnnotations(map[string]string{"example.com/a": v}))
		if err != nil {
			require.ErrorAs(t, err, &bad, "%q", c)
			assert.Equal(t, "annotations.example.com/a", bad.Field)
			assert.Contains(t, bad.Rule, "YAML cannot carry byte for byte")
			continue
		}
		out, err := etcdshapes.Marshal(objs)
		require.NoError(t, err, "%q", c)
		for _, doc := range strings.Split(string(out), "---\n")[1:] {
			var back struct {
				Metadata struct {
					Annotations map[string]string `json:"annotations"`
				} `json:"metadata"`
			}
			require.NoError(t, yaml.Unmarshal([]byte(doc), &back))
			require.Equal(t, v, back.Metadata.Annotations["example.com/a"], "%q", c)
		}
	}
}

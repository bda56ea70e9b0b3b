package plan_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// spellings are the ways a hand-edited or broken live file misspells an
// object's apiVersion or kind, which the API server never prints: case
// and surrounding whitespace. field is the field refused.
func spellings(apiVersion, kind string) []struct{ name, field, apiVersion, kind string } {
	gv, _ := schema.ParseGroupVersion(apiVersion)
	out := []struct{ name, field, apiVersion, kind string }{
		{"kind lower case", "kind", apiVersion, strings.ToLower(kind)},
		{"kind upper case", "kind", apiVersion, strings.ToUpper(kind)},
		{"kind trailing space", "kind", apiVersion, kind + " "},
		{"kind leading space", "kind", apiVersion, " " + kind},
		{"kind trailing tab", "kind", apiVersion, kind + "\t"},
		{"kind trailing newline", "kind", apiVersion, kind + "\n"},
		{"apiVersion trailing space", "apiVersion", apiVersion + " ", kind},
		{"apiVersion leading space", "apiVersion", " " + apiVersion, kind},
		{"version upper case", "apiVersion", schema.GroupVersion{Group: gv.Group, Version: strings.ToUpper(gv.Version)}.String(), kind},
	}
	if gv.Group != "" {
		out = append(out,
			struct{ name, field, apiVersion, kind string }{"group upper case", "apiVersion", strings.ToUpper(gv.Group) + "/" + gv.Version, kind},
			struct{ name, field, apiVersion, kind string }{"group space before the slash", "apiVersion", gv.Group + " /" + gv.Version, kind},
			struct{ name, field, apiVersion, kind string }{"version space after the slash", "apiVersion", gv.Group + "/ " + gv.Version, kind},
		)
	}
	return out
}

// TestPlanRefusesMisspelledStackKinds: for every kind the stacks emit
// (and the KamajiControlPlane the plan reads), an object whose kind or
// apiVersion differs from the API server's spelling by case or by
// surrounding whitespace is refused, naming the field by its position,
// the object and the spelling it must have, by ReadObjects (YAML and
// JSON, List and documents), Compute and ForRequest: read as it is, it
// would match nothing, and the plan would create its twin over it.
func TestPlanRefusesMisspelledStackKinds(t *testing.T) {
	type kindAt struct{ apiVersion, kind string }
	kinds := []kindAt{{"controlplane.cluster.x-k8s.io/v1alpha1", "KamajiControlPlane"}}
	for _, sh := range etcdshapes.Shapes() {
		k := kindAt{sh.Kind.GroupVersion().String(), sh.Kind.Kind}
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	for _, k := range kinds {
		for _, v := range spellings(k.apiVersion, k.kind) {
			t.Run(k.kind+"/"+v.name, func(t *testing.T) {
				meta := map[string]any{"name": "kubernetes-demo-etcd", "namespace": "tenant-demo"}
				if k.kind == "DataStore" {
					delete(meta, "namespace")
				}
				bad := map[string]any{"apiVersion": v.apiVersion, "kind": v.kind, "metadata": meta}
				good := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a", "namespace": "tenant-demo"}}
				want := map[string]string{"kind": k.kind, "apiVersion": k.apiVersion}[v.field]
				check := func(what string, err error, field string) {
					t.Helper()
					var ne *invalid.Error
					require.True(t, errors.As(err, &ne), "%s: %v", what, err)
					require.Equal(t, field+"."+v.field, ne.Field, "%s: %v", what, err)
					require.Equal(t, map[string]string{"kind": v.kind, "apiVersion": v.apiVersion}[v.field], ne.Value, what)
					require.Contains(t, ne.Rule, fmt.Sprintf("must be %q", want), what)
					require.Contains(t, ne.Rule, "kubernetes-demo-etcd", what)
					require.Contains(t, ne.Rule, "as the API server prints it", what)
				}
				docs := map[string][]byte{}
				for _, format := range []string{"yaml", "json"} {
					enc := func(v any) []byte {
						if format == "json" {
							b, err := json.Marshal(v)
							require.NoError(t, err)
							return b
						}
						b, err := yaml.Marshal(v)
						require.NoError(t, err)
						return b
					}
					docs[format+" List"] = enc(map[string]any{"apiVersion": "v1", "kind": "List", "items": []any{good, bad}})
					docs[format+" documents"] = append(append(enc(good), "\n---\n"...), enc(bad)...)
				}
				for _, what := range []string{"yaml List", "yaml documents", "json List", "json documents"} {
					_, err := plan.ReadObjects(docs[what])
					field := "live[1]"
					if strings.HasSuffix(what, "List") {
						field = "live[0].items[1]"
					}
					check("ReadObjects "+what, err, field)
				}
				objs := []etcdshapes.Object{&unstructured.Unstructured{Object: good}, &unstructured.Unstructured{Object: bad}}
				_, err := plan.Compute(objs, nil)
				check("Compute", err, "live[1]")
				_, _, err = plan.ForRequest(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"}, objs)
				check("ForRequest", err, "live[1]")
				_, err = plan.LiveStateFromObjects("tenant-demo", "kubernetes-demo", objs)
				check("LiveStateFromObjects", err, "live[1]")
				_, err = plan.Compute(nil, objs)
				check("Compute desired", err, "desired[1]")
			})
		}
	}
}

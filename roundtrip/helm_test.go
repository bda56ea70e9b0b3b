package roundtrip

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/values"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/kamaji"
	"helm.sh/helm/v3/pkg/chart"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"sigs.k8s.io/yaml"
)

// chartVersion is the version every golden scenario renders with.
const chartVersion = "0.0.0"

// liveClient serves the live objects the per-cluster chart looks up.
type liveClient struct{ client dynamic.Interface }

var (
	kcpGVR = kamaji.ControlPlaneKind.GroupVersion().WithResource("kamajicontrolplanes")
	ecGVR  = schema.GroupVersionResource{Group: "etcd-operator.cozystack.io", Version: "v1alpha2", Resource: "etcdclusters"}
)

func newLiveClient(namespace, release string, live etcdshapes.LiveState) liveClient {
	var objs []runtime.Object
	if live.DataStoreName != "" {
		objs = append(objs, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": kamaji.ControlPlaneKind.GroupVersion().String(), "kind": kamaji.ControlPlaneKind.Kind,
			"metadata": map[string]any{"name": release, "namespace": namespace},
			"spec":     map[string]any{"dataStoreName": live.DataStoreName},
		}})
	}
	if live.StorageClassName != nil {
		objs = append(objs, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "etcd-operator.cozystack.io/v1alpha2", "kind": "EtcdCluster",
			"metadata": map[string]any{"name": release + "-etcd", "namespace": namespace},
			"spec":     map[string]any{"storage": map[string]any{"storageClassName": *live.StorageClassName}},
		}})
	}
	listKinds := map[schema.GroupVersionResource]string{kcpGVR: "KamajiControlPlaneList", ecGVR: "EtcdClusterList"}
	return liveClient{dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), listKinds, objs...)}
}

func (l liveClient) GetClientFor(apiVersion, kind string) (dynamic.NamespaceableResourceInterface, bool, error) {
	switch apiVersion + "/" + kind {
	case kamaji.ControlPlaneKind.GroupVersion().String() + "/" + kamaji.ControlPlaneKind.Kind:
		return l.client.Resource(kcpGVR), true, nil
	case "etcd-operator.cozystack.io/v1alpha2/EtcdCluster":
		return l.client.Resource(ecGVR), true, nil
	}
	return nil, false, fmt.Errorf("the test cluster serves no %s %s", apiVersion, kind)
}

// renderInput is one `helm template`.
type renderInput struct {
	caller      naming.Caller
	release     string
	namespace   string
	values      []byte
	apiVersions []string
	live        etcdshapes.LiveState
}

// helmRender renders the caller's generated chart (with the library chart
// as `helm dependency build` fetches it) like `helm template` with -f
// values, --api-versions and a cluster holding the live state.
func helmRender(t testing.TB, h helm, in renderInput) (string, error) {
	t.Helper()
	out, err := h.render(appChart(t, h, in.caller), in.values, in)
	if err != nil {
		return "", err
	}
	return joinRendered(out), nil
}

// renderChart renders a Helm v3 chart like `helm template`.
func renderChart(c *chart.Chart, in renderInput) (string, error) {
	out, err := helm3{}.render(c, in.values, in)
	if err != nil {
		return "", err
	}
	return joinRendered(out), nil
}

// goRender is what the library renders for the same input.
func goRender(in renderInput) (string, error) {
	values, err := values.Merge(in.values)
	if err != nil {
		return "", err
	}
	objs, err := etcdshapes.Render(etcdshapes.Request{
		Caller: in.caller, Namespace: in.namespace, Release: in.release, ChartVersion: chartVersion,
		Values: values, APIVersions: in.apiVersions, Live: in.live,
	})
	if err != nil {
		return "", err
	}
	out, err := etcdshapes.Marshal(objs)
	return string(out), err
}

// --- comparison, after the canonicalisation ../shared/tools/kcanon applies.

var docSep = regexp.MustCompile(`(?m)^---\s*$`)

// clusterScoped lists kinds that carry no metadata.namespace.
var clusterScoped = map[string]bool{"DataStore": true}

// quantityParents are keys whose values are resource quantities.
var quantityParents = map[string]bool{"requests": true, "limits": true, "minAllowed": true, "maxAllowed": true}

type object struct {
	key string
	val map[string]any
}

// normalizeMeta drops the status and a null creationTimestamp and gives a
// namespaced object without a namespace ns; it returns the metadata and
// the kind.
func normalizeMeta(m map[string]any, ns string) (map[string]any, string) {
	delete(m, "status")
	md, _ := m["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		m["metadata"] = md
	}
	if v, ok := md["creationTimestamp"]; ok && v == nil {
		delete(md, "creationTimestamp")
	}
	kind, _ := m["kind"].(string)
	if _, ok := md["namespace"]; !ok && !clusterScoped[kind] {
		md["namespace"] = ns
	}
	return md, kind
}

// canon parses multi-document YAML into objects keyed by
// "apiVersion kind namespace/name", sorted.
func canon(doc, ns string) ([]object, error) {
	var out []object
	for _, d := range docSep.Split(doc, -1) {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(d), &m); err != nil {
			return nil, fmt.Errorf("%w in:\n%s", err, d)
		}
		if m == nil {
			continue
		}
		md, kind := normalizeMeta(m, ns)
		walk(m, "")
		prune(m)
		out = append(out, object{fmt.Sprintf("%v %v %v/%v", m["apiVersion"], kind, md["namespace"], md["name"]), m})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out, nil
}

func walk(v any, parent string) {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			if quantityParents[parent] || (parent == "storage" && k == "size") {
				t[k] = canonQuantity(c)
				continue
			}
			walk(c, k)
		}
	case []any:
		for _, c := range t {
			walk(c, parent)
		}
	}
}

// canonQuantity is the quantity as the API server stores it.
func canonQuantity(v any) any {
	var s string
	switch t := v.(type) {
	case string:
		s = t
	case float64:
		s = string(json.Number(fmt.Sprint(t)))
	case json.Number: // oracleCanon: the JSON text, as the API server parses it
		s = string(t)
	default:
		return v
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return "UNPARSEABLE:" + s
	}
	return q.String()
}

func prune(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			if c == nil {
				delete(t, k)
				continue
			}
			prune(c)
		}
	case []any:
		for _, c := range t {
			prune(c)
		}
	}
}

// diffObjects lists every difference between two renders, empty when they
// hold the same objects field for field.
func diffObjects(want, got []object) []string {
	w := map[string]map[string]any{}
	g := map[string]map[string]any{}
	keys := map[string]bool{}
	for _, o := range want {
		w[o.key] = o.val
		keys[o.key] = true
	}
	for _, o := range got {
		g[o.key] = o.val
		keys[o.key] = true
	}
	var sorted []string
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var out []string
	if len(want) != len(w) || len(got) != len(g) {
		out = append(out, fmt.Sprintf("duplicate objects: want %d (%d distinct), got %d (%d distinct)", len(want), len(w), len(got), len(g)))
	}
	for _, k := range sorted {
		wv, inW := w[k]
		gv, inG := g[k]
		switch {
		case !inG:
			out = append(out, "MISSING "+k)
		case !inW:
			out = append(out, "EXTRA   "+k)
		default:
			var paths []string
			fieldDiff("", wv, gv, &paths)
			for _, p := range paths {
				out = append(out, "DIFFER  "+k+" "+p)
			}
		}
	}
	return out
}

func fieldDiff(path string, a, b any, out *[]string) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		var ks []string
		for k := range keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			fieldDiff(path+"."+k, am[k], bm[k], out)
		}
		return
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok && len(al) == len(bl) {
		for i := range al {
			fieldDiff(fmt.Sprintf("%s[%d]", path, i), al[i], bl[i], out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		aj, _ := json.Marshal(a)
		bj, _ := json.Marshal(b)
		*out = append(*out, fmt.Sprintf("%s: want %s got %s", path, trunc(aj), trunc(bj)))
	}
}

func trunc(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// compareRenders renders in with Helm and with the library and reports
// whether both refuse or both render the same objects. It returns the
// number of objects compared.
func compareRenders(t *testing.T, h helm, in renderInput) int {
	t.Helper()
	want, goErr := goRender(in)
	got, helmErr := helmRender(t, h, in)
	switch {
	case goErr != nil && helmErr != nil:
		checkSameRefusal(t, goErr, helmErr)
		return 0
	case goErr != nil:
		t.Fatalf("the library refuses (%v) but the chart renders", goErr)
	case helmErr != nil:
		t.Fatalf("the chart refuses but the library renders: %v", helmErr)
	}
	return compareDocs(t, want, got, in.namespace)
}

func compareDocs(t *testing.T, want, got, ns string) int {
	t.Helper()
	w, err := canon(want, ns)
	if err != nil {
		t.Fatalf("library output: %v", err)
	}
	g, err := canon(got, ns)
	if err != nil {
		t.Fatalf("chart output: %v\n%s", err, got)
	}
	if d := diffObjects(w, g); len(d) > 0 {
		t.Fatalf("the chart's objects differ from the library's:\n  %s", strings.Join(d, "\n  "))
	}
	return len(w)
}

// spelledQuantities are rules whose library message spells quantities the
// way resource.Quantity prints them ("1428571429n", "1"); the templates
// spell them as written or as the float64 they computed ("1.4285714285714286",
// "1000m"). For these the field and the rule up to the first quantity must
// match.
var spelledQuantities = []struct{ rule, upTo string }{
	{"must be at least 1 here: the ", " request "},
	{"an extended resource must be a whole number", "number"},
	{"must be a whole multiple of the page size ", "page size "},
}

// schemaPath is the JSON pointer values.schema.json errors name for a
// library field: "values.resources.cpu" is "/resources/cpu".
func schemaPath(field string) string {
	return "/" + strings.ReplaceAll(strings.TrimPrefix(field, "values."), ".", "/")
}

// schemaRefuses reports whether err is Helm's refusal by
// values.schema.json of the value at field (or inside it): an error at a
// JSON pointer whose keys, unescaped, are the field's ("/resources/
// example.com~1device" is values.resources.example.com/device).
func schemaRefuses(err error, field string) bool {
	msg := err.Error()
	if !strings.Contains(msg, "values don't meet the specifications of the schema") {
		return false
	}
	f := strings.TrimPrefix(field, "values.")
	for _, m := range schemaAt.FindAllStringSubmatch(msg, -1) {
		keys := strings.Split(strings.TrimPrefix(m[1], "/"), "/")
		for i, k := range keys {
			keys[i] = strings.ReplaceAll(strings.ReplaceAll(k, "~1", "/"), "~0", "~")
		}
		if at := strings.Join(keys, "."); at == f || strings.HasPrefix(at, f+".") {
			return true
		}
	}
	return false
}

// schemaAt is where a schema error of Helm's is: "at '/replicas'".
var schemaAt = regexp.MustCompile(`at '(/[^']*)'`)

// checkSameRefusal requires the chart's error to carry the text of the
// library's first invalid.Error (the chart stops at its first failure), or,
// for a value of the wrong type, a schema error at its field.
func checkSameRefusal(t *testing.T, goErr, helmErr error) {
	t.Helper()
	msg := firstMessage(goErr)
	if strings.Contains(helmErr.Error(), msg) {
		return
	}
	var ne *invalid.Error
	if !asNamingError(goErr, &ne) {
		t.Fatalf("the library refuses with %v (not a invalid.Error); the chart with %v", goErr, helmErr)
	}
	// values.schema.json states every rule of a single value it can (a
	// type, a pattern, a range, a length, a choice): Helm refuses such a
	// value before any template runs, in the schema's words, at the same
	// field.
	if schemaRefuses(helmErr, ne.Field) {
		return
	}
	// A YAML number: Helm holds a float64, and the chart quotes it as
	// that ("0" for 1e-400, "1e+21" for 1e21), the library as the file
	// spells it. The field and the rule must be the same.
	if _, isNumber := ne.Value.(json.Number); isNumber &&
		strings.Contains(helmErr.Error(), ne.Field+": invalid value ") && strings.HasSuffix(helmMessage(helmErr), ": "+ne.Rule) {
		return
	}
	for _, sq := range spelledQuantities {
		if i := strings.Index(ne.Rule, sq.rule); i >= 0 {
			j := strings.Index(ne.Rule, sq.upTo)
			if strings.Contains(helmErr.Error(), ne.Field+": invalid value ") && strings.Contains(helmErr.Error(), ne.Rule[:j+len(sq.upTo)]) {
				return
			}
		}
	}
	t.Fatalf("refusals differ:\n  library: %s\n  chart:   %s", msg, helmErr)
}

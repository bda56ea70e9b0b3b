package etcdshapes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// MergeValues parses values documents (YAML or JSON) and merges them in
// order the way `helm -f a -f b` does: maps merge key by key, anything else
// in a later document replaces what came before, and a null is kept so that
// it can delete a chart default.
func MergeValues(docs ...[]byte) (map[string]any, error) {
	out := map[string]any{}
	for i, doc := range docs {
		var m map[string]any
		if err := yaml.Unmarshal(doc, &m); err != nil {
			return nil, naming.Errorf(fmt.Sprintf("values[%d]", i), firstLine(doc), "must be a YAML map of values: %v", err)
		}
		mergeInto(out, m)
	}
	return out, nil
}

func firstLine(b []byte) string {
	s := string(bytes.TrimSpace(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) > 80 {
		s = s[:80] + " …"
	}
	return s
}

func mergeInto(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeInto(dm, sm)
				continue
			}
			c := map[string]any{}
			mergeInto(c, sm)
			dst[k] = c
			continue
		}
		dst[k] = v
	}
}

// coalesce lays user values over chart defaults as Helm does: a null in the
// user values deletes the default.
func coalesce(defaults, user map[string]any) map[string]any {
	out := map[string]any{}
	mergeInto(out, defaults)
	var walk func(dst, src map[string]any)
	walk = func(dst, src map[string]any) {
		for k, v := range src {
			if v == nil {
				delete(dst, k)
				continue
			}
			if sm, ok := v.(map[string]any); ok {
				if dm, ok := dst[k].(map[string]any); ok {
					walk(dm, sm)
					continue
				}
				c := map[string]any{}
				walk(c, sm)
				dst[k] = c
				continue
			}
			dst[k] = v
		}
	}
	walk(out, user)
	return out
}

// etcdChartDefaults is the etcd chart's values.yaml.
func etcdChartDefaults() map[string]any {
	return map[string]any{
		"version":      etcd.DefaultVersion,
		"replicas":     float64(etcd.DefaultReplicas),
		"size":         etcd.DefaultSize,
		"storageClass": "",
		"resources":    map[string]any{"cpu": etcd.DefaultCPU, "memory": etcd.DefaultMemory},
		"affinity":     map[string]any{},
	}
}

// The keys the charts' values accept where unknown keys are refused, sorted.
var (
	etcdChartKeys   = []string{"_cluster", "affinity", "replicas", "resources", "size", "storageClass", "version"}
	clusterEtcdKeys = []string{"replicas"}
)

// EtcdChartValueKeys lists the top-level keys of the etcd chart's values,
// sorted; EtcdChartOptionsFromValues refuses any other.
func EtcdChartValueKeys() []string { return slices.Clone(etcdChartKeys) }

// ClusterEtcdValueKeys lists the keys under the kubernetes chart's etcd:,
// sorted; ClusterOptionsFromValues refuses any other there.
func ClusterEtcdValueKeys() []string { return slices.Clone(clusterEtcdKeys) }

// EtcdChartOptionsFromValues reads the etcd chart's values (merged with
// MergeValues) into options. Unknown keys are refused: a typo must not fall
// back to a default. Unknown keys under _cluster are ignored; the platform
// passes many.
func EtcdChartOptionsFromValues(namespace, release, chartVersion string, values map[string]any) (EtcdChartOptions, error) {
	o := EtcdChartOptions{Namespace: namespace, Release: release, ChartVersion: chartVersion}
	if err := refuseUnknown("", values, etcdChartKeys); err != nil {
		return o, err
	}
	for _, n := range nullRules {
		if x, ok := values[n.key]; ok && x == nil {
			return o, naming.Errorf("values."+n.key, nil, "%s", n.rule)
		}
	}
	v := coalesce(etcdChartDefaults(), values)
	var err error
	e := &o.Etcd
	if e.Version, err = optString("values.version", v["version"]); err != nil {
		return o, err
	}
	if e.Version != "" {
		// Checked here as well as in the builder so the field is named as
		// the user wrote it even when the value is not a string.
		if err := etcd.ValidateVersion(e.Version); err != nil {
			return o, err
		}
	}
	if e.Replicas, err = optInt32("values.replicas", v["replicas"]); err != nil {
		return o, err
	}
	if _, ok := v["replicas"]; ok && e.Replicas < 1 {
		return o, naming.Errorf("values.replicas", v["replicas"], "must be at least 1")
	}
	if err := schemaWhole("values.size", v["size"]); err != nil {
		return o, err
	}
	if e.Size, err = optQuantity("values.size", v["size"]); err != nil {
		return o, err
	}
	if _, ok := v["size"]; ok && e.Size.Sign() <= 0 {
		return o, naming.Errorf("values.size", v["size"], "must be a positive quantity of bytes")
	}
	if e.StorageClassName, err = optString("values.storageClass", v["storageClass"]); err != nil {
		return o, err
	}
	if e.Resources, err = resourceMap("values.resources", v["resources"]); err != nil {
		return o, err
	}
	if e.Affinity, err = affinityValue("values.affinity", v["affinity"]); err != nil {
		return o, err
	}
	if err := refuseNullRatios(values["_cluster"]); err != nil {
		return o, err
	}
	pl, err := platformValues(v["_cluster"])
	if err != nil {
		return o, err
	}
	e.Ratios = pl.ratios
	e.TopologySpreadConstraints = pl.spread
	return o, nil
}

// ClusterOptionsFromValues reads the kubernetes chart's values into options
// for its etcd. Only etcd.replicas and _cluster are read; unknown keys under
// etcd are refused, other keys are ignored (the chart has many).
func ClusterOptionsFromValues(namespace, release, chartVersion string, values map[string]any) (ClusterOptions, error) {
	o := ClusterOptions{Namespace: namespace, Release: release, ChartVersion: chartVersion}
	v := coalesce(map[string]any{"etcd": map[string]any{"replicas": float64(etcd.DefaultReplicas)}}, values)
	etcdValues, ok := v["etcd"].(map[string]any)
	if !ok && v["etcd"] != nil {
		return o, naming.Errorf("etcd", v["etcd"], "must be a map")
	}
	if err := refuseUnknown("etcd.", etcdValues, clusterEtcdKeys); err != nil {
		return o, err
	}
	var err error
	if o.Replicas, err = optInt32("etcd.replicas", etcdValues["replicas"]); err != nil {
		return o, err
	}
	if _, ok := etcdValues["replicas"]; ok && o.Replicas != 1 && o.Replicas != 3 {
		return o, naming.Errorf("etcd.replicas", etcdValues["replicas"], "must be 1 or 3")
	}
	if err := refuseNullRatios(values["_cluster"]); err != nil {
		return o, err
	}
	pl, err := platformValues(v["_cluster"])
	if err != nil {
		return o, err
	}
	o.Ratios = pl.ratios
	o.TopologySpreadConstraints = pl.spread
	o.StorageClassLocal = pl.storageClassLocal
	o.StorageClassReplicated = pl.storageClassReplicated
	return o, nil
}

// nullRules are the etcd chart's values a null cannot clear: Helm deletes
// the chart's default for a null, and the chart then renders without it.
var nullRules = []struct{ key, rule string }{
	{"version", "must not be null: Helm deletes the chart's default for a null, and the chart renders an empty version"},
	{"replicas", "must not be null: Helm deletes the chart's default for a null, and the chart renders no replica count (its WorkloadMonitor expects 1 member, its cleanup deletes only data-etcd-0)"},
	{"size", "must not be null: Helm deletes the chart's default for a null, and the chart cannot compute the quota"},
}

// refuseNullRatios refuses a null allocation ratio: the chart reads it as 0
// and divides by it. (Other null platform values read as absent there too.)
func refuseNullRatios(raw any) error {
	c, _ := raw.(map[string]any)
	for _, k := range []string{"cpu-allocation-ratio", "memory-allocation-ratio", "ephemeral-storage-allocation-ratio"} {
		if x, ok := c[k]; ok && x == nil {
			return naming.Errorf("_cluster."+k, nil, "must not be null: the chart reads a null ratio as 0 and divides by it")
		}
	}
	return nil
}

type platform struct {
	ratios                 etcd.Ratios
	spread                 []corev1.TopologySpreadConstraint
	storageClassLocal      string
	storageClassReplicated string
}

func platformValues(raw any) (platform, error) {
	var p platform
	if raw == nil {
		return p, nil
	}
	c, ok := raw.(map[string]any)
	if !ok {
		return p, naming.Errorf("_cluster", raw, "must be a map")
	}
	var err error
	if p.ratios.CPU, err = ratioValue("_cluster.cpu-allocation-ratio", c["cpu-allocation-ratio"]); err != nil {
		return p, err
	}
	if p.ratios.Memory, err = ratioValue("_cluster.memory-allocation-ratio", c["memory-allocation-ratio"]); err != nil {
		return p, err
	}
	if p.ratios.EphemeralStorage, err = ratioValue("_cluster.ephemeral-storage-allocation-ratio", c["ephemeral-storage-allocation-ratio"]); err != nil {
		return p, err
	}
	if err := p.ratios.Validate(); err != nil {
		return p, err
	}
	if p.storageClassLocal, err = optString("_cluster.etcd-storage-class-local", c["etcd-storage-class-local"]); err != nil {
		return p, err
	}
	if p.storageClassReplicated, err = optString("_cluster.etcd-storage-class-replicated", c["etcd-storage-class-replicated"]); err != nil {
		return p, err
	}
	if sched, ok := c["scheduling"]; ok && sched != nil {
		sm, ok := sched.(map[string]any)
		if !ok {
			return p, naming.Errorf("_cluster.scheduling", sched, "must be a map")
		}
		if p.spread, err = ParseSpreadConstraints(sm["globalAppTopologySpreadConstraints"]); err != nil {
			return p, err
		}
	}
	return p, nil
}

const spreadField = "_cluster.scheduling.globalAppTopologySpreadConstraints"

// ParseSpreadConstraints reads the platform's global spread constraints: a
// YAML string holding a "topologySpreadConstraints:" list. nil or "" means
// none. Unknown fields are refused.
func ParseSpreadConstraints(raw any) ([]corev1.TopologySpreadConstraint, error) {
	if raw == nil {
		return nil, nil
	}
	s, ok := raw.(string)
	if !ok {
		return nil, naming.Errorf(spreadField, raw, "must be a YAML string holding a topologySpreadConstraints: list")
	}
	if s == "" {
		// Only the empty string means none: the chart renders anything
		// else as constraints (whitespace alone as broken YAML).
		return nil, nil
	}
	var holder struct {
		TopologySpreadConstraints *[]corev1.TopologySpreadConstraint `json:"topologySpreadConstraints"`
	}
	js, err := yaml.YAMLToJSONStrict([]byte(s))
	if err == nil {
		err = strictJSON(js, &holder)
	}
	if err != nil {
		return nil, naming.Errorf(spreadField, s, "must be a YAML string holding a topologySpreadConstraints: list of constraints: %v", err)
	}
	if holder.TopologySpreadConstraints == nil || len(*holder.TopologySpreadConstraints) == 0 {
		return nil, naming.Errorf(spreadField, s, "must hold a non-empty topologySpreadConstraints: list")
	}
	list := *holder.TopologySpreadConstraints
	if err := etcd.ValidateSpreadConstraints(list); err != nil {
		return nil, err
	}
	return list, nil
}

func refuseUnknown(prefix string, m map[string]any, known []string) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		i := sort.SearchStrings(known, k)
		if i == len(known) || known[i] != k {
			f := prefix + k
			if k == "" {
				f = prefix + `""` // an empty key still names a field
			}
			return naming.Errorf(f, m[k], "is not a value of this chart (known: %s)", strings.Join(known, ", "))
		}
	}
	return nil
}

func optString(field string, v any) (string, error) {
	switch t := v.(type) {
	case nil:
		return "", nil
	case string:
		return t, nil
	default:
		return "", naming.Errorf(field, v, "must be a string")
	}
}

func optInt32(field string, v any) (int32, error) {
	switch t := v.(type) {
	case nil:
		return 0, nil
	case float64:
		if t != float64(int32(t)) {
			return 0, naming.Errorf(field, v, "must be a whole number")
		}
		return int32(t), nil
	case int64:
		if t != int64(int32(t)) {
			return 0, naming.Errorf(field, v, "must be a whole number that fits 32 bits")
		}
		return int32(t), nil
	default:
		return 0, naming.Errorf(field, v, "must be a number")
	}
}

func scalarString(field string, v any) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), nil
	case int64:
		return strconv.FormatInt(t, 10), nil
	default:
		return "", naming.Errorf(field, v, "must be a quantity (a string such as \"4Gi\" or a number)")
	}
}

func optQuantity(field string, v any) (resource.Quantity, error) {
	if v == nil {
		return resource.Quantity{}, nil
	}
	s, err := scalarString(field, v)
	if err != nil {
		return resource.Quantity{}, err
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return resource.Quantity{}, naming.Errorf(field, v, "must be a Kubernetes quantity such as 4Gi, 10G or 500000000")
	}
	return q, nil
}

func ratioValue(field string, v any) (string, error) {
	switch t := v.(type) {
	case nil:
		return "", nil
	case string:
		if t == "" {
			return "", naming.Errorf(field, v, "must be a number above 0")
		}
		return t, nil
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), nil
	default:
		return "", naming.Errorf(field, v, "must be a number above 0")
	}
}

// resourceMap reads the flat resources map; a nested requests/limits map is
// refused, as the chart's sanitiser refuses it.
func resourceMap(field string, v any) (corev1.ResourceList, error) {
	if v == nil {
		return corev1.ResourceList{}, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, naming.Errorf(field, v, "must be a flat map of resource names to quantities")
	}
	if _, ok := m["limits"]; ok {
		return nil, naming.Errorf(field+".limits", m["limits"], "a flat map of resources is expected, not nested requests: or limits: sections")
	}
	if _, ok := m["requests"]; ok {
		return nil, naming.Errorf(field+".requests", m["requests"], "a flat map of resources is expected, not nested requests: or limits: sections")
	}
	out := corev1.ResourceList{}
	// In sorted order, so that of several bad resources the same one is
	// named every time (and the one the chart's helpers name).
	for _, k := range slices.Sorted(maps.Keys(m)) {
		raw := m[k]
		f := field + "." + k
		if _, nested := raw.(map[string]any); nested {
			return nil, naming.Errorf(f, raw, "a flat map of resources is expected, not a nested map")
		}
		if errs := validation.IsQualifiedName(k); len(errs) > 0 {
			return nil, naming.Errorf(f, k, "must be a resource name: %s", strings.Join(errs, "; "))
		}
		if k == "cpu" || k == "memory" {
			if err := schemaWhole(f, raw); err != nil {
				return nil, err
			}
		}
		if n, ok := raw.(float64); ok && chartSpelled[k] {
			// The chart's sanitiser prints these limits with toString,
			// Go's %v: a YAML number 1073741824 becomes "1.073741824e+09",
			// and the API server stores that spelling (a spelling of the
			// same amount that parses to another canonical form, such as
			// "1073741824", is another stored quantity: it rolls members).
			raw = fmt.Sprint(n)
		}
		q, err := optQuantity(f, raw)
		if err != nil {
			return nil, err
		}
		if q.Sign() < 0 {
			return nil, naming.Errorf(f, raw, "must not be negative")
		}
		out[corev1.ResourceName(k)] = q
	}
	return out, nil
}

// chartSpelled are the resources whose limits the chart's sanitiser prints
// with toString; it passes the others through as they are.
var chartSpelled = map[string]bool{"cpu": true, "memory": true, "ephemeral-storage": true}

// schemaWhole refuses a fractional YAML number where the etcd chart's
// values.schema.json allows only an integer or a string (values.size and
// the cpu and memory resources), as Helm refuses such values.
func schemaWhole(field string, v any) error {
	if n, ok := v.(float64); ok && n != math.Trunc(n) {
		return naming.Errorf(field, v, "must be a whole number or a quantity string such as \"1.5\" (the chart's values.schema.json allows an integer or a string here)")
	}
	return nil
}

func affinityValue(field string, v any) (*corev1.Affinity, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, naming.Errorf(field, v, "must be a map (a pod affinity)")
	}
	if len(m) == 0 {
		return nil, nil
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, naming.Errorf(field, v, "must be a pod affinity: %v", err)
	}
	var a corev1.Affinity
	if err := strictJSON(raw, &a); err != nil {
		return nil, naming.Errorf(field, string(raw), "must be a pod affinity: %v", err)
	}
	return &a, nil
}

// strictJSON decodes as the API server's strict field validation does:
// field names match case-sensitively, and unknown or duplicate fields are
// errors (encoding/json would take "maxskew" for maxSkew).
func strictJSON(raw []byte, v any) error {
	strict, err := kjson.UnmarshalStrict(raw, v, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	if err != nil {
		return err
	}
	if len(strict) > 0 {
		return strict[0]
	}
	return nil
}

package values

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/etcdshapes/etcdshapes/invalid"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/internal/jsontree"
	"github.com/etcdshapes/etcdshapes/internal/numpath"
	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/etcdshapes/etcdshapes/internal/yamljson"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	kjson "sigs.k8s.io/json"
)

// Merge parses values documents (YAML or JSON) and merges them in
// order the way `helm -f a -f b` does: maps merge key by key, anything else
// in a later document replaces what came before, and a null is kept so that
// it can delete a chart default.
//
// Scalars are read as Helm reads them (YAML 1.1, through JSON). Numbers
// come back as json.Number spelled as the document spells them ("1e21",
// "2147483648"), so that a refusal quotes the input as written; the
// options readers accept json.Number and every Go number kind alike. A
// document over MaxBytes, or whose first YAML document (the only one read,
// as Helm reads a values file; what follows it is never scanned) has more
// than MaxNodes YAML nodes (counted before it is parsed, and once expanded
// where aliases repeat a node), is refused before it is parsed.
//
// Keys are read as Helm reads them too: a key given twice in one map (at
// any depth, in flow style, in JSON, through a << merge key) is the later
// one, and only a document's first YAML document is read. Two keys of one
// map that are one JSON key (1 and "1", true and "true"), of which Helm
// keeps either by chance, are refused. Keys of different case are
// different keys.
func Merge(docs ...[]byte) (map[string]any, error) {
	out := map[string]any{}
	// Every document is read, so that each bad one is reported.
	var c invalid.Collector
	for i, doc := range docs {
		field := fmt.Sprintf("values[%d]", i)
		// Only the first YAML document is read, as Helm reads a values
		// file; the limits bound it, and what follows is never scanned.
		first, err := inputlimit.Values.CheckFirstYAML(doc)
		if err != nil {
			c.Addf(field, inputlimit.FirstLine(doc), "%v", err)
			continue
		}
		m, err := decodeValues(first)
		if err != nil {
			var ke *yamljson.KeyError
			if errors.As(err, &ke) {
				c.Add(keyCollision(field, ke))
				continue
			}
			c.Addf(field, inputlimit.FirstLine(doc), "must be a YAML map of values: %v", err)
			continue
		}
		mergeInto(out, m, false)
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// keyCollision is the refusal of two keys of one map of the values
// document field that are one JSON key (1 and "1"): Helm keeps either.
func keyCollision(field string, ke *yamljson.KeyError) error {
	where := ke.Where()
	if where != "" {
		where = " (" + where + ")"
	}
	return invalid.Errorf(ke.Field(field), ke.Key, "is two keys of one map that are one JSON key%s, as 1 and \"1\" are: Helm keeps either, by chance, so the render would change from run to run", where)
}

// mergeInto lays src over dst, map into map at every depth; the maps of
// src are copied, never shared. Where nullDeletes is set, a null in src
// deletes its key instead, as Helm's coalescing of user values does.
func mergeInto(dst, src map[string]any, nullDeletes bool) {
	for k, v := range src {
		if v == nil && nullDeletes {
			delete(dst, k)
			continue
		}
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeInto(dm, sm, nullDeletes)
				continue
			}
			c := map[string]any{}
			mergeInto(c, sm, nullDeletes)
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
	mergeInto(out, defaults, false)
	mergeInto(out, user, true)
	return out
}

// etcdChartDefaults is the etcd chart's values.yaml.
func etcdChartDefaults() map[string]any {
	return map[string]any{
		"version":      etcd.DefaultVersion,
		"replicas":     json.Number(strconv.Itoa(int(etcd.DefaultReplicas))),
		"size":         etcd.DefaultSize,
		"storageClass": "",
		"resources":    map[string]any{"cpu": etcd.DefaultCPU, "memory": etcd.DefaultMemory},
		"affinity":     map[string]any{},
	}
}

// The keys the charts' values accept where unknown keys are refused, sorted.
var (
	etcdChartKeys   = []string{"_cluster", "affinity", "auth", "replicas", "resources", "size", "storageClass", "version"}
	clusterEtcdKeys = []string{"auth", "replicas"}
	// authKeys are the keys of auth (the etcd chart) and etcd.auth (the
	// kubernetes chart).
	authKeys = []string{"enabled", "rootCredentialsSecret"}
	// etcdChartIgnoredKeys are top-level keys the etcd chart accepts with
	// any content and does not read: the platform's _namespace map (passed
	// to every application) and the backup map older chart versions had
	// (upstream's backup-values-compat test pins that it is accepted, or
	// every tenant upgraded with it would fail).
	etcdChartIgnoredKeys = []string{"_namespace", "backup"}
)

// EtcdChartKeys lists the top-level keys of the etcd chart's values that
// it reads, sorted. EtcdChart refuses any key that is neither here nor in
// EtcdChartIgnoredKeys.
func EtcdChartKeys() []string { return slices.Clone(etcdChartKeys) }

// EtcdChartIgnoredKeys lists the top-level keys of the etcd chart's
// values that are accepted with any content and not read, sorted:
// "_namespace" (the platform passes it to every application) and "backup"
// (left over from older chart versions).
func EtcdChartIgnoredKeys() []string { return slices.Clone(etcdChartIgnoredKeys) }

// ClusterEtcdKeys lists the keys under the kubernetes chart's etcd:,
// sorted; Cluster refuses any other there.
func ClusterEtcdKeys() []string { return slices.Clone(clusterEtcdKeys) }

// AuthKeys lists the keys of the auth map (auth in the etcd chart,
// etcd.auth in the kubernetes chart), sorted; any other is refused.
func AuthKeys() []string { return slices.Clone(authKeys) }

// valuesMap normalises a caller's values (see normalizeValues) into a fresh map.
// Values built in Go may be any graph: one that contains itself, nests
// deeper than jsontree.MaxDepth or holds more than jsontree.MaxNodes
// values is refused before anything walks it (every reader recurses), as
// an *invalid.Error naming the place ("affinity.a"); the values are then
// read as empty. The readers pass it their readView, so that what they
// ignore (_namespace, ...) is never walked nor refused.
func valuesMap(values map[string]any) (map[string]any, error) {
	if values == nil {
		return map[string]any{}, nil
	}
	if err := jsontree.Check("", values); err != nil {
		return map[string]any{}, err
	}
	return normalizeValues(values).(map[string]any), nil
}

// ReadEtcdChart reads the etcd chart's values (merged with Merge, or built in
// Go with any number types) into the etcd's options. Unknown
// keys are refused: a typo must not fall back to a default. Unknown keys
// under _cluster, and the top-level _namespace and backup, are ignored;
// the platform passes them.
//
// Every bad key is reported (see invalid.List), in the order the chart's
// checks meet them; a key whose value was refused is not checked further.
//
// It returns what it read beside its refusals, so that a caller can check
// the stack's other inputs too (Render does): a value it refuses is left at
// its zero (the builder's default), so that the builder, which validates
// the rest under EtcdChartPaths, refuses no field a second time.
func ReadEtcdChart(values map[string]any) (etcd.Options, error) {
	var o etcd.Options
	paths := EtcdChartPaths().Etcd
	var c invalid.Collector
	values, err := valuesMap(readView(values, etcdChartShape))
	if err != nil {
		return o, err
	}
	c.Add(refuseUnknown("", values, etcdChartKeys, etcdChartIgnoredKeys))
	// A null deletes a chart default (Helm's rule). For version and size
	// the chart then renders an EtcdCluster without a version (which the
	// CRD requires) or fails; for replicas it renders no replica count (its
	// WorkloadMonitor expecting 1 member, its cleanup deleting only
	// data-etcd-0). Refuse instead of quietly using the default.
	null := map[string]bool{}
	for _, k := range []string{"version", "replicas", "size"} {
		if raw, ok := values[k]; ok && raw == nil {
			null[k] = true
			c.Addf("values."+k, nil, "must be set: null would remove the chart's default %q, and the chart cannot render without it", etcdChartDefaults()[k])
		}
	}
	v := coalesce(etcdChartDefaults(), values)
	e := &o
	// Checked here as well as in the builder: an empty version is refused,
	// not defaulted (the chart would render version: ""), and the field is
	// named as the user wrote it.
	if e.Version, err = optString(paths.Version.String(), v["version"]); !c.Add(err) && !null["version"] {
		if c.Add(paths.ValidateVersion(e.Version)) {
			e.Version = ""
		}
	}
	if raw, ok := v["replicas"]; ok && raw != nil {
		n, err := wholeNumber(paths.Replicas.String(), raw, 1, int64(etcd.MaxReplicas), "(etcd advises at most 7 members)")
		if !c.Add(err) {
			e.Replicas = int32(n)
		}
	}
	// The size's checks build on each other: each runs only when the one
	// before passed.
	size := paths.Size.String()
	if !c.Add(schemaWhole(size, v["size"])) {
		if e.Size, err = optQuantity(size, v["size"]); !c.Add(err) {
			if raw, ok := v["size"]; ok {
				if err := paths.ValidateSize(e.Size); err != nil {
					c.Add(asWritten(err, size, nil, raw))
					e.Size = resource.Quantity{}
				}
			}
		}
	}
	e.StorageClassName, err = optString(paths.StorageClassName.String(), v["storageClass"])
	c.Add(err)
	e.Resources, err = resourceMap(paths, v["resources"])
	c.Add(err)
	e.Affinity, err = affinityValue(paths.Affinity.String(), v["affinity"])
	c.Add(err)
	e.Auth, err = authValue(etcdChartRoot.Child("auth").String(), v["auth"])
	c.Add(err)
	c.Add(refuseNullRatios(values["_cluster"]))
	pl, err := platformValues(v["_cluster"])
	c.Add(err)
	e.Ratios = pl.ratios
	e.TopologySpreadConstraints = pl.spread
	return o, c.Err()
}

// ClusterEtcd is what the kubernetes chart's values say about its etcd:
// etcd.replicas and the platform's _cluster settings.
type ClusterEtcd struct {
	// Replicas is etcd.replicas: 1 or 3; 0 when not given (the stack's
	// default, 3).
	Replicas int32
	// Ratios are _cluster's allocation ratios.
	Ratios etcd.Ratios
	// TopologySpreadConstraints are
	// _cluster.scheduling.globalAppTopologySpreadConstraints.
	TopologySpreadConstraints []corev1.TopologySpreadConstraint
	// StorageClassLocal is _cluster.etcd-storage-class-local, the storage
	// class of a 3-member etcd (each member keeps its own copy).
	StorageClassLocal string
	// StorageClassReplicated is _cluster.etcd-storage-class-replicated, the
	// storage class of a 1-member etcd (the volume itself is replicated).
	StorageClassReplicated string
	// Auth is etcd.auth: enabled and rootCredentialsSecret (see
	// etcd.Auth); off when not given.
	Auth etcd.Auth
}

// ReadCluster reads the kubernetes chart's values for its etcd. Only
// etcd.replicas, etcd.auth and _cluster are read; unknown keys under etcd
// are refused, other keys are ignored (the chart has many, and the
// platform passes _namespace). Every bad key is reported, as EtcdChart
// reports them.
//
// Beside its refusals it returns what it read, so that a caller can check
// the stack's other inputs too (Render does): a value it refuses (ratios
// refused together, etcd.Paths.ValidateRatios, included) is left at its
// zero, the stack's default, so that the stack, which validates under
// ClusterPaths, refuses no field a second time. A replica count not given
// is 0.
func ReadCluster(values map[string]any) (ClusterEtcd, error) {
	var o ClusterEtcd
	values, err := valuesMap(readView(values, clusterShape))
	if err != nil {
		return o, err
	}
	// Coalesced as Helm does, which deletes a null (etcd.size: null), but
	// over no default: a replica count not given is 0, the stack's
	// default (etcd.ReplicasOrDefault), not a second copy of it here.
	v := coalesce(map[string]any{}, values)
	replicas := ClusterPaths().Replicas.String()
	var c invalid.Collector
	etcdValues, ok := v["etcd"].(map[string]any)
	if !ok && v["etcd"] != nil {
		c.Addf("etcd", v["etcd"], "must be a map")
	}
	c.Add(refuseUnknown("etcd.", etcdValues, clusterEtcdKeys, nil))
	if raw, ok := etcdValues["replicas"]; ok && raw != nil {
		f, ok, err := valueNumber(replicas, raw)
		switch {
		case err != nil:
			c.Add(err)
		case !ok:
			c.Addf(replicas, raw, "must be a number")
		case f != 1 && f != 3:
			c.Addf(replicas, raw, "must be 1 or 3")
		default:
			o.Replicas = int32(f)
		}
	}
	o.Auth, err = authValue(clusterEtcdRoot.Child("auth").String(), etcdValues["auth"])
	c.Add(err)
	c.Add(refuseNullRatios(values["_cluster"]))
	pl, err := platformValues(v["_cluster"])
	c.Add(err)
	o.Ratios = pl.ratios
	o.TopologySpreadConstraints = pl.spread
	o.StorageClassLocal = pl.storageClassLocal
	o.StorageClassReplicated = pl.storageClassReplicated
	return o, c.Err()
}

// refuseNullRatios refuses a null allocation ratio: the chart reads it as 0
// and divides by it. (Other null platform values read as absent there too.)
func refuseNullRatios(raw any) error {
	c, _ := raw.(map[string]any)
	var errs invalid.Collector
	for _, k := range []string{"cpu-allocation-ratio", "memory-allocation-ratio", "ephemeral-storage-allocation-ratio"} {
		if x, ok := c[k]; ok && x == nil {
			errs.Addf(platformPath.Child(k).String(), nil, "must not be null: the chart reads a null ratio as 0 and divides by it")
		}
	}
	return errs.Err()
}

type platform struct {
	ratios                 etcd.Ratios
	spread                 []corev1.TopologySpreadConstraint
	storageClassLocal      string
	storageClassReplicated string
}

// platformValues reads _cluster: every bad key is reported; the ratios
// are checked together only when each was read.
func platformValues(raw any) (platform, error) {
	var p platform
	if raw == nil {
		return p, nil
	}
	c, ok := raw.(map[string]any)
	if !ok {
		return p, invalid.Errorf("_cluster", raw, "must be a map")
	}
	var errs invalid.Collector
	var err error
	p.ratios.CPU, err = ratioValue(ratioCPU.String(), c["cpu-allocation-ratio"])
	read := !errs.Add(err)
	p.ratios.Memory, err = ratioValue(ratioMemory.String(), c["memory-allocation-ratio"])
	read = !errs.Add(err) && read
	p.ratios.EphemeralStorage, err = ratioValue(ratioEphemeral.String(), c["ephemeral-storage-allocation-ratio"])
	read = !errs.Add(err) && read
	if read {
		// Checked together here, in the chart's order, and then left
		// at their defaults when refused, so that the builder refuses
		// them no second time. Refusals quote each ratio as written (a
		// number unquoted, as the file spells it), not as the string it
		// was read into.
		raw := map[string]any{ratioCPU.String(): c["cpu-allocation-ratio"], ratioMemory.String(): c["memory-allocation-ratio"], ratioEphemeral.String(): c["ephemeral-storage-allocation-ratio"]}
		if errs.AddEach(platformPaths(etcd.Paths{}).ValidateRatios(p.ratios), func(e *invalid.Error) *invalid.Error {
			if v, ok := raw[e.Field]; ok && v != nil {
				cp := *e
				cp.Value = v
				return &cp
			}
			return e
		}) {
			p.ratios = etcd.Ratios{}
		}
	}
	p.storageClassLocal, err = optString(storageLocal.String(), c["etcd-storage-class-local"])
	errs.Add(err)
	p.storageClassReplicated, err = optString(storageRepl.String(), c["etcd-storage-class-replicated"])
	errs.Add(err)
	if sched, ok := c["scheduling"]; ok && sched != nil {
		sm, ok := sched.(map[string]any)
		if !ok {
			errs.Addf(schedulingPath.String(), sched, "must be a map")
		} else {
			p.spread, err = ParseSpreadConstraints(sm["globalAppTopologySpreadConstraints"])
			errs.Add(err)
		}
	}
	return p, errs.Err()
}

// MaxSpreadConstraintsLength bounds the YAML string of the platform's
// global spread constraints, in bytes, checked before it is parsed (the
// charts parse it with fromYaml at every render). No consumer limits it
// below the 1 MiB of the Secret Helm keeps a release's values in; 32 KiB
// holds over 300 constraints of the common form (90 bytes: a skew, a zone
// key, a policy), where the API server's one constraint per topologyKey
// and whenUnsatisfiable leaves a real list a handful long.
const MaxSpreadConstraintsLength = 32 << 10

// SpreadLengthRule is the refusal of constraints longer than
// MaxSpreadConstraintsLength.
const SpreadLengthRule = "is longer than 32768 bytes (32 KiB), the most the global spread constraints take"

// ParseSpreadConstraints reads the platform's global spread constraints: a
// YAML string holding a "topologySpreadConstraints:" list. nil or "" means
// none. Unknown fields are refused.
func ParseSpreadConstraints(raw any) ([]corev1.TopologySpreadConstraint, error) {
	if raw == nil {
		return nil, nil
	}
	s, ok := raw.(string)
	if !ok {
		return nil, invalid.Errorf(spreadField, raw, "must be a YAML string holding a topologySpreadConstraints: list")
	}
	if s == "" {
		// Only the empty string means none: the chart renders anything
		// else as constraints (whitespace alone as broken YAML).
		return nil, nil
	}
	if len(s) > MaxSpreadConstraintsLength {
		return nil, invalid.Errorf(spreadField, s, "%s", SpreadLengthRule)
	}
	var holder struct {
		TopologySpreadConstraints *[]corev1.TopologySpreadConstraint `json:"topologySpreadConstraints"`
	}
	// The string is YAML that Helm's reader would turn into float64s:
	// a number it reads as another (maxSkew: 1e-400 is 0) is refused as
	// written, with its place in the string.
	if f := numpath.YAML([]byte(s)); f != nil {
		at := spreadField
		if p := strings.TrimPrefix(f.Path, "topologySpreadConstraints"); p != f.Path && (p == "" || p[0] == '[') {
			at += p
		} else {
			at += ": " + f.Path
		}
		return nil, invalid.Errorf(at, f.Value(), "%s", f.Rule())
	}
	// Read as the chart's fromYaml reads it: a key given twice is the
	// later one.
	js, err := yamljson.ToJSON([]byte(s), yamljson.Options{})
	if err == nil {
		// A value of the wrong type, named by its element and field.
		if err := spreadTypeError([]byte(s), js); err != nil {
			return nil, err
		}
		err = strictJSON(js, &holder)
	}
	if err != nil {
		return nil, invalid.Errorf(spreadField, s, "must be a YAML string holding a topologySpreadConstraints: list of constraints: %v", err)
	}
	if holder.TopologySpreadConstraints == nil || len(*holder.TopologySpreadConstraints) == 0 {
		return nil, invalid.Errorf(spreadField, s, "must hold a non-empty topologySpreadConstraints: list")
	}
	list := *holder.TopologySpreadConstraints
	if err := platformPaths(etcd.Paths{}).ValidateSpreadConstraints(list); err != nil {
		return nil, err
	}
	return list, nil
}

// refuseUnknown refuses every key of m, in sorted order, that is neither
// known nor ignored.
func refuseUnknown(prefix string, m map[string]any, known, ignored []string) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs invalid.Collector
	for _, k := range keys {
		if slices.Contains(known, k) || slices.Contains(ignored, k) {
			continue
		}
		f := prefix + k
		if k == "" {
			f = prefix + `""` // an empty key still names a field
		}
		errs.Addf(f, m[k], "is not a value of this chart (known: %s)", strings.Join(known, ", "))
	}
	return errs.Err()
}

// authValue reads an auth map (values.auth, etcd.auth): enabled, a
// boolean, and rootCredentialsSecret, a string; null or absent means off.
// The builder checks the Secret's name (etcd.Auth).
func authValue(field string, v any) (etcd.Auth, error) {
	var a etcd.Auth
	if v == nil {
		return a, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return a, invalid.Errorf(field, v, "must be a map")
	}
	var c invalid.Collector
	c.Add(refuseUnknown(field+".", m, authKeys, nil))
	switch t := m["enabled"].(type) {
	case nil:
	case bool:
		a.Enabled = t
	default:
		c.Addf(field+".enabled", t, "must be a boolean")
	}
	var err error
	a.RootCredentialsSecret, err = optString(field+".rootCredentialsSecret", m["rootCredentialsSecret"])
	c.Add(err)
	return a, c.Err()
}

func optString(field string, v any) (string, error) {
	switch t := v.(type) {
	case nil:
		return "", nil
	case string:
		return t, nil
	default:
		return "", invalid.Errorf(field, v, "must be a string")
	}
}

// wholeNumber reads a whole number in [min, max]; note completes the rule
// for a number above max.
func wholeNumber(field string, v any, min, max int64, note string) (int64, error) {
	f, ok, err := valueNumber(field, v)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, invalid.Errorf(field, v, "must be a number")
	}
	if f != math.Trunc(f) {
		return 0, invalid.Errorf(field, v, "must be a whole number")
	}
	if f < float64(min) {
		return 0, invalid.Errorf(field, v, "is out of range: must be at least %d", min)
	}
	if f > float64(max) {
		rule := fmt.Sprintf("is out of range: must be at most %d", max)
		if note != "" {
			rule += " " + note
		}
		return 0, invalid.Errorf(field, v, "%s", rule)
	}
	return int64(f), nil
}

func scalarString(field string, v any) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	case resource.Quantity:
		// Beyond the bounds (normalizeValues gave any other as its
		// text): refused by the bound it breaks.
		if err := quantity.Check(field, t); err != nil {
			return "", err
		}
		return "", invalid.Errorf(field, v, "must be a quantity whose text reads back as itself")
	}
	f, ok, err := valueNumber(field, v)
	if err != nil {
		return "", err
	}
	if ok {
		// Helm holds a number as a float64; the quantity is what its
		// shortest decimal spells, as encoding/json (toJson) spells it.
		if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
			if b, err := json.Marshal(f); err == nil {
				return string(b), nil
			}
		}
		return strconv.FormatFloat(f, 'f', -1, 64), nil
	}
	return "", invalid.Errorf(field, v, "must be a quantity (a string such as \"4Gi\" or a number)")
}

func optQuantity(field string, v any) (resource.Quantity, error) {
	if v == nil {
		return resource.Quantity{}, nil
	}
	f, ok, err := valueNumber(field, v)
	if err != nil {
		return resource.Quantity{}, err
	}
	if ok {
		// A number's range before its spelling: 300 digits are refused
		// for their value, not for the length of "1e+300".
		if rule := quantity.Number(f); rule != "" {
			return resource.Quantity{}, invalid.Errorf(field, v, "%s", rule)
		}
	}
	s, err := scalarString(field, v)
	if err != nil {
		return resource.Quantity{}, err
	}
	// The bounds before ParseQuantity, whose cost grows with the number
	// a text spells ("1e-999999999" never parses).
	return quantity.Parse(field, v, s)
}

func ratioValue(field string, v any) (string, error) {
	switch t := v.(type) {
	case nil:
		return "", nil
	case string:
		if t == "" {
			return "", invalid.Errorf(field, v, "must be a number above 0")
		}
		if len(t) > etcd.MaxRatioLength {
			// As it is read, as the chart reads it: before any of
			// the ratios is parsed.
			return "", invalid.Errorf(field, v, "%s", etcd.RatioLengthRule)
		}
		return t, nil
	}
	f, ok, err := valueNumber(field, v)
	if err != nil {
		return "", err
	}
	if ok {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return "", invalid.Errorf(field, v, "%s", etcd.RatioRangeRule)
		}
		// A number of a values file as the file spells it, so that a
		// refusal quotes it as written ("1e-400", not the "0" of its
		// float64); it reads as the same float64.
		if yn, isYAML := v.(Number); isYAML {
			// A YAML 1.1 spelling ("+0.5", "0x10") as JSON spells it,
			// which the builder parses; refusals quote v (the
			// callers map them back to it).
			v = yn.JSON
		}
		if n, isNumber := v.(json.Number); isNumber {
			n = jsonNumber(n)
			if len(n) > etcd.MaxRatioLength {
				// A long spelling of a number a float64 holds
				// exactly ("1.000…0"): the chart sees only the
				// float64, so its shortest form stands for it.
				return strconv.FormatFloat(f, 'g', -1, 64), nil
			}
			return string(n), nil
		}
		return strconv.FormatFloat(f, 'f', -1, 64), nil
	}
	return "", invalid.Errorf(field, v, "must be a number above 0")
}

// resourceMap reads the flat resources map; a nested requests/limits map is
// refused, as the chart's sanitiser refuses it. Names are read in sorted
// order, so the first error is the same on every run.
func resourceMap(paths etcd.Paths, v any) (corev1.ResourceList, error) {
	field := paths.Resources.String()
	if v == nil {
		return corev1.ResourceList{}, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid.Errorf(field, v, "must be a flat map of resource names to quantities")
	}
	var errs invalid.Collector
	if _, ok := m["limits"]; ok {
		errs.Addf(field+".limits", m["limits"], "a flat map of resources is expected, not nested requests: or limits: sections")
	}
	if _, ok := m["requests"]; ok {
		errs.Addf(field+".requests", m["requests"], "a flat map of resources is expected, not nested requests: or limits: sections")
	}
	if errs.Len() > 0 {
		// The map is of another shape; its keys say nothing more.
		return nil, errs.Err()
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make(corev1.ResourceList, len(m))
	// Each resource is read on its own, so that every bad one is reported.
	for _, k := range names {
		q, err := resourceValue(paths, k, m[k])
		if !errs.Add(err) {
			out[corev1.ResourceName(k)] = q
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// resourceValue reads the limit raw of the resource k, a child of
// paths.Resources.
func resourceValue(paths etcd.Paths, k string, raw any) (resource.Quantity, error) {
	f := paths.Resources.Child(k).String()
	var none resource.Quantity
	if _, nested := raw.(map[string]any); nested {
		return none, invalid.Errorf(f, raw, "a flat map of resources is expected, not a nested map")
	}
	if errs := validation.IsQualifiedName(k); len(errs) > 0 {
		return none, invalid.Errorf(f, k, "must be a resource name: %s", strings.Join(errs, "; "))
	}
	if k == "cpu" || k == "memory" {
		if err := schemaWhole(f, raw); err != nil {
			return none, err
		}
	}
	spelled := raw
	n, isNumber, err := valueNumber(f, raw)
	if err != nil {
		return none, err
	}
	if isNumber {
		if rule := quantity.Number(n); rule != "" {
			return none, invalid.Errorf(f, raw, "%s", rule)
		}
	}
	if isNumber && chartSpelled[k] {
		// The chart's sanitiser prints these limits with toString,
		// Go's %v of the float64 Helm holds: a YAML number 1073741824
		// becomes "1.073741824e+09", and the API server stores a custom
		// resource's quantity as written. Another spelling of the same
		// amount ("1073741824") is the same value, but the first apply
		// over a Helm install would rewrite the field (a new
		// resourceVersion, metadata.generation + 1, which plan notes as
		// a respelling); no member changes either way: etcd-operator
		// compares quantities by value and gives spec changes to new
		// members only (docs/operator.md).
		spelled = fmt.Sprint(n)
	}
	q, err := optQuantity(f, spelled)
	if err != nil {
		return none, asWritten(err, f, nil, raw)
	}
	if q.Sign() < 0 {
		return none, invalid.Errorf(f, raw, "must not be negative")
	}
	if err := paths.ValidateContainerResource(corev1.ResourceName(k), q); err != nil {
		return none, asWritten(err, f, k, raw)
	}
	if k == string(corev1.ResourceMemory) {
		// Where the chart checks it: with the limit's own rules.
		if err := paths.ValidateMemoryLimit(q); err != nil {
			return none, asWritten(err, f, k, raw)
		}
	}
	return q, nil
}

// chartSpelled are the resources whose limits the chart's sanitiser prints
// with toString; it passes the others through as they are.
var chartSpelled = map[string]bool{"cpu": true, "memory": true, "ephemeral-storage": true}

// schemaWhole refuses a fractional YAML number where the etcd chart's
// values.schema.json allows only an integer or a string (values.size and
// the cpu and memory resources), as Helm refuses such values.
func schemaWhole(field string, v any) error {
	n, ok, err := valueNumber(field, v)
	if err != nil {
		return err
	}
	if ok && n != math.Trunc(n) {
		return invalid.Errorf(field, v, "must be a whole number or a quantity string such as \"1.5\" (the chart's values.schema.json allows an integer or a string here)")
	}
	return nil
}

// asWritten gives a builder's error about the quantity of field the value
// as the user wrote it (1e21, 2000E), not the quantity's canonical form,
// which for such values reads as another number (1, 2). An error that
// quotes the key itself (an invalid name) is kept.
func asWritten(err error, field string, key, raw any) error {
	var c invalid.Collector
	c.AddEach(err, func(ne *invalid.Error) *invalid.Error {
		if ne.Field != field || (key != nil && ne.Value == key) {
			return ne
		}
		cp := *ne
		cp.Value = raw
		return &cp
	})
	return c.Err()
}

func affinityValue(field string, v any) (*corev1.Affinity, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid.Errorf(field, v, "must be a map (a pod affinity)")
	}
	if len(m) == 0 {
		return nil, nil
	}
	// Its numbers go to the API as they are written: one no float64
	// holds is refused here, where its field can be named, not read as
	// another number.
	if err := checkNumbers(field, m); err != nil {
		return nil, err
	}
	// Numbers in a YAML 1.1 spelling ("+50", "0x10") as JSON spells
	// them; the API gets the number Helm reads.
	raw, err := json.Marshal(jsonNumbers(m))
	if err != nil {
		return nil, invalid.Errorf(field, v, "must be a pod affinity: %v", err)
	}
	var a corev1.Affinity
	if err := strictJSON(raw, &a); err != nil {
		return nil, invalid.Errorf(field, v, "must be a pod affinity: %v", err)
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

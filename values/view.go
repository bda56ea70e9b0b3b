package values

import (
	"reflect"
	"slices"
)

// readShape is what a reader reads of a map of the values: keys read whole,
// keys whose maps it reads in part, and whether it reads the other keys
// (the etcd chart refuses them, quoting their values) or ignores them.
type readShape struct {
	whole  []string
	part   map[string]readShape
	others bool
}

// The shapes of the two readers (EtcdChart, Cluster). Both read of
// _cluster only the allocation ratios, the storage classes (which the
// etcd chart checks as its schema does, and does not use) and
// scheduling's spread constraints; the platform passes many more keys
// there, as it passes _namespace to every chart, and the etcd chart
// ignores a leftover backup.
var (
	scheduling = readShape{whole: []string{spreadKey}}

	etcdChartShape = readShape{
		// Unknown keys are refused, quoting their values.
		others: true,
		whole:  slices.DeleteFunc(slices.Clone(etcdChartKeys), func(k string) bool { return k == "_cluster" }),
		part: map[string]readShape{
			"_cluster":   {whole: slices.Concat(ratioKeys, storageClassKeys), part: map[string]readShape{schedulingKey: scheduling}},
			"_namespace": {},
			"backup":     {},
		},
	}
	clusterShape = readShape{
		whole: []string{"etcd"},
		part: map[string]readShape{
			"_cluster": {whole: slices.Concat(ratioKeys, storageClassKeys), part: map[string]readShape{schedulingKey: scheduling}},
		},
	}
)

// readView is values as a reader sees them before anything walks them
// (jsontree.Check, normalizeValues, the readers): each key a reader
// ignores is kept, for the refusal of unknown keys and the warnings about
// keys that look misspelt, but with a nil value, so that what it holds is
// never walked. SPEC: both callers ignore _namespace whatever it holds; a
// _namespace nested deeper than jsontree.MaxDepth (as the charts and Helm
// take from a values file), holding more than jsontree.MaxNodes values or
// containing itself (a Go map) is not the reader's business. The view
// copies only the maps it looks into, one level each: no recursion into
// the input.
func readView(values map[string]any, s readShape) map[string]any {
	if values == nil {
		return nil
	}
	out := make(map[string]any, len(values))
	for k, v := range values {
		out[k] = s.valueOf(k, v)
	}
	return out
}

// valueOf is the value of key k, holding v, as the shape reads it.
func (s readShape) valueOf(k string, v any) any {
	if slices.Contains(s.whole, k) {
		return v
	}
	if sub, ok := s.part[k]; ok {
		if len(sub.whole) == 0 && len(sub.part) == 0 && !sub.others {
			return nil // ignored whatever it holds
		}
		return sub.view(v)
	}
	if s.others {
		return v
	}
	return nil
}

// view is v, a map read in part, with its ignored keys' values nil; any
// other value (not a map with string keys) is kept, for the reader to
// refuse or read.
func (s readShape) view(v any) any {
	if m, ok := v.(map[string]any); ok {
		return readView(m, s)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String || rv.IsNil() {
		return v
	}
	out := make(map[string]any, rv.Len())
	for it := rv.MapRange(); it.Next(); {
		k := it.Key().String()
		var e any
		if it.Value().CanInterface() {
			e = it.Value().Interface()
		}
		out[k] = s.valueOf(k, e)
	}
	return out
}

// reads says whether the shape reads key of the map at path (keys from
// the top, as yamljson.Options.Ignored gives them): at or below a key it
// reads whole, or a key of a map it reads in part. Keys the etcd chart
// refuses as unknown are not read: which of two keys that are one JSON
// key a decoder kept, their key is the same.
func (s readShape) reads(path []string, key string) bool {
	for _, p := range path {
		if slices.Contains(s.whole, p) {
			return true
		}
		sub, ok := s.part[p]
		if !ok {
			return false
		}
		s = sub
	}
	if slices.Contains(s.whole, key) {
		return true
	}
	sub, ok := s.part[key]
	return ok && (len(sub.whole) > 0 || len(sub.part) > 0)
}

// ignoredByBoth says whether neither chart reads key of the map at path:
// yamljson.Options.Ignored for the values files, which Merge reads for
// either chart.
func ignoredByBoth(path []string, key string) bool {
	return !etcdChartShape.reads(path, key) && !clusterShape.reads(path, key)
}

package values

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/invalid"
)

// The keys the readers read where the charts ignore what they do not read
// (the kubernetes chart's top level, the platform's _cluster and its
// scheduling map), each level's sorted. A key at one of these levels that
// is neither read nor known to be passed there is ignored, as in Helm; the
// Warnings functions tell the ignored keys that look like a read key
// misspelt.
var (
	// clusterTopKeys are the kubernetes chart's top-level keys Cluster
	// reads; the chart has many more (the cluster's own values), and the
	// platform passes _namespace.
	clusterTopKeys = []string{"_cluster", "etcd"}
	// ratioKeys are the allocation ratios both callers read from _cluster.
	ratioKeys = []string{"cpu-allocation-ratio", "ephemeral-storage-allocation-ratio", "memory-allocation-ratio"}
	// storageClassKeys are the _cluster keys only Cluster reads.
	storageClassKeys = []string{"etcd-storage-class-local", "etcd-storage-class-replicated"}
	// schedulingKey is the _cluster key both callers read a map from, and
	// spreadKey the one key they read in it.
	schedulingKey = "scheduling"
	spreadKey     = "globalAppTopologySpreadConstraints"
)

// maxKeyWarnings bounds the warnings about keys; one more warning counts
// the rest.
const maxKeyWarnings = 10

// ClusterWarnings lists the keys of the kubernetes chart's values that
// Cluster ignores and that resemble a key it reads ("etcdd" for "etcd",
// "_cluster.cpu-alocation-ratio"), one warning a key, sorted by key, at
// most 10 and then one counting the rest; nil when there are none. Cluster
// and the stack render the same with and without them: an ignored key is
// no refusal (the chart has many keys this library does not read, and
// the platform passes _namespace and many _cluster keys).
//
// Only keys that resemble one read at the same level are told, because
// 'render cluster -f' takes the kubernetes chart's whole values file,
// whose other keys (the cluster's version, its node groups and add-ons,
// the platform's maps) are no mistake: telling every one would drown the
// typo. A key resembles a read one when it is the same but for case, "-"
// and "_" ("Etcd", "cpu_allocation_ratio"), or within a small edit
// distance of it (letters inserted, deleted, replaced or swapped: one for
// keys of up to 4 bytes, two up to 12, three beyond). Keys are quoted as
// errors quote values (invalid.FormatValue: escaped, cut past about 120
// bytes).
func ClusterWarnings(values map[string]any) []string {
	return keyWarnings(values, clusterShape, "the kubernetes chart's etcd", []keyLevel{
		{read: clusterTopKeys},
		{path: []string{"_cluster"}, read: sorted(ratioKeys, storageClassKeys, []string{schedulingKey})},
		{path: []string{"_cluster", schedulingKey}, read: []string{spreadKey}},
	})
}

// EtcdChartWarnings is ClusterWarnings for the etcd chart's values, of
// which EtcdChart ignores only what _cluster holds beside the keys it
// reads (every other unknown key it refuses): a key there that resembles
// an allocation ratio or scheduling.globalAppTopologySpreadConstraints.
// The _cluster keys only the kubernetes chart reads (the etcd storage
// classes) are no mistake.
func EtcdChartWarnings(values map[string]any) []string {
	return keyWarnings(values, etcdChartShape, "the etcd chart", []keyLevel{
		{path: []string{"_cluster"}, read: sorted(ratioKeys, []string{schedulingKey}), passed: storageClassKeys},
		{path: []string{"_cluster", schedulingKey}, read: []string{spreadKey}},
	})
}

// keyLevel is one map of the values whose unread keys are ignored: its
// path from the top, the keys read there and the keys known to be passed
// there that are not read.
type keyLevel struct {
	path         []string
	read, passed []string
}

func sorted(lists ...[]string) []string {
	out := slices.Concat(lists...)
	slices.Sort(out)
	return out
}

// keyWarnings tells, for each level, the keys that are neither read nor
// passed there and resemble a read one; reader names what ignores them,
// and shape what it reads (readView).
func keyWarnings(values map[string]any, shape readShape, reader string, levels []keyLevel) []string {
	values, err := valuesMap(readView(values, shape))
	if err != nil {
		return nil // the reader refuses them
	}
	type found struct{ key, like string }
	var all []found
	for _, l := range levels {
		m, ok := mapAt(values, l.path)
		if !ok {
			continue
		}
		for k := range m {
			if slices.Contains(l.read, k) || slices.Contains(l.passed, k) {
				continue
			}
			for _, r := range l.read {
				if resembles(k, r) {
					all = append(all, found{joinKey(l.path, k), joinKey(l.path, r)})
					break
				}
			}
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].key < all[j].key })
	var out []string
	for i, f := range all {
		if i == maxKeyWarnings {
			out = append(out, fmt.Sprintf("values: %d more keys are ignored that resemble keys %s reads", len(all)-maxKeyWarnings, reader))
			break
		}
		out = append(out, fmt.Sprintf("values: %s is ignored, as %s ignores every key it does not read: did you mean %s?",
			invalid.FormatValue(f.key), reader, invalid.FormatValue(f.like)))
	}
	return out
}

// mapAt is the map at path in values, if it is one.
func mapAt(values map[string]any, path []string) (map[string]any, bool) {
	m := values
	for _, k := range path {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil, false
		}
		m = next
	}
	return m, m != nil
}

func joinKey(path []string, k string) string {
	return strings.Join(append(slices.Clone(path), k), ".")
}

// resembles reports whether key looks like read misspelt: the same but for
// case, "-" and "_", or within a small edit distance (see ClusterWarnings).
// It costs at most a few times len(read) steps whatever key's length.
func resembles(key, read string) bool {
	if key == read {
		return false
	}
	limit := 1
	switch n := len(read); {
	case n > 12:
		limit = 3
	case n > 4:
		limit = 2
	}
	if len(key) <= len(read)+2*limit && folded(key) == folded(read) {
		return true
	}
	return withinDistance(key, read, limit)
}

// folded is s in lower case without "-" and "_".
func folded(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return -1
		}
		return toLowerASCII(r)
	}, s)
}

func toLowerASCII(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// withinDistance reports whether a and b are at most limit edits apart
// (the optimal string alignment distance: insertions, deletions,
// substitutions and swaps of neighbours, over runes), computing only the
// diagonal band of width 2*limit+1 and stopping as soon as every cell of
// a row exceeds limit.
func withinDistance(a, b string, limit int) bool {
	if d := len(a) - len(b); d > 4*limit || -d > 4*limit {
		return false // more runes apart than limit, even at 4 bytes a rune
	}
	ra, rb := []rune(a), []rune(b)
	if !utf8.ValidString(a) || !utf8.ValidString(b) {
		ra, rb = bytesAsRunes(a), bytesAsRunes(b)
	}
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return false
	}
	inf := limit + 1
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = min(j, inf)
	}
	for i := 1; i <= len(ra); i++ {
		lo, hi := max(1, i-limit), min(len(rb), i+limit)
		for j := range cur {
			cur[j] = inf
		}
		if i <= limit {
			cur[0] = i
		}
		best := cur[0]
		for j := lo; j <= hi; j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = min(v, inf)
			best = min(best, cur[j])
		}
		if best > limit {
			return false
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)] <= limit
}

// bytesAsRunes is s's bytes, one rune each, for text that is not UTF-8.
func bytesAsRunes(s string) []rune {
	out := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = rune(s[i])
	}
	return out
}

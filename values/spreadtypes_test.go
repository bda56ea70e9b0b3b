package values_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/values"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSpreadDecodeNamesElementAndField: every refusal of a spread
// constraint's value for its type names the element and the field (at
// any depth) and quotes the value as the string writes it: each int32
// field beyond the range either way, fractional, of another type; each
// string, list, map and selector field of another type. Second
// elements, so that the index is seen.
func TestSpreadDecodeNamesElementAndField(t *testing.T) {
	const first = "topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n- topologyKey: rack\n  whenUnsatisfiable: DoNotSchedule\n"
	const at = "_cluster.scheduling.globalAppTopologySpreadConstraints[1]"
	n := func(s string) json.Number { return json.Number(s) }
	for _, c := range []struct {
		yaml  string
		field string
		value any
	}{
		{"  maxSkew: 3000000000\n", ".maxSkew", n("3000000000")},
		{"  maxSkew: 2147483648\n", ".maxSkew", n("2147483648")},
		{"  maxSkew: -2147483649\n", ".maxSkew", n("-2147483649")},
		{"  maxSkew: 1e10\n", ".maxSkew", n("1e10")},
		{"  maxSkew: 9223372036854775808\n", ".maxSkew", n("9223372036854775808")},
		{"  maxSkew: 2.5\n", ".maxSkew", n("2.5")},
		{"  maxSkew: 0x7fffffffff\n", ".maxSkew", values.Number{Text: "0x7fffffffff", JSON: "549755813887"}},
		{"  maxSkew: +3000000000\n", ".maxSkew", values.Number{Text: "+3000000000", JSON: "3000000000"}},
		{"  maxSkew: one\n", ".maxSkew", "one"},
		{"  maxSkew: \"3\"\n", ".maxSkew", "3"},
		{"  maxSkew: true\n", ".maxSkew", true},
		{"  maxSkew: [1]\n", ".maxSkew", []any{n("1")}},
		{"  maxSkew: {a: 1}\n", ".maxSkew", map[string]any{"a": n("1")}},
		{"  maxSkew: 1\n  minDomains: 3000000000\n", ".minDomains", n("3000000000")},
		{"  maxSkew: 1\n  minDomains: -3000000000\n", ".minDomains", n("-3000000000")},
		{"  maxSkew: 1\n  minDomains: 1.5\n", ".minDomains", n("1.5")},
		{"  maxSkew: 1\n  minDomains: x\n", ".minDomains", "x"},
		{"  maxSkew: 1\n  nodeAffinityPolicy: 1\n", ".nodeAffinityPolicy", n("1")},
		{"  maxSkew: 1\n  nodeTaintsPolicy: [Honor]\n", ".nodeTaintsPolicy", []any{"Honor"}},
		{"  maxSkew: 1\n  matchLabelKeys: x\n", ".matchLabelKeys", "x"},
		{"  maxSkew: 1\n  matchLabelKeys: [a, 1]\n", ".matchLabelKeys[1]", n("1")},
		{"  maxSkew: 1\n  labelSelector: x\n", ".labelSelector", "x"},
		{"  maxSkew: 1\n  labelSelector: {matchLabels: [a]}\n", ".labelSelector.matchLabels", []any{"a"}},
		{"  maxSkew: 1\n  labelSelector: {matchLabels: {a: 1}}\n", ".labelSelector.matchLabels.a", n("1")},
		{"  maxSkew: 1\n  labelSelector: {matchExpressions: x}\n", ".labelSelector.matchExpressions", "x"},
		{"  maxSkew: 1\n  labelSelector: {matchExpressions: [x]}\n", ".labelSelector.matchExpressions[0]", "x"},
		{"  maxSkew: 1\n  labelSelector: {matchExpressions: [{key: a, operator: In, values: [b, 2]}]}\n", ".labelSelector.matchExpressions[0].values[1]", n("2")},
		{"  maxSkew: 1\n  labelSelector: {matchExpressions: [{key: 5, operator: In, values: [b]}]}\n", ".labelSelector.matchExpressions[0].key", n("5")},
	} {
		_, err := values.ParseSpreadConstraints(first + c.yaml)
		var ne *invalid.Error
		require.True(t, errors.As(err, &ne), "%s: %v", c.yaml, err)
		assert.Equal(t, at+c.field, ne.Field, "%v", err)
		assert.Equal(t, c.value, ne.Value, "%v", err)
		assert.NotContains(t, ne.Rule, "Go struct", "%v", err)
	}
	// An element that is no map is named by its index.
	_, err := values.ParseSpreadConstraints(first[:len(first)-len("- topologyKey: rack\n  whenUnsatisfiable: DoNotSchedule\n")] + "- a\n")
	var ne *invalid.Error
	require.True(t, errors.As(err, &ne), "%v", err)
	assert.Equal(t, at, ne.Field, "%v", err)
	// Within the range and of the right types: accepted.
	_, err = values.ParseSpreadConstraints(first + "  maxSkew: 2147483647\n  minDomains: 1\n  matchLabelKeys: [pod-template-hash]\n  labelSelector: {matchLabels: {a: b}}\n")
	require.NoError(t, err)
}

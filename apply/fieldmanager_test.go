package apply_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestValidateFieldManager: a field manager name is refused as the API
// server refuses an apply's (apimachinery's ValidateFieldManager: more
// than 128 bytes, a character that is not printable), and also when empty
// or not UTF-8, which the API server would not store as given; every
// refusal names the field as the caller named it and quotes the name.
// Each class: lengths at and past the limit in one- and multi-byte
// characters, every kind of unprintable character (C0, DEL, C1, format
// and bidirectional controls, separators other than the ASCII space,
// private use, unassigned), bytes that are not UTF-8.
func TestValidateFieldManager(t *testing.T) {
	require.Equal(t, metav1validation.FieldManagerMaxLength, apply.MaxFieldManagerLength)
	for _, tc := range []struct {
		name string
		rule string // "" when accepted
	}{
		{"etcdshapes", ""},
		{"kubectl-client-side-apply", ""},
		{"my operator (v2)", ""},
		{"élan-日本-🚀", ""},
		{strings.Repeat("m", 128), ""},
		{strings.Repeat("é", 64), ""}, // 128 bytes
		{"", "must not be empty"},
		{strings.Repeat("m", 129), "must be at most 128 bytes"},
		{strings.Repeat("é", 64) + "x", "must be at most 128 bytes"},
		{strings.Repeat("\n", 1<<20), "must be at most 128 bytes"},
		{"a\nb", "U+000A at byte 1 is not"},
		{"\tab", "U+0009 at byte 0 is not"},
		{"a\x00", "U+0000 at byte 1"},
		{"del\x7f", "U+007F"},
		{"c1\u0085", "U+0085"},
		{"csi\u009b", "U+009B"},
		{"rtl\u202eltr", "U+202E"},
		{"zw\u200bsp", "U+200B"},
		{"nb\u00a0sp", "U+00A0"},
		{"ls\u2028", "U+2028"},
		{"pu\ue000", "U+E000"},
		{"un\U000e0000", "U+E0000"},
		{"\x1b]52;c;eA==\a", "U+001B at byte 0"},
		{"bad\xff", "must be valid UTF-8"},
		{"\xc3", "must be valid UTF-8"},
	} {
		err := apply.ValidateFieldManager("--field-manager", tc.name)
		upstream := metav1validation.ValidateFieldManager(tc.name, field.NewPath("fieldManager"))
		if tc.rule == "" {
			assert.NoError(t, err, "%q", tc.name)
			assert.Empty(t, upstream, "%q: the API server refuses it", tc.name)
			continue
		}
		var ne *invalid.Error
		require.True(t, errors.As(err, &ne), "%q: %v", tc.name, err)
		assert.Equal(t, "--field-manager", ne.Field)
		assert.Equal(t, tc.name, ne.Value)
		assert.Contains(t, ne.Rule, tc.rule, "%q", tc.name)
		assert.Less(t, len(err.Error()), 400, "bounded")
		assert.Equal(t, invalid.Escape(err.Error()), err.Error(), "escaped")
		// What the API server refuses is refused; what is refused beyond
		// it is what it would not store as given.
		if tc.name != "" && !strings.Contains(tc.rule, "UTF-8") {
			assert.NotEmpty(t, upstream, "%q: refused here, accepted by the API server", tc.name)
		}
	}
}

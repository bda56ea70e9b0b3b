package invalid

import (
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// chartPlain is the generated charts' etcdshapes.check.plain
// (chartgen/checks.tpl) in Go's regexp, which plainSafe must equal: the
// round trip holds the charts' refusal messages to the library's.
func chartPlain(s string) bool {
	words := []string{"null", "true", "false", "yes", "no", "on", "off", "y", "n"}
	return regexp.MustCompile(`^[A-Za-z0-9_][-A-Za-z0-9_./]*$`).MatchString(s) &&
		!slices.Contains(words, strings.ToLower(s)) &&
		!regexp.MustCompile(`^([0-9]+\.?[0-9]*([eE]-?[0-9]+)?|inf(inity)?|nan)$`).MatchString(strings.ToLower(s)) &&
		!regexp.MustCompile(`^([0-9](.*_|...-..-..)|0[xXbBoO])`).MatchString(s)
}

// TestPlainSafeIsTheCharts: plainSafe answers as the charts do, for the
// edges of each rule and for random strings over the characters that
// matter.
func TestPlainSafeIsTheCharts(t *testing.T) {
	cases := []string{
		"", "a", "_a", "-a", ".a", "/a", "a-b.c/d_e", "a b", "é",
		"null", "NULL", "True", "y", "Y", "n", "no", "On", "off", "yes2",
		"1", "10", "1.", "1.5", "1.e5", "1e5", "1E-5", "1e-", "1e", "1e999", "1e+5", "1.5.5", "12a",
		"inf", "Infinity", "NaN", "infinit", "nan1",
		"0x1f", "0X1", "0b101", "0o7", "0a", "1_000", "1a_", "2026-12-01", "2026-12-0", "2026/12/01",
		strings.Repeat("9", 1000), strings.Repeat("9", 400) + "e-999",
	}
	r := rand.New(rand.NewSource(1))
	const alphabet = "0123456789eE.-_/xXbBoOaAnNyYiIfFtT "
	for range 20000 {
		b := make([]byte, 1+r.Intn(12))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		if got, want := plainSafe(s), chartPlain(s); got != want {
			t.Errorf("plainSafe(%q) = %v, the charts' %v", s, got, want)
		}
	}
}

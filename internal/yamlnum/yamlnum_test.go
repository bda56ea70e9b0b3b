package yamlnum

import (
	"regexp"
	"testing"
)

// TestFloatIsThePattern: Float answers as yaml.v2's yamlStyleFloat
// pattern, on its edges and on every short string over the characters that
// matter.
func TestFloatIsThePattern(t *testing.T) {
	pattern := regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	cases := []string{"", "1", "-1", "+1", ".5", "-.5", ".", "1.", "1.e5", "1e", "1e-", "1e+5", "1E5", "+", "1.5.5", "1e5e5", "e5", "1x", "1e999"}
	// Every string of up to 4 characters over the ones that matter.
	const alphabet = "0123456789.eE-+x"
	for prefixes := []string{""}; len(prefixes[0]) < 4; {
		var next []string
		for _, p := range prefixes {
			for _, c := range alphabet {
				next = append(next, p+string(c))
			}
		}
		cases, prefixes = append(cases, next...), next
	}
	for _, s := range cases {
		if got, want := Float(s), pattern.MatchString(s); got != want {
			t.Errorf("Float(%q) = %v, the pattern %v", s, got, want)
		}
	}
}

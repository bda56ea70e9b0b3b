package yamlnum

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/jsonnum"
	"sigs.k8s.io/yaml"
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

// TestDecimalIsHelmsReading: Decimal says a plain scalar is a number
// exactly when Helm's YAML reader (sigs.k8s.io/yaml over yaml.v2) turns it
// into a JSON number, and the decimal it gives is that number (whole
// numbers digit for digit, as the JSON text carries them; others as the
// same float64). Negative zeros keep their sign.
func TestDecimalIsHelmsReading(t *testing.T) {
	cases := []string{"0", "-0", "+0", "00", "-00", "0.0", "-0.0", "1", "-1", "+1", "017", "0o17", "0x1F", "0X1f", "-0x10", "0b101", "-0b101", "-0b0",
		"1_000", "1__0", "_1", "1_", "0x_1", "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
		"1.5", ".5", "-.5", "+.5", "1.", "1e3", "1E3", "1e-400", "1e400", "1.5e+3", "1_000.5", "3.0000000000000000001",
		".inf", "-.inf", "+.inf", ".nan", ".NaN", "+.nan", "inf", "nan", "0x1p3", "1e", "1.5.5", "2006-01-02", "2006-1-2", "1234-56", "12:30",
		"1:20", "0b", "0x", "-", "+", ".", "", "1 2", "0777", "08", "09.5", "1e+", "1x", "true", "~", "null", "y", "one"}
	for _, s := range cases {
		js, err := yaml.YAMLToJSON([]byte("v: " + s))
		if err != nil {
			// .inf and .nan: no JSON spelling, Helm fails.
			if _, ok := Decimal(s); ok && s != "" {
				t.Errorf("Decimal(%q) is a number; Helm's reader fails: %v", s, err)
			}
			continue
		}
		text := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(string(js)), `{"v":`), "}")
		helmNumber := jsonnum.Is(text)
		got, ok := Decimal(s)
		if ok != helmNumber {
			t.Errorf("Decimal(%q) = %q, %v; Helm reads %s", s, got, ok, text)
			continue
		}
		if !ok {
			continue
		}
		i, errInt := strconv.ParseInt(got, 10, 64)
		u, errUint := strconv.ParseUint(got, 10, 64)
		if got == "-0" || errInt == nil && strconv.FormatInt(i, 10) == got || errUint == nil && strconv.FormatUint(u, 10) == got {
			// yaml.v2 read an integer: JSON carries its digits.
			want := text
			if strings.HasPrefix(strings.ReplaceAll(s, "_", ""), "-") && text == "0" {
				want = "-0"
			}
			if got != want {
				t.Errorf("Decimal(%q) = %q; Helm reads %s", s, got, text)
			}
			continue
		}
		a, _ := strconv.ParseFloat(got, 64)
		b, _ := strconv.ParseFloat(text, 64)
		if a != b {
			t.Errorf("Decimal(%q) = %q (%v); Helm reads %s", s, got, a, text)
		}
	}
}

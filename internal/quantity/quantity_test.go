package quantity

import (
	"errors"
	"math"
	"math/big"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/invalid"
	"gopkg.in/inf.v0"
	"k8s.io/apimachinery/pkg/api/resource"
)

// grammar is resource.ParseQuantity's grammar (the generated charts'
// check uses the same expression).
var grammar = regexp.MustCompile(`^([+-]?)([0-9]*\.?[0-9]*)(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?[0-9]+|[numkMGTPE]?)$`)

// spelled is what a quantity text spells, computed independently of scan
// (by grammar and big.Rat): its exact value when the exponent is small
// enough to compute with.
type spelled struct {
	value *big.Rat
	exact bool
}

func spell(t *testing.T, s string) (spelled, bool) {
	t.Helper()
	m := grammar.FindStringSubmatch(s)
	if m == nil || s == "" {
		return spelled{}, false
	}
	suffix := m[3]
	// The grammar needs a digit in the mantissa ("Mi", "." and "-" are
	// none), where ParseQuantity reads most such texts as 0.
	if strings.Trim(m[2], ".") == "" {
		return spelled{}, false
	}
	num := m[2]
	if strings.HasPrefix(num, ".") {
		num = "0" + num
	}
	num = strings.TrimSuffix(num, ".")
	if num == "" {
		num = "0"
	}
	v, ok := new(big.Rat).SetString(m[1] + num)
	if !ok {
		t.Fatalf("%q: mantissa %q", s, num)
	}
	pow := func(base, exp int64) *big.Rat {
		r := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(base), big.NewInt(abs(exp)), nil))
		if exp < 0 {
			r.Inv(r)
		}
		return r
	}
	switch {
	case strings.HasSuffix(suffix, "i"):
		k := int64(strings.Index("KMGTPE", suffix[:1]) + 1)
		return spelled{value: v.Mul(v, pow(2, 10*k)), exact: true}, true
	case len(suffix) <= 1:
		return spelled{value: v.Mul(v, pow(10, int64(decimalSuffixes[suffix]))), exact: true}, true
	}
	e := new(big.Int)
	if _, ok := e.SetString(strings.TrimPrefix(suffix[1:], "+"), 10); !ok {
		t.Fatalf("%q: exponent", s)
	}
	if e.CmpAbs(big.NewInt(400)) > 0 {
		return spelled{}, true // beyond the exponent bound: no value needed
	}
	return spelled{value: v.Mul(v, pow(10, e.Int64())), exact: true}, true
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// Limit is 2^63, and MaxInt64 2^63-1, which reads as 2^63 as a float64.
const (
	Limit    = "9223372036854775808"
	MaxInt64 = "9223372036854775807"
)

// atFloat64 is the exact value's nearest float64, as the charts read it.
func atFloat64(v *big.Rat) float64 {
	f, _ := v.Float64()
	return f
}

// exponentForms are texts in every form of the grammar, around every
// bound: both signs, every suffix, exponents huge and tiny, 2^63 and its
// neighbours in each unit, and texts that are no quantity.
func exponentForms() []string {
	out := []string{
		"1e999999999", "1e-999999999", "-1e999999999", "1E999999999", "1e+999999999", "0e999999999", "0e-999999999",
		"1e100000", "1e-100000", "1e400", "1e-400", "1e4294967297", "1e-4294967297", "1e99999999999999999999", "1e-99999999999999999999",
		"1e99", "1e-99", "1e100", "1e-100", "1e0099", "1e-0099", "1e00100", "0.000000000000000000000000000001e99", "1e18", "1e19", "9.223372036854775807e18", "9.223372036854775808e18",
		Max, Limit, MaxInt64, "9223372036854775296", "-" + Max, "-" + Limit, "+" + Max, "0" + Limit, "00000" + Max, Max + ".9", Max + ".999999999", "9223372036854775295000e-3", "9223372036854775296000e-3",
		"8191.9999999999999995Pi", "8191.999999999999999Pi", "7.9999999999999995Ei", "7.999999999999999Ei", "9223372036.854775295G", "9223372036.854775296G",
		"8Ei", "7Ei", "7.999999Ei", "7.9999999999999999999999Ei", "-8Ei", "8192Pi", "8191.99Pi", "8388608Ti", "8388607Ti", "8589934592Gi", "8589934591Gi", "8796093022208Mi", "8796093022207Mi", "9007199254740992Ki", "9007199254740991Ki",
		"9E", "9.3E", "10E", "2000E", "9223P", "9224P", "9223372T", "9223373T", "9223372036G", "9223372037G", "9223372036854775808n", "9223372036854775808000000000n", "9223372036854775807999999999n", "9223372036854775808u", "9223372036854775808m",
		"4Gi", "512Mi", "1000m", "0.1", "100m", "1n", "1u", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei", "1e3", "1E3", "1e+3", "1e-3", "1.5e9", "1.073741824e+09", "5e-324", "1e-9", "1e-10",
		"e-99", "e-100", "1e9223372036854775807", "1e9223372036854775808", "1e-9223372036854775808", "1e-9223372036854775809", "e-2170000000",
		"0", "00", ".", "-", "+", "Mi", ".5", "5.", "+.5Ki", "-0", "0.0e0", "Ei", "Pi", "Ti", "-Ei", ".Ei", "0Ei", "5.Ei", "e-9", "e-10", ".e-10", "-e-10", "0e-10", "5.e-10", "e5", "E",
		"", "abc", "1.2.3", "1e", "1e+", "1Ee3", "1K", "1KI", "1 Gi", "0x10", "1e3Mi", "--1", "1e1.5", "1i", "e3", "1ee3", "1e3e3",
		strings.Repeat("9", 65), strings.Repeat("0", 65), "0." + strings.Repeat("0", 62) + "1", "0." + strings.Repeat("0", 61) + "1", strings.Repeat("1", 64), "1." + strings.Repeat("0", 62),
	}
	// Around 2^63 in each binary unit.
	for k, suffix := range []string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"} {
		m := new(big.Int).Lsh(big.NewInt(1), uint(63-10*(k+1))).String()
		less := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(63-10*(k+1))), big.NewInt(1)).String()
		out = append(out, m+suffix, less+suffix, less+".9"+suffix, less+".99999999999999999999"+suffix, "-"+m+suffix)
	}
	for _, sign := range []string{"", "-", "+"} {
		for _, suffix := range []string{"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e9", "E-9", "e+18", "e-99", "e99", "e100", "e-100"} {
			for _, num := range []string{"1", "1.5", "0.5", "8", "9", "9223372036854775807", "12345678901234567890"} {
				out = append(out, sign+num+suffix)
			}
		}
	}
	return out
}

// TestRule: every form of the grammar gets the rule its exact value,
// length and exponent call for, and every admitted text parses to the
// quantity it spells.
func TestRule(t *testing.T) {
	for _, s := range exponentForms() {
		got := Rule(s)
		sp, ok := spell(t, s)
		v := sp.value
		want := ""
		switch {
		case !ok:
			want = SyntaxRule
		case len(s) > MaxLength:
			want = LengthRule
		case exponentDigits(s) > 2:
			want = ExponentRule
		case sp.exact && math.Abs(atFloat64(v)) >= 1<<63:
			want = RangeRule
		}
		if got != want {
			t.Errorf("Rule(%q) = %q, want %q", s, got, want)
			continue
		}
		if got != "" {
			if _, err := Parse("f", s, s); err == nil {
				t.Errorf("Parse(%q) accepts what Rule refuses", s)
			}
			continue
		}
		// Within the bounds, Parse refuses what the charts' rules refuse
		// (TestChartRule), with their rule.
		if rule := ChartRule(s); rule != "" {
			var ne *invalid.Error
			if _, err := Parse("f", s, s); !errors.As(err, &ne) || ne.Rule != rule {
				t.Errorf("Parse(%q) = %v, want the charts' rule %q", s, err, rule)
			}
			continue
		}
		q, err := Parse("f", s, s)
		if err != nil {
			t.Errorf("Parse(%q): %v", s, err)
			continue
		}
		// ParseQuantity rounds up to whole nanos: compare at that scale.
		back, ok := new(big.Rat).SetString(q.AsDec().String())
		if !ok || (q.Sign() != 0 && new(big.Rat).Sub(back, v).Abs(new(big.Rat).Sub(back, v)).Cmp(big.NewRat(1, 1_000_000_000)) > 0) {
			t.Errorf("Parse(%q) = %s, want %s", s, q.AsDec(), v.FloatString(9))
		}
		if err := Check("f", q); err != nil {
			t.Errorf("Check of Parse(%q): %v", s, err)
		}
	}
}

func exponentDigits(s string) int {
	i := strings.IndexAny(s, "eE")
	if i < 0 {
		return 0
	}
	return len(strings.TrimLeft(strings.TrimLeft(s[i+1:], "+-"), "0"))
}

// TestParseRefusal: a refusal is an *invalid.Error with the field and the
// value as the caller wrote it, not the quantity's canonical form.
func TestParseRefusal(t *testing.T) {
	for _, c := range []struct {
		s    string
		rule string
	}{
		{"1e100000", ExponentRule}, {"8Ei", RangeRule}, {"7.9999999999999999999999Ei", RangeRule}, {MaxInt64, RangeRule}, {"1e-400", ExponentRule}, {"abc", SyntaxRule}, {strings.Repeat("1", 10) + "." + strings.Repeat("1", 60), LengthRule},
	} {
		_, err := Parse("values.size", "as written", c.s)
		var ne *invalid.Error
		if !errors.As(err, &ne) || ne.Field != "values.size" || ne.Value != "as written" || ne.Rule != c.rule {
			t.Errorf("Parse(%q) = %#v, want the field, the value as written and %q", c.s, err, c.rule)
		}
	}
}

// TestCheck: a resource.Quantity built in Go gets the bounds of its
// text, whatever its representation, in bounded time, and the refusal
// quotes it as its digits and exponent.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name  string
		q     resource.Quantity
		value string
		rule  string
	}{
		{"scaled huge", *resource.NewScaledQuantity(1, 999999999), "1e999999999", ExponentRule},
		{"parsed huge", resource.MustParse("1e100000"), "1e100000", ExponentRule},
		{"parsed huge, written with ten", resource.MustParse("10e99999"), "10e99999", ExponentRule},
		{"10e18", *resource.NewScaledQuantity(10, 18), "10E", RangeRule}, // its String, as given
		{"2^63-1", *resource.NewQuantity(1<<63-1, resource.DecimalSI), MaxInt64, RangeRule},
		{"scaled tiny", *resource.NewScaledQuantity(5, -999999999), "5e-999999999", ExponentRule},
		{"decimal tiny", *resource.NewDecimalQuantity(*inf.NewDec(1, 200), resource.DecimalSI), "1e-200", ExponentRule},
		{"zero scaled huge", *resource.NewScaledQuantity(0, 999999999), "0e999999999", ExponentRule},
		{"zero at the scale of a text", *resource.NewScaledQuantity(0, -100), "", ""},
		{"2^63", *resource.NewDecimalQuantity(*inf.NewDecBig(new(big.Int).Lsh(big.NewInt(1), 63), 0), resource.DecimalSI), Limit, RangeRule},
		{"-2^63", *resource.NewDecimalQuantity(*inf.NewDecBig(new(big.Int).Lsh(big.NewInt(-1), 63), 0), resource.DecimalSI), "-" + Limit, RangeRule},
		{"2^63 in milli", *resource.NewDecimalQuantity(*inf.NewDecBig(new(big.Int).Mul(new(big.Int).Lsh(big.NewInt(1), 63), big.NewInt(1000)), 3), resource.DecimalSI), Limit, RangeRule},
		{"many digits", *resource.NewDecimalQuantity(*inf.NewDecBig(new(big.Int).Exp(big.NewInt(10), big.NewInt(64), nil), 64), resource.DecimalSI), "1" + strings.Repeat("0", 64) + "e-64", DigitsRule},
		{"many bits", *resource.NewDecimalQuantity(*inf.NewDecBig(new(big.Int).Lsh(big.NewInt(1), 100000), 100000), resource.DecimalSI), "a number of 100001 bits, e-100000", DigitsRule},
		{"Max", *resource.NewQuantity(9223372036854775295, resource.BinarySI), "", ""},
		{"Max in milli", *resource.NewDecimalQuantity(*inf.NewDecBig(new(big.Int).Mul(big.NewInt(9223372036854775295), big.NewInt(1000)), 3), resource.DecimalSI), "", ""},
		{"Max+1 in milli", *resource.NewDecimalQuantity(*inf.NewDecBig(new(big.Int).Mul(big.NewInt(9223372036854775296), big.NewInt(1000)), 3), resource.DecimalSI), "9223372036854775296", RangeRule},
		{"capped 8Ei", resource.MustParse("8Ei"), MaxInt64, RangeRule}, // ParseQuantity's cap: the Go caller holds 2^63-1
		{"zero", resource.Quantity{}, "", ""},
		{"4Gi", resource.MustParse("4Gi"), "", ""},
		{"1.5Gi", resource.MustParse("1.5Gi"), "", ""},
		{"1n", resource.MustParse("1n"), "", ""},
	} {
		start := time.Now()
		err := Check("Size", c.q)
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: Check took %v", c.name, d)
		}
		if c.rule == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var ne *invalid.Error
		if !errors.As(err, &ne) || ne.Field != "Size" || ne.Value != c.value || ne.Rule != c.rule {
			t.Errorf("%s: Check = %#v, want value %q and %q", c.name, err, c.value, c.rule)
		}
	}
}

// hasMantissaDigit reports whether s's mantissa (after a sign, up to the
// suffix) holds a digit.
func hasMantissaDigit(s string) bool {
	s = strings.TrimLeft(s, "+-")
	for i := 0; i < len(s) && (s[i] == '.' || s[i] >= '0' && s[i] <= '9'); i++ {
		if s[i] != '.' {
			return true
		}
	}
	return false
}

// FuzzRule: Rule reads any text in time linear in its length; a text it
// admits parses, is at most Max in magnitude, keeps its value through its
// canonical form (which the API server stores) and passes Check; a text it
// calls no quantity ParseQuantity refuses too, or reads although it has
// no digit. Seeded with every exponent
// form:
//
//	go test ./internal/quantity -run '^$' -fuzz '^FuzzRule$' -fuzztime 100000x
func FuzzRule(f *testing.F) {
	for _, s := range exponentForms() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rule := Rule(s)
		switch rule {
		case "":
		case SyntaxRule:
			// ParseQuantity reads a mantissa of no digit as 0 ("Mi");
			// the grammar needs one, and the API server's pattern too.
			if _, err := resource.ParseQuantity(s); err == nil && hasMantissaDigit(s) {
				t.Fatalf("Rule(%q) says no quantity; ParseQuantity reads it", s)
			}
			return
		default:
			return
		}
		q, err := resource.ParseQuantity(s)
		if err != nil {
			t.Fatalf("Rule admits %q; ParseQuantity: %v", s, err)
		}
		if sp, ok := spell(t, s); !ok || !sp.exact || math.Abs(atFloat64(sp.value)) >= 1<<63 {
			t.Fatalf("Rule admits %q, which is %v", s, sp.value)
		}
		back, err := resource.ParseQuantity(q.String())
		if err != nil || back.Cmp(q) != 0 {
			t.Fatalf("%q is stored as %q, which reads back as %v (%v)", s, q.String(), back.AsDec(), err)
		}
		if err := Check("f", q); err != nil {
			t.Fatalf("Check of admitted %q: %v", s, err)
		}
	})
}

// TestRuleLinear: Rule's time grows linearly with the text, for texts of
// 16 MiB (the values files' limit) of each shape it scans.
func TestRuleLinear(t *testing.T) {
	const n = 16 << 20
	for _, s := range []string{
		strings.Repeat("9", n), "0." + strings.Repeat("0", n) + "1", "1e" + strings.Repeat("9", n), "1e-" + strings.Repeat("0", n) + "5",
		strings.Repeat("1", n) + "x", "9223372036854775807." + strings.Repeat("0", n) + "1", "7." + strings.Repeat("9", n) + "Ei",
	} {
		start := time.Now()
		rule := Rule(s)
		if d := time.Since(start); d > 5*time.Second || rule == "" {
			t.Errorf("Rule of %.20q… (%d bytes) = %q in %v", s, len(s), rule, d)
		}
	}
}

// BenchmarkParse is the gate and ParseQuantity for the admitted texts
// that cost most: 64 characters, the binary slow path, the least
// exponent.
func BenchmarkParse(b *testing.B) {
	for _, s := range []string{
		"4Gi",
		"7." + strings.Repeat("9", 15) + strings.Repeat("0", 45) + "Ei", // 64 characters, the binary exact path
		"0." + strings.Repeat("0", 61) + "1",                            // 64 characters, 1e-62
		"1" + strings.Repeat("2", 59) + "e-99",                          // 64 characters, 1.2e-40
		Max,
	} {
		b.Run(s[:min(len(s), 16)], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse("f", s, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

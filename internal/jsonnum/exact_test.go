package jsonnum

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestFloat: every kind of loss, on both sides of its edge, and the
// numbers a float64 holds exactly as written.
func TestFloat(t *testing.T) {
	for _, c := range []struct {
		in   string
		loss Loss
	}{
		{"0", Exact}, {"0.0", Exact}, {"0e999999999999", Exact}, {"+0", Exact},
		{"-0", NegativeZero}, {"-0.0", NegativeZero}, {"-0e5", NegativeZero}, {"-.0", NegativeZero},
		{"1", Exact}, {"0.1", Exact}, {"0.3", Exact}, {"1.5", Exact}, {"1e21", Exact}, {"1e23", Exact},
		{"100", Exact}, {"1.000", Exact}, {"001.5", Exact}, {".5", Exact}, {"5.", Exact}, {"1E3", Exact},
		{"9007199254740992", Exact}, {"9007199254740993", Digits}, {"123456789012345678", Digits},
		{"123456789012345680", Exact}, {"3.0000000000000000001", Digits}, {"0.30000000000000001", Digits},
		{"0.30000000000000004", Exact}, {"1.7976931348623157e308", Exact}, {"1.7976931348623159e308", Overflow},
		{"1e308", Exact}, {"1e309", Overflow}, {"-1e400", Overflow}, {"1e999999999999999999999", Overflow},
		{"5e-324", Exact}, {"4.9406564584124654e-324", Digits}, {"2e-324", Underflow}, {"1e-400", Underflow},
		{"-1e-400", Underflow}, {"1e-99999999999999999999", Underflow}, {"1e-320", Exact}, {"1.2345678e-320", Digits},
		{"2.2250738585072014e-308", Exact}, {"123456789012345", Exact}, {"1234567890123456789", Digits},
		{"9223372036854775807", Digits}, {"9223372036854775808", Digits}, {"9223372036854776000", Exact}, {"18446744073709551615", Digits},
	} {
		f, loss, ok := Float(c.in)
		if !ok || loss != c.loss {
			t.Errorf("Float(%q) = %v, %v, %v; want loss %v", c.in, f, loss, ok, c.loss)
			continue
		}
		want, _ := strconv.ParseFloat(c.in, 64)
		if f != want && !(math.IsNaN(f) && math.IsNaN(want)) {
			t.Errorf("Float(%q) = %v, ParseFloat %v", c.in, f, want)
		}
		if rule := loss.Rule(f); (loss == Exact) != (rule == "") {
			t.Errorf("Float(%q): loss %v with rule %q", c.in, loss, rule)
		}
	}
	for _, s := range []string{"", "-", "+", ".", "e5", "1e", "1e+", "1.5.5", "0x10", "1_000", "inf", "NaN", "1 ", " 1", "--1", "1e5e5"} {
		if _, _, ok := Float(s); ok {
			t.Errorf("Float(%q) is a number", s)
		}
	}
	if !strings.Contains(Digits.Rule(3), "reads as 3;") {
		t.Errorf("Digits.Rule(3) = %q", Digits.Rule(3))
	}
}

// TestFloatAgreesWithShortest: a number is exact exactly when strconv's
// shortest form of its float64 reads back as the same decimal, on every
// number of up to 17 digits around the float64s of a sample of values.
func TestFloatAgreesWithShortest(t *testing.T) {
	for _, base := range []float64{1, 0.1, 1.0 / 3, math.Pi, 1 << 53, 1e15, 1e-300, 5e-324, math.MaxFloat64 / 3} {
		for _, prec := range []int{1, 5, 15, 16, 17, 18, 20} {
			s := strconv.FormatFloat(base, 'e', prec-1, 64)
			f, loss, ok := Float(s)
			if !ok {
				t.Fatalf("Float(%q) not a number", s)
			}
			shortest := strconv.FormatFloat(f, 'e', -1, 64)
			a, _ := parseDecimal(s)
			b, _ := parseDecimal(shortest)
			same := a.digits == b.digits && a.exp == b.exp
			if same != (loss == Exact) {
				t.Errorf("Float(%q): loss %v, shortest %s", s, loss, shortest)
			}
		}
	}
}

// TestFloatLinear: a number of a million digits or an exponent of a
// thousand digits costs one pass.
func TestFloatLinear(t *testing.T) {
	for _, s := range []string{"1" + strings.Repeat("0", 1<<20), "0." + strings.Repeat("0", 1<<20) + "1", "1e" + strings.Repeat("9", 1000), "1e-" + strings.Repeat("9", 1000)} {
		allocs := testing.AllocsPerRun(3, func() { Float(s) })
		if allocs > 4 {
			t.Errorf("Float of %d bytes: %v allocations", len(s), allocs)
		}
	}
}

package quantity

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/invalid"
	"gopkg.in/inf.v0"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The charts compute with float64s: Helm's values are float64s and Sprig's
// float64, mulf and divf go through them (mulf and divf multiply and
// divide the shortest decimals of their float64 arguments exactly, divf
// to 16 places, then round to a float64 again). The upstream templates'
// toFloat reads a quantity as float64(number) times its unit, the
// generated charts' checks read it alike, and the library, which
// computes exactly, reproduces that arithmetic (etcd.SanitizeResources,
// etcd.QuotaBackendBytes). The three agree, input for input, exactly when
// the charts hold the quantity's value V itself, not a neighbour of it:
//
//   - float64(number) is the number written: it is when the number has at
//     most ChartDigits significant digits (a float64 holds 15 decimal
//     digits, DBL_DIG, at every size; at 16 and 17 only some numbers
//     round-trip, in no pattern a user can foresee);
//   - the float64 of V has V as its shortest decimal, which is what mulf
//     and divf compute with: V has at most ChartDigits significant
//     digits. With a decimal suffix V's digits are the number's; with a
//     binary one they are not (999999Gi is 1073740750258176, 16 digits);
//   - V is a whole number of nano-units: Kubernetes rounds a quantity up
//     to one (1.5n is stored as 2n), the charts compute with the fraction;
//   - from 2^53 on, V is a float64: a memory request is the integer of a
//     float64, which for 1234567890123450000 is 1234567890123450112, above
//     its limit, which the API server refuses; below 2^53 every integer is
//     a float64 and every request stays within its limit at a ratio of 1
//     or more (so no request of an admitted limit ever exceeds it);
//   - in Ei, the upstream's unit 0x1p60 goes through Sprig's mulf as its
//     shortest decimal, 1152921504606847000, not 2^60: float64(number ×
//     1152921504606847000) must be the float64 of V. (Whole Ei are never
//     admitted anyway: 1Ei is 1152921504606846976, 19 digits; the upstream
//     chart's request for 7Ei at a ratio of 10 is 807045053224792960, the
//     exact one 807045053224792832.)
//
// ChartRule holds a text to these rules; Check holds a resource.Quantity
// built in Go to those of its value.
const (
	// ChartDigits bounds the significant digits of a quantity's number
	// and of its value.
	ChartDigits = 15
	// DigitsChartRule is the refusal of a number, or a value, of more than
	// ChartDigits significant digits.
	DigitsChartRule = "has more significant digits than the charts' float64 arithmetic holds exactly: at most 15, in its number and in its value (the number times its suffix: 999999Gi is 1073740750258176, 16 digits)"
	// NanoChartRule is the refusal of a value that is not a whole number
	// of nano-units.
	NanoChartRule = "is not a whole number of nano-units (10^-9, the n suffix): Kubernetes rounds it up to one and the charts compute with the fraction, so at most 9 decimals once the suffix is applied (1.5n and 0.0000000001 are refused)"
	// ExactChartRule is the refusal of a value of 2^53 or more that is not
	// a float64.
	ExactChartRule = "is 2^53 (9007199254740992) or more and not a number a float64 holds exactly, as the charts compute with it (1234567890123450000 reads as 1234567890123450112)"
	// EiChartRule is the refusal of an Ei quantity the upstream chart's
	// unit reads as another value.
	EiChartRule = "is in Ei, whose 2^60 the upstream chart's arithmetic reads as 1152921504606847000, which makes this value another float64: write it with a smaller suffix"
)

// upstreamEi is 2^60 as Sprig's mulf reads the upstream's 0x1p60: its
// float64's shortest decimal.
const upstreamEi = 1152921504606847000

// twoTo53 is 2^53: every integer below it is a float64.
var twoTo53 = new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 53))

// ChartRule is the rule of the charts' float64 arithmetic that s breaks,
// "" when the charts compute with its value exactly (see ChartDigits):
// DigitsChartRule, NanoChartRule, ExactChartRule or EiChartRule, checked
// in that order. For a text that breaks a bound it returns Rule's rule:
// the bounds come first, and make the exact arithmetic here cheap (at
// most MaxLength digits, an exponent within MaxExponent).
func ChartRule(s string) string {
	if rule := Rule(s); rule != "" {
		return rule
	}
	t, _ := scan(s)
	digits := significant(strings.TrimLeft(t.mantissa, "+-"))
	if len(digits) > ChartDigits {
		return DigitsChartRule
	}
	// The value: the number's digits as an integer n, times 10^exp
	// (decimal suffixes and the e form) or 2^shift (binary ones).
	n, ok := new(big.Int).SetString("0"+digits, 10)
	if !ok {
		return SyntaxRule // unreachable: scan admits digits only
	}
	exp := digitExponent(t.mantissa)
	shift, binary := binaryShift[t.suffix]
	if !binary {
		if e, ok := decimalSuffixes[t.suffix]; ok {
			exp += e
		} else {
			e, _ := strconv.Atoi(strings.TrimPrefix(t.suffix[1:], "+")) // within MaxExponent
			exp += e
		}
	}
	m := new(big.Int).Lsh(n, uint(shift))
	if rule := valueRule(m, exp); rule != "" {
		return rule
	}
	if t.suffix == "Ei" {
		v := new(big.Rat).Mul(new(big.Rat).SetInt(m), pow10(exp))
		up := new(big.Rat).SetInt(new(big.Int).Mul(n, big.NewInt(upstreamEi)))
		up.Mul(up, pow10(exp))
		if f, _ := up.Float64(); f != atFloat(v) {
			return EiChartRule
		}
	}
	return ""
}

// valueRule is the rule of the charts' arithmetic that the value m·10^exp
// breaks (a sign changes none): its significant digits (m's: the power of
// ten only moves the point), its nano-units, its float64 from 2^53 on, in
// that order. The digits come first: the charts' checks can tell whole
// nano-units from a float64 only of a value they hold exactly.
func valueRule(m *big.Int, exp int) string {
	if m.Sign() == 0 {
		return ""
	}
	digits := strings.TrimLeft(m.String(), "-")
	sig := strings.TrimRight(digits, "0")
	if len(sig) > ChartDigits {
		return DigitsChartRule
	}
	// The value is sig·10^(exp+zeros): whole in nano-units when that
	// exponent is -9 or more.
	if exp+len(digits)-len(sig) < -9 {
		return NanoChartRule
	}
	v := new(big.Rat).Mul(new(big.Rat).SetInt(m), pow10(exp))
	if v.Abs(v).Cmp(twoTo53) >= 0 {
		if _, exact := v.Float64(); !exact {
			return ExactChartRule
		}
	}
	return ""
}

// chartCheck is valueRule of a Go quantity's exact value d, whose digits
// and scale are within the bounds (Check's).
func chartCheck(d *inf.Dec) string {
	u := d.UnscaledBig()
	// The common quantity: at most ChartDigits digits (below 10^12 here),
	// no more than nine decimals, below 2^53 whatever its exponent:
	// admitted without computing.
	if scale := d.Scale(); u.IsInt64() && scale >= -2 && scale <= 9 {
		if a := u.Int64(); a > -1e12 && a < 1e12 {
			return ""
		}
	}
	return valueRule(u, -int(d.Scale()))
}

// ChartCheck is Check followed by the charts' rules of a Go quantity's
// value (ChartRule's, but for the number as written and EiChartRule,
// which concern a text). Every refusal is an *invalid.Error quoting q as
// Check quotes it.
func ChartCheck(field string, q resource.Quantity) error {
	if err := Check(field, q); err != nil {
		return err
	}
	d := q.AsDec() // q is a copy
	if rule := chartCheck(d); rule != "" {
		return invalid.Errorf(field, Quoted(q), "%s", rule)
	}
	return nil
}

// Quoted is a Go quantity within the bounds (ChartCheck admits it) as a
// refusal quotes it, the caller's own value: its String where that reads
// back as it, else its exact decimal (a Go quantity of 1.5e-9 prints as
// "2n", which is another quantity). A Go caller's quantity keeps no text
// of its own; values and flags quote their text, not this.
func Quoted(q resource.Quantity) string {
	if s := q.String(); readsAs(s, q) {
		return s
	}
	d := q.AsDec()
	s := d.String()
	if strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// significant is the significant digits of a number's digits and point:
// without the point and the zeros that lead or trail.
func significant(num string) string {
	return strings.Trim(strings.ReplaceAll(num, ".", ""), "0")
}

// digitExponent is the power of ten that the number's significant digits,
// read as an integer, are multiplied by to give its value: minus the
// digits after the point, plus the trailing zeros dropped.
func digitExponent(mantissa string) int {
	num := strings.TrimLeft(mantissa, "+-")
	whole, frac, _ := strings.Cut(num, ".")
	all := whole + frac
	trimmed := strings.TrimRight(all, "0")
	return len(all) - len(trimmed) - len(frac)
}

// pow10 is 10^e.
func pow10(e int) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(e, -e))), nil)
	if e < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

// atFloat is the float64 nearest v.
func atFloat(v *big.Rat) float64 {
	f, _ := v.Float64()
	return f
}

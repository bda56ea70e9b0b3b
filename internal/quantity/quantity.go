package quantity

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/invalid"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The bounds of an admitted quantity. Every admitted quantity is one the
// API server reads without loss into the int64 that Quantity.Value gives
// (at most 2^63-1: apimachinery caps a binary quantity beyond it at
// 2^63-1, and Value rounds up and overflows beyond it), and none costs
// more than a few microseconds of arithmetic.
const (
	// MaxLength bounds a quantity's text, in bytes: 64 is three times the
	// longest spelling of an int64 and more than any float64 printed by
	// Helm takes ("1.7976931348623157e+308" is 23).
	MaxLength = 64
	// MaxExponent bounds the exponent of the e/E form both ways ("1e99",
	// "5e-99"): with MaxLength characters, no exponent above it spells a
	// quantity of at most Max, and none below it spells one of a nano or
	// more, the least quantity Kubernetes keeps (it rounds smaller ones
	// up).
	MaxExponent = 99
	// Max is the greatest admitted quantity, 2^63-1.
	Max = "9223372036854775807"
)

// The rules of the bounds, as refusals state them.
const (
	// SyntaxRule is the refusal of a text that is no quantity.
	SyntaxRule = "must be a Kubernetes quantity such as 4Gi, 10G or 500000000"
	// RangeRule is the refusal of a quantity beyond Max (either sign).
	RangeRule = "is out of range: a quantity must be at most " + Max + " (2^63-1, the int64 Kubernetes reads it into; apimachinery turns a binary one beyond it, such as 8Ei, into " + Max + ")"
	// LengthRule is the refusal of a text longer than MaxLength.
	LengthRule = "is too long for a quantity: at most 64 characters"
	// ExponentRule is the refusal of an exponent beyond MaxExponent.
	ExponentRule = "has an exponent out of range: a quantity's exponent (e or E) must be between -99 and 99"
	// DigitsRule is the refusal of a Go quantity of more than MaxLength
	// digits.
	DigitsRule = "has more than 64 digits: a quantity must fit 64 characters"
)

// binaryLimit is, for a binary suffix 2^(10k), the digits that decide
// whether m·2^(10k) is beyond Max: limit is 2^(63-10k), below is one less,
// and fraction the digits after the point of 1-2^-(10k) (BinaryLimits
// computes them).
type binaryLimit struct{ limit, below, fraction string }

// binaryLimits are the binary suffixes' limits, by suffix.
var binaryLimits = func() map[string]binaryLimit {
	out := map[string]binaryLimit{}
	for k, suffix := range BinarySuffixes {
		shift := uint(10 * (k + 1))
		limit := new(big.Int).Lsh(big.NewInt(1), 63-shift)
		// 1-2^-s = (2^s-1)·5^s / 10^s: s digits after the point.
		frac := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), shift), big.NewInt(1))
		frac.Mul(frac, new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(shift)), nil))
		digits := frac.String()
		digits = strings.Repeat("0", int(shift)-len(digits)) + digits
		out[suffix] = binaryLimit{limit.String(), new(big.Int).Sub(limit, big.NewInt(1)).String(), strings.TrimRight(digits, "0")}
	}
	return out
}()

// BinarySuffixes are the binary suffixes, 2^10 to 2^60.
var BinarySuffixes = []string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}

// BinaryLimits are the digits that decide, for each binary suffix in the
// order of BinarySuffixes, whether a quantity in it is beyond Max: 2^(63-10k),
// one less, and the digits after the point of 1-2^-(10k). The generated
// charts' check compares with them as Rule does.
func BinaryLimits() (limit, below, fraction []string) {
	for _, s := range BinarySuffixes {
		b := binaryLimits[s]
		limit, below, fraction = append(limit, b.limit), append(below, b.below), append(fraction, b.fraction)
	}
	return limit, below, fraction
}

// decimalSuffixes are the decimal exponents of the SI suffixes.
var decimalSuffixes = map[string]int{
	"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18,
}

// Rule is the rule s breaks, "" when s is a quantity within every bound:
// SyntaxRule when s is no quantity in resource.ParseQuantity's grammar,
// else the first bound it breaks, in this order: its value (at most Max),
// its length (MaxLength), its exponent (MaxExponent). It reads s once,
// with no arithmetic, so a text of any length costs linear time. It is the
// check to run before resource.ParseQuantity, which takes time exponential
// in the digits of a negative exponent ("1e-999999999" never returns) and
// returns quantities whose arithmetic does for a positive one
// ("1e999999999" parses at once and runs out of memory at the first Cmp).
func Rule(s string) string {
	t, ok := scan(s)
	switch {
	case !ok:
		return SyntaxRule
	case t.tooLarge():
		return RangeRule
	case len(s) > MaxLength:
		return LengthRule
	case digitsAbove(t.expDigits, maxExponent):
		return ExponentRule
	}
	return ""
}

// Parse is resource.ParseQuantity of s behind the bounds: s is the text
// of the input field, value what the caller wrote there (the refusal
// quotes it). Every refusal is an *invalid.Error whose rule is Rule's.
func Parse(field string, value any, s string) (resource.Quantity, error) {
	if rule := Rule(s); rule != "" {
		return resource.Quantity{}, invalid.Errorf(field, value, "%s", rule)
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		// scan is ParseQuantity's grammar: unreachable.
		return resource.Quantity{}, invalid.Errorf(field, value, "%s", SyntaxRule)
	}
	return q, nil
}

// maxBits bounds the unscaled value of a Go quantity before it is printed:
// 64 decimal digits take at most 213 bits.
const maxBits = 213

// Check holds a quantity built in Go (an Options field) to the bounds
// Parse holds text to: at most Max in magnitude, at most MaxLength digits,
// an exponent (the negated scale of its decimal form) within MaxExponent.
// Its cost is bounded whatever q holds: q is read as its unscaled digits
// and scale, and compared only once both are bounded. The refusal quotes q
// as those digits and its exponent ("1e999999999"), not as q.String(),
// whose canonical form reads as another number ("10e999999998") and may
// cost the arithmetic the bound is there to avoid.
func Check(field string, q resource.Quantity) error {
	d := q.AsDec() // q is a copy: AsDec changes only it
	u := d.UnscaledBig()
	exp := -int64(d.Scale())
	if u.Sign() == 0 {
		if exp < -MaxExponent || exp > MaxExponent {
			return invalid.Errorf(field, "0e"+strconv.FormatInt(exp, 10), "%s", ExponentRule)
		}
		return nil
	}
	if bits := u.BitLen(); bits > maxBits {
		// Printing its digits would cost what the bound avoids; its
		// size says enough.
		return invalid.Errorf(field, "a number of "+strconv.Itoa(bits)+" bits, e"+strconv.FormatInt(exp, 10), "%s", DigitsRule)
	}
	abs := new(big.Int).Abs(u)
	digits := int64(len(abs.String()))
	text := u.String()
	if exp != 0 {
		text += "e" + strconv.FormatInt(exp, 10)
	}
	// 10^(digits+exp-1) ≤ |q| < 10^(digits+exp), and Max has 19 digits.
	switch place := digits + exp; {
	case place > int64(len(Max)):
		return invalid.Errorf(field, text, "%s", RangeRule)
	case place == int64(len(Max)):
		// |u|·10^exp > Max, with exp at most 19 and at least -digits.
		limit, _ := new(big.Int).SetString(Max, 10)
		if exp >= 0 {
			abs.Mul(abs, new(big.Int).Exp(big.NewInt(10), big.NewInt(exp), nil))
		} else {
			limit.Mul(limit, new(big.Int).Exp(big.NewInt(10), big.NewInt(-exp), nil))
		}
		if abs.Cmp(limit) > 0 {
			return invalid.Errorf(field, text, "%s", RangeRule)
		}
	}
	if digits > MaxLength {
		return invalid.Errorf(field, text, "%s", DigitsRule)
	}
	if exp < -MaxExponent || exp > MaxExponent {
		return invalid.Errorf(field, text, "%s", ExponentRule)
	}
	return nil
}

// scanned is a quantity's text in parts: the digits before and after the
// point, the suffix, and for the e/E form its exponent's sign and digits
// (leading zeros dropped).
type scanned struct {
	whole, fraction string
	suffix          string
	expNegative     bool
	expDigits       string
}

// scan splits s as ParseQuantity's grammar does: [+-] digits [. digits]
// suffix, where the suffix is an SI or binary one or e/E with a signed
// exponent. ok is false for any other text.
func scan(s string) (scanned, bool) {
	var t scanned
	if s == "" {
		return t, false
	}
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	t.whole = s[start:i]
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		t.fraction = s[start:i]
	}
	t.suffix = s[i:]
	// A mantissa of no digit at all ("Mi", "-", ".") is 0, except where
	// ParseQuantity takes its exact path, whose decimal parser refuses it:
	// with Pi or Ei, and with an exponent below -9.
	digitless := t.whole == "" && t.fraction == ""
	if _, ok := decimalSuffixes[t.suffix]; ok {
		return t, true
	}
	if _, ok := binaryLimits[t.suffix]; ok {
		return t, !digitless || (t.suffix != "Pi" && t.suffix != "Ei")
	}
	if len(t.suffix) < 2 || (t.suffix[0] != 'e' && t.suffix[0] != 'E') {
		return t, false
	}
	e := t.suffix[1:]
	if e[0] == '+' || e[0] == '-' {
		t.expNegative = e[0] == '-'
		e = e[1:]
	}
	if e == "" {
		return t, false
	}
	for j := 0; j < len(e); j++ {
		if !isDigit(e[j]) {
			return t, false
		}
	}
	t.expDigits = strings.TrimLeft(e, "0")
	// ParseQuantity reads the exponent as an int64 (then keeps its low 32
	// bits): beyond an int64 it is no quantity.
	if limit := Max; digitsAbove(t.expDigits, limit) && !(t.expNegative && t.expDigits == "9223372036854775808") {
		return t, false
	}
	// Below -9 (the exact path) and within MaxExponent, beyond which the
	// exponent is refused anyway, whatever the low 32 bits ParseQuantity
	// keeps.
	if digitless && t.expNegative && len(t.expDigits) > 1 && !digitsAbove(t.expDigits, maxExponent) {
		return t, false
	}
	return t, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// tooLarge reports whether the quantity is beyond Max in magnitude,
// exactly, from its digits alone (string comparisons the generated
// charts' check makes alike).
func (t scanned) tooLarge() bool {
	whole := strings.TrimLeft(t.whole, "0")
	if b, ok := binaryLimits[t.suffix]; ok {
		// m·2^(10k) > 2^63-1 exactly when floor(m) ≥ 2^(63-10k), or
		// floor(m) is one less and the fraction of m is beyond
		// 1-2^-(10k), whose digits b.fraction holds.
		if atLeast(whole, b.limit) {
			return true
		}
		return whole == b.below && fractionAbove(strings.TrimRight(t.fraction, "0"), b.fraction)
	}
	exp, ok := decimalSuffixes[t.suffix]
	if !ok {
		// An exponent of 10 digits or more is saturated at ±10^9, far
		// beyond any number of digits a text can make up for (values
		// are read with a limit of 16 MiB).
		switch {
		case t.expDigits == "":
			exp = 0
		case len(t.expDigits) > 9:
			exp = 1_000_000_000
		default:
			exp, _ = strconv.Atoi(t.expDigits)
		}
		if t.expNegative {
			exp = -exp
		}
	}
	// The significant digits and the decimal place of the first: the
	// value is 0.digits × 10^place.
	digits := whole + t.fraction
	place := len(whole) + exp
	if whole == "" {
		frac := strings.TrimLeft(t.fraction, "0")
		place = exp - (len(t.fraction) - len(frac))
		digits = frac
	}
	if digits == "" {
		return false // zero
	}
	switch {
	case place > len(Max):
		return true
	case place < len(Max):
		return false
	}
	// floor(value) has as many digits as Max: compare them, then the rest.
	head, rest := digits, ""
	if len(head) > len(Max) {
		head, rest = head[:len(Max)], head[len(Max):]
	}
	head += strings.Repeat("0", len(Max)-len(head))
	return head > Max || (head == Max && strings.TrimRight(rest, "0") != "")
}

// fractionAbove compares the decimal fractions 0.a and 0.b (their digits
// after the point).
func fractionAbove(a, b string) bool {
	n := max(len(a), len(b))
	return a+strings.Repeat("0", n-len(a)) > b+strings.Repeat("0", n-len(b))
}

// maxExponent is MaxExponent's digits.
var maxExponent = strconv.Itoa(MaxExponent)

// digitsAbove compares two decimal integers without leading zeros.
func digitsAbove(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}

// atLeast compares two decimal integers without leading zeros.
func atLeast(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a >= b
}

package quantity

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/invalid"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The bounds of an admitted quantity. Every admitted quantity is one the
// API server reads without loss into the int64 that Quantity.Value gives
// (apimachinery caps a binary quantity beyond 2^63-1 there, and Value
// overflows beyond it), one the charts' float64 arithmetic computes with
// alike (the library reproduces it), and none costs more than
// microseconds.
const (
	// MaxLength bounds a quantity's text, in bytes: 64 is three times the
	// longest spelling of an int64 and more than any float64 printed by
	// Helm takes ("1.7976931348623157e+308" is 23).
	MaxLength = 64
	// MaxExponent bounds the exponent of the e/E form both ways ("1e99",
	// "5e-99"): with MaxLength characters, no exponent above it spells a
	// quantity below 2^63, and none below it spells one of a nano or more,
	// the least quantity Kubernetes keeps (it rounds smaller ones up).
	MaxExponent = 99
	// Max is the greatest whole number admitted: 2^63-513, the greatest
	// whose float64 is below 2^63 (2^63-1 reads as 2^63).
	Max = "9223372036854775295"
)

// limit is 2^63: a quantity whose float64 reaches it is refused.
const limit = 1 << 63

// The rules of the bounds, as refusals state them.
const (
	// SyntaxRule is the refusal of a text that is no quantity.
	SyntaxRule = "must be a Kubernetes quantity such as 4Gi, 10G or 500000000"
	// RangeRule is the refusal of a quantity whose float64 is 2^63 or
	// more in magnitude.
	RangeRule = "is out of range: a quantity must be below 2^63 = 8Ei (the int64 Kubernetes reads it into) as a float64 reads it (as the charts compute), " +
		"so at most " + Max + "; apimachinery would store 8Ei and more as 9223372036854775807"
	// LengthRule is the refusal of a text longer than MaxLength.
	LengthRule = "is too long for a quantity: at most 64 characters"
	// ExponentRule is the refusal of an exponent beyond MaxExponent.
	ExponentRule = "has an exponent out of range: a quantity's exponent (e or E) must be between -99 and 99"
	// DigitsRule is the refusal of a Go quantity of more than MaxLength
	// digits.
	DigitsRule = "has more than 64 digits: a quantity must fit 64 characters"
)

// binaryShift are the binary suffixes' powers of two.
var binaryShift = map[string]int{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}

// decimalSuffixes are the decimal exponents of the SI suffixes.
var decimalSuffixes = map[string]int{
	"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18,
}

// Rule is the rule s breaks, "" when s is a quantity within every bound:
// SyntaxRule when s is no quantity in resource.ParseQuantity's grammar,
// else the first bound it breaks, in this order: its length (MaxLength),
// its exponent (MaxExponent), its value (a float64 below 2^63). It reads
// s once and computes only with float64s of a text of at most MaxLength
// characters, so a text of any length costs linear time. It is the check
// to run before resource.ParseQuantity, which takes time exponential in
// the digits of a negative exponent ("1e-999999999" never returns) and
// returns quantities whose arithmetic does for a positive one
// ("1e999999999" parses at once and runs out of memory at the first Cmp).
func Rule(s string) string {
	t, ok := scan(s)
	switch {
	case !ok:
		return SyntaxRule
	case len(s) > MaxLength:
		return LengthRule
	case len(t.expDigits) > len(strconv.Itoa(MaxExponent)):
		return ExponentRule
	case !(math.Abs(t.float()) < limit):
		return RangeRule
	}
	return ""
}

// Parse is resource.ParseQuantity of s behind the bounds and the charts'
// rules: s is the text of the input field, value what the caller wrote
// there (the refusal quotes it). Every refusal is an *invalid.Error whose
// rule is ChartRule's (which is Rule's for a text beyond the bounds).
func Parse(field string, value any, s string) (resource.Quantity, error) {
	if rule := ChartRule(s); rule != "" {
		return resource.Quantity{}, invalid.Errorf(field, value, "%s", rule)
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		// scan is ParseQuantity's grammar: unreachable.
		return resource.Quantity{}, invalid.Errorf(field, value, "%s", SyntaxRule)
	}
	return q, nil
}

// Number is the rule a number of a values file (the float64 Helm holds)
// breaks as a quantity, "" when it keeps the range: checked before the
// number is spelled as a quantity, so that a number of 300 digits is
// refused for its value, not for the length of its spelling.
func Number(f float64) string {
	if !(math.Abs(f) < limit) {
		return RangeRule
	}
	return ""
}

// maxBits bounds the unscaled value of a Go quantity before it is printed:
// 64 decimal digits take at most 213 bits.
const maxBits = 213

// Check holds a quantity built in Go (an Options field) to the bounds
// Parse holds text to: at most MaxLength digits, an exponent (the negated
// scale of its decimal form) within MaxExponent (a zero's within
// MaxExponent+MaxLength), a float64 below 2^63.
// Its cost is bounded whatever q holds: q is read as its unscaled digits
// and scale, and computed with only once both are bounded. A quantity
// beyond the range is quoted as q.String() prints it, the caller's own
// form of it ("10E"; "9223372036854775807", which ParseQuantity makes of
// "8Ei"); one beyond the digits or the exponent bound as its digits and
// exponent ("1e999999999"), since its canonical form misreads it
// ("10e999999998", or "10" for 1e-200) and may cost the arithmetic the
// bound is there to avoid; beyond maxBits it names their number.
func Check(field string, q resource.Quantity) error {
	d := q.AsDec() // q is a copy: AsDec changes only it
	u := d.UnscaledBig()
	exp := -int64(d.Scale())
	bits := u.BitLen()
	// The common quantity: below 2^62 (a bit for each power of ten up
	// to 4), so within every bound, and the render's hot path allocates
	// nothing more for it.
	if exp >= -MaxExponent && exp <= MaxExponent && int64(bits)+4*max(exp, 0) <= 62 {
		return nil
	}
	if bits > maxBits {
		// Printing its digits would cost what the bound avoids; its
		// size says enough.
		return invalid.Errorf(field, "a number of "+strconv.Itoa(bits)+" bits, e"+strconv.FormatInt(exp, 10), "%s", DigitsRule)
	}
	text := u.String()
	if exp != 0 {
		text += "e" + strconv.FormatInt(exp, 10)
	}

	// A zero's scale is what its text gave (".00e-98" parses to 0 at a
	// scale of 100): any an admitted text gives is within MaxExponent plus
	// MaxLength digits.
	bound := int64(MaxExponent)
	if u.Sign() == 0 {
		bound += MaxLength
	}
	switch {
	case len(strings.TrimPrefix(u.String(), "-")) > MaxLength:
		return invalid.Errorf(field, text, "%s", DigitsRule)
	case exp < -bound || exp > bound:
		return invalid.Errorf(field, text, "%s", ExponentRule)
	}
	// The float64 nearest the exact value, as ParseFloat of text gives.
	r := new(big.Rat).SetInt(u)
	p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(max(exp, -exp)), nil))
	if exp < 0 {
		r.Quo(r, p)
	} else {
		r.Mul(r, p)
	}
	if f, _ := r.Float64(); !(math.Abs(f) < limit) {
		// Within the digits and the exponent bounds, q's String is
		// cheap; it is quoted where it reads back as q.
		if s := q.String(); readsAs(s, q) {
			text = s
		}
		return invalid.Errorf(field, text, "%s", RangeRule)
	}
	return nil
}

// scanned is a quantity's text in parts: its mantissa (sign, digits and
// point), the suffix, and for the e/E form its exponent's digits (leading
// zeros dropped).
type scanned struct {
	mantissa, suffix, expDigits string
}

// scan splits s as the quantity grammar does: [+-] digits [. digits]
// suffix, where the suffix is an SI or binary one or e/E with a signed
// exponent. ok is false for any other text, and for a mantissa of no
// digit at all: the grammar (resource.Quantity's doc, the CRDs' quantity
// pattern the API server checks) needs one, though ParseQuantity reads
// "Mi", "m", "-", "+" and "." as 0 (off its exact path), which silently
// drops a limit a user meant to write ("memory: Mi").
func scan(s string) (scanned, bool) {
	var t scanned
	if s == "" {
		return t, false
	}
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	digits := false
	for i < len(s) && (isDigit(s[i]) || s[i] == '.') {
		digits = digits || s[i] != '.'
		i++
	}
	t.mantissa, t.suffix = s[:i], s[i:]
	if !digits || strings.Count(t.mantissa, ".") > 1 {
		return t, false
	}
	if _, ok := decimalSuffixes[t.suffix]; ok {
		return t, true
	}
	if _, ok := binaryShift[t.suffix]; ok {
		return t, true
	}
	if len(t.suffix) < 2 || (t.suffix[0] != 'e' && t.suffix[0] != 'E') {
		return t, false
	}
	e := t.suffix[1:]
	negative := e[0] == '-'
	if e[0] == '+' || negative {
		e = e[1:]
	}
	if e == "" || strings.TrimLeft(e, "0123456789") != "" {
		return t, false
	}
	t.expDigits = strings.TrimLeft(e, "0")
	return t, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// float is the quantity as the charts' float64 arithmetic reads it (sprig's
// float64 is strconv.ParseFloat; a binary suffix multiplies by its power
// of two exactly): the mantissa with the SI exponent, or times 2^(10k).
// It needs the bounds on the length and the exponent: then no float64
// overflows.
func (t scanned) float() float64 {
	if shift, ok := binaryShift[t.suffix]; ok {
		f, _ := strconv.ParseFloat(t.mantissa, 64)
		return math.Ldexp(f, shift)
	}
	text := t.mantissa + t.suffix
	if exp, ok := decimalSuffixes[t.suffix]; ok {
		text = t.mantissa + "e" + strconv.Itoa(exp)
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0
	}
	return f
}

// readsAs reports whether s, a quantity's canonical text, parses back as q.
func readsAs(s string, q resource.Quantity) bool {
	back, err := resource.ParseQuantity(s)
	return err == nil && back.Cmp(q) == 0
}

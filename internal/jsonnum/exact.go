package jsonnum

import (
	"fmt"
	"math"
	"strconv"
)

// Loss says how the float64 a decoder reads from a number's text differs
// from the number the text spells.
type Loss int

const (
	// Exact: the float64's shortest decimal (strconv's 'g', -1) is the
	// number the text spells, so printing the float64 gives the number
	// back ("0.1", "1e21", "5e-324").
	Exact Loss = iota
	// NegativeZero: the text is a zero with a minus sign ("-0", "-0.0");
	// a YAML integer reads as 0 and a float as -0, so which one a reader
	// holds depends on the spelling, not on the number.
	NegativeZero
	// Underflow: the text spells a number other than zero that is nearer
	// to zero than the least float64 (about 4.9e-324): it reads as 0.
	Underflow
	// Overflow: the text spells a number beyond the greatest float64
	// (about 1.8e308): it reads as an infinity.
	Overflow
	// Digits: the text has more significant digits than a float64 holds
	// ("3.0000000000000000001", "9007199254740993"): it reads as another
	// number.
	Digits
)

// The rules of the losses, as refusals state them (the generated charts
// print the same from constants.json).
const (
	ruleTail = "; write a number a float64 holds as written (at most 15 significant digits, between 1e-307 and 1e308 in size)"
	// NegativeZeroRule is the refusal of a negative zero.
	NegativeZeroRule = "is a negative zero, which a float64 keeps apart from 0 only by its sign and a YAML integer not at all; write 0"
	// UnderflowRule is the refusal of a number too close to zero.
	UnderflowRule = "is too close to zero for a float64 (the least is about 4.9e-324): it reads as 0" + ruleTail
	// OverflowRule is the refusal of a number too large.
	OverflowRule = "is too large for a float64 (the greatest is about 1.8e308): it reads as infinity" + ruleTail
	// DigitsRuleFormat is the refusal of a number of too many digits,
	// for fmt.Sprintf with what it reads as.
	DigitsRuleFormat = "has more significant digits than a float64 holds: it reads as %s" + ruleTail
)

// Rule is the refusal of a number with this loss, for an *invalid.Error:
// reading is the float64 a reader holds of it (Helm, its charts, a JSON or
// YAML decoder; the library reproduces their arithmetic).
func (l Loss) Rule(reading float64) string {
	switch l {
	case NegativeZero:
		return NegativeZeroRule
	case Underflow:
		return UnderflowRule
	case Overflow:
		return OverflowRule
	case Digits:
		return fmt.Sprintf(DigitsRuleFormat, strconv.FormatFloat(reading, 'g', -1, 64))
	}
	return ""
}

// Float reads s, a decimal number ([+-] digits [. digits] [(e|E) [+-]
// digits], as strconv.ParseFloat reads decimals; JSON's numbers among
// them), as a float64, and says what the float64 loses of it. ok is false
// when s is no such number. It costs one pass over s and no arithmetic
// beyond strconv.ParseFloat, whatever the exponent.
func Float(s string) (f float64, loss Loss, ok bool) {
	d, ok := parseDecimal(s)
	if !ok {
		return 0, Exact, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRange(err) {
		return 0, Exact, false
	}
	switch {
	case d.digits == "":
		if d.negative {
			return f, NegativeZero, true
		}
		return f, Exact, true
	case math.IsInf(f, 0):
		return f, Overflow, true
	case f == 0:
		return f, Underflow, true
	}
	g, _ := parseDecimal(strconv.FormatFloat(f, 'e', -1, 64))
	if g.digits != d.digits || g.exp != d.exp {
		return f, Digits, true
	}
	return f, Exact, true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// decimal is a decimal number as 0.digits × 10^exp: digits without
// leading or trailing zeros ("" for zero).
type decimal struct {
	negative bool
	digits   string
	exp      int64
}

// maxExp saturates an exponent's value: any beyond it is out of a
// float64's range by far, with any number of digits s can hold.
const maxExp = 1 << 40

// parseDecimal reads s as a decimal. It allocates only when the digits
// run across the point.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		d.negative = s[i] == '-'
		i++
	}
	intStart := i
	i = digits(s, i)
	intPart := s[intStart:i]
	var frac string
	if i < len(s) && s[i] == '.' {
		fracStart := i + 1
		i = digits(s, fracStart)
		frac = s[fracStart:i]
	}
	if intPart == "" && frac == "" {
		return d, false
	}
	var exp int64
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		neg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			neg = s[i] == '-'
			i++
		}
		start := i
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if exp < maxExp {
				exp = exp*10 + int64(s[i]-'0')
			}
		}
		if i == start {
			return d, false
		}
		if neg {
			exp = -exp
		}
	}
	if i != len(s) {
		return d, false
	}
	// The significant digits: intPart+frac without leading and trailing
	// zeros; the exponent of 0.digits is exp + len(intPart) - leading.
	all := intPart + frac // no copy when frac is empty
	lead := 0
	for lead < len(all) && all[lead] == '0' {
		lead++
	}
	if lead == len(all) {
		return d, true // zero
	}
	end := len(all)
	for all[end-1] == '0' {
		end--
	}
	d.digits = all[lead:end]
	d.exp = exp + int64(len(intPart)) - int64(lead)
	return d, true
}

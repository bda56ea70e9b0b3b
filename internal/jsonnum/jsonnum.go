// Package jsonnum reads numbers in JSON's grammar (RFC 8259, section 6),
// for the parsers that check or copy a number's text as written: the
// YAML printer's JSON reader and encoder, and the values decoder.
package jsonnum

// Scan reads the number in JSON's grammar at the start of s. It returns
// the number's length (0 where s does not start with one), how many digits
// its integer part has, and whether it is an integer: no fraction and no
// exponent. A '.', 'e' or 'E' after the integer part without the digits it
// needs makes it no number (0: "1.", "1e+"); anything else may follow. A
// whole string is a number where n == len(s) and n > 0.
func Scan[T ~string | ~[]byte](s T) (n, intDigits int, integer bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	intStart := i
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i+1)
	default:
		return 0, 0, false
	}
	intDigits, integer = i-intStart, true
	if i < len(s) && s[i] == '.' {
		start := i + 1
		if i = digits(s, start); i == start {
			return 0, 0, false
		}
		integer = false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		if i = digits(s, i); i == start {
			return 0, 0, false
		}
		integer = false
	}
	return i, intDigits, integer
}

// Is reports whether the whole of s is a number in JSON's grammar.
func Is[T ~string | ~[]byte](s T) bool {
	n, _, _ := Scan(s)
	return n > 0 && n == len(s)
}

// digits returns the end of the run of decimal digits that starts at s[i].
func digits[T ~string | ~[]byte](s T, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// Package yamlnum is the number grammar YAML readers apply to a plain
// scalar, written as scans without a regexp: the YAML printer uses it to
// decide what to quote, and package invalid to decide whether a value in a
// refusal can be printed plain.
package yamlnum

import (
	"strconv"
	"strings"
	"time"
)

// Float is yaml.v2's yamlStyleFloat,
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$, without a regexp.
func Float(s string) bool {
	i := 0
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// Decimal is the number yaml.v2 (Helm's YAML reader, through
// sigs.k8s.io/yaml) reads from the plain scalar s, as a decimal that
// jsonnum.Float reads: s itself for a float ("1.5", ".5", "+1e3"), the
// integer's decimal digits for an integer ("0x10" is "16", "1_000" is
// "1000", "017" is "15", as yaml.v2 reads them), with the sign of a
// negative zero kept ("-0"). ok is false for what yaml.v2 reads as
// anything but a finite number: a string, a boolean, null, a timestamp,
// .inf or .nan. It follows yaml.v2's resolve (resolve.go, v2.4.4).
func Decimal(s string) (decimal string, ok bool) {
	if s == "" {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		// No number of any base holds another byte (a timestamp's ':'
		// or 'T', a word): refused before any parsing.
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || strings.IndexByte("+-._xXoO", c) >= 0) {
			return "", false
		}
	}
	switch c := s[0]; {
	case c == '.':
		if isSpecial(s) {
			return "", false
		}
		// yaml.v2 tries strconv.ParseFloat of the text as it is.
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return "", false
		}
		return s, true
	case c == '+' || c == '-' || c >= '0' && c <= '9':
	default:
		return "", false
	}
	if isSpecial(s) || isTimestamp(s) {
		return "", false
	}
	plain := strings.ReplaceAll(s, "_", "")
	negative := plain != "" && plain[0] == '-'
	if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
		if i == 0 && negative {
			return "-0", true
		}
		return strconv.FormatInt(i, 10), true
	}
	if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return strconv.FormatUint(u, 10), true
	}
	if Float(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return plain, true
		}
		return "", false
	}
	if strings.HasPrefix(plain, "0b") {
		if i, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
			return strconv.FormatInt(i, 10), true
		}
		if u, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
			return strconv.FormatUint(u, 10), true
		}
	} else if strings.HasPrefix(plain, "-0b") {
		if i, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
			if i == 0 {
				return "-0", true
			}
			return strconv.FormatInt(i, 10), true
		}
	}
	return "", false
}

// isSpecial reports whether s is one of yaml.v2's resolveMap entries that
// start like a number: the infinities and NaN.
func isSpecial(s string) bool {
	switch s {
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
		return true
	}
	return false
}

// isTimestamp reports whether yaml.v2 reads the plain scalar s as a
// timestamp (YYYY-...): its parseTimestamp, on the formats it tries.
func isTimestamp(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, f := range [...]string{"2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00", "2006-1-2 15:4:5.999999999", "2006-1-2"} {
		if _, err := time.Parse(f, s); err == nil {
			return true
		}
	}
	return false
}

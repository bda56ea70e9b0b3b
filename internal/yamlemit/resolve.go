package yamlemit

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/etcdshapes/etcdshapes/internal/yamlnum"
)

// This file is yaml.v2's resolve (go.yaml.in/yaml/v2 resolve.go) reduced to
// the one question its encoder asks of a string: would the string, printed
// unquoted, read back as something else (a bool, null, a number, a
// timestamp)? If so yaml.v2 quotes it.

// resolveHint is yaml.v2's resolveTable: the first byte of a plain scalar
// that may be something other than a string.
var resolveHint = func() (t [256]byte) {
	t['+'], t['-'] = 'S', 'S'
	for c := '0'; c <= '9'; c++ {
		t[c] = 'D'
	}
	for _, c := range "yYnNtTfFoO~" {
		t[c] = 'M'
	}
	t['.'] = '.'
	return t
}()

// resolveMapped are the keys of yaml.v2's resolveMap: every one resolves to
// a bool, null, a float or the merge key, none to a string.
func resolveMapped(s []byte) bool {
	switch string(s) {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
		"", "~", "null", "Null", "NULL",
		".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
		"-.inf", "-.Inf", "-.INF", "<<":
		return true
	}
	return false
}

// plainIsString is yaml.v2's canUsePlain for an untagged string:
// resolve("", s) yields !!str and s is not a base 60 float.
func plainIsString(s []byte) bool {
	if len(s) == 0 {
		return false // null
	}
	hint := resolveHint[s[0]]
	if hint == 0 {
		return true
	}
	if resolveMapped(s) {
		return false
	}
	switch hint {
	case 'M':
		return true
	case '.':
		_, err := strconv.ParseFloat(string(s), 64)
		return err != nil
	}
	// 'D' or 'S': int, float or timestamp.
	if isTimestamp(s) {
		return false
	}
	plain := string(s)
	if strings.IndexByte(plain, '_') >= 0 {
		plain = strings.ReplaceAll(plain, "_", "")
	}
	if mayParseInt(plain) {
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return false
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return false
		}
	}
	if yamlnum.Float(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return false
		}
	}
	if strings.HasPrefix(plain, "0b") {
		if _, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
			return false
		}
		if _, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
			return false
		}
	} else if strings.HasPrefix(plain, "-0b") {
		if _, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
			return false
		}
	}
	return !isBase60Float(s)
}

// mayParseInt is false for text strconv.ParseInt and ParseUint (base 0)
// certainly refuse, which spares the error they allocate for "500m" or
// "4Gi".
func mayParseInt(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i == len(s) {
		return false
	}
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F',
			c == 'x', c == 'X', c == 'o', c == 'O':
		default:
			return false
		}
	}
	return true
}

// base60float is yaml.v2's: such strings are quoted for other parsers.
var base60float = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)

func isBase60Float(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	c := s[0]
	if !(c == '+' || c == '-' || c >= '0' && c <= '9') || strings.IndexByte(string(s), ':') < 0 {
		return false
	}
	return base60float.Match(s)
}

// timestampFormats are yaml.v2's allowedTimestampFormats.
var timestampFormats = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// isTimestamp is yaml.v2's parseTimestamp, reporting success only.
func isTimestamp(s []byte) bool {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, format := range timestampFormats {
		if _, err := time.Parse(format, string(s)); err == nil {
			return true
		}
	}
	return false
}

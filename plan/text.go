package plan

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// How WriteText shortens values: a value's compact JSON longer than
// showMax bytes is cut. A change shows, of each side, the window where the
// two differ (the common start and end elided as "…"), so that two sides
// that differ never print alike; a changed element of a list of objects
// is shown field by field, down to the fields that differ.
const (
	// showMax is the most bytes of a value a line shows.
	showMax = 100
	// contextBefore and contextAfter are the bytes of the common start
	// and end a window keeps around the difference; the start reaches
	// back to the key the difference is in where that is near
	// (keyReach).
	contextBefore = 20
	contextAfter  = 20
	keyReach      = 48
	// minWindow is the least of the difference a window shows, whatever
	// the context costs.
	minWindow = 24
)

// ellipsis marks what a shortened value leaves out.
const ellipsis = "…"

// valueJSON is a value's compact JSON (sorted keys, "<" and ">" as they
// are), "<none>" for an absent one, with every string (a key or a value)
// quoted as strconv.Quote quotes it: the escapes of invalid.FormatValue,
// which quotes the values of the findings' messages, so that a value a
// plan prints twice (on a ~ line and in a finding about it) reads alike
// ("\x1b", where JSON writes "\u001b"), and an invalid byte shows as
// itself where JSON would print U+FFFD for any.
func valueJSON(v any) string {
	if v == nil {
		return "<none>"
	}
	var b strings.Builder
	writeValue(&b, v)
	return b.String()
}

// writeValue is valueJSON of v into b.
func writeValue(b *strings.Builder, v any) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		b.WriteString(strconv.Quote(t))
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			writeValue(b, t[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			writeValue(b, e)
		}
		b.WriteByte(']')
	default:
		// Numbers, booleans, json.Number: their JSON.
		js, err := json.Marshal(t)
		if err != nil {
			fmt.Fprint(b, t)
			return
		}
		b.Write(js)
	}
}

// show prints a value as compact JSON, shortened for one line (cut at a
// character, marked with "…").
func show(v any) string {
	s := valueJSON(v)
	if len(s) <= showMax {
		return s
	}
	return s[:runeStart(s, showMax-len(ellipsis))] + ellipsis
}

// runeStart is the greatest index at most i that starts a character of s
// (or len(s)).
func runeStart(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// runeEnd is the least index at least i that starts a character of s (or
// len(s)).
func runeEnd(s string, i int) int {
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}

// showPair prints the two sides of a changed value, live first, so that
// they differ where the values do: whole when both fit a line; otherwise
// each side's window from the first to the last byte where they differ,
// with some of the common start and end around it and the rest elided.
// Both windows begin at the same byte of the common start, and the first
// byte after it differs (or one side ends there), so the two never print
// alike.
func showPair(live, desired any) (string, string) {
	l, d := valueJSON(live), valueJSON(desired)
	if l == d {
		// The JSON forms agree (an integer and a float of one value):
		// the floats print with a decimal point, or else the Go types
		// tell them apart.
		l, d = valueJSON(markFloats(live)), valueJSON(markFloats(desired))
		if l == d {
			return fmt.Sprintf("%s (%T)", show(live), live), fmt.Sprintf("%s (%T)", show(desired), desired)
		}
	}
	if len(l) <= showMax && len(d) <= showMax {
		return l, d
	}
	// The common start, to a character both sides start there.
	p := 0
	for p < len(l) && p < len(d) && l[p] == d[p] {
		p++
	}
	for p > 0 && (p < len(l) && !utf8.RuneStart(l[p]) || p < len(d) && !utf8.RuneStart(d[p])) {
		p--
	}
	// The common end, not overlapping the common start on either side,
	// beginning at a character.
	s := 0
	for s < len(l)-p && s < len(d)-p && l[len(l)-1-s] == d[len(d)-1-s] {
		s++
	}
	for s > 0 && !utf8.RuneStart(l[len(l)-s]) {
		s--
	}
	from := windowStart(l, p)
	return window(l, from, p, len(l)-s), window(d, from, p, len(d)-s)
}

// windowStart is where the window of a difference at p begins in s (the
// common start, the same on both sides): at the key the difference is in
// when it begins within keyReach bytes, else contextBefore bytes before
// p; 0 when that leaves next to nothing out.
func windowStart(s string, p int) int {
	lo := max(0, p-keyReach)
	from := runeStart(s, max(0, p-contextBefore))
	if k := max(strings.LastIndex(s[lo:p], `,"`), strings.LastIndex(s[lo:p], `{"`)); k >= 0 {
		from = lo + k + 1
	}
	if from <= len(ellipsis) {
		return 0
	}
	return from
}

// window prints s from from to the end of the difference (diffEnd, where
// the common end begins) and contextAfter bytes of the common end, "…"
// marking what it leaves out: the difference itself is cut where the line
// runs out (showMax), at no less than minWindow bytes.
func window(s string, from, p, diffEnd int) string {
	var b strings.Builder
	if from > 0 {
		b.WriteString(ellipsis)
	}
	budget := max(showMax-(p-from)-2*len(ellipsis), minWindow)
	if diffEnd-p > budget {
		b.WriteString(s[from:runeStart(s, p+budget)])
		b.WriteString(ellipsis)
		return b.String()
	}
	to := runeEnd(s, min(len(s), diffEnd+contextAfter))
	if len(s)-to <= len(ellipsis) {
		to = len(s)
	}
	b.WriteString(s[from:to])
	if to < len(s) {
		b.WriteString(ellipsis)
	}
	return b.String()
}

// markFloats is v with its whole floats spelled with a decimal point
// ("3.0"), which JSON spells as integers.
func markFloats(v any) any {
	switch t := v.(type) {
	case float64:
		if t == math.Trunc(t) && !math.IsInf(t, 0) {
			return json.Number(strconv.FormatFloat(t, 'f', 1, 64))
		}
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = markFloats(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = markFloats(e)
		}
		return out
	}
	return v
}

// diffLine is a line of a changed value: a field or element below the
// change (label, such as "[0].topologyKey") added (+), removed (-) or
// changed (~), with the sides' printed values.
type diffLine struct {
	mark, label, live, desired string
}

// diffLines describes how desired differs from live, labelled label: one
// line when both fit it; otherwise object by object and, for lists of the
// same length, element by element, down to the values that differ, each
// shown with showPair.
func diffLines(label string, live, desired any) []diffLine {
	lj, dj := valueJSON(live), valueJSON(desired)
	if len(lj) <= showMax && len(dj) <= showMax {
		l, d := showPair(live, desired)
		return []diffLine{{"~", label, l, d}}
	}
	var out []diffLine
	switch l := live.(type) {
	case map[string]any:
		d, ok := desired.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(l)+len(d))
		for k := range l {
			keys = append(keys, k)
		}
		for k := range d {
			if _, both := l[k]; !both {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			lv, lok := l[k]
			dv, dok := d[k]
			sub := label + "." + fieldLabel(k)
			switch {
			case !lok:
				out = append(out, diffLine{"+", sub, "", show(dv)})
			case !dok:
				out = append(out, diffLine{"-", sub, show(lv), ""})
			case canonicalJSON(lv) != canonicalJSON(dv):
				out = append(out, diffLines(sub, lv, dv)...)
			}
		}
		return out
	case []any:
		d, ok := desired.([]any)
		if !ok || len(d) != len(l) {
			break
		}
		for i := range l {
			if canonicalJSON(l[i]) != canonicalJSON(d[i]) {
				out = append(out, diffLines(fmt.Sprintf("%s[%d]", label, i), l[i], d[i])...)
			}
		}
		return out
	}
	l, d := showPair(live, desired)
	return []diffLine{{"~", label, l, d}}
}

// fieldLabel is a map key as a label prints it: as it is when it is a
// plain name, quoted otherwise (a key with a dot, a space or a bracket).
func fieldLabel(k string) string {
	for _, r := range k {
		if !(r == '_' || r == '-' || r == '/' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return strconv.Quote(k)
		}
	}
	if k == "" {
		return `""`
	}
	return k
}

// writeDiffLines writes lines at indent.
func writeDiffLines(w io.Writer, indent string, lines []diffLine) {
	for _, l := range lines {
		switch l.mark {
		case "+":
			textf(w, "%s+ %s: %s\n", indent, l.label, l.desired)
		case "-":
			textf(w, "%s- %s: %s\n", indent, l.label, l.live)
		default:
			textf(w, "%s~ %s: %s -> %s\n", indent, l.label, l.live, l.desired)
		}
	}
}

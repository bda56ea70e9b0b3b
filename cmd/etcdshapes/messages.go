package main

import (
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/invalid"
)

// Every line the command prints on stderr goes through sayf or sayErr,
// which escape what they print with invalid.Escape: a key, a value, a path,
// a flag's value or a live object's name holding a newline, ESC (an OSC 52
// clipboard write), a C1 or bidirectional control is shown escaped ("\n",
// "\x1b", "\u202e"), never written to the terminal as it is, and never
// starts a line that reads like one etcdshapes printed.

// sayf prints one line "etcdshapes: <message>" on w, the message formatted
// as fmt.Sprintf formats it and escaped whole (its format is ours, so only
// the arguments' text changes).
func sayf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "etcdshapes: %s\n", invalid.Escape(fmt.Sprintf(format, args...)))
}

// sayErr prints err on w one line at a time, each after "etcdshapes: ": a
// list of refusals a refusal a line (see invalid.Lines), every line escaped.
func sayErr(w io.Writer, err error) {
	for _, line := range invalid.Lines(err) {
		fmt.Fprintf(w, "etcdshapes: %s\n", line)
	}
}

// escapeJSON rewrites, in JSON that encoding/json wrote, every character
// invalid.Escape would rewrite and encoding/json leaves as it is (DEL, the
// C1 controls, the bidirectional controls, other format characters) as a
// \uXXXX escape: the same JSON value, safe on a terminal. encoding/json
// already escapes the C0 controls and U+2028/U+2029 and writes U+FFFD for
// bytes that are not UTF-8; outside strings JSON holds only ASCII.
func escapeJSON(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf && c != 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if c != 0x7f && invalid.Escape(string(b[i:i+n])) == string(b[i:i+n]) {
			i += n
			continue
		}
		out = append(out, b[last:i]...)
		if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
			out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += n
		last = i
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

package invalid_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/require"
)

// terminalSafe reports the first character of s a terminal or a log
// reader could take for something else than text: a C0 control (a line
// break too: s is one line), DEL, a C1 control, a line or paragraph
// separator, a bidirectional control, or a byte that is not UTF-8.
func terminalSafe(s string) (bad string, ok bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"),
			r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f,
			r == 0x2028, r == 0x2029, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
			r == 0x200e, r == 0x200f, r == 0x061c:
			return fmt.Sprintf("%q at byte %d", string(r), i), false
		}
	}
	return "", true
}

// TestEscape: every character strconv.Quote escapes is escaped as it
// escapes it; printable text (any script, the space, \ and ") is kept.
func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"values.size", "values.size"},
		{`C:\dir "x" 'y'`, `C:\dir "x" 'y'`},
		{"жёлтый 黄色 🟡", "жёлтый 黄色 🟡"},
		{"a\x1b]52;c;aGVsbG8=\x07b", `a\x1b]52;c;aGVsbG8=\ab`},
		{"x\netcdshapes: rendered 24 objects, all checks passed", `x\netcdshapes: rendered 24 objects, all checks passed`},
		{"\r\t\v\f\b\x00\x7f", `\r\t\v\f\b\x00\x7f`},
		{"\u0085\u009b", `\u0085\u009b`},
		{"\u2028\u2029", `\u2028\u2029`},
		{"abc\u202edef\u2066\u2069", `abc\u202edef\u2066\u2069`},
		{"\u200b\ufeff", `\u200b\ufeff`}, // zero-width: format characters
		{"\xff\xfe ok \xe2\x80", `\xff\xfe ok \xe2\x80`},
		{"\uFFFD", "\uFFFD"}, // the replacement character itself is printable
		{"\U000e0001", `\U000e0001`},
	} {
		got := invalid.Escape(c.in)
		require.Equal(t, c.want, got, "%q", c.in)
		require.Equal(t, got, invalid.Escape(got), "escaping twice changes nothing")
	}
	// Against strconv.Quote, for every rune of the Basic Multilingual Plane
	// and some beyond, and every byte.
	for r := rune(0); r < 0x30000; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		s := "a" + string(r) + "b"
		want := strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(strconv.Quote(s))
		want = want[1 : len(want)-1]
		if got := invalid.Escape(s); got != want {
			t.Fatalf("%U: %q, want %q", r, got, want)
		}
		if _, ok := terminalSafe(invalid.Escape(s)); !ok {
			t.Fatalf("%U: escaped to %q", r, invalid.Escape(s))
		}
	}
	for b := 0; b < 256; b++ {
		if bad, ok := terminalSafe(invalid.Escape(string([]byte{byte(b)}))); !ok {
			t.Fatalf("byte %#x: %s", b, bad)
		}
	}
	// Nothing to escape: s itself, not a copy.
	s := strings.Repeat("ok ", 1000)
	require.Zero(t, testing.AllocsPerRun(10, func() { _ = invalid.Escape(s) }))
}

// TestErrorEscapes: an *Error's message is one line of printable text
// whatever its field, value and rule hold, for the Go API as for the CLI.
func TestErrorEscapes(t *testing.T) {
	hostile := "a\x1b]52;c;aGVsbG8=\x07\netcdshapes: rendered 24 objects, all checks passed\u202e\u0085\x7f\xff"
	for _, e := range []*invalid.Error{
		{Field: hostile, Value: 1, Rule: "r"},
		{Field: "f", Value: hostile, Rule: "r"},
		{Field: "f", Value: map[string]any{hostile: []any{hostile}}, Rule: "r"},
		{Field: "f", Value: errors.New(hostile), Rule: "r"},
		{Field: "f", Value: []byte(hostile), Rule: "r"},
		{Field: "f", Value: stringer(hostile), Rule: "r"},
		{Field: "f", Value: 1, Rule: "must be YAML: " + hostile},
		{Field: strings.Repeat("\x1b", 1000), Value: strings.Repeat("\u202e", 1000), Rule: strings.Repeat("\n", 5000)},
	} {
		msg := e.Error()
		bad, ok := terminalSafe(msg)
		require.True(t, ok, "%s in %q", bad, msg)
		require.NotContains(t, msg, "\n")
		// Bounded: each part at most 4 times its limit once escaped.
		require.LessOrEqual(t, len(msg), 4*(200+1000)+200)
		l := invalid.List{e, e}
		require.Len(t, strings.Split(l.Error(), "\n"), 2, "a List is one line a refusal")
	}
}

type stringer string

func (s stringer) String() string { return string(s) }

// TestLines: an error's lines are those its structure gives (a List's
// refusals, errors.Join's errors, under a wrapping prefix too), each
// escaped; a line break anywhere else is escaped.
func TestLines(t *testing.T) {
	e1 := &invalid.Error{Field: "a\nb", Value: 1, Rule: "r"}
	e2 := &invalid.Error{Field: "c", Value: "x\ny", Rule: "r"}
	io := errors.New("open /tmp/x\ny\x1b: no such file")
	for _, c := range []struct {
		err  error
		want []string
	}{
		{nil, nil},
		{e1, []string{`a\nb: invalid value 1: r`}},
		{invalid.List{e1, e2}, []string{`a\nb: invalid value 1: r`, `c: invalid value "x\ny": r`}},
		{io, []string{`open /tmp/x\ny\x1b: no such file`}},
		{errors.Join(invalid.List{e1, e2}, io), []string{`a\nb: invalid value 1: r`, `c: invalid value "x\ny": r`, `open /tmp/x\ny\x1b: no such file`}},
		{fmt.Errorf("reading f\x1b: %w", errors.Join(e1, io)), []string{`reading f\x1b: a\nb: invalid value 1: r`, `open /tmp/x\ny\x1b: no such file`}},
		{fmt.Errorf("%w and %w", e1, e2), []string{`a\nb: invalid value 1: r and c: invalid value "x\ny": r`}},
		{fmt.Errorf("lines:\n%w", e1), []string{`lines:\na\nb: invalid value 1: r`}},
	} {
		require.Equal(t, c.want, invalid.Lines(c.err), "%v", c.err)
		safe := invalid.Safe(c.err)
		if c.err == nil {
			require.NoError(t, safe)
			continue
		}
		require.Equal(t, strings.Join(c.want, "\n"), safe.Error())
		if _, list := c.err.(invalid.List); !list { // a slice: errors.Is cannot compare it
			require.ErrorIs(t, safe, c.err)
		}
		for _, line := range strings.Split(safe.Error(), "\n") {
			bad, ok := terminalSafe(line)
			require.True(t, ok, "%s in %q", bad, line)
		}
	}
	var none *invalid.Error
	require.Equal(t, []string{"<nil>"}, invalid.Lines(none), "a nil refusal, as a List prints it")
	// Safe keeps an error whose message is already safe.
	plain := errors.New("plain")
	require.Same(t, plain, invalid.Safe(plain))
	require.Same(t, e1, invalid.Safe(e1))
}

// A key holding a terminal's clipboard write (OSC 52) and a forged line
// prints as text, on one line.
func ExampleEscape() {
	fmt.Println(invalid.Escape("a\x1b]52;c;aGVsbG8=\x07\netcdshapes: all checks passed"))
	err := &invalid.Error{Field: "values.a\u202eb", Value: "x\ny", Rule: "is not a value of this chart"}
	fmt.Println(err)
	// Output:
	// a\x1b]52;c;aGVsbG8=\a\netcdshapes: all checks passed
	// values.a\u202eb: invalid value "x\ny": is not a value of this chart
}

// Lines breaks an error's message where its structure does, and only
// there.
func ExampleLines() {
	err := fmt.Errorf("reading values.yaml: %w", errors.Join(
		invalid.List{{Field: "size", Value: "0", Rule: "must be positive"}, {Field: "replicas", Value: 0, Rule: "must be at least 1"}},
		errors.New("open /tmp/x\ny: no such file"),
	))
	for _, line := range invalid.Lines(err) {
		fmt.Println("my-operator:", line)
	}
	// Output:
	// my-operator: reading values.yaml: size: invalid value "0": must be positive
	// my-operator: replicas: invalid value 0: must be at least 1
	// my-operator: open /tmp/x\ny: no such file
}

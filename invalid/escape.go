package invalid

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Escape returns s safe to print on a terminal or in a log line: every
// character strconv.Quote escapes is written as strconv.Quote writes it,
// and every other character is kept as it is (printable Unicode, the
// space, the backslash and the double quote included). So a newline is
// "\n", ESC "\x1b", DEL "\x7f", a C1 control such as NEL "\u0085", the
// line and paragraph separators "\u2028" and "\u2029", the bidirectional
// controls U+202A–U+202E and U+2066–U+2069 "\u202e" and so on, any other
// format character or unassigned code point "\uXXXX", and each byte that
// is not UTF-8 "\xff". What comes from input (a key, a value, a path, a
// flag value, a live object's name) thus can neither move the cursor, set
// the terminal's clipboard (OSC 52), reorder what is shown nor start a
// line of its own that reads like one the program printed.
//
// It is the one escaper of every message etcdshapes prints: Error.Error
// applies it to the field and the rule (FormatValue already quotes
// strings with strconv.Quote, the same escapes), and the CLI to every
// other piece of text it prints on stderr and in a plan's text. The
// result is the text of strconv.Quote(s) between its quotes, with \" and
// \\ written back as " and \: a message quotes what it must itself, and a
// Windows path or a regular expression stays readable. (The generated
// charts' etcdshapes.check.escape is the same function in a template.)
// Escape returns s itself, without copying, when nothing needs escaping.
func Escape(s string) string {
	i := unsafeAt(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if n == 1 && r == utf8.RuneError || !printable(r) {
			// strconv.Quote of this one character (or byte), unquoted.
			q := strconv.Quote(s[i : i+n])
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafeAt is the index of the first byte of s that Escape rewrites, or -1.
func unsafeAt(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < ' ' || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if n == 1 && r == utf8.RuneError || !printable(r) {
			return i
		}
		i += n
	}
	return -1
}

// printable is strconv.IsPrint, with the ASCII space: what strconv.Quote
// writes as it is.
func printable(r rune) bool { return r == ' ' || strconv.IsPrint(r) }

// Lines is err's message as lines of printable text, each escaped with
// Escape, for a program that prints any error, one line after another
// (etcdshapes' CLI prints each after "etcdshapes: "). A line break is kept
// only where the error's structure puts one: between the refusals of a
// List (its message is one refusal a line) and between the errors
// errors.Join joined, also inside an error that wraps one of them with a
// prefix (fmt.Errorf("reading x: %w", err)). Every other character that
// Escape rewrites is rewritten, line breaks included: a newline in a key,
// a file name or a parser's message quoting its input never starts a line
// of its own. Lines of nil is nil.
func Lines(err error) []string {
	if err == nil {
		return nil
	}
	if e, ok := err.(*Error); ok && e == nil {
		return []string{"<nil>"} // as a List prints a nil refusal
	}
	return lines(err, err.Error(), 0)
}

// lines is Lines of err, whose message is text.
func lines(err error, text string, depth int) []string {
	switch err.(type) {
	case *Error:
		return []string{text} // escaped by Error
	case List:
		return strings.Split(text, "\n") // each line an escaped *Error or the count
	case *safeError:
		return strings.Split(text, "\n") // made of Lines
	}
	if depth < maxUnwrapDepth {
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			// errors.Join: the messages of its errors, a line apart.
			var parts []error
			var texts []string
			for _, p := range u.Unwrap() {
				if p != nil {
					parts = append(parts, p)
					texts = append(texts, p.Error())
				}
			}
			if len(parts) > 0 && strings.Join(texts, "\n") == text {
				var out []string
				for i, p := range parts {
					out = append(out, lines(p, texts[i], depth+1)...)
				}
				return out
			}
		case interface{ Unwrap() error }:
			// A prefix, then the message of the error it wraps.
			if inner := u.Unwrap(); inner != nil {
				if it := inner.Error(); strings.HasSuffix(text, it) {
					prefix := text[:len(text)-len(it)]
					out := lines(inner, it, depth+1)
					if len(out) == 0 {
						out = []string{""}
					}
					out[0] = Escape(prefix) + out[0]
					return out
				}
			}
		}
	}
	return []string{Escape(text)}
}

// Safe returns err with a message that is safe to print: err itself when
// its message already is (nil, an *Error, a List, an error whose text
// Escape leaves alone), otherwise an error whose message is Lines(err)
// joined by line breaks and which unwraps to err, so that errors.Is and
// errors.As see what they saw before. The packages that return errors of
// other libraries (a parser's, the structured-merge-diff library's, which
// quote input) return them through Safe.
func Safe(err error) error {
	switch t := err.(type) {
	case nil, *Error, List:
		return err
	case *safeError:
		return t
	}
	text := err.Error()
	if unsafeAt(text) < 0 {
		return err
	}
	return &safeError{err: err, msg: strings.Join(lines(err, text, 0), "\n")}
}

// safeError is an error of Safe: another error's message, escaped.
type safeError struct {
	err error
	msg string
}

func (e *safeError) Error() string { return e.msg }
func (e *safeError) Unwrap() error { return e.err }

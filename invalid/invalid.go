package invalid

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/internal/jsonnum"
	"github.com/etcdshapes/etcdshapes/internal/yamlnum"
	"gopkg.in/inf.v0"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Error is the one error type every etcdshapes builder returns for bad input.
// It names the input field, the value that was given and the rule it broke, so
// that a refusal can be acted on without reading the code. Use errors.As to
// recover it from a wrapped error.
type Error struct {
	// Field is the input path in the callers' own terms, e.g. "values.size",
	// "_cluster.cpu-allocation-ratio" or "namespace".
	Field string
	// Value is the offending value as the caller gave it: a number read
	// from a values file is a json.Number spelled as the file spells it.
	Value any
	// Rule says what the value must be.
	Rule string
}

// Limits of an error message, so that a huge key or value (a 100 MB
// string, a map of a million keys) gives a readable, bounded message.
const (
	maxFieldBytes = 200
	maxValueBytes = 120
	maxRuleBytes  = 1000
)

// Error prints "<field>: invalid value <value>: <rule>". The value is
// printed as YAML would print it in flow style (strings quoted, maps as
// {key: value}), and each part is cut with an ellipsis beyond its limit.
// The field and the rule (which may quote input, a parser's message say)
// are cut, then escaped with Escape, so the message is one line of
// printable text whatever the input held.
func (e *Error) Error() string {
	return Escape(clip(e.Field, maxFieldBytes)) + ": invalid value " + FormatValue(e.Value) + ": " + Escape(clip(e.Rule, maxRuleBytes))
}

// Errorf builds an *Error whose rule is formatted like fmt.Sprintf.
func Errorf(field string, value any, format string, args ...any) *Error {
	return &Error{Field: field, Value: value, Rule: fmt.Sprintf(format, args...)}
}

// FieldError is the refusal as apimachinery's *field.Error of type
// Invalid: Field as its path, Value as BadValue, Rule as Detail. Code that
// collects Kubernetes validation errors in a field.ErrorList can append it.
func (e *Error) FieldError() *field.Error {
	return &field.Error{Type: field.ErrorTypeInvalid, Field: e.Field, BadValue: e.Value, Detail: e.Rule}
}

// As lets errors.As recover a refusal as a *field.Error (see FieldError)
// as well as an *Error, so that callers used to apimachinery's validation
// errors need nothing of this package.
func (e *Error) As(target any) bool {
	if p, ok := target.(**field.Error); ok {
		*p = e.FieldError()
		return true
	}
	return false
}

// FormatValue prints a value for an error message as YAML's flow style
// would (null, true, 3, 1e21, "text", [a, b], {key: value}; map keys
// sorted), at most about 120 bytes: a longer value is cut with "…". It
// copies no more of a string or byte slice than it prints; it reads each
// nested string once (whether YAML would read it back plain) and every key
// of a printed map (to sort them).
func FormatValue(v any) string {
	p := printer{budget: maxValueBytes}
	p.value(v, 0)
	return p.b.String()
}

type printer struct {
	b      strings.Builder
	budget int
	cut    bool
	// derefs counts the pointers followed, which keep the depth (a
	// pointer prints as what it points to): a pointer to itself would
	// otherwise never end.
	derefs int
}

// maxDerefs bounds the pointers one value's printing follows.
const maxDerefs = 100

// write appends s, or as much of it as the budget allows and then "…".
func (p *printer) write(s string) {
	if p.cut {
		return
	}
	if len(s) <= p.budget {
		p.b.WriteString(s)
		p.budget -= len(s)
		return
	}
	i := p.budget
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	p.b.WriteString(s[:i])
	p.b.WriteString("…")
	p.budget, p.cut = 0, true
}

// quoted appends s quoted, cutting inside the quotes: "aaaa…".
func (p *printer) quoted(s string) {
	if p.cut {
		return
	}
	// Only as much of s as can show is quoted, so a 100 MB string costs
	// no more than a short one.
	head := s
	if len(head) > p.budget {
		i := p.budget
		for i > 0 && !utf8.RuneStart(head[i]) {
			i--
		}
		head = head[:i]
	}
	q := strconv.Quote(head)
	if len(head) == len(s) && len(q) <= p.budget {
		p.write(q)
		return
	}
	// Quote a prefix that fits, then close with the ellipsis.
	for len(q)+len("…\"") > p.budget && len(head) > 0 {
		_, n := utf8.DecodeLastRuneInString(head)
		head = head[:len(head)-n]
		q = strconv.Quote(head)
	}
	p.b.WriteString(q[:len(q)-1] + "…\"")
	p.budget, p.cut = 0, true
}

const maxDepth = 20

var (
	stringerType = reflect.TypeFor[fmt.Stringer]()
	errorType    = reflect.TypeFor[error]()
)

// nilPointer reports whether v is a nil pointer (a nil *T in an
// interface), which prints as null rather than through its methods.
func nilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

func (p *printer) value(v any, depth int) {
	if p.cut {
		return
	}
	if depth > maxDepth {
		p.write("…")
		return
	}
	switch t := v.(type) {
	case nil:
		p.write("null")
		return
	case string:
		if depth == 0 || !plainSafe(t) {
			p.quoted(t)
		} else {
			p.write(t)
		}
		return
	case json.Number:
		// A number as written, in JSON's grammar or YAML 1.1's (a
		// values file's "+1.5", "0x10", "1_000": what YAML reads as that
		// number); a Go caller's json.Number that is neither (any string
		// converts) is quoted, as any other string.
		if jsonnum.Is(string(t)) {
			p.write(string(t))
		} else {
			p.quoted(string(t))
		}
		return
	case writtenNumber:
		// A values file's number in a YAML 1.1 spelling ("+1.5",
		// "0x10"), as written: plain where YAML reads it as a number.
		if w := t.WrittenNumber(); yamlNumber(w) {
			p.write(w)
		} else {
			p.quoted(w)
		}
		return
	case bool:
		p.write(strconv.FormatBool(t))
		return
	case float64:
		p.write(formatFloat(t))
		return
	case float32:
		p.write(formatFloat(float64(t)))
		return
	}
	if text, number, ok := bigText(v); ok {
		if number {
			p.write(text)
		} else {
			p.value(text, depth) // as the string it prints as
		}
		return
	}
	switch t := v.(type) {
	case fmt.Stringer:
		if nilPointer(v) {
			p.write("null")
			return
		}
		p.quoted(t.String())
		return
	case error:
		if nilPointer(v) {
			p.write("null")
			return
		}
		p.quoted(t.Error())
		return
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
		// Bytes ([]byte, json.RawMessage) as the text they hold, not a
		// list of numbers; one byte more than can show, so that quoted
		// still cuts it, and the rest never copied.
		b := rv.Bytes()
		if len(b) > p.budget {
			b = b[:p.budget+1]
		}
		p.quoted(string(b))
		return
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.write(strconv.FormatInt(rv.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.write(strconv.FormatUint(rv.Uint(), 10))
	case reflect.String:
		p.value(rv.String(), depth)
	case reflect.Bool:
		p.write(strconv.FormatBool(rv.Bool()))
	case reflect.Float32, reflect.Float64:
		p.write(formatFloat(rv.Float()))
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			p.write("null")
			return
		}
		if p.derefs++; p.derefs > maxDerefs {
			p.write("…")
			return
		}
		p.value(rv.Elem().Interface(), depth)
	case reflect.Map:
		if rv.IsNil() {
			p.write("null")
			return
		}
		var names []string
		var vals []reflect.Value
		for it := rv.MapRange(); it.Next(); {
			if k := it.Key(); k.Kind() == reflect.String && !k.Type().Implements(stringerType) && !k.Type().Implements(errorType) {
				names = append(names, k.String()) // as fmt.Sprint gives it, not copied
			} else {
				names = append(names, fmt.Sprint(k.Interface()))
			}
			vals = append(vals, it.Value())
		}
		idx := make([]int, len(names))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return names[idx[a]] < names[idx[b]] })
		p.write("{")
		for n, i := range idx {
			if p.cut {
				return
			}
			if n > 0 {
				p.write(", ")
			}
			p.value(names[i], depth+1)
			p.write(": ")
			p.value(vals[i].Interface(), depth+1)
		}
		p.write("}")
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			p.write("null")
			return
		}
		p.write("[")
		for i := 0; i < rv.Len(); i++ {
			if p.cut {
				return
			}
			if i > 0 {
				p.write(", ")
			}
			p.value(rv.Index(i).Interface(), depth+1)
		}
		p.write("]")
	case reflect.Struct:
		// A value whose String method is on its pointer (as most are)
		// prints as that: copied, as the caller's value is not
		// addressable.
		if reflect.PointerTo(rv.Type()).Implements(stringerType) {
			c := reflect.New(rv.Type())
			c.Elem().Set(rv)
			p.quoted(c.Interface().(fmt.Stringer).String())
			return
		}
		// Typed API objects: their JSON form, which is what YAML shows,
		// unless it hides what the value holds (unexported fields print
		// as {}).
		if b, err := json.Marshal(v); err == nil && (string(b) != "{}" || rv.IsZero()) {
			var generic any
			if json.Unmarshal(b, &generic) == nil {
				p.value(generic, depth)
				return
			}
		}
		p.quoted(fmt.Sprintf("%+v", v))
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		// Its address says nothing and changes from run to run.
		p.quoted(rv.Type().String())
	default:
		p.quoted(fmt.Sprintf("%v", v))
	}
}

// maxBigBits bounds the numbers of math/big, inf.Dec and resource.Quantity
// printed in full: their decimal text costs time in the square of their
// size, and an exponent of millions of digits costs as much memory; a
// larger one prints as its size.
const maxBigBits = 1 << 16

// bigText prints the arbitrary-precision numbers an error may quote as
// their String methods do, the caller's value or pointer alike: big.Int,
// big.Float, big.Rat and inf.Dec as numbers (unquoted, as YAML prints a
// number) where the text is one, resource.Quantity as its canonical string
// ("1536Mi", as a Kubernetes object holds it). One beyond maxBigBits of
// digits or exponent prints as its size ("a number of 70000 bits, e-5").
// ok is false for any other value.
func bigText(v any) (text string, number, ok bool) {
	summary := func(bits int, exp int64) string {
		return "a number of " + strconv.Itoa(bits) + " bits, e" + strconv.FormatInt(exp, 10)
	}
	within := func(bits int, exp int64) bool { return bits <= maxBigBits && exp >= -maxBigBits && exp <= maxBigBits }
	switch t := v.(type) {
	case big.Int:
		return bigText(&t)
	case big.Float:
		return bigText(&t)
	case big.Rat:
		return bigText(&t)
	case inf.Dec:
		return bigText(&t)
	case resource.Quantity:
		return bigText(&t)
	case *big.Int:
		if t == nil {
			return "null", true, true
		}
		if !within(t.BitLen(), 0) {
			return summary(t.BitLen(), 0), false, true
		}
		return t.String(), true, true
	case *big.Float:
		if t == nil {
			return "null", true, true
		}
		exp := int64(t.MantExp(nil))
		if t.IsInf() || !within(int(t.Prec()), exp) {
			if t.IsInf() {
				return t.String(), false, true
			}
			return summary(int(t.Prec()), exp) + " (binary)", false, true
		}
		s := t.Text('g', -1)
		return s, jsonnum.Is(s), true
	case *big.Rat:
		if t == nil {
			return "null", true, true
		}
		if !within(t.Num().BitLen(), 0) || !within(t.Denom().BitLen(), 0) {
			return summary(t.Num().BitLen(), 0) + " / " + summary(t.Denom().BitLen(), 0), false, true
		}
		if t.IsInt() {
			return t.Num().String(), true, true
		}
		return t.String(), false, true
	case *inf.Dec:
		if t == nil {
			return "null", true, true
		}
		if !within(t.UnscaledBig().BitLen(), -int64(t.Scale())) {
			return summary(t.UnscaledBig().BitLen(), -int64(t.Scale())), false, true
		}
		s := t.String()
		return s, jsonnum.Is(s), true
	case *resource.Quantity:
		if t == nil {
			return "null", true, true
		}
		c := *t // AsDec and String change what they are called on
		d := c.AsDec()
		bits, exp := d.UnscaledBig().BitLen(), -int64(d.Scale())
		if !within(bits, exp) {
			return summary(bits, exp), false, true
		}
		// Its canonical form, unless that misreads it (an exponent no
		// suffix spells: 1e-200 prints as "10"); then digits and
		// exponent.
		if s := c.String(); len(s) <= maxValueBytes {
			if back, err := resource.ParseQuantity(s); err == nil && back.Cmp(c) == 0 {
				return s, false, true
			}
		}
		s := d.UnscaledBig().String()
		if exp != 0 {
			s += "e" + strconv.FormatInt(exp, 10)
		}
		return s, false, true
	}
	return "", false, false
}

// formatFloat prints a float as YAML does: shortest form, .inf and .nan.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case math.Abs(f) < 1e21:
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// plainSafe reports whether a string inside a flow collection reads back as
// the same string without quotes: letters, digits and a few safe marks,
// not a number, boolean or null. It is the generated charts'
// etcdshapes.check.plain, written as scans that copy nothing, so that a
// 100 MB string costs one pass over it and no allocation.
func plainSafe(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '-' || c == '_' || c == '.' || c == '/':
			if i == 0 && c != '_' {
				return false
			}
		default:
			return false
		}
	}
	for _, w := range [...]string{"null", "true", "false", "yes", "no", "on", "off", "y", "n", "inf", "infinity", "nan"} {
		if strings.EqualFold(s, w) {
			return false
		}
	}
	// The charts' number pattern, [0-9]+\.?[0-9]*([eE]-?[0-9]+)?, is
	// yamlnum.Float for the strings that get here (no sign, no leading
	// point, no '+'): what YAML reads as a number, whatever its size
	// ("1e999" too, which strconv.ParseFloat refuses as out of range).
	if yamlnum.Float(s) {
		return false
	}
	if s[0] >= '0' && s[0] <= '9' {
		// YAML 1.1 also reads 1_000, 0x1f, 0b101 and dates as non-strings.
		if strings.IndexByte(s, '_') >= 0 || (len(s) > 1 && s[0] == '0' && strings.IndexByte("xXbBoO", s[1]) >= 0) {
			return false
		}
		if len(s) >= 10 && s[4] == '-' && s[7] == '-' {
			return false
		}
	}
	return true
}

// clip cuts s to at most n bytes at a character boundary, with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// writtenNumber is a number that keeps its spelling (values.Number).
type writtenNumber interface{ WrittenNumber() string }

// yamlNumber reports whether s, written plain, is a number YAML 1.1
// reads (yamlnum.Decimal), so that printing it plain keeps its meaning.
func yamlNumber(s string) bool {
	_, ok := yamlnum.Decimal(s)
	return ok
}

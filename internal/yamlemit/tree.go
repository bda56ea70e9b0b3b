package yamlemit

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/internal/jsonnum"
)

// ErrFallback reports a document the fast path does not print exactly as
// sigs.k8s.io/yaml would; the caller must print it the old way.
var ErrFallback = errors.New("yamlemit: document outside the fast path")

// Kind is the JSON type of a node.
type Kind uint8

// The kinds of nodes.
const (
	Null Kind = iota
	Bool
	Number
	String
	Map
	List
)

// Node identifies a node of a Tree; the root is 0.
type Node int32

// maxDepth bounds nesting: yaml.v2 refuses depth 10000, and recursion that
// deep is no Kubernetes object; deeper documents take the slow path.
const maxDepth = 1000

// maxKeyLen is the longest key printed here. yaml.v2 prints longer keys in
// the "? key" form and fails to re-read JSON keys over about 1022
// characters; neither occurs in Kubernetes objects, so both go the old way.
const maxKeyLen = 128

// span locates bytes in the source (dec false) or in Tree.dec. Nodes and
// entries hold spans, not slices, so the arenas hold no pointers: the
// garbage collector neither scans them nor runs write barriers while
// they fill.
type span struct {
	off, n int32
	dec    bool
}

// b is the bytes of a span.
func (t *Tree) b(s span) []byte {
	if s.dec {
		return t.dec[s.off : s.off+s.n : s.off+s.n]
	}
	return t.src[s.off : s.off+s.n : s.off+s.n]
}

func (t *Tree) decSpan(d0 int) span {
	return span{off: int32(d0), n: int32(len(t.dec) - d0), dec: true}
}

type node struct {
	kind Kind
	// text is the YAML text of a Null, Bool or Number (already in the form
	// yaml.v2 prints it) or the decoded value of a String.
	text span
	// start and n locate a Map's entries in Tree.ents or a List's items in
	// Tree.items.
	start, n int32
	// sorted marks a Map whose entries are already in the order yaml.v2
	// prints them (a struct's fields, ordered once per type by Encode).
	sorted bool
}

type entry struct {
	key span
	val Node
	// plain marks a key known to pass simplePlain (a struct field's name,
	// checked once per type).
	plain bool
}

// Tree is a parsed JSON document. Reuse one (Reset happens in Parse) to keep
// its arenas: a steady state of parse and print allocates nothing.
type Tree struct {
	src []byte
	// srcBuf keeps the capacity of the buffer Encode parses Marshaler
	// output from (Parse's src belongs to its caller).
	srcBuf []byte
	pos    int
	depth  int
	nodes  []node
	ents   []entry
	items  []Node
	// dec holds unescaped strings, rewritten numbers and the clean-ups'
	// new text.
	dec []byte
	// Parse-time stacks: a container's children are collected here and
	// copied into ents/items when it closes, so each container's children
	// are contiguous.
	stackE []entry
	stackI []Node
	// dup is set when Get meets its key twice in one map: encoding/json
	// keeps the last, and the clean-ups would act on the first.
	dup bool
	// rewrote is set when Encode stored a string other than it was: an
	// invalid UTF-8 byte as U+FFFD, as encoding/json writes it.
	rewrote bool

	e emitter
}

// Parse reads one JSON value (as encoding/json writes it) into t,
// replacing what t held. Strings keep pointing into js, so js must not
// change while t is in use.
func (t *Tree) Parse(js []byte) error {
	if len(js) > math.MaxInt32 {
		return ErrFallback
	}
	t.reset(js)
	if _, err := t.value(); err != nil {
		return err
	}
	t.skipSpace()
	if t.pos != len(t.src) {
		return ErrFallback
	}
	return nil
}

func (t *Tree) skipSpace() {
	for t.pos < len(t.src) {
		switch t.src[t.pos] {
		case ' ', '\t', '\n', '\r':
			t.pos++
		default:
			return
		}
	}
}

func (t *Tree) add(n node) Node {
	t.nodes = append(t.nodes, n)
	return Node(len(t.nodes) - 1)
}

func (t *Tree) value() (Node, error) {
	t.skipSpace()
	if t.pos >= len(t.src) {
		return 0, ErrFallback
	}
	switch c := t.src[t.pos]; {
	case c == '{':
		return t.container(Map, '}')
	case c == '[':
		return t.container(List, ']')
	case c == '"':
		s, err := t.str()
		if err != nil {
			return 0, err
		}
		return t.add(node{kind: String, text: s}), nil
	case c == 't':
		return t.literal("true", Bool)
	case c == 'f':
		return t.literal("false", Bool)
	case c == 'n':
		return t.literal("null", Null)
	case c == '-' || c >= '0' && c <= '9':
		return t.number()
	}
	return 0, ErrFallback
}

func (t *Tree) literal(word string, k Kind) (Node, error) {
	end := t.pos + len(word)
	if end > len(t.src) || string(t.src[t.pos:end]) != word {
		return 0, ErrFallback
	}
	n := t.add(node{kind: k, text: span{off: int32(t.pos), n: int32(len(word))}})
	t.pos = end
	return n, nil
}

// reset empties t, keeping its buffers, to read or build a new document
// over src; Parse and Encode both start here.
func (t *Tree) reset(src []byte) {
	t.src = src
	t.pos = 0
	t.depth = 0
	t.nodes = t.nodes[:0]
	t.ents = t.ents[:0]
	t.items = t.items[:0]
	t.dec = t.dec[:0]
	t.stackE = t.stackE[:0]
	t.stackI = t.stackI[:0]
	t.dup = false
	t.rewrote = false
}

// Rewrote reports whether the last Encode stored a string other than the
// Go value held (invalid UTF-8 written as U+FFFD, as encoding/json does):
// its YAML does not read back as the value.
func (t *Tree) Rewrote() bool { return t.rewrote }

// container reads an object (kind Map, closing '}') or an array (kind
// List, closing ']'), from its opening bracket at t.pos to its closing one.
// An object's entry goes onto t.stackE when its key is read and gets its
// value once that is read (nested containers leave the stack as they found
// it); an array's item goes onto t.stackI. The members move from there into
// the tree when the container closes. The steps of each kind are branches
// in the one loop rather than a call per member, which costs measurably on
// objects (BenchmarkParseObjects, in instructions); closing comes beside
// kind, which it follows from, because the loop's branches on it (the byte
// separator compares) cost fewer instructions than branches on kind or on
// a flag derived from it.
func (t *Tree) container(kind Kind, closing byte) (Node, error) {
	markE, markI := len(t.stackE), len(t.stackI)
	self, more, err := t.open(kind, closing)
	if err != nil {
		return 0, err
	}
	for more {
		if closing == '}' {
			t.skipSpace()
			if t.pos >= len(t.src) || t.src[t.pos] != '"' {
				return 0, ErrFallback
			}
			k, err := t.str()
			if err != nil {
				return 0, err
			}
			if k.n > maxKeyLen {
				return 0, ErrFallback
			}
			t.skipSpace()
			if t.pos >= len(t.src) || t.src[t.pos] != ':' {
				return 0, ErrFallback
			}
			t.pos++
			t.stackE = append(t.stackE, entry{key: k})
		}
		v, err := t.value()
		if err != nil {
			return 0, err
		}
		if closing == '}' {
			t.stackE[len(t.stackE)-1].val = v
		} else {
			t.stackI = append(t.stackI, v)
		}
		if more, err = t.separator(closing); err != nil {
			return 0, err
		}
	}
	if kind == Map {
		t.closeMap(self, markE)
	} else {
		t.closeList(self, markI)
	}
	return self, nil
}

// open reads the opening bracket of an object or array at t.pos and adds
// its node of kind; more is false when the closing bracket follows at once
// (the container is empty, and the bracket is read).
func (t *Tree) open(kind Kind, closing byte) (self Node, more bool, err error) {
	if t.depth++; t.depth > maxDepth {
		return 0, false, ErrFallback
	}
	self = t.add(node{kind: kind})
	t.pos++
	t.skipSpace()
	if t.pos < len(t.src) && t.src[t.pos] == closing {
		t.pos++
		return self, false, nil
	}
	return self, true, nil
}

// separator reads what follows a member of an object or an element of an
// array: a comma, and more follow (true), or the closing bracket, and the
// container ends (false). Anything else is JSON encoding/json does not
// write, which the slow path handles.
func (t *Tree) separator(closing byte) (bool, error) {
	t.skipSpace()
	if t.pos < len(t.src) {
		switch t.src[t.pos] {
		case ',':
			t.pos++
			return true, nil
		case closing:
			t.pos++
			return false, nil
		}
	}
	return false, ErrFallback
}

// refusedRune reports the characters the slow path cannot carry through
// its JSON → YAML re-parse: encoding/json writes them raw, and yaml.v2's
// reader rejects DEL, the C1 controls and U+FFFE/U+FFFF ("control
// characters are not allowed") and folds a raw NEL (U+0085, a YAML line
// break) inside a quoted scalar into a space.
func refusedRune(r rune) bool {
	return r >= 0x7F && r <= 0x9F || r == 0xFFFE || r == 0xFFFF
}

// Unfaithful finds the first character of s that sigs.k8s.io/yaml's
// printer (the slow path, and so this package) does not carry byte for
// byte: an invalid UTF-8 byte (encoding/json writes U+FFFD), DEL, a C1
// control, U+FFFE or U+FFFF (see refusedRune). It returns the byte offset
// and the rune (utf8.RuneError for an invalid byte), or -1. Every other
// string, C0 controls, U+2028/U+2029 and the BOM included, reads back
// from the printed YAML as it was (TestFaithfulStrings).
func Unfaithful(s string) (int, rune) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == 0x7F {
				return i, rune(c)
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 || refusedRune(r) {
			return i, r
		}
		i += w
	}
	return -1, 0
}

// str reads a JSON string at t.pos and returns its value, pointing into
// the source when it holds no escapes.
func (t *Tree) str() (span, error) {
	t.pos++ // '"'
	start := t.pos
	src := t.src
	for i := start; i < len(src); {
		c := src[i]
		switch {
		case c == '"':
			t.pos = i + 1
			return span{off: int32(start), n: int32(i - start)}, nil
		case c == '\\':
			return t.strEscaped(start, i)
		case c < 0x20:
			return span{}, ErrFallback // not JSON
		case c < 0x7F:
			i++
		default:
			r, w := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && w == 1 || refusedRune(r) {
				return span{}, ErrFallback
			}
			i += w
		}
	}
	return span{}, ErrFallback
}

// strEscaped finishes a string that has escapes, decoding it into t.dec.
func (t *Tree) strEscaped(start, i int) (span, error) {
	src := t.src
	d0 := len(t.dec)
	t.dec = append(t.dec, src[start:i]...)
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			t.pos = i + 1
			return t.decSpan(d0), nil
		case c == '\\':
			if i+1 >= len(src) {
				return span{}, ErrFallback
			}
			switch src[i+1] {
			case '"', '\\', '/':
				t.dec = append(t.dec, src[i+1])
			case 'b':
				t.dec = append(t.dec, '\b')
			case 'f':
				t.dec = append(t.dec, '\f')
			case 'n':
				t.dec = append(t.dec, '\n')
			case 'r':
				t.dec = append(t.dec, '\r')
			case 't':
				t.dec = append(t.dec, '\t')
			case 'u':
				r, ok := hex4(src, i+2)
				if !ok {
					return span{}, ErrFallback
				}
				i += 6
				if r >= 0xD800 && r < 0xDC00 {
					// A surrogate pair; anything else (a lone
					// surrogate) becomes U+FFFD in encoding/json,
					// which is rare enough to leave to the slow path.
					if i+1 >= len(src) || src[i] != '\\' || src[i+1] != 'u' {
						return span{}, ErrFallback
					}
					r2, ok := hex4(src, i+2)
					if !ok || r2 < 0xDC00 || r2 > 0xDFFF {
						return span{}, ErrFallback
					}
					r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
					i += 6
				} else if r >= 0xDC00 && r <= 0xDFFF {
					return span{}, ErrFallback
				}
				if refusedRune(r) {
					return span{}, ErrFallback
				}
				t.dec = utf8.AppendRune(t.dec, r)
				continue
			default:
				return span{}, ErrFallback
			}
			i += 2
		case c < 0x20:
			return span{}, ErrFallback
		case c < 0x7F:
			t.dec = append(t.dec, c)
			i++
		default:
			r, w := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && w == 1 || refusedRune(r) {
				return span{}, ErrFallback
			}
			t.dec = append(t.dec, src[i:i+w]...)
			i += w
		}
	}
	return span{}, ErrFallback
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// number reads a JSON number and stores the text yaml.v2 prints for it
// on the reference path (see yamlNumber).
func (t *Tree) number() (Node, error) {
	src := t.src
	start := t.pos
	n, intDigits, simple := jsonnum.Scan(src[start:])
	if n == 0 {
		return 0, ErrFallback
	}
	i := start + n
	t.pos = i
	if printedAsWritten(src[start:i], intDigits, simple) {
		return t.add(node{kind: Number, text: span{off: int32(start), n: int32(n)}}), nil
	}
	d0 := len(t.dec)
	var ok bool
	t.dec, ok = yamlNumber(t.dec, src[start:i], simple)
	if !ok {
		return 0, ErrFallback
	}
	return t.add(node{kind: Number, text: t.decSpan(d0)}), nil
}

// printedAsWritten reports a JSON number every path prints as written: an
// integer of up to 15 digits (intDigits), "-0" excepted.
func printedAsWritten(tok []byte, intDigits int, simple bool) bool {
	return simple && intDigits <= 15 && !(intDigits == 1 && tok[len(tok)-1] == '0' && tok[0] == '-')
}

// appendNumberText appends what yaml.v2 prints for tok, a number in JSON's
// grammar, as number does; ok is false where number refuses it.
func appendNumberText(dst, tok []byte) ([]byte, bool) {
	_, intDigits, simple := jsonnum.Scan(tok)
	if printedAsWritten(tok, intDigits, simple) {
		return append(dst, tok...), true
	}
	return yamlNumber(dst, tok, simple)
}

// yamlNumber appends what yaml.v2 prints for the JSON number tok, read as
// written (a json.Number): an integer that fits an int64 or a uint64 is
// printed exactly, anything else as the float64 it parses to.
func yamlNumber(dst, tok []byte, integer bool) ([]byte, bool) {
	s := string(tok)
	if integer {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return strconv.AppendInt(dst, i, 10), true
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return strconv.AppendUint(dst, u, 10), true
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return dst, false // out of range: yaml.v2 would keep it as a string
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64), true
}

// Root is the document's top node.
func (t *Tree) Root() Node { return 0 }

// Kind is n's type.
func (t *Tree) Kind(n Node) Kind { return t.nodes[n].kind }

// Len is the number of entries of a Map or items of a List.
func (t *Tree) Len(n Node) int { return int(t.nodes[n].n) }

// Entry is a Map's i-th entry (in document order until printed).
func (t *Tree) Entry(m Node, i int) (key []byte, v Node) {
	e := t.ents[int(t.nodes[m].start)+i]
	return t.b(e.key), e.val
}

// Item is a List's i-th item.
func (t *Tree) Item(l Node, i int) Node { return t.items[int(t.nodes[l].start)+i] }

// Text is a String's value (or a scalar's printed form).
func (t *Tree) Text(n Node) []byte { return t.b(t.nodes[n].text) }

// Get finds key in the Map m.
func (t *Tree) Get(m Node, key string) (Node, bool) {
	nd := t.nodes[m]
	found := false
	var v Node
	for _, e := range t.ents[nd.start : nd.start+nd.n] {
		if string(t.b(e.key)) == key {
			if found {
				t.dup = true
			}
			found = true
			v = e.val
		}
	}
	return v, found
}

// Delete removes key from the Map m.
func (t *Tree) Delete(m Node, key string) {
	nd := &t.nodes[m]
	es := t.ents[nd.start : nd.start+nd.n]
	for i, e := range es {
		if string(t.b(e.key)) == key {
			copy(es[i:], es[i+1:])
			nd.n--
			return
		}
	}
}

// SetString replaces the value of the String n.
func (t *Tree) SetString(n Node, s []byte) {
	d0 := len(t.dec)
	t.dec = append(t.dec, s...)
	t.nodes[n].text = t.decSpan(d0)
}

// AddBool adds key: v to the Map m, which must not hold key.
func (t *Tree) AddBool(m Node, key string, v bool) {
	text := "false"
	if v {
		text = "true"
	}
	d0 := len(t.dec)
	t.dec = append(t.dec, key...)
	k := t.decSpan(d0)
	d1 := len(t.dec)
	t.dec = append(t.dec, text...)
	val := t.add(node{kind: Bool, text: t.decSpan(d1)})
	// The map's entries are contiguous, so move them to the end of the
	// arena with the new one.
	nd := &t.nodes[m]
	start := int32(len(t.ents))
	t.ents = append(t.ents, t.ents[nd.start:nd.start+nd.n]...)
	t.ents = append(t.ents, entry{key: k, val: val})
	nd.start = start
	nd.n++
	nd.sorted = false
}

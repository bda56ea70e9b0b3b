package inputlimit

import (
	"bytes"
	"unicode/utf8"
)

// Stats are what Lex finds in a YAML stream without parsing it.
type Stats struct {
	// Nodes bounds from above the nodes (scalars, sequences, mappings,
	// aliases, the empty values of "a:" and "-" included) a YAML parser
	// builds from the stream before alias expansion.
	Nodes int
	// Aliases counts the aliases (*name); a decoder expands each into a
	// copy of its anchor's node, so with any the nodes decoded may be
	// more than Nodes (see Expanded).
	Aliases int
	// Decoded bounds the nodes a decoder builds: Nodes, or with aliases
	// what they expand to; set by CheckYAML, 0 from Lex.
	Decoded int
	// Numbers are the plain scalars a YAML 1.1 reader may read as a
	// number, for the caller's check, in stream order, when Lex was given
	// a number callback; see LexNumbers.
	//
	// Approximate says Lex met a stream it does not follow as the parser
	// does (a tab or a character that starts no token, a block scalar
	// with an explicit indentation, an error): from there on Nodes is a
	// coarser bound (three for every line break and each of "-", ":",
	// ",", "[", "{", "?" and "*"), and a plain scalar may have gone
	// unreported to the number callback.
	Approximate bool
}

// Lex scans a YAML stream as go.yaml.in/yaml/v2's scanner does (the YAML
// reader of Helm and of sigs.k8s.io/yaml; its scannerc.go, a port of
// libyaml): it finds where every token begins and ends, following the
// same rules for indentation, simple keys, flow levels, comments and the
// three kinds of scalars, but builds no token and copies nothing. It costs
// one pass over the stream and allocates only its indentation and flow
// stacks.
//
// So Nodes counts a node once however much text it spans: a block scalar
// holding a JSON document or a certificate, a quoted string of commas
// and colons, a plain scalar such as "registry.k8s.io/etcd:3.5-0" or a
// timestamp. Where the scanner would fail, so would the parse; Lex then
// counts the rest coarsely (Approximate), which still bounds what any
// reading of it could hold.
func Lex(doc []byte) Stats { return lex(doc, nil) }

// LexNumbers is Lex that also calls number with the text of each plain
// scalar that fits one line and starts like a number (a digit, a sign or
// a point), in stream order: the candidates a YAML 1.1 reader may read as
// a number (yamlnum.Decimal decides).
func LexNumbers(doc []byte, number func(text []byte)) Stats { return lex(doc, number) }

func lex(doc []byte, number func([]byte)) Stats {
	l := lexer{b: doc, number: number}
	l.run()
	return Stats{Nodes: l.n, Aliases: l.aliases, Approximate: l.failed}
}

// LexFirst is Lex of the stream's first document only, as
// go.yaml.in/yaml/v2's Unmarshal reads it (Helm's values files, through
// sigs.k8s.io/yaml): it stops where that parser ends the first document,
// at the "---" that starts a second one (the first's own "---" opening
// the stream is the first's) or after a "..." that ends it, and never
// scans what follows. first is the stream up to there: parsed alone it is
// the same document. Where Lex stops following the scanner (Approximate),
// the document ends at the next line that starts with "---" or "..." and
// a blank, where the parser ends it or fails, and the rest of it is
// counted coarsely.
func LexFirst(doc []byte) (first []byte, st Stats) {
	l := lexer{b: doc, firstOnly: true, stop: -1}
	l.run()
	if l.stop < 0 {
		l.stop = len(doc)
	}
	return doc[:l.stop], Stats{Nodes: l.n, Aliases: l.aliases, Approximate: l.failed}
}

// documentBoundary is the offset in b where the line that next starts
// with a document indicator ("---" or "..." and a blank) at or after p
// ends the first document: before "---", after "...". len(b) if none.
func documentBoundary(b []byte, p int) int {
	for i := p; i < len(b); {
		if i == 0 || b[i-1] == '\n' || b[i-1] == '\r' && (i >= len(b) || b[i] != '\n') {
			if rest := b[i:]; len(rest) >= 3 && (string(rest[:3]) == "---" || string(rest[:3]) == "...") &&
				(len(rest) == 3 || rest[3] == ' ' || rest[3] == '\t' || rest[3] == '\n' || rest[3] == '\r') {
				if rest[0] == '-' {
					return i
				}
				return i + 3
			}
		}
		j := bytes.IndexAny(b[i:], "\r\n")
		if j < 0 {
			break
		}
		i += j + 1
	}
	return len(b)
}

type tokenKind int

const (
	tNone tokenKind = iota
	tStreamStart
	tStreamEnd
	tDocStart
	tDocEnd
	tBlockSeqStart
	tBlockMapStart
	tBlockEnd
	tFlowSeqStart
	tFlowMapStart
	tFlowEnd
	tBlockEntry
	tFlowEntry
	tKey       // explicit "?"
	tSimpleKey // inserted before a simple key
	tValue
	tAlias
	tAnchor
	tTag
	tScalar
)

type simpleKey struct {
	possible, required bool
	index, line, col   int
	// expecting: a node was expected where the key starts; once it is a
	// key, that node was empty.
	expecting bool
}

// flow is one open flow collection.
type flow struct {
	mapping bool
	// Of the current entry: a node was given, a key, a value.
	node, key, value bool
}

type lexer struct {
	b []byte
	p int // byte offset of the current character
	// Of the current character, in characters as the scanner counts.
	line, col, index int

	flowLevel        int
	indent           int
	indents          []int
	simpleKeyAllowed bool
	keys             []simpleKey // one per flow level, keys[0] the block context's
	flows            []flow

	n       int
	aliases int
	expect  bool // a node is expected next
	prev    tokenKind
	failed  bool
	number  func([]byte)

	// firstOnly stops at the end of the first document (LexFirst):
	// begun says it has begun (its "---" or a node), stop is the offset
	// where it ends (-1 until then).
	firstOnly bool
	begun     bool
	stop      int
}

// at is the byte at p+i, 0 beyond the end (the scanner's '\0').
func (l *lexer) at(i int) byte {
	if l.p+i < len(l.b) {
		return l.b[l.p+i]
	}
	return 0
}

func (l *lexer) end() bool { return l.p >= len(l.b) }

// breakAt is the length in bytes of the line break at p+i (CRLF is one), 0
// when there is none.
func (l *lexer) breakAt(i int) int {
	switch c := l.at(i); {
	case c == '\r':
		if l.at(i+1) == '\n' {
			return 2
		}
		return 1
	case c == '\n':
		return 1
	case c == 0xC2 && l.at(i+1) == 0x85: // NEL
		return 2
	case c == 0xE2 && l.at(i+1) == 0x80 && (l.at(i+2) == 0xA8 || l.at(i+2) == 0xA9): // LS, PS
		return 3
	}
	return 0
}

func (l *lexer) isBreak(i int) bool  { return l.breakAt(i) > 0 }
func (l *lexer) isBlank(i int) bool  { c := l.at(i); return c == ' ' || c == '\t' }
func (l *lexer) isZ(i int) bool      { return l.p+i >= len(l.b) }
func (l *lexer) isBreakZ(i int) bool { return l.isBreak(i) || l.isZ(i) }
func (l *lexer) isBlankZ(i int) bool { return l.isBlank(i) || l.isBreakZ(i) }

// skip moves past one character on the line.
func (l *lexer) skip() {
	if l.p >= len(l.b) {
		return
	}
	w := 1
	if c := l.b[l.p]; c >= utf8.RuneSelf {
		_, w = utf8.DecodeRune(l.b[l.p:])
	}
	l.p += w
	l.col++
	l.index++
}

// skipLine moves past a line break.
func (l *lexer) skipLine() {
	n := l.breakAt(0)
	if n == 0 {
		return
	}
	l.p += n
	l.index++
	if n == 2 && l.b[l.p-2] == '\r' {
		l.index++ // CRLF is two characters, one break
	}
	l.line++
	l.col = 0
}

// token counts the token of kind k as the nodes it may stand for.
func (l *lexer) token(k tokenKind) {
	if k != tStreamStart {
		l.begun = true
	}
	switch k {
	case tScalar, tAlias, tFlowSeqStart, tFlowMapStart, tBlockSeqStart, tBlockMapStart:
		l.n++
		l.expect = false
		if f := l.flowTop(); f != nil {
			f.node = true
		}
	case tAnchor, tTag:
		// Properties come before a node: one is still expected, and
		// the flow entry holds one (maybe empty).
		l.expect = true
		if f := l.flowTop(); f != nil {
			f.node = true
		}
	case tBlockEntry:
		if (l.prev == tValue || l.prev == tKey) && l.flowLevel == 0 {
			// An indentless sequence ("key:\n- a"): the entry starts
			// the sequence node.
			l.n++
		} else if l.expect {
			l.n++ // the empty node before it ("-\n- a")
		}
		l.expect = true
	default:
		if l.expect {
			l.n++ // an empty node: "a:" then something that is no node
		}
		l.expect = false
		switch k {
		case tKey, tValue, tDocStart, tStreamStart:
			l.expect = true
		}
	}
	l.prev = k
}

func (l *lexer) flowTop() *flow {
	if len(l.flows) == 0 {
		return nil
	}
	return &l.flows[len(l.flows)-1]
}

// fail gives up following the scanner: the rest is counted coarsely.
func (l *lexer) fail() {
	if l.failed {
		return
	}
	l.failed = true
	rest := l.b[min(l.p, len(l.b)):]
	if l.firstOnly {
		// A document indicator that begins the first document is its
		// own: the boundary is the next one.
		from := min(l.p, len(l.b))
		if !l.begun {
			from = min(from+1, len(l.b))
		}
		l.stop = documentBoundary(l.b, from)
		if l.stop < min(l.p, len(l.b)) {
			l.stop = min(l.p, len(l.b))
		}
		rest = l.b[min(l.p, len(l.b)):l.stop]
	}
	n := 0
	for _, c := range rest {
		switch c {
		case '\n', '\r', '-', ':', ',', '[', '{', '?', '*':
			n++
		}
	}
	l.n += 3*n + 3
	l.aliases += bytes.Count(rest, []byte{'*'})
	l.p = len(l.b)
}

func (l *lexer) run() {
	if !utf8.Valid(l.b) || bytes.HasPrefix(l.b, []byte{0xFF, 0xFE}) || bytes.HasPrefix(l.b, []byte{0xFE, 0xFF}) {
		// Not UTF-8 (yaml.v2 fails on it, or reads UTF-16).
		l.fail()
		return
	}
	if bytes.HasPrefix(l.b, []byte("\xEF\xBB\xBF")) {
		l.p = 3
	}
	l.indent = -1
	l.keys = []simpleKey{{}}
	l.simpleKeyAllowed = true
	l.token(tStreamStart)
	for !l.failed {
		if !l.next() {
			break
		}
	}
}

// next fetches one token; false at the end of the stream.
func (l *lexer) next() bool {
	l.scanToNextToken()
	if l.failed {
		return false
	}
	l.staleKeys()
	l.unrollIndent(l.col)
	if l.failed {
		return false
	}
	if l.end() {
		l.unrollIndent(-1)
		l.removeSimpleKey()
		l.token(tStreamEnd)
		return false
	}
	c := l.at(0)
	if l.col == 0 && c == '%' {
		// A directive: yaml.v2 reads the line; it holds no node.
		for !l.isBreakZ(0) {
			l.skip()
		}
		return true
	}
	if l.col == 0 && (c == '-' && l.at(1) == '-' && l.at(2) == '-' || c == '.' && l.at(1) == '.' && l.at(2) == '.') && l.isBlankZ(3) {
		if l.firstOnly && c == '-' && l.begun {
			// A second document: the first ends here, as the stream
			// would.
			l.stop = l.p
			l.unrollIndent(-1)
			l.removeSimpleKey()
			l.token(tStreamEnd)
			return false
		}
		l.unrollIndent(-1)
		l.removeSimpleKey()
		l.simpleKeyAllowed = false
		l.skip()
		l.skip()
		l.skip()
		if c == '-' {
			l.token(tDocStart)
		} else {
			l.token(tDocEnd)
			if l.firstOnly {
				l.stop = l.p
				return false
			}
		}
		return true
	}
	switch {
	case c == '[' || c == '{':
		l.saveSimpleKey()
		l.keys = append(l.keys, simpleKey{})
		l.flowLevel++
		if l.flowLevel > 10000 {
			l.fail() // yaml.v2: exceeded max depth
			return false
		}
		l.simpleKeyAllowed = true
		l.skip()
		if c == '[' {
			l.token(tFlowSeqStart)
		} else {
			l.token(tFlowMapStart)
		}
		l.flows = append(l.flows, flow{mapping: c == '{'})
	case c == ']' || c == '}':
		l.removeSimpleKey()
		if l.flowLevel > 0 {
			l.endEntry()
			l.flowLevel--
			l.keys = l.keys[:len(l.keys)-1]
			l.flows = l.flows[:len(l.flows)-1]
		}
		l.simpleKeyAllowed = false
		l.skip()
		l.token(tFlowEnd)
	case c == ',':
		l.removeSimpleKey()
		l.simpleKeyAllowed = true
		l.endEntry()
		l.skip()
		l.token(tFlowEntry)
		if f := l.flowTop(); f != nil {
			*f = flow{mapping: f.mapping}
		}
	case c == '-' && l.isBlankZ(1):
		if l.flowLevel == 0 {
			if !l.simpleKeyAllowed {
				l.fail() // block sequence entries are not allowed here
				return false
			}
			l.rollIndent(l.col, tBlockSeqStart)
		}
		l.removeSimpleKey()
		l.simpleKeyAllowed = true
		l.skip()
		l.token(tBlockEntry)
	case c == '?' && (l.flowLevel > 0 || l.isBlankZ(1)):
		if l.flowLevel == 0 {
			if !l.simpleKeyAllowed {
				l.fail()
				return false
			}
			l.rollIndent(l.col, tBlockMapStart)
			l.n++ // its value may be empty
		}
		l.removeSimpleKey()
		l.simpleKeyAllowed = l.flowLevel == 0
		l.skip()
		l.pairKey()
		l.token(tKey)
	case c == ':' && (l.flowLevel > 0 || l.isBlankZ(1)):
		l.fetchValue()
	case c == '*' || c == '&':
		l.saveSimpleKey()
		l.simpleKeyAllowed = false
		l.skip()
		start := l.p
		for l.isAlpha(0) {
			l.skip()
		}
		if l.p == start || !(l.isBlankZ(0) || bytes.IndexByte([]byte("?:,]}%@`"), l.at(0)) >= 0) {
			l.fail()
			return false
		}
		if c == '*' {
			l.aliases++
			l.token(tAlias)
		} else {
			l.token(tAnchor)
		}
	case c == '!':
		l.saveSimpleKey()
		l.simpleKeyAllowed = false
		// The tag runs to a blank or a break (yaml.v2 fails on any
		// other end); its characters hold no token.
		for !l.isBlankZ(0) {
			l.skip()
		}
		l.token(tTag)
	case (c == '|' || c == '>') && l.flowLevel == 0:
		l.removeSimpleKey()
		l.simpleKeyAllowed = true
		l.blockScalar()
	case c == '\'' || c == '"':
		l.saveSimpleKey()
		l.simpleKeyAllowed = false
		l.flowScalar(c == '\'')
	case l.startsPlain(c):
		l.saveSimpleKey()
		l.simpleKeyAllowed = false
		l.plainScalar()
	default:
		l.fail() // a character that cannot start any token
		return false
	}
	return !l.failed
}

// endEntry counts, at the end of a flow entry, the empty value of a key
// without one ("{a}", "[? a]").
func (l *lexer) endEntry() {
	f := l.flowTop()
	if f == nil {
		return
	}
	if (f.mapping && f.node || f.key) && !f.value {
		l.n++
	}
}

// pairKey notes a KEY in a flow entry: in a sequence it starts a mapping
// of one pair ("[a: b]").
func (l *lexer) pairKey() {
	if f := l.flowTop(); f != nil {
		if !f.mapping && !f.key {
			l.n++
		}
		f.key = true
	}
}

func (l *lexer) isAlpha(i int) bool {
	c := l.at(i)
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '-'
}

// startsPlain is yaml.v2's test for a plain scalar's first character.
func (l *lexer) startsPlain(c byte) bool {
	if !(l.isBlankZ(0) || bytes.IndexByte([]byte("-?:,[]{}#&*!|>'\"%@`"), c) >= 0) {
		return true
	}
	if c == '-' && !l.isBlank(1) {
		return true
	}
	return l.flowLevel == 0 && (c == '?' || c == ':') && !l.isBlankZ(1)
}

// scanToNextToken is yaml_parser_scan_to_next_token: spaces, tabs where
// allowed, comments and line breaks.
func (l *lexer) scanToNextToken() {
	for {
		if l.col == 0 && l.at(0) == 0xEF && l.at(1) == 0xBB && l.at(2) == 0xBF {
			l.skip()
		}
		for l.at(0) == ' ' || (l.flowLevel > 0 || !l.simpleKeyAllowed) && l.at(0) == '\t' {
			l.skip()
		}
		if l.at(0) == '#' {
			for !l.isBreakZ(0) {
				l.skip()
			}
		}
		if !l.isBreak(0) {
			return
		}
		l.skipLine()
		if l.flowLevel == 0 {
			l.simpleKeyAllowed = true
		}
	}
}

// keyValid is yaml_simple_key_is_valid: a key must be on one line and
// its ':' within 1024 characters.
func (l *lexer) keyValid(k *simpleKey) bool {
	if !k.possible {
		return false
	}
	if k.line < l.line || k.index+1024 < l.index {
		if k.required {
			l.fail() // could not find expected ':'
			return false
		}
		k.possible = false
		return false
	}
	return true
}

// staleKeys checks the block context's key before each token, as
// yaml.v2's token queue does: a required key that went stale fails.
func (l *lexer) staleKeys() {
	k := &l.keys[len(l.keys)-1]
	if k.possible {
		l.keyValid(k)
	}
}

func (l *lexer) saveSimpleKey() {
	required := l.flowLevel == 0 && l.indent == l.col
	if !l.simpleKeyAllowed {
		return
	}
	l.removeSimpleKey()
	l.keys[len(l.keys)-1] = simpleKey{possible: true, required: required, index: l.index, line: l.line, col: l.col, expecting: l.expect}
}

func (l *lexer) removeSimpleKey() {
	k := &l.keys[len(l.keys)-1]
	if k.possible && k.required {
		l.fail()
		return
	}
	k.possible = false
}

// rollIndent is yaml_parser_roll_indent: a block collection starting at
// col deeper than the current one.
func (l *lexer) rollIndent(col int, k tokenKind) {
	if l.flowLevel > 0 || l.indent >= col {
		return
	}
	l.indents = append(l.indents, l.indent)
	l.indent = col
	if len(l.indents) > 10000 {
		l.fail()
		return
	}
	l.token(k)
}

// unrollIndent is yaml_parser_unroll_indent: each block collection ended.
func (l *lexer) unrollIndent(col int) {
	if l.flowLevel > 0 {
		return
	}
	for l.indent > col {
		l.token(tBlockEnd)
		l.indent = l.indents[len(l.indents)-1]
		l.indents = l.indents[:len(l.indents)-1]
	}
}

// fetchValue is yaml_parser_fetch_value.
func (l *lexer) fetchValue() {
	k := &l.keys[len(l.keys)-1]
	if l.keyValid(k) {
		if l.failed {
			return
		}
		// The KEY token goes before the key; in the block context a
		// mapping may start there.
		if l.flowLevel == 0 && l.indent < k.col {
			l.indents = append(l.indents, l.indent)
			l.indent = k.col
			if len(l.indents) > 10000 {
				l.fail()
				return
			}
			l.n++ // BLOCK-MAPPING-START, the node expected before the key
		} else if k.expecting {
			l.n++ // the node expected before the key was empty (a: then b: 1 on the next line)
		}
		l.pairKey()
		k.possible = false
		l.simpleKeyAllowed = false
	} else {
		if l.failed {
			return
		}
		if l.flowLevel == 0 {
			if !l.simpleKeyAllowed {
				l.fail() // mapping values are not allowed in this context
				return
			}
			l.rollIndent(l.col, tBlockMapStart)
		}
		// A value without a key: its key is empty, and in a flow
		// sequence it starts a mapping of one pair.
		l.n++
		l.pairKey()
		l.simpleKeyAllowed = l.flowLevel == 0
	}
	if f := l.flowTop(); f != nil {
		f.value = true
	}
	l.skip()
	l.token(tValue)
}

// blockScalar is yaml_parser_scan_block_scalar, without the text.
func (l *lexer) blockScalar() {
	l.skip() // '|' or '>'
	increment := 0
	switch c := l.at(0); {
	case c == '+' || c == '-':
		l.skip()
		if d := l.at(0); d >= '0' && d <= '9' {
			if d == '0' {
				l.fail()
				return
			}
			increment = int(d - '0')
			l.skip()
		}
	case c >= '0' && c <= '9':
		if c == '0' {
			l.fail()
			return
		}
		increment = int(c - '0')
		l.skip()
		if d := l.at(0); d == '+' || d == '-' {
			l.skip()
		}
	}
	for l.isBlank(0) {
		l.skip()
	}
	if l.at(0) == '#' {
		for !l.isBreakZ(0) {
			l.skip()
		}
	}
	if !l.isBreakZ(0) {
		l.fail() // did not find expected comment or line break
		return
	}
	if l.isBreak(0) {
		l.skipLine()
	}
	indent := 0
	if increment > 0 {
		if l.indent >= 0 {
			indent = l.indent + increment
		} else {
			indent = increment
		}
	}
	if !l.blockBreaks(&indent) {
		return
	}
	for l.col == indent && !l.end() {
		for !l.isBreakZ(0) {
			l.skip()
		}
		if l.isBreak(0) {
			l.skipLine()
		}
		if !l.blockBreaks(&indent) {
			return
		}
	}
	l.token(tScalar)
}

// blockBreaks is yaml_parser_scan_block_scalar_breaks: the indentation
// and empty lines; it sets an undetermined indentation.
func (l *lexer) blockBreaks(indent *int) bool {
	maxIndent := 0
	for {
		for (*indent == 0 || l.col < *indent) && l.at(0) == ' ' {
			l.skip()
		}
		if l.col > maxIndent {
			maxIndent = l.col
		}
		if (*indent == 0 || l.col < *indent) && l.at(0) == '\t' {
			l.fail() // a tab character where an indentation space is expected
			return false
		}
		if !l.isBreak(0) {
			break
		}
		l.skipLine()
	}
	if *indent == 0 {
		*indent = max(maxIndent, l.indent+1, 1)
	}
	return true
}

// flowScalar is yaml_parser_scan_flow_scalar, without the text.
func (l *lexer) flowScalar(single bool) {
	l.skip() // the opening quote
	for {
		if l.col == 0 && (l.at(0) == '-' && l.at(1) == '-' && l.at(2) == '-' || l.at(0) == '.' && l.at(1) == '.' && l.at(2) == '.') && l.isBlankZ(3) {
			l.fail() // found unexpected document indicator
			return
		}
		if l.end() {
			l.fail() // found unexpected end of stream
			return
		}
		for !l.isBlankZ(0) {
			c := l.at(0)
			switch {
			case single && c == '\'' && l.at(1) == '\'':
				l.skip()
				l.skip()
				continue
			case single && c == '\'', !single && c == '"':
			case !single && c == '\\' && l.isBreak(1):
				l.skip()
				l.skipLine()
			case !single && c == '\\':
				n := 0
				switch l.at(1) {
				case '0', 'a', 'b', 't', '\t', 'n', 'v', 'f', 'r', 'e', ' ', '"', '\'', '\\', 'N', '_', 'L', 'P':
				case 'x':
					n = 2
				case 'u':
					n = 4
				case 'U':
					n = 8
				default:
					l.fail() // found unknown escape character
					return
				}
				l.skip()
				l.skip()
				for ; n > 0; n-- {
					if d := l.at(0); !(d >= '0' && d <= '9' || d >= 'a' && d <= 'f' || d >= 'A' && d <= 'F') {
						l.fail()
						return
					}
					l.skip()
				}
				continue
			default:
				l.skip()
				continue
			}
			break
		}
		if c := l.at(0); single && c == '\'' || !single && c == '"' {
			break
		}
		for l.isBlank(0) || l.isBreak(0) {
			if l.isBlank(0) {
				l.skip()
			} else {
				l.skipLine()
			}
		}
	}
	l.skip() // the closing quote
	l.token(tScalar)
}

// plainScalar is yaml_parser_scan_plain_scalar, without the text; it
// reports a one-line scalar that starts like a number.
func (l *lexer) plainScalar() {
	indent := l.indent + 1
	start, end := l.p, l.p
	oneLine := true
	leadingBlanks := false
	for {
		if l.col == 0 && (l.at(0) == '-' && l.at(1) == '-' && l.at(2) == '-' || l.at(0) == '.' && l.at(1) == '.' && l.at(2) == '.') && l.isBlankZ(3) {
			break
		}
		if l.at(0) == '#' {
			break
		}
		for !l.isBlankZ(0) {
			c := l.at(0)
			if c == ':' && l.isBlankZ(1) || l.flowLevel > 0 && (c == ',' || c == '?' || c == '[' || c == ']' || c == '{' || c == '}') {
				break
			}
			if leadingBlanks {
				oneLine = false
				leadingBlanks = false
			}
			l.skip()
			end = l.p
		}
		if !(l.isBlank(0) || l.isBreak(0)) {
			break
		}
		for l.isBlank(0) || l.isBreak(0) {
			if l.isBlank(0) {
				if leadingBlanks && l.col < indent && l.at(0) == '\t' {
					l.fail() // a tab character that violates indentation
					return
				}
				l.skip()
			} else {
				leadingBlanks = true
				l.skipLine()
			}
		}
		if l.flowLevel == 0 && l.col < indent {
			break
		}
	}
	l.token(tScalar)
	if leadingBlanks {
		l.simpleKeyAllowed = true
	}
	if l.number != nil && oneLine {
		if c := l.b[start]; c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' {
			l.number(l.b[start:end])
		}
	}
}

package yamlemit

import "strings"

// This file ports the part of go.yaml.in/yaml/v2's emitter (emitterc.go,
// itself a port of libyaml) that yaml.Marshal of a JSON-shaped value
// reaches, keeping its state variables and the order of its writes so the
// bytes match: indentation (2), line width (80), block collections, "{}"
// and "[]" for empty ones, and the scalar styles. Function comments name
// the yaml.v2 function each one mirrors.

const (
	bestIndent = 2
	bestWidth  = 80
)

type scalarStyle uint8

const (
	plainStyle scalarStyle = iota
	singleQuotedStyle
	doubleQuotedStyle
	literalStyle
)

// scalarAnalysis is yaml.v2's scalar_data.
type scalarAnalysis struct {
	multiline           bool
	flowPlainAllowed    bool
	blockPlainAllowed   bool
	singleQuotedAllowed bool
	blockAllowed        bool
}

type emitter struct {
	t       *Tree
	out     []byte
	column  int
	indent  int
	indents []int
	// whitespace: the last character written is a space or nothing;
	// indention: only indentation has been written on this line.
	whitespace bool
	indention  bool
	flowLevel  int

	// The context of the node being written (emit_node's arguments).
	sequenceContext  bool
	mappingContext   bool
	simpleKeyContext bool

	sd scalarAnalysis

	// Scratch for sorting keys.
	runes []rune
	spans [][2]int32
	order []int32
	perm  []entry
}

// AppendYAML appends the document as yaml.Marshal prints it (a single
// document, no "---"), or returns ErrFallback.
func (t *Tree) AppendYAML(dst []byte) ([]byte, error) {
	if len(t.nodes) == 0 || t.dup {
		return dst, ErrFallback
	}
	e := &t.e
	e.t = t
	e.out = dst
	// yaml_emitter_emit_stream_start
	e.indent = -1
	e.indents = e.indents[:0]
	e.column = 0
	e.whitespace = true
	e.indention = true
	e.flowLevel = 0
	// The first document start is implicit: nothing is written.
	if err := e.node(t.Root(), false, false, false); err != nil {
		e.out = nil
		return dst, err
	}
	// yaml_emitter_emit_document_end (implicit).
	e.writeIndent()
	out := e.out
	e.out = nil
	return out, nil
}

// increaseIndent is yaml_emitter_increase_indent.
func (e *emitter) increaseIndent(flow, indentless bool) {
	e.indents = append(e.indents, e.indent)
	if e.indent < 0 {
		if flow {
			e.indent = bestIndent
		} else {
			e.indent = 0
		}
	} else if !indentless {
		e.indent += bestIndent
	}
}

func (e *emitter) popIndent() {
	e.indent = e.indents[len(e.indents)-1]
	e.indents = e.indents[:len(e.indents)-1]
}

// node is yaml_emitter_emit_node with the start of the collection it
// opens.
func (e *emitter) node(n Node, sequence, mapping, simpleKey bool) error {
	e.sequenceContext = sequence
	e.mappingContext = mapping
	e.simpleKeyContext = simpleKey
	nd := &e.t.nodes[n]
	switch nd.kind {
	case Map:
		if e.flowLevel > 0 || nd.n == 0 {
			if nd.n != 0 {
				return ErrFallback // flow content never comes from JSON
			}
			e.emptyFlow('{', '}')
			return nil
		}
		return e.blockMapping(n)
	case List:
		if e.flowLevel > 0 || nd.n == 0 {
			if nd.n != 0 {
				return ErrFallback
			}
			e.emptyFlow('[', ']')
			return nil
		}
		return e.blockSequence(n)
	case String:
		text := e.t.b(nd.text)
		if simplePlain(text) {
			e.writeSimplePlain(text)
			return nil
		}
		e.scalar(text, e.stringStyle(text))
	default:
		// null, bools and numbers are printed plain, and their text
		// ("null", "true", "-1.5e+20") has no space, break or indicator.
		e.writeSimplePlain(e.t.b(nd.text))
	}
	return nil
}

// plainFirst are the first characters of simplePlain strings: ASCII letters
// and punctuation that is no indicator at the start of a scalar and no
// resolve hint ('y', 'n', 't', 'f', 'o' and their capitals are checked
// against the resolve map).
var plainFirst = asciiTable(func(c byte) bool {
	return c|0x20 >= 'a' && c|0x20 <= 'z' || strings.IndexByte("/_$()^=<;\\", c) >= 0
})

// simplePlain reports a string yaml.v2 certainly prints plain and
// unfolded, without analysing it: a plain first character, then ordinary
// ASCII (no space, break or indicator), and not a bool or null. Most keys
// and values of Kubernetes objects are such strings.
func simplePlain(s []byte) bool {
	if len(s) == 0 || !plainFirst[s[0]] {
		return false
	}
	for _, c := range s[1:] {
		if !ordinaryASCII[c] {
			return false
		}
	}
	return resolveHint[s[0]] != 'M' || !resolveMapped(s)
}

// writeSimplePlain is emit_scalar for a simplePlain string or a number:
// writePlain without spaces or breaks, so the indentation it pushes and
// pops changes nothing.
func (e *emitter) writeSimplePlain(s []byte) {
	if !e.whitespace {
		e.put(' ')
	}
	e.out = append(e.out, s...)
	e.column += len(s)
	e.whitespace = false
	e.indention = false
}

// stringStyle is encoder.stringv's style for a string that is not
// simplePlain; it also analyses the string, as scalar needs.
func (e *emitter) stringStyle(text []byte) scalarStyle {
	style := doubleQuotedStyle
	switch {
	case containsByte(text, '\n'):
		style = literalStyle
	case plainIsString(text):
		style = plainStyle
	}
	e.analyzeScalar(text)
	return style
}

func containsByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// emptyFlow is yaml_emitter_emit_flow_sequence_item (or _mapping_key) for
// a collection whose end event follows its start.
func (e *emitter) emptyFlow(open, close byte) {
	e.writeIndicator(open, true, true, false)
	e.increaseIndent(true, false)
	e.flowLevel++
	e.flowLevel--
	e.popIndent()
	e.writeIndicator(close, false, false, false)
}

// blockSequence is yaml_emitter_emit_block_sequence_item.
func (e *emitter) blockSequence(n Node) error {
	e.increaseIndent(false, e.mappingContext && !e.indention)
	nd := e.t.nodes[n]
	for _, it := range e.t.items[nd.start : nd.start+nd.n] {
		e.writeIndent()
		e.writeIndicator('-', true, false, true)
		if err := e.node(it, true, false, false); err != nil {
			return err
		}
	}
	e.popIndent()
	return nil
}

// blockMapping is yaml_emitter_emit_block_mapping_key and _value.
func (e *emitter) blockMapping(n Node) error {
	if !e.t.nodes[n].sorted {
		if err := e.sortKeys(n); err != nil {
			return err
		}
	}
	e.increaseIndent(false, false)
	nd := e.t.nodes[n]
	for i := nd.start; i < nd.start+nd.n; i++ {
		ent := e.t.ents[i]
		key := e.t.b(ent.key)
		e.writeIndent()
		if ent.plain || simplePlain(key) {
			e.writeSimplePlain(key)
			e.writeIndicator(':', false, false, false)
			if err := e.node(ent.val, false, true, false); err != nil {
				return err
			}
			continue
		}
		// The key is a string: encoder.stringv's style, then
		// yaml_emitter_check_simple_key (length is bounded by maxKeyLen).
		style := e.stringStyle(key)
		if !e.sd.multiline {
			e.sequenceContext, e.mappingContext, e.simpleKeyContext = false, true, true
			e.scalar(key, style)
			e.writeIndicator(':', false, false, false)
		} else {
			e.writeIndicator('?', true, false, true)
			e.sequenceContext, e.mappingContext, e.simpleKeyContext = false, true, false
			e.scalar(key, style)
			e.writeIndent()
			e.writeIndicator(':', true, false, true)
		}
		if err := e.node(ent.val, false, true, false); err != nil {
			return err
		}
	}
	e.popIndent()
	return nil
}

// scalar is yaml_emitter_emit_scalar: e.sd must describe value.
func (e *emitter) scalar(value []byte, style scalarStyle) {
	// yaml_emitter_select_scalar_style; the scalar is untagged and
	// implicit, so no tag is ever written.
	if e.simpleKeyContext && e.sd.multiline {
		style = doubleQuotedStyle
	}
	if style == plainStyle {
		if e.flowLevel > 0 && !e.sd.flowPlainAllowed || e.flowLevel == 0 && !e.sd.blockPlainAllowed {
			style = singleQuotedStyle
		}
		if len(value) == 0 && (e.flowLevel > 0 || e.simpleKeyContext) {
			style = singleQuotedStyle
		}
	}
	if style == singleQuotedStyle && !e.sd.singleQuotedAllowed {
		style = doubleQuotedStyle
	}
	if style == literalStyle && (!e.sd.blockAllowed || e.flowLevel > 0 || e.simpleKeyContext) {
		style = doubleQuotedStyle
	}
	e.increaseIndent(true, false)
	allowBreaks := !e.simpleKeyContext
	switch style {
	case plainStyle:
		e.writePlain(value, allowBreaks)
	case singleQuotedStyle:
		e.writeSingleQuoted(value, allowBreaks)
	case doubleQuotedStyle:
		e.writeDoubleQuoted(value, allowBreaks)
	case literalStyle:
		e.writeLiteral(value)
	}
	e.popIndent()
}

// Character classes, as yamlprivateh.go defines them.

func width(b byte) int {
	switch {
	case b&0x80 == 0x00:
		return 1
	case b&0xE0 == 0xC0:
		return 2
	case b&0xF0 == 0xE0:
		return 3
	case b&0xF8 == 0xF0:
		return 4
	}
	return 1 // invalid UTF-8 never reaches here; never loop forever
}

func at(b []byte, i int) byte {
	if i < len(b) {
		return b[i]
	}
	return 0
}

func isPrintable(b []byte, i int) bool {
	c := b[i]
	return c == 0x0A ||
		c >= 0x20 && c <= 0x7E ||
		c == 0xC2 && at(b, i+1) >= 0xA0 ||
		c > 0xC2 && c < 0xED ||
		c == 0xED && at(b, i+1) < 0xA0 ||
		c == 0xEE ||
		c == 0xEF && !(at(b, i+1) == 0xBB && at(b, i+2) == 0xBF) &&
			!(at(b, i+1) == 0xBF && (at(b, i+2) == 0xBE || at(b, i+2) == 0xBF))
}

func isBreak(b []byte, i int) bool {
	c := b[i]
	return c == '\r' || c == '\n' ||
		c == 0xC2 && at(b, i+1) == 0x85 ||
		c == 0xE2 && at(b, i+1) == 0x80 && (at(b, i+2) == 0xA8 || at(b, i+2) == 0xA9)
}

func isBlank(b []byte, i int) bool { return b[i] == ' ' || b[i] == '\t' }

func isBlankz(b []byte, i int) bool {
	return b[i] == ' ' || b[i] == '\t' || b[i] == 0 || isBreak(b, i)
}

func isSpaceAt(b []byte, i int) bool { return i < len(b) && b[i] == ' ' }

// isBOM is yaml.v2's is_bom, which looks at the start of the value
// whatever the position asked about: a string that starts with U+FEFF is
// escaped character by character.
func isBOM(b []byte) bool {
	return len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF
}

// analyzeScalar is yaml_emitter_analyze_scalar.
func (e *emitter) analyzeScalar(value []byte) {
	if len(value) == 0 {
		e.sd = scalarAnalysis{blockPlainAllowed: true, singleQuotedAllowed: true}
		return
	}
	var (
		blockIndicators, flowIndicators, lineBreaks, specialCharacters bool
		breakSpace, spaceBreak                                         bool
		previousSpace, previousBreak                                   bool
	)
	if len(value) >= 3 && (value[0] == '-' && value[1] == '-' && value[2] == '-' || value[0] == '.' && value[1] == '.' && value[2] == '.') {
		blockIndicators = true
		flowIndicators = true
	}
	precededByWhitespace := true
	for i, w := 0, 0; i < len(value); i += w {
		c := value[i]
		if i > 0 && ordinaryASCII[c] {
			// A run of ASCII that is neither an indicator nor space,
			// break or special: the loop body below would only clear
			// the "previous" flags for each of them.
			j := i + 1
			for j < len(value) && ordinaryASCII[value[j]] {
				j++
			}
			w = j - i
			previousSpace, previousBreak, precededByWhitespace = false, false, false
			continue
		}
		w = width(c)
		followedByWhitespace := i+w >= len(value) || isBlank(value, i+w)
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				flowIndicators = true
				blockIndicators = true
			case '?', ':':
				flowIndicators = true
				if followedByWhitespace {
					blockIndicators = true
				}
			case '-':
				if followedByWhitespace {
					flowIndicators = true
					blockIndicators = true
				}
			}
		} else {
			switch c {
			case ',', '?', '[', ']', '{', '}':
				flowIndicators = true
			case ':':
				flowIndicators = true
				if followedByWhitespace {
					blockIndicators = true
				}
			case '#':
				if precededByWhitespace {
					flowIndicators = true
					blockIndicators = true
				}
			}
		}
		if !isPrintable(value, i) {
			specialCharacters = true
		}
		if c == ' ' {
			if previousBreak {
				breakSpace = true
			}
			previousSpace, previousBreak = true, false
		} else if isBreak(value, i) {
			lineBreaks = true
			if previousSpace {
				spaceBreak = true
			}
			previousSpace, previousBreak = false, true
		} else {
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = isBlankz(value, i)
	}
	// After the loop the previous flags describe the last character (a run
	// of ordinary characters clears them): a space or a break at either
	// end is known without a test in the loop.
	leadingSpace, leadingBreak := value[0] == ' ', isBreak(value, 0)
	trailingSpace, trailingBreak := previousSpace, previousBreak
	// Double quotes hold anything. Single quotes hold no space next to a
	// break and no special character; a literal block no space before a
	// break or at the end and no special character; plain text nothing
	// single quotes refuse, no break, no space or break at either end and
	// no indicator of its context.
	quotable := !breakSpace && !spaceBreak && !specialCharacters
	plain := quotable && !leadingSpace && !leadingBreak && !trailingSpace && !trailingBreak && !lineBreaks
	e.sd = scalarAnalysis{
		multiline:           lineBreaks,
		flowPlainAllowed:    plain && !flowIndicators,
		blockPlainAllowed:   plain && !blockIndicators,
		singleQuotedAllowed: quotable,
		blockAllowed:        !trailingSpace && !spaceBreak && !specialCharacters,
	}
}

// Output primitives: put, put_break, write, write_break.

func (e *emitter) put(c byte) {
	e.out = append(e.out, c)
	e.column++
}

func (e *emitter) putBreak() {
	e.out = append(e.out, '\n')
	e.column = 0
}

// write copies one character and counts one column for it.
func (e *emitter) write(value []byte, i *int) {
	w := width(value[*i])
	e.out = append(e.out, value[*i:*i+w]...)
	e.column++
	*i += w
}

// writeRun writes the character at *i and the ASCII characters after it
// that run[] marks: characters the writer's loop would copy one by one
// with nothing else changing but the column.
func (e *emitter) writeRun(value []byte, i *int, run *[256]bool) {
	j := *i + width(value[*i])
	for j < len(value) && run[value[j]] {
		j++
	}
	e.out = append(e.out, value[*i:j]...)
	e.column += 1 + j - *i - width(value[*i])
	*i = j
}

// Byte tables of the fast paths; all hold only ASCII.
var (
	// ordinaryASCII: printable, not space, not an indicator inside a
	// scalar (analyzeScalar).
	ordinaryASCII = asciiTable(func(c byte) bool { return c > ' ' && c < 0x7F && !strings.ContainsRune(",?[]{}:#", rune(c)) })
	// plainRun: copied as is in a plain scalar (no space, no break).
	plainRun = asciiTable(func(c byte) bool { return c != ' ' && c != '\r' && c != '\n' })
	// singleQuotedRun: copied as is inside single quotes.
	singleQuotedRun = asciiTable(func(c byte) bool { return c > ' ' && c < 0x7F && c != '\'' })
	// doubleQuotedRun: copied as is inside double quotes.
	doubleQuotedRun = asciiTable(func(c byte) bool { return c > ' ' && c < 0x7F && c != '"' && c != '\\' })
	// literalRun: copied as is in a literal block (no break).
	literalRun = asciiTable(func(c byte) bool { return c >= ' ' && c < 0x7F })
)

func asciiTable(f func(byte) bool) *[256]bool {
	var t [256]bool
	for c := 0; c < 0x80; c++ {
		t[c] = f(byte(c))
	}
	return &t
}

func (e *emitter) writeBreak(value []byte, i *int) {
	if value[*i] == '\n' {
		e.putBreak()
		*i++
	} else {
		e.write(value, i)
		e.column = 0
	}
}

// writeIndent is yaml_emitter_write_indent.
func (e *emitter) writeIndent() {
	indent := e.indent
	if indent < 0 {
		indent = 0
	}
	if !e.indention || e.column > indent || e.column == indent && !e.whitespace {
		e.putBreak()
	}
	for e.column < indent {
		e.put(' ')
	}
	e.whitespace = true
	e.indention = true
}

// writeIndicator is yaml_emitter_write_indicator for a one-character
// indicator.
func (e *emitter) writeIndicator(c byte, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.put(' ')
	}
	e.put(c)
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

// writePlain is yaml_emitter_write_plain_scalar.
func (e *emitter) writePlain(value []byte, allowBreaks bool) {
	if !e.whitespace {
		e.put(' ')
	}
	e.writeFoldedText(value, allowBreaks, false)
	e.whitespace = false
	e.indention = false
}

// writeSingleQuoted is yaml_emitter_write_single_quoted_scalar.
func (e *emitter) writeSingleQuoted(value []byte, allowBreaks bool) {
	e.writeIndicator('\'', true, false, false)
	e.writeFoldedText(value, allowBreaks, true)
	e.writeIndicator('\'', false, false, false)
	e.whitespace = false
	e.indention = false
}

// writeFoldedText writes the text of a plain or a single-quoted scalar:
// libyaml folds both alike (a space past the best width becomes a line
// break, a break is written twice) and they differ only in the spaces
// that may break (inside quotes not the first or the last) and in the
// doubled quote.
func (e *emitter) writeFoldedText(value []byte, allowBreaks, quoted bool) {
	run := plainRun
	if quoted {
		run = singleQuotedRun
	}
	spaces := false
	breaks := false
	for i := 0; i < len(value); {
		if value[i] == ' ' {
			if allowBreaks && !spaces && e.column > bestWidth && (!quoted || i > 0 && i < len(value)-1) && !isSpaceAt(value, i+1) {
				e.writeIndent()
				i++
			} else {
				e.write(value, &i)
			}
			spaces = true
		} else if isBreak(value, i) {
			if !breaks && value[i] == '\n' {
				e.putBreak()
			}
			e.writeBreak(value, &i)
			e.indention = true
			breaks = true
		} else {
			if breaks {
				e.writeIndent()
			}
			if quoted && value[i] == '\'' {
				e.put('\'')
				e.write(value, &i)
			} else {
				e.writeRun(value, &i, run)
			}
			e.indention = false
			spaces = false
			breaks = false
		}
	}
}

const hexDigits = "0123456789ABCDEF"

// writeDoubleQuoted is yaml_emitter_write_double_quoted_scalar.
func (e *emitter) writeDoubleQuoted(value []byte, allowBreaks bool) {
	spaces := false
	e.writeIndicator('"', true, false, false)
	bom := isBOM(value)
	for i := 0; i < len(value); {
		c := value[i]
		if bom || !isPrintable(value, i) || isBreak(value, i) || c == '"' || c == '\\' {
			w := width(c)
			var v rune
			switch w {
			case 1:
				v = rune(c & 0x7F)
			case 2:
				v = rune(c & 0x1F)
			case 3:
				v = rune(c & 0x0F)
			case 4:
				v = rune(c & 0x07)
			}
			for k := 1; k < w; k++ {
				v = v<<6 + rune(value[i+k])&0x3F
			}
			i += w
			e.put('\\')
			switch v {
			case 0x00:
				e.put('0')
			case 0x07:
				e.put('a')
			case 0x08:
				e.put('b')
			case 0x09:
				e.put('t')
			case 0x0A:
				e.put('n')
			case 0x0B:
				e.put('v')
			case 0x0C:
				e.put('f')
			case 0x0D:
				e.put('r')
			case 0x1B:
				e.put('e')
			case 0x22:
				e.put('"')
			case 0x5C:
				e.put('\\')
			case 0x85:
				e.put('N')
			case 0xA0:
				e.put('_')
			case 0x2028:
				e.put('L')
			case 0x2029:
				e.put('P')
			default:
				digits := 8
				switch {
				case v <= 0xFF:
					e.put('x')
					digits = 2
				case v <= 0xFFFF:
					e.put('u')
					digits = 4
				default:
					e.put('U')
				}
				for k := (digits - 1) * 4; k >= 0; k -= 4 {
					e.put(hexDigits[(v>>uint(k))&0x0F])
				}
			}
			spaces = false
		} else if c == ' ' {
			if allowBreaks && !spaces && e.column > bestWidth && i > 0 && i < len(value)-1 {
				e.writeIndent()
				if isSpaceAt(value, i+1) {
					e.put('\\')
				}
				i++
			} else {
				e.write(value, &i)
			}
			spaces = true
		} else {
			if bom {
				e.write(value, &i)
			} else {
				e.writeRun(value, &i, doubleQuotedRun)
			}
			spaces = false
		}
	}
	e.writeIndicator('"', false, false, false)
	e.whitespace = false
	e.indention = false
}

// writeBlockScalarHints is yaml_emitter_write_block_scalar_hints.
func (e *emitter) writeBlockScalarHints(value []byte) {
	if value[0] == ' ' || isBreak(value, 0) {
		e.writeIndicator('0'+bestIndent, false, false, false)
	}
	var chomp byte
	i := len(value) - 1
	for i > 0 && value[i]&0xC0 == 0x80 {
		i--
	}
	if !isBreak(value, i) {
		chomp = '-'
	} else if i == 0 {
		chomp = '+'
	} else {
		i--
		for i > 0 && value[i]&0xC0 == 0x80 {
			i--
		}
		if isBreak(value, i) {
			chomp = '+'
		}
	}
	if chomp != 0 {
		e.writeIndicator(chomp, false, false, false)
	}
}

// writeLiteral is yaml_emitter_write_literal_scalar.
func (e *emitter) writeLiteral(value []byte) {
	e.writeIndicator('|', true, false, false)
	e.writeBlockScalarHints(value)
	e.putBreak()
	e.indention = true
	e.whitespace = true
	// libyaml's "breaks" flag: e.indention holds exactly when the last
	// thing written is a break, as a break sets it and text clears it.
	for i := 0; i < len(value); {
		if isBreak(value, i) {
			e.writeBreak(value, &i)
			e.indention = true
		} else {
			if e.indention {
				e.writeIndent()
			}
			e.writeRun(value, &i, literalRun)
			e.indention = false
		}
	}
}

package chartgen

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/internal/plainjson"
)

// The stacks are written as the YAML the builders render, with an action
// only where the output depends on the input: a value is `{{ .cluster }}`
// (a field of the config dict), a multi-line value (resources, spread
// constraints, affinity) an action indenting the config's text to its
// field. While an object is written, a line that only some renders hold
// starts with a tag such as #STORAGE_CLASS# at column 0 (the other caller's
// lines, an optional field's); the merge of both callers' objects (merge.go)
// compares lines with their tags, and ifBlocks then turns each run of
// tagged lines into an if block ({{- if .storageClass }}), so no tag, no
// placeholder and no regular expression is left for the render. A config
// field is written with dot ({{ .cluster }}), not $ ({{ $.cluster }}):
// Helm parses every template at every render, and text/template parses
// $.cluster into a variable and a field chain, some 16 allocations where
// .cluster takes 9; only inside a range, where dot is the item, is it $.

// ruleMode says how a value-dependent field of a shape is written.
type ruleMode int

const (
	// scalarExpr writes the field as `key: TOKEN` (a number).
	scalarExpr ruleMode = iota
	// stringExpr writes the field as `key: "TOKEN"` (a name).
	stringExpr
	// optional writes the field as generated, tagged with TOKEN's tag: it
	// is kept when the config's field is not empty.
	optional
	// optionalBlock writes `key:` and an action indenting TOKEN's config
	// field, tagged: kept when the config's field is not empty.
	optionalBlock
	// blockOrDefault writes `key:` and an action indenting TOKEN's config
	// field, tagged, and the field's value as generated (the builder's
	// default) tagged with NO_ and the tag: the config's field when it is
	// not empty, else the default.
	blockOrDefault
	// stringList writes a list of strings as an action indenting TOKEN's
	// config field, whose text the config writes.
	stringList
	// rangeTenants writes a list whose items repeat per tenant of
	// $.tenants; the generated items of the first tenant are the body.
	rangeTenants
	// textBlock writes a multi-line string as `key: |-` and an action
	// printing TOKEN, a template expression of the text (without a
	// trailing newline), indented to the field: only the renders that
	// reach the field run it.
	textBlock
)

// rule is how one field path of a shape is written: token names the config
// field (tokenFor), which also decides a tag.
type rule struct {
	mode  ruleMode
	token string
}

// tagOf is the tag of the lines a token's field decides: __STORAGE_CLASS__
// tags #STORAGE_CLASS#.
func tagOf(token string) string { return strings.Trim(token, "_") }

// subst is one substitution of sentinel text by the token of a config field
// (written as its action), or, for a local substitution, by a range
// variable's action.
type subst struct {
	from string
	to   string
}

// emitter writes one object as template lines: the object's YAML with every
// sentinel replaced by its config field's action and every value-dependent
// field written as its rule says.
type emitter struct {
	lines []string
	// subs are substring substitutions by config fields, applied in order
	// (longest first).
	subs []subst
	// local are substitutions by template expressions that take
	// precedence (range variables).
	local []subst
	rules map[string]rule
	used  map[string]bool
	// tenants are the sentinel namespace's tenant path (rangeTenants).
	tenants []string
	// reasons are the why-comments written before the fields at their
	// paths (see reasons.go); said records those written.
	reasons map[string]string
	said    map[string]bool
	// tags are the tags written, by the rule mode that wrote them.
	tags map[string]ruleMode
	// delims is set when the data holds template delimiters (shared by
	// the emitters of one object).
	delims *bool
	// acted is set when an action or a comment is written (shared too).
	acted *bool
	// inRange is set inside a range, where the config is $, not dot.
	inRange bool
}

// sub is an emitter for a part of the same object: it shares everything
// but the output lines.
func (e *emitter) sub() *emitter {
	return &emitter{subs: e.subs, local: e.local, rules: e.rules, used: e.used, tenants: e.tenants,
		reasons: e.reasons, said: e.said, tags: e.tags, delims: e.delims, acted: e.acted, inRange: e.inRange}
}

// data notes a string of the objects' data, which may hold template
// delimiters.
func (e *emitter) data(s string) {
	if e.delims != nil && (strings.Contains(s, "{{") || strings.Contains(s, "}}")) {
		*e.delims = true
	}
}

// reason writes the why-comment of path, once, as a template comment: it
// is part of the templates a chart maintainer reviews and never reaches the
// rendered YAML.
func (e *emitter) reason(indent int, path string) {
	text, ok := e.reasons[path]
	if !ok || e.said[path] {
		return
	}
	e.said[path] = true
	e.act()
	e.lines = append(e.lines, commentLines(indent, text)...)
}

// commentLines wraps text into a template comment at indent.
func commentLines(indent int, text string) []string {
	pad := strings.Repeat(" ", indent)
	words := strings.Fields(text)
	var out []string
	line := pad + "{{- /*"
	for _, w := range words {
		if len(line)+1+len(w) > 80 && strings.TrimSpace(line) != "{{- /*" {
			out = append(out, line)
			line = pad + "   "
		}
		line += " " + w
	}
	return append(out, line+" */}}")
}

func (e *emitter) add(indent int, s string) {
	e.lines = append(e.lines, strings.Repeat(" ", indent)+s)
}

func (e *emitter) action(indent int, s string) {
	e.act()
	e.add(indent, "{{- "+s+" }}")
}

func (e *emitter) act() {
	if e.acted != nil {
		*e.acted = true
	}
}

func isAction(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " "), "{{-")
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// mapBody writes the entries of m at indent.
func (e *emitter) mapBody(m map[string]any, indent int, path string) error {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if err := e.entry(k, m[k], indent, joinPath(path, k)); err != nil {
			return err
		}
	}
	return nil
}

// tokenText is how the stacks write a config field's value: an action
// printing it.
func tokenText(key string) string { return "{{ ." + key + " }}" }

// token writes a value of the config, the action of its token's field.
func (e *emitter) token(t string) string {
	e.act()
	if e.inRange {
		return "{{ $." + keyFor(t) + " }}"
	}
	return tokenText(keyFor(t))
}

// block writes the action that prints a multi-line config field indented
// to its place, tagged.
func (e *emitter) block(token string, indent int, tag string) {
	e.act()
	e.tagged(tag, []string{blockAction(token, indent)})
}

// blockAction prints the config field of token indented by indent: the
// field's text has no final newline, and the action stands on its own line.
func blockAction(token string, indent int) string {
	return fmt.Sprintf("{{ indent %d .%s }}", indent, keyFor(token))
}

// tagged writes lines with tag at column 0; template comments stay as
// they are (they render nothing, and their leading trim stops at the tag
// of the line before).
func (e *emitter) tagged(tag string, lines []string) {
	in := false
	for _, l := range lines {
		if strings.Contains(l, "{{- /*") {
			in = true
		}
		if in {
			e.lines = append(e.lines, l)
		} else {
			e.lines = append(e.lines, "#"+tag+"#"+l)
		}
		if strings.Contains(l, "*/}}") {
			in = false
		}
	}
}

// entry writes `key: value` at indent, applying the rule for path if any.
func (e *emitter) entry(key string, v any, indent int, path string) error {
	e.reason(indent, path)
	r, ok := e.rules[path]
	if !ok {
		return e.plainEntry(key, v, indent, path)
	}
	e.used[path] = true
	k := e.key(key)
	switch r.mode {
	case scalarExpr:
		e.add(indent, k+": "+e.token(r.token))
	case stringExpr:
		e.add(indent, k+": \""+e.token(r.token)+"\"")
	case optional:
		sub := e.sub()
		if err := sub.plainEntry(key, v, indent, path); err != nil {
			return err
		}
		e.tags[tagOf(r.token)] = optional
		e.tagged(tagOf(r.token), sub.lines)
	case optionalBlock:
		e.tags[tagOf(r.token)] = optional
		e.tagged(tagOf(r.token), []string{strings.Repeat(" ", indent) + k + ":"})
		e.block(r.token, indent+2, tagOf(r.token))
	case blockOrDefault:
		sub := e.sub()
		if err := sub.plainEntry(key, v, indent, path); err != nil {
			return err
		}
		if len(sub.lines) < 2 {
			return fmt.Errorf("%s: the default of a block must be a block", path)
		}
		e.tags[tagOf(r.token)] = optional
		e.tags["NO_"+tagOf(r.token)] = blockOrDefault
		e.lines = append(e.lines, sub.lines[0])
		e.block(r.token, indent+2, tagOf(r.token))
		e.tagged("NO_"+tagOf(r.token), sub.lines[1:])
	case stringList:
		if _, ok := v.([]any); !ok {
			return fmt.Errorf("%s: expected a list of strings", path)
		}
		e.add(indent, k+":")
		e.act()
		e.lines = append(e.lines, blockAction(r.token, indent))
	case textBlock:
		if t, ok := v.(string); !ok || strings.HasSuffix(t, "\n") {
			return fmt.Errorf("%s: expected a string without a final newline", path)
		}
		e.add(indent, k+": |-")
		e.act()
		e.lines = append(e.lines, fmt.Sprintf("{{ %s | indent %d }}", r.token, indent+2))
	case rangeTenants:
		return e.tenantRange(k, v, indent, path)
	default:
		return fmt.Errorf("%s: unknown rule mode %d", path, r.mode)
	}
	return nil
}

// tenantRange writes a list whose items come in equal groups, one per
// tenant on the sentinel namespace's path, as a range over $.tenants. Every
// group must write the same text once its tenant is replaced by $t; that
// proves the list is the per-tenant repetition the range reproduces.
func (e *emitter) tenantRange(key string, v any, indent int, path string) error {
	items, ok := v.([]any)
	if !ok || len(e.tenants) == 0 || len(items)%len(e.tenants) != 0 {
		return fmt.Errorf("%s: expected a list of %d equal per-tenant groups", path, len(e.tenants))
	}
	per := len(items) / len(e.tenants)
	var body []string
	for i, t := range e.tenants {
		sub := e.sub()
		sub.local = []subst{{from: t, to: "$t"}}
		sub.inRange = true
		if err := sub.listItems(items[i*per:(i+1)*per], indent, path); err != nil {
			return err
		}
		for _, l := range sub.lines {
			if strings.HasPrefix(l, "#") {
				// ifBlocks writes conditions on dot, which a range changes.
				return fmt.Errorf("%s: a per-tenant item has a line of one caller or one optional field", path)
			}
		}
		if i == 0 {
			body = sub.lines
			continue
		}
		if strings.Join(sub.lines, "\n") != strings.Join(body, "\n") {
			return fmt.Errorf("%s: the group of tenant %q differs from the first group", path, t)
		}
	}
	e.add(indent, key+":")
	e.action(indent, "range $t := .tenants")
	e.lines = append(e.lines, body...)
	e.action(indent, "end")
	return nil
}

func (e *emitter) plainEntry(key string, v any, indent int, path string) error {
	k := e.key(key)
	if flow, ok := emptyFlow(v); ok {
		e.add(indent, k+": "+flow)
		return nil
	}
	switch t := v.(type) {
	case map[string]any:
		e.add(indent, k+":")
		return e.mapBody(t, indent+2, path)
	case []any:
		e.add(indent, k+":")
		return e.listItems(t, indent, path)
	}
	return e.scalarLine(indent, k+": ", v, path)
}

// listItems writes items as a block sequence whose dashes sit at indent.
func (e *emitter) listItems(items []any, indent int, path string) error {
	for i, it := range items {
		p := fmt.Sprintf("%s[%d]", path, i)
		if flow, ok := emptyFlow(it); ok {
			e.add(indent, "- "+flow)
			continue
		}
		var err error
		switch t := it.(type) {
		case map[string]any, []any:
			sub := e.sub()
			if err = sub.collection(t, indent+2, p); err == nil {
				e.item(indent, sub.lines)
			}
		default:
			err = e.scalarLine(indent, "- ", it, p)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// collection writes a map's entries, or a list's items with their
// dashes, at indent.
func (e *emitter) collection(v any, indent int, path string) error {
	if m, ok := v.(map[string]any); ok {
		return e.mapBody(m, indent, path)
	}
	return e.listItems(v.([]any), indent, path)
}

// emptyFlow is the flow form of v where v is an empty map or list.
func emptyFlow(v any) (string, bool) {
	switch t := v.(type) {
	case map[string]any:
		return "{}", len(t) == 0
	case []any:
		return "[]", len(t) == 0
	}
	return "", false
}

// scalarLine writes the scalar v after prefix ("key: " or "- ").
func (e *emitter) scalarLine(indent int, prefix string, v any, path string) error {
	inline, block, err := e.scalar(v, indent)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	e.add(indent, prefix+inline)
	e.lines = append(e.lines, block...)
	return nil
}

// item writes a sequence item whose content lines are indented by two more
// than the dash: the first content line joins the dash unless it is a
// template action (whose leading trim would swallow the dash's line end)
// or tagged.
func (e *emitter) item(indent int, content []string) {
	if isAction(content[0]) || strings.HasPrefix(content[0], "#") {
		e.add(indent, "-")
		e.lines = append(e.lines, content...)
		return
	}
	e.add(indent, "- "+strings.TrimPrefix(content[0], strings.Repeat(" ", indent+2)))
	e.lines = append(e.lines, content[1:]...)
}

// plainSafe are strings YAML reads back as the same string when written
// unquoted: they start with a letter, "_" or "/" and hold no character with
// a meaning in YAML. Words YAML 1.1 reads as booleans or null are excluded.
var plainSafe = regexp.MustCompile(`^[A-Za-z_/][A-Za-z0-9_./-]*$`)

var yamlWords = map[string]bool{"y": true, "yes": true, "n": true, "no": true, "true": true, "false": true, "on": true, "off": true, "null": true}

func (e *emitter) key(k string) string {
	e.data(k)
	if out, ok := e.substituted(k); ok {
		return out
	}
	if plainSafe.MatchString(k) && !yamlWords[strings.ToLower(k)] {
		return k
	}
	return jsonQuote(k)
}

// scalar writes a scalar: inline is what follows "key: " or "- ", block the
// lines of a literal block scalar (indented by two more than indent).
func (e *emitter) scalar(v any, indent int) (inline string, block []string, err error) {
	switch t := v.(type) {
	case nil:
		return "null", nil, nil
	case bool:
		return strconv.FormatBool(t), nil, nil
	case json.Number:
		return t.String(), nil, nil
	case string:
		e.data(t)
		if lines, ok := blockLines(t); ok {
			header := "|"
			switch {
			case !strings.HasSuffix(t, "\n"):
				header = "|-"
			case strings.HasSuffix(t, "\n\n"):
				header = "|+"
			}
			pad := strings.Repeat(" ", indent+2)
			for _, l := range lines {
				if l == "" {
					block = append(block, "")
					continue
				}
				block = append(block, pad+e.substitute(l))
			}
			return header, block, nil
		}
		if out, ok := e.substituted(t); ok {
			return out, nil, nil
		}
		if plainSafe.MatchString(t) && !yamlWords[strings.ToLower(t)] {
			return t, nil, nil
		}
		return jsonQuote(t), nil, nil
	default:
		return "", nil, fmt.Errorf("unexpected value of type %T", v)
	}
}

// substituted writes a one-line string that holds sentinel text as a
// double-quoted YAML string with the config fields' actions (or a range
// variable's) in place of the sentinels; ok is false when it holds none.
// The substituted values are validated names and numbers, which need no
// escaping inside double quotes.
func (e *emitter) substituted(s string) (string, bool) {
	for _, l := range e.local {
		if s == l.from {
			e.act()
			return `"{{ ` + l.to + ` }}"`, true
		}
	}
	if !e.holdsSentinel(s) {
		return "", false
	}
	return e.substitute(jsonQuote(s)), true
}

func (e *emitter) holdsSentinel(s string) bool {
	for _, l := range e.local {
		if strings.Contains(s, l.from) {
			return true
		}
	}
	for _, sb := range e.subs {
		if strings.Contains(s, sb.from) {
			return true
		}
	}
	return false
}

// substitute replaces sentinel text in already-written YAML text.
func (e *emitter) substitute(text string) string {
	for _, l := range e.local {
		if strings.Contains(text, l.from) {
			e.act()
			text = strings.ReplaceAll(text, l.from, "{{ "+l.to+" }}")
		}
	}
	for _, sb := range e.subs {
		if strings.Contains(text, sb.from) {
			text = strings.ReplaceAll(text, sb.from, e.token(sb.to))
		}
	}
	return text
}

// blockLines splits a multi-line string for a literal block scalar; ok is
// false when a block scalar could not carry it exactly (then it is written
// double-quoted): a leading space on the first line would need an
// indentation indicator, and a line of only blanks reads back as empty.
func blockLines(s string) ([]string, bool) {
	if !strings.Contains(s, "\n") || strings.ContainsAny(s, "\r\t") || strings.HasPrefix(s, " ") {
		return nil, false
	}
	body := strings.TrimRight(s, "\n")
	trailing := len(s) - len(body)
	lines := strings.Split(body, "\n")
	for _, l := range lines {
		if l != "" && strings.TrimSpace(l) == "" {
			return nil, false
		}
	}
	// Keep chomping ("|+") preserves the trailing empty lines beyond the
	// first line break.
	for i := 1; i < trailing; i++ {
		lines = append(lines, "")
	}
	return lines, true
}

// jsonQuote writes s as a JSON string, which is also a valid YAML
// double-quoted scalar.
func jsonQuote(s string) string {
	b, _ := plainjson.Marshal(s, "") // encoding a string cannot fail
	return string(b)
}

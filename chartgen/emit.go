package chartgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// ruleMode says how a value-dependent field of a shape is written.
type ruleMode int

const (
	// scalarExpr writes the field as `key: {{ expr }}` (a number).
	scalarExpr ruleMode = iota
	// stringExpr writes the field as `key: "{{ expr }}"` (a name).
	stringExpr
	// yamlExpr writes the field as toYaml of expr.
	yamlExpr
	// optional writes the field as generated, only when expr is not empty.
	optional
	// optionalYAML writes toYaml of expr, only when expr is not empty.
	optionalYAML
	// yamlOrDefault writes toYaml of expr when it is not empty, else the
	// field as generated (the builder's default).
	yamlOrDefault
	// rangeTenants writes a list whose items repeat per tenant of
	// $.tenants; the generated items of the first tenant are the body.
	rangeTenants
)

// rule is how one field path of a shape is written.
type rule struct {
	mode ruleMode
	expr string
}

// subst is one substitution of sentinel text by a template expression.
type subst struct {
	from string
	expr string
}

// emitter writes one object as template lines: the object's YAML with every
// sentinel replaced by the expression that computes it and every
// value-dependent field written as its rule says.
type emitter struct {
	lines []string
	// subs are substring substitutions, applied in order (longest first).
	subs []subst
	// local are substitutions that take precedence (range variables).
	local []subst
	rules map[string]rule
	used  map[string]bool
	// tenants are the sentinel namespace's tenant path (rangeTenants).
	tenants []string
	// reasons are the why-comments written before the fields at their
	// paths (see reasons.go); said records those written.
	reasons map[string]string
	said    map[string]bool
}

// sub is an emitter for a part of the same object: it shares everything
// but the output lines.
func (e *emitter) sub() *emitter {
	return &emitter{subs: e.subs, local: e.local, rules: e.rules, used: e.used, tenants: e.tenants, reasons: e.reasons, said: e.said}
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
	e.add(indent, "{{- "+s+" }}")
}

func isAction(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " "), "{{-")
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// mapBody writes the entries of m at indent.
func (e *emitter) mapBody(m map[string]any, indent int, path string) error {
	for _, k := range sortedKeys(m) {
		if err := e.entry(k, m[k], indent, joinPath(path, k)); err != nil {
			return err
		}
	}
	return nil
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
		e.add(indent, k+": {{ "+r.expr+" }}")
	case stringExpr:
		e.add(indent, k+": \"{{ "+r.expr+" }}\"")
	case yamlExpr:
		e.toYAML(k, r.expr, indent)
	case optional:
		e.action(indent, "if "+r.expr)
		if err := e.plainEntry(key, v, indent, path); err != nil {
			return err
		}
		e.action(indent, "end")
	case optionalYAML:
		e.action(indent, "if "+r.expr)
		e.toYAML(k, r.expr, indent)
		e.action(indent, "end")
	case yamlOrDefault:
		e.action(indent, "if "+r.expr)
		e.toYAML(k, r.expr, indent)
		e.action(indent, "else")
		if err := e.plainEntry(key, v, indent, path); err != nil {
			return err
		}
		e.action(indent, "end")
	case rangeTenants:
		return e.tenantRange(k, v, indent, path)
	default:
		return fmt.Errorf("%s: unknown rule mode %d", path, r.mode)
	}
	return nil
}

func (e *emitter) toYAML(key, expr string, indent int) {
	e.add(indent, key+":")
	e.action(indent+2, fmt.Sprintf("toYaml %s | nindent %d", expr, indent+2))
}

// tenantRange writes a list whose items come in equal groups, one per
// tenant on the sentinel namespace's path, as a range over $c.tenants. Every
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
		sub.local = []subst{{from: t, expr: "$t"}}
		if err := sub.listItems(items[i*per:(i+1)*per], indent, path); err != nil {
			return err
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
	e.action(indent, "range $t := $.tenants")
	e.lines = append(e.lines, body...)
	e.action(indent, "end")
	return nil
}

func (e *emitter) plainEntry(key string, v any, indent int, path string) error {
	k := e.key(key)
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			e.add(indent, k+": {}")
			return nil
		}
		e.add(indent, k+":")
		return e.mapBody(t, indent+2, path)
	case []any:
		if len(t) == 0 {
			e.add(indent, k+": []")
			return nil
		}
		e.add(indent, k+":")
		return e.listItems(t, indent, path)
	default:
		inline, block, err := e.scalar(v, indent)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		e.add(indent, k+": "+inline)
		e.lines = append(e.lines, block...)
		return nil
	}
}

// listItems writes items as a block sequence whose dashes sit at indent.
func (e *emitter) listItems(items []any, indent int, path string) error {
	for i, it := range items {
		p := fmt.Sprintf("%s[%d]", path, i)
		switch t := it.(type) {
		case map[string]any:
			if len(t) == 0 {
				e.add(indent, "- {}")
				continue
			}
			sub := e.sub()
			if err := sub.mapBody(t, indent+2, p); err != nil {
				return err
			}
			e.item(indent, sub.lines)
		case []any:
			if len(t) == 0 {
				e.add(indent, "- []")
				continue
			}
			sub := e.sub()
			if err := sub.listItems(t, indent+2, p); err != nil {
				return err
			}
			e.item(indent, sub.lines)
		default:
			inline, block, err := e.scalar(it, indent)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			e.add(indent, "- "+inline)
			e.lines = append(e.lines, block...)
		}
	}
	return nil
}

// item writes a sequence item whose content lines are indented by two more
// than the dash: the first content line joins the dash unless it is a
// template action (whose leading trim would swallow the dash's line end).
func (e *emitter) item(indent int, content []string) {
	if isAction(content[0]) {
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
	if out, ok := e.substituted(k); ok {
		return out
	}
	if plainSafe.MatchString(k) && !yamlWords[strings.ToLower(k)] {
		return k
	}
	return escapeBraces(jsonQuote(k))
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
				block = append(block, pad+e.substitute(escapeBraces(l)))
			}
			return header, block, nil
		}
		if out, ok := e.substituted(t); ok {
			return out, nil, nil
		}
		if plainSafe.MatchString(t) && !yamlWords[strings.ToLower(t)] {
			return t, nil, nil
		}
		return escapeBraces(jsonQuote(t)), nil, nil
	default:
		return "", nil, fmt.Errorf("unexpected value of type %T", v)
	}
}

// substituted writes a one-line string that holds sentinel text as a
// double-quoted YAML string with expressions in place of the sentinels; ok
// is false when it holds none. The substituted values are validated names
// and numbers, which need no escaping inside double quotes.
func (e *emitter) substituted(s string) (string, bool) {
	for _, l := range e.local {
		if s == l.from {
			return `"{{ ` + l.expr + ` }}"`, true
		}
	}
	if !e.holdsSentinel(s) {
		return "", false
	}
	return e.substitute(escapeBraces(jsonQuote(s))), true
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
		text = strings.ReplaceAll(text, l.from, "{{ "+l.expr+" }}")
	}
	for _, sb := range e.subs {
		text = strings.ReplaceAll(text, sb.from, "{{ "+sb.expr+" }}")
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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return strings.TrimSuffix(buf.String(), "\n")
}

// escapeBraces makes "{{" in data print literally: the PrometheusRule's
// annotations hold Prometheus templates such as {{ $labels.job }}.
func escapeBraces(s string) string {
	return strings.ReplaceAll(s, "{{", `{{ "{{" }}`)
}

package chartgen

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	"sigs.k8s.io/yaml"
)

// Both callers render mostly the same objects: the per-cluster etcd's
// names are actions ({{ .cluster }}) where the etcd chart's are the
// constant "etcd", and a few lines differ (the etcd chart's quota and
// version are values, a tenant cluster's are fixed; a tenant cluster's
// members carry the network policy's label). The library chart keeps one
// copy of every such object (etcdshapes.objects), the lines of one caller
// only tagged #E# (the etcd chart) or #C# (a tenant cluster) while it is
// merged and checked, then in if blocks (ifBlocks), and each caller's own
// objects in its own define. Two lines are one line of the shared copy
// when the line of one caller, with that caller's actions replaced by the
// values the other caller's config gives them, is the other's line (a
// YAML scalar may differ in quoting only). Generation then checks that
// each caller's view of the shared copy is its own text in that sense,
// line for line.

// fixedValues are, per caller, the values of the actions the other caller
// writes where this caller writes a constant: the etcd
// chart is always named etcd, a tenant cluster's etcd has a fixed version,
// size and quota. The caller's config gives these fields these values.
func fixedValues(caller naming.Caller) ([][2]string, error) {
	if caller == naming.CallerEtcd {
		return [][2]string{{tokenText("cluster"), "etcd"}, {tokenText("release"), "etcd"}}, nil
	}
	quota, err := quotaText(etcd.DefaultSize)
	if err != nil {
		return nil, err
	}
	return [][2]string{{tokenText("version"), etcd.DefaultVersion}, {tokenText("size"), etcd.DefaultSize}, {tokenText("quota"), quota}}, nil
}

// unit is one logical line of an object's text: a line, or a multi-line
// comment or block scalar with its content, which are kept whole.
type unit struct {
	text  string
	multi bool
}

// units splits an object's text into logical lines.
func units(text string) []unit {
	lines := strings.Split(text, "\n")
	var out []unit
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.Contains(l, "{{- /*") && !strings.Contains(l, "*/"):
			j := i
			for j < len(lines)-1 && !strings.Contains(lines[j], "*/") {
				j++
			}
			out = append(out, unit{text: strings.Join(lines[i:j+1], "\n"), multi: true})
			i = j
		case blockHeader.MatchString(l):
			indent := len(l) - len(strings.TrimLeft(l, " "))
			j := i + 1
			for j < len(lines) && (strings.TrimSpace(lines[j]) == "" || len(lines[j])-len(strings.TrimLeft(lines[j], " ")) > indent) {
				j++
			}
			out = append(out, unit{text: strings.Join(lines[i:j], "\n"), multi: true})
			i = j - 1
		default:
			out = append(out, unit{text: l})
		}
	}
	return out
}

// blockHeader is a line that starts a YAML block scalar.
var blockHeader = regexp.MustCompile(`: [|>][-+]?$|^ *- [|>][-+]?$`)

// replaceAll applies the substitutions to s.
func replaceAll(s string, subs [][2]string) string {
	for _, sb := range subs {
		s = strings.ReplaceAll(s, sb[0], sb[1])
	}
	return s
}

// sameLine reports whether a and b are the same YAML line: equal, or one
// line holding one scalar that only the quoting tells apart.
func sameLine(a, b unit) bool { return formOf(a).same(formOf(b)) }

// form is a unit as sameLine compares it: its text and, for a single line
// without template actions that YAML reads as a value other than null, its
// tags, its indent and that value. Merging compares every line of one
// caller's object with every line of the other's; reading each line's YAML
// once, not once per pair, is what keeps generation fast.
type form struct {
	text   string
	scalar bool // tags, indent and value hold
	tags   string
	indent int
	value  any
}

func formOf(u unit) form {
	f := form{text: u.text}
	if u.multi || strings.Contains(u.text, "{{") {
		return f
	}
	tags := lineTags.FindString(u.text)
	rest := u.text[len(tags):]
	var v any
	if yaml.Unmarshal([]byte(strings.TrimSpace(rest)), &v) != nil || v == nil {
		return f
	}
	f.scalar, f.tags, f.indent, f.value = true, tags, len(rest)-len(strings.TrimLeft(rest, " ")), v
	return f
}

// same is sameLine of the two units: equal text, or the same tags, indent
// and YAML value.
func (a form) same(b form) bool {
	if a.text == b.text {
		return true
	}
	// Tags must be the same; the rest the same YAML.
	return a.scalar && b.scalar && a.tags == b.tags && a.indent == b.indent && reflect.DeepEqual(a.value, b.value)
}

// lineTags are the tags at the start of a line.
var lineTags = regexp.MustCompile(`^(#[A-Z_]+#)*`)

// unifier answers unify for the lines of two objects, each line's forms
// computed once.
type unifier struct {
	eu, cu []unit
	// e and c are the lines' forms; cInE is each of c's lines with the
	// etcd chart's fixed values in, eInC each of e's with a tenant
	// cluster's.
	e, c, cInE, eInC []form
}

func newUnifier(eu, cu []unit, fixedE, fixedC [][2]string) *unifier {
	u := &unifier{eu: eu, cu: cu}
	for _, l := range eu {
		u.e = append(u.e, formOf(l))
		u.eInC = append(u.eInC, formOf(unit{text: replaceAll(l.text, fixedC), multi: l.multi}))
	}
	for _, l := range cu {
		u.c = append(u.c, formOf(l))
		u.cInE = append(u.cInE, formOf(unit{text: replaceAll(l.text, fixedE), multi: l.multi}))
	}
	return u
}

// unify returns the shared line for the etcd chart's line i and a tenant
// cluster's line j, if there is one: the tenant cluster's line when it is
// the etcd chart's with the etcd chart's fixed values in, else the etcd
// chart's when it is the tenant cluster's with the tenant cluster's.
func (u *unifier) unify(i, j int) (unit, bool) {
	if u.cInE[j].same(u.e[i]) {
		return u.cu[j], true
	}
	if u.eInC[i].same(u.c[j]) {
		return u.eu[i], true
	}
	return unit{}, false
}

// mergeObject writes the shared text of an object both callers render, or
// reports that the two texts do not merge (a differing part would split a
// template block, or a blank line would be trimmed).
func mergeObject(e, c string, fixedE, fixedC [][2]string) (string, bool) {
	eu, cu := units(e), units(c)
	un := newUnifier(eu, cu, fixedE, fixedC)
	// The longest common sequence of unifiable lines.
	n, m := len(eu), len(cu)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if _, ok := un.unify(i, j); ok {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	var onlyE, onlyC []string
	flush := func() bool {
		if len(onlyE) > 0 {
			onlyE = strings.Split(strings.Join(onlyE, "\n"), "\n")
		}
		if len(onlyC) > 0 {
			onlyC = strings.Split(strings.Join(onlyC, "\n"), "\n")
		}
		for _, part := range [][]string{onlyE, onlyC} {
			for _, l := range part {
				if strings.Contains(l, "{{-") && !strings.Contains(l, "{{- /*") {
					return false // a template block must not be split
				}
			}
		}
		e := &emitter{}
		e.tagged("E", onlyE)
		e.tagged("C", onlyC)
		out = append(out, e.lines...)
		onlyE, onlyC = nil, nil
		return true
	}
	i, j := 0, 0
	for i < n || j < m {
		if i < n && j < m {
			if u, ok := un.unify(i, j); ok && lcs[i][j] == lcs[i+1][j+1]+1 {
				if !flush() {
					return "", false
				}
				out = append(out, u.text)
				i, j = i+1, j+1
				continue
			}
		}
		if i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]) {
			onlyE = append(onlyE, eu[i].text)
			i++
		} else {
			onlyC = append(onlyC, cu[j].text)
			j++
		}
	}
	if !flush() {
		return "", false
	}
	return strings.Join(out, "\n"), true
}

// view is a caller's view of a shared text: its own tagged lines kept,
// the other caller's dropped, as the stack's fill does.
func view(shared string, etcdChart bool) string {
	own, other := "#E#", "#C#"
	if !etcdChart {
		own, other = other, own
	}
	var out []string
	for _, l := range strings.Split(shared, "\n") {
		if !strings.HasPrefix(l, other) {
			out = append(out, strings.TrimPrefix(l, own))
		}
	}
	return strings.Join(out, "\n")
}

// sameText reports whether a caller's view of a shared text is its own
// text, line for line, after the substitutions.
func sameText(view, own string, fixed [][2]string) error {
	vu, ou := units(replaceAll(view, fixed)), units(replaceAll(own, fixed))
	if len(vu) != len(ou) {
		return fmt.Errorf("%d lines, not %d", len(vu), len(ou))
	}
	for k := range vu {
		if !sameLine(vu[k], ou[k]) {
			return fmt.Errorf("line %q, not %q", vu[k].text, ou[k].text)
		}
	}
	return nil
}

// ifBlocks turns the tagged lines of a stack text into if blocks: each run
// of lines with the same tags is wrapped in {{- if COND }} ... {{- end }},
// and a run followed by the run of its complement (#E# then #C#,
// #AFFINITY# then #NO_AFFINITY#) shares the block as its {{- else }}. An
// untagged template comment between two runs of the same tags stays in
// their block. The actions trim the line ends before them, so a render
// prints exactly the lines of its tags, as the stacks were checked
// (view). Dot is the config in every block: none is inside a range.
func ifBlocks(text string) string {
	lines := strings.Split(text, "\n")
	tags := make([]string, len(lines))
	inComment := false
	for i, l := range lines {
		t := lineTags.FindString(l)
		lines[i] = l[len(t):]
		if strings.Contains(l, "{{- /*") {
			inComment = true
		}
		tags[i] = t
		if inComment {
			tags[i] = "comment"
		}
		if strings.Contains(l, "*/}}") {
			inComment = false
		}
	}
	// A comment takes the tags of the next line that is not one when the
	// line before it has them too: it explains a line of that block.
	for i := range lines {
		if tags[i] != "comment" {
			continue
		}
		j := i
		for j < len(lines) && tags[j] == "comment" {
			j++
		}
		next := ""
		if j < len(lines) {
			next = tags[j]
		}
		prev := ""
		if i > 0 {
			prev = tags[i-1]
		}
		if next == prev {
			tags[i] = next
		} else {
			tags[i] = ""
		}
	}
	// An if block's actions are indented like the first YAML line in it
	// (a line that is not an action), for the reader.
	indentAt := func(i int) string {
		for j := i; j < len(lines) && tags[j] != ""; j++ {
			if t := strings.TrimLeft(lines[j], " "); t != "" && !strings.HasPrefix(t, "{{") {
				return lines[j][:len(lines[j])-len(t)]
			}
		}
		return ""
	}
	var out []string
	open, pad := "", ""
	closeBlock := func() {
		if open != "" {
			out = append(out, pad+"{{- end }}")
			open = ""
		}
	}
	for i, l := range lines {
		if tags[i] != open {
			switch {
			case tags[i] != "" && open != "" && complementTags(open, tags[i]):
				out = append(out, pad+"{{- else }}")
			case tags[i] != "":
				closeBlock()
				pad = indentAt(i)
				out = append(out, pad+"{{- if "+tagCondition(tags[i])+" }}")
			default:
				closeBlock()
			}
			open = tags[i]
		}
		out = append(out, l)
	}
	closeBlock()
	return strings.Join(out, "\n")
}

// tagNames are the tags of a line's tag prefix: "#E##AUTH#" is E and AUTH.
func tagNames(tags string) []string {
	return strings.FieldsFunc(tags, func(r rune) bool { return r == '#' })
}

// tagCondition is the config expression under which the lines of the tags
// render: E the etcd chart, C a tenant cluster, an optional field's tag
// the field set (#STORAGE_CLASS#: .storageClass), NO_ and the tag it
// unset.
func tagCondition(tags string) string {
	var conds []string
	for _, t := range tagNames(tags) {
		switch {
		case t == "E":
			conds = append(conds, ".etcdChart")
		case t == "C":
			conds = append(conds, "(not .etcdChart)")
		case strings.HasPrefix(t, "NO_"):
			conds = append(conds, "(not ."+keyFor("__"+strings.TrimPrefix(t, "NO_")+"__")+")")
		default:
			conds = append(conds, "."+keyFor("__"+t+"__"))
		}
	}
	if len(conds) == 1 {
		return strings.Trim(conds[0], "()")
	}
	return "and " + strings.Join(conds, " ")
}

// complementTags reports whether b's lines render exactly when a's do not:
// one tag each, E and C, or a tag and its NO_.
func complementTags(a, b string) bool {
	x, y := tagNames(a), tagNames(b)
	if len(x) != 1 || len(y) != 1 {
		return false
	}
	p, q := x[0], y[0]
	return p == "E" && q == "C" || p == "C" && q == "E" || p == "NO_"+q || q == "NO_"+p
}

package chartgen

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// side is one caller's view of a shape: the emitter that writes its part of
// the object and the value every config expression has in its sentinel run.
type side struct {
	e   *emitter
	cfg map[string]string
}

// merger writes one shape both callers render as one template: where the
// two callers' objects agree once the config expressions are evaluated for
// each, one text serves both; where they differ, the template switches on
// $.etcdChart. Differences are found field by field, so a switch covers
// the smallest subtree that differs.
type merger struct {
	lines []string
	etcd  side
	clus  side
	// reasons and said are shared with both sides' emitters.
	reasons map[string]string
	said    map[string]bool
}

func (m *merger) add(indent int, s string) {
	m.lines = append(m.lines, strings.Repeat(" ", indent)+s)
}

func (m *merger) action(indent int, s string) {
	m.add(indent, "{{- "+s+" }}")
}

func (m *merger) sub() *merger {
	return &merger{etcd: m.etcd, clus: m.clus, reasons: m.reasons, said: m.said}
}

func (m *merger) reason(indent int, path string) {
	text, ok := m.reasons[path]
	if !ok || m.said[path] {
		return
	}
	m.said[path] = true
	m.lines = append(m.lines, commentLines(indent, text)...)
}

// lines of one side's emitter for a part, written by f.
func (s side) write(f func(e *emitter) error) ([]string, error) {
	sub := s.e.sub()
	err := f(sub)
	return sub.lines, err
}

// mapBody writes the entries of the two maps: keys of one caller only are
// written under a guard.
func (m *merger) mapBody(me, mc map[string]any, indent int, path string) error {
	keys := map[string]bool{}
	for k := range me {
		keys[k] = true
	}
	for k := range mc {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		p := joinPath(path, k)
		ve, inE := me[k]
		vc, inC := mc[k]
		switch {
		case inE && inC:
			if err := m.entry(k, ve, vc, indent, p); err != nil {
				return err
			}
		case inE:
			if err := m.only(m.etcd, "$.etcdChart", indent, func(e *emitter) error { return e.entry(k, ve, indent, p) }); err != nil {
				return err
			}
		default:
			if err := m.only(m.clus, "not $.etcdChart", indent, func(e *emitter) error { return e.entry(k, vc, indent, p) }); err != nil {
				return err
			}
		}
	}
	return nil
}

// only writes a part that one caller renders under a guard.
func (m *merger) only(s side, guard string, indent int, f func(e *emitter) error) error {
	lines, err := s.write(f)
	if err != nil {
		return err
	}
	m.action(indent, "if "+guard)
	m.lines = append(m.lines, lines...)
	m.action(indent, "end")
	return nil
}

// switchTo writes the etcd chart's part and the per-cluster part under
// if $.etcdChart / else.
func (m *merger) switchTo(indent int, fe, fc func(e *emitter) error) error {
	le, err := m.etcd.write(fe)
	if err != nil {
		return err
	}
	lc, err := m.clus.write(fc)
	if err != nil {
		return err
	}
	m.action(indent, "if $.etcdChart")
	m.lines = append(m.lines, le...)
	m.action(indent, "else")
	m.lines = append(m.lines, lc...)
	m.action(indent, "end")
	return nil
}

func (m *merger) entry(key string, ve, vc any, indent int, path string) error {
	m.reason(indent, path)
	re, okE := m.etcd.e.rules[path]
	rc, okC := m.clus.e.rules[path]
	fe := func(e *emitter) error { return e.entry(key, ve, indent, path) }
	fc := func(e *emitter) error { return e.entry(key, vc, indent, path) }
	if !okE && !okC {
		return m.plain(key, ve, vc, indent, path)
	}
	if !okE || !okC || re != rc || re.mode == rangeTenants {
		return m.switchTo(indent, fe, fc)
	}
	m.etcd.e.used[path] = true
	m.clus.e.used[path] = true
	k := m.etcd.e.key(key)
	if k != m.clus.e.key(key) {
		return m.switchTo(indent, fe, fc)
	}
	switch re.mode {
	case scalarExpr, stringExpr, yamlExpr, optionalYAML:
		// The same expression for both: either side writes it.
		lines, err := m.etcd.write(fe)
		m.lines = append(m.lines, lines...)
		return err
	case optional:
		m.action(indent, "if "+re.expr)
		if err := m.plain(key, ve, vc, indent, path); err != nil {
			return err
		}
		m.action(indent, "end")
	case yamlOrDefault:
		m.action(indent, "if "+re.expr)
		m.add(indent, k+":")
		m.action(indent+2, fmt.Sprintf("toYaml %s | nindent %d", re.expr, indent+2))
		m.action(indent, "else")
		if err := m.plain(key, ve, vc, indent, path); err != nil {
			return err
		}
		m.action(indent, "end")
	default:
		return fmt.Errorf("%s: unknown rule mode %d", path, re.mode)
	}
	return nil
}

// plain writes a field without a rule whose value both callers have.
func (m *merger) plain(key string, ve, vc any, indent int, path string) error {
	fe := func(e *emitter) error { return e.plainEntry(key, ve, indent, path) }
	fc := func(e *emitter) error { return e.plainEntry(key, vc, indent, path) }
	k := m.etcd.e.key(key)
	if k != m.clus.e.key(key) {
		return m.switchTo(indent, fe, fc)
	}
	switch te := ve.(type) {
	case map[string]any:
		tc, ok := vc.(map[string]any)
		if !ok || len(te) == 0 || len(tc) == 0 {
			break
		}
		m.add(indent, k+":")
		return m.mapBody(te, tc, indent+2, path)
	case []any:
		tc, ok := vc.([]any)
		if !ok || len(te) != len(tc) || len(te) == 0 {
			break
		}
		m.add(indent, k+":")
		return m.listItems(te, tc, indent, path)
	default:
		if _, isMap := vc.(map[string]any); isMap {
			break
		}
		if _, isList := vc.([]any); isList {
			break
		}
		lines, ok, err := m.scalar(func(e *emitter) error { return e.plainEntry(key, ve, indent, path) },
			func(e *emitter) error { return e.plainEntry(key, vc, indent, path) })
		if err != nil {
			return err
		}
		if ok {
			m.lines = append(m.lines, lines...)
			return nil
		}
	}
	le, err := m.etcd.write(fe)
	if err != nil {
		return err
	}
	lc, err := m.clus.write(fc)
	if err != nil {
		return err
	}
	if equalLines(le, lc) {
		m.lines = append(m.lines, le...)
		return nil
	}
	return m.switchTo(indent, fe, fc)
}

// scalar finds one text for a scalar both callers write: the etcd chart's
// or the per-cluster one, whichever gives each caller its own value once
// its config expressions are evaluated. ok is false when neither does.
func (m *merger) scalar(fe, fc func(e *emitter) error) ([]string, bool, error) {
	le, err := m.etcd.write(fe)
	if err != nil {
		return nil, false, err
	}
	lc, err := m.clus.write(fc)
	if err != nil {
		return nil, false, err
	}
	wantE, err := evalYAML(le, m.etcd.cfg)
	if err != nil {
		return nil, false, err
	}
	wantC, err := evalYAML(lc, m.clus.cfg)
	if err != nil {
		return nil, false, err
	}
	for _, cand := range [][]string{lc, le} {
		gotE, errE := evalYAML(cand, m.etcd.cfg)
		gotC, errC := evalYAML(cand, m.clus.cfg)
		if errE == nil && errC == nil && reflect.DeepEqual(gotE, wantE) && reflect.DeepEqual(gotC, wantC) {
			return cand, true, nil
		}
	}
	return nil, false, nil
}

func equalLines(a, b []string) bool {
	return strings.Join(a, "\n") == strings.Join(b, "\n")
}

// evalYAML evaluates template lines that hold only config expressions (and
// escaped braces) with the given values and parses the result.
func evalYAML(lines []string, cfg map[string]string) (any, error) {
	text := strings.Join(lines, "\n")
	exprs := make([]string, 0, len(cfg))
	for x := range cfg {
		exprs = append(exprs, x)
	}
	sort.Slice(exprs, func(i, j int) bool { return len(exprs[i]) > len(exprs[j]) })
	for _, x := range exprs {
		text = strings.ReplaceAll(text, "{{ "+x+" }}", cfg[x])
	}
	text = strings.ReplaceAll(text, `{{ "{{" }}`, "{{")
	if strings.Contains(text, "{{") {
		return nil, fmt.Errorf("chartgen: unevaluated expression in %q", text)
	}
	var v any
	err := yaml.Unmarshal([]byte(strings.TrimLeft(text, " ")), &v)
	return v, err
}

// listItems writes two lists of the same length item by item.
func (m *merger) listItems(le, lc []any, indent int, path string) error {
	for i := range le {
		p := fmt.Sprintf("%s[%d]", path, i)
		ie, ic := le[i], lc[i]
		me, okE := ie.(map[string]any)
		mc, okC := ic.(map[string]any)
		if okE && okC && len(me) > 0 && len(mc) > 0 {
			sub := m.sub()
			if err := sub.mapBody(me, mc, indent+2, p); err != nil {
				return err
			}
			m.item(indent, sub.lines)
			continue
		}
		fe := func(e *emitter) error { return e.listItems([]any{ie}, indent, p) }
		fc := func(e *emitter) error { return e.listItems([]any{ic}, indent, p) }
		lines, ok, err := m.scalar(fe, fc)
		if err != nil {
			return err
		}
		if ok {
			m.lines = append(m.lines, lines...)
			continue
		}
		if err := m.switchTo(indent, fe, fc); err != nil {
			return err
		}
	}
	return nil
}

// item is emitter.item for the merger's lines.
func (m *merger) item(indent int, content []string) {
	e := &emitter{}
	e.item(indent, content)
	m.lines = append(m.lines, e.lines...)
}

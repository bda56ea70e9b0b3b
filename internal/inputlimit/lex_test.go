package inputlimit

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// v3Nodes counts the nodes of every document yaml.v3 parses from doc
// (aliases once, not expanded); ok is false when it fails.
func v3Nodes(doc []byte) (int, bool) {
	dec := yamlv3.NewDecoder(bytes.NewReader(doc))
	total := 0
	for {
		var n yamlv3.Node
		if err := dec.Decode(&n); err != nil {
			return total, errors.Is(err, io.EOF)
		}
		var walk func(*yamlv3.Node)
		walk = func(n *yamlv3.Node) {
			if n.Kind != yamlv3.DocumentNode {
				total++
			}
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(&n)
	}
}

// v2Nodes counts the values of the first document as Helm reads it
// (sigs.k8s.io/yaml over yaml.v2): a map counts once and each of its keys
// and values; ok is false when it fails.
func v2Nodes(doc []byte) (int, bool) {
	var v any
	if err := yaml.Unmarshal(doc, &v); err != nil {
		return 0, false
	}
	var count func(any) int
	count = func(v any) int {
		switch t := v.(type) {
		case map[string]any:
			n := 1
			for _, c := range t {
				n += 1 + count(c)
			}
			return n
		case []any:
			n := 1
			for _, c := range t {
				n += count(c)
			}
			return n
		}
		return 1
	}
	return count(v), true
}

// checkBound fails when a parser builds more nodes from doc than Lex
// counts. Aliases are expanded by yaml.v2 (Expanded bounds that), so a
// document with one is held to yaml.v3's count only.
func checkBound(t testing.TB, doc []byte) Stats {
	t.Helper()
	st := Lex(doc)
	if n, ok := v3Nodes(doc); ok && n > st.Nodes {
		t.Errorf("yaml.v3 builds %d nodes, Lex counts %d (approximate %v): %q", n, st.Nodes, st.Approximate, doc)
	}
	if st.Aliases == 0 && !bytes.Contains(doc, []byte("<<")) {
		if n, ok := v2Nodes(doc); ok && n > st.Nodes {
			t.Errorf("yaml.v2 builds %d values, Lex counts %d (approximate %v): %q", n, st.Nodes, st.Approximate, doc)
		}
	}
	return st
}

// TestLexCountsNodes: on the repository's YAML (golden renders, the
// apiserver fixture, charts, values) Lex counts what yaml.v3 builds, plus
// the stream's root, and follows the scanner to the end: a node is a node
// whatever text it spans (block scalars of JSON dashboards count one).
func TestLexCountsNodes(t *testing.T) {
	var files []string
	for _, g := range []string{"../../testdata/apiserver/*.yaml", "../../golden/testdata/*.yaml", "../../charts/*/values.yaml", "../../examples/*/*.yaml", "../../monitoring/testdata/*.yaml"} {
		m, err := filepath.Glob(g)
		require(t, err == nil, "glob %s: %v", g, err)
		files = append(files, m...)
	}
	require(t, len(files) >= 20, "found %d files", len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		require(t, err == nil, "%v", err)
		st := checkBound(t, b)
		n, ok := v3Nodes(b)
		if !ok {
			continue
		}
		if st.Approximate || st.Nodes > n+1+n/50 {
			t.Errorf("%s: Lex counts %d (approximate %v), yaml.v3 builds %d", f, st.Nodes, st.Approximate, n)
		}
	}
}

func require(t testing.TB, ok bool, format string, args ...any) {
	t.Helper()
	if !ok {
		t.Fatalf(format, args...)
	}
}

// lexCases are the corners of YAML's scanner: each kind of token and
// scalar, indentation, keys, comments and breaks.
var lexCases = []string{
	"", "a", "a: b", "a:", "a:\n", "- a", "-", "-\n-", "- - a", "a:\n- b\n- c", "a:\n  - b\n  - c\nd: e",
	"a:\n  b:\nc: d", "? a\n: b", "? a", ": b", "? - a\n: - b", "a: [b, c]", "a: {b: c, d}", "{a, b: c, : d}",
	"[a: b, ? c, : d]", "[? a]", "[a,]", "{}", "[]", "[[[]]]", "{a: {b: {c: {}}}}", `{"a":1,"b":[2,3]}`,
	"a: 'x: y, z'", "a: \"x\\\"y: [z]\"", "a: \"multi\n  line: [x]\n  \"", "a: 'it''s: [x]'", "\"k\": v", "'k': v",
	"a: |\n  x: [1, 2]\n  - y\nb: c", "a: >\n  x: y\n\n  z\nb: c", "a: |-\n  x\n b: c", "a: |+\n\n  x\n\nb: c",
	"a: |2\n   x\n  y\nb: c", "- |\n  x: y\n- b", "a:\n  |\n   x: y\nb: c", "a: |\n\tx", "a: | # c\n  x", "a: |x\n  y",
	"a: b\n  c: d", "a: b c\n  d\ne: f", "- a\n  \"b\n- c\"", "a: x\n  \"\nb: [1,2,3]\nc: '\"'", "a: x\n  # c\nb: y",
	"a: b # c: d\ne: f", "# a: b\n- c", "a: b#c", "a: &x [1, 2]\nb: *x", "a: &x\n  b: c\nd: *x", "&a a: *a", "a: !!str 1",
	"a: !foo [1]", "!t\n- a", "a: !<tag:x> b", "--- a\n--- b", "---\na: b\n...\n---\nc: d", "%YAML 1.1\n---\na: b",
	"a: b\r\nc: d\r\n", "a: b\rc: d", "a:\u0085- b", "a: b\u2028c: d", "\ufeffa: b", "a: b\n\ufeffc: d",
	"a: -1", "a: - b", "a:-b", "a :b", "-a: b", "? a: b", "a: ?b", "a: :b", "a: b:c", "a: b: c", "a: [b: c: d]",
	"a: {b: [c, {d: e}], f: g}", "a: [\n  b,\n  c\n]", "a:\n\t- b", "a:\tb", "a: b\t#c", "\t", " a: b", "a:\n   b: c\n  d: e",
	strings.Repeat("a:\n ", 50) + "b", strings.Repeat("- ", 100) + "a", strings.Repeat("[", 100) + strings.Repeat("]", 100),
	"a: \"\\x41\\u00e9\\U0001F600\"", "a: \"\\q\"", "a: \"\\xZZ\"", "a: \"b\\\n  c\"", "a: 'b\n\n  c'", "a: \"unterminated",
	"a: b\n---x", "---\n- a\n...", "a: |\n  x\n---\nb: c", "a: \"x\n---\ny\"", "k: " + strings.Repeat("x", 1100) + ": v",
	"a: 1\nb: 1.5\nc: -0\nd: 0x10\ne: 1e-400\nf: 1_000\ng: .5\nh: +1\ni: 123456789012345678",
}

// TestLexBoundsParsers: on every corner case and on generated documents,
// neither yaml.v3 nor yaml.v2 builds more nodes than Lex counts.
func TestLexBoundsParsers(t *testing.T) {
	for _, c := range lexCases {
		checkBound(t, []byte(c))
	}
	r := rand.New(rand.NewSource(7))
	for range 20000 {
		checkBound(t, randomYAML(r))
	}
}

// randomYAML joins fragments that matter to the scanner, with random
// indentation.
func randomYAML(r *rand.Rand) []byte {
	frags := []string{"a", "b", "k: ", ": ", "- ", "-", "? ", "?", ":", ",", "[", "]", "{", "}", "'", "\"", "''", "\\\"",
		"|", "|-", "|2", ">", "#", " #", "&x ", "*x", "!t ", "!!str ", "\n", "\n", "\n", "\r\n", "\t", " ", "  ", "   ",
		"---", "...", "%YAML 1.1", "1", "-0", "1e-400", "\\", "\u0085", "x: |\n  y: [z]\n", "\"a\n b\"", "'a\n b'", "k:\n- "}
	var b strings.Builder
	for n := r.Intn(20); n >= 0; n-- {
		if r.Intn(4) == 0 {
			b.WriteString("\n" + strings.Repeat(" ", r.Intn(6)))
		}
		b.WriteString(frags[r.Intn(len(frags))])
	}
	return []byte(b.String())
}

// FuzzLex: whatever the input, neither YAML parser builds more nodes
// than Lex counts.
func FuzzLex(f *testing.F) {
	for _, c := range lexCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) > 1<<12 {
			return
		}
		checkBound(t, doc)
	})
}

// secondDocuments are what may follow a first document: nothing the
// values reader may scan.
var secondDocuments = []string{
	"", "---\n", "---\nb: 2\n", "---\n" + strings.Repeat("- x\n", 50), "---\n: : [\n\t'", "...\n", "...\n---\nz: 1\n",
	"... # end\ngarbage: [\n", "--- a\n", "---\r\nb: 2\r\n", strings.Repeat("---\n", 50),
}

// TestLexFirstIsHelmsFirstDocument: LexFirst's first document parses as
// what Helm's reader (sigs.k8s.io/yaml, go.yaml.in/yaml/v2's Unmarshal)
// makes of the whole stream, or both fail; it never holds what the
// reader skips, and its count bounds the values the reader builds. Over
// the scanner's corners and generated streams, each followed by every
// kind of later document.
func TestLexFirstIsHelmsFirstDocument(t *testing.T) {
	check := func(doc []byte) []byte {
		t.Helper()
		first, st := LexFirst(doc)
		if !bytes.HasPrefix(doc, first) {
			t.Fatalf("%q: first %q is not its start", doc, first)
		}
		var whole, alone any
		errWhole, errAlone := yaml.Unmarshal(doc, &whole), yaml.Unmarshal(first, &alone)
		if (errWhole == nil) != (errAlone == nil) || errWhole == nil && !reflect.DeepEqual(whole, alone) {
			t.Errorf("%q: the reader makes %v (%v) of it, %v (%v) of its first document %q", doc, whole, errWhole, alone, errAlone, first)
		}
		if st.Aliases == 0 && !bytes.Contains(first, []byte("<<")) {
			if n, ok := v2Nodes(doc); ok && n > st.Nodes {
				t.Errorf("%q: yaml.v2 builds %d values, LexFirst counts %d", doc, n, st.Nodes)
			}
		}
		return first
	}
	for _, c := range lexCases {
		for _, next := range secondDocuments {
			sep := ""
			if c != "" && !strings.HasSuffix(c, "\n") {
				sep = "\n"
			}
			for _, start := range []string{"", "---\n"} {
				first := check([]byte(start + c + sep + next))
				// What follows the first document is never its.
				own := start + c + sep
				if strings.HasPrefix(next, "...") {
					own += "..."
				}
				if start+c != "" && !strings.Contains(c, "---") && !strings.Contains(c, "...") && len(first) > len(own) {
					t.Errorf("%q: the first document %q holds what follows %q", start+c+sep+next, first, own)
				}
			}
		}
	}
	r := rand.New(rand.NewSource(11))
	for range 20000 {
		check(randomYAML(r))
	}
}

// TestDocuments: the documents of a stream as apimachinery's YAMLReader
// splits it, empty ones counted, and the count stopped beyond a limit.
func TestDocuments(t *testing.T) {
	for doc, want := range map[string]int{
		"": 0, "a": 1, "a: 1\n": 1, "---": 1, "---\n": 1, "---\na\n": 1, "a\n---\nb\n": 2, "---\n---\n": 2,
		"\n---\n": 2, "--- # c\n---\r\n": 2, "a: '\n---\n'": 2, " ---\n": 1, "a\n ---\n": 1, "---\n--- x\n": 2,
	} {
		if got := Documents([]byte(doc), 100); got != want {
			t.Errorf("Documents(%q) = %d, want %d", doc, got, want)
		}
	}
	if got := Documents([]byte(strings.Repeat("---\n", 1000)), 10); got <= 10 || got > 12 {
		t.Errorf("Documents stopped at %d, want just beyond 10", got)
	}
}

package yamljson

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// sameAsSigs are documents without two keys that are one JSON key: ToJSON
// reads each as sigs.k8s.io/yaml's YAMLToJSON does, byte for byte, errors
// included, and with Unique as YAMLToJSONStrict does.
var sameAsSigs = []string{
	"", "# a comment only\n", "---\n", "null\n", "~\n", "a\n", "- 1\n- 2\n",
	"a: 1\nb: two\nc: [1, 2.5, -3]\nd: {e: null}\n",
	"i: 9223372036854775807\nj: 9223372036854775808\nk: 18446744073709551616\nl: -9223372036854775809\n",
	"f: 1.0\ng: 1e21\nh: -0.0\nm: 0.1\nn: 1e-7\no: 6.02e+23\n",
	"hex: 0x1F\noct: 0o17\nold: 017\nund: 1_000\nsexa: 190:20:30\n",
	"b: [yes, no, on, off, y, n, Yes, NO, True, false]\n",
	"bin: !!binary aGVsbG8=\nts: 2001-12-14t21:59:43.10-05:00\ndate: 2002-12-14\n",
	"s: !!str 1\nt: !!int \"2\"\nu: !!float 3\n",
	"utf: \"\\xff\\u00e9\"\nraw: é\n",
	"anchor: &a {x: 1, y: [1, 2]}\nref: *a\nlist: &l [1]\nagain: *l\n",
	"base: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n",
	"b1: &b1 {x: 1}\nb2: &b2 {z: 3}\nm:\n  <<: [*b1, *b2]\n  w: 4\n",
	"1: a\n2.5: b\ntrue: c\n-3: d\n",
	"a: 1\nA: 2\napiVersion: v1\napiversion: v2\n",
	"{\"a\": 1, \"b\": [true, null, \"x\"]}",
	"first: 1\n---\nsecond: 2\n",
	"a: 1\n...\n",
	"nan: .nan\n",
	"inf: [.inf, -.inf]\n",
	"~: x\n",
	"? [1]\n: x\n",
	"a: [1\n",
	"a: b: c\n",
	"\t- a\n",
	"big: 18446744073709551615\nkey:\n  18446744073709551615: x\n",
	"text: |\n  line one\n  line two\nfold: >\n  a\n  b\n",
}

func TestToJSONIsSigsYAML(t *testing.T) {
	docs := append([]string(nil), sameAsSigs...)
	// Real live files: the goldens and what a kube-apiserver returned.
	for _, pattern := range []string{"../../golden/testdata/*.yaml", "../../testdata/apiserver/*.yaml"} {
		files, err := filepath.Glob(pattern)
		require.NoError(t, err)
		require.NotEmpty(t, files, pattern)
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
			for {
				doc, err := r.Read()
				if err != nil {
					break
				}
				docs = append(docs, string(doc))
			}
		}
	}
	for _, doc := range docs {
		for _, unique := range []bool{false, true} {
			want, wantErr := yaml.YAMLToJSON([]byte(doc))
			if unique {
				want, wantErr = yaml.YAMLToJSONStrict([]byte(doc))
			}
			got, err := ToJSON([]byte(doc), Options{Unique: unique})
			if wantErr != nil {
				require.Error(t, err, "%q", doc)
				require.Equal(t, wantErr.Error(), err.Error(), "%q", doc)
				continue
			}
			require.NoError(t, err, "%q", doc)
			require.Equal(t, string(want), string(got), "%q", doc)
		}
	}
}

// key is a KeyError's identity and place.
type key struct {
	field                     string
	same                      bool
	firstLine, firstCol, line int
	col                       int
	firstMerge, merge         bool
}

func keyOf(e *KeyError) key {
	return key{e.Field("doc"), e.Same, e.FirstLine, e.FirstColumn, e.Line, e.Column, e.FirstMerge, e.Merge}
}

// TestRefusedKeys: every form of two keys of one map that are one JSON
// key is refused, the first pair in the document's order, named by its
// place and where both are; a key given twice only with Unique.
func TestRefusedKeys(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      key  // with Unique
		lenient   *key // without: nil, accepted
	}{
		{"top level", "a: 1\nb: 2\na: 3\n", key{"doc.a", true, 1, 1, 3, 1, false, false}, nil},
		{"nested", "a:\n  b: 1\n  c:\n    d: 1\n    d: 2\n", key{"doc.a.c.d", true, 4, 5, 5, 5, false, false}, nil},
		{"in a list item", "items:\n- x: 1\n- z: 1\n  z: 2\n", key{"doc.items[1].z", true, 3, 3, 4, 3, false, false}, nil},
		{"flow style", "{a: 1, a: 2}", key{"doc.a", true, 1, 2, 1, 8, false, false}, nil},
		{"JSON", `{"a": {"b": 1, "b": 2}}`, key{"doc.a.b", true, 1, 8, 1, 16, false, false}, nil},
		{"JSON escaped", `{"a": 1, "\u0061": 2}`, key{"doc.a", true, 1, 2, 1, 10, false, false}, nil},
		{"quoted and plain", "a: 1\n'a': 2\n", key{"doc.a", true, 1, 1, 2, 1, false, false}, nil},
		{"YAML 1.1 booleans", "yes: 1\ntrue: 2\n", key{"doc.true", true, 1, 1, 2, 1, false, false}, nil},
		{"number spellings", "0x10: a\n16: b\n", key{"doc.16", true, 1, 1, 2, 1, false, false}, nil},
		{"number and string", "1: a\n\"1\": b\n", key{"doc.1", false, 1, 1, 2, 1, false, false}, &key{"doc.1", false, 1, 1, 2, 1, false, false}},
		{"bool and string", "x:\n  true: a\n  \"true\": b\n", key{"doc.x.true", false, 2, 3, 3, 3, false, false}, &key{"doc.x.true", false, 2, 3, 3, 3, false, false}},
		{"floats of one float32", "1.00000001: a\n1.00000002: b\n", key{"doc.1", false, 1, 1, 2, 1, false, false}, &key{"doc.1", false, 1, 1, 2, 1, false, false}},
		{"merge then key", "b: &b {x: 1}\nm:\n  <<: *b\n  x: 2\n", key{"doc.m.x", true, 3, 3, 4, 3, true, false}, nil},
		{"key then merge", "b: &b {x: 1}\nm:\n  x: 2\n  <<: *b\n", key{"doc.m.x", true, 3, 3, 4, 3, false, true}, nil},
		{"two merged maps", "b: &b {x: 1}\nc: &c {x: 2}\nm:\n  <<: [*b, *c]\n", key{"doc.m.x", true, 4, 3, 4, 3, true, true}, nil},
		{"merged string and number", "b: &b {1: x}\nm:\n  <<: *b\n  \"1\": y\n", key{"doc.m.1", false, 3, 3, 4, 3, true, false}, &key{"doc.m.1", false, 3, 3, 4, 3, true, false}},
		{"first in document order", "a:\n  z: 1\n  z: 2\nb: 1\nb: 2\n", key{"doc.a.z", true, 2, 3, 3, 3, false, false}, nil},
		{"two documents run together", "apiVersion: v1\nkind: Secret\nmetadata: {name: a}\napiVersion: v1\nkind: Secret\n", key{"doc.apiVersion", true, 1, 1, 4, 1, false, false}, nil},
		{"alias as key", "k: &k a\n*k : 1\na: 2\n", key{"doc.a", true, 2, 1, 3, 1, false, false}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ToJSON([]byte(c.doc), Options{Unique: true})
			var ke *KeyError
			require.True(t, errors.As(err, &ke), "%v", err)
			require.Equal(t, c.want, keyOf(ke))
			require.Contains(t, ke.Error(), ke.Key)
			_, err = ToJSON([]byte(c.doc), Options{})
			if c.lenient == nil {
				require.NoError(t, err)
				return
			}
			require.True(t, errors.As(err, &ke), "%v", err)
			require.Equal(t, *c.lenient, keyOf(ke))
		})
	}
}

// TestLaterKeyWinsWithoutUnique: without Unique a key given twice is the
// later one, as Helm reads values.
func TestLaterKeyWinsWithoutUnique(t *testing.T) {
	for doc, want := range map[string]string{
		"a: 1\na: 2\n":                         `{"a":2}`,
		"{a: 1, a: 2}":                         `{"a":2}`,
		`{"a": {"b": 1, "b": 2}}`:              `{"a":{"b":2}}`,
		"l:\n- x: 1\n  x: 2\n":                 `{"l":[{"x":2}]}`,
		"b: &b {x: 1}\nm:\n  <<: *b\n  x: 2\n": `{"b":{"x":1},"m":{"x":2}}`,
		"a: 1\nA: 2\n":                         `{"A":2,"a":1}`,
	} {
		got, err := ToJSON([]byte(doc), Options{})
		require.NoError(t, err, doc)
		require.Equal(t, want, string(got), doc)
	}
}

// TestPositionsCountFromOptionsLine: positions are the input's lines.
func TestPositionsCountFromOptionsLine(t *testing.T) {
	_, err := ToJSON([]byte("a: 1\na: 2\n"), Options{Unique: true, Line: 41})
	var ke *KeyError
	require.True(t, errors.As(err, &ke))
	require.Equal(t, "lines 41 and 42", ke.Where())
	_, err = ToJSON([]byte("{a: 1, a: 2}"), Options{Unique: true, Line: 7})
	require.True(t, errors.As(err, &ke))
	require.Equal(t, "line 7, columns 2 and 8", ke.Where())
	_, err = ToJSON([]byte("b: &b {x: 1}\nm:\n  <<: *b\n  x: 2\n"), Options{Unique: true})
	require.True(t, errors.As(err, &ke))
	require.Equal(t, "lines 3 (through the << merge key) and 4", ke.Where())
}

// TestOneDocument: what follows a first document is refused with
// OneDocument, and ignored without, as YAMLToJSON ignores it.
func TestOneDocument(t *testing.T) {
	for _, c := range []struct {
		doc  string
		next int
	}{
		{"a: 1\n...\nb: 2\n", 3},
		{"a: 1\n...\n# note\n\nb: 2\n", 5},
		{"{\"a\": 1}\n{\"b\": 2}\n", 2},
		{"{\"a\": 1}{\"b\": 2}", 1},
		{"{\"a\": 1}\n\n  {\"b\": 2}\n", 3},
		{"[1]\n[2]\n", 2},
		{"a: 1\n...\n%YAML 1.1\n---\nb: 2\n", 3},
	} {
		_, err := ToJSON([]byte(c.doc), Options{OneDocument: true, Line: 1})
		var de *DocumentsError
		require.True(t, errors.As(err, &de), "%q: %v", c.doc, err)
		require.Equal(t, c.next, de.Next, "%q", c.doc)
		require.True(t, strings.HasPrefix(de.Error(), "holds another document"), de.Error())
		_, err = ToJSON([]byte(c.doc), Options{})
		require.NoError(t, err, "%q", c.doc)
	}
	for _, doc := range []string{"a: 1\n...\n", "a: 1\n... # end\n\n", "a: 1\n"} {
		_, err := ToJSON([]byte(doc), Options{OneDocument: true})
		require.NoError(t, err, "%q", doc)
	}
}

// TestLocateEnds: a document of merge keys of merge keys is looked at
// within a bound, and one without refused keys gives nil.
func TestLocateEnds(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 {k: 1}\n")
	for i := 1; i < 40; i++ {
		n, p := strconv.Itoa(i), strconv.Itoa(i-1)
		b.WriteString("a" + n + ": &a" + n + " {<<: [*a" + p + ", *a" + p + "]}\n")
	}
	require.NotNil(t, Locate([]byte(b.String()), Options{Unique: true})) // k twice at a1
	require.Nil(t, Locate([]byte(b.String()), Options{}))
	require.Nil(t, Locate([]byte("a: [1\n"), Options{Unique: true}))
	require.Nil(t, Locate([]byte("a: 1\nb: 2\n"), Options{Unique: true}))
}

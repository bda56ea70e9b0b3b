package yamlemit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// oldPath is the reference printer: the JSON read into maps by
// encoding/json with numbers kept as written (json.Number, so an int64 is
// not rounded through a float64), then sigs.k8s.io/yaml.Marshal.
func oldPath(js []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return yaml.Marshal(v)
}

// check compares both paths on one JSON document. It reports whether the
// fast path printed it (false: it fell back, which is allowed).
func check(t *testing.T, js []byte) bool {
	t.Helper()
	var tr Tree
	got, err := tr.Parse(js), error(nil)
	var out []byte
	if got == nil {
		out, err = tr.AppendYAML(nil)
	} else {
		err = got
	}
	want, wantErr := oldPath(js)
	if err != nil {
		if !errors.Is(err, ErrFallback) {
			t.Fatalf("unexpected error %v for %q", err, js)
		}
		return false
	}
	if wantErr != nil {
		t.Fatalf("old path fails (%v) but the fast path printed %q for %q", wantErr, out, js)
	}
	if !bytes.Equal(out, want) {
		t.Fatalf("for %q\n got: %q\nwant: %q", js, out, want)
	}
	return true
}

func mustJSON(t testing.TB, v any) []byte {
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// trickyStrings are strings YAML would misread or print specially.
var trickyStrings = []string{
	"", " ", "  ", "a", "yes", "no", "on", "off", "y", "n", "Y", "N", "true", "False",
	"~", "null", "Null", "NULL", "0", "-0", "+1", "007", "0x1f", "0o17", "0b101", "-0b101",
	"1e3", "1E3", ".5", "5.", "-.5", "1_000", "1__0", "+.inf", ".nan", ".NaN", "-.Inf",
	"12:30", "1:20:30.5", "-1:30", "190:20:30", "2024-01-02", "2024-1-2T3:4:5Z",
	"2024-01-02 10:20:30", "2024-13-45", "1234-", "*.x", "*", "&a", "!t", "!!str", "|", ">",
	"%x", "@x", "`x", "'", "\"", "'a'", "\"a\"", "a'b", "a\"b", "\\", "a\\b",
	": ", ":", "a:", "a: b", "a:b", "::", "?", "? x", "?x", "-", "- x", "-x", "--", "---",
	"--- x", "...", "....", "#", "# x", "a #b", "a#b", "a ,b", "[", "]", "{", "}", "[a]",
	"{a: b}", ",", "a,b", " a", "a ", " a ", "a  b", "\t", "a\tb", "\ta", "a\t",
	"\n", "a\n", "\na", "a\nb", "a\n\nb", "a\n\n", "a\n ", " \na", "a \nb", "a\n b",
	"\r", "a\rb", "a\r\nb", "\r\n", "é", "ü ö", "日本語", "😀", "a😀b", "\u00a0", "a\u00a0b",
	"\u2028", "a\u2029b", "\ufeff", "\ufeffab", "a\ufeff", "\ufffd", "\x00", "a\x00b",
	"\x07\x08\x0b\x0c\x1b", "\x01\x1f", "<>&", "\u00e9\u0301",
	strings.Repeat("word ", 30), strings.Repeat("x", 200), strings.Repeat("ab ", 40) + "end",
	strings.Repeat("a  ", 40), strings.Repeat("'q' ", 30), strings.Repeat("\"q\" ", 30),
	strings.Repeat("é ", 50), strings.Repeat("word\n", 5), strings.Repeat("long line here ", 10) + "\nnext",
	strings.Repeat(" ", 90) + "x", "x" + strings.Repeat(" ", 90), strings.Repeat("a\t", 50),
	"dbQuotaUsage > 0.8 || dbSize - dbSizeInUse > 200*1024*1024", "0 * * * *", "87600h", "4Gi", "500m",
	strings.Repeat("x", 5000), strings.Repeat("ab ", 1000), strings.Repeat("line\n", 300),
	"3.6.11", "v1", "0.0.0", "1.5", "-1", "1e400", "0x", "+", "0.", "1e", "1e+", ".e1",
}

func TestTrickyStrings(t *testing.T) {
	printed := 0
	for _, s := range trickyStrings {
		docs := []any{
			map[string]any{"k": s},
			map[string]any{s: "v"},
			map[string]any{"a": map[string]any{"b": []any{s, map[string]any{s: s}}}},
			map[string]any{"deep": map[string]any{"er": map[string]any{"and": map[string]any{"deeper": s}}}},
			map[string]any{"list": []any{[]any{s}, []any{}, map[string]any{}}},
		}
		for _, d := range docs {
			if check(t, mustJSON(t, d)) {
				printed++
			}
		}
	}
	t.Logf("%d documents printed by the fast path", printed)
}

func TestNumbers(t *testing.T) {
	nums := []any{
		0, 1, -1, 42, math.MaxInt32, math.MinInt32, int64(math.MaxInt64), int64(math.MinInt64),
		uint64(math.MaxUint64), 1e15, 1e16, 999999999999999, 9999999999999999, 1e20, 1e21, 1e22,
		1e-6, 1e-7, 0.1, 0.5, -0.5, 1.5e300, -1.5e-300, math.MaxFloat64, math.SmallestNonzeroFloat64,
		math.Copysign(0, -1), 123456789.125, 4080218931.0, 0.95,
	}
	for _, n := range nums {
		check(t, mustJSON(t, map[string]any{"n": n, "l": []any{n}}))
	}
	raw := []string{"-0", "1.0", "1E5", "1e-0", "0.000", "-0.0", "12345678901234567890",
		"-12345678901234567890", "1e400", "123456789012345", "1234567890123456",
		"2190550858753009152", "9007199254740993", "-9007199254740993", "18446744073709551616", "-9223372036854775809", "1.0e2", "-0.0e0"}
	for _, r := range raw {
		check(t, []byte(`{"n":`+r+`}`))
	}
}

func TestKeyOrder(t *testing.T) {
	keysets := [][]string{
		{"a1", "a10", "a2", "a_b", "aB", "a-b", "b", "A", "Z", "_", "-", "0", "00", "1", "01"},
		{"apiVersion", "kind", "metadata", "spec", "status"},
		{"app.kubernetes.io/instance", "app.kubernetes.io/name", "cozystack.io/service"},
		{"é", "e", "f", "日", "a٣", "a3", "a"},
		{"x0", "x00", "x01", "x1", "x001", "x10"},
	}
	for _, ks := range keysets {
		m := map[string]any{}
		for _, k := range ks {
			m[k] = k
		}
		check(t, mustJSON(t, m))
	}
}

func TestDocuments(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `"x"`, `1`, `null`, `true`, `[1,[2,[3,{}]],{"a":[]}]`,
		`{"a":null,"b":true,"c":false,"d":[null]}`,
		`{"a":{"metadata":{}},"b":[{"c":{}}]}`,
		`{"a":"\u00e9\ud83d\ude00","b":"\/"}`,
		` { "a" : [ 1 , 2 ] } `,
	}
	for _, d := range docs {
		check(t, []byte(d))
	}
	// Refused on purpose.
	for _, d := range []string{`{"a":"\u007f"}`, `{"a":"x` + "\u0085" + `y"}`, `{"a":"\ud800"}`,
		`{"a":1,"a":2}`, `{"` + strings.Repeat("k", 129) + `":1}`, "{\"a\":\"\xff\"}", `{"a":1e400}`} {
		var tr Tree
		err := tr.Parse([]byte(d))
		if err == nil {
			_, err = tr.AppendYAML(nil)
		}
		if !errors.Is(err, ErrFallback) {
			t.Errorf("%q: want ErrFallback, got %v", d, err)
		}
	}
}

// FuzzString puts one string at several places of a document: as a value
// at several depths (folding depends on the column), as a key, in lists.
func FuzzString(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s, "k")
	}
	f.Fuzz(func(t *testing.T, s, k string) {
		d := map[string]any{
			k:      s,
			"a":    map[string]any{"b": []any{s, map[string]any{s: s, k: []any{s}}}},
			"deep": map[string]any{"er": map[string]any{"and": map[string]any{"deeper": []any{[]any{s}}}}},
			s:      map[string]any{},
		}
		check(t, mustJSON(t, d))
	})
}

// FuzzJSON feeds raw JSON (numbers, escapes, nesting) to both paths.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a":[1.5,-0,1e21,"x"]}`, `{"a":{"b":{"c":null}}}`,
		`{"a":"\u2028\t\n"}`, `{"a1":1,"a10":2,"a2":3}`, `[{"x":[]}]`, `{"n":18446744073709551615}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, js []byte) {
		if !json.Valid(js) {
			return
		}
		check(t, js)
	})
}

// FuzzTree builds documents from the fuzzer's bytes: shapes, keys from
// trickyStrings and from the input, numbers of every magnitude.
func FuzzTree(f *testing.F) {
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09"), "free text")
	f.Add([]byte("\xff\x10\x20\x30\x40\x50\x60\x70\x80\x90\xa0\xb0"), "a: b\n c")
	f.Fuzz(func(t *testing.T, data []byte, free string) {
		g := &gen{data: data, free: free}
		v := g.value(0)
		if _, ok := v.(map[string]any); !ok {
			v = map[string]any{"root": v}
		}
		check(t, mustJSON(t, v))
	})
}

type gen struct {
	data []byte
	pos  int
	free string
}

func (g *gen) byte() byte {
	if g.pos >= len(g.data) {
		return 0
	}
	b := g.data[g.pos]
	g.pos++
	return b
}

func (g *gen) str() string {
	b := g.byte()
	switch b % 4 {
	case 0:
		return g.free
	case 1:
		return fmt.Sprintf("k%d", g.byte())
	default:
		return trickyStrings[int(g.byte())%len(trickyStrings)]
	}
}

func (g *gen) value(depth int) any {
	b := g.byte()
	if depth > 6 {
		b = b%5 + 3
	}
	switch b % 9 {
	case 0, 1:
		m := map[string]any{}
		for n := int(g.byte() % 6); n > 0; n-- {
			m[g.str()] = g.value(depth + 1)
		}
		return m
	case 2:
		var l []any
		for n := int(g.byte() % 5); n > 0; n-- {
			l = append(l, g.value(depth+1))
		}
		if l == nil {
			return []any{}
		}
		return l
	case 3, 4:
		return g.str()
	case 5:
		x := int64(g.byte())<<56 | int64(g.byte())<<40 | int64(g.byte())<<8 | int64(g.byte())
		return x >> (g.byte() % 64)
	case 6:
		f := math.Float64frombits(uint64(g.byte())<<56 | uint64(g.byte())<<48 | uint64(g.byte())<<8)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0.25
		}
		return f
	case 7:
		return g.byte()%2 == 0
	default:
		return nil
	}
}

// fastPathsAgree checks the shortcuts against the general code they skip.
func fastPathsAgree(t *testing.T, a, b string) {
	t.Helper()
	if simplePlain([]byte(a)) {
		var e emitter
		e.analyzeScalar([]byte(a))
		if !plainIsString([]byte(a)) || !e.sd.blockPlainAllowed || e.sd.multiline || strings.ContainsAny(a, " \n") {
			t.Errorf("simplePlain(%q) but the general path would not print it plain on one line", a)
		}
	}
	ka, kb := []byte(a), []byte(b)
	if plainASCII(ka) && plainASCII(kb) {
		if got, want := keyLessASCII(ka, kb), keyLess([]rune(a), []rune(b)); got != want {
			t.Errorf("keyLessASCII(%q, %q) = %v, keyLess %v", a, b, got, want)
		}
	}
}

func plainASCII(k []byte) bool {
	for _, c := range k {
		if c >= 0x80 || c >= '0' && c <= '9' {
			return false
		}
	}
	return true
}

func TestFastPathsAgree(t *testing.T) {
	extra := []string{"name", "namespace", "no", "n", "true", "on", "o", "Off", "y", "yes1", "a/b", "_x", "$x",
		"(x)", "<<", "=", ";", "\\", "^", "a:b", "a#b", "a,b", "a-b", "a.b", "aB", "ab", "a_b", "A", "Z", "a", "z"}
	all := append(append([]string{}, trickyStrings...), extra...)
	for _, a := range all {
		for _, b := range all {
			fastPathsAgree(t, a, b)
		}
	}
}

func FuzzFastPaths(f *testing.F) {
	f.Add("name", "namespace")
	f.Add("a_b", "aB")
	f.Fuzz(fastPathsAgree)
}

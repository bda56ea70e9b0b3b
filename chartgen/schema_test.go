package chartgen

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/stretchr/testify/require"
)

// texts are every text of the alphabet up to n characters, and count
// random ones of up to max characters of it.
func texts(alphabet []string, n, count, max int) []string {
	var out []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		out = append(out, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			grow(prefix+c, n-1)
		}
	}
	grow("", n)
	r := rand.New(rand.NewPCG(3, 4))
	for range count {
		var b strings.Builder
		for range r.IntN(max) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		out = append(out, b.String())
	}
	return out
}

// TestSchemaVersionIsTheLibrarys: the schema's version (schemaVersionPattern,
// no run of more than etcd.MaxVersionDigits digits, etcd.MaxVersionLength)
// accepts exactly the versions etcd.ValidateVersion accepts, and its
// anchored (grouped) form matches what the pattern matches.
func TestSchemaVersionIsTheLibrarys(t *testing.T) {
	p := versionProp("")
	re := regexp.MustCompile(p["pattern"].(string))
	run := regexp.MustCompile(p["not"].(map[string]any)["pattern"].(string))
	bare := regexp.MustCompile(schemaVersionPattern)
	all := texts([]string{"0", "1", "9", ".", "-", "a", "+"}, 5, 20000, 70)
	for _, d := range []int{17, 18, 19, 20} {
		n := "1" + strings.Repeat("0", d-1)
		all = append(all, n+".0.0", "0."+n+".0", "1.2."+n, n+"."+n+"."+n, "0"+n+".1.1")
	}
	accepted := 0
	for _, s := range all {
		schema := re.MatchString(s) && !run.MatchString(s) && len(s) <= p["maxLength"].(int)
		require.Equal(t, re.MatchString(s), bare.MatchString(s), "the grouped pattern and the pattern on %q", s)
		require.Equal(t, etcd.ValidateVersion(s) == nil, schema, "the schema and the library on the version %q", s)
		if schema {
			accepted++
		}
	}
	require.Greater(t, accepted, 30)
}

// TestSchemaRatioRefusesOnlyWhatTheLibraryRefuses: a ratio's text the
// schema refuses (schemaRatioPattern, etcd.MaxRatioLength) is one the
// library refuses, on every text of a small alphabet up to four
// characters and random longer ones.
func TestSchemaRatioRefusesOnlyWhatTheLibraryRefuses(t *testing.T) {
	re := regexp.MustCompile(anchored(schemaRatioPattern))
	all := texts([]string{"0", "1", "9", ".", "+", "-", "e", "E", "x", "p", "P", "a", "f", "i", "n", "_", " "}, 4, 30000, 80)
	all = append(all, "0x1p4", "0X.8P-1", "1e15", "1e16", "+0.5", "inf", "NaN", "-1", "", strings.Repeat("1", 64), "1."+strings.Repeat("0", 63))
	refused := 0
	for _, s := range all {
		if s == "" || strings.Contains(s, "_") {
			// The values refuse "" (values' ratioValue); etcd.Ratios
			// reads it as the default. strconv.ParseFloat reads digits
			// separated by "_" ("1_0"), which the charts refused before
			// the schema held the grammar too: a known difference.
			continue
		}
		if !re.MatchString(s) || len(s) > etcd.MaxRatioLength {
			refused++
			require.Error(t, etcd.Ratios{CPU: s}.Validate(), "the schema refuses the ratio %q the library accepts", s)
		}
	}
	require.Greater(t, refused, len(all)/2)
}

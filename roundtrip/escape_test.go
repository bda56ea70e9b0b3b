package roundtrip

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
)

// TestEscapeTwin: the charts' etcdshapes.check.fail escapes the field and
// the rule as invalid.Error does (etcdshapes.check.escape is
// invalid.Escape), so a refusal's message is the library's on every
// input, and neither prints a control character raw.
func TestEscapeTwin(t *testing.T) { forEachHelm(t, escapeTwin) }

func escapeTwin(t *testing.T, h helm) {
	// Every class Escape rewrites and some it keeps; values reach a
	// template through YAML or JSON, so always as UTF-8.
	alphabet := []string{"a", "Z", "0", " ", ".", `\`, `"`, "'", "%", "{{", "ж", "黄", "🟡", "\uFFFD",
		"\x00", "\a", "\b", "\t", "\n", "\v", "\f", "\r", "\x1b", "\x1f", "\x7f", "\u0080", "\u0085", "\u009b", "\u009f",
		"\u00ad", "\u200b", "\u200e", "\u2028", "\u2029", "\u202a", "\u202e", "\u2066", "\u2069", "\ufeff", "\U000e0001", "\U0010ffff"}
	r := rand.New(rand.NewSource(19))
	inputs := []string{"", "plain", `\\"`, `\"`, "\\\x1b", strings.Repeat("\x1b", 300)}
	for i := 0; i < 200; i++ {
		var b strings.Builder
		for n := r.Intn(12); n >= 0; n-- {
			b.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		inputs = append(inputs, b.String())
	}
	for _, s := range inputs {
		want := (&invalid.Error{Field: "f." + s, Value: s, Rule: "must not be " + s}).Error()
		_, err := probe(t, h, "fail", map[string]any{"field": "f." + s, "value": s, "rule": "must not be " + s})
		if err == nil {
			t.Fatalf("%q: the chart does not fail", s)
		}
		if got := helmMessage(err); got != want {
			t.Fatalf("%q:\n  library: %q\n  chart:   %q", s, want, got)
		}
	}
	t.Logf("%s: escape: %d strings", h.name(), len(inputs))
}

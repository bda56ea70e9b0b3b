package plan

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// textAlphabet holds what a value may: plain and multi-byte characters,
// what JSON escapes (a quote, a backslash, a newline, a tab) and what
// it does not (<, >, &), spaces.
var textAlphabet = []rune("abcdefghijklmnopqrstuvwxyz0123456789-_./:= é日🙂\"\\\n\t<>&")

func randomText(rng *rand.Rand, alphabet []rune, n int) string {
	var b strings.Builder
	for range n {
		b.WriteRune(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

// textMutation changes a string at a place: the class of differences a
// plan shows.
type textMutation struct {
	name string
	fn   func(rng *rand.Rand, s []rune) []rune
}

func otherRune(rng *rand.Rand, alphabet []rune, r rune) rune {
	for {
		if o := alphabet[rng.IntN(len(alphabet))]; o != r {
			return o
		}
	}
}

func textMutations(alphabet []rune) []textMutation {
	at := func(where string, n int) int {
		switch where {
		case "start":
			return 0
		case "end":
			return n - 1
		case "near the start":
			return min(n-1, 3)
		case "near the end":
			return max(0, n-4)
		}
		return n / 2
	}
	var out []textMutation
	for _, where := range []string{"start", "near the start", "middle", "near the end", "end"} {
		out = append(out,
			textMutation{"one character replaced at the " + where, func(rng *rand.Rand, s []rune) []rune {
				i := at(where, len(s))
				s[i] = otherRune(rng, alphabet, s[i])
				return s
			}},
			textMutation{"one character inserted at the " + where, func(rng *rand.Rand, s []rune) []rune {
				i := at(where, len(s))
				if where == "end" {
					i = len(s)
				}
				return append(s[:i:i], append([]rune{alphabet[rng.IntN(len(alphabet))]}, s[i:]...)...)
			}},
			textMutation{"one character deleted at the " + where, func(rng *rand.Rand, s []rune) []rune {
				i := at(where, len(s))
				return append(s[:i:i], s[i+1:]...)
			}},
			textMutation{"a long run replaced at the " + where, func(rng *rand.Rand, s []rune) []rune {
				i := at(where, len(s))
				for j := i; j < min(len(s), i+150); j++ {
					s[j] = otherRune(rng, alphabet, s[j])
				}
				return s
			}},
		)
	}
	out = append(out,
		textMutation{"the first and the last character replaced", func(rng *rand.Rand, s []rune) []rune {
			s[0] = otherRune(rng, alphabet, s[0])
			s[len(s)-1] = otherRune(rng, alphabet, s[len(s)-1])
			return s
		}},
		textMutation{"doubled", func(rng *rand.Rand, s []rune) []rune { return append(s, s...) }},
		textMutation{"halved", func(rng *rand.Rand, s []rune) []rune { return s[:len(s)/2] }},
		textMutation{"a multi-byte character for one that shares its first byte", func(rng *rand.Rand, s []rune) []rune {
			i := len(s) / 2
			s[i] = 'é'
			s = append(s[:i+1:i+1], append([]rune{'x'}, s[i+1:]...)...)
			s[i] = 'è' // C3 A8 against é's C3 A9
			return s
		}},
	)
	return out
}

// shape wraps a string in a value: the structures changes come in.
type shape struct {
	name string
	wrap func(s string) any
	// leaf is the label of the string below the value, for diffLines.
	leaf string
}

var shapes = []shape{
	{"a string", func(s string) any { return s }, "x"},
	{"a list of strings", func(s string) any {
		return []any{"--endpoints=https://etcd.tenant-root.svc:2379", "--cluster", s, "--defrag-rule"}
	}, "x[2]"},
	{"an object", func(s string) any {
		return map[string]any{"labelSelector": map[string]any{"matchLabels": map[string]any{"app.kubernetes.io/name": "etcd"}}, "maxSkew": int64(1), "topologyKey": s, "whenUnsatisfiable": "ScheduleAnyway"}
	}, "x.topologyKey"},
	{"objects in lists in objects", func(s string) any {
		return map[string]any{"spec": map[string]any{"containers": []any{
			map[string]any{"name": "etcd-defrag", "image": "ghcr.io/ahrtr/etcd-defrag:v0.13.0"},
			map[string]any{"name": "sidecar", "args": []any{"--a", map[string]any{"deep": []any{s}}}},
		}}}
	}, "x.spec.containers[1].args[1].deep[0]"},
}

// firstDiff is the first byte where a and b differ (the length of the
// shorter when it is the other's start).
func firstDiff(a, b string) int {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	return p
}

// around is s near byte p, whole characters.
func around(s string, p, n int) string {
	return s[runeStart(s, max(0, p-n)):runeEnd(s, min(len(s), p+n))]
}

// showsAt reports whether printed, a side as showPair prints it, is a
// window of full that holds the bytes where the sides differ (p): the
// character before and the ones after it.
func showsAt(printed, full string, p int) bool {
	seg := strings.TrimSuffix(strings.TrimPrefix(printed, ellipsis), ellipsis)
	if !utf8.ValidString(seg) {
		return false
	}
	from, to := runeStart(full, max(0, p-1)), runeEnd(full, min(len(full), p+6))
	for at := 0; ; {
		i := strings.Index(full[at:], seg)
		if i < 0 {
			return false
		}
		i += at
		if i <= from && to <= i+len(seg) {
			return true
		}
		at = i + 1
	}
}

// near is s around byte p, for a message.
func near(s string, p int) string {
	return fmt.Sprintf("%q (byte %d of %d)", around(s, p, 40), p, len(s))
}

// TestShowPairShowsTheDifference: for long values (strings, lists,
// objects, nested) of many lengths that differ at the start, the middle,
// the end, by one character or many (replaced, inserted, deleted, in a
// multi-byte character), the two printed sides differ, are no longer
// than a line allows, and each holds its side's bytes where the two
// differ; diffLines shows the same down to the string that changed.
func TestShowPairShowsTheDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(20261202, 7))
	cases := 0
	for _, n := range []int{1, 40, 101, 160, 400, 2000} {
		for round := range 3 {
			base := randomText(rng, textAlphabet, n)
			for _, m := range textMutations(textAlphabet) {
				other := string(m.fn(rng, []rune(base)))
				if other == base {
					continue
				}
				for _, sh := range shapes {
					live, desired := sh.wrap(base), sh.wrap(other)
					name := fmt.Sprintf("%s of %d characters (round %d), %s", sh.name, n, round, m.name)
					cases++
					l, d := showPair(live, desired)
					lj, dj := valueJSON(live), valueJSON(desired)
					p := firstDiff(lj, dj)
					require.NotEqual(t, l, d, "%s: both sides print alike", name)
					assert.True(t, showsAt(l, lj, p), "%s: the live side %q does not show where it differs, %s", name, l, near(lj, p))
					assert.True(t, showsAt(d, dj, p), "%s: the desired side %q does not show where it differs, %s", name, d, near(dj, p))
					for _, side := range []string{l, d} {
						assert.LessOrEqual(t, utf8.RuneCountInString(side), showMax+keyReach+2*len(ellipsis), "%s: %q", name, side)
					}

					// diffLines, down to the string that changed: the
					// line of the string (or of a value holding it, when
					// that fits) shows where it differs.
					lines := diffLines("x", live, desired)
					require.NotEmpty(t, lines, name)
					sl, sd := valueJSON(base), valueJSON(other)
					sp := firstDiff(sl, sd)
					found := false
					for _, line := range lines {
						require.Equal(t, "~", line.mark, "%s: %+v", name, lines)
						require.NotEqual(t, line.live, line.desired, "%s: %+v", name, line)
						if strings.HasPrefix(sh.leaf, line.label) &&
							strings.Contains(line.live, around(sl, sp, 4)) && strings.Contains(line.desired, around(sd, sp, 4)) {
							found = true
						}
					}
					assert.True(t, found, "%s: no line shows the change of %s: %+v", name, sh.leaf, lines)
				}
			}
		}
	}
	t.Logf("%d pairs", cases)
}

// TestShowPairEqualJSON: two values of one JSON form (an integer and a
// float) still print apart.
func TestShowPairEqualJSON(t *testing.T) {
	l, d := showPair(int64(3), float64(3))
	assert.NotEqual(t, l, d)
	long := strings.Repeat("x", 300)
	l, d = showPair([]any{long, int64(3)}, []any{long, float64(3)})
	assert.NotEqual(t, l, d)
}

// TestDiffLinesFields: fields added to and removed from an object too long
// for a line are lines of their own, labelled with their keys (quoted
// where a key is not a plain name).
func TestDiffLinesFields(t *testing.T) {
	long := strings.Repeat("y", 120)
	live := map[string]any{"keep": long, "gone": "a", "app.kubernetes.io/name": "etcd"}
	desired := map[string]any{"keep": long, "new": int64(2), "app.kubernetes.io/name": "etcd-2"}
	assert.Equal(t, []diffLine{
		{"~", `[0]."app.kubernetes.io/name"`, `"etcd"`, `"etcd-2"`},
		{"-", "[0].gone", `"a"`, ""},
		{"+", "[0].new", "", "2"},
	}, diffLines("[0]", live, desired))
}

// TestWriteTextLongChanges: as WriteText prints them (escaped), the two
// sides of every changed field and of every changed element of a list of
// objects differ, for values that differ by one character or many at the
// start, the middle and the end, with characters a terminal must not get
// as they are (an escape, a zero-width space, a bell).
func TestWriteTextLongChanges(t *testing.T) {
	alphabet := []rune("abcdefghij0123456789-_./: é日\"\\\n\x1b\u200b\a")
	rng := rand.New(rand.NewPCG(20261202, 8))
	ref := ObjectRef{APIVersion: "etcd-operator.cozystack.io/v1alpha2", Kind: "EtcdCluster", Namespace: "tenant-demo", Name: "kubernetes-demo-etcd"}
	lines := 0
	for _, n := range []int{30, 101, 300} {
		base := randomText(rng, alphabet, n)
		for _, m := range textMutations(alphabet) {
			other := string(m.fn(rng, []rune(base)))
			if other == base {
				continue
			}
			element := func(s string) any {
				return map[string]any{"maxSkew": int64(1), "topologyKey": s, "whenUnsatisfiable": "ScheduleAnyway"}
			}
			p := &Result{Objects: []ObjectPlan{{ObjectRef: ref, Action: Update, Changes: []FieldChange{
				{Path: "spec.a", Type: FieldChanged, Live: base, Desired: other},
				{Path: "spec.b", Type: FieldChanged, Live: []any{"--x", base}, Desired: []any{"--x", other}},
				{Path: "spec.topologySpreadConstraints", Type: FieldChanged, Live: []any{element(base), element("z")}, Desired: []any{element(other), element("z")}},
			}}}}
			text := p.String()
			changed := 0
			for _, line := range strings.Split(text, "\n") {
				rest, ok := strings.CutPrefix(strings.TrimLeft(line, " "), "~ ")
				if !ok || !strings.HasPrefix(line, " ") {
					continue
				}
				// The alphabet has no ">": the sides split at " -> ".
				_, sides, _ := strings.Cut(rest, ": ")
				l, d, found := strings.Cut(sides, " -> ")
				require.True(t, found, line)
				require.NotEqual(t, l, d, "%s (%d characters): %q prints its sides alike in:\n%s", m.name, n, line, text)
				for _, r := range "\n\x1b\u200b\a" {
					require.NotContains(t, line, string(r), "%s: not escaped", m.name)
				}
				changed++
			}
			// Three fields and the element of the list of objects.
			require.GreaterOrEqual(t, changed, 4, text)
			lines += changed
		}
	}
	t.Logf("%d changed lines", lines)
}

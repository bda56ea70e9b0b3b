package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlanFieldManager: plan --field-manager plans the apply of that
// field manager, for both callers, on the stacks as a real API server
// returned them (applied by "etcdshapes"): nothing changes when the
// values are the same, and a changed field etcdshapes owns is a conflict
// with etcdshapes that the given manager's force takes, where the default
// plans a plain change; the text and -o json name the manager. The
// default is "etcdshapes", byte for byte.
func TestPlanFieldManager(t *testing.T) {
	live := filepath.Join("..", "..", "testdata", "apiserver", "live.yaml")
	for _, base := range [][]string{
		{"plan", "etcd", "--namespace", "tenant-fixture", "--chart-version", "1.2.3", "--live", live},
		{"plan", "cluster", "kubernetes-fixture", "--namespace", "tenant-fixture", "--chart-version", "1.2.3", "--live", live},
	} {
		with := func(more ...string) []string { return append(append([]string{}, base...), more...) }
		t.Run(strings.Join(base[:2], " "), func(t *testing.T) {
			def := ok(t, "", base...)
			assert.Equal(t, def, ok(t, "", with("--field-manager", "etcdshapes")...))
			assert.Equal(t, def, ok(t, "", with("--field-manager=etcdshapes")...))
			assert.Contains(t, def, "\nField manager: etcdshapes, with force; apply with the same (kubectl apply --server-side --field-manager=etcdshapes --force-conflicts -f -).\n")
			assert.True(t, strings.HasSuffix(def, "\nNo changes.\n"), def)
			assert.Contains(t, ok(t, "", with("-o", "json")...), `"fieldManager": "etcdshapes"`)

			// Planned as my-operator, the stack etcdshapes applied is
			// owned by another manager: said, and the verdict qualified.
			out := ok(t, "", with("--field-manager", "my-operator")...)
			assert.Contains(t, out, "\nField manager: my-operator, with force; apply with the same (kubectl apply --server-side --field-manager=my-operator --force-conflicts -f -).\n")
			assert.Contains(t, out, "\nOwned by other managers: my-operator, the field manager this plan is of, owns no field of the ")
			assert.True(t, strings.HasSuffix(out, "\nNo changes, qualified: field manager my-operator owns no live field (Owned by other managers, above).\n"), out)
			assert.Contains(t, ok(t, "", with("--field-manager", "my-operator", "-o", "json")...), `"fieldManager": "my-operator"`)

			// The WorkloadMonitor's version, which etcdshapes applied.
			changed := with("--chart-version", "1.2.4")
			out = ok(t, "", changed...)
			assert.NotContains(t, out, "conflict with")
			out = ok(t, "", append(changed, "--field-manager", "my-operator")...)
			assert.Contains(t, out, `~ spec.version: "1.2.3" -> "1.2.4": conflict with etcdshapes (an apply without force is refused; with force my-operator takes the field)`)
		})
	}
}

// TestPlanRefusesBadFieldManager: a --field-manager the API server would
// refuse, or not store as given, is bad input (exit 1, one line naming
// the flag and quoting the name escaped, nothing on stdout) for both
// callers: too long, not printable, not UTF-8. An empty one is a usage
// error, as every flag's empty value is (TestEmptyFlagValues).
func TestPlanRefusesBadFieldManager(t *testing.T) {
	live := writeTemp(t, []byte(""))
	for _, base := range [][]string{
		{"plan", "etcd", "-n", "tenant-root", "--live", live},
		{"plan", "cluster", "kubernetes-demo", "-n", "tenant-demo", "--live", live},
	} {
		for _, tc := range []struct{ name, want string }{
			{strings.Repeat("m", 129), `: must be at most 128 bytes, as the API server accepts (129 given)`},
			{"a\nb", `--field-manager: invalid value "a\nb": must hold printable characters only, as the API server requires: U+000A at byte 1 is not`},
			{"rtl\u202e", `--field-manager: invalid value "rtl\u202e": must hold printable characters only`},
			{"\x1b]52;c;eA==\a", `--field-manager: invalid value "\x1b]52;c;eA==\a": must hold printable characters only`},
			{"bad\xff", `--field-manager: invalid value "bad\xff": must be valid UTF-8`},
		} {
			args := append(append([]string{}, base...), "--field-manager", tc.name)
			t.Run(strings.Join(args[:2], " ")+" "+tc.want, func(t *testing.T) {
				code, stdout, stderr := cli(t, "", args...)
				require.Equal(t, exitError, code, stderr)
				assert.Empty(t, stdout)
				assert.True(t, strings.HasPrefix(stderr, "etcdshapes: --field-manager: invalid value "), stderr)
				assert.Contains(t, stderr, tc.want)
				assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
			})
		}
	}
}

package etcdshapes_test

import (
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/strvals"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/values"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuantityRefusalsQuoteAsWritten: every refusal of a quantity or a
// ratio (values.size, the cpu, memory and ephemeral-storage limits, the
// three ratios) quotes the input exactly as written, whatever its
// spelling: exponents of both signs and cases, suffixes, leading zeros,
// a "+" sign, a leading point, YAML 1.1's octal, hexadecimal and "_"
// forms, in a values file (plain and quoted) and through --set and
// --set-string. The message shows the text as written (plain for a
// number of the file, quoted for a string).
func TestQuantityRefusalsQuoteAsWritten(t *testing.T) {
	fields := []struct{ key, yamlPath, field string }{
		{"size", "size", "values.size"},
		{"resources.memory", "resources:\n  memory", "values.resources.memory"},
		{"resources.cpu", "resources:\n  cpu", "values.resources.cpu"},
		{"resources.ephemeral-storage", "resources:\n  ephemeral-storage", "values.resources.ephemeral-storage"},
		{"_cluster.memory-allocation-ratio", "_cluster:\n  memory-allocation-ratio", "_cluster.memory-allocation-ratio"},
		{"_cluster.cpu-allocation-ratio", "_cluster:\n  cpu-allocation-ratio", "_cluster.cpu-allocation-ratio"},
		{"_cluster.ephemeral-storage-allocation-ratio", "_cluster:\n  ephemeral-storage-allocation-ratio", "_cluster.ephemeral-storage-allocation-ratio"},
	}
	// Spellings each refused for every field (as zero, as below a floor,
	// as too small or too large, as lossy), each as written.
	spellings := []string{
		"1e-400", "1E-400", "+1e-400", "-1e-400", "1e+400", "0.000", "+0.000", "0e5", "0.0e-5", "0E+3", ".0", "+.0",
		"00", "000", "+0", "-0", "-0.0", "007", "+007", "0x0", "0o0", "0b0", "1_0e-400", "+.5e-400", "0.5e-400",
		"-1", "-1e3", "-1.5E+2", "1e16", "1E16", "+1e16", "10000000000000000",
	}
	quantityOnly := []string{"0Mi", "+0Gi", "-1Gi", "1.5n", "0.1n", "10E", "1Ei", "-0Ki", "00Mi", "+1e-400m"}
	// Where the field is refused (some spellings are valid for some
	// fields: a zero memory, a large ratio's limit), the refusal quotes
	// the text as written, plain or quoted.
	check := func(t *testing.T, err error, field, shown string) {
		t.Helper()
		for _, e := range invalid.All(err) {
			if e.Field != field {
				continue
			}
			got := invalid.FormatValue(e.Value)
			assert.Equal(t, strings.Trim(shown, `"`), strings.Trim(got, `"`), "%v", err)
			return
		}
	}
	render := func(vals map[string]any) error {
		_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: vals})
		return err
	}
	for _, f := range fields {
		list := spellings
		if !strings.HasPrefix(f.key, "_cluster.") {
			list = append(append([]string(nil), spellings...), quantityOnly...)
		}
		for _, s := range list {
			t.Run(f.key+"="+s, func(t *testing.T) {
				// A values file, plain: a number as written (plain),
				// or the string YAML reads ("1.5n", "1e+400").
				vals, err := values.Merge([]byte(f.yamlPath + ": " + s + "\n"))
				require.NoError(t, err)
				check(t, render(vals), f.field, plainOrQuoted(t, f.yamlPath+": "+s, vals, s))
				// Quoted in the file, --set and --set-string: the
				// string as written.
				for _, doc := range []string{f.yamlPath + ": \"" + s + "\"\n"} {
					vals, err := values.Merge([]byte(doc))
					require.NoError(t, err)
					check(t, render(vals), f.field, `"`+s+`"`)
				}
				all := []strvals.Sets{{Values: []string{f.key + "=" + s}}, {Strings: []string{f.key + "=" + s}}}
				if strings.HasPrefix(s, "+0") {
					// Helm's --set reads "+007" as the integer 7
					// (strconv.ParseInt) and keeps no spelling.
					all = all[1:]
				}
				for _, sets := range all {
					vals := map[string]any{}
					require.NoError(t, sets.Apply(vals, nil))
					check(t, render(vals), f.field, `"`+s+`"`)
				}
			})
		}
	}
}

// plainOrQuoted is how a refusal shows s, the scalar of a values line:
// plain when the file holds a number there, quoted when a string.
func plainOrQuoted(t *testing.T, line string, vals map[string]any, s string) string {
	t.Helper()
	var leaf any = vals
	for m, ok := leaf.(map[string]any); ok; m, ok = leaf.(map[string]any) {
		for _, v := range m {
			leaf = v
		}
	}
	if _, isString := leaf.(string); isString {
		return `"` + s + `"`
	}
	_ = line
	return s
}

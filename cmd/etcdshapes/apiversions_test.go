package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/require"
)

var kindLine = regexp.MustCompile(`(?m)^kind: (\S+)$`)

// optionalKinds are the kinds of the optional APIs in a render's YAML,
// in the table's order.
func optionalKinds(yaml string) []string {
	rendered := map[string]bool{}
	for _, m := range kindLine.FindAllStringSubmatch(yaml, -1) {
		rendered[m[1]] = true
	}
	var out []string
	for _, api := range etcdshapes.OptionalAPIs() {
		if kind := api[strings.LastIndexByte(api, '/')+1:]; rendered[kind] {
			out = append(out, kind)
		}
	}
	return out
}

// TestCLIAPIVersionsAsHelm: --api-versions values are read as
// `helm template --api-versions` reads them (pflag's string slice: one CSV
// record a value, spaces and case kept) and nothing in them is refused
// (but an empty value, as every flag's: TestEmptyFlagValues):
// each command line renders, exit 0, with the optional kinds whose API an
// entry equals, and a warning on stderr for each likely mistake; render
// and plan alike. roundtrip's TestAPIVersionsDifferential proves the
// same command lines against helm itself.
func TestCLIAPIVersionsAsHelm(t *testing.T) {
	const (
		vpa, cnp = etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APICiliumNetworkPolicy
		notName  = "is not an API's name"
	)
	for _, c := range []struct {
		name   string
		caller naming.Caller
		values []string
		kinds  []string
		warn   []string // one substring a stderr line, in order
	}{
		{name: "trailing space", values: []string{cnp + " "}, warn: []string{`"` + cnp + ` " ` + notName + ` (group/version or group/version/Kind), so it matches nothing, as in Helm; did you mean ` + cnp + "?"}},
		{name: "leading space", values: []string{" " + cnp}, warn: []string{`" ` + cnp + `" ` + notName}},
		{name: "tab", values: []string{cnp + "\t"}, warn: []string{`"` + cnp + `\t" ` + notName}},
		{name: "comma-separated", values: []string{cnp + "," + vpa}, kinds: []string{"VerticalPodAutoscaler", "CiliumNetworkPolicy"}},
		{name: "space after a comma", values: []string{cnp + ", " + vpa}, kinds: []string{"CiliumNetworkPolicy"}, warn: []string{`" ` + vpa + `" ` + notName}},
		{name: "repeated flag", values: []string{cnp, vpa, cnp}, kinds: []string{"VerticalPodAutoscaler", "CiliumNetworkPolicy"}},
		{name: "trailing comma", values: []string{cnp + ","}, kinds: []string{"CiliumNetworkPolicy"}, warn: []string{`"" ` + notName}},
		{name: "only commas", values: []string{",,"}, warn: []string{`"" ` + notName}},
		{name: "CSV quotes", values: []string{`"` + cnp + `"`}, kinds: []string{"CiliumNetworkPolicy"}},
		{name: "a comma inside CSV quotes", values: []string{`"` + cnp + `,x"`}, warn: []string{`"` + cnp + `,x" ` + notName}},
		{name: "line break", values: []string{cnp + "\n" + vpa}, kinds: []string{"CiliumNetworkPolicy"}, warn: []string{"only its first line is read"}},
		{name: "trailing line break", values: []string{cnp + "\n"}, kinds: []string{"CiliumNetworkPolicy"}},
		{name: "upper case", values: []string{"CILIUM.IO/v2/CiliumNetworkPolicy"}, warn: []string{"; did you mean " + cnp + "?"}},
		{name: "group/version", values: []string{"cilium.io/v2"}, warn: []string{`"cilium.io/v2" is in the API group of ` + cnp + ", which the list does not hold, so no CiliumNetworkPolicy is rendered"}},
		{name: "a served list without the PodMonitor", caller: naming.CallerEtcd, values: []string{"monitoring.coreos.com/v1,monitoring.coreos.com/v1/ServiceMonitor,v1,apps/v1"},
			kinds: []string{"VerticalPodAutoscaler", "VMPodScrape"}, warn: []string{`"monitoring.coreos.com/v1" and 1 more entries are in the API group of ` + etcdshapes.APIPodMonitor}},
		{name: "non-ASCII and a terminal escape", values: []string{"ciliüm.io/v2/CiliumNetworkPolicy,\x1b]52;c;aGk=\x07"}, warn: []string{`"ciliüm.io/v2/CiliumNetworkPolicy" ` + notName, `"\x1b]52;c;aGk=\a" ` + notName}},
	} {
		t.Run(c.name, func(t *testing.T) {
			caller := c.caller
			if caller == "" {
				caller = naming.CallerCluster
			}
			args := []string{"render", caller.String(), "-n", "tenant-demo"}
			if caller == naming.CallerCluster {
				args = append(args, "--release", "kubernetes-demo")
			}
			for _, v := range c.values {
				args = append(args, "--api-versions", v)
			}
			// --include-hooks: stderr then holds the warnings alone (no
			// line saying which uninstall hooks were left out).
			code, stdout, stderr := cli(t, "", append(args, "--include-hooks")...)
			require.Equal(t, 0, code, "stderr: %s", stderr)
			require.Equal(t, c.kinds, optionalKinds(stdout))
			checkWarnings(t, stderr, c.warn)

			// plan warns the same (a live stack of itself: no object of
			// an optional kind the list leaves out to infer it from).
			live := writeValuesFile(t, stdout)
			code, _, stderr = cli(t, "", append([]string{"plan"}, append(args[1:], "--live", live)...)...)
			require.Equal(t, 0, code, "stderr: %s", stderr)
			checkWarnings(t, stderr, c.warn)
		})
	}
}

func checkWarnings(t *testing.T, stderr string, want []string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if stderr == "" {
		lines = nil
	}
	require.Len(t, lines, len(want), "stderr: %q", stderr)
	for i, l := range lines {
		require.True(t, strings.HasPrefix(l, "etcdshapes: warning: "), "%q", l)
		require.Contains(t, l, want[i])
		require.NotContains(t, l, "\x1b")
	}
}

// TestCLIAPIVersionsInferredNoWarning: plan lists the APIs a live object
// proves served, so the group/version beside it is no mistake there.
func TestCLIAPIVersionsInferredNoWarning(t *testing.T) {
	args := []string{"cluster", "-n", "tenant-demo", "--release", "kubernetes-demo"}
	live := writeValuesFile(t, ok(t, "", append([]string{"render"}, append(args, "-a", etcdshapes.APICiliumNetworkPolicy)...)...))
	code, stdout, stderr := cli(t, "", append([]string{"plan"}, append(args, "-a", "cilium.io/v2", "--live", live)...)...)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Contains(t, stdout, "inferred from live object")
	require.Empty(t, stderr)
}

package roundtrip

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
	v3util "helm.sh/helm/v3/pkg/chartutil"
	v4common "helm.sh/helm/v4/pkg/chart/common"
)

// The differential test of served API lists (issue 19, section 7): for a
// class of entries (spaces and tabs around an API, empty entries, commas
// and quotes inside one, case, duplicates, a group/version without its
// kind, other kinds and versions of an optional API's group, APIs the
// stacks know nothing of, very long entries, non-ASCII and control
// characters), the library, the generated charts (Helm v3 and v4 engines)
// and the upstream charts render the same optional objects, and the one
// Helm says are served: .Capabilities.APIVersions.Has, Helm's own
// VersionSet.Has of v3 and v4. None of them refuses a list.
//
// TestAPIVersionsHelmCLI does the same through the command lines: the
// same --api-versions values given to `helm template` ($HELM, $HELM4) and
// to the etcdshapes CLI, so that the flag's splitting is proved too.

// kindLine is a rendered object's kind.
var kindLine = regexp.MustCompile(`(?m)^kind: (\S+)\s*$`)

// renderedKinds are the kinds of a render's objects that kinds lists, in
// kinds' order.
func renderedKinds(yaml string, kinds []string) []string {
	seen := map[string]bool{}
	for _, m := range kindLine.FindAllStringSubmatch(yaml, -1) {
		seen[m[1]] = true
	}
	var out []string
	for _, k := range kinds {
		if seen[k] {
			out = append(out, k)
		}
	}
	return out
}

func kindOfAPI(api string) string { return api[strings.LastIndexByte(api, '/')+1:] }

// optionalKinds are the kinds of the optional APIs, in OptionalAPIs' order.
var optionalKinds = func() []string {
	var out []string
	for _, api := range etcdshapes.OptionalAPIs() {
		out = append(out, kindOfAPI(api))
	}
	return out
}()

// upstreamKinds are the optional kinds the upstream charts render at all
// (they have no PodMonitor or GrafanaDashboard).
var upstreamKinds = []string{"VerticalPodAutoscaler", "VMPodScrape", "CiliumNetworkPolicy"}

// helmServed is the oracle: the optional kinds caller's stack renders
// where Helm's .Capabilities.APIVersions.Has says their API is served,
// with the list appended to Helm's default set as `helm template` does.
// Helm v3's and v4's VersionSet must agree.
func helmServed(t *testing.T, caller naming.Caller, list []string) []string {
	t.Helper()
	v3 := append(slices.Clone(v3util.DefaultCapabilities.APIVersions), list...)
	v4 := append(slices.Clone(v4common.DefaultCapabilities.APIVersions), list...)
	gated := etcdshapes.OptionalAPIsOf(caller)
	var out []string
	for _, api := range etcdshapes.OptionalAPIs() {
		has := v3.Has(api)
		if v4.Has(api) != has {
			t.Fatalf("Helm v3 and v4 disagree on %s in %q", api, list)
		}
		if !slices.Contains(gated, api) {
			// The etcd chart's VPA and VMPodScrape always render; its
			// stack has no CiliumNetworkPolicy.
			has = caller == naming.CallerEtcd && api != etcdshapes.APICiliumNetworkPolicy
		}
		if has {
			out = append(out, kindOfAPI(api))
		}
	}
	return out
}

// apiEntries are the class's entries: each optional API exact and as
// every kind of near miss, and entries of no optional API.
func apiEntries() []string {
	out := []string{
		"", ",", `"`, "v1", "v1/Pod", "apps/v1", "apps/v1/Deployment", "example.com/v1/Widget", "example.com/stable/my-widget",
		strings.Repeat("a", 1<<16), "cilium.io/v2/" + strings.Repeat("A", 1<<16), "\x1b]52;c;aGk=\x07", "cilium.io/v2/\xff",
		"monitoring.coreos.com/v1/ServiceMonitor", "monitoring.coreos.com/v1/PrometheusRule", "cilium.io/v2/CiliumClusterwideNetworkPolicy",
		"autoscaling.k8s.io/v1/VerticalPodAutoscalerCheckpoint", "operator.victoriametrics.com/v1beta1/VMServiceScrape",
	}
	for _, api := range etcdshapes.OptionalAPIs() {
		group, rest, _ := strings.Cut(api, "/")
		version, kind, _ := strings.Cut(rest, "/")
		out = append(out, api,
			api+" ", " "+api, api+"\t", "\t"+api, api+"\n", api+"\r", api+"\u00a0", "\u200b"+api, "\ufeff"+api,
			`"`+api+`"`, "'"+api+"'", api+",", api+","+api,
			strings.ToUpper(api), strings.ToLower(api), strings.ToUpper(group[:1])+api[1:],
			group, group+"/"+version, group+"/"+version+"/", group+"/v9/"+kind, group+"/"+version+"/"+kind+"s",
			group+"//"+kind, api+"/x", "/"+api, strings.Replace(api, ".", "·", 1), strings.Replace(api, "o", "ο", 1), // a Greek omicron
		)
	}
	return out
}

// apiLists are the lists the differential test renders: every entry alone,
// beside the exact API of another optional API, twice, and seeded random
// lists of up to six entries.
func apiLists() [][]string {
	entries := apiEntries()
	apis := etcdshapes.OptionalAPIs()
	var lists [][]string
	for i, e := range entries {
		lists = append(lists, []string{e}, []string{apis[i%len(apis)], e}, []string{e, e})
	}
	r := rand.New(rand.NewSource(19))
	for i := 0; i < 150; i++ {
		l := make([]string, 1+r.Intn(6))
		for j := range l {
			if r.Intn(3) == 0 {
				l[j] = apis[r.Intn(len(apis))]
			} else {
				l[j] = entries[r.Intn(len(entries))]
			}
		}
		lists = append(lists, l)
	}
	return lists
}

// TestAPIVersionsDifferential: for every list of apiLists and both
// callers, the library renders (no refusal) exactly the optional kinds
// Helm's Has serves, the generated chart renders the same with each
// engine, and so does the upstream chart for the kinds it has.
func TestAPIVersionsDifferential(t *testing.T) {
	pool := newUpstreamPool(t, upstreamDir())
	engines := helms(t)
	lists := apiLists()
	counts := map[string]int{}
	for _, caller := range naming.Callers() {
		ns, rel := "tenant-demo", "kubernetes-demo"
		if caller == naming.CallerEtcd {
			rel = "etcd"
		}
		for i, list := range lists {
			want := helmServed(t, caller, list)
			counts[fmt.Sprint(len(want))]++
			fail := func(format string, args ...any) {
				t.Helper()
				t.Fatalf("%s, list %d %q: %s", caller, i, clipList(list), fmt.Sprintf(format, args...))
			}
			in := renderInput{caller: caller, release: rel, namespace: ns, values: []byte("{}\n"), apiVersions: list}
			lib, err := goRender(in)
			if err != nil {
				fail("the library refuses: %v", err)
			}
			if got := renderedKinds(lib, optionalKinds); !slices.Equal(got, want) {
				fail("the library renders %v, Helm serves %v", got, want)
			}
			for _, h := range engines {
				out, err := helmRender(t, h, in)
				if err != nil {
					fail("%s: the generated chart refuses: %v", h.name(), err)
				}
				if got := renderedKinds(out, optionalKinds); !slices.Equal(got, want) {
					fail("%s: the generated chart renders %v, Helm serves %v", h.name(), got, want)
				}
			}
			up, err := pool.render(oracleInput{caller: caller, namespace: ns, release: rel, apis: list}, []byte("{}\n"))
			if err != nil {
				fail("the upstream chart refuses: %v", err)
			}
			if got, w := renderedKinds(up, upstreamKinds), renderedKinds(strings.Join(prefixKinds(want), "\n"), upstreamKinds); !slices.Equal(got, w) {
				fail("the upstream chart renders %v, Helm serves %v", got, w)
			}
		}
	}
	t.Logf("%d lists per caller, %d engines; lists by the number of optional kinds served: %v", len(lists), len(engines), counts)
}

// prefixKinds writes kinds as kind lines (renderedKinds reads them).
func prefixKinds(kinds []string) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = "kind: " + k
	}
	return out
}

// clipList is a list for a failure message, each entry cut at 80 bytes.
func clipList(list []string) []string {
	out := make([]string, len(list))
	for i, e := range list {
		if len(e) > 80 {
			e = e[:80] + "…"
		}
		out[i] = e
	}
	return out
}

// cliValues are the --api-versions values of TestAPIVersionsHelmCLI, one
// command line each: what a shell passes, commas, quotes and line breaks
// left to the flag's parser.
func cliValues() [][]string {
	const vpa, vmps, cnp, pm = etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APIVMPodScrape, etcdshapes.APICiliumNetworkPolicy, etcdshapes.APIPodMonitor
	return [][]string{
		{cnp},
		{cnp + " "},
		{" " + cnp},
		{cnp + "\t"},
		{cnp + "," + vpa},
		{cnp + ", " + vpa},
		{cnp + " ," + vpa},
		{cnp, vpa, vmps},
		{cnp + ","},
		{"," + cnp},
		{""},
		{",,"},
		{cnp, ""},
		{`"` + cnp + `"`},
		{`"` + cnp + `,` + vpa + `"`},
		{`"` + cnp + `"` + "," + vpa},
		{`"` + cnp},
		{cnp + `"`},
		{`a"b`},
		{`"a""b",` + cnp},
		{cnp + "\n" + vpa},
		{cnp + "\r\n" + vpa},
		{"\n" + cnp},
		{cnp + "\n"},
		{strings.ToUpper(cnp)},
		{"cilium.io/v2"},
		{"cilium.io/v2", "autoscaling.k8s.io/v1", "operator.victoriametrics.com/v1beta1"},
		{"monitoring.coreos.com/v1,monitoring.coreos.com/v1/ServiceMonitor"},
		{"monitoring.coreos.com/v1/ServiceMonitor", pm},
		{cnp, cnp, cnp},
		{"ciliüm.io/v2/CiliumNetworkPolicy," + cnp},
		{strings.Repeat("x", 1<<15) + "," + vmps},
	}
}

// TestAPIVersionsHelmCLI runs `helm template` ($HELM and $HELM4; skipped
// without them) on the upstream and the generated charts, and the
// etcdshapes CLI, with the same --api-versions values (cliValues): where
// helm refuses the flag (a quote CSV does not allow) the CLI refuses it
// too (a usage error), as it refuses an empty value that helm reads as no
// entry; otherwise all three render, the optional kinds a
// probe chart's .Capabilities.APIVersions.Has serves, and the CLI's
// stderr holds warnings only.
func TestAPIVersionsHelmCLI(t *testing.T) {
	bins := map[string]string{}
	for _, env := range []string{"HELM", "HELM4"} {
		if b := os.Getenv(env); b != "" {
			bins[env] = b
		}
	}
	if len(bins) == 0 {
		t.Skip("set HELM (and HELM4) to helm binaries to run `helm template` itself")
	}
	cli := filepath.Join(t.TempDir(), "etcdshapes")
	build := exec.Command("go", "build", "-o", cli, "./cmd/etcdshapes")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the CLI: %v\n%s", err, out)
	}
	probe := filepath.Join(t.TempDir(), "probe")
	var tpl strings.Builder
	tpl.WriteString("served:\n")
	for _, api := range etcdshapes.OptionalAPIs() {
		fmt.Fprintf(&tpl, "  %s: {{ .Capabilities.APIVersions.Has %q }}\n", kindOfAPI(api), api)
	}
	writeFile(t, filepath.Join(probe, "Chart.yaml"), "apiVersion: v2\nname: probe\nversion: 0.0.0\n")
	writeFile(t, filepath.Join(probe, "templates", "probe.yaml"), tpl.String())
	charts := map[naming.Caller][2]string{}
	for _, caller := range naming.Callers() {
		charts[caller] = [2]string{filepath.Join(upstreamDir(), chartDir(caller)), writeChartDir(t, caller)}
	}
	run := func(bin string, args ...string) (string, string, error) {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}
	for _, env := range slices.Sorted(maps.Keys(bins)) {
		bin := bins[env]
		t.Run(env, func(t *testing.T) {
			refused, rendered, emptyRefused := 0, 0, 0
			defer func() {
				t.Logf("%d command lines helm and the CLI refuse, %d they render, %d with an empty value the CLI refuses", refused, rendered, emptyRefused)
			}()
			for i, values := range cliValues() {
				var flags []string
				for _, v := range values {
					flags = append(flags, "--api-versions", v)
				}
				for _, caller := range naming.Callers() {
					ns, rel := "tenant-demo", "kubernetes-demo"
					if caller == naming.CallerEtcd {
						rel = "etcd"
					}
					where := fmt.Sprintf("%s, command line %d %q", caller, i, clipList(values))
					ours, ourErr, cliErr := run(cli, append([]string{"render", caller.String(), "-n", ns, "--release", rel, "--include-hooks"}, flags...)...)
					if slices.Contains(values, "") {
						// Where helm reads an empty value as no entry, the
						// CLI refuses it, as every flag's empty value (an
						// unset shell variable): a usage error.
						var ee *exec.ExitError
						if cliErr == nil || !asExit(cliErr, &ee) || ee.ExitCode() != 2 || !strings.Contains(ourErr, "--api-versions is empty") {
							t.Fatalf("%s: the CLI gives %v for an empty value, not a usage error naming it: %s", where, cliErr, ourErr)
						}
						emptyRefused++
						continue
					}
					probed, probeErr, err := run(bin, append([]string{"template", "probe", probe}, flags...)...)
					if err != nil {
						// helm refuses the flag: so must the CLI, as a usage error.
						var ee *exec.ExitError
						if cliErr == nil || !asExit(cliErr, &ee) || ee.ExitCode() != 2 {
							t.Fatalf("%s: helm refuses (%s) but the CLI gives %v: %s", where, strings.TrimSpace(probeErr), cliErr, ourErr)
						}
						refused++
						continue
					}
					rendered++
					var want []string
					served := map[string]bool{}
					for _, k := range optionalKinds {
						if strings.Contains(probed, "  "+k+": true\n") {
							served[k] = true
						}
					}
					for _, api := range etcdshapes.OptionalAPIs() {
						k := kindOfAPI(api)
						if slices.Contains(etcdshapes.OptionalAPIsOf(caller), api) && served[k] ||
							caller == naming.CallerEtcd && (k == "VerticalPodAutoscaler" || k == "VMPodScrape") {
							want = append(want, k)
						}
					}
					if cliErr != nil {
						t.Fatalf("%s: helm renders, the CLI fails (%v): %s", where, cliErr, ourErr)
					}
					if got := renderedKinds(ours, optionalKinds); !slices.Equal(got, want) {
						t.Fatalf("%s: the CLI renders %v, helm serves %v", where, got, want)
					}
					for _, l := range strings.Split(strings.TrimSuffix(ourErr, "\n"), "\n") {
						if l != "" && !strings.HasPrefix(l, "etcdshapes: warning: ") {
							t.Fatalf("%s: not a warning on stderr: %q", where, l)
						}
					}
					for j, dir := range charts[caller] {
						out, stderr, err := run(bin, append([]string{"template", rel, dir, "--namespace", ns}, flags...)...)
						if err != nil {
							t.Fatalf("%s: helm template %s: %v: %s", where, dir, err, stderr)
						}
						kinds, w := optionalKinds, want
						if j == 0 {
							kinds, w = upstreamKinds, renderedKinds(strings.Join(prefixKinds(want), "\n"), upstreamKinds)
						}
						if got := renderedKinds(out, kinds); !slices.Equal(got, w) {
							t.Fatalf("%s: %s renders %v, helm serves %v", where, dir, got, w)
						}
					}
				}
			}
		})
	}
}

func asExit(err error, target **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	*target = e
	return ok
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

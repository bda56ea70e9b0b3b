package roundtrip

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
)

// referenceWhat says what ETCDSHAPES_REFERENCE names, for the messages of
// the tests that read it.
const referenceWhat = "ETCDSHAPES_REFERENCE names the directory of the reference renders: cases.tsv (one case a line: name, values, caller, release, namespace, " +
	"API versions, live datastore, live storage class, ok or fail) and each case's render by helm template of the upstream charts; unset, ../../shared/reference beside the checkout (docs/testing.md)"

// referenceDir is where the charts' reference renders live: the shared
// directory beside the checkout, unless ETCDSHAPES_REFERENCE names another.
func referenceDir() string {
	if d := os.Getenv("ETCDSHAPES_REFERENCE"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "reference")
}

type referenceCase struct {
	name, release, namespace string
	caller                   naming.Caller
	apis                     []string
	live                     etcdshapes.LiveState
	expectFail               bool
}

// readCases reads cases.tsv: name, set, caller, release, namespace,
// api-versions ("all", "-" or a comma list), live datastore, live storage
// class ("-" for none), expect ("ok" or "fail").
func readCases(t *testing.T, dir string) []referenceCase {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "cases.tsv"))
	if err != nil {
		t.Fatalf("the reference cases are missing: %v. %s", err, referenceWhat)
	}
	var out []referenceCase
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 9 {
			t.Fatalf("cases.tsv: want 9 columns: %q", line)
		}
		c := referenceCase{name: f[0], caller: naming.Caller(f[2]), release: f[3], namespace: f[4], expectFail: f[8] == "fail"}
		switch f[5] {
		case "-":
		case "all":
			c.apis = []string{etcdshapes.APICiliumNetworkPolicy, etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APIVMPodScrape}
		default:
			c.apis = strings.Split(f[5], ",")
		}
		if f[6] != "-" {
			c.live.DataStoreName = f[6]
		}
		if f[7] != "-" {
			sc := f[7]
			c.live.StorageClassName = &sc
		}
		out = append(out, c)
	}
	return out
}

// TestReferenceCases renders every reference case with the generated charts
// (the chart version 0.0.0, as the reference was rendered) and compares the
// objects with what the upstream charts render, as ../shared/tools/parity.sh
// compares the CLI's.
func TestReferenceCases(t *testing.T) {
	forEachHelm(t, func(t *testing.T, h helm) { referenceCases(t, h) })
}

func referenceCases(t *testing.T, h helm) {
	dir := referenceDir()
	cases := readCases(t, dir)
	passed := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			values, err := os.ReadFile(filepath.Join(dir, c.name+".values.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := helmRender(t, h, renderInput{
				caller: c.caller, release: c.release, namespace: c.namespace,
				values: values, apiVersions: c.apis, live: c.live,
			})
			if c.expectFail {
				if err == nil {
					t.Fatal("expected a refusal, the chart rendered")
				}
				passed++
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, c.name+".expected.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			compareDocs(t, string(want), got, c.namespace)
			passed++
		})
	}
	t.Logf("%s: reference cases matched: %d of %d", h.name(), passed, len(cases))
}

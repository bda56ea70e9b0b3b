package promtool

// Not Prometheus's: the pin of the copy to the module it came from.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// promtoolVersion is the Prometheus release the copy is of.
const (
	promtoolModule  = "github.com/prometheus/prometheus"
	promtoolVersion = "v0.316.0"
)

var upstream struct {
	once      sync.Once
	dir, skip string
	err       error
}

// upstreamDir is the source of the Prometheus module this module builds
// with, as the go command finds it (go list -m, from the module cache). The
// test fails when go.mod requires another release than the copy's, and
// skips when the go command, the module graph or the module's source is
// not there.
func upstreamDir(t testing.TB) string {
	t.Helper()
	upstream.once.Do(func() {
		// go test puts $GOROOT/bin first on the test's PATH.
		goTool, err := exec.LookPath("go")
		if err != nil {
			upstream.skip = fmt.Sprintf("no go command to find %s %s's source with: %v", promtoolModule, promtoolVersion, err)
			return
		}
		out, err := exec.Command(goTool, "list", "-m", "-f", "{{.Version}}\t{{.Dir}}", promtoolModule).Output()
		if err != nil {
			var stderr []byte
			if e, ok := err.(*exec.ExitError); ok {
				stderr = e.Stderr
			}
			// Without the module graph there is nothing to compare with.
			upstream.skip = fmt.Sprintf("go list -m %s: %v\n%s", promtoolModule, err, stderr)
			return
		}
		version, dir, _ := strings.Cut(strings.TrimSpace(string(out)), "\t")
		if version != promtoolVersion {
			upstream.err = fmt.Errorf("this module builds with %s %s, the copy is of %s: copy cmd/promtool again (doc.go says how) or keep %s",
				promtoolModule, version, promtoolVersion, promtoolVersion)
			return
		}
		if dir == "" {
			upstream.skip = fmt.Sprintf("%s %s's source is not in the module cache (go mod download %s@%s)", promtoolModule, promtoolVersion, promtoolModule, promtoolVersion)
			return
		}
		upstream.dir = dir
	})
	if upstream.err != nil {
		t.Fatal(upstream.err)
	}
	if upstream.skip != "" {
		t.Skip(upstream.skip)
	}
	return upstream.dir
}

// upstreamTestdata is cmd/promtool/testdata in the module: the rule unit
// test fixtures upstream's unittest_test.go runs.
func upstreamTestdata(t testing.TB) string {
	t.Helper()
	d := filepath.Join(upstreamDir(t), "cmd", "promtool", "testdata")
	if _, err := os.Stat(filepath.Join(d, "unittest.yml")); err != nil {
		t.Skipf("promtool's test fixtures are not in the module's source: %v", err)
	}
	return d
}

// copied are the files copied whole, and the edits (doc.go) that turn
// upstream's into the copy.
var copied = []struct {
	name  string
	edits func(string) string
}{
	{"unittest.go", nil},
	{"unittest_test.go", func(s string) string {
		return strings.ReplaceAll(s, `"./testdata/`, `upstreamTestdata(t) + "/`)
	}},
}

// asCopied is upstream's file name with doc.go's edits applied.
func asCopied(name, src string, edits func(string) string) (string, error) {
	const clause = "package main\n"
	i := strings.Index(src, clause)
	if i < 0 || strings.Count(src, clause) != 1 {
		return "", fmt.Errorf("%s: no single %q", name, strings.TrimSpace(clause))
	}
	src = src[:i] + "// Copied from github.com/prometheus/prometheus " + promtoolVersion + ", cmd/promtool/" + name + "; see doc.go.\n\npackage promtool\n" + src[i+len(clause):]
	if edits != nil {
		src = edits(src)
	}
	return src, nil
}

// firstDifference describes where got and want first differ, by line.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("line %d:\n  copy:     %q\n  upstream: %q", i+1, gl, wl)
		}
	}
	return "no difference"
}

// excerpt is a span of cmd.go between "// upstream <file>" and
// "// end upstream".
type excerpt struct {
	file   string
	edited bool
	line   int
	text   []string // the span's lines, leading and trailing space trimmed
}

var markerRE = regexp.MustCompile(`^// upstream (cmd/promtool/[a-z_]+\.go)(,? ?.*)$`)

// excerpts reads the marked spans of src (cmd.go).
func excerpts(src string) ([]excerpt, error) {
	var out []excerpt
	var cur *excerpt
	inMarker := false
	for i, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		if cur == nil {
			if m := markerRE.FindStringSubmatch(l); m != nil {
				cur = &excerpt{file: m[1], edited: strings.HasPrefix(m[2], ", edited"), line: i + 1}
				inMarker = true
			} else if l == "// end upstream" {
				return nil, fmt.Errorf("cmd.go:%d: end upstream without a start", i+1)
			}
			continue
		}
		if inMarker && strings.HasPrefix(l, "//") {
			continue // the marker comment goes on
		}
		inMarker = false
		if markerRE.MatchString(l) {
			return nil, fmt.Errorf("cmd.go:%d: upstream inside the span from line %d", i+1, cur.line)
		}
		if l == "// end upstream" {
			for len(cur.text) > 0 && cur.text[len(cur.text)-1] == "" {
				cur.text = cur.text[:len(cur.text)-1]
			}
			if len(cur.text) == 0 {
				return nil, fmt.Errorf("cmd.go:%d: empty span", cur.line)
			}
			out = append(out, *cur)
			cur = nil
			continue
		}
		cur.text = append(cur.text, l)
	}
	if cur != nil {
		return nil, fmt.Errorf("cmd.go:%d: span never ends", cur.line)
	}
	return out, nil
}

// mainEdits turn main.go's "test rules" call into TestRules' (doc.go).
var mainEdits = strings.NewReplacer(
	"os.Exit(RulesUnitTestResult(", "return RulesUnitTestResult(",
	"*testRulesFiles...),\n)", "testRulesFiles...)",
	"*testRules", "testRules",
)

// checkExcerpts reports each excerpt of cmdGo not found, as a run of whole
// lines (indentation aside; edits applied when the marker says so), in
// the upstream file it names. read reads an upstream file.
func checkExcerpts(cmdGo string, read func(string) (string, error)) (n int, errs []error) {
	ex, err := excerpts(cmdGo)
	if err != nil {
		return 0, []error{err}
	}
	for _, e := range ex {
		src, err := read(e.file)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		lines := strings.Split(src, "\n")
		for i := range lines {
			lines[i] = strings.TrimSpace(lines[i])
		}
		up := "\n" + strings.Join(lines, "\n") + "\n"
		if e.edited {
			up = mainEdits.Replace(up)
		}
		if !strings.Contains(up, "\n"+strings.Join(e.text, "\n")+"\n") {
			errs = append(errs, fmt.Errorf("cmd.go:%d: the span is not in %s %s (edited: %v):\n%s", e.line, e.file, promtoolVersion, e.edited, strings.Join(e.text, "\n")))
		}
	}
	return len(ex), errs
}

// TestCopyMatchesUpstream requires each copied file to be upstream's with
// doc.go's edits and nothing else, and each excerpt in cmd.go to be in the
// file it names.
func TestCopyMatchesUpstream(t *testing.T) {
	dir := upstreamDir(t)
	read := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		return string(b), err
	}
	for _, f := range copied {
		t.Run(f.name, func(t *testing.T) {
			up, err := read("cmd/promtool/" + f.name)
			if err != nil {
				t.Fatal(err)
			}
			want, err := asCopied(f.name, up, f.edits)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(f.name)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != want {
				t.Fatalf("%s is not upstream's %s %s with doc.go's edits; first difference at %s", f.name, promtoolVersion, "cmd/promtool/"+f.name, firstDifference(string(got), want))
			}
		})
	}
	// TestRules' flag values are the defaults main.go declares.
	t.Run("flags", func(t *testing.T) {
		mainGo, err := read("cmd/promtool/main.go")
		if err != nil {
			t.Fatal(err)
		}
		for _, flag := range []struct{ variable, name, value string }{
			{"testRulesRun", "run", ".Strings()"},
			{"testRulesDebug", "debug", `.Default("false").Bool()`},
			{"testRulesDiff", "diff", `.Default("false").Bool()`},
			{"testRulesIgnoreUnknownFields", "ignore-unknown-fields", `.Default("false").Bool()`},
			{"featureList", "enable-feature", `.Default("").Strings()`},
		} {
			re := regexp.MustCompile(`(?m)^\s*` + flag.variable + ` := \w+\.Flag\("` + regexp.QuoteMeta(flag.name) + `", .*\)` + regexp.QuoteMeta(flag.value) + `$`)
			if !re.MatchString(mainGo) {
				t.Errorf("main.go %s does not declare %s := ….Flag(%q, …)%s", promtoolVersion, flag.variable, flag.name, flag.value)
			}
		}
	})
	t.Run("cmd.go", func(t *testing.T) {
		cmdGo, err := os.ReadFile("cmd.go")
		if err != nil {
			t.Fatal(err)
		}
		n, errs := checkExcerpts(string(cmdGo), read)
		for _, err := range errs {
			t.Error(err)
		}
		// The var, init and const block; parseTime; the parser; the call.
		if n != 4 {
			t.Errorf("cmd.go has %d upstream spans, want 4", n)
		}
		// The check can fail: each span changed in one place is refused.
		for _, mut := range []struct{ from, to string }{
			{"EnableNegativeOffset:     true", "EnableNegativeOffset:     false"},
			{"failureExitCode = 1", "failureExitCode = 2"},
			{"time.RFC3339Nano", "time.RFC3339"},
			{"parser.NewParser(promtoolParserOpts)", "parser.NewParser(parser.Options{EnableExperimentalFunctions: true})"},
			{"testRulesIgnoreUnknownFields,\n\t\ttestRulesFiles", "true,\n\t\ttestRulesFiles"},
		} {
			bad := strings.Replace(string(cmdGo), mut.from, mut.to, 1)
			if bad == string(cmdGo) {
				t.Errorf("mutation %q not applied: cmd.go changed", mut.from)
				continue
			}
			if _, errs := checkExcerpts(bad, read); len(errs) == 0 {
				t.Errorf("cmd.go with %q for %q passes the check", mut.to, mut.from)
			}
		}
	})
}

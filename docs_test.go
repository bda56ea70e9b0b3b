package etcdshapes_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/internal/crdpath"
	"github.com/etcdshapes/etcdshapes/internal/doccheck"
	"github.com/etcdshapes/etcdshapes/kamaji"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/values"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxREADMELines is how long the README may grow: a newcomer reads it to
// the end; details belong in docs/.
const maxREADMELines = 250

// markdownDoc is a Markdown document with its fenced blocks set apart.
type markdownDoc struct {
	path string
	// prose are the lines outside fenced blocks, with their 1-based line
	// numbers; blocks are the fenced blocks, each with its info string.
	prose  []docLine
	blocks []docBlock
}

type docLine struct {
	n    int
	text string
}

type docBlock struct {
	line int    // of the opening fence
	info string // "sh", "go", ""
	text string
}

func readMarkdown(t *testing.T, path string) markdownDoc {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	d := markdownDoc{path: path}
	lines := strings.Split(string(raw), "\n")
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(trimmed, "```") {
			d.prose = append(d.prose, docLine{i + 1, lines[i]})
			continue
		}
		b := docBlock{line: i + 1, info: strings.TrimPrefix(trimmed, "```")}
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			body = append(body, lines[i])
		}
		require.Less(t, i, len(lines), "%s:%d: a fenced block is not closed", path, b.line)
		b.text = strings.Join(body, "\n")
		d.blocks = append(d.blocks, b)
	}
	return d
}

// docsUnderTest are the README, every document of docs/ and the READMEs
// they send a newcomer to first.
func docsUnderTest(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, docs)
	return append([]string{"README.md", filepath.Join("charts", "README.md"),
		filepath.Join("examples", "operator", "README.md")}, docs...)
}

var (
	headingRE    = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	linkRE       = regexp.MustCompile(`\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)\)`)
	codeSpanRE   = regexp.MustCompile("`[^`]*`")
	schemeRE     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	htmlTagRE    = regexp.MustCompile(`<[^>]*>`)
	slugStripsRE = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
)

// headings are a document's headings, outside fenced blocks.
func (d markdownDoc) headings() []docLine {
	var out []docLine
	for _, l := range d.prose {
		if m := headingRE.FindStringSubmatch(l.text); m != nil {
			out = append(out, docLine{l.n, m[2]})
		}
	}
	return out
}

// slug is the anchor GitHub gives a heading: lower case, punctuation
// dropped (letters, digits, spaces, '-' and '_' kept), spaces as '-'.
func slug(heading string) string {
	s := htmlTagRE.ReplaceAllString(heading, "")
	s = strings.Map(func(r rune) rune {
		if r == '`' {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
	s = slugStripsRE.ReplaceAllString(s, "")
	return strings.ReplaceAll(s, " ", "-")
}

func (d markdownDoc) anchors() map[string]bool {
	out := map[string]bool{}
	for _, h := range d.headings() {
		out[slug(h.text)] = true
	}
	return out
}

// TestDocs: the README stays short enough to finish, and the README and
// docs/ hold together (docProblems).
func TestDocs(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	lines := strings.Count(string(readme), "\n")
	assert.LessOrEqual(t, lines, maxREADMELines,
		"README.md has %d lines; move details into docs/ (at most %d)", lines, maxREADMELines)
	problems, links := docProblems(t, docsUnderTest(t))
	for _, p := range problems {
		t.Error(p)
	}
	require.Greater(t, links, 20, "the link check found too few links to be reading them")
}

// docProblems checks Markdown documents: no heading repeats within a
// document (GitHub would number the second one's anchor), and every
// relative link names a file or directory that exists and, with a
// fragment, a heading of that document. It returns what it found wrong
// and the number of relative links it checked.
func docProblems(t *testing.T, paths []string) (problems []string, links int) {
	t.Helper()
	parsed := map[string]markdownDoc{}
	parse := func(path string) markdownDoc {
		path = filepath.Clean(path)
		if d, ok := parsed[path]; ok {
			return d
		}
		d := readMarkdown(t, path)
		parsed[path] = d
		return d
	}
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for _, path := range paths {
		d := parse(path)
		seen := map[string]int{}
		for _, h := range d.headings() {
			if first, ok := seen[h.text]; ok {
				bad("%s:%d: heading %q repeats the one on line %d", path, h.n, h.text, first)
			}
			seen[h.text] = h.n
		}
		for _, l := range d.prose {
			text := codeSpanRE.ReplaceAllString(l.text, "")
			for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
				target := m[1]
				if target == "" || schemeRE.MatchString(target) {
					continue
				}
				links++
				file, fragment, _ := strings.Cut(target, "#")
				dest := path
				if file != "" {
					dest = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
					info, err := os.Stat(dest)
					if err != nil {
						bad("%s:%d: link %q: %s does not exist", path, l.n, target, dest)
						continue
					}
					if info.IsDir() {
						if fragment != "" {
							bad("%s:%d: link %q: a fragment of a directory", path, l.n, target)
						}
						continue
					}
				}
				if fragment == "" {
					continue
				}
				if !strings.HasSuffix(dest, ".md") {
					bad("%s:%d: link %q: a fragment of a file that is not Markdown", path, l.n, target)
					continue
				}
				if !parse(dest).anchors()[fragment] {
					bad("%s:%d: link %q: %s has no heading with anchor #%s", path, l.n, target, dest, fragment)
				}
			}
		}
	}
	return problems, links
}

// planFieldManagerRE is a plan's --field-manager in a fenced block.
var planFieldManagerRE = regexp.MustCompile(`etcdshapes plan [^\n]*--field-manager[= ]([^\s]+)`)

// TestDocsApplyAsThePlanPredicts: every kubectl apply command the README,
// docs/ and the READMEs they point to show, in a fenced block or in the
// prose, applies as the plan predicts (doccheck.ApplyCommandProblems): a
// server-side apply as the field manager the plan is of, with force.
// That is apply.FieldManager, or the --field-manager a plan in the same
// block is given. Applied another way (client-side, or server-side as
// "kubectl"), the fields etcdshapes set before stay etcdshapes', and a
// removal the plan refused, or kept, goes the other way.
func TestDocsApplyAsThePlanPredicts(t *testing.T) {
	commands := 0
	for _, path := range docsUnderTest(t) {
		d := readMarkdown(t, path)
		for _, b := range d.blocks {
			manager := apply.FieldManager
			if m := planFieldManagerRE.FindStringSubmatch(b.text); m != nil {
				manager = m[1]
			}
			commands += strings.Count(b.text, "kubectl apply ")
			for _, p := range doccheck.ApplyCommandProblems(b.text, manager) {
				t.Errorf("%s:%d: %s", path, b.line, p)
			}
		}
		for _, l := range d.prose {
			commands += strings.Count(l.text, "kubectl apply ")
			for _, p := range doccheck.ApplyCommandProblems(l.text, apply.FieldManager) {
				t.Errorf("%s:%d: %s", path, l.n, p)
			}
		}
	}
	require.Greater(t, commands, 5, "the check found too few kubectl apply commands to be reading them")
}

// TestCRDSourcesTable: docs/testing.md's table of the CRDs is
// crdpath.Sources, row for row, so that what the tools that read the CRDs
// ask for (crdpath.Check) and what the document tells a contributor to
// fetch are one list; and the list is every custom kind the library
// emits: the table of shapes' and the EtcdSnapshot.
func TestCRDSourcesTable(t *testing.T) {
	d := readMarkdown(t, filepath.Join("docs", "testing.md"))
	var rows []string
	for _, l := range d.prose {
		if strings.HasPrefix(l.text, "| `") && strings.Contains(l.text, "github.com/") {
			rows = append(rows, l.text)
		}
	}
	var want []string
	kinds := map[string]bool{}
	for _, s := range crdpath.Sources {
		ks := make([]string, len(s.Kinds))
		for i, k := range s.Kinds {
			ks[i] = "`" + k + "`"
			kinds[s.Group+"/"+k] = true
		}
		fs := make([]string, len(s.Files))
		for i, f := range s.Files {
			file, note, _ := strings.Cut(f, " (")
			fs[i] = "`" + file + "`"
			if note != "" {
				fs[i] += " (" + note
			}
		}
		want = append(want, fmt.Sprintf("| `%s` | %s | %s | %s | %s |", s.Group, strings.Join(ks, ", "), s.Project, strings.Join(fs, ", "), s.Version))
	}
	assert.Equal(t, want, rows, "docs/testing.md's table of the CRDs and internal/crdpath.Sources")
	emitted := map[string]bool{"etcd-operator.cozystack.io/EtcdSnapshot": true}
	for _, s := range etcdshapes.Shapes() {
		switch s.Kind.Group {
		case "", "batch", "rbac.authorization.k8s.io":
		default:
			emitted[s.Kind.Group+"/"+s.Kind.Kind] = true
		}
	}
	assert.Equal(t, emitted, kinds, "crdpath.Sources lists every custom kind the library emits")
}

// TestDocsCheckFails: the checks see what they must see, and only that.
func TestDocsCheckFails(t *testing.T) {
	assert.Equal(t, "the-crds-etcdshapes_crds", slug("The CRDs (ETCDSHAPES_CRDS)"))
	assert.Equal(t, "what-render-leaves-out-the-uninstall-hooks", slug("What `render` leaves out: the uninstall hooks"))
	assert.Equal(t, "check-the-clusters-performance", slug("Check the cluster's performance"))
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o700))
	md := filepath.Join(dir, "x.md")
	require.NoError(t, os.WriteFile(md, []byte("# A\n\n```sh\n# not a heading\n[x](gone.md)\n```\n\n"+
		"See [b](#a), `[c](gone.md)`, [d](gone.md#a), [e](#none), [f](sub/), [g](y.md#b-c) and [h](https://example.com/gone).\n## A\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "y.md"), []byte("# Y\n\n## B: c\n"), 0o600))
	d := readMarkdown(t, md)
	assert.Equal(t, []docLine{{1, "A"}, {9, "A"}}, d.headings())
	problems, links := docProblems(t, []string{md})
	assert.Equal(t, 5, links) // b, d, e, f, g
	assert.Equal(t, []string{
		fmt.Sprintf("%s:9: heading \"A\" repeats the one on line 1", md),
		fmt.Sprintf("%s:8: link \"gone.md#a\": %s does not exist", md, filepath.Join(dir, "gone.md")),
		fmt.Sprintf("%s:8: link \"#none\": %s has no heading with anchor #none", md, md),
	}, problems)
}

// TestREADMEGoExampleIsAnExample: the README's Go example is, line for
// line, the body of readmeExample, which Example_readme runs with its
// output checked; so the README shows code that compiles and prints what
// the README says.
func TestREADMEGoExampleIsAnExample(t *testing.T) {
	d := readMarkdown(t, "README.md")
	var goBlocks []docBlock
	for _, b := range d.blocks {
		if b.info == "go" {
			goBlocks = append(goBlocks, b)
		}
	}
	require.Len(t, goBlocks, 1, "the README has one Go example")
	code := goBlocks[0].text
	_, body, ok := strings.Cut(code, "\n)\n\n")
	require.True(t, ok, "the README's Go example opens with its import block")

	src, err := os.ReadFile("readme_example_test.go")
	require.NoError(t, err)
	const open = "func readmeExample() error {\n"
	_, fn, ok := strings.Cut(string(src), open)
	require.True(t, ok)
	fn, _, ok = strings.Cut(fn, "\n}\n")
	require.True(t, ok)
	var want []string
	for _, l := range strings.Split(fn, "\n") {
		want = append(want, strings.TrimPrefix(l, "\t"))
	}
	assert.Equal(t, strings.Join(want, "\n"), body)

	// And the output the README shows is the example's.
	i := slices.IndexFunc(d.blocks, func(b docBlock) bool { return b.line == goBlocks[0].line })
	require.Less(t, i+1, len(d.blocks))
	_, wantOut, ok := strings.Cut(string(src), "// Output:\n")
	require.True(t, ok)
	wantOut, _, _ = strings.Cut(wantOut, "\n}\n")
	var outLines []string
	for _, l := range strings.Split(wantOut, "\n") {
		outLines = append(outLines, strings.TrimPrefix(strings.TrimSpace(l), "// "))
	}
	assert.Equal(t, strings.Join(outLines, "\n"), d.blocks[i+1].text, "the README's output of its Go example")
}

// TestExampleValuesFilesRender: every file of examples/values/ renders
// as the README and docs use it: etcd*.yaml for the etcd chart (each laid
// over etcd.yaml, as the overrides are), cluster*.yaml for a tenant
// cluster.
func TestExampleValuesFilesRender(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("examples", "values", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	base, err := os.ReadFile(filepath.Join("examples", "values", "etcd.yaml"))
	require.NoError(t, err)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		name := filepath.Base(f)
		var req etcdshapes.Request
		var docs [][]byte
		switch {
		case strings.HasPrefix(name, "etcd"):
			req = etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root"}
			docs = [][]byte{base, raw}
		case strings.HasPrefix(name, "cluster"):
			req = etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"}
			docs = [][]byte{raw}
		default:
			t.Errorf("%s: name it etcd*.yaml or cluster*.yaml, for the chart it is for", f)
			continue
		}
		req.Values, err = values.Merge(docs...)
		require.NoError(t, err, f)
		objs, err := etcdshapes.Render(req)
		require.NoError(t, err, f)
		require.NotEmpty(t, objs, f)
	}
}

// TestOperatorDocListsEveryKind: the kubectl get commands in
// docs/operator.md that build a live file for plan list every kind the
// caller's stack emits (the uninstall hooks aside, which are never
// applied), by their resource and group as the table of shapes has them,
// and for a tenant cluster the KamajiControlPlane the plan reads; and
// nothing that is none of those. Each kubectl get is its own YAML
// document, so they are separated by "---".
func TestOperatorDocListsEveryKind(t *testing.T) {
	d := readMarkdown(t, filepath.Join("docs", "operator.md"))
	controlPlane := "kamajicontrolplanes." + kamaji.ControlPlaneKind.Group
	callers := map[naming.Caller]bool{}
	for _, b := range d.blocks {
		if b.info != "sh" || !strings.Contains(b.text, "--show-managed-fields") {
			continue
		}
		// A block that fetches one named object (the DataStore appended to
		// a live file) builds no live file of its own.
		if !strings.Contains(b.text, "kubectl get -n") {
			continue
		}
		var caller naming.Caller
		switch {
		case strings.Contains(b.text, "etcdshapes plan "+naming.CallerCluster.String()):
			caller = naming.CallerCluster
		case strings.Contains(b.text, "etcdshapes plan "+naming.CallerEtcd.String()):
			caller = naming.CallerEtcd
		default:
			t.Errorf("docs/operator.md:%d: a live file's block without the plan that reads it", b.line)
			continue
		}
		callers[caller] = true
		gets := strings.Count(b.text, "kubectl get ")
		assert.Equal(t, gets-1, strings.Count(b.text, "echo ---"),
			"docs/operator.md:%d: %d kubectl get, each its own YAML document: separate them with echo ---", b.line, gets)

		listed := map[string]bool{}
		for _, tok := range regexp.MustCompile(`[A-Za-z0-9./_-]+`).FindAllString(b.text, -1) {
			listed[tok] = true
		}
		want := map[string]bool{}
		if caller == naming.CallerCluster {
			want[controlPlane] = true
		}
		for _, s := range etcdshapes.Shapes() {
			if !slices.Contains(s.Callers, caller) || s.UninstallHook() {
				continue
			}
			if s.Kind.Group != "" {
				want[s.Resource+"."+s.Kind.Group] = true
			} else {
				want[s.Resource] = true
			}
		}
		for _, r := range slices.Sorted(maps.Keys(want)) {
			if listed[r] {
				continue
			}
			// A core kind may be listed by name instead: secret/etcd-ca-tls.
			singular := strings.TrimSuffix(r, "s") + "/"
			byName := false
			for tok := range listed {
				byName = byName || strings.HasPrefix(tok, singular)
			}
			if !byName {
				t.Errorf("docs/operator.md:%d: the live file of %s lacks %s", b.line, caller, r)
			}
		}
		// Every resource.group listed is one the plan reads.
		for _, tok := range slices.Sorted(maps.Keys(listed)) {
			if strings.Count(tok, ".") >= 2 && regexp.MustCompile(`^[a-z]+\.[a-z0-9.-]+$`).MatchString(tok) &&
				!strings.HasSuffix(tok, ".yaml") && !want[tok] {
				t.Errorf("docs/operator.md:%d: the live file of %s lists %s, which its stack does not emit", b.line, caller, tok)
			}
		}
	}
	assert.Equal(t, map[naming.Caller]bool{naming.CallerEtcd: true, naming.CallerCluster: true}, callers,
		"docs/operator.md has a live file's commands for both callers")
}

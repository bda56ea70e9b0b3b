// Package layout holds the tests of the repository's layout: every import
// runs down the floors docs/architecture.md draws, the test support is
// imported by tests only, and `make test-all` runs the tests of every
// module.
package layout

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// root is the repository's root directory, from this package's.
var root = filepath.Join("..", "..")

// testFloor is the floor of the test support in the document's table.
const testFloor = "test"

// floor is one row of the table of floors: its number (testFloor for the
// test support) and the package patterns on it, relative to the module
// root ("etcdshapes" is the root package, "dir/..." dir and below).
type floor struct {
	name     string
	level    int // testFloor: above every numbered floor
	patterns []string
}

// floors reads the table under "## The floors" of docs/architecture.md.
func floors(t *testing.T) []floor {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []floor
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## The floors"
			continue
		}
		if !in || !strings.HasPrefix(line, "| ") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 2 {
			continue
		}
		name := strings.TrimSpace(cells[0])
		level, err := strconv.Atoi(name)
		switch {
		case name == testFloor:
			level = 1 << 20
		case err != nil:
			continue // the header row
		}
		fl := floor{name: name, level: level}
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cells[1], -1) {
			fl.patterns = append(fl.patterns, m[1])
		}
		if len(fl.patterns) == 0 {
			t.Fatalf("docs/architecture.md: floor %s lists no package", name)
		}
		out = append(out, fl)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 3 {
		t.Fatalf("docs/architecture.md: no table of floors under \"## The floors\" (%d rows)", len(out))
	}
	return out
}

// floorOf is the floor of the package in dir (relative to the module
// root, "" for the root package): the floor of its longest matching
// pattern.
func floorOf(fls []floor, dir string) (floor, bool) {
	var best floor
	bestLen := -1
	for _, fl := range fls {
		for _, p := range fl.patterns {
			if n, ok := match(p, dir); ok && n > bestLen {
				best, bestLen = fl, n
			}
		}
	}
	return best, bestLen >= 0
}

// match reports whether pattern names dir, and how specific it is.
func match(pattern, dir string) (int, bool) {
	if pattern == "etcdshapes" {
		return 0, dir == ""
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return len(base), dir == base || strings.HasPrefix(dir, base+"/")
	}
	return len(pattern), dir == pattern
}

// goFile is one Go file of the repository and what it imports of the
// root module.
type goFile struct {
	path    string // relative to the repository root
	dir     string // its package's directory, relative to its module root
	module  string // its module's directory ("" for the root module)
	test    bool
	imports []string // packages of the root module, relative to its root
}

// goFiles reads the imports of every Go file of the repository, in every
// module, testdata directories included (the test support's CRD checker
// lives in one).
func goFiles(t *testing.T) []goFile {
	t.Helper()
	mod := modulePath(t, root)
	modules := map[string]bool{"": true}
	var out []goFile
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "bin" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				modules[rel] = true
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		module := ""
		for m := range modules {
			if m != "" && (dir == m || strings.HasPrefix(dir, m+"/")) && len(m) > len(module) {
				module = m
			}
		}
		g := goFile{path: rel, module: module, test: strings.HasSuffix(rel, "_test.go")}
		g.dir = strings.TrimPrefix(strings.TrimPrefix(dir, module), "/")
		if g.dir == "." {
			g.dir = ""
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			switch {
			case p == mod:
				g.imports = append(g.imports, "")
			case strings.HasPrefix(p, mod+"/"):
				g.imports = append(g.imports, strings.TrimPrefix(p, mod+"/"))
			}
		}
		out = append(out, g)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A module is known from its directory on, which the walk visits
	// before anything in it, so every file found its module. The imports of another module's own packages
	// (e2e/works/internal/...) start with the root module's path too, but
	// are not the root module's packages.
	for i, g := range out {
		g.imports = slices.DeleteFunc(g.imports, func(p string) bool {
			for m := range modules {
				if m != "" && (p == m || strings.HasPrefix(p, m+"/")) {
					return true
				}
			}
			return false
		})
		out[i] = g
	}
	return out
}

func modulePath(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.TrimSpace(p)
		}
	}
	t.Fatal("go.mod names no module")
	return ""
}

func pkgName(dir string) string {
	if dir == "" {
		return "etcdshapes (the root package)"
	}
	return dir
}

// TestImportsRunDownTheFloors: every package of the root module stands on
// one floor of docs/architecture.md's table, and a non-test file imports
// only packages of its own floor or below. The test support (floor
// "test") may import any floor, and only tests and the test support
// import it, in every module of the repository.
func TestImportsRunDownTheFloors(t *testing.T) {
	fls := floors(t)
	var problems []string
	placed := map[string]bool{}
	for _, g := range goFiles(t) {
		var from floor
		if g.module == "" {
			fl, ok := floorOf(fls, g.dir)
			if !ok {
				if !placed[g.dir] {
					problems = append(problems, fmt.Sprintf("%s: on no floor: add it to the table of floors in docs/architecture.md", pkgName(g.dir)))
				}
				placed[g.dir] = true
				continue
			}
			from = fl
		}
		for _, imp := range g.imports {
			to, ok := floorOf(fls, imp)
			if !ok {
				continue // reported as the package's own problem
			}
			switch {
			case to.name == testFloor && !g.test && (g.module != "" || from.name != testFloor):
				problems = append(problems, fmt.Sprintf("%s imports %s, which is test support (floor %q): only _test.go files and the test support may", g.path, pkgName(imp), testFloor))
			case g.module == "" && !g.test && to.level > from.level:
				problems = append(problems, fmt.Sprintf("%s (floor %s) imports %s (floor %s): an import runs up the floors of docs/architecture.md", g.path, from.name, pkgName(imp), to.name))
			}
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

// TestFloorsTableNamesPackages: every pattern of the table of floors
// names a package of the root module (a renamed or removed package leaves
// no stale row behind).
func TestFloorsTableNamesPackages(t *testing.T) {
	var dirs []string
	for _, g := range goFiles(t) {
		if g.module == "" && !slices.Contains(dirs, g.dir) {
			dirs = append(dirs, g.dir)
		}
	}
	for _, fl := range floors(t) {
		for _, p := range fl.patterns {
			found := false
			for _, d := range dirs {
				if _, ok := match(p, d); ok {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("docs/architecture.md: floor %s lists %s, which names no package of the module", fl.name, p)
			}
		}
	}
}

// TestTestAllRunsEveryModule: the Makefile's MODULES, which make test-all
// runs the tests of, are every module of the repository that has tests
// (the modules without a test file only pin the versions of binaries the
// Makefile builds).
func TestTestAllRunsEveryModule(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^MODULES\s*:=\s*(.*)$`).FindSubmatch(data)
	if m == nil {
		t.Fatal("Makefile: no MODULES := line")
	}
	listed := strings.Fields(string(m[1]))
	var want []string
	tested := map[string]bool{}
	for _, g := range goFiles(t) {
		if g.test {
			tested[g.module] = true
		}
	}
	for mod := range tested {
		name := mod
		if name == "" {
			name = "."
		}
		want = append(want, name)
	}
	sort.Strings(want)
	sort.Strings(listed)
	if !slices.Equal(want, listed) {
		t.Errorf("Makefile: MODULES is %v; the modules with tests are %v", listed, want)
	}
}

// Package snippets compiles the Go snippets of the project's Markdown
// documents, so that what the README and the docs show compiles as
// written. It is used by tests only (internal/testsupport/snippets for README.md,
// docs/procedures.md and docs/go-api.md; examples/operator for
// docs/operator.md, which needs controller-runtime).
//
// Every ```go block of a document is one snippet. A block that starts
// with "package" is a whole file. Any other block is a function body,
// optionally opened by its imports (import "x" or import (...)); it is
// compiled as the body of a function whose signature, and any imports its
// parameters need, an HTML comment right before the block gives (it does
// not show in rendered Markdown):
//
//	<!-- snippet: func(ctx context.Context, c client.Client) error | context sigs.k8s.io/controller-runtime/pkg/client -->
//
// Without one the function is func(). A body of a func(...) error that
// does not end in a return statement gets "return nil". Check compiles
// every snippet of a document with go build -overlay, in a package that
// exists only in the overlay, inside the module at hand: the module's own
// go.mod and go.sum resolve the imports, nothing is written to the tree.
package snippets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Block is one ```go block of a document.
type Block struct {
	Line      int    // of its opening fence, 1-based
	Code      string // the block's text
	Signature string // from the snippet comment; "func()" by default
	// Imports are the import paths the snippet comment lists after "|", added
	// to the compiled file.
	Imports []string
}

var directive = regexp.MustCompile(`^<!--\s*snippet:\s*(.*?)\s*-->\s*$`)

// Extract returns the ```go blocks of a Markdown document, in order.
func Extract(md []byte) ([]Block, error) {
	lines := strings.Split(string(md), "\n")
	var out []Block
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		b := Block{Line: i + 1, Signature: "func()"}
		for j := i - 1; j >= 0 && strings.TrimSpace(lines[j]) != ""; j-- {
			if m := directive.FindStringSubmatch(strings.TrimSpace(lines[j])); m != nil {
				sig, imports, _ := strings.Cut(m[1], "|")
				b.Signature = strings.TrimSpace(sig)
				b.Imports = strings.Fields(imports)
				break
			}
		}
		var code []string
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			code = append(code, lines[j])
		}
		if j == len(lines) {
			return nil, fmt.Errorf("line %d: the go block is not closed", i+1)
		}
		b.Code = strings.Join(code, "\n")
		out = append(out, b)
		i = j
	}
	return out, nil
}

// File builds the Go file of pkg holding the blocks that are function
// bodies (one function per block, named after its line) and the imports
// they declare.
func File(pkg string, blocks []Block) ([]byte, error) {
	var imports []string
	var funcs strings.Builder
	for _, b := range blocks {
		if strings.HasPrefix(strings.TrimSpace(b.Code), "package ") {
			continue
		}
		body, imps, err := splitImports(b.Code)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", b.Line, err)
		}
		imports = append(imports, imps...)
		for _, imp := range b.Imports {
			alias, path, ok := strings.Cut(imp, "=")
			if !ok {
				alias, path = "", imp
			}
			imports = append(imports, strings.TrimSpace(alias+" "+fmt.Sprintf("%q", path)))
		}
		sig, ok := strings.CutPrefix(b.Signature, "func")
		if !ok {
			return nil, fmt.Errorf("line %d: snippet signature %q is not func(...)", b.Line, b.Signature)
		}
		if strings.HasSuffix(strings.TrimSpace(sig), " error") && !endsInReturn(body) {
			body += "\nreturn nil"
		}
		fmt.Fprintf(&funcs, "\n// line %d\nfunc snippetLine%d%s {\n%s\n}\n", b.Line, b.Line, sig, body)
	}
	slices.Sort(imports)
	imports = slices.Compact(imports)
	var src strings.Builder
	fmt.Fprintf(&src, "package %s\n\nimport (\n", pkg)
	for _, imp := range imports {
		fmt.Fprintf(&src, "\t%s\n", imp)
	}
	src.WriteString(")\n")
	src.WriteString(funcs.String())
	out, err := format.Source([]byte(src.String()))
	if err != nil {
		return nil, fmt.Errorf("%w\n%s", err, src.String())
	}
	return out, nil
}

// splitImports separates a body's leading import declarations.
func splitImports(code string) (body string, imports []string, err error) {
	rest := strings.TrimLeft(code, "\n")
	for strings.HasPrefix(rest, "import") {
		after := strings.TrimSpace(strings.TrimPrefix(rest, "import"))
		if strings.HasPrefix(after, "(") {
			end := strings.Index(after, ")")
			if end < 0 {
				return "", nil, fmt.Errorf("import ( is not closed")
			}
			for _, l := range strings.Split(after[1:end], "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "//") {
					imports = append(imports, l)
				}
			}
			rest = strings.TrimLeft(after[end+1:], "\n")
			continue
		}
		line, more, _ := strings.Cut(after, "\n")
		imports = append(imports, strings.TrimSpace(line))
		rest = strings.TrimLeft(more, "\n")
	}
	return rest, imports, nil
}

func endsInReturn(body string) bool {
	lines := strings.Split(strings.TrimRight(body, "\n\t "), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	return strings.HasPrefix(last, "return ") || last == "return"
}

// Check compiles the blocks of one document inside the module whose root
// is moduleDir: the function bodies as one package, each whole file as
// its own. The error holds the compiler's messages and the generated
// source.
func Check(moduleDir string, blocks []Block) error {
	tmp, err := os.MkdirTemp("", "snippets-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	moduleDir, err = filepath.Abs(moduleDir)
	if err != nil {
		return err
	}
	type unit struct{ name, src string }
	var units []unit
	file, err := File("zzsnippets", blocks)
	if err != nil {
		return err
	}
	units = append(units, unit{"zzsnippets", string(file)})
	for _, b := range blocks {
		if strings.HasPrefix(strings.TrimSpace(b.Code), "package ") {
			units = append(units, unit{fmt.Sprintf("zzsnippetsline%d", b.Line), b.Code + "\n"})
		}
	}
	replace := map[string]string{}
	var pkgs []string
	for _, u := range units {
		p := filepath.Join(tmp, u.name+".go")
		if err := os.WriteFile(p, []byte(u.src), 0o600); err != nil {
			return err
		}
		replace[filepath.Join(moduleDir, "zz-snippets", u.name, "snippets.go")] = p
		pkgs = append(pkgs, "./zz-snippets/"+u.name)
	}
	overlay, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return err
	}
	op := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(op, overlay, 0o600); err != nil {
		return err
	}
	cmd := exec.Command("go", append([]string{"build", "-overlay", op}, pkgs...)...)
	cmd.Dir = moduleDir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		var srcs strings.Builder
		for _, u := range units {
			fmt.Fprintf(&srcs, "--- %s.go\n%s", u.name, numbered(u.src))
		}
		return fmt.Errorf("go build: %v\n%s\n%s", err, out.String(), srcs.String())
	}
	return nil
}

func numbered(src string) string {
	var b strings.Builder
	for i, l := range strings.Split(src, "\n") {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, l)
	}
	return b.String()
}

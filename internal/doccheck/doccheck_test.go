package doccheck

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestExportedIdentifiersHaveDocComments reads every package of the root
// module (not the other modules, test files or testdata) with go/doc and
// fails for each exported const, var, type, function, method and struct
// field without a doc comment (a group's comment covers its members).
func TestExportedIdentifiersHaveDocComments(t *testing.T) {
	root := filepath.Join("..", "..")
	var missing []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || isOtherModule(path)) {
			return filepath.SkipDir
		}
		missing = append(missing, undocumented(t, root, path)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("no doc comment: %s", m)
	}
}

func isOtherModule(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}

func undocumented(t *testing.T, root, dir string) []string {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(root, dir)
	var out []string
	for _, p := range pkgs {
		if p.Name == "main" {
			continue
		}
		files := make([]*ast.File, 0, len(p.Files))
		for _, f := range p.Files {
			files = append(files, f)
		}
		dp, err := doc.NewFromFiles(fset, files, "example.com/"+rel)
		if err != nil {
			t.Fatal(err)
		}
		where := rel + ": "
		if strings.TrimSpace(dp.Doc) == "" {
			out = append(out, where+"package "+p.Name)
		}
		values := func(vs []*doc.Value) {
			for _, v := range vs {
				if v.Doc != "" {
					continue
				}
				for _, s := range v.Decl.Specs {
					vs := s.(*ast.ValueSpec)
					if vs.Doc != nil || vs.Comment != nil {
						continue
					}
					for _, n := range vs.Names {
						if n.IsExported() {
							out = append(out, where+n.Name)
						}
					}
				}
			}
		}
		funcs := func(prefix string, fs []*doc.Func) {
			for _, f := range fs {
				if f.Doc == "" {
					out = append(out, where+prefix+f.Name)
				}
			}
		}
		values(dp.Consts)
		values(dp.Vars)
		funcs("", dp.Funcs)
		for _, ty := range dp.Types {
			if ty.Doc == "" {
				out = append(out, where+"type "+ty.Name)
			}
			values(ty.Consts)
			values(ty.Vars)
			funcs("", ty.Funcs)
			funcs(ty.Name+".", ty.Methods)
			for _, s := range ty.Decl.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok {
					continue
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, f := range st.Fields.List {
					if f.Doc != nil || f.Comment != nil {
						continue
					}
					for _, n := range f.Names {
						if n.IsExported() {
							out = append(out, where+ty.Name+"."+n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

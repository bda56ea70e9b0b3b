package snippets

import "testing"

// TestProceduresSnippetsCompile: every ```go block of docs/procedures.md
// compiles as written, against the library as it is.
func TestProceduresSnippetsCompile(t *testing.T) {
	requireSnippetsCompile(t, "docs/procedures.md", 5, "the procedures' Go snippets")
}

// TestGoAPISnippetsCompile: every ```go block of docs/go-api.md compiles
// as written, against the library as it is.
func TestGoAPISnippetsCompile(t *testing.T) {
	requireSnippetsCompile(t, "docs/go-api.md", 4, "the Go API page's snippets")
}

package snippets

import "testing"

// TestProceduresSnippetsCompile: every ```go block of docs/procedures.md
// compiles as written, against the library as it is.
func TestProceduresSnippetsCompile(t *testing.T) {
	requireSnippetsCompile(t, "docs/procedures.md", 5, "the procedures' Go snippets")
}

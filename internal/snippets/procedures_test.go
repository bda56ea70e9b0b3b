package snippets

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestProceduresSnippetsCompile: every ```go block of docs/procedures.md
// compiles as written, against the library as it is.
func TestProceduresSnippetsCompile(t *testing.T) {
	root := filepath.Join("..", "..")
	md, err := os.ReadFile(filepath.Join(root, "docs", "procedures.md"))
	require.NoError(t, err)
	blocks, err := Extract(md)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(blocks), 5, "the procedures' Go snippets")
	require.NoError(t, Check(root, blocks))
}

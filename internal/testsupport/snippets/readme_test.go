package snippets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestREADMESnippetsCompile: every ```go block of the README compiles as
// written, against the library as it is.
func TestREADMESnippetsCompile(t *testing.T) {
	requireSnippetsCompile(t, "README.md", 1, "the README's Go example")
}

// requireSnippetsCompile checks that the document at rel, a slash path
// from the repository root, has at least atLeast ```go blocks (what names
// them) and that every one compiles.
func requireSnippetsCompile(t *testing.T, rel string, atLeast int, what string) {
	t.Helper()
	root := filepath.Join("..", "..", "..")
	md, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	require.NoError(t, err)
	blocks, err := Extract(md)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(blocks), atLeast, what)
	require.NoError(t, Check(root, blocks))
}

// TestCheckFails: a snippet that does not compile fails the check, naming
// the compiler's error.
func TestCheckFails(t *testing.T) {
	for _, md := range []string{
		"```go\nx := liveClass\n```\n",
		"```go\nv := 1\n```\n",
		"<!-- snippet: func(err error) error | errors -->\n```go\nreturn errors.Unwrap(err) + 1\n```\n",
		"```go\npackage x\nfunc f() { undefined() }\n```\n",
	} {
		blocks, err := Extract([]byte(md))
		require.NoError(t, err)
		err = Check(filepath.Join("..", "..", ".."), blocks)
		require.Error(t, err, md)
		require.True(t, strings.Contains(err.Error(), "undefined") || strings.Contains(err.Error(), "declared and not used") ||
			strings.Contains(err.Error(), "mismatched types"), err.Error())
	}
}

func TestExtract(t *testing.T) {
	blocks, err := Extract([]byte("text\n\n<!-- snippet: func(x int) error | fmt e=errors -->\n```go\nimport \"strings\"\n\nreturn nil\n```\n\n```sh\nls\n```\n```go\nfmt.Println()\n```\n"))
	require.NoError(t, err)
	require.Len(t, blocks, 2)
	require.Equal(t, "func(x int) error", blocks[0].Signature)
	require.Equal(t, []string{"fmt", "e=errors"}, blocks[0].Imports)
	require.Equal(t, "func()", blocks[1].Signature)
	src, err := File("p", blocks[:1])
	require.NoError(t, err)
	require.Contains(t, string(src), "e \"errors\"")
	require.Contains(t, string(src), "func snippetLine4(x int) error {")
	_, err = Extract([]byte("```go\nx\n"))
	require.Error(t, err)
}

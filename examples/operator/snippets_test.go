package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/testsupport/snippets"
)

// TestOperatorDocSnippetsCompile: the Go snippets of docs/operator.md
// (plan, server-side apply with controller-runtime's client.Apply and
// client-go's dynamic client, restore) compile as written in this module,
// which has controller-runtime and client-go.
func TestOperatorDocSnippetsCompile(t *testing.T) {
	md, err := os.ReadFile(filepath.Join("..", "..", "docs", "operator.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := snippets.Extract(md)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) < 5 {
		t.Fatalf("%d Go snippets in docs/operator.md, want at least 5", len(blocks))
	}
	if err := snippets.Check(".", blocks); err != nil {
		t.Fatal(err)
	}
}

package yamlemit

import (
	"bytes"
	"os"
	"testing"

	"sigs.k8s.io/yaml"
)

// objectDocs is the etcd chart's default stack as encoding/json writes
// each object: Kubernetes objects, mostly nested maps with few arrays.
func objectDocs(b *testing.B) [][]byte {
	b.Helper()
	src, err := os.ReadFile("../../golden/testdata/etcd-defaults.yaml")
	if err != nil {
		b.Fatal(err)
	}
	var docs [][]byte
	for _, doc := range bytes.Split(src, []byte("\n---\n")) {
		doc = bytes.TrimPrefix(doc, []byte("---\n"))
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, js)
	}
	if len(docs) == 0 {
		b.Fatal("no documents")
	}
	return docs
}

// BenchmarkParseObjects measures the JSON reader (Parse, no printing) on
// object-heavy documents; one op parses every object of the stack.
func BenchmarkParseObjects(b *testing.B) {
	docs := objectDocs(b)
	var tr Tree
	n := 0
	for _, js := range docs {
		n += len(js)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, js := range docs {
			if err := tr.Parse(js); err != nil {
				b.Fatal(err)
			}
		}
	}
}

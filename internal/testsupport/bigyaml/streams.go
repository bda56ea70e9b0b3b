package bigyaml

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"sigs.k8s.io/yaml"
)

// The live files of many documents that the stream's limits bound
// (inputlimit.MaxLiveDocuments, inputlimit.MaxLiveNodes for all the
// documents together): what each costs at the limits is in
// docs/limits.md, measured on the files cmd/livefiles writes.

// LiveDocuments is the fixture's objects (both stacks, as kube-apiserver
// returns them, managed fields included), each copy renamed, one a
// document, as `kubectl get -o yaml` of one object a call appends them:
// docs documents, or fewer where their nodes (Lex's count) would pass
// nodes.
func LiveDocuments(ns string, docs, nodes int) ([]byte, error) {
	fixture, err := fixtureItems()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	total, n := 0, 0
	for i := 0; n < docs; i++ {
		for _, o := range fixture {
			y, err := yaml.Marshal(renamed(o, ns, i))
			if err != nil {
				return nil, err
			}
			c := inputlimit.Lex(y).Nodes
			if n == docs || total+c > nodes {
				return b.Bytes(), nil
			}
			if n > 0 {
				b.WriteString("---\n")
			}
			b.Write(y)
			total += c
			n++
		}
	}
	return b.Bytes(), nil
}

// ItemDocuments is docs objects, one a document, each a ConfigMap of its
// own name holding a list of one-character items, of nodes nodes in all:
// the shape that costs a YAML parser most per node, in every document.
func ItemDocuments(docs, nodes int) []byte {
	head := func(i int) string {
		return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: items-%d, namespace: tenant-root}\nx:\n", i)
	}
	per := nodes/docs - inputlimit.Lex([]byte(head(0))).Nodes
	items := strings.Repeat("- a\n", max(per, 0))
	var b strings.Builder
	b.Grow(docs * (len(head(docs)) + len(items) + 4))
	for i := range docs {
		if i > 0 {
			b.WriteString("---\n")
		}
		b.WriteString(head(i))
		b.WriteString(items)
	}
	return []byte(b.String())
}

// ItemObject is one ConfigMap holding a list of one-character items, of
// nodes nodes: ItemDocuments' shape in a single document.
func ItemObject(nodes int) []byte {
	return ItemDocuments(1, nodes)
}

// TinyDocuments is objects of three lines, one a document, docs of them
// (a ConfigMap of its own name), to size bytes if docs is 0: the most
// documents a file of that size holds.
func TinyDocuments(docs, size int) []byte {
	var b strings.Builder
	for i := 0; docs == 0 || i < docs; i++ {
		d := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a%d, namespace: b}\n", i)
		if i > 0 {
			d = "---\n" + d
		}
		if docs == 0 && b.Len()+len(d) > size {
			break
		}
		b.WriteString(d)
	}
	return []byte(b.String())
}

// EmptyDocuments is n lines of "---": n empty documents.
func EmptyDocuments(n int) []byte {
	return []byte(strings.Repeat("---\n", n))
}

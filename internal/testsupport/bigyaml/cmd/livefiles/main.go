// Command livefiles writes the live files of docs/limits.md's table of
// what a live file costs at the limits, to measure the CLI on them:
//
//	go run ./internal/testsupport/bigyaml/cmd/livefiles DIR
//	/usr/bin/time -v etcdshapes plan etcd -n tenant-root --live DIR/FILE.yaml
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/bigyaml"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: livefiles DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	list, err := bigyaml.LiveList("tenant-root", inputlimit.MaxLiveNodes-2000)
	check(err)
	docs, err := bigyaml.LiveDocuments("tenant-root", inputlimit.MaxLiveDocuments, inputlimit.MaxLiveNodes)
	check(err)
	files := []struct {
		name string
		data []byte
	}{
		// Within the limits.
		{"list.yaml", list},
		{"documents.yaml", docs},
		{"item-documents.yaml", bigyaml.ItemDocuments(inputlimit.MaxLiveDocuments, inputlimit.MaxLiveNodes-inputlimit.MaxLiveDocuments)},
		{"item-object.yaml", bigyaml.ItemObject(inputlimit.MaxLiveNodes - 10)},
		{"tiny-documents.yaml", bigyaml.TinyDocuments(inputlimit.MaxLiveDocuments, 0)},
		{"empty-documents.yaml", bigyaml.EmptyDocuments(inputlimit.MaxLiveDocuments)},
		// Beyond them, each refused.
		{"tiny-documents-64MiB.yaml", bigyaml.TinyDocuments(0, inputlimit.MaxLiveBytes)},
		{"empty-documents-64MiB.yaml", bigyaml.EmptyDocuments(inputlimit.MaxLiveBytes / 4)},
	}
	for _, f := range files {
		check(os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644))
		fmt.Printf("%s: %d bytes, %d YAML nodes\n", f.name, len(f.data), inputlimit.Lex(f.data).Nodes)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

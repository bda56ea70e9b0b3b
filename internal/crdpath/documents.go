package crdpath

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Document is one YAML (or JSON) document of a CRD file.
type Document struct {
	// Path is the file the document is in, for errors.
	Path string
	// Data is the document.
	Data []byte
}

// Documents reads every .yaml, .yml and .json file of dir, in name order,
// and splits each into its documents (empty ones left out). Subdirectories
// are not read.
func Documents(dir string) ([]Document, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Document
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		if e.IsDir() || (ext != ".yaml" && ext != ".yml" && ext != ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		raw, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(raw)))
		for {
			doc, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			out = append(out, Document{Path: path, Data: doc})
		}
	}
	return out, nil
}

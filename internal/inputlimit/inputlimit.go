// Package inputlimit bounds what etcdshapes parses: values documents and
// live objects come from files and streams a user names, and YAML parsing
// costs time and memory well beyond a document's size (go.yaml.in/yaml/v2,
// which Helm and sigs.k8s.io/yaml use, took 28 s and 1.2 GB here for 16 MB
// of one-character list items). Every document is checked before it is
// parsed.
package inputlimit

import "fmt"

const (
	// MaxBytes bounds one document: 16 MiB, far above any chart values
	// file or live stack.
	MaxBytes = 16 << 20
	// MaxIndicators bounds the YAML indicators of one document, counted
	// without parsing: line breaks and the characters that open or
	// separate a node ("-", ":", ",", "[", "{"). Every node but a
	// document's first needs one, so the count bounds the nodes. 100,000
	// keep the worst document within a few seconds and a few hundred MB of
	// parsing, and are more than ten times what `kubectl get -o yaml`
	// prints for a whole stack with managed fields (a rendered stack has
	// about 2,100).
	MaxIndicators = 100_000
)

// Check refuses a document over MaxBytes or MaxIndicators without parsing
// it. The error says which limit and by how much.
func Check(doc []byte) error {
	if err := CheckSize(doc); err != nil {
		return err
	}
	return CheckIndicators(doc)
}

// CheckSize refuses a document over MaxBytes. It is all a document read as
// JSON needs: JSON parsing is linear in its size.
func CheckSize(doc []byte) error {
	if len(doc) > MaxBytes {
		return fmt.Errorf("is %d bytes, more than the limit of %d (16 MiB)", len(doc), MaxBytes)
	}
	return nil
}

// CheckIndicators refuses a document with more than MaxIndicators YAML
// indicators, before a YAML parser sees it.
func CheckIndicators(doc []byte) error {
	n := 0
	for _, c := range doc {
		switch c {
		case '\n', '-', ':', ',', '[', '{':
			n++
		}
	}
	if n > MaxIndicators {
		return fmt.Errorf("has %d YAML indicators (line breaks and -, :, comma, [, {), more than the limit of %d that keeps parsing bounded", n, MaxIndicators)
	}
	return nil
}

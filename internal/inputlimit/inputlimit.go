// Package inputlimit bounds what etcdshapes parses: values documents and
// live objects come from files and streams a user names, and YAML parsing
// costs time and memory in the number of nodes a document holds, well
// beyond its size where the nodes are short (go.yaml.in/yaml/v2, which
// Helm and sigs.k8s.io/yaml use, takes seconds and a gigabyte for a few
// million one-character list items), and beyond the document itself where
// aliases repeat a node. Every document is checked before it is parsed:
// its size, then its nodes as Lex counts them in one pass, then, only when
// it has aliases, the nodes they expand to (Expanded).
//
// The limits are two: values files (a chart's values, far smaller than any
// live state) and live files (what `kubectl get -o yaml` prints of a busy
// namespace, managed fields included).
package inputlimit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	yamlv3 "go.yaml.in/yaml/v3"
)

// Limits bound a kind of input: one document of it and, for a stream of
// documents, the stream.
type Limits struct {
	// Bytes bounds the document's size (a stream's: all of it).
	Bytes int
	// Nodes bounds the nodes parsing builds: scalars, lists, maps and
	// the empty values of "a:", as Lex counts them, and once expanded
	// where aliases repeat a node. In a stream of documents it bounds
	// them all together, as it bounds one: each document's nodes cost
	// what they cost in one.
	Nodes int
	// Documents bounds the documents of a stream, empty ones counted
	// (each costs a decoder's setup whatever it holds: 16 million empty
	// documents took minutes); 0 for an input of one document.
	Documents int
	// What names the kind of input in refusals.
	What string
}

// The limits, and what they cost at worst (BenchmarkWorstCase,
// docs/limits.md): a document of Nodes one-character nodes, the
// most nodes a parser builds within the limits.
const (
	// MaxValuesBytes bounds a values document: 16 MiB, far above any
	// chart values file.
	MaxValuesBytes = 16 << 20
	// MaxValuesNodes bounds a values document's nodes: 250,000, some
	// twenty times the values of a large umbrella chart.
	MaxValuesNodes = 250_000
	// MaxLiveBytes bounds a live document: 64 MiB.
	MaxLiveBytes = 64 << 20
	// MaxLiveNodes bounds the nodes of a live file, all its documents
	// together: 2,500,000, what `kubectl get -o yaml
	// --show-managed-fields` prints for some 5,000 Pods or 20,000 of the
	// stack's objects (a rendered stack, as the API server returns it
	// with managed fields, has about 2,300 nodes).
	MaxLiveNodes = 2_500_000
	// MaxLiveDocuments bounds the documents of a live file, empty ones
	// counted: 20,000. kubectl get prints one object or one List a call,
	// so a live file of a few calls is a few documents; 20,000 is the
	// stack's objects at the node limit, one a document.
	MaxLiveDocuments = 20_000
)

var (
	// Values are the limits of a values document (-f, --set-file is a
	// string and not parsed).
	Values = Limits{Bytes: MaxValuesBytes, Nodes: MaxValuesNodes, What: "a values file"}
	// Live are the limits of a live document (plan --live, a List or
	// one document of a multi-document stream).
	Live = Limits{Bytes: MaxLiveBytes, Nodes: MaxLiveNodes, Documents: MaxLiveDocuments, What: "a live file"}
)

// CheckSize refuses a document over l.Bytes.
func (l Limits) CheckSize(doc []byte) error {
	if len(doc) > l.Bytes {
		return fmt.Errorf("is %d bytes, more than the limit of %d (%s) for %s", len(doc), l.Bytes, mib(l.Bytes), l.What)
	}
	return nil
}

func mib(n int) string { return fmt.Sprintf("%d MiB", n>>20) }

// CheckYAML refuses a YAML document over l.Bytes or whose nodes, counted
// by Lex and, when it has aliases, expanded (Expanded), are more than
// l.Nodes; it returns Lex's Stats, with Decoded set. number, when not
// nil, is LexNumbers' callback.
func (l Limits) CheckYAML(doc []byte, number func([]byte)) (Stats, error) {
	if err := l.CheckSize(doc); err != nil {
		return Stats{}, err
	}
	st := LexNumbers(doc, number)
	st.Decoded = st.Nodes
	if st.Nodes > l.Nodes {
		return st, fmt.Errorf("has %d YAML nodes (scalars, lists and maps, counted before parsing), more than the limit of %d for %s, which keeps parsing bounded", st.Nodes, l.Nodes, l.What)
	}
	if st.Aliases > 0 {
		if n, err := Expanded(doc, l.Nodes); err != nil {
			return st, err
		} else if n > l.Nodes {
			return st, fmt.Errorf("expands to more than %d YAML nodes through its aliases (*name), the limit for %s, which keeps parsing bounded", l.Nodes, l.What)
		} else {
			st.Decoded = max(st.Nodes, n)
		}
	}
	return st, nil
}

// CheckFirstYAML is CheckYAML of the stream's first document (LexFirst),
// which it returns: a values file, of which Helm reads the first document
// only, so that what follows it costs nothing and bounds nothing (a
// second document of 260,000 list items, 4 million lines of "---"). The
// byte limit is the whole stream's, as it is read.
func (l Limits) CheckFirstYAML(doc []byte) (first []byte, err error) {
	if err := l.CheckSize(doc); err != nil {
		return nil, err
	}
	first, st := LexFirst(doc)
	if st.Nodes > l.Nodes {
		return nil, fmt.Errorf("has %d YAML nodes (scalars, lists and maps, counted before parsing) in its first document, more than the limit of %d for %s, which keeps parsing bounded", st.Nodes, l.Nodes, l.What)
	}
	if st.Aliases > 0 {
		if n, err := Expanded(first, l.Nodes); err != nil {
			return nil, err
		} else if n > l.Nodes {
			return nil, fmt.Errorf("expands to more than %d YAML nodes through its aliases (*name), the limit for %s, which keeps parsing bounded", l.Nodes, l.What)
		}
	}
	return first, nil
}

// CheckJSON refuses a JSON document over l.Bytes or with more than
// l.Nodes values (LexJSON), which it returns; number is LexJSON's
// callback.
func (l Limits) CheckJSON(doc []byte, number func([]byte)) (int, error) {
	if err := l.CheckSize(doc); err != nil {
		return 0, err
	}
	n := LexJSON(doc, number)
	if n > l.Nodes {
		return n, fmt.Errorf("has %d JSON values (counted before parsing), more than the limit of %d for %s, which keeps parsing bounded", n, l.Nodes, l.What)
	}
	return n, nil
}

// Stream tallies the nodes of a stream of documents against its Limits
// as they come, before any is parsed: all the documents' nodes together
// (each one's Decoded, or its JSON values).
type Stream struct {
	Limits
	documents, nodes int
}

// Document counts one more document of nodes nodes; the error, when the
// stream is over its nodes, says so. (Its documents CheckDocuments bounds
// before any is read.)
func (s *Stream) Document(nodes int) error {
	s.documents++
	s.nodes += nodes
	if s.nodes > s.Nodes {
		return fmt.Errorf("has more than %d YAML nodes in its documents together (%d in the first %d), the limit for %s, which keeps parsing bounded", s.Nodes, s.nodes, s.documents, s.What)
	}
	return nil
}

// Documents counts the YAML documents of a stream as apimachinery's
// YAMLReader (and plan's reader) split it, empty ones counted: each line
// that starts with "---" starts one, and so does any text before the
// first such line. It stops counting beyond limit (limit+1 then), so that
// it costs a pass over at most the documents a limit admits.
func Documents(data []byte, limit int) int {
	n := 0
	if len(data) > 0 && !bytes.HasPrefix(data, []byte("---")) {
		n = 1
	}
	for rest := data; len(rest) > 0 && n <= limit; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			break
		}
		if rest = rest[i+1:]; bytes.HasPrefix(rest, []byte("---")) {
			n++
		}
	}
	if bytes.HasPrefix(data, []byte("---")) {
		n++
	}
	return n
}

// CheckDocuments refuses a stream of more than l.Documents documents
// (Documents), when l bounds them; it costs a pass over the lines of at
// most that many documents.
func (l Limits) CheckDocuments(data []byte) error {
	if l.Documents > 0 && Documents(data, l.Documents) > l.Documents {
		return fmt.Errorf("has more than %d YAML documents (empty ones counted), the limit for %s, which keeps reading bounded", l.Documents, l.What)
	}
	return nil
}

// CheckStream refuses a stream of documents over l's limits, for a
// reader that tells nothing of the documents it skips: its size, its
// documents (lines starting with "---", as apimachinery's YAMLReader
// splits them, empty ones counted) and its nodes (Lex over the whole
// stream, with aliases expanded: Expanded).
func (l Limits) CheckStream(data []byte) error {
	if err := l.CheckSize(data); err != nil {
		return err
	}
	if err := l.CheckDocuments(data); err != nil {
		return err
	}
	st := Lex(data)
	if st.Nodes > l.Nodes {
		return fmt.Errorf("has %d YAML nodes in its documents together, more than the limit of %d for %s, which keeps parsing bounded", st.Nodes, l.Nodes, l.What)
	}
	if st.Aliases > 0 {
		if n, err := Expanded(data, l.Nodes); err != nil {
			return err
		} else if n > l.Nodes {
			return fmt.Errorf("expands to more than %d YAML nodes through its aliases (*name), the limit for %s, which keeps parsing bounded", l.Nodes, l.What)
		}
	}
	return nil
}

// Expanded counts the nodes of every document of doc once its aliases
// are expanded, as yaml.v2 decodes them (an alias is a copy of its
// anchor's node, however often it repeats): yaml.v3 parses doc into nodes
// without expanding them, and each anchor's expanded size is computed
// once. It stops counting beyond limit. Its cost is yaml.v3's parse, so
// it is for documents Lex already bounded. An alias to a node that
// contains it (which yaml.v2 refuses) is an error.
func Expanded(doc []byte, limit int) (int, error) {
	dec := yamlv3.NewDecoder(bytes.NewReader(doc))
	sizes := map[*yamlv3.Node]int{}
	total := 0
	for total <= limit {
		var n yamlv3.Node
		if err := dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			// Its aliases cannot be counted: refused rather than
			// left to a decoder that might read it all the same.
			return 0, fmt.Errorf("has aliases (*name) and cannot be parsed to count what they expand to: %v", err)
		}
		s, err := expandedSize(&n, sizes, limit-total)
		if err != nil {
			return 0, err
		}
		total += s
	}
	return total, nil
}

// inProgress marks a node whose size is being computed.
const inProgress = -1

func expandedSize(n *yamlv3.Node, sizes map[*yamlv3.Node]int, limit int) (int, error) {
	if n.Kind == yamlv3.AliasNode {
		if n.Alias == nil {
			return 1, nil
		}
		n = n.Alias
	}
	switch s, ok := sizes[n]; {
	case ok && s == inProgress:
		return 0, fmt.Errorf("has an alias (*%s) inside the node its anchor names, which YAML decoders refuse", n.Anchor)
	case ok:
		return s, nil
	}
	sizes[n] = inProgress
	total := 1
	if n.Kind == yamlv3.DocumentNode {
		total = 0
	}
	for _, c := range n.Content {
		s, err := expandedSize(c, sizes, limit-total)
		if err != nil {
			return 0, err
		}
		total += s
		if total > limit {
			break // more than enough: the document is refused
		}
	}
	sizes[n] = total
	return total, nil
}

// FirstLine is the start of a document for an error: its first line, at
// most 80 bytes (cut at a character boundary), with " …" when cut. Bytes
// that are not UTF-8 are kept, for the message to show them escaped
// (invalid.FormatValue quotes them as \xff), not as U+FFFD.
func FirstLine(b []byte) string {
	if len(b) > 4096 {
		b = b[:4096]
	}
	s := string(bytes.TrimSpace(b))
	cut := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, cut = s[:i], true
	}
	if len(s) > 80 {
		i := 80
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s, cut = s[:i], true
	}
	if cut {
		s += " …"
	}
	return s
}

// LexJSON counts the values of a JSON document without parsing it: one
// for the document and one for each '[', '{', ',' and ':' outside strings
// (every value but the first follows one; a key counts as a value). It
// calls number, when not nil, with the text of every number outside
// strings, in document order. It costs one pass and no allocation. The
// document need not be valid: what a parser would refuse is counted all
// the same.
func LexJSON(doc []byte, number func([]byte)) int {
	n := 1
	for i := 0; i < len(doc); i++ {
		switch c := doc[i]; {
		case c == '"':
			for i++; i < len(doc) && doc[i] != '"'; i++ {
				if doc[i] == '\\' {
					i++
				}
			}
		case c == '[' || c == '{' || c == ',' || c == ':':
			n++
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(doc) && isNumberByte(doc[j]) {
				j++
			}
			if number != nil {
				number(doc[i:j])
			}
			i = j - 1
		}
	}
	return n
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

package plan

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// TestDocReaderIsYAMLReader: ReadObjects' document splitter gives the
// documents (and the errors) apimachinery's YAMLReader gives, byte for
// byte up to the line feed YAMLReader adds to a last line without one, on
// the corners of its separator rule and on generated streams.
func TestDocReaderIsYAMLReader(t *testing.T) {
	cases := []string{"", "\n", "a: 1", "a: 1\n", "---", "---\n", "---\na: 1\n", "a: 1\n---\nb: 2\n", "a: 1\n---", "---\n---\n---\n",
		"a: 1\n--- # c\nb: 2", "a: 1\n--- b\n", "a: 1\n----\nb: 2\n", "a: 1\n ---\nb: 2\n", "a: |\n  ---\n", "---a\n", "a\n---\t\n",
		"a: 1\n---\n\n---\nb: 2\n\n", "# c\n---\n# d\n", "x\r\n---\r\ny\r\n", "--- #\n---#x\n"}
	r := rand.New(rand.NewSource(3))
	frags := []string{"a: 1", "---", "--- #c", "--- x", "\n", "\n", "  ", "#", "b", "----", "\r\n", "- x"}
	for range 3000 {
		var b strings.Builder
		for n := r.Intn(10); n >= 0; n-- {
			b.WriteString(frags[r.Intn(len(frags))])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		want := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(c)))
		got := newDocReader([]byte(c))
		for i := 0; ; i++ {
			w, werr := want.Read()
			g, gerr := got.read()
			if werr != nil || gerr != nil {
				require.Equal(t, werr == nil, gerr == nil, "%q doc %d: %v, %v", c, i, werr, gerr)
				require.Equal(t, errors.Is(werr, io.EOF), errors.Is(gerr, io.EOF), "%q doc %d: %v, %v", c, i, werr, gerr)
				if !errors.Is(werr, io.EOF) {
					require.Equal(t, werr.Error(), gerr.Error(), "%q doc %d", c, i)
				}
				break
			}
			if !bytes.Equal(w, g) {
				require.Equal(t, string(w), string(g)+"\n", "%q doc %d", c, i)
			}
		}
	}
}

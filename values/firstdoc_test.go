package values_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	. "github.com/etcdshapes/etcdshapes/values"
)

// TestOnlyTheFirstDocumentIsRead: a values file is read as Helm reads it
// (sigs.k8s.io/yaml's Unmarshal, go.yaml.in/yaml/v2: its first YAML
// document, the rest never scanned; checked with helm v3.22's helm
// template), so that nothing after the first document refuses it: not a
// second document beyond the node limit, not 4 million lines of "---" to
// the byte limit, not YAML no parser reads, not an alias bomb, not two
// keys that are one JSON key. Each reads as its first document alone,
// at once. The first document keeps its bounds.
func TestOnlyTheFirstDocumentIsRead(t *testing.T) {
	first := "replicas: 1\nsize: 8Gi\n"
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	want, err := Merge([]byte(first))
	if err != nil {
		t.Fatal(err)
	}
	dashes := strings.Repeat("---\n", (inputlimit.MaxValuesBytes-len(first))/4)
	for name, doc := range map[string]string{
		"nodes beyond the limit":      first + "---\n" + strings.Repeat("- a\n", inputlimit.MaxValuesNodes+10_000),
		"dashes to the byte limit":    first + dashes,
		"the first opened by ---":     "---\n" + first + "---\n" + strings.Repeat("- a\n", inputlimit.MaxValuesNodes+10_000),
		"YAML no parser reads":        first + "---\n: : [\n\t'\n",
		"an alias bomb":               first + "---\n" + bomb,
		"one JSON key twice":          first + "---\nresources: {1: a, \"1\": b}\n",
		"after an end marker":         first + "...\ngarbage: [\n",
		"a flow map beyond the limit": first + "---\n{" + strings.Repeat("a: 1, ", inputlimit.MaxValuesNodes) + "}\n",
	} {
		t.Run(name, func(t *testing.T) {
			if len(doc) > inputlimit.MaxValuesBytes {
				t.Fatalf("%d bytes, beyond the limit", len(doc))
			}
			start := time.Now()
			got, err := Merge([]byte(doc))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("read %v, want %v", got, want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Fatalf("took %v", d)
			}
		})
	}
	// The first document's own bounds.
	for name, doc := range map[string]string{
		"nodes":          strings.Repeat("- a\n", inputlimit.MaxValuesNodes+1) + "---\nreplicas: 1\n",
		"aliases":        bomb + "g: [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n---\n",
		"bytes, overall": first + strings.Repeat("#", inputlimit.MaxValuesBytes),
	} {
		if _, err := Merge([]byte(doc)); err == nil || !strings.Contains(err.Error(), "limit") {
			t.Fatalf("a first document beyond its %s: %v", name, err)
		}
	}
}

package plan_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestPlanTextOneEscaper: a value a plan prints twice, on its ~ line and in
// a finding's message (a live spec.version etcd cannot take), is printed
// alike, with strconv.Quote's escapes (invalid.FormatValue's), for every
// kind of character that needs one: a control character, DEL, a bidi
// control, a line separator, a byte not UTF-8, a quote and a backslash.
func TestPlanTextOneEscaper(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	req := scenarioRequest(t, s)
	for _, v := range []string{"3.6.11\x1b[2J\u202e", "3.6.11\x7f", "3.6.11\u2028x", "3.6.11\xff", `3.6.11"\`, "3.6.11\n\t"} {
		t.Run(strconv.Quote(v), func(t *testing.T) {
			live := scenarioObjects(t, s)
			c := liveObject(t, live, "EtcdCluster", "kubernetes-demo-etcd")
			require.NoError(t, unstructured.SetNestedField(c.Object, v, "spec", "version"))
			p, _, err := plan.ForRequest(req, live)
			require.NoError(t, err)
			text := p.String()
			q := strconv.Quote(v)
			require.Contains(t, text, "~ spec.version: "+q+" -> ", "%s", text)
			var msg string
			for _, f := range p.AllFindings() {
				if f.Path == "spec.version" {
					msg = f.Message
				}
			}
			require.Contains(t, msg, q, "the finding quotes it as the ~ line does")
			require.Equal(t, 1+strings.Count(msg, q), strings.Count(text, q), "%s", text)
			if js, _ := json.Marshal(v); string(js) != q {
				require.NotContains(t, text, string(js), "JSON's escapes: %s", text)
			}
		})
	}
}

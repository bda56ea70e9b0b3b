package roundtrip

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/api/resource"
)

// precisionQuantities are quantities around every rule of
// quantity.ChartRule and etcd.MinSize: numbers of 14 to 17 significant
// digits in every suffix and both exponent signs, binary values that
// gain digits, fractions of a nano-unit, values around 2^53, whole and
// fractional Ei, sizes around 256Mi, and random ones.
func precisionQuantities() []string {
	out := []string{
		"0.1234567890123456789", "123456789012345678m", "1.5n", "0.5n", "2n", "1e-10", "0.0000000001", "0.1Ki", "0.0000000001Ki", "0.0000000005Ki",
		"0.123456789Gi", "999999Gi", "99999Gi", "99Ti", "999Ti", "1Pi", "1Ei", "3Ei", "7Ei", "9007199254740992", "9007199254740993", "9e18", "1234567890123450000",
		"4.76837158203125Ei", "0.0000213623046875Ei", "0.0000000476837158203125Ei", "1.3Mi", "1.5Gi", "4Gi", "512Mi", "333m", "0.1", "1e9", "1.073741824e+09",
		"256Mi", "255.9Mi", "262143Ki", "268435455", "268435456", "0.25Gi", "0.2499Gi", "1", "1Ki", "100k", "4Mi", "1Mi",
	}
	for _, suffix := range []string{"", "n", "m", "k", "M", "G", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e3", "e-3", "E+9", "e-9"} {
		for n := 14; n <= 17; n++ {
			out = append(out, "1"+strings.Repeat("2", n-1)+suffix, "0."+strings.Repeat("3", n)+suffix)
		}
	}
	r := rand.New(rand.NewSource(15))
	suffixes := []string{"", "m", "k", "M", "G", "Ki", "Mi", "Gi", "Ti", "e6", "e-2"}
	for i := 0; i < 40; i++ {
		n := 1 + r.Intn(17)
		b := make([]byte, n)
		b[0] = byte('1' + r.Intn(9))
		for j := 1; j < n; j++ {
			b[j] = byte('0' + r.Intn(10))
		}
		num := string(b)
		if p := r.Intn(n + 2); p > 0 && p < n {
			num = num[:p] + "." + num[p:]
		}
		out = append(out, num+suffixes[r.Intn(len(suffixes))])
	}
	return out
}

// TestQuantityPrecisionRoundTrip: every quantity of precisionQuantities,
// as the etcd chart's size and as its cpu, memory and ephemeral-storage
// limits (ratios varied), is rendered by the library, the generated etcd
// chart and the upstream etcd chart. The library and the generated chart
// render the same objects or refuse with the same message; where the
// library renders, the upstream chart renders the same limits, requests
// (as the API server stores them) and, for a size in Ki, Mi or Gi (the
// only units its quota helper knows: SPEC's difference 4), the same
// quotaBackendBytes.
func TestQuantityPrecisionRoundTrip(t *testing.T) {
	h := helms(t)[0]
	pool := newUpstreamPool(t, upstreamDir())
	ratios := []string{"10", "1", "3", "1.5", "7", "2.5", "40"}
	rendered, refused := 0, 0
	for i, q := range precisionQuantities() {
		for j, field := range []string{"size", "cpu", "memory", "ephemeral-storage"} {
			values := map[string]any{"_cluster": map[string]any{
				"cpu-allocation-ratio": ratios[(i+j)%len(ratios)], "memory-allocation-ratio": ratios[(i+2*j)%len(ratios)],
				"ephemeral-storage-allocation-ratio": ratios[(i+3*j)%len(ratios)]}}
			if field == "size" {
				values["size"] = q
			} else {
				values["resources"] = map[string]any{field: q}
			}
			doc, err := json.Marshal(values)
			if err != nil {
				t.Fatal(err)
			}
			in := renderInput{caller: naming.CallerEtcd, release: "etcd", namespace: "tenant-root", values: doc}
			t.Run(fmt.Sprintf("%s=%s", field, q), func(t *testing.T) {
				compareRenders(t, h, in)
				lib, err := goRender(in)
				if err != nil {
					refused++
					return
				}
				rendered++
				up, err := pool.render(oracleInput{caller: in.caller, release: in.release, namespace: in.namespace}, doc)
				if err != nil {
					t.Fatalf("the library renders %s, the upstream chart fails: %v", doc, err)
				}
				want, got := etcdClusterOf(t, lib), etcdClusterOf(t, up)
				for _, path := range [][]string{{"resources", "limits"}, {"resources", "requests"}} {
					w, g := quantitiesAt(want, path...), quantitiesAt(got, path...)
					if fmt.Sprint(w) != fmt.Sprint(g) {
						t.Errorf("%s: library %v, upstream chart %v", strings.Join(path, "."), w, g)
					}
				}
				if field == "size" && (strings.HasSuffix(q, "Ki") || strings.HasSuffix(q, "Mi") || strings.HasSuffix(q, "Gi")) {
					w, g := fmt.Sprint(dig(want, "options", "quotaBackendBytes")), fmt.Sprint(dig(got, "options", "quotaBackendBytes"))
					if w != g {
						t.Errorf("quotaBackendBytes of %s: library %s, upstream chart %s", q, w, g)
					}
				}
			})
		}
	}
	t.Logf("%d renders alike on all three, %d refused by the library and the generated chart alike", rendered, refused)
	if rendered < 100 || refused < 100 {
		t.Errorf("too few of either: %d rendered, %d refused", rendered, refused)
	}
	_ = quantity.ChartDigits
}

// etcdClusterOf is the spec of the EtcdCluster of a render.
func etcdClusterOf(t *testing.T, doc string) map[string]any {
	t.Helper()
	objs, err := oracleCanon(doc, "tenant-root")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if o.val["kind"] == "EtcdCluster" {
			spec, _ := o.val["spec"].(map[string]any)
			return spec
		}
	}
	t.Fatalf("no EtcdCluster in %s", doc)
	return nil
}

// quantitiesAt are the quantities of a map at path, each as the API server
// stores it (its canonical form).
func quantitiesAt(spec map[string]any, path ...string) map[string]string {
	m, _ := dig(spec, path...).(map[string]any)
	out := map[string]string{}
	for k, v := range m {
		q, err := resource.ParseQuantity(fmt.Sprint(v))
		if err != nil {
			out[k] = fmt.Sprintf("not a quantity: %v", v)
			continue
		}
		out[k] = q.String()
	}
	return out
}

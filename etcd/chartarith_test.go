package etcd_test

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testtier"
	"github.com/etcdshapes/etcdshapes/invalid"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The charts' float64 arithmetic, modelled from Sprig v3.3.0 as Helm
// v3.22 runs it (roundtrip/ runs the real charts): float64 is
// cast.ToFloat64 (strconv.ParseFloat, 0 for a text it cannot read), and
// mulf and divf go through shopspring/decimal: each float64 argument
// becomes its shortest decimal (NewFromFloat), mulf multiplies them
// exactly, divf divides to 16 places rounding half away from zero (Div),
// and the result becomes the nearest float64 (Rat().Float64()).

func sprigDecimal(f float64) *big.Rat {
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	return r
}

func nearest(r *big.Rat) float64 { f, _ := r.Float64(); return f }

func mulf(a float64, bs ...float64) float64 {
	p := sprigDecimal(a)
	for _, b := range bs {
		p.Mul(p, sprigDecimal(b))
	}
	return nearest(p)
}

func divf(a, b float64) float64 {
	q := new(big.Rat).Quo(sprigDecimal(a), sprigDecimal(b))
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(16), nil)
	s := new(big.Rat).Mul(new(big.Rat).Abs(q), new(big.Rat).SetInt(scale))
	n := new(big.Int).Quo(s.Num(), s.Denom())
	if new(big.Rat).Sub(s, new(big.Rat).SetInt(n)).Cmp(big.NewRat(1, 2)) >= 0 {
		n.Add(n, big.NewInt(1))
	}
	if q.Sign() < 0 {
		n.Neg(n)
	}
	return nearest(new(big.Rat).SetFrac(n, scale))
}

func castFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return f
}

// upstreamUnits are cozy-lib's toFloat units in the order its range over
// the merged dict visits them (sorted keys); the last suffix that matches
// wins.
var upstreamUnits = []struct {
	suffix string
	unit   float64
}{{"E", 1e18}, {"Ei", 0x1p60}, {"G", 1e9}, {"Gi", 0x1p30}, {"Ki", 0x1p10}, {"M", 1e6}, {"Mi", 0x1p20}, {"P", 1e15}, {"Pi", 0x1p50},
	{"T", 1e12}, {"Ti", 0x1p40}, {"k", 1e3}, {"m", 1e-3}, {"n", 1e-9}, {"u", 1e-6}}

// upstreamFloat is cozy-lib.resources.toFloat of a string quantity.
func upstreamFloat(s string) float64 {
	v, unit := s, 1.0
	for _, u := range upstreamUnits {
		if strings.HasSuffix(s, u.suffix) {
			v, unit = strings.TrimSuffix(s, u.suffix), u.unit
		}
	}
	return mulf(castFloat(v), unit)
}

// upstreamQuota is cozy-lib.etcd.quotaBackendBytes: the first run of
// digits and dots times Ki, Mi or Gi (SPEC's difference 4: no other unit),
// times 0.95, printed with %.0f.
func upstreamQuota(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	unit := map[string]float64{"Ki": 1024, "Mi": 1048576, "Gi": 1073741824}[s[i:]]
	return fmt.Sprintf("%.0f", mulf(mulf(castFloat(s[:i]), unit), 0.95))
}

// generatedFloat is the generated charts' etcdshapes.check.quantity: a
// decimal suffix or exponent read with the number by one ParseFloat, a
// binary one multiplied by factors Sprig's decimals hold exactly (2^60 as
// 2^30 twice).
func generatedFloat(s string) (f float64, num string, factors []float64) {
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' && r != '+' && r != '-' })
	if i < 0 {
		i = len(s)
	}
	num, suffix := s[:i], s[i:]
	binary := map[string][]float64{"Ki": {1024}, "Mi": {1048576}, "Gi": {1073741824}, "Ti": {1099511627776}, "Pi": {1125899906842624}, "Ei": {1073741824, 1073741824}}
	decimal := map[string]int{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
	if fs, ok := binary[suffix]; ok {
		return mulf(castFloat(num), fs...), num, fs
	}
	if e, ok := decimal[suffix]; ok {
		return castFloat(fmt.Sprintf("%se%d", num, e)), num, nil
	}
	return castFloat(num + suffix), num, nil
}

// generatedQuota is etcdshapes.check.quota: one exact product, rounded once.
func generatedQuota(s string) string {
	f, num, factors := generatedFloat(s)
	b := mulf(f, 0.95)
	if factors != nil {
		b = mulf(castFloat(num), append(factors, 0.95)...)
	}
	return fmt.Sprintf("%.0f", b)
}

// chartRequest is the sanitiser's request of a limit the chart read as f:
// cpu / ratio printed with %v, memory and ephemeral-storage the quotient
// truncated to whole bytes ("" from 2^63 on, which the chart turns into
// garbage and the library refuses).
func chartRequest(name string, f float64, ratio string) string {
	q := divf(f, castFloat(ratio))
	if name == "cpu" {
		return fmt.Sprint(q)
	}
	if !(q < 1<<63) {
		return ""
	}
	return strconv.FormatInt(int64(q), 10)
}

// chartArithQuantities are quantities around every rule of
// quantity.ChartRule: every suffix and exponent form, both exponent
// signs, numbers of 14 to 17 significant digits, binary values that gain
// digits, fractions of a nano-unit, values around 2^53, fractional Ei,
// and random ones of 1 to 18 digits.
func chartArithQuantities() []string {
	suffixes := []string{"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e3", "e-3", "e+9", "e-9", "E12", "E-6", "e18"}
	out := []string{
		"0.1234567890123456789", "123456789012345678m", "1.5n", "0.5n", "1e-10", "0.0000000001", "0.1Ki", "0.0000000001Ki", "0.123456789Gi", "999999Gi", "99999Gi",
		"99Ti", "999Ti", "1Pi", "1Ei", "3Ei", "7Ei", "9007199254740993", "9e18", "1234567890123450000", "1E", "4.76837158203125Ei", "0.0000213623046875Ei",
		"4Gi", "512Mi", "256Mi", "1000m", "0.1", "250m", "1.3Mi", "1.5Gi", "1e9", "1.073741824e+09", "333m", "0.001", "7", "2000000000n", "1500000u",
	}
	for _, suffix := range suffixes {
		for n := 14; n <= 17; n++ {
			out = append(out, strings.Repeat("9", n)+suffix, "1"+strings.Repeat("2", n-1)+suffix, "0."+strings.Repeat("3", n)+suffix, "1234."+strings.Repeat("7", n-4)+suffix)
		}
	}
	r := rand.New(rand.NewSource(53))
	for i := 0; i < chartArithRandom; i++ {
		n := 1 + r.Intn(18)
		b := make([]byte, n)
		b[0] = byte('1' + r.Intn(9))
		for j := 1; j < n; j++ {
			b[j] = byte('0' + r.Intn(10))
		}
		num := string(b)
		if p := r.Intn(n + 4); p > 0 && p < n {
			num = num[:p] + "." + num[p:]
		} else if p > n {
			num = "0." + strings.Repeat("0", p-n) + num
		}
		out = append(out, num+suffixes[r.Intn(len(suffixes))])
	}
	return out
}

// chartArithRandom is how many random quantities chartArithQuantities
// ends with.
const chartArithRandom = 4000

// chartRatios are ratios of 1 or more, and below 1 (which a cpu request
// takes beside a limit only when no limit makes the request exceed it).
var chartRatios = []string{"1", "1.5", "3", "7", "10", "40", "2.5", "9.99", "33", "1.1", "6", "100", "1e15", "0.3"}

// chartAgreement compares the library with both charts' arithmetic for
// one quantity as the limit of name at ratio: "" when they agree or the
// library refuses, else the difference.
func chartAgreement(name, s, ratio string) (refused bool, diff string) {
	q, err := quantity.Parse("limit", s, s)
	if err == nil {
		_, err = etcd.SanitizeResources(corev1.ResourceList{corev1.ResourceName(name): q}, etcd.Ratios{CPU: ratio, Memory: ratio, EphemeralStorage: ratio})
	}
	var lib string
	if err == nil {
		res, _ := etcd.SanitizeResources(corev1.ResourceList{corev1.ResourceName(name): q}, etcd.Ratios{CPU: ratio, Memory: ratio, EphemeralStorage: ratio})
		req := res.Requests[corev1.ResourceName(name)]
		lib = req.String()
		// At a ratio of 1 or more no request exceeds its limit: the
		// library has no refusal for it.
		if castFloat(ratio) >= 1 && req.Cmp(q) > 0 {
			return false, fmt.Sprintf("request %s above the limit %s at ratio %s", lib, s, ratio)
		}
	}
	up := chartRequest(name, upstreamFloat(s), ratio)
	gf, _, _ := generatedFloat(s)
	gen := chartRequest(name, gf, ratio)
	if err != nil {
		var ne *invalid.Error
		if !errors.As(err, &ne) {
			return true, fmt.Sprintf("not an *invalid.Error: %v", err)
		}
		return true, ""
	}
	for who, got := range map[string]string{"upstream": up, "generated": gen} {
		if !sameQuantity(got, lib) {
			return false, fmt.Sprintf("%s %s of %s at ratio %s: library %s, %s chart %s", name, "request", s, ratio, lib, who, got)
		}
	}
	return false, ""
}

// sameQuantity: two spellings of one stored quantity.
func sameQuantity(a, b string) bool {
	qa, errA := resource.ParseQuantity(a)
	qb, errB := resource.ParseQuantity(b)
	return errA == nil && errB == nil && qa.Cmp(qb) == 0
}

// quotaAgreement compares etcd.QuotaBackendBytes with the generated
// chart's quota and, for the units the upstream helper knows, with its.
func quotaAgreement(s string) (refused bool, diff string) {
	q, err := quantity.Parse("size", s, s)
	var n int64
	if err == nil {
		n, err = etcd.QuotaBackendBytes(q)
	}
	if err != nil {
		return true, ""
	}
	lib := strconv.FormatInt(n, 10)
	if got := generatedQuota(s); got != lib {
		return false, fmt.Sprintf("quota of %s: library %s, generated chart %s", s, lib, got)
	}
	if strings.HasSuffix(s, "Ki") || strings.HasSuffix(s, "Mi") || strings.HasSuffix(s, "Gi") {
		if got := upstreamQuota(s); got != lib {
			return false, fmt.Sprintf("quota of %s: library %s, upstream chart %s", s, lib, got)
		}
	}
	return false, ""
}

// TestChartArithmetic is the differential test of the charts' float64
// arithmetic against the library's exact one: for every quantity the
// library admits (quantity.ChartRule), as a cpu, memory and
// ephemeral-storage limit at every ratio and as a size, the upstream
// chart, the generated chart and the library compute the same requests
// and quota, and no request exceeds its limit at a ratio of 1 or more.
// It also counts the refused quantities at which the charts compute
// something else than the exact arithmetic: the rule is what keeps them
// out, and they must exist for the test to prove it.
func TestChartArithmetic(t *testing.T) {
	qs := chartArithQuantities()
	// The quick tier: the edge forms and the first 800 random ones.
	quick := len(qs) - chartArithRandom + 800
	run := func(qs []string) (admitted, refused, caught int) {
		for _, s := range qs {
			for i, name := range []string{"cpu", "memory", "ephemeral-storage"} {
				for j, ratio := range chartRatios {
					if (i+j)%3 != 0 && !strings.HasPrefix(s, "9") {
						continue // a third of the pairs, every ratio for each resource
					}
					wasRefused, diff := chartAgreement(name, s, ratio)
					if diff != "" {
						t.Errorf("%s", diff)
						continue
					}
					if wasRefused {
						refused++
						if exact := exactRequest(name, s, ratio); exact != "" && !sameQuantity(exact, chartRequest(name, upstreamFloat(s), ratio)) {
							caught++
						}
						continue
					}
					admitted++
				}
			}
			if _, diff := quotaAgreement(s); diff != "" {
				t.Errorf("%s", diff)
			}
		}
		t.Logf("%d limit/ratio pairs admitted and computed alike, %d refused, of which the upstream chart computes %d otherwise than exactly", admitted, refused, caught)
		return admitted, refused, caught
	}
	if admitted, _, caught := run(qs[:quick]); admitted < 5000 || caught < 100 {
		t.Errorf("too few pairs prove the rule: %d admitted, %d refused ones the charts compute otherwise", admitted, caught)
	}
	testtier.SkipUnlessSlow(t, "the other random quantities")
	run(qs[quick:])
}

// exactRequest is the request the library's formula gives from the exact
// value of s (what it computed before the rule: the value divided by the
// ratio's decimal to 16 places, then a float64), "" for a text beyond
// the bounds.
func exactRequest(name, s, ratio string) string {
	if quantity.Rule(s) != "" {
		return ""
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return ""
	}
	v, _ := new(big.Rat).SetString(q.AsDec().String())
	quo := new(big.Rat).Quo(v, sprigDecimal(castFloat(ratio)))
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(16), nil)
	sc := new(big.Rat).Mul(new(big.Rat).Abs(quo), new(big.Rat).SetInt(scale))
	n := new(big.Int).Quo(sc.Num(), sc.Denom())
	if new(big.Rat).Sub(sc, new(big.Rat).SetInt(n)).Cmp(big.NewRat(1, 2)) >= 0 {
		n.Add(n, big.NewInt(1))
	}
	f := nearest(new(big.Rat).SetFrac(n, scale))
	if name == "cpu" {
		return fmt.Sprint(f)
	}
	if !(f < 1<<63) {
		return ""
	}
	return strconv.FormatInt(int64(f), 10)
}

// FuzzChartArithmetic: for any text the library admits as a limit or a
// size, the charts compute what it computes. Seeded with the quantities of
// TestChartArithmetic:
//
//	go test ./etcd -run '^$' -fuzz '^FuzzChartArithmetic$' -fuzztime 100000x
func FuzzChartArithmetic(f *testing.F) {
	for i, s := range chartArithQuantities() {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, s string, pick uint8) {
		if len(s) > 200 {
			return
		}
		name := []string{"cpu", "memory", "ephemeral-storage"}[int(pick)%3]
		ratio := chartRatios[int(pick)%len(chartRatios)]
		if _, diff := chartAgreement(name, s, ratio); diff != "" {
			t.Fatalf("%s", diff)
		}
		if _, diff := quotaAgreement(s); diff != "" {
			t.Fatalf("%s", diff)
		}
	})
}

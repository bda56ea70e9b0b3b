package quantity

import (
	"errors"
	"math"
	"math/big"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"gopkg.in/inf.v0"
	"k8s.io/apimachinery/pkg/api/resource"
)

// chartForms are texts around every rule of ChartRule: numbers of 14 to
// 17 significant digits in every suffix and both exponent signs, zeros
// that lead and trail (not significant), binary suffixes whose values
// gain digits, fractions of a nano-unit, values around 2^53 that a
// float64 holds or does not, and Ei values the upstream's 2^60 reads
// alike or not.
func chartForms() []string {
	suffixes := []string{"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e3", "e-3", "e+9", "e-9", "E12", "E-12", "e-5", "e18"}
	out := []string{
		"0.1234567890123456789", "123456789012345678m", "12345678901234.5", "123456789012345.6", "1234567890123456", "123456789012345",
		"0.000000000000000000000000000000000000000000000000001e51", "1000000000000000000000000000000000000000000000000e-30", "100000000000000000000",
		"1.000000000000000000000000000000", "000000000000000000000000000000001", "1.5n", "0.5n", "2n", "1e-9", "1e-10", "0.0000000001", "0.000000001", "1.0000000001",
		"0.1Ki", "0.001Ki", "0.0000000001Ki", "0.0000000005Ki", "0.123456789Gi", "999999Gi", "99999Gi", "99Ti", "100Ti", "999Ti", "1Pi", "1Ei", "4Ei",
		"9007199254740992", "9007199254740993", "9007199254740994", "9e18", "9.2e18", "1234567890123450000", "1E", "9E", "8Pi", "8192Ti",
		"4.76837158203125Ei", "0.0000000476837158203125Ei", "0.0000213623046875Ei", "0.0000000091552734375Ei", "2.384185791015625Ei",
		"4Gi", "512Mi", "256Mi", "1000m", "0.1", "250m", "5000m", "8Gi", "1.5Gi", "1e9", "1.073741824e+09", "1e-5", "-1.5n", "-999999Gi", "-1", "+1.5",
		".5", "5.", "0", "0n", "0Ei", "-0", ".Ki",
	}
	for _, sign := range []string{"", "-"} {
		for _, suffix := range suffixes {
			for n := 14; n <= 17; n++ {
				d := strings.Repeat("9", n)
				r := "1" + strings.Repeat("2", n-1)
				out = append(out, sign+d+suffix, sign+"0."+d+suffix, sign+d[:3]+"."+d[3:]+suffix, sign+r+suffix, sign+"1"+strings.Repeat("0", n-2)+"1"+suffix)
			}
		}
	}
	r := rand.New(rand.NewSource(19))
	for i := 0; i < 3000; i++ {
		n := 1 + r.Intn(18)
		b := make([]byte, n)
		for j := range b {
			b[j] = byte('0' + r.Intn(10))
		}
		num := string(b)
		if p := r.Intn(n + 4); p < n {
			num = num[:p] + "." + num[p:]
		} else if p > n {
			num = "0." + strings.Repeat("0", p-n) + num
		}
		out = append(out, num+suffixes[r.Intn(len(suffixes))])
	}
	return out
}

// chartReference is ChartRule computed another way: from grammar's
// parts and the exact value spell gives, with the value's digits read
// from its decimal expansion (FloatString) rather than counted on an
// integer.
func chartReference(t *testing.T, s string) string {
	if rule := Rule(s); rule != "" {
		return rule
	}
	m := grammar.FindStringSubmatch(s)
	sp, _ := spell(t, s)
	sigDigits := func(dec string) int {
		return len(strings.Trim(strings.ReplaceAll(strings.TrimLeft(dec, "+-"), ".", ""), "0"))
	}
	if sigDigits(m[2]) > 15 {
		return DigitsChartRule
	}
	v := new(big.Rat).Abs(sp.value)
	// A value of the grammar ends within 99+64 decimals.
	if sigDigits(v.FloatString(200)) > 15 {
		return DigitsChartRule
	}
	if !new(big.Rat).Mul(v, big.NewRat(1_000_000_000, 1)).IsInt() {
		return NanoChartRule
	}
	if v.Cmp(new(big.Rat).SetFloat64(1<<53)) >= 0 {
		if f, _ := v.Float64(); new(big.Rat).SetFloat64(f).Cmp(v) != 0 {
			return ExactChartRule
		}
	}
	if m[3] == "Ei" {
		num := strings.TrimSuffix(strings.TrimPrefix(m[2], "."), ".")
		if strings.HasPrefix(m[2], ".") {
			num = "0." + num
		}
		mant, _ := new(big.Rat).SetString("0" + num)
		up, _ := mant.Mul(mant, new(big.Rat).SetInt64(1152921504606847000)).Float64()
		if want, _ := v.Float64(); up != want {
			return EiChartRule
		}
	}
	return ""
}

// shortest is the decimal Sprig's mulf and divf compute with for a
// float64: its shortest spelling (shopspring/decimal's NewFromFloat).
func shortest(f float64) *big.Rat {
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	return r
}

// chartHolds reports whether the charts' arithmetic holds the value of an
// admitted text exactly: float64(number) is the number (both charts read
// it so), and the float64 the charts compute for the value has the value
// as its shortest decimal, the one mulf and divf go on with.
func chartHolds(t *testing.T, s string) bool {
	m := grammar.FindStringSubmatch(s)
	sp, _ := spell(t, s)
	num := m[1] + m[2]
	if strings.Trim(m[2], ".") == "" {
		return sp.value.Sign() == 0
	}
	f, err := strconv.ParseFloat(num, 64)
	want, _ := new(big.Rat).SetString(strings.TrimSuffix(strings.Replace(num, "+", "", 1), "."))
	if err != nil || shortest(f).Cmp(want) != 0 {
		return false
	}
	vf, _ := sp.value.Float64()
	return shortest(vf).Cmp(sp.value) == 0
}

// TestChartRule: ChartRule agrees with chartReference on every form, meets
// each of its rules, and every text it admits is one the charts hold
// exactly.
func TestChartRule(t *testing.T) {
	met := map[string]int{}
	for _, s := range append(chartForms(), exponentForms()...) {
		got, want := ChartRule(s), chartReference(t, s)
		if got != want {
			t.Errorf("ChartRule(%q) = %q, want %q", s, got, want)
			continue
		}
		met[got]++
		if got == "" && !chartHolds(t, s) {
			t.Errorf("ChartRule admits %q, which the charts do not hold exactly", s)
		}
	}
	for _, rule := range []string{"", DigitsChartRule, NanoChartRule, ExactChartRule, EiChartRule} {
		if met[rule] == 0 {
			t.Errorf("no form met %q", rule)
		}
	}
	t.Logf("%v", met)
}

// FuzzChartRule: ChartRule agrees with chartReference on any text, and
// admits only texts the charts hold exactly. Seeded with chartForms:
//
//	go test ./internal/quantity -run '^$' -fuzz '^FuzzChartRule$' -fuzztime 100000x
func FuzzChartRule(f *testing.F) {
	for _, s := range chartForms() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := ChartRule(s)
		if want := chartReference(t, s); got != want {
			t.Fatalf("ChartRule(%q) = %q, want %q", s, got, want)
		}
		if got != "" {
			return
		}
		if !chartHolds(t, s) {
			t.Fatalf("ChartRule admits %q, which the charts do not hold exactly", s)
		}
		q, err := Parse("f", s, s)
		if err != nil {
			t.Fatalf("Parse of admitted %q: %v", s, err)
		}
		if err := ChartCheck("f", q); err != nil {
			t.Fatalf("ChartCheck of admitted %q: %v", s, err)
		}
	})
}

// TestChartCheck: a quantity built in Go is held to the rules of its
// value, whatever its representation, and quoted as it reads.
func TestChartCheck(t *testing.T) {
	dec := func(unscaled string, scale inf.Scale) resource.Quantity {
		u, _ := new(big.Int).SetString(unscaled, 10)
		return *resource.NewDecimalQuantity(*inf.NewDecBig(u, scale), resource.DecimalSI)
	}
	for _, c := range []struct {
		name  string
		q     resource.Quantity
		value string
		rule  string
	}{
		{"4Gi", resource.MustParse("4Gi"), "", ""},
		{"1.5Gi", resource.MustParse("1.5Gi"), "", ""},
		{"1n", resource.MustParse("1n"), "", ""},
		{"15 digits", dec("999999999999999", 0), "", ""},
		{"15 digits of nanos", dec("999999999999999", 9), "", ""},
		{"16 digits", dec("1234567890123456", 0), "1234567890123456", DigitsChartRule},
		{"trailing zeros", dec("9000000000000000000", 0), "", ""},
		{"15 digits times 1000, not a float64", dec("123456789012345000", 0), "123456789012345k", ExactChartRule},
		{"a fraction of a nano", dec("15", 10), "0.0000000015", NanoChartRule},
		{"a tenth of a nano, as ParseQuantity would not hold it", *resource.NewScaledQuantity(1, -10), "0.0000000001", NanoChartRule},
		{"2^53+1 scaled", dec("9007199254740993", 0), "9007199254740993", DigitsChartRule},
		{"not a float64", dec("123456789012345", -4), "1234567890123450k", ExactChartRule},
		{"9e18", dec("9", -18), "", ""},
		{"1Ei", resource.MustParse("1Ei"), "1Ei", DigitsChartRule},
		{"999999Gi", resource.MustParse("999999Gi"), "999999Gi", DigitsChartRule},
		{"the bounds first", *resource.NewScaledQuantity(1, 999999999), "1e999999999", ExponentRule},
		{"zero", resource.Quantity{}, "", ""},
	} {
		err := ChartCheck("Size", c.q)
		if c.rule == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var ne *invalid.Error
		if !errors.As(err, &ne) || ne.Field != "Size" || ne.Value != c.value || ne.Rule != c.rule {
			t.Errorf("%s: ChartCheck = %#v, want value %q and %q", c.name, err, c.value, c.rule)
		}
	}
	// Every admitted text's quantity passes, and every text ChartRule
	// refuses for its value (not the number as written, not Ei) gives a
	// quantity ChartCheck refuses with the same rule.
	for _, s := range chartForms() {
		if Rule(s) != "" {
			continue
		}
		q, err := resource.ParseQuantity(s)
		if err != nil {
			continue
		}
		got := ""
		var ne *invalid.Error
		if err := ChartCheck("f", q); errors.As(err, &ne) {
			got = ne.Rule
		}
		m := grammar.FindStringSubmatch(s)
		sp, _ := spell(t, s)
		// ParseQuantity rounds a fraction of a nano up: its quantity
		// holds another value, refused or not by its own digits.
		nanoRounded := !new(big.Rat).Mul(sp.value, big.NewRat(1_000_000_000, 1)).IsInt()
		want := ChartRule(s)
		if want == EiChartRule || (want == DigitsChartRule && len(strings.Trim(strings.ReplaceAll(m[2], ".", ""), "0")) > 15) || nanoRounded {
			continue
		}
		if got != want {
			t.Errorf("ChartCheck(%q) = %q, ChartRule %q", s, got, want)
		}
	}
	_ = math.Abs
}

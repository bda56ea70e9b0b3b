package etcd

import (
	"math/big"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The chart's outputs for these inputs, as the reference renders print them
// (the chart prints plain numbers; compare as quantities).
func TestSanitizeMatchesChartOutputs(t *testing.T) {
	cases := []struct {
		limit, ratio, want string
		name               corev1.ResourceName
	}{
		{"1000m", "10", "0.1", corev1.ResourceCPU},
		{"2", "10", "0.2", corev1.ResourceCPU},
		{"1000m", "4", "0.25", corev1.ResourceCPU},
		{"250m", "10", "0.025", corev1.ResourceCPU},
		{"5000m", "10", "0.5", corev1.ResourceCPU},
		{"250m", "4", "0.0625", corev1.ResourceCPU},
		{"5000m", "4", "1.25", corev1.ResourceCPU},
		{"512Mi", "1", "536870912", corev1.ResourceMemory},
		{"1Gi", "1", "1073741824", corev1.ResourceMemory},
		{"512Mi", "2", "268435456", corev1.ResourceMemory},
		{"256Mi", "2", "134217728", corev1.ResourceMemory},
		{"8Gi", "2", "4294967296", corev1.ResourceMemory},
		// divf keeps 16 decimals; the API server rounds up to nano.
		{"1", "3", "0.3333333333333333", corev1.ResourceCPU},
		{"100m", "3", "0.0333333333333333", corev1.ResourceCPU},
		// %v switches to an exponent below 1e-4.
		{"1m", "100", "1e-05", corev1.ResourceCPU},
		// floor, not round: 1000Mi / 1.5 = 699050666.67.
		{"1000Mi", "1.5", "699050666", corev1.ResourceMemory},
		{"3Gi", "40", "80530636", corev1.ResourceEphemeralStorage},
	}
	for _, c := range cases {
		r := Ratios{CPU: c.ratio, Memory: c.ratio, EphemeralStorage: c.ratio}
		got, err := SanitizeResources(corev1.ResourceList{c.name: resource.MustParse(c.limit)}, r)
		require.NoError(t, err)
		want := resource.MustParse(c.want)
		req := got.Requests[c.name]
		assert.Equal(t, want.String(), req.String(), "%s %s / %s", c.name, c.limit, c.ratio)
		lim := got.Limits[c.name]
		assert.Equal(t, 0, lim.Cmp(resource.MustParse(c.limit)), "limit is the input")
	}
}

// Properties over many inputs: the cpu request is the exact quotient to
// within the nano rounding; memory is the floor of the exact quotient.
func TestSanitizeProperties(t *testing.T) {
	limits := []string{"1", "3", "7m", "999m", "1500m", "12", "64", "1Ki", "1Mi", "3Gi", "100M", "1000", "12345678901"}
	ratios := []string{"1", "2", "3", "7", "0.5", "1.5", "10", "40", "0.3"}
	for _, l := range limits {
		for _, rs := range ratios {
			q := resource.MustParse(l)
			// Ephemeral storage divides as memory does (byteRequest),
			// for limits below MinMemory too, which memory refuses.
			got, err := SanitizeResources(corev1.ResourceList{corev1.ResourceCPU: q, corev1.ResourceEphemeralStorage: q},
				Ratios{CPU: rs, EphemeralStorage: rs})
			require.NoError(t, err)
			exact := new(big.Rat).Quo(decRat(q.AsDec().String()), decRat(rs))

			cpu := got.Requests[corev1.ResourceCPU]
			diff := new(big.Rat).Sub(decRat(cpu.AsDec().String()), exact)
			diff.Abs(diff)
			// Nano rounding, plus the float64 step the chart takes.
			tolerance := new(big.Rat).Add(big.NewRat(2, 1e9), new(big.Rat).Mul(new(big.Rat).Abs(exact), big.NewRat(1, 1e15)))
			assert.True(t, diff.Cmp(tolerance) <= 0, "cpu %s/%s = %s, exact %s", l, rs, cpu.String(), exact.FloatString(12))

			mem := got.Requests[corev1.ResourceEphemeralStorage]
			floor := new(big.Int).Quo(exact.Num(), exact.Denom())
			// The float64 step can lose the last unit of very large values.
			d := new(big.Int).Sub(big.NewInt(mem.Value()), floor)
			assert.True(t, d.CmpAbs(big.NewInt(1)) <= 0 || floor.BitLen() > 52, "memory %s/%s = %d, floor %s", l, rs, mem.Value(), floor)
		}
	}
}

func decRat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad decimal " + s)
	}
	return r
}

func TestRatiosRefused(t *testing.T) {
	for _, r := range []Ratios{{CPU: "0"}, {CPU: "-1"}, {Memory: "abc"}, {EphemeralStorage: "NaN"}, {CPU: "Inf"}} {
		_, err := SanitizeResources(corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}, r)
		assert.Error(t, err, "%+v", r)
	}
}

// The fast path of quotient gives the decimal path's float64 wherever it
// applies, and applies to the platform's default ratios.
func TestExactQuotientMatchesDecimal(t *testing.T) {
	amounts := []string{"0", "1", "3", "7m", "999m", "1500m", "12", "64", "1Ki", "1Mi", "3Gi", "100M", "1000",
		"12345678901", "1m", "123456789m", "9007199254740991", "9007199254740993", "9007199254740991m", "1Ei", "8Ei",
		"1n", "1500u", "0.5", "1.25", "3e3", "1e15", "17179869184", "4503599627370497"}
	ratios := []string{"1", "2", "4", "5", "8", "10", "16", "20", "25", "40", "80", "100", "1000", "1024", "65536",
		"1e15", "3", "6", "7", "0.5", "1.5", "0.3", "2.5", "1000000000000", "4294967296", "562949953421312"}
	applied := 0
	for _, rs := range ratios {
		r, err := parseRatio("ratio", rs, "")
		require.NoError(t, err)
		for _, a := range amounts {
			q := resource.MustParse(a)
			want := decimalQuotient(q, r)
			if got, ok := exactQuotient(q, r); ok {
				applied++
				assert.Equal(t, want, got, "%s / %s", a, rs)
			}
			assert.Equal(t, want, quotient(q, r), "%s / %s", a, rs)
		}
	}
	assert.Greater(t, applied, len(amounts)*10, "the fast path applies to whole 2^a·5^b ratios")
	for _, rs := range []string{DefaultCPUAllocationRatio, DefaultMemoryAllocationRatio, DefaultEphemeralStorageAllocationRatio} {
		r, err := parseRatio("ratio", rs, "")
		require.NoError(t, err)
		_, ok := exactQuotient(resource.MustParse("512Mi"), r)
		assert.True(t, ok, "default ratio %s takes the fast path", rs)
		_, ok = exactQuotient(resource.MustParse("250m"), r)
		assert.True(t, ok, "default ratio %s takes the fast path for milli-cpu", rs)
	}
}

func TestTerminatingPlaces(t *testing.T) {
	for n, want := range map[int64]int{1: 0, 2: 1, 4: 2, 5: 1, 10: 1, 40: 3, 1000: 3, 1024: 10, 3: -1, 6: -1, 7: -1, 1 << 52: 52} {
		assert.Equal(t, want, terminatingPlaces(n), "%d", n)
	}
}

// FuzzQuotient: the fast path and the chart's decimal arithmetic agree on
// every amount (a value at a decimal scale) and ratio.
//
//	go test ./etcd -run '^$' -fuzz FuzzQuotient -fuzztime 200000x
func FuzzQuotient(f *testing.F) {
	f.Add(int64(512), int8(0), int64(10))
	f.Add(int64(250), int8(-3), int64(40))
	f.Add(int64(1)<<53-1, int8(0), int64(1))
	f.Add(int64(1)<<53+1, int8(-3), int64(2))
	f.Add(int64(7), int8(3), int64(1024))
	f.Add(int64(1), int8(-9), int64(1<<52))
	f.Fuzz(func(t *testing.T, value int64, scale int8, whole int64) {
		if value < 0 || whole <= 0 || whole > 1e15 || scale < -9 || scale > 18 {
			t.Skip()
		}
		q := *resource.NewScaledQuantity(value, resource.Scale(scale))
		r, err := parseRatio("ratio", strconv.FormatInt(whole, 10), "")
		require.NoError(t, err)
		if got, ok := exactQuotient(q, r); ok {
			require.Equal(t, decimalQuotient(q, r), got, "%s / %d", q.String(), whole)
		}
	})
}

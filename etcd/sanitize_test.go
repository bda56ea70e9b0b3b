package etcd

import (
	"math/big"
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
			got, err := SanitizeResources(corev1.ResourceList{corev1.ResourceCPU: q, corev1.ResourceMemory: q},
				Ratios{CPU: rs, Memory: rs})
			require.NoError(t, err)
			exact := new(big.Rat).Quo(decRat(q.AsDec().String()), decRat(rs))

			cpu := got.Requests[corev1.ResourceCPU]
			diff := new(big.Rat).Sub(decRat(cpu.AsDec().String()), exact)
			diff.Abs(diff)
			// Nano rounding, plus the float64 step the chart takes.
			tolerance := new(big.Rat).Add(big.NewRat(2, 1e9), new(big.Rat).Mul(new(big.Rat).Abs(exact), big.NewRat(1, 1e15)))
			assert.True(t, diff.Cmp(tolerance) <= 0, "cpu %s/%s = %s, exact %s", l, rs, cpu.String(), exact.FloatString(12))

			mem := got.Requests[corev1.ResourceMemory]
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

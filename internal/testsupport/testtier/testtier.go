// Package testtier says which tier of the tests runs. `go test ./...` runs
// the quick tier; `go test -tags slow ./...` (what .ci/run runs too) adds
// the slow tier: measurements of how the cost grows with the input, which
// need large inputs and repeated runs. docs/testing.md lists both.
//
// A slow test is compiled in both tiers (go vet sees it) and skips itself
// in the quick one, saying how to run it. Only tests import this package.
package testtier

import "testing"

// Tag is the build tag that adds the slow tier.
const Tag = "slow"

// SkipUnlessSlow skips t, naming what it leaves out, unless the slow tier
// runs (go test -tags slow).
func SkipUnlessSlow(t testing.TB, what string) {
	t.Helper()
	if !Slow {
		t.Skipf("slow tier: %s (go test -tags %s)", what, Tag)
	}
}

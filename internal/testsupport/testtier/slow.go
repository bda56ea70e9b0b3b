//go:build slow

package testtier

// Slow is true: the tests were built with -tags slow.
const Slow = true

//go:build !slow

package testtier

// Slow is false: the tests were built without -tags slow.
const Slow = false

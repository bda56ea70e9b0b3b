// Package bench holds the side-by-side benchmarks of etcdshapes and Helm.
// It is a module of its own so that Helm, which the benchmarks render the
// generated charts with, stays out of the library's go.mod.
//
//	cd bench && go test -run '^$' -bench . -benchmem -count 5
//
// docs/performance.md records and explains the figures.
package bench

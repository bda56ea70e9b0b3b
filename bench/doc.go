// Package bench holds the side-by-side benchmarks of etcdshapes and Helm.
// It is a module of its own so that Helm, which the benchmarks render the
// generated charts with, stays out of the library's go.mod.
//
// The README's performance table, the anchor being Helm rendering the
// upstream charts (../shared/upstream) beside the generated charts, their
// floors and the cheapest chart of their design, in instructions
// (cachegrind) and allocations, in one command:
//
//	cd bench && go run ./cmd/table
//
// CPU time beside the library, measured interleaved:
//
//	cd bench && go test -run '^$' -bench '^BenchmarkRender$' -benchtime 200x -count 9 | go run ./cmd/ratios
//
// Each run's "ratios" lines report the goals' ratios of that run;
// cmd/ratios prints the medians. docs/performance.md has the printer's
// figures.
package bench

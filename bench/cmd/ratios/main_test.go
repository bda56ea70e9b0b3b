package main

import (
	"strings"
	"testing"
)

// Two runs of one caller, as go test -bench -count 2 prints them.
const sample = `goos: linux
BenchmarkRender/etcd-chart/upstream-2     100  59048415 ns/op  20000000 cpu-ns/op  2198722 B/op  27000 allocs/op
BenchmarkRender/etcd-chart/generated-2    100  36377228 ns/op  13000000 cpu-ns/op  1999176 B/op  18000 allocs/op
BenchmarkRender/etcd-chart/floor-2        100  48436837 ns/op   9000000 cpu-ns/op  1385624 B/op  12000 allocs/op
BenchmarkRender/etcd-chart/genfloor-2     100  48436837 ns/op   8000000 cpu-ns/op  1385624 B/op  11000 allocs/op
BenchmarkRender/etcd-chart/library-2      100   3202285 ns/op    800000 cpu-ns/op    79341 B/op    600 allocs/op
BenchmarkRender/etcd-chart/ratios-2       100   0.65 gen/up-cpu   0.70 gen/up-allocs   0.40 floor/up-cpu   0.5 floor/up-allocs   0.36 genfloor/up-cpu   0.4 genfloor/up-allocs   20 up/lib-cpu   44 up/lib-allocs   0 ns/op
BenchmarkRender/etcd-chart/upstream-2     100  59048415 ns/op  22000000 cpu-ns/op  2198722 B/op  27000 allocs/op
BenchmarkRender/etcd-chart/generated-2    100  36377228 ns/op  15000000 cpu-ns/op  1999176 B/op  18000 allocs/op
BenchmarkRender/etcd-chart/floor-2        100  48436837 ns/op  11000000 cpu-ns/op  1385624 B/op  12000 allocs/op
BenchmarkRender/etcd-chart/genfloor-2     100  48436837 ns/op  10000000 cpu-ns/op  1385624 B/op  11000 allocs/op
BenchmarkRender/etcd-chart/library-2      100   3202285 ns/op   1200000 cpu-ns/op    79341 B/op    600 allocs/op
BenchmarkRender/etcd-chart/ratios-2       100   0.69 gen/up-cpu   0.68 gen/up-allocs   0.44 floor/up-cpu   0.5 floor/up-allocs   0.40 genfloor/up-cpu   0.4 genfloor/up-allocs   22 up/lib-cpu   46 up/lib-allocs   0 ns/op
PASS
`

func TestTable(t *testing.T) {
	samples, order, err := read(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	got := table(samples, order)
	for _, want := range []string{
		"Medians of 2 runs",
		"| etcd-chart | 21000 µs, 27000 allocs | 14000 µs, 18000 allocs | 10000 µs, 12000 allocs | 9000 µs, 11000 allocs | 1000 µs, 600 allocs |",
		"| 0.67x CPU, 0.69x allocs | 0.42x CPU, 0.50x allocs | 0.38x CPU, 0.40x allocs | 21x CPU, 45x allocs |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the table lacks %q:\n%s", want, got)
		}
	}
}

func TestNoResults(t *testing.T) {
	_, order, err := read(strings.NewReader("PASS\n"))
	if err != nil || len(order) != 0 {
		t.Fatalf("got %v, %v", order, err)
	}
}

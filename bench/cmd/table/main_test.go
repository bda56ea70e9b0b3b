package main

import "testing"

// TestParsers: the two lines the table is read from, as valgrind 3.19 and
// go test -benchmem print them; a format they do not match fails here
// rather than printing a table of zeros.
func TestParsers(t *testing.T) {
	for _, l := range []string{"==4242== I   refs:      63,213,401", "==7== I refs: 63,213,401"} {
		m := irefs.FindStringSubmatch(l)
		if m == nil || m[1] != "63,213,401" {
			t.Errorf("irefs on %q: %q", l, m)
		}
	}
	m := allocs.FindStringSubmatch("BenchmarkRender/etcd-chart/genfloor-2         \t     100\t   4764440 ns/op\t   5955933 cpu-ns/op\t 1362014 B/op\t   15502 allocs/op")
	if m == nil || m[1] != "etcd-chart" || m[2] != "genfloor" || m[3] != "15502" {
		t.Errorf("allocs: %q", m)
	}
	if m := allocs.FindStringSubmatch("BenchmarkRender/cluster/ratios-2 100 0 ns/op 0.84 gen/up-allocs"); m != nil {
		t.Errorf("allocs matched a ratios line: %q", m)
	}
}

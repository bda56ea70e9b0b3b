// Command ratios reads `go test -bench BenchmarkRender` output (several
// -count runs) on stdin and prints the README's performance table: per
// caller the median CPU time and allocations per render of the upstream
// chart (Helm's engine), the generated chart, the two floors (the upstream
// chart and the generated chart with no templating, each its own finished
// YAML) and the library, each run alone, and the
// medians of the ratios the goals are stated in, which BenchmarkRender's
// ratios lines measure interleaved: generated ÷ upstream (goal ≤ 0.7) and
// upstream ÷ library (goal ≥ 20).
//
//	cd bench && go test -run '^$' -bench '^BenchmarkRender$' -benchtime 200x -count 9 | go run ./cmd/ratios
//
// Medians are over the -count runs. CPU time is the process's (GC
// included); a loaded machine still slows it (shared caches and cores),
// which is why the ratios are measured interleaved.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// line is one result: BenchmarkRender/<caller>/<variant>-<procs> N <value unit>...
var line = regexp.MustCompile(`^BenchmarkRender/([^/\s]+)/([^\s-]+)(?:-\d+)?\s+\d+\s+(.*)$`)

type key struct{ caller, variant, unit string }

func main() {
	samples, order, err := read(os.Stdin)
	if err == nil && len(order) == 0 {
		err = fmt.Errorf("no BenchmarkRender results on stdin")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(1)
	}
	fmt.Print(table(samples, order))
}

func read(r io.Reader) (map[key][]float64, []string, error) {
	samples := map[key][]float64{}
	var order []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		caller, variant := m[1], m[2]
		if !seen[caller] {
			seen[caller] = true
			order = append(order, caller)
		}
		f := strings.Fields(m[3])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, nil, fmt.Errorf("%q: %v", sc.Text(), err)
			}
			k := key{caller, variant, f[i+1]}
			samples[k] = append(samples[k], v)
		}
	}
	return samples, order, sc.Err()
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

func table(samples map[key][]float64, order []string) string {
	med := func(caller, variant, unit string) float64 { return median(samples[key{caller, variant, unit}]) }
	var b strings.Builder
	runs := 0
	for k, v := range samples {
		if k.unit == "cpu-ns/op" && len(v) > runs {
			runs = len(v)
		}
	}
	fmt.Fprintf(&b, "Medians of %d runs: CPU time (µs) and allocations per render of each variant run alone; the ratios measured interleaved (the ratios lines).\n\n", runs)
	b.WriteString("| caller | upstream chart | generated chart | upstream's floor | generated's floor | library | generated ÷ upstream (≤ 0.7) | upstream's floor ÷ upstream | generated's floor ÷ upstream | upstream ÷ library (≥ 20) |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range order {
		cell := func(variant string) string {
			return fmt.Sprintf("%.0f µs, %.0f allocs", med(c, variant, "cpu-ns/op")/1e3, med(c, variant, "allocs/op"))
		}
		ratio := func(name string) string {
			return fmt.Sprintf("%.2fx CPU, %.2fx allocs", med(c, "ratios", name+"-cpu"), med(c, "ratios", name+"-allocs"))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c,
			cell("upstream"), cell("generated"), cell("floor"), cell("genfloor"), cell("library"),
			ratio("gen/up"), ratio("floor/up"), ratio("genfloor/up"), strings.ReplaceAll(ratio("up/lib"), ".00x", "x"))
	}
	return b.String()
}

// Command table measures and prints the performance table of the README
// and docs/performance.md in one run: per caller, the instructions and the
// allocations per render of each variant of BenchmarkRender (the upstream
// chart, the anchor; the generated chart; the upstream's floor and the
// generated chart's, each its own finished YAML with no templating; the
// generated chart's actions with nothing computed; the generated's floor
// with one action per field that depends on the input, the cheapest chart
// of that design), and each one's ratio
// to the upstream chart against the goals (issue 21: at most 0.7x the
// instructions and 0.6x the allocations).
//
//	cd bench && go run ./cmd/table
//
// Instructions are counted by valgrind's cachegrind (CPU time on a shared
// machine moves with its load, and not alike for every variant): a run of
// n+1 renders less a run of 1, divided by n, so that the test binary's
// start and the inputs' set-up cancel out. Allocations are the benchmark's
// own count (-benchmem) over the same n renders. Without valgrind the
// instructions' columns say so and the allocations are still measured.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

var (
	variants = []string{"upstream", "generated", "floor", "genfloor", "actions", "minimal"}
	callers  = []string{"etcd-chart", "cluster"}
	// valgrind prints "==PID== I   refs:      63,213,401" (3.19) or "I refs:".
	irefs  = regexp.MustCompile(`I\s+refs:\s+([0-9,]+)`)
	allocs = regexp.MustCompile(`^BenchmarkRender/([^/\s]+)/([^\s-]+)(?:-\d+)?\s+\d+\s.*?\s([0-9.]+) allocs/op`)
)

func main() {
	n := flag.Int("n", 100, "renders per measured run")
	flag.Parse()
	if *n < 1 {
		fail(fmt.Errorf("-n %d: must be at least 1", *n))
	}
	dir, err := os.MkdirTemp("", "etcdshapes-bench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "bench.test")
	if out, err := exec.Command("go", "test", "-c", "-o", bin, ".").CombinedOutput(); err != nil {
		fail(fmt.Errorf("go test -c: %v\n%s", err, out))
	}

	out, err := exec.Command(bin, "-test.run", "^$", "-test.bench", "^BenchmarkRender$/^("+strings.Join(callers, "|")+")$/^("+strings.Join(variants, "|")+")$",
		"-test.benchtime", fmt.Sprintf("%dx", *n), "-test.benchmem").CombinedOutput()
	if err != nil {
		fail(fmt.Errorf("the benchmark: %v\n%s", err, out))
	}
	alloc := map[string]float64{}
	for _, l := range strings.Split(string(out), "\n") {
		if m := allocs.FindStringSubmatch(l); m != nil {
			v, _ := strconv.ParseFloat(m[3], 64)
			alloc[m[1]+"/"+m[2]] = v
		}
	}

	instr := map[string]float64{}
	valgrind, verr := exec.LookPath("valgrind")
	if verr == nil {
		var mu sync.Mutex
		var wg sync.WaitGroup
		errs := make(chan error, len(callers)*len(variants))
		sem := make(chan struct{}, 2)
		for _, c := range callers {
			for _, v := range variants {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sem <- struct{}{}
					defer func() { <-sem }()
					many, err := count(valgrind, bin, c, v, *n+1)
					if err == nil {
						var one float64
						if one, err = count(valgrind, bin, c, v, 1); err == nil {
							mu.Lock()
							instr[c+"/"+v] = (many - one) / float64(*n)
							mu.Unlock()
						}
					}
					if err != nil {
						errs <- fmt.Errorf("%s/%s: %w", c, v, err)
					}
				}()
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			fail(err)
		}
	}

	fmt.Printf("Instructions (cachegrind) and allocations per render, %d renders (`cd bench && go run ./cmd/table`):\n\n", *n)
	fmt.Println("| caller | variant | instructions | ÷ upstream (goal ≤ 0.7) | allocations | ÷ upstream (goal ≤ 0.6) |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, c := range callers {
		for _, v := range variants {
			k := c + "/" + v
			is, ir := "no valgrind", "-"
			if verr == nil {
				is = fmt.Sprintf("%.1f M", instr[k]/1e6)
				ir = fmt.Sprintf("%.3fx", instr[k]/instr[c+"/upstream"])
			}
			fmt.Printf("| %s | %s | %s | %s | %.0f | %.3fx |\n", c, name(v), is, ir, alloc[k], alloc[k]/alloc[c+"/upstream"])
		}
	}
}

// count runs one variant under cachegrind and returns its instructions.
func count(valgrind, bin, caller, variant string, n int) (float64, error) {
	var stderr bytes.Buffer
	for attempt := 0; ; attempt++ {
		stderr.Reset()
		cmd := exec.Command(valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
			bin, "-test.run", "^$", "-test.bench", "^BenchmarkRender$/^"+caller+"$/^"+variant+"$", "-test.benchtime", fmt.Sprintf("%dx", n))
		cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
		cmd.Stderr = &stderr
		err := cmd.Run()
		m := irefs.FindSubmatch(stderr.Bytes())
		if err == nil && m != nil {
			return strconv.ParseFloat(strings.ReplaceAll(string(m[1]), ",", ""), 64)
		}
		// valgrind 3.19 now and then stops a Go binary with SIGILL on
		// rdtscp in the runtime's lock spinning: run it again, twice.
		if attempt == 2 {
			if err == nil {
				err = errors.New("no instruction count in valgrind's output")
			}
			tail := stderr.String()
			if len(tail) > 2000 {
				tail = tail[len(tail)-2000:]
			}
			return 0, fmt.Errorf("%v\n%s", err, tail)
		}
	}
}

func name(v string) string {
	return map[string]string{
		"upstream":  "upstream chart (the anchor)",
		"generated": "generated chart",
		"floor":     "upstream's floor (its finished YAML)",
		"genfloor":  "generated's floor (its finished YAML)",
		"actions":   "generated, nothing computed (its actions)",
		"minimal":   "generated's floor + one action per input field",
	}[v]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "table:", err)
	os.Exit(1)
}

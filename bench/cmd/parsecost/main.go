// Command parsecost prints what parsing each template file costs
// (allocations and time per parse), as Helm parses every template of a
// chart at every render.
package main

import (
	"fmt"
	"os"
	"runtime"
	"text/template"
	"time"

	"github.com/Masterminds/sprig/v3"
)

func main() {
	funcs := sprig.TxtFuncMap()
	for _, n := range []string{"include", "tpl", "required", "lookup", "toYaml", "fromYaml", "fromJson", "toJson", "fromYamlArray", "fromJsonArray", "toToml", "mustToYaml", "mustToJson"} {
		funcs[n] = func(...any) any { return nil }
	}
	for _, f := range os.Args[1:] {
		b, err := os.ReadFile(f)
		if err != nil {
			panic(err)
		}
		const n = 200
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		m0 := ms.Mallocs
		t0 := time.Now()
		for range n {
			if _, err := template.New(f).Funcs(funcs).Parse(string(b)); err != nil {
				panic(err)
			}
		}
		d := time.Since(t0) / n
		runtime.ReadMemStats(&ms)
		fmt.Printf("%-60s %6d bytes %6d allocs %8v\n", f, len(b), (ms.Mallocs-m0)/n, d)
	}
}

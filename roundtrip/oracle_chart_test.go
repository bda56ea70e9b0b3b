package roundtrip

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
)

// TestOracleInputsOnTheChart renders the upstream oracle test's generated
// inputs (oracle_gen_test.go: every platform value, nulls, faults, live
// states, ignored keys) with the generated charts and compares them with
// the library, as the golden scenarios are compared: both render the same
// objects, or both refuse with the same message. The oracle test compares
// the library with upstream; this keeps the charts on the library's side
// of every input it finds. Where the library refuses and the chart's
// values.schema.json does, the messages may differ: the schema checks every
// value's type before any template runs, so of an input with several faults
// Helm names the wrong type. ETCDSHAPES_CHART_ORACLE_N sets the inputs per
// caller (default 150, seeds 1 to N).
func TestOracleInputsOnTheChart(t *testing.T) {
	n := 150
	if s := os.Getenv("ETCDSHAPES_CHART_ORACLE_N"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("ETCDSHAPES_CHART_ORACLE_N: %v", err)
		}
	}
	forEachHelm(t, func(t *testing.T, h helm) {
		counts := map[naming.Caller][3]int{}
		for _, caller := range naming.Callers() {
			for seed := int64(1); seed <= int64(n); seed++ {
				g := generate(caller, seed)
				in := renderInput{caller: caller, namespace: g.namespace, release: g.release, values: g.valuesYAML(), apiVersions: g.apis, live: g.live}
				t.Run(fmt.Sprintf("%s/seed=%d", caller, seed), func(t *testing.T) {
					defer func() {
						if t.Failed() {
							t.Logf("%s", g.describe())
						}
					}()
					c := counts[caller]
					defer func() { counts[caller] = c }()
					_, goErr := goRender(in)
					if goErr == nil {
						compareRenders(t, h, in)
						c[0]++
						return
					}
					_, helmErr := helmRender(t, h, in)
					switch {
					case helmErr == nil:
						t.Fatalf("the library refuses (%v) but the chart renders", goErr)
					case strings.Contains(helmErr.Error(), "values don't meet the specifications of the schema"):
						// values.schema.json checks every type before any
						// template runs: where the input has a wrong type
						// and an earlier fault, Helm names the type.
						var ne *invalid.Error
						if asNamingError(goErr, &ne) && strings.Contains(helmErr.Error(), "at '"+schemaPath(ne.Field)+"'") {
							c[1]++
						} else {
							c[2]++
						}
					default:
						checkSameRefusal(t, goErr, helmErr)
						c[1]++
					}
				})
			}
		}
		for _, caller := range naming.Callers() {
			c := counts[caller]
			t.Logf("%s: %s: %d inputs rendered alike, %d refused alike, %d refused by both, by the chart's schema first", h.name(), caller, c[0], c[1], c[2])
		}
	})
}

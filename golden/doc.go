// Package golden holds the scenarios whose rendered stacks are pinned byte
// for byte in testdata/<scenario>.yaml: every reference case of the charts,
// plus cases for what the charts render wrongly (any size unit, several
// spread constraints, constraints with their own selector) and for live
// state. Other suites (schema checks, a real API server, Helm round trips,
// benchmarks) iterate the same list through All.
//
// Regenerate after an intended change with
//
//	go test ./golden -update
//
// and read the diff before committing it.
package golden

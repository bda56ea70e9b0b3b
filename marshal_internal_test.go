package etcdshapes

import "github.com/etcdshapes/etcdshapes/internal/printer"

// Hooks for marshal_test.go, which lives in etcdshapes_test because it
// renders the golden scenarios (package golden imports etcdshapes).

// MarshalSlowForTest is the old printer (toMap + sigs.k8s.io/yaml).
var MarshalSlowForTest = printer.MarshalSlow

// MarshalFastForTest is the fast path alone: ErrFallback (or any error)
// where Marshal would fall back to the old printer.
func MarshalFastForTest(o Object) ([]byte, error) {
	st := printer.Get()
	defer printer.Put(st)
	return st.AppendFast(nil, o)
}

// FaithfulForTest is the printer's refusal of strings YAML cannot carry.
var FaithfulForTest = printer.Faithful

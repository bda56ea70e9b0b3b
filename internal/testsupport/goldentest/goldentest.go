// Package goldentest helps tests built on the golden scenarios: it finds
// one by name and gives the datastore its live tenant cluster runs on.
// Only tests import it.
package goldentest

import (
	"testing"

	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/naming"
)

// Scenario returns the golden scenario called name, failing the test when
// there is none.
func Scenario(t testing.TB, name string) golden.Scenario {
	t.Helper()
	for _, s := range golden.All() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no golden scenario %q", name)
	return golden.Scenario{}
}

// DataStore returns the Kamaji DataStore a golden tenant cluster's live
// KamajiControlPlane names: the scenario's Live.DataStoreName where it
// has one, else the stack's own.
func DataStore(s golden.Scenario) (string, error) {
	n, err := naming.ForCluster(s.Namespace, s.Release)
	if err != nil {
		return "", err
	}
	if s.Live.DataStoreName != "" {
		return s.Live.DataStoreName, nil
	}
	return n.DataStore(), nil
}

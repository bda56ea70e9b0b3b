//go:build apiserver

package e2e

import (
	"context"
	"testing"

	"github.com/etcdshapes/etcdshapes/golden"
)

// TestGoldenObjectsAccepted creates every object of every golden scenario
// with server-side dry-run and strict field validation, twice: as the typed
// object (what a Go caller sends through controller-runtime) and as the YAML
// the CLI prints (what Helm sends). An object counts as accepted when both
// are. Scenarios share namespaces and names; dry-run persists nothing, so
// they do not collide.
func TestGoldenObjectsAccepted(t *testing.T) {
	ctx := context.Background()
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			objs, err := s.Render()
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			if len(objs) == 0 {
				t.Logf("renders no object")
				return
			}
			for _, o := range objs {
				if err := ensureNamespace(ctx, o.GetNamespace()); err != nil {
					t.Fatal(err)
				}
				createBoth(ctx, t, o)
			}
		})
	}
}

func count(accepted bool) {
	tally.Lock()
	defer tally.Unlock()
	if accepted {
		tally.accepted++
	} else {
		tally.rejected++
	}
}

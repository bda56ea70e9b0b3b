package etcdshapes

import (
	"k8s.io/apimachinery/pkg/runtime"
)

// AddToScheme registers every kind of the table of shapes (Shapes): the
// stacks' kinds and those of the builders beyond them, so that a
// controller-runtime client or an apimachinery codec built on the scheme
// accepts every object this library returns.
func AddToScheme(s *runtime.Scheme) error {
	done := make(map[string]bool, len(shapes))
	for _, sh := range shapes {
		gv := sh.Kind.GroupVersion().String()
		if done[gv] {
			continue
		}
		done[gv] = true
		if err := sh.addToScheme(s); err != nil {
			return err
		}
	}
	return nil
}

// Package stacknames gives tests the names of the stack a caller renders,
// from the caller, namespace and release a request or golden scenario
// has. Only tests import it.
package stacknames

import (
	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
)

// Of returns naming.ForEtcdChart's names for etcdshapes.CallerEtcd and
// naming.ForCluster's for any other caller, with their errors.
func Of(caller, namespace, release string) (naming.Names, error) {
	if caller == etcdshapes.CallerEtcd {
		return naming.ForEtcdChart(namespace, release)
	}
	return naming.ForCluster(namespace, release)
}

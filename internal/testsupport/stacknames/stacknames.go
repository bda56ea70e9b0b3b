// Package stacknames gives tests the names of the stack a caller renders,
// from the caller, namespace and release a request or golden scenario
// has. Only tests import it.
package stacknames

import (
	"cmp"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
)

// Of returns naming.ForEtcdChart's names for etcdshapes.CallerEtcd (an
// empty release is the chart's, naming.EtcdChartRelease, as a Request's
// is) and naming.ForCluster's for any other caller, with their errors.
func Of(caller, namespace, release string) (naming.Names, error) {
	if caller == etcdshapes.CallerEtcd {
		return naming.ForEtcdChart(namespace, cmp.Or(release, naming.EtcdChartRelease))
	}
	return naming.ForCluster(namespace, release)
}

// Package stacknames gives tests the names of the stack a caller renders,
// from the caller, namespace and release a request or golden scenario
// has. Only tests import it.
package stacknames

import (
	"cmp"

	"github.com/etcdshapes/etcdshapes/naming"
)

// Of returns naming.ForEtcdChart's names for naming.CallerEtcd (an
// empty release is the chart's, naming.EtcdChartRelease, as a Request's
// is) and naming.ForCluster's for naming.CallerCluster, with their
// errors; any other caller is refused (naming.Caller.Validate).
func Of(caller naming.Caller, namespace, release string) (naming.Names, error) {
	switch caller {
	case naming.CallerEtcd:
		return naming.ForEtcdChart(namespace, cmp.Or(release, naming.EtcdChartRelease))
	case naming.CallerCluster:
		return naming.ForCluster(namespace, release)
	}
	return naming.Names{}, caller.Validate("caller")
}

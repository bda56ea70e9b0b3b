package etcdshapes

import (
	etcdv1alpha2 "github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/values"

	"k8s.io/apimachinery/pkg/util/validation"
)

// LiveState is what the kubernetes chart reads from the live cluster.
type LiveState struct {
	// DataStoreName is the live KamajiControlPlane's spec.dataStoreName;
	// empty when there is none. When it names another datastore the tenant
	// cluster stays on it and no etcd object is rendered: moving it would
	// start a Kamaji datastore migration.
	DataStoreName string
	// StorageClassName is the live EtcdCluster's
	// spec.storage.storageClassName; nil when no EtcdCluster exists. The
	// field is immutable, so a live value (even empty) wins.
	StorageClassName *string
	// Bootstrap is the live EtcdCluster's spec.bootstrap, which a cluster
	// restored from a snapshot keeps (etcd.Restore); nil when there is no
	// EtcdCluster or it has none. The field is immutable and consulted only
	// at first bootstrap, and the CRD refuses an apply that adds, changes
	// or removes it, so a live value is rendered as it is, by both stacks
	// (the etcd chart reads nothing else of the live state). It is taken as
	// the API server stored it: not checked again.
	Bootstrap *etcdv1alpha2.BootstrapSpec
}

func validateStorageClass(field, name string) error {
	if name == "" {
		return nil
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return invalid.Errorf(field, name, "must be a StorageClass name (DNS-1123 subdomain)")
	}
	return nil
}

// Validate checks the live state's names: a DataStore name and a
// StorageClass name (DNS-1123 subdomains), named live.dataStoreName and
// live.storageClassName. Both are checked: two bad names give an
// invalid.List.
func (l LiveState) Validate() error {
	return l.validate(requestPaths())
}

// ValidateLive is LiveState.Validate with the names named by p (a nil
// path is its default, see RequestPaths): for a caller that checks a live
// state it passes on before it builds the Request.
func (p RequestPaths) ValidateLive(l LiveState) error {
	return l.validate(valuesPaths(values.Paths{}, p))
}

// validate is Validate with the names named by p.
func (l LiveState) validate(p inputPaths) error {
	var c invalid.Collector
	if l.DataStoreName != "" {
		if errs := validation.IsDNS1123Subdomain(l.DataStoreName); len(errs) > 0 {
			c.Addf(p.liveDataStoreName, l.DataStoreName, "must be a DataStore name (DNS-1123 subdomain)")
		}
	}
	if l.StorageClassName != nil {
		c.Add(validateStorageClass(p.liveStorageClassName, *l.StorageClassName))
	}
	return c.Err()
}

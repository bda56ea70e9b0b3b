package etcdshapes

import (
	"github.com/etcdshapes/etcdshapes/invalid"

	"k8s.io/apimachinery/pkg/util/validation"
)

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
	var c invalid.Collector
	if l.DataStoreName != "" {
		if errs := validation.IsDNS1123Subdomain(l.DataStoreName); len(errs) > 0 {
			c.Addf("live.dataStoreName", l.DataStoreName, "must be a DataStore name (DNS-1123 subdomain)")
		}
	}
	if l.StorageClassName != nil {
		c.Add(validateStorageClass("live.storageClassName", *l.StorageClassName))
	}
	return c.Err()
}

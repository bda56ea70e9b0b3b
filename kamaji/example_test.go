package kamaji_test

import (
	"fmt"

	"github.com/etcdshapes/etcdshapes/kamaji"
	"github.com/etcdshapes/etcdshapes/naming"
)

func ExampleDataStore() {
	n, _ := naming.ForCluster("tenant-demo", "kubernetes-demo")
	ds, _ := kamaji.DataStore(n)
	fmt.Println(ds.Name, ds.Namespace == "", ds.Spec.Driver, ds.Spec.Endpoints)
	fmt.Println(ds.Spec.TLSConfig.ClientCertificate.Certificate.SecretReference.Name)
	// Output:
	// tenant-demo.kubernetes-demo true etcd [kubernetes-demo-etcd.tenant-demo.svc:2379]
	// kubernetes-demo-etcd-client-tls
}

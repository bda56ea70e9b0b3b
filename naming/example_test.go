package naming_test

import (
	"errors"
	"fmt"
	"github.com/etcdshapes/etcdshapes/invalid"

	"github.com/etcdshapes/etcdshapes/naming"
)

func ExampleForCluster() {
	n, err := naming.ForCluster("tenant-averyverylongtenantname-andanotherlongchild", "kubernetes-demo")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(n.Cluster)
	fmt.Println(n.DataStore())
	fmt.Println(n.DefragCronJob())
	fmt.Println(n.ClientEndpoint())
	// Output:
	// kubernetes-demo-etcd
	// tenant-averyverylongtenantname-andanotherlongchild.kub-7d95d27d
	// kubernetes-demo-etcd-defrag
	// kubernetes-demo-etcd.tenant-averyverylongtenantname-andanotherlongchild.svc:2379
}

func ExampleForEtcdChart() {
	n, _ := naming.ForEtcdChart("tenant-abc", "etcd")
	fmt.Println(n.Cluster, n.DataStore(), n.TLSSecrets())
	_, err := naming.ForEtcdChart("tenant-abc", "my-etcd")
	var bad *invalid.Error
	fmt.Println(errors.As(err, &bad), bad.Field)
	// Output:
	// etcd tenant-abc [etcd-peer-ca-tls etcd-ca-tls etcd-server-tls etcd-peer-tls etcd-client-tls]
	// true release
}

func ExampleTenantPath() {
	fmt.Println(naming.TenantPath("tenant-a-b"))
	fmt.Println(naming.TenantPath("tenant-root"))
	fmt.Println(naming.TenantPath("tenant--a"))
	// Output:
	// [tenant-a tenant-a-b tenant-root] <nil>
	// [tenant-root] <nil>
	// [] namespace: invalid value "tenant--a": must be a tenant namespace: every tenant name on the path must be non-empty
}

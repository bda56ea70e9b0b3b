package pki_test

import (
	"fmt"

	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/pki"
)

func ExampleBuild() {
	n, _ := naming.ForCluster("tenant-demo", "kubernetes-demo")
	p, _ := pki.Build(n)
	for _, c := range p.Certificates() {
		fmt.Println(c.Name, c.Spec.IsCA, c.Spec.IssuerRef.Name, c.Spec.PrivateKey.RotationPolicy)
	}
	fmt.Println(p.Server.Spec.DNSNames)
	// Output:
	// kubernetes-demo-etcd-peer-ca true kubernetes-demo-etcd-selfsigning-issuer Never
	// kubernetes-demo-etcd-ca true kubernetes-demo-etcd-selfsigning-issuer Never
	// kubernetes-demo-etcd-server false kubernetes-demo-etcd-issuer Always
	// kubernetes-demo-etcd-peer false kubernetes-demo-etcd-peer-issuer Always
	// kubernetes-demo-etcd-client false kubernetes-demo-etcd-issuer Always
	// [kubernetes-demo-etcd kubernetes-demo-etcd.tenant-demo.svc *.kubernetes-demo-etcd.tenant-demo.svc kubernetes-demo-etcd-client kubernetes-demo-etcd-client.tenant-demo.svc localhost]
}

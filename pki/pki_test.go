package pki_test

import (
	"slices"
	"testing"

	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/pki"
)

// TestServingCertificatesNameEveryEndpointTheirClientsDial checks, for both
// callers, that the server and peer certificates carry the names their
// consumers dial: the members (wildcard under the cluster's Service), the
// Service itself (the DataStore endpoint and the Jobs) and the client
// Service, which etcd-operator's snapshot agent dials
// (controllers/snapshot_job.go, clientServiceEndpoint). The etcd chart's
// certificates lacked the last until SPEC difference 7.
func TestServingCertificatesNameEveryEndpointTheirClientsDial(t *testing.T) {
	for _, tc := range []struct {
		caller string
		names  func() (naming.Names, error)
	}{
		{"etcd chart", func() (naming.Names, error) { return naming.ForEtcdChart("tenant-root", "etcd") }},
		{"per cluster", func() (naming.Names, error) { return naming.ForCluster("tenant-demo", "kubernetes-demo") }},
	} {
		t.Run(tc.caller, func(t *testing.T) {
			n, err := tc.names()
			if err != nil {
				t.Fatal(err)
			}
			p, err := pki.Build(n)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{
				n.ServiceHost(),
				"*." + n.ServiceHost(),
				n.ClientService(),
				n.ClientService() + "." + n.Namespace + ".svc",
			}
			for _, c := range []string{p.Server.Name, p.Peer.Name} {
				cert := p.Server
				if c == p.Peer.Name {
					cert = p.Peer
				}
				for _, w := range want {
					if !slices.Contains(cert.Spec.DNSNames, w) {
						t.Errorf("%s: dnsNames %q lack %q", c, cert.Spec.DNSNames, w)
					}
				}
			}
		})
	}
}

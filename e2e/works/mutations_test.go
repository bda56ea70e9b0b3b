package works

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	cmv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	"github.com/etcdshapes/etcdshapes/golden"
	corev1 "k8s.io/api/core/v1"
)

// mutation is one wrong field in a rendered stack, and the check it must
// break.
type mutation struct {
	name string
	// want is the check that must fail.
	want string
	// etcdChartOnly marks a field only the etcd chart renders.
	etcdChartOnly bool
	apply         func(t *testing.T, s *stack)
}

// The Certificates, found as the consumers find them.
func serverCert(t *testing.T, s *stack) *cmv1.Certificate {
	return mustCert(t, s, s.cluster.Spec.TLS.Client.ServerSecretRef.Name)
}
func peerCert(t *testing.T, s *stack) *cmv1.Certificate {
	return mustCert(t, s, s.cluster.Spec.TLS.Peer.SecretRef.Name)
}
func clientCert(t *testing.T, s *stack) *cmv1.Certificate {
	return mustCert(t, s, s.cluster.Spec.TLS.Client.OperatorClientSecretRef.Name)
}
func mustCert(t *testing.T, s *stack, secret string) *cmv1.Certificate {
	t.Helper()
	c, err := s.certificateBySecret(secret)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// issuerOf is the Issuer a Certificate's issuerRef names.
func issuerOf(t *testing.T, s *stack, c *cmv1.Certificate) *cmv1.Issuer {
	t.Helper()
	iss, err := genericIssuer(s, c.Spec.IssuerRef)
	if err != nil {
		t.Fatal(err)
	}
	return iss
}

// removeDNSName drops the SAN for which match holds (exactly one).
func removeDNSName(t *testing.T, c *cmv1.Certificate, match func(string) bool) {
	t.Helper()
	n := len(c.Spec.DNSNames)
	c.Spec.DNSNames = slices.DeleteFunc(c.Spec.DNSNames, match)
	if len(c.Spec.DNSNames) == n {
		t.Fatalf("Certificate %s has no such SAN: %v", c.Name, c.Spec.DNSNames)
	}
}

func removeUsage(t *testing.T, c *cmv1.Certificate, u cmv1.KeyUsage) {
	t.Helper()
	n := len(c.Spec.Usages)
	c.Spec.Usages = slices.DeleteFunc(c.Spec.Usages, func(x cmv1.KeyUsage) bool { return x == u })
	if len(c.Spec.Usages) == n {
		t.Fatalf("Certificate %s has no usage %q", c.Name, u)
	}
}

// svcHost is "<cluster>.<ns>.svc", the headless Service and the members' subdomain.
func svcHost(s *stack) string { return s.cluster.Name + "." + s.namespace + ".svc" }

var mutations = []mutation{
	{name: "server Certificate without the member wildcard *.<name>.<ns>.svc", want: checkMemberURLs, apply: func(t *testing.T, s *stack) {
		removeDNSName(t, serverCert(t, s), func(n string) bool { return n == "*."+svcHost(s) })
	}},
	{name: "server Certificate without <name>.<ns>.svc", want: checkServiceName, apply: func(t *testing.T, s *stack) {
		removeDNSName(t, serverCert(t, s), func(n string) bool { return n == svcHost(s) })
	}},
	{name: "server Certificate without <name>-client.<ns>.svc", want: checkServiceName, apply: func(t *testing.T, s *stack) {
		removeDNSName(t, serverCert(t, s), func(n string) bool { return n == s.cluster.Name+"-client."+s.namespace+".svc" })
	}},
	{name: "server Certificate without the legacy wildcard *.<name>-headless.<ns>.svc", want: checkMemberURLs, etcdChartOnly: true, apply: func(t *testing.T, s *stack) {
		removeDNSName(t, serverCert(t, s), func(n string) bool { return strings.HasSuffix(n, "-headless."+s.namespace+".svc") })
	}},
	{name: "server Certificate without usage server auth", want: checkMemberURLs, apply: func(t *testing.T, s *stack) {
		removeUsage(t, serverCert(t, s), cmv1.UsageServerAuth)
	}},
	// The operator trusts the server Secret's own ca.crt, so it still
	// verifies the server; etcd, trusting that ca.crt too, refuses every
	// client certificate of the client CA.
	{name: "server Certificate issued by the peer Issuer", want: checkClientAuth, apply: func(t *testing.T, s *stack) {
		serverCert(t, s).Spec.IssuerRef = peerCert(t, s).Spec.IssuerRef
	}},
	{name: "peer Certificate without the member wildcard *.<name>.<ns>.svc", want: checkPeerURLs, apply: func(t *testing.T, s *stack) {
		removeDNSName(t, peerCert(t, s), func(n string) bool { return n == "*."+svcHost(s) })
	}},
	{name: "peer Certificate without its forward-resolvable names <name> and <name>.<ns>.svc", want: checkPeerLookup, apply: func(t *testing.T, s *stack) {
		removeDNSName(t, peerCert(t, s), func(n string) bool { return n == s.cluster.Name || n == svcHost(s) })
	}},
	{name: "peer Certificate without usage client auth", want: checkPeerClient, apply: func(t *testing.T, s *stack) {
		removeUsage(t, peerCert(t, s), cmv1.UsageClientAuth)
	}},
	{name: "peer Certificate without usage server auth", want: checkPeerURLs, apply: func(t *testing.T, s *stack) {
		removeUsage(t, peerCert(t, s), cmv1.UsageServerAuth)
	}},
	{name: "peer Certificate issued by the client CA's Issuer", want: checkPeerCA, apply: func(t *testing.T, s *stack) {
		peerCert(t, s).Spec.IssuerRef = serverCert(t, s).Spec.IssuerRef
	}},
	// Removing the client's only extended usage would leave a certificate
	// without the extension, valid for every usage (RFC 5280 4.2.1.12; Go's
	// verifier accepts it): the usage is swapped instead.
	{name: "client Certificate with usage server auth instead of client auth", want: checkClientAuth, apply: func(t *testing.T, s *stack) {
		c := clientCert(t, s)
		removeUsage(t, c, cmv1.UsageClientAuth)
		c.Spec.Usages = append(c.Spec.Usages, cmv1.UsageServerAuth)
	}},
	{name: "client Certificate's issuerRef pointed at the peer Issuer", want: checkClientAuth, apply: func(t *testing.T, s *stack) {
		clientCert(t, s).Spec.IssuerRef = peerCert(t, s).Spec.IssuerRef
	}},
	{name: "client Certificate with CN etcd-client instead of root", want: checkRootCN, apply: func(t *testing.T, s *stack) {
		clientCert(t, s).Spec.CommonName = "etcd-client"
	}},
	{name: "DataStore's CA reference pointed at the peer CA Secret", want: checkDataStoreCA, apply: func(t *testing.T, s *stack) {
		peerCA := issuerOf(t, s, peerCert(t, s)).Spec.CA.SecretName
		ca := s.dataStore.Spec.TLSConfig.CertificateAuthority
		ca.Certificate.SecretReference.Name = peerCA
		ca.PrivateKey.SecretReference.Name = peerCA
	}},
	{name: "DataStore's client certificate reference pointed at the server Secret", want: checkRootCN, apply: func(t *testing.T, s *stack) {
		c := s.dataStore.Spec.TLSConfig.ClientCertificate
		c.Certificate.SecretReference.Name = s.cluster.Spec.TLS.Client.ServerSecretRef.Name
		c.PrivateKey.SecretReference.Name = s.cluster.Spec.TLS.Client.ServerSecretRef.Name
	}},
	{name: "DataStore endpoint as the FQDN <name>.<ns>.svc.cluster.local", want: checkServiceName, apply: func(t *testing.T, s *stack) {
		s.dataStore.Spec.Endpoints = []string{svcHost(s) + ".cluster.local:2379"}
	}},
	{name: "defrag CronJob's client Secret volume pointed at the peer Secret", want: checkClientAuth, apply: func(t *testing.T, s *stack) {
		for i := range s.defrag.Spec.JobTemplate.Spec.Template.Spec.Volumes {
			v := &s.defrag.Spec.JobTemplate.Spec.Template.Spec.Volumes[i]
			if v.Secret != nil {
				v.Secret.SecretName = s.cluster.Spec.TLS.Peer.SecretRef.Name
			}
		}
	}},
	{name: "check Job's --endpoints on the peer port's host name <name>-peer", want: checkServiceName, apply: func(t *testing.T, s *stack) {
		c := &s.check.Spec.Template.Spec.Containers[0]
		for i, a := range c.Args {
			if strings.HasPrefix(a, "--endpoints=") {
				c.Args[i] = "--endpoints=https://" + s.cluster.Name + "-peer." + s.namespace + ".svc:2379"
			}
		}
	}},
	{name: "EtcdCluster's operator client Secret pointed at the peer Secret", want: checkClientAuth, apply: func(t *testing.T, s *stack) {
		s.cluster.Spec.TLS.Client.OperatorClientSecretRef = &corev1.LocalObjectReference{Name: s.cluster.Spec.TLS.Peer.SecretRef.Name}
	}},
	{name: "CA Issuer's secretName pointed at a Secret no Certificate writes", want: checkIssued, apply: func(t *testing.T, s *stack) {
		issuerOf(t, s, serverCert(t, s)).Spec.CA.SecretName += "-typo"
	}},
	{name: "CA Issuer's secretName pointed at a leaf's Secret (not a CA)", want: checkIssued, apply: func(t *testing.T, s *stack) {
		issuerOf(t, s, peerCert(t, s)).Spec.CA.SecretName = clientCert(t, s).Spec.SecretName
	}},
	{name: "server Certificate's issuerRef naming no rendered Issuer", want: checkIssued, apply: func(t *testing.T, s *stack) {
		serverCert(t, s).Spec.IssuerRef.Name += "-typo"
	}},
	{name: "client Certificate's issuerRef kind ClusterIssuer", want: checkIssued, apply: func(t *testing.T, s *stack) {
		clientCert(t, s).Spec.IssuerRef.Kind = cmv1.ClusterIssuerKind
	}},
}

// TestPKIMutations applies each mutation to one stack of each caller: the
// unmutated stack passes every check, each mutated one fails the check the
// mutation names.
func TestPKIMutations(t *testing.T) {
	warmKeys(t)
	var table []string
	for _, name := range []string{"etcd-defaults", "cluster-demo"} {
		sc := scenario(t, name)
		base, ok := render(t, sc)
		if !ok {
			t.Fatalf("%s renders no etcd", name)
		}
		if f := runChecks(base).failedChecks(); len(f) > 0 {
			t.Fatalf("%s fails unmutated: %v", name, f)
		}
		for _, m := range mutations {
			if m.etcdChartOnly && sc.Caller != "etcd" {
				continue
			}
			t.Run(name+"/"+m.name, func(t *testing.T) {
				s := base.deepCopy()
				m.apply(t, s)
				r := runChecks(s)
				failed := r.failedChecks()
				table = append(table, fmt.Sprintf("| %s | %s | %s | %s |", sc.Caller, m.name, m.want, strings.Join(failed, ", ")))
				if !slices.Contains(failed, m.want) {
					t.Errorf("want check %q to fail; failed: %v\n%s", m.want, failed, r)
					return
				}
				t.Logf("failed as wanted: %s\n%s", strings.Join(failed, ", "), r)
			})
		}
	}
	t.Logf("mutation table:\n| caller | mutation | expected failure | checks that failed |\n|---|---|---|---|\n%s", strings.Join(table, "\n"))
}

func scenario(t testing.TB, name string) golden.Scenario {
	t.Helper()
	for _, s := range golden.All() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no golden scenario %q", name)
	return golden.Scenario{}
}

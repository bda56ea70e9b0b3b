package works

import (
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
	"testing"

	cmv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	"github.com/etcdshapes/etcdshapes/golden"
	corev1 "k8s.io/api/core/v1"
)

// Check names: what the PKI tier asserts of every stack, each failing on
// its own so the mutation table can name the one a broken render breaks.
const (
	checkIssued        = "issuance"             // cert-manager issues every Certificate
	checkMemberURLs    = "member client URLs"   // etcd-operator dials <member>.<service>.<ns>.svc
	checkServiceName   = "client Service names" // Kamaji, the Jobs dial <name>.<ns>.svc; the snapshot agent <name>-client.<ns>.svc
	checkClientAuth    = "client certificates"  // etcd accepts every consumer's client certificate
	checkRootCN        = "client CN root"       // the clients are etcd's root user
	checkDataStoreCA   = "DataStore CA"         // server and client share the CA the DataStore names, which is a CA Certificate's
	checkKamajiTenants = "Kamaji tenant certificates"
	checkPeerURLs      = "peer URLs"        // members dial <member>.<service>.<ns>.svc:2380: server auth
	checkPeerClient    = "peer client auth" // the dialled member accepts the peer certificate: client auth
	checkPeerLookup    = "peer SAN lookup"  // etcd's listener finds the connecting IP through the certificate's names
	checkPeerCA        = "peer CA distinct" // neither plane accepts the other CA's certificates
)

var allChecks = []string{checkIssued, checkMemberURLs, checkServiceName, checkClientAuth, checkRootCN, checkDataStoreCA,
	checkKamajiTenants, checkPeerURLs, checkPeerClient, checkPeerLookup, checkPeerCA}

// result is what the checks found for one stack: each failed check's
// errors.
type result struct {
	failed map[string][]error
	// passes counts what each check verified.
	passes map[string]int
	log    []string
}

func (r *result) fail(check string, err error) { r.failed[check] = append(r.failed[check], err) }
func (r *result) pass(check string)            { r.passes[check]++ }
func (r *result) check(check string, err error) {
	if err != nil {
		r.fail(check, err)
		return
	}
	r.pass(check)
}

func (r *result) String() string {
	var b strings.Builder
	for _, c := range allChecks {
		if errs := r.failed[c]; len(errs) > 0 {
			fmt.Fprintf(&b, "  FAIL %s:\n", c)
			for _, e := range errs {
				fmt.Fprintf(&b, "       %v\n", e)
			}
		} else {
			fmt.Fprintf(&b, "  ok   %s (%d)\n", c, r.passes[c])
		}
	}
	return b.String()
}

func (r *result) failedChecks() []string {
	var out []string
	for _, c := range allChecks {
		if len(r.failed[c]) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// runChecks issues s's PKI and runs every check.
func runChecks(s *stack) *result {
	r := &result{failed: map[string][]error{}, passes: map[string]int{}}
	is, err := issueStack(s)
	if err != nil {
		r.fail(checkIssued, err)
		for _, c := range allChecks[1:] {
			r.fail(c, errors.New("not run: issuance failed"))
		}
		return r
	}
	r.pass(checkIssued)
	r.log = is.log
	members := s.members()
	for _, m := range members {
		r.log = append(r.log, "member "+m.host(s.namespace)+" at "+m.ip)
	}
	consumers, err := s.consumers(members)
	if err != nil {
		for _, c := range allChecks[1:] {
			r.fail(c, err)
		}
		return r
	}
	tls := s.cluster.Spec.TLS
	server := tls.Client.ServerSecretRef.Name

	// Dials of the client API: the server certificate for the host each
	// consumer dials, against the CA it trusts; etcd's acceptance of its
	// client certificate against --trusted-ca-file (the server Secret's
	// ca.crt).
	for _, c := range consumers {
		check := checkServiceName
		if c.name == "etcd-operator" {
			check = checkMemberURLs
		}
		for _, h := range c.hosts {
			r.check(check, wrap(c.name+" dials "+h, is.verifyServer(server, h, c.rootsSecret, c.rootsKey)))
		}
		if c.certKey != corev1.TLSCertKey {
			r.fail(checkClientAuth, fmt.Errorf("%s: the client certificate is Secret %s key %q, not tls.crt", c.name, c.certSecret, c.certKey))
			continue
		}
		r.check(checkClientAuth, wrap(c.name+" presents Secret "+c.certSecret, is.verifyClient(c.certSecret, server, "ca.crt")))
		if crt, _, err := is.leaf(c.certSecret); err != nil {
			r.fail(checkRootCN, err)
		} else if crt.Subject.CommonName != rootUser {
			r.fail(checkRootCN, fmt.Errorf("%s presents Secret %s with CN %q, not %q", c.name, c.certSecret, crt.Subject.CommonName, rootUser))
		} else {
			r.pass(checkRootCN)
		}
	}

	// The DataStore names the CA Kamaji trusts and signs tenant
	// certificates with: the CA Certificate's Secret, which issued both the
	// server and the client certificate.
	dsTLS := s.dataStore.Spec.TLSConfig
	caSecret, caKey, err := s.secretRef(dsTLS.CertificateAuthority.Certificate)
	if err != nil {
		r.fail(checkDataStoreCA, err)
	} else {
		r.check(checkDataStoreCA, s.isCACertificate(caSecret))
		if dsTLS.CertificateAuthority.PrivateKey == nil {
			r.fail(checkDataStoreCA, errors.New("DataStore certificateAuthority has no privateKey: Kamaji cannot sign tenant certificates"))
		} else if ks, kk, err := s.secretRef(*dsTLS.CertificateAuthority.PrivateKey); err != nil || ks != caSecret || kk != corev1.TLSPrivateKeyKey {
			r.fail(checkDataStoreCA, fmt.Errorf("DataStore certificateAuthority.privateKey is Secret %s key %q, not %s's tls.key (%v)", ks, kk, caSecret, err))
		}
		for _, leaf := range []string{server, dataStoreClientSecret(s)} {
			r.check(checkDataStoreCA, wrap("Secret "+leaf+" issued by the DataStore's CA "+caSecret, is.verifyAny(leaf, caSecret, caKey)))
		}
		if clientCrt, err := s.certificateBySecret(dataStoreClientSecret(s)); err != nil {
			r.fail(checkDataStoreCA, fmt.Errorf("DataStore clientCertificate: %w", err))
		} else if clientCrt.Spec.IsCA {
			r.fail(checkDataStoreCA, fmt.Errorf("DataStore clientCertificate is Certificate %s, a CA", clientCrt.Name))
		}
		// Kamaji signs each tenant apiserver's client certificate with the
		// DataStore's CA keypair: etcd must accept it.
		if err := is.signedBy("kamaji-tenant", caSecret, "tenant-prefix"); err != nil {
			r.fail(checkKamajiTenants, err)
		} else {
			r.check(checkKamajiTenants, wrap("a tenant certificate signed by "+caSecret, is.verifyClient("kamaji-tenant", server, "ca.crt")))
		}
	}

	// The peer API: every member dials every other's peer URL with the
	// peer Secret (server auth on the dialled side, client auth on the
	// dialling side, against --peer-trusted-ca-file, its ca.crt).
	if tls.Peer == nil || tls.Peer.SecretRef == nil {
		for _, c := range []string{checkPeerURLs, checkPeerClient, checkPeerLookup, checkPeerCA} {
			r.fail(c, errors.New("EtcdCluster: no spec.tls.peer.secretRef"))
		}
		return r
	}
	peer := tls.Peer.SecretRef.Name
	for _, m := range members {
		r.check(checkPeerURLs, wrap("a member dials "+m.host(s.namespace)+":2380", is.verifyServer(peer, m.host(s.namespace), peer, "ca.crt")))
	}
	r.check(checkPeerClient, wrap("a member presents Secret "+peer+" to a peer", is.verifyClient(peer, peer, "ca.crt")))
	r.check(checkPeerLookup, peerLookup(s, is, members))

	// The planes are apart: the client API refuses the peer certificate
	// and any certificate of the peer CA; the peer API refuses the client
	// CA's certificates, such as Kamaji's tenant certificates.
	if err := is.verifyClient(peer, server, "ca.crt"); err == nil {
		r.fail(checkPeerCA, fmt.Errorf("the client API (Secret %s's ca.crt) accepts the peer certificate %s as a client", server, peer))
	} else {
		r.pass(checkPeerCA)
	}
	peerCA, err := s.issuingCASecret(peer)
	if err != nil {
		r.fail(checkPeerCA, err)
	} else if err := is.signedBy("peer-ca-client", peerCA, rootUser); err != nil {
		r.fail(checkPeerCA, err)
	} else if err := is.verifyClient("peer-ca-client", server, "ca.crt"); err == nil {
		r.fail(checkPeerCA, fmt.Errorf("the client API accepts a certificate with CN root signed by the peer CA (Secret %s)", peerCA))
	} else {
		r.pass(checkPeerCA)
	}
	if _, ok := is.secrets["kamaji-tenant"]; ok {
		if err := is.verifyClient("kamaji-tenant", peer, "ca.crt"); err == nil {
			r.fail(checkPeerCA, errors.New("the peer API accepts a Kamaji tenant certificate as a peer"))
		} else {
			r.pass(checkPeerCA)
		}
	}
	return r
}

// dataStoreClientSecret is the Secret of the DataStore's client certificate.
func dataStoreClientSecret(s *stack) string {
	if ref := s.dataStore.Spec.TLSConfig.ClientCertificate.Certificate.SecretReference; ref != nil {
		return ref.Name
	}
	return ""
}

// isCACertificate: Secret secret is written by a rendered CA Certificate.
func (s *stack) isCACertificate(secret string) error {
	crt, err := s.certificateBySecret(secret)
	if err != nil {
		return fmt.Errorf("DataStore certificateAuthority: %w", err)
	}
	if !crt.Spec.IsCA {
		return fmt.Errorf("DataStore certificateAuthority is Secret %s of Certificate %s, which is not a CA", secret, crt.Name)
	}
	return nil
}

// issuingCASecret is the Secret of the CA that issues the Certificate
// writing secret: its issuerRef's Issuer's spec.ca.secretName.
func (s *stack) issuingCASecret(secret string) (string, error) {
	crt, err := s.certificateBySecret(secret)
	if err != nil {
		return "", err
	}
	iss, err := genericIssuer(s, crt.Spec.IssuerRef)
	if err != nil {
		return "", err
	}
	if iss.Spec.CA == nil {
		return "", fmt.Errorf("Certificate %s is not issued by a CA Issuer", crt.Name)
	}
	return iss.Spec.CA.SecretName, nil
}

// verifyAny verifies the leaf of Secret leaf against a CA pool for any
// usage (it checks the issuer alone).
func (is *issued) verifyAny(leaf, rootsSecret, rootsKey string) error {
	return is.verify(leaf, "", rootsSecret, rootsKey, x509.ExtKeyUsageAny)
}

func wrap(what string, err error) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// TestPKI issues every golden scenario's PKI through cert-manager's code
// and runs every check on it.
func TestPKI(t *testing.T) {
	warmKeys(t)
	for _, sc := range golden.All() {
		t.Run(sc.Name, func(t *testing.T) {
			s, ok := render(t, sc)
			if !ok {
				if len(s.certificates) != 0 {
					t.Fatalf("no EtcdCluster but %d Certificates", len(s.certificates))
				}
				t.Logf("%s renders no etcd (%d objects): nothing to issue", sc.Name, s.objectCount)
				return
			}
			r := runChecks(s)
			for _, l := range r.log {
				t.Log(l)
			}
			t.Logf("%s (%s):\n%s", sc.Name, sc.Caller, r)
			if f := r.failedChecks(); len(f) > 0 {
				t.Errorf("failed: %s", strings.Join(f, ", "))
			}
		})
	}
}

// warmKeys makes the keys of the first scenario's Certificates in parallel
// up front (the pool makes any other spec's when a stack asks for it).
func warmKeys(t testing.TB) {
	t.Helper()
	s, _ := render(t, golden.All()[0])
	bySpec := map[string][]*cmv1.Certificate{}
	for _, c := range s.certificates {
		spec := fmt.Sprintf("%s/%d", c.Spec.PrivateKey.Algorithm, c.Spec.PrivateKey.Size)
		bySpec[spec] = append(bySpec[spec], c)
	}
	for _, spec := range sortedKeys(bySpec) {
		if err := keys.warm(bySpec[spec][0], len(bySpec[spec])); err != nil {
			t.Fatal(err)
		}
	}
}

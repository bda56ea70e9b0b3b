package pki

import (
	"time"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/manifest"

	cmv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	cmmeta "github.com/cert-manager/cert-manager/pkg/apis/meta/v1"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Fixed PKI settings.
const (
	// CADuration is the lifetime of both CAs.
	CADuration = 87600 * time.Hour
	KeySize    = 4096
	// ClientCommonName makes the client certificate the etcd root user
	// under --client-cert-auth.
	ClientCommonName = "root"
	Localhost        = "localhost"
	LoopbackIP       = "127.0.0.1"

	// certManagerAPIVersion is cmv1.SchemeGroupVersion.String(), spelled
	// out for the hot path (the scheme round-trip test keeps it honest).
	certManagerAPIVersion = "cert-manager.io/v1"
)

// PKI is every cert-manager object of one etcd cluster.
type PKI struct {
	// SelfSigningIssuer is the self-signed Issuer that signs the two CAs
	// (naming.Names.SelfSigningIssuer).
	SelfSigningIssuer *cmv1.Issuer
	// PeerIssuer is the CA Issuer of the peer CA's Secret; it signs Peer.
	PeerIssuer *cmv1.Issuer
	// Issuer is the CA Issuer of CA's Secret; it signs Server and Client.
	Issuer *cmv1.Issuer
	// PeerCA is the CA certificate of the peer API, valid for CADuration; its
	// key is never rotated.
	PeerCA *cmv1.Certificate
	// CA is the CA certificate of the client API, valid for CADuration; its key
	// is never rotated.
	CA *cmv1.Certificate
	// Server is the etcd server certificate of the client API, signed by
	// Issuer, for DNSNames and LoopbackIP.
	Server *cmv1.Certificate
	// Peer is the certificate members serve and dial the peer API with (server
	// and client auth), signed by PeerIssuer, for DNSNames and LoopbackIP.
	Peer *cmv1.Certificate
	// Client is the client certificate with common name ClientCommonName, the
	// etcd root user, signed by Issuer; etcd-operator, Kamaji and the defrag
	// job present it.
	Client *cmv1.Certificate
}

// Issuers lists the three issuers.
func (p PKI) Issuers() []*cmv1.Issuer {
	return []*cmv1.Issuer{p.SelfSigningIssuer, p.PeerIssuer, p.Issuer}
}

// Certificates lists the five certificates, CAs first.
func (p PKI) Certificates() []*cmv1.Certificate {
	return []*cmv1.Certificate{p.PeerCA, p.CA, p.Server, p.Peer, p.Client}
}

// Objects lists the issuers (as Issuers) and then the certificates (as
// Certificates).
func (p PKI) Objects() []manifest.Object {
	return []manifest.Object{p.SelfSigningIssuer, p.PeerIssuer, p.Issuer, p.PeerCA, p.CA, p.Server, p.Peer, p.Client}
}

// ExtraDNSNames are the SANs a caller adds to the server and peer
// certificates after the cluster's own names.
func ExtraDNSNames(n naming.Names) []string {
	// etcd-operator's snapshot agent dials https://<name>-client.<ns>.svc:2379
	// (controllers/snapshot_job.go, clientServiceEndpoint), so both callers'
	// server certificates carry the client Service's names; without them
	// every EtcdSnapshot fails TLS verification with a hostname mismatch.
	client := []string{n.ClientService(), n.ClientService() + "." + n.Namespace + ".svc"}
	if n.Caller == naming.CallerEtcd {
		// Adopted legacy members keep their <name>-headless subdomain.
		return append([]string{"*." + n.LegacyHeadlessService() + "." + n.Namespace + ".svc"}, client...)
	}
	return client
}

// DNSNames are the SANs of the server and peer certificates. They are
// wildcards because the operator starts members, replacements included,
// under random names in <member>.<name>.<ns>.svc.
func DNSNames(n naming.Names) []string {
	out := []string{n.Cluster, n.ServiceHost(), "*." + n.ServiceHost()}
	out = append(out, ExtraDNSNames(n)...)
	return append(out, Localhost)
}

// Build returns the PKI of the cluster n names.
func Build(n naming.Names) (PKI, error) {
	if err := n.Validate(); err != nil {
		return PKI{}, err
	}
	subject := &cmv1.X509Subject{
		Organizations:       []string{n.Namespace},
		OrganizationalUnits: []string{n.Release},
	}
	ca := func(name, secret string) *cmv1.Certificate {
		c := certificate(n, name, secret, subject)
		c.Spec.IsCA = true
		c.Spec.Usages = []cmv1.KeyUsage{cmv1.UsageSigning, cmv1.UsageKeyEncipherment, cmv1.UsageCertSign}
		c.Spec.CommonName = name
		c.Spec.Duration = &metav1.Duration{Duration: CADuration}
		c.Spec.PrivateKey.RotationPolicy = cmv1.RotationPolicyNever
		c.Spec.IssuerRef = cmmeta.IssuerReference{Name: n.SelfSigningIssuer(), Kind: cmv1.IssuerKind, Group: "cert-manager.io"}
		return c
	}
	leaf := func(name, secret, issuer string, usages ...cmv1.KeyUsage) *cmv1.Certificate {
		c := certificate(n, name, secret, subject)
		c.Spec.CommonName = name
		c.Spec.Usages = usages
		c.Spec.DNSNames = DNSNames(n)
		c.Spec.IPAddresses = []string{LoopbackIP}
		c.Spec.IssuerRef = cmmeta.IssuerReference{Name: issuer, Kind: cmv1.IssuerKind}
		return c
	}
	client := certificate(n, n.ClientCertificate(), n.ClientSecret(), subject)
	client.Spec.CommonName = ClientCommonName
	client.Spec.Usages = []cmv1.KeyUsage{cmv1.UsageSigning, cmv1.UsageKeyEncipherment, cmv1.UsageClientAuth}
	client.Spec.IssuerRef = cmmeta.IssuerReference{Name: n.Issuer(), Kind: cmv1.IssuerKind}

	return PKI{
		SelfSigningIssuer: issuer(n, n.SelfSigningIssuer(), cmv1.IssuerConfig{SelfSigned: &cmv1.SelfSignedIssuer{}}),
		PeerIssuer:        issuer(n, n.PeerIssuer(), cmv1.IssuerConfig{CA: &cmv1.CAIssuer{SecretName: n.PeerCASecret()}}),
		Issuer:            issuer(n, n.Issuer(), cmv1.IssuerConfig{CA: &cmv1.CAIssuer{SecretName: n.CASecret()}}),
		PeerCA:            ca(n.PeerCACertificate(), n.PeerCASecret()),
		CA:                ca(n.CACertificate(), n.CASecret()),
		Server: leaf(n.ServerCertificate(), n.ServerSecret(), n.Issuer(),
			cmv1.UsageClientAuth, cmv1.UsageServerAuth, cmv1.UsageSigning, cmv1.UsageKeyEncipherment),
		Peer: leaf(n.PeerCertificate(), n.PeerSecret(), n.PeerIssuer(),
			cmv1.UsageServerAuth, cmv1.UsageClientAuth, cmv1.UsageSigning, cmv1.UsageKeyEncipherment),
		Client: client,
	}, nil
}

func issuer(n naming.Names, name string, cfg cmv1.IssuerConfig) *cmv1.Issuer {
	return &cmv1.Issuer{
		TypeMeta:   metav1.TypeMeta{APIVersion: certManagerAPIVersion, Kind: cmv1.IssuerKind},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: n.Namespace},
		Spec:       cmv1.IssuerSpec{IssuerConfig: cfg},
	}
}

// certificate is the Certificate name whose Secret is secret (the Names
// method's TLSSecret of name).
func certificate(n naming.Names, name, secret string, subject *cmv1.X509Subject) *cmv1.Certificate {
	return &cmv1.Certificate{
		TypeMeta:   metav1.TypeMeta{APIVersion: certManagerAPIVersion, Kind: cmv1.CertificateKind},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: n.Namespace},
		Spec: cmv1.CertificateSpec{
			SecretName: secret,
			Subject:    subject.DeepCopy(),
			PrivateKey: &cmv1.CertificatePrivateKey{
				RotationPolicy: cmv1.RotationPolicyAlways,
				Algorithm:      cmv1.RSAKeyAlgorithm,
				Size:           KeySize,
			},
		},
	}
}

// KeepSecrets are the etcd chart's pre-install placeholders for the CA and
// client Secrets, annotated so that Helm never deletes them: the DataStore
// of every tenant cluster on the shared etcd reads them.
func KeepSecrets(n naming.Names) ([]*corev1.Secret, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	out := make([]*corev1.Secret, 0, 2)
	for _, name := range []string{n.CASecret(), n.ClientSecret()} {
		out = append(out, &corev1.Secret{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
			ObjectMeta: metav1.ObjectMeta{
				Name:      name,
				Namespace: n.Namespace,
				Annotations: map[string]string{
					etcd.HookAnnotation:           "pre-install",
					etcd.ResourcePolicyAnnotation: "keep",
				},
			},
		})
	}
	return out, nil
}

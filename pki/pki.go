package pki

import (
	"time"

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
	SelfSigningIssuer *cmv1.Issuer
	PeerIssuer        *cmv1.Issuer
	Issuer            *cmv1.Issuer
	PeerCA            *cmv1.Certificate
	CA                *cmv1.Certificate
	Server            *cmv1.Certificate
	Peer              *cmv1.Certificate
	Client            *cmv1.Certificate
}

// Issuers lists the three issuers.
func (p PKI) Issuers() []*cmv1.Issuer {
	return []*cmv1.Issuer{p.SelfSigningIssuer, p.PeerIssuer, p.Issuer}
}

// Certificates lists the five certificates, CAs first.
func (p PKI) Certificates() []*cmv1.Certificate {
	return []*cmv1.Certificate{p.PeerCA, p.CA, p.Server, p.Peer, p.Client}
}

// ExtraDNSNames are the SANs a caller adds to the server and peer
// certificates after the cluster's own names.
func ExtraDNSNames(n naming.Names) []string {
	if n.Caller == naming.EtcdChart {
		// Adopted legacy members keep their <name>-headless subdomain.
		return []string{"*." + n.LegacyHeadlessService() + "." + n.Namespace + ".svc"}
	}
	return []string{n.ClientService(), n.ClientService() + "." + n.Namespace + ".svc"}
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
	ca := func(name string) *cmv1.Certificate {
		c := certificate(n, name, subject)
		c.Spec.IsCA = true
		c.Spec.Usages = []cmv1.KeyUsage{cmv1.UsageSigning, cmv1.UsageKeyEncipherment, cmv1.UsageCertSign}
		c.Spec.CommonName = name
		c.Spec.Duration = &metav1.Duration{Duration: CADuration}
		c.Spec.PrivateKey.RotationPolicy = cmv1.RotationPolicyNever
		c.Spec.IssuerRef = cmmeta.IssuerReference{Name: n.SelfSigningIssuer(), Kind: cmv1.IssuerKind, Group: "cert-manager.io"}
		return c
	}
	leaf := func(name, issuer string, usages ...cmv1.KeyUsage) *cmv1.Certificate {
		c := certificate(n, name, subject)
		c.Spec.CommonName = name
		c.Spec.Usages = usages
		c.Spec.DNSNames = DNSNames(n)
		c.Spec.IPAddresses = []string{LoopbackIP}
		c.Spec.IssuerRef = cmmeta.IssuerReference{Name: issuer, Kind: cmv1.IssuerKind}
		return c
	}
	client := certificate(n, n.ClientCertificate(), subject)
	client.Spec.CommonName = ClientCommonName
	client.Spec.Usages = []cmv1.KeyUsage{cmv1.UsageSigning, cmv1.UsageKeyEncipherment, cmv1.UsageClientAuth}
	client.Spec.IssuerRef = cmmeta.IssuerReference{Name: n.Issuer(), Kind: cmv1.IssuerKind}

	return PKI{
		SelfSigningIssuer: issuer(n, n.SelfSigningIssuer(), cmv1.IssuerConfig{SelfSigned: &cmv1.SelfSignedIssuer{}}),
		PeerIssuer:        issuer(n, n.PeerIssuer(), cmv1.IssuerConfig{CA: &cmv1.CAIssuer{SecretName: n.PeerCASecret()}}),
		Issuer:            issuer(n, n.Issuer(), cmv1.IssuerConfig{CA: &cmv1.CAIssuer{SecretName: n.CASecret()}}),
		PeerCA:            ca(n.PeerCACertificate()),
		CA:                ca(n.CACertificate()),
		Server: leaf(n.ServerCertificate(), n.Issuer(),
			cmv1.UsageClientAuth, cmv1.UsageServerAuth, cmv1.UsageSigning, cmv1.UsageKeyEncipherment),
		Peer: leaf(n.PeerCertificate(), n.PeerIssuer(),
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

func certificate(n naming.Names, name string, subject *cmv1.X509Subject) *cmv1.Certificate {
	return &cmv1.Certificate{
		TypeMeta:   metav1.TypeMeta{APIVersion: certManagerAPIVersion, Kind: cmv1.CertificateKind},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: n.Namespace},
		Spec: cmv1.CertificateSpec{
			SecretName: naming.TLSSecret(name),
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
					"helm.sh/hook":            "pre-install",
					"helm.sh/resource-policy": "keep",
				},
			},
		})
	}
	return out, nil
}

package works

// The issuance of a stack's Certificates through cert-manager v1.21.2's own
// code (pkg/util/pki), step by step as its controllers call it:
//
//   - keymanager (pkg/controller/certificates/keymanager): the next private
//     key, pki.GeneratePrivateKeyForCertificate(crt), checked against the
//     spec with pki.PrivateKeyMatchesSpec as the issuing controller does;
//   - requestmanager (pkg/controller/certificates/requestmanager,
//     createNewCertificateRequest): the CSR, pki.GenerateCSR with the
//     feature gates at their v1.21.2 defaults, signed with pki.EncodeCSR,
//     in a CertificateRequest carrying the Certificate's duration,
//     issuerRef, isCA and usages; pki.RequestMatchesSpec must find no
//     violation (the requestmanager deletes a request that has one);
//   - the CertificateRequest controllers (pkg/controller/certificaterequests:
//     sync.go resolves the issuerRef as pkg/issuer/helper.go's
//     GetGenericIssuer does; selfsigned/selfsigned.go and ca/ca.go Sign):
//     the template from pki.CertificateTemplateFromCertificateRequest, then
//     pki.SignCertificate(template, template, pub, key) for selfSigned and
//     pki.SignCSRTemplate(caCerts, caKey, template) for a CA issuer, whose
//     keypair is read from the Secret its spec.ca.secretName names as
//     pkg/util/kube.SecretTLSKeyPairAndCA reads it; a CA Issuer is Ready
//     only when that Secret holds a CA certificate (pkg/issuer/ca/setup.go);
//   - issuing (pkg/controller/certificates/issuing, issueCertificate and
//     internal/secret.go setValues): the Secret spec.secretName, with
//     tls.key (pki.EncodePrivateKey in the spec's encoding), tls.crt (the
//     request's certificate chain) and ca.crt (the request's CA).
//
// The CertificateRequest is not approved by an approver here: cert-manager's
// built-in approver approves every request for its in-tree issuers.
//
// pkg/util/kube and pkg/issuer are not imported: they add 360 and 730
// packages (client-go informers, the controller context) for the few lines
// copied below, which read a Secret's keys and switch on issuerRef.kind.

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"sort"
	"strings"
	"sync"

	apiutil "github.com/cert-manager/cert-manager/pkg/api/util"
	cmv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	cmmeta "github.com/cert-manager/cert-manager/pkg/apis/meta/v1"
	"github.com/cert-manager/cert-manager/pkg/util/pki"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Feature gates pki.GenerateCSR reads, at their defaults in cert-manager
// v1.21.2 (internal/controller/feature/features.go).
const (
	gateLiteralCertificateSubject             = true
	gateUseCertificateRequestBasicConstraints = false
	gateNameConstraints                       = true
	gateOtherNames                            = true
)

// keyPool hands out private keys made by pki.GeneratePrivateKeyForCertificate,
// generated once per run and reused across stacks: a 4096-bit RSA key takes
// seconds. The i-th key a stack asks for with a given algorithm and size is
// the same key in every stack, so within a stack every Certificate still
// has its own key, and a key always matches its Certificate's spec.
type keyPool struct {
	mu   sync.Mutex
	keys map[string][]crypto.Signer
}

var keys = &keyPool{keys: map[string][]crypto.Signer{}}

// keyCursor counts the keys one stack took.
type keyCursor map[string]int

func (p *keyPool) next(c keyCursor, crt *cmv1.Certificate) (crypto.Signer, error) {
	spec := "RSA/0"
	if pk := crt.Spec.PrivateKey; pk != nil {
		spec = fmt.Sprintf("%s/%d", pk.Algorithm, pk.Size)
	}
	i := c[spec]
	c[spec]++
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.keys[spec]) <= i {
		k, err := pki.GeneratePrivateKeyForCertificate(crt)
		if err != nil {
			return nil, err
		}
		p.keys[spec] = append(p.keys[spec], k)
	}
	k := p.keys[spec][i]
	if v := pki.PrivateKeyMatchesSpec(k, crt.Spec); len(v) > 0 {
		return nil, fmt.Errorf("key does not match the spec: %v", v)
	}
	return k, nil
}

// warmKeys generates n keys of crt's spec in parallel (the machine's cores),
// so that the first stack does not wait for them one by one.
func (p *keyPool) warm(crt *cmv1.Certificate, n int) error {
	spec := fmt.Sprintf("%s/%d", crt.Spec.PrivateKey.Algorithm, crt.Spec.PrivateKey.Size)
	p.mu.Lock()
	have := len(p.keys[spec])
	p.mu.Unlock()
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		made []crypto.Signer
		errs []error
	)
	for range n - have {
		wg.Go(func() {
			k, err := pki.GeneratePrivateKeyForCertificate(crt)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			made = append(made, k)
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		return errs[0]
	}
	p.mu.Lock()
	p.keys[spec] = append(p.keys[spec], made...)
	p.mu.Unlock()
	return nil
}

// issued is what cert-manager wrote for a stack: the Secrets by name.
type issued struct {
	namespace string
	secrets   map[string]*corev1.Secret
	// log lists each issuance, for the report.
	log []string
}

// issueStack issues every rendered Certificate of s, in the order
// cert-manager can: a Certificate whose CA Issuer's Secret does not exist
// yet waits for the Certificate that writes it. It fails for a Certificate
// cert-manager would never issue (an issuerRef to no rendered Issuer, a CA
// Issuer whose Secret no Certificate writes or that holds no CA).
func issueStack(s *stack) (*issued, error) {
	out := &issued{namespace: s.namespace, secrets: map[string]*corev1.Secret{}}
	cursor := keyCursor{}
	pending := append([]*cmv1.Certificate(nil), s.certificates...)
	// Deterministic order: by name, then as far as the Issuers allow.
	sort.Slice(pending, func(i, j int) bool { return pending[i].Name < pending[j].Name })
	for len(pending) > 0 {
		var waiting []*cmv1.Certificate
		var why []string
		for _, crt := range pending {
			ready, reason, err := out.issue(s, crt, cursor)
			if err != nil {
				return out, fmt.Errorf("Certificate %s: %w", crt.Name, err)
			}
			if !ready {
				waiting = append(waiting, crt)
				why = append(why, fmt.Sprintf("Certificate %s: %s", crt.Name, reason))
			}
		}
		if len(waiting) == len(pending) {
			return out, fmt.Errorf("never issued (cert-manager would leave them pending): %s", strings.Join(why, "; "))
		}
		pending = waiting
	}
	return out, nil
}

// issue issues crt if its issuer is ready; ready false with a reason when
// it must wait.
func (is *issued) issue(s *stack, crt *cmv1.Certificate, cursor keyCursor) (ready bool, reason string, err error) {
	iss, err := genericIssuer(s, crt.Spec.IssuerRef)
	if err != nil {
		return false, "", err
	}
	issuerType, err := apiutil.NameForIssuer(iss)
	if err != nil {
		return false, "", err
	}
	// The CA Issuer's setup (pkg/issuer/ca/setup.go): Ready once its Secret
	// holds a keypair whose certificate is a CA.
	if issuerType == apiutil.IssuerCA {
		caCerts, _, err := is.secretTLSKeyPairAndCA(iss.Spec.CA.SecretName)
		if err != nil {
			return false, fmt.Sprintf("Issuer %s is not Ready: %v", iss.Name, err), nil
		}
		if !caCerts[0].IsCA {
			return false, fmt.Sprintf("Issuer %s is not Ready: Secret %s: certificate is not a CA", iss.Name, iss.Spec.CA.SecretName), nil
		}
	}

	// keymanager
	key, err := keys.next(cursor, crt)
	if err != nil {
		return false, "", err
	}
	keySecret := crt.Name + "-next-private-key"
	keyPEM, err := pki.EncodePrivateKey(key, cmv1.PKCS1)
	if err != nil {
		return false, "", err
	}
	is.secrets[keySecret] = &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: keySecret, Namespace: is.namespace},
		Data:       map[string][]byte{corev1.TLSPrivateKeyKey: keyPEM},
	}

	// requestmanager
	csr, err := pki.GenerateCSR(crt,
		pki.WithUseLiteralSubject(gateLiteralCertificateSubject),
		pki.WithEncodeBasicConstraintsInRequest(gateUseCertificateRequestBasicConstraints),
		pki.WithNameConstraints(gateNameConstraints),
		pki.WithOtherNames(gateOtherNames),
	)
	if err != nil {
		return false, "", fmt.Errorf("GenerateCSR: %w", err)
	}
	der, err := pki.EncodeCSR(csr, key)
	if err != nil {
		return false, "", err
	}
	cr := &cmv1.CertificateRequest{
		ObjectMeta: metav1.ObjectMeta{
			Name:      crt.Name + "-1",
			Namespace: crt.Namespace,
			Annotations: map[string]string{
				cmv1.CertificateRequestRevisionAnnotationKey:   "1",
				cmv1.CertificateRequestPrivateKeyAnnotationKey: keySecret,
				cmv1.CertificateNameKey:                        crt.Name,
			},
		},
		Spec: cmv1.CertificateRequestSpec{
			Duration:  crt.Spec.Duration,
			IssuerRef: crt.Spec.IssuerRef,
			Request:   pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}),
			IsCA:      crt.Spec.IsCA,
			Usages:    crt.Spec.Usages,
		},
	}
	if v, err := pki.RequestMatchesSpec(cr, crt.Spec); err != nil || len(v) > 0 {
		return false, "", fmt.Errorf("CertificateRequest does not match the Certificate: %v %v", v, err)
	}

	// certificaterequests: the issuer's Sign.
	template, err := pki.CertificateTemplateFromCertificateRequest(cr)
	if err != nil {
		return false, "", fmt.Errorf("CertificateTemplateFromCertificateRequest: %w", err)
	}
	var certPEM, caPEM []byte
	switch issuerType {
	case apiutil.IssuerSelfSigned:
		priv, err := is.secretTLSKey(cr.Annotations[cmv1.CertificateRequestPrivateKeyAnnotationKey])
		if err != nil {
			return false, "", err
		}
		template.CRLDistributionPoints = iss.Spec.SelfSigned.CRLDistributionPoints
		pub, err := pki.PublicKeyForPrivateKey(priv)
		if err != nil {
			return false, "", err
		}
		if ok, err := pki.PublicKeysEqual(pub, template.PublicKey); err != nil || !ok {
			return false, "", fmt.Errorf("CSR not signed by referenced private key")
		}
		certPEM, _, err = pki.SignCertificate(template, template, pub, priv)
		if err != nil {
			return false, "", fmt.Errorf("SignCertificate: %w", err)
		}
		caPEM = certPEM
	case apiutil.IssuerCA:
		caCerts, caKey, err := is.secretTLSKeyPairAndCA(iss.Spec.CA.SecretName)
		if err != nil {
			return false, "", err
		}
		template.CRLDistributionPoints = iss.Spec.CA.CRLDistributionPoints
		template.OCSPServer = iss.Spec.CA.OCSPServers
		template.IssuingCertificateURL = iss.Spec.CA.IssuingCertificateURLs
		bundle, err := pki.SignCSRTemplate(caCerts, caKey, template)
		if err != nil {
			return false, "", fmt.Errorf("SignCSRTemplate: %w", err)
		}
		certPEM, caPEM = bundle.ChainPEM, bundle.CAPEM
	default:
		return false, "", fmt.Errorf("Issuer %s is of type %s, which this suite does not issue", iss.Name, issuerType)
	}
	if _, err := pki.DecodeX509CertificateBytes(certPEM); err != nil {
		return false, "", fmt.Errorf("Failed to decode returned certificate: %w", err)
	}

	// issuing
	if crt.Spec.SecretName == "" {
		return false, "", fmt.Errorf("no secretName")
	}
	encoding := cmv1.PKCS1
	if crt.Spec.PrivateKey != nil && crt.Spec.PrivateKey.Encoding != "" {
		encoding = crt.Spec.PrivateKey.Encoding
	}
	pkData, err := pki.EncodePrivateKey(key, encoding)
	if err != nil {
		return false, "", err
	}
	data := map[string][]byte{corev1.TLSPrivateKeyKey: pkData, corev1.TLSCertKey: certPEM}
	if len(caPEM) > 0 {
		data[cmmeta.TLSCAKey] = caPEM
	}
	is.secrets[crt.Spec.SecretName] = &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: crt.Spec.SecretName, Namespace: is.namespace},
		Type:       corev1.SecretTypeTLS,
		Data:       data,
	}
	is.log = append(is.log, fmt.Sprintf("%s by %s Issuer %s into Secret %s", crt.Name, issuerType, iss.Name, crt.Spec.SecretName))
	return true, "", nil
}

// genericIssuer resolves ref as cert-manager does: the CertificateRequest
// controllers act only on group "" or cert-manager.io (sync.go), and kind
// "" or Issuer is a namespaced Issuer (pkg/issuer/helper.go,
// GetGenericIssuer). The stacks render no ClusterIssuer.
func genericIssuer(s *stack, ref cmmeta.IssuerReference) (*cmv1.Issuer, error) {
	if ref.Group != "" && ref.Group != "cert-manager.io" {
		return nil, fmt.Errorf("issuerRef group %q: no cert-manager controller acts on it", ref.Group)
	}
	switch ref.Kind {
	case "", cmv1.IssuerKind:
	default:
		return nil, fmt.Errorf("issuerRef kind %q: the stack renders no such issuer", ref.Kind)
	}
	for _, iss := range s.issuers {
		if iss.Name == ref.Name && iss.Namespace == s.namespace {
			return iss, nil
		}
	}
	return nil, fmt.Errorf("issuerRef %q: Referenced \"Issuer\" not found", ref.Name)
}

// secretTLSKey reads tls.key as pkg/util/kube.SecretTLSKey does.
func (is *issued) secretTLSKey(name string) (crypto.Signer, error) {
	sec, ok := is.secrets[name]
	if !ok {
		return nil, fmt.Errorf("Secret %s/%s not found", is.namespace, name)
	}
	b, ok := sec.Data[corev1.TLSPrivateKeyKey]
	if !ok {
		return nil, fmt.Errorf("no data for %q in secret '%s/%s'", corev1.TLSPrivateKeyKey, is.namespace, name)
	}
	return pki.DecodePrivateKeyBytes(b)
}

// secretTLSKeyPairAndCA reads a Secret as pkg/util/kube.SecretTLSKeyPairAndCA
// does: tls.key, the chain in tls.crt, and ca.crt appended when present.
func (is *issued) secretTLSKeyPairAndCA(name string) ([]*x509.Certificate, crypto.Signer, error) {
	key, err := is.secretTLSKey(name)
	if err != nil {
		return nil, nil, err
	}
	sec := is.secrets[name]
	certBytes, ok := sec.Data[corev1.TLSCertKey]
	if !ok {
		return nil, key, fmt.Errorf("no certificate data for %q in secret '%s/%s'", corev1.TLSCertKey, is.namespace, name)
	}
	certs, err := pki.DecodeX509CertificateChainBytes(certBytes)
	if err != nil {
		return nil, key, err
	}
	if ca := sec.Data[cmmeta.TLSCAKey]; len(ca) > 0 {
		c, err := pki.DecodeX509CertificateBytes(ca)
		if err != nil {
			return nil, key, err
		}
		certs = append(certs, c)
	}
	return certs, key, nil
}

// The Secret data the consumers read, as files of a mounted Secret volume
// would hold it.

func (is *issued) secretKey(name, key string) ([]byte, error) {
	sec, ok := is.secrets[name]
	if !ok {
		return nil, fmt.Errorf("Secret %s/%s does not exist (no Certificate writes it)", is.namespace, name)
	}
	b, ok := sec.Data[key]
	if !ok || len(b) == 0 {
		return nil, fmt.Errorf("Secret %s/%s has no key %q", is.namespace, name, key)
	}
	return b, nil
}

// pool is a CertPool of the PEM certificates in Secret name's key, as a TLS
// peer loads a CA file.
func (is *issued) pool(name, key string) (*x509.CertPool, error) {
	b, err := is.secretKey(name, key)
	if err != nil {
		return nil, err
	}
	p := x509.NewCertPool()
	if !p.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("Secret %s/%s key %q holds no PEM certificate", is.namespace, name, key)
	}
	return p, nil
}

// leaf is the first certificate of Secret name's tls.crt and the rest of
// its chain as intermediates, as a TLS peer presents them.
func (is *issued) leaf(name string) (*x509.Certificate, *x509.CertPool, error) {
	b, err := is.secretKey(name, corev1.TLSCertKey)
	if err != nil {
		return nil, nil, err
	}
	certs, err := pki.DecodeX509CertificateChainBytes(b)
	if err != nil {
		return nil, nil, err
	}
	inter := x509.NewCertPool()
	for _, c := range certs[1:] {
		inter.AddCert(c)
	}
	return certs[0], inter, nil
}

// sameBytes reports whether two Secrets' keys hold the same bytes.
func (is *issued) sameBytes(a, ak, b, bk string) bool {
	x, err1 := is.secretKey(a, ak)
	y, err2 := is.secretKey(b, bk)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

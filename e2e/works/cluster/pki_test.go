package cluster

import (
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"

	cmv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	"github.com/cert-manager/cert-manager/pkg/util/pki"
	batchv1 "k8s.io/api/batch/v1"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	kamajiv1alpha1 "github.com/etcdshapes/etcdshapes/apis/kamaji/v1alpha1"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
)

// stack is one caller's rendered objects, the ones the consumers read.
type stack struct {
	caller    string // "etcd chart" or "per-cluster"
	namespace string
	names     naming.Names
	cluster   *v1alpha2.EtcdCluster
	issuers   map[string]*cmv1.Issuer
	certs     []*cmv1.Certificate
	datastore *kamajiv1alpha1.DataStore
	defrag    *batchv1.CronJob
	check     *batchv1.Job
}

// renderEtcdChart and renderCluster render the two callers on defaults, as
// "etcdshapes render etcd|cluster" and "etcdshapes render check … --datascale"
// do; with auth, etcd authentication on (etcd.Auth) with the root
// credentials Secret "<cluster>-root-credentials", as a caller passes it
// (values auth / etcd.auth).
func renderEtcdChart(auth bool) (*stack, error) {
	n, err := naming.ForEtcdChart("tenant-root", "etcd")
	if err != nil {
		return nil, err
	}
	o := etcd.Options{Auth: authOf(n, auth)}
	objs, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Etcd: o})
	if err != nil {
		return nil, err
	}
	return newStack(callerName("etcd chart", auth), n, objs, o)
}

func renderCluster(auth bool) (*stack, error) {
	n, err := naming.ForCluster("tenant-demo", "kubernetes-demo")
	if err != nil {
		return nil, err
	}
	objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", Auth: authOf(n, auth)})
	if err != nil {
		return nil, err
	}
	return newStack(callerName("per-cluster", auth), n, objs, etcd.Options{})
}

func authOf(n naming.Names, on bool) etcd.Auth {
	if !on {
		return etcd.Auth{}
	}
	return etcd.Auth{Enabled: true, RootCredentialsSecret: n.Cluster + "-root-credentials"}
}

func callerName(caller string, auth bool) string {
	if auth {
		return caller + ", auth on"
	}
	return caller
}

// authOn reports whether the rendered EtcdCluster asks for etcd auth.
func (s *stack) authOn() bool { return s.cluster.Spec.Auth != nil && s.cluster.Spec.Auth.Enabled }

func newStack(caller string, n naming.Names, objs []etcdshapes.Object, o etcd.Options) (*stack, error) {
	s := &stack{caller: caller, namespace: n.Namespace, names: n, issuers: map[string]*cmv1.Issuer{}}
	for _, obj := range objs {
		switch v := obj.(type) {
		case *v1alpha2.EtcdCluster:
			s.cluster = v
		case *cmv1.Issuer:
			s.issuers[v.Name] = v
		case *cmv1.Certificate:
			s.certs = append(s.certs, v)
		case *kamajiv1alpha1.DataStore:
			s.datastore = v
		case *batchv1.CronJob:
			s.defrag = v
		}
	}
	if s.cluster == nil || s.datastore == nil || s.defrag == nil || len(s.certs) != 5 || len(s.issuers) != 3 {
		return nil, fmt.Errorf("%s: the stack lacks an object the suite needs", caller)
	}
	check, err := etcd.CheckJob(n, o, etcd.CheckOptions{Datascale: true})
	if err != nil {
		return nil, err
	}
	s.check = check
	return s, nil
}

// cert returns the rendered Certificate whose name ends in suffix
// ("-ca", "-server", …).
func (s *stack) cert(suffix string) *cmv1.Certificate {
	for _, c := range s.certs {
		if c.Name == s.names.Cluster+suffix {
			return c
		}
	}
	return nil
}

// secrets are what cert-manager writes: Secret name → key → bytes.
type secrets map[string]map[string][]byte

func (s secrets) clone() secrets {
	out := secrets{}
	for k, v := range s {
		m := map[string][]byte{}
		for kk, vv := range v {
			m[kk] = vv
		}
		out[k] = m
	}
	return out
}

// keyCache hands out private keys for Certificates. cert-manager makes a
// new key for each issuance (rotationPolicy Always); RSA 4096 takes seconds
// each on a loaded machine, so the suite generates each key once, with
// cert-manager's own GeneratePrivateKeyForCertificate, and reuses it from
// the cache directory: the n-th key of an algorithm and size in a run is
// always the same file. The keys are test material only.
type keyCache struct {
	dir  string
	mu   sync.Mutex
	next map[string]int
}

func (k *keyCache) key(crt *cmv1.Certificate) (crypto.Signer, error) {
	alg, size := "RSA", 2048
	if pk := crt.Spec.PrivateKey; pk != nil {
		if pk.Algorithm != "" {
			alg = string(pk.Algorithm)
		}
		if pk.Size != 0 {
			size = pk.Size
		}
	}
	k.mu.Lock()
	id := alg + "-" + strconv.Itoa(size)
	n := k.next[id]
	k.next[id] = n + 1
	k.mu.Unlock()
	path := filepath.Join(k.dir, fmt.Sprintf("%s-%d.pem", id, n))
	if b, err := os.ReadFile(path); err == nil {
		if key, err := pki.DecodePrivateKeyBytes(b); err == nil {
			return key, nil
		}
	}
	key, err := pki.GeneratePrivateKeyForCertificate(crt)
	if err != nil {
		return nil, err
	}
	b, err := pki.EncodePrivateKey(key, cmv1.PKCS8)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(k.dir, 0o700); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(k.dir, ".key-*")
	if err != nil {
		return nil, err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return nil, err
	}
	return key, os.Rename(tmp.Name(), path)
}

// issue runs cert-manager v1.21.2's issuance path for every Certificate:
// the requestmanager's CSR (pki.GenerateCSR with the feature gates' defaults
// of this release: literal subject on, basic constraints in the request
// off, name constraints on, other names on; pki.EncodeCSR with the key), a
// CertificateRequest with the Certificate's duration, isCA and usages, the
// template the issuers build from it (pki.CertificateTemplateFromCertificateRequest),
// then the selfSigned issuer's pki.SignCertificate (template as its own
// parent; ca.crt is the certificate itself) or the CA issuer's
// pki.SignCSRTemplate with the CA Secret's certificate and key (ca.crt is
// the CA). Secrets get tls.crt, tls.key (the Certificate's key encoding)
// and ca.crt, as the issuing controller writes them. A Certificate whose
// issuer's Secret does not exist yet waits for it, as in a cluster.
func issue(certs []*cmv1.Certificate, issuers map[string]*cmv1.Issuer, keys *keyCache, into secrets) error {
	pending := append([]*cmv1.Certificate(nil), certs...)
	for len(pending) > 0 {
		var later []*cmv1.Certificate
		for _, crt := range pending {
			iss := issuers[crt.Spec.IssuerRef.Name]
			if iss == nil {
				return fmt.Errorf("certificate %s: no issuer %q", crt.Name, crt.Spec.IssuerRef.Name)
			}
			if iss.Spec.CA != nil && into[iss.Spec.CA.SecretName] == nil {
				later = append(later, crt)
				continue
			}
			sec, err := issueOne(crt, iss, keys, into)
			if err != nil {
				return fmt.Errorf("certificate %s: %w", crt.Name, err)
			}
			into[crt.Spec.SecretName] = sec
		}
		if len(later) == len(pending) {
			return fmt.Errorf("certificates wait for issuers that never become ready: %s", later[0].Name)
		}
		pending = later
	}
	return nil
}

func issueOne(crt *cmv1.Certificate, iss *cmv1.Issuer, keys *keyCache, have secrets) (map[string][]byte, error) {
	key, err := keys.key(crt)
	if err != nil {
		return nil, err
	}
	csr, err := pki.GenerateCSR(crt,
		pki.WithUseLiteralSubject(true),
		pki.WithEncodeBasicConstraintsInRequest(false),
		pki.WithNameConstraints(true),
		pki.WithOtherNames(true),
	)
	if err != nil {
		return nil, err
	}
	der, err := pki.EncodeCSR(csr, key)
	if err != nil {
		return nil, err
	}
	cr := &cmv1.CertificateRequest{Spec: cmv1.CertificateRequestSpec{
		Duration:  crt.Spec.Duration,
		IssuerRef: crt.Spec.IssuerRef,
		Request:   pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}),
		IsCA:      crt.Spec.IsCA,
		Usages:    crt.Spec.Usages,
	}}
	template, err := pki.CertificateTemplateFromCertificateRequest(cr)
	if err != nil {
		return nil, err
	}
	encoding := cmv1.PKCS1
	if crt.Spec.PrivateKey != nil && crt.Spec.PrivateKey.Encoding != "" {
		encoding = crt.Spec.PrivateKey.Encoding
	}
	keyPEM, err := pki.EncodePrivateKey(key, encoding)
	if err != nil {
		return nil, err
	}
	switch {
	case iss.Spec.SelfSigned != nil:
		certPEM, _, err := pki.SignCertificate(template, template, key.Public(), key)
		if err != nil {
			return nil, err
		}
		return map[string][]byte{"tls.crt": certPEM, "tls.key": keyPEM, "ca.crt": certPEM}, nil
	case iss.Spec.CA != nil:
		ca := have[iss.Spec.CA.SecretName]
		caCerts, err := pki.DecodeX509CertificateChainBytes(ca["tls.crt"])
		if err != nil {
			return nil, err
		}
		caKey, err := pki.DecodePrivateKeyBytes(ca["tls.key"])
		if err != nil {
			return nil, err
		}
		bundle, err := pki.SignCSRTemplate(caCerts, caKey, template)
		if err != nil {
			return nil, err
		}
		return map[string][]byte{"tls.crt": bundle.ChainPEM, "tls.key": keyPEM, "ca.crt": bundle.CAPEM}, nil
	}
	return nil, fmt.Errorf("issuer %s is neither selfSigned nor CA", iss.Name)
}

// writeSecretVolume writes a Secret's keys as files, as kubelet projects a
// secret volume.
func writeSecretVolume(dir string, sec map[string][]byte) error {
	if sec == nil {
		return fmt.Errorf("no such secret for %s", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	keys := make([]string, 0, len(sec))
	for k := range sec {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := os.WriteFile(filepath.Join(dir, k), sec[k], 0o600); err != nil {
			return err
		}
	}
	return nil
}

// leaf parses a Secret's tls.crt.
func leaf(sec map[string][]byte) (*x509.Certificate, error) {
	return pki.DecodeX509CertificateBytes(sec["tls.crt"])
}

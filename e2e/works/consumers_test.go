package works

// The consumers of a stack's TLS material, each as it reads the rendered
// objects and the issued Secrets and verifies what it dials or is dialled
// by: x509.Certificate.Verify with the name (DNSName) and the key usage a
// TLS client or server asks for, against the CA pool it loads.
//
// etcd-operator (cozystack/etcd-operator, controllers/):
//   - member pods (etcdmember_controller.go, buildPod): --cert-file and
//     --key-file from spec.tls.client.serverSecretRef's tls.crt/tls.key,
//     --trusted-ca-file from its ca.crt with --client-cert-auth;
//     --peer-cert-file, --peer-key-file, --peer-trusted-ca-file from
//     spec.tls.peer.secretRef with --peer-client-cert-auth; advertised as
//     https://<member>.<service>.<ns>.svc:2379 and :2380 (helpers.go,
//     clientURL and peerURL), service being the member's headless Service:
//     the cluster's name, or for members adopted from the legacy chart the
//     legacy Service (AnnHeadlessServiceName); member names come from
//     GenerateName "<cluster>-" (etcdcluster_controller.go, bootstrap);
//   - the operator's own client (etcd_client.go, buildOperatorTLSConfig):
//     RootCAs from the server Secret's ca.crt, the keypair of
//     spec.tls.client.operatorClientSecretRef, dialling every member's
//     client URL (helpers.go, memberEndpoints);
//   - the snapshot agent (snapshot_job.go): https://<cluster>-client.<ns>.svc:2379
//     (clientServiceEndpoint), the server Secret's ca.crt, the operator
//     client keypair.
//
// Kamaji: the DataStore's spec.endpoints, dialled with the CA of
// spec.tlsConfig.certificateAuthority.certificate and the keypair of
// spec.tlsConfig.clientCertificate; it also signs each tenant
// apiserver's etcd client certificate with that CA's certificate and
// private key, so etcd must trust that CA for clients.
//
// The defrag CronJob and the check Job: their containers' --endpoints,
// --cacert, --cert and --key, read from the Secret volume mounted at those
// paths.

import (
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/cert-manager/cert-manager/pkg/util/pki"
	kamajiv1alpha1 "github.com/etcdshapes/etcdshapes/apis/kamaji/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apiserver/pkg/storage/names"
)

// etcd-operator's labels and annotations (helpers.go).
const (
	labelCluster           = "etcd-operator.cozystack.io/cluster"
	annHeadlessServiceName = "etcd-operator.cozystack.io/headless-service-name"
	rootUser               = "root"
)

// member is one etcd member pod.
type member struct {
	name string
	// service is the headless Service the member resolves under.
	service string
	// ip is its pod IP (a loopback address, for the peer listener test).
	ip string
	// adopted is a member the migration tool adopted from the legacy chart.
	adopted bool
}

func (m member) host(namespace string) string {
	return m.name + "." + m.service + "." + namespace + ".svc"
}

// members are the stack's member pods: three with the names the API server
// gives GenerateName "<cluster>-" (k8s.io/apiserver's SimpleNameGenerator,
// random), and for the etcd chart one pod per replica adopted from the
// legacy StatefulSet (etcd-<i> under the legacy headless Service) the
// rendered Service keeps resolvable.
func (s *stack) members() []member {
	var out []member
	ip := 2
	next := func() string {
		ip++
		return "127.77.0." + strconv.Itoa(ip)
	}
	for range 3 {
		out = append(out, member{name: names.SimpleNameGenerator.GenerateName(s.cluster.Name + "-"), service: s.cluster.Name, ip: next()})
	}
	for _, svc := range s.services {
		if svc.Spec.ClusterIP != corev1.ClusterIPNone || svc.Spec.Selector[labelCluster] != s.cluster.Name {
			continue
		}
		replicas := int32(3)
		if s.cluster.Spec.Replicas != nil {
			replicas = *s.cluster.Spec.Replicas
		}
		// The legacy StatefulSet was named after the cluster.
		for i := range replicas {
			out = append(out, member{name: s.cluster.Name + "-" + strconv.Itoa(int(i)), service: svc.Name, ip: next(), adopted: true})
		}
	}
	return out
}

// consumer is one program that dials etcd's client API, with what it
// presents and trusts.
type consumer struct {
	name string
	// hosts it dials (the TLS server name).
	hosts []string
	// rootsSecret, rootsKey hold the CA it verifies the server with.
	rootsSecret, rootsKey string
	// certSecret, certKey hold the client certificate it presents.
	certSecret, certKey string
}

// consumers are the stack's client API consumers, each read from the
// rendered objects.
func (s *stack) consumers(members []member) ([]consumer, error) {
	tls := s.cluster.Spec.TLS
	if tls == nil || tls.Client == nil || tls.Client.ServerSecretRef == nil || tls.Client.OperatorClientSecretRef == nil {
		return nil, errors.New("EtcdCluster: spec.tls.client.serverSecretRef and operatorClientSecretRef must be set")
	}
	server, opClient := tls.Client.ServerSecretRef.Name, tls.Client.OperatorClientSecretRef.Name
	var out []consumer

	op := consumer{name: "etcd-operator", rootsSecret: server, rootsKey: "ca.crt", certSecret: opClient, certKey: corev1.TLSCertKey}
	for _, m := range members {
		op.hosts = append(op.hosts, m.host(s.namespace))
	}
	out = append(out, op)
	out = append(out, consumer{name: "snapshot agent", hosts: []string{s.cluster.Name + "-client." + s.cluster.Namespace + ".svc"},
		rootsSecret: server, rootsKey: "ca.crt", certSecret: opClient, certKey: corev1.TLSCertKey})

	ds := s.dataStore.Spec
	k := consumer{name: "Kamaji"}
	for _, e := range ds.Endpoints {
		h, err := endpointHost(e)
		if err != nil {
			return nil, fmt.Errorf("DataStore spec.endpoints: %w", err)
		}
		k.hosts = append(k.hosts, h)
	}
	if ds.TLSConfig == nil || ds.TLSConfig.ClientCertificate == nil {
		return nil, errors.New("DataStore: no spec.tlsConfig.clientCertificate")
	}
	var err error
	if k.rootsSecret, k.rootsKey, err = s.secretRef(ds.TLSConfig.CertificateAuthority.Certificate); err != nil {
		return nil, fmt.Errorf("DataStore certificateAuthority.certificate: %w", err)
	}
	if k.certSecret, k.certKey, err = s.secretRef(ds.TLSConfig.ClientCertificate.Certificate); err != nil {
		return nil, fmt.Errorf("DataStore clientCertificate.certificate: %w", err)
	}
	out = append(out, k)

	jobs := []struct {
		name string
		spec corev1.PodSpec
	}{
		{"defrag CronJob " + s.defrag.Name, s.defrag.Spec.JobTemplate.Spec.Template.Spec},
		{"check Job " + s.check.Name, s.check.Spec.Template.Spec},
	}
	for _, j := range jobs {
		for _, c := range append(append([]corev1.Container{}, j.spec.InitContainers...), j.spec.Containers...) {
			jc, err := jobConsumer(j.name+" container "+c.Name, j.spec, c)
			if err != nil {
				return nil, err
			}
			out = append(out, jc)
		}
	}
	return out, nil
}

// secretRef is the Secret and key a Kamaji ContentRef names, in the stack's
// namespace.
func (s *stack) secretRef(r kamajiv1alpha1.ContentRef) (name, key string, err error) {
	ref := r.SecretReference
	if ref == nil {
		return "", "", errors.New("no secretReference")
	}
	if ref.Namespace != s.namespace {
		return "", "", fmt.Errorf("Secret %s/%s is not in the stack's namespace %s", ref.Namespace, ref.Name, s.namespace)
	}
	return ref.Name, ref.KeyPath, nil
}

// jobConsumer reads an etcdctl-style container: --endpoints, --cacert,
// --cert, --key, each path resolved through the pod's Secret volumes.
func jobConsumer(name string, pod corev1.PodSpec, c corev1.Container) (consumer, error) {
	out := consumer{name: name}
	eps, ok := argValue(c.Args, "--endpoints")
	if !ok {
		return out, fmt.Errorf("%s: no --endpoints", name)
	}
	for _, e := range strings.Split(eps, ",") {
		h, err := endpointHost(e)
		if err != nil {
			return out, fmt.Errorf("%s: --endpoints: %w", name, err)
		}
		out.hosts = append(out.hosts, h)
	}
	var err error
	for _, f := range []struct {
		flag        string
		secret, key *string
	}{{"--cacert", &out.rootsSecret, &out.rootsKey}, {"--cert", &out.certSecret, &out.certKey}} {
		p, ok := argValue(c.Args, f.flag)
		if !ok {
			return out, fmt.Errorf("%s: no %s", name, f.flag)
		}
		if *f.secret, *f.key, err = mountedSecretFile(pod, c, p); err != nil {
			return out, fmt.Errorf("%s: %s=%s: %w", name, f.flag, p, err)
		}
	}
	// --key must be the same Secret's private key.
	p, ok := argValue(c.Args, "--key")
	if !ok {
		return out, fmt.Errorf("%s: no --key", name)
	}
	ks, kk, err := mountedSecretFile(pod, c, p)
	if err != nil || ks != out.certSecret || kk != corev1.TLSPrivateKeyKey {
		return out, fmt.Errorf("%s: --key=%s is not the private key of --cert's Secret %s (%s %s %v)", name, p, out.certSecret, ks, kk, err)
	}
	return out, nil
}

// mountedSecretFile is the Secret and key a file path of container c reads,
// through its volume mounts and the pod's Secret volumes.
func mountedSecretFile(pod corev1.PodSpec, c corev1.Container, file string) (secret, key string, err error) {
	dir, base := path.Split(file)
	dir = strings.TrimSuffix(dir, "/")
	for _, m := range c.VolumeMounts {
		if strings.TrimSuffix(m.MountPath, "/") != dir || m.SubPath != "" {
			continue
		}
		for _, v := range pod.Volumes {
			if v.Name != m.Name {
				continue
			}
			if v.Secret == nil {
				return "", "", fmt.Errorf("volume %s is not a Secret", v.Name)
			}
			for _, it := range v.Secret.Items {
				if it.Path == base {
					return v.Secret.SecretName, it.Key, nil
				}
			}
			if len(v.Secret.Items) > 0 {
				return "", "", fmt.Errorf("volume %s projects no %s", v.Name, base)
			}
			return v.Secret.SecretName, base, nil
		}
		return "", "", fmt.Errorf("mount %s names no volume", m.Name)
	}
	return "", "", fmt.Errorf("no volume is mounted at %s", dir)
}

// verifyServer verifies the certificate in Secret leaf as a TLS client
// dialling host does, against the CA in rootsSecret/rootsKey.
func (is *issued) verifyServer(leaf, host, rootsSecret, rootsKey string) error {
	return is.verify(leaf, host, rootsSecret, rootsKey, x509.ExtKeyUsageServerAuth)
}

// verifyClient verifies the certificate in Secret leaf as a TLS server
// requiring client certificates does, against the CA it trusts.
func (is *issued) verifyClient(leaf, rootsSecret, rootsKey string) error {
	return is.verify(leaf, "", rootsSecret, rootsKey, x509.ExtKeyUsageClientAuth)
}

func (is *issued) verify(leaf, host, rootsSecret, rootsKey string, usage x509.ExtKeyUsage) error {
	roots, err := is.pool(rootsSecret, rootsKey)
	if err != nil {
		return err
	}
	crt, inter, err := is.leaf(leaf)
	if err != nil {
		return err
	}
	_, err = crt.Verify(x509.VerifyOptions{DNSName: host, Roots: roots, Intermediates: inter, KeyUsages: []x509.ExtKeyUsage{usage}})
	return err
}

// signedBy makes a client certificate signed by the CA keypair in Secret
// caSecret (tls.crt, tls.key), as Kamaji signs a tenant apiserver's etcd
// certificate with the DataStore's CA, and stores it as Secret name.
func (is *issued) signedBy(name, caSecret, cn string) error {
	caCerts, caKey, err := is.secretTLSKeyPairAndCA(caSecret)
	if err != nil {
		return err
	}
	// Not a rendered certificate: a quick key will do.
	key, err := pki.GenerateECPrivateKey(pki.ECCurve256)
	if err != nil {
		return err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Minute),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	certPEM, _, err := pki.SignCertificate(tmpl, caCerts[0], key.Public(), caKey)
	if err != nil {
		return err
	}
	is.secrets[name] = &corev1.Secret{Data: map[string][]byte{corev1.TLSCertKey: certPEM}}
	return nil
}

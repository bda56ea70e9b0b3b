package works

// etcd's peer listener checks a connecting peer's certificate against the
// connection's source IP (client/pkg/transport/listener_tls.go, checkSAN
// and checkCertSAN, v3.6.11 as rendered): an IP SAN must match it, or else
// one of the certificate's DNS names must, through a reverse lookup of
// the IP (the PTR name must equal a plain name or end in a wildcard's
// suffix) or a forward lookup of a plain name (never of a wildcard) that
// returns the IP. The peer certificate carries 127.0.0.1 only, so a peer
// connecting from its pod IP passes through DNS.
//
// peerLookup runs etcd's own listener (transport.NewListenerWithOpts with
// the peer TLSInfo etcd-operator's --peer-* flags give: cert, key, trusted
// CA, client-cert-auth; server/embed/etcd.go configurePeerListeners) on one
// member's pod IP and dials it from every other member's, each a loopback
// address, with the peer Secret and the dialled member's peer URL as the
// TLS server name. Go's resolver, which etcd uses (net.DefaultResolver), is
// pointed at a DNS stand-in answering as CoreDNS's kubernetes plugin does
// for a pod in the stack's namespace: A records of the operator's Services
// (the headless <cluster> Service, publishNotReadyAddresses, selecting
// etcd-operator.cozystack.io/cluster; the <cluster>-client ClusterIP
// Service; etcd-operator's controllers/etcdcluster_controller.go,
// ensureServices) and the rendered ones, computed from their selectors and
// the member pods' labels (memberLabels and additionalMetadata, helpers.go);
// a hostname record <member>.<subdomain>.<ns>.svc.<domain> for a pod whose
// subdomain is a headless Service selecting it; PTR records of those names;
// and the pod's resolv.conf search list (<ns>.svc.<domain>, svc.<domain>,
// <domain>; the stand-in expands a name through it as the pod's resolver
// would). The cluster domain is cluster.local (Cozystack's is cozy.local:
// the same names but the suffix).

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"go.etcd.io/etcd/client/pkg/v3/transport"
	"golang.org/x/net/dns/dnsmessage"
)

const clusterDomain = "cluster.local"

// pod is a member pod as DNS sees it.
type pod struct {
	member
	labels map[string]string
}

// dnsService is a Service as DNS sees it.
type dnsService struct {
	name      string
	headless  bool
	clusterIP string
	selector  map[string]string
}

// kubeDNS answers for one namespace's pods and Services.
type kubeDNS struct {
	namespace string
	a         map[string][]string // FQDN (with the final dot) → IPv4 addresses
	ptr       map[string][]string // IPv4 address → FQDNs
}

// newKubeDNS computes the records of the stack's member pods and Services.
func newKubeDNS(s *stack, members []member) *kubeDNS {
	d := &kubeDNS{namespace: s.namespace, a: map[string][]string{}, ptr: map[string][]string{}}
	var pods []pod
	for _, m := range members {
		l := map[string]string{
			"app.kubernetes.io/name":       "etcd",
			"app.kubernetes.io/instance":   s.cluster.Name,
			"app.kubernetes.io/managed-by": "etcd-operator",
			labelCluster:                   s.cluster.Name,
			"app.kubernetes.io/component":  m.name,
		}
		if md := s.cluster.Spec.AdditionalMetadata; md != nil {
			for k, v := range md.Labels {
				if _, taken := l[k]; !taken && !strings.HasPrefix(k, "etcd-operator.cozystack.io/") {
					l[k] = v
				}
			}
		}
		pods = append(pods, pod{member: m, labels: l})
	}
	services := []dnsService{
		{name: s.cluster.Name, headless: true, selector: map[string]string{labelCluster: s.cluster.Name}},
		{name: s.cluster.Name + "-client", clusterIP: "127.88.0.1", selector: map[string]string{labelCluster: s.cluster.Name}},
	}
	for i, svc := range s.services {
		ds := dnsService{name: svc.Name, headless: svc.Spec.ClusterIP == corev1.ClusterIPNone, selector: svc.Spec.Selector}
		if !ds.headless {
			ds.clusterIP = fmt.Sprintf("127.88.0.%d", i+2)
		}
		services = append(services, ds)
	}
	zone := "." + s.namespace + ".svc." + clusterDomain + "."
	for _, svc := range services {
		fqdn := svc.name + zone
		if !svc.headless {
			d.a[fqdn] = append(d.a[fqdn], svc.clusterIP)
			continue
		}
		sel := labels.SelectorFromSet(svc.selector)
		for _, p := range pods {
			if len(svc.selector) == 0 || !sel.Matches(labels.Set(p.labels)) {
				continue
			}
			d.a[fqdn] = append(d.a[fqdn], p.ip)
			name := strings.ReplaceAll(p.ip, ".", "-") + "." + fqdn
			if p.service == svc.name {
				name = p.name + "." + fqdn
			}
			d.a[name] = append(d.a[name], p.ip)
			d.ptr[p.ip] = append(d.ptr[p.ip], name)
		}
	}
	return d
}

// resolve answers a query for name as the pod's resolver and CoreDNS
// together: a name outside the cluster domain goes through the search list.
func (d *kubeDNS) resolve(name string) (fqdn string, ips []string) {
	name = strings.ToLower(name)
	candidates := []string{name}
	if !strings.HasSuffix(name, "."+clusterDomain+".") {
		candidates = nil
		for _, search := range []string{d.namespace + ".svc." + clusterDomain, "svc." + clusterDomain, clusterDomain} {
			candidates = append(candidates, name+search+".")
		}
	}
	for _, c := range candidates {
		if ips, ok := d.a[c]; ok {
			return c, ips
		}
	}
	return "", nil
}

// serve answers DNS queries on a loopback UDP port until ctx ends.
func (d *kubeDNS) serve(ctx context.Context) (addr string, err error) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	go func() { <-ctx.Done(); pc.Close() }()
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if resp, err := d.answer(buf[:n]); err == nil {
				_, _ = pc.WriteTo(resp, from)
			}
		}
	}()
	return pc.LocalAddr().String(), nil
}

func (d *kubeDNS) answer(query []byte) ([]byte, error) {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil {
		return nil, err
	}
	q, err := p.Question()
	if err != nil {
		return nil, err
	}
	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RCode: dnsmessage.RCodeNameError}
	type rr struct {
		a   *dnsmessage.AResource
		ptr *dnsmessage.PTRResource
	}
	var answers []rr
	name := q.Name.String()
	switch {
	case q.Type == dnsmessage.TypePTR && strings.HasSuffix(name, ".in-addr.arpa."):
		parts := strings.Split(strings.TrimSuffix(name, ".in-addr.arpa."), ".")
		slices.Reverse(parts)
		ip := strings.Join(parts, ".")
		for _, n := range d.ptr[ip] {
			answers = append(answers, rr{ptr: &dnsmessage.PTRResource{PTR: dnsmessage.MustNewName(n)}})
		}
	default:
		if _, ips := d.resolve(name); ips != nil {
			rh.RCode = dnsmessage.RCodeSuccess
			if q.Type == dnsmessage.TypeA {
				for _, ip := range ips {
					v4 := net.ParseIP(ip).To4()
					answers = append(answers, rr{a: &dnsmessage.AResource{A: [4]byte(v4)}})
				}
			}
		}
	}
	if len(answers) > 0 {
		rh.RCode = dnsmessage.RCodeSuccess
	}
	b := dnsmessage.NewBuilder(nil, rh)
	b.EnableCompression()
	if err := b.StartQuestions(); err != nil {
		return nil, err
	}
	if err := b.Question(q); err != nil {
		return nil, err
	}
	if err := b.StartAnswers(); err != nil {
		return nil, err
	}
	for _, a := range answers {
		hdr := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 5}
		switch {
		case a.a != nil:
			err = b.AResource(hdr, *a.a)
		case a.ptr != nil:
			err = b.PTRResource(hdr, *a.ptr)
		}
		if err != nil {
			return nil, err
		}
	}
	return b.Finish()
}

// resolverMu serialises the tests that point net.DefaultResolver at a
// stand-in.
var resolverMu sync.Mutex

// peerLookup runs etcd's peer listener on members[0] and connects from
// every other member: each connection must be accepted.
func peerLookup(s *stack, is *issued, members []member) error {
	peer := s.cluster.Spec.TLS.Peer.SecretRef.Name
	dir, err := os.MkdirTemp("", "works-peer-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	// The peer Secret as mounted at /etc/etcd/tls/peer.
	for _, k := range []string{corev1.TLSCertKey, corev1.TLSPrivateKeyKey, "ca.crt"} {
		b, err := is.secretKey(peer, k)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, k), b, 0o600); err != nil {
			return err
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dns := newKubeDNS(s, members)
	dnsAddr, err := dns.serve(ctx)
	if err != nil {
		return err
	}
	resolverMu.Lock()
	defer resolverMu.Unlock()
	old := net.DefaultResolver
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", dnsAddr)
	}}
	defer func() { net.DefaultResolver = old }()

	var (
		mu       sync.Mutex
		rejected []error
	)
	info := transport.TLSInfo{
		CertFile:       filepath.Join(dir, corev1.TLSCertKey),
		KeyFile:        filepath.Join(dir, corev1.TLSPrivateKeyKey),
		TrustedCAFile:  filepath.Join(dir, "ca.crt"),
		ClientCertAuth: true,
		HandshakeFailure: func(c *tls.Conn, err error) {
			mu.Lock()
			defer mu.Unlock()
			rejected = append(rejected, fmt.Errorf("etcd rejected the connection from %s: %w", c.RemoteAddr(), err))
		},
	}
	listening := members[0]
	l, err := transport.NewListenerWithOpts(listening.ip+":0", "https", transport.WithTLSInfo(&info))
	if err != nil {
		return fmt.Errorf("etcd peer listener: %w", err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_, _ = io.WriteString(c, "ok")
			c.Close()
		}
	}()

	cert, err := tls.LoadX509KeyPair(info.CertFile, info.KeyFile)
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	caPEM, _ := os.ReadFile(info.TrustedCAFile)
	roots.AppendCertsFromPEM(caPEM)
	var errs []error
	for _, m := range members[1:] {
		errs = append(errs, dialPeer(ctx, m, listening.host(s.namespace), l.Addr().String(), cert, roots))
	}
	mu.Lock()
	defer mu.Unlock()
	errs = append(errs, rejected...)
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w\n       (DNS stand-in: %v)", err, dnsSummary(dns))
	}
	return nil
}

// dialPeer connects from member m's pod IP to the listener as etcd's
// rafthttp transport does: the peer certificate, the peer CA, the dialled
// member's peer URL host as server name.
func dialPeer(ctx context.Context, m member, serverName, addr string, cert tls.Certificate, roots *x509.CertPool) error {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(m.ip)}, Timeout: 10 * time.Second}
	c, err := tls.DialWithDialer(d, "tcp", addr, &tls.Config{Certificates: []tls.Certificate{cert}, RootCAs: roots, ServerName: serverName})
	if err != nil {
		return fmt.Errorf("%s (%s) dials %s: %w", m.name, m.ip, serverName, err)
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := io.ReadAll(c)
	if string(b) != "ok" {
		return fmt.Errorf("%s (%s) dials %s: connection closed by etcd (%v)", m.name, m.ip, serverName, err)
	}
	_ = ctx
	return nil
}

func dnsSummary(d *kubeDNS) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(d.a)) {
		parts = append(parts, fmt.Sprintf("%s %v", strings.TrimSuffix(k, "."), d.a[k]))
	}
	return strings.Join(parts, "; ")
}

package cluster

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
)

// lab is one caller's running etcd: the network, the DNS and Service pods,
// three members and the pods of the consumers.
type lab struct {
	st      *stack
	net     *network
	dir     string
	self    string // this test binary, run as the roles
	secrets secrets
	auth    string // root's password once auth is on; "" while it is off

	dns, svc, operator *pod
	members            []*member
	svcEndpoints       string // the client Service's endpoints file
	token              string
	logs               []*proc
	extraPods          []*pod // consumers' pods, made once
}

type member struct {
	name string
	pod  *pod
	proc *proc
}

// The namespaces the consumers' pods run in (their resolv.conf search list).
const (
	operatorNamespace = "cozy-etcd-operator"
	kamajiNamespace   = "cozy-kamaji"
)

func (l *lab) peerURL(m string) string {
	return fmt.Sprintf("https://%s.%s.%s.svc:2380", m, l.st.names.Cluster, l.st.namespace)
}

func (l *lab) clientURL(m string) string {
	return fmt.Sprintf("https://%s.%s.%s.svc:2379", m, l.st.names.Cluster, l.st.namespace)
}

func (l *lab) svcFQDN(svc string) string {
	return fmt.Sprintf("%s.%s.svc.%s", svc, l.st.namespace, clusterDomain)
}

// generateName is what the API server appends for GenerateName "<cluster>-":
// five characters of k8s.io/apiserver's names alphabet.
func generateName(prefix string) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	b := make([]byte, 5)
	for i := range b {
		n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		b[i] = alphabet[n.Int64()]
	}
	return prefix + string(b)
}

// newLab starts the network, DNS and the client Service of st's cluster.
func newLab(ctx context.Context, st *stack, id, dir string, sec secrets) (*lab, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	n, err := newNetwork(ctx, id, dir)
	if err != nil {
		return nil, err
	}
	l := &lab{st: st, net: n, dir: dir, self: self, secrets: sec, token: st.names.Cluster + "-" + st.namespace}
	if l.dns, err = n.addPod(ctx, "coredns", "kube-system"); err != nil {
		return nil, err
	}
	n.dnsIP = l.dns.ip
	if _, err := l.startRole(l.dns, "dns", nil, "dns", n.recFile); err != nil {
		return nil, err
	}
	// The client Service "<cluster>-client" (etcd-operator's ensureServices):
	// a ClusterIP, so its name resolves to a virtual address, not to a pod.
	if l.svc, err = n.addPod(ctx, st.names.Cluster+"-client", st.namespace); err != nil {
		return nil, err
	}
	l.svcEndpoints = filepath.Join(dir, "client-service-endpoints")
	if err := os.WriteFile(l.svcEndpoints, nil, 0o644); err != nil {
		return nil, err
	}
	if _, err := l.startRole(l.svc, "kube-proxy", nil, "proxy", l.svc.ip+":2379", l.svcEndpoints); err != nil {
		return nil, err
	}
	if err := n.setA(l.svcFQDN(st.names.Cluster+"-client"), l.svc.ip); err != nil {
		return nil, err
	}
	if l.operator, err = n.addPod(ctx, "etcd-operator", operatorNamespace); err != nil {
		return nil, err
	}
	if err := l.waitDNS(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *lab) startRole(p *pod, name string, env []string, role string, args ...string) (*proc, error) {
	pr, err := start(p, name, append([]string{roleEnv + "=" + role}, env...), append([]string{l.self}, args...)...)
	if err == nil {
		l.logs = append(l.logs, pr)
	}
	return pr, err
}

// role runs this binary as role in pod p to completion.
func (l *lab) role(ctx context.Context, p *pod, timeout time.Duration, env []string, role string, args ...string) result {
	return run(ctx, p, timeout, append([]string{roleEnv + "=" + role}, env...), append([]string{l.self}, args...)...)
}

// waitDNS waits until the DNS pod answers the client Service's name.
func (l *lab) waitDNS(ctx context.Context) error {
	deadline := time.Now().Add(20 * time.Second)
	for {
		r := run(ctx, l.operator, 5*time.Second, nil, "getent", "hosts", l.st.names.Cluster+"-client."+l.st.namespace+".svc")
		if r.ok() && strings.Contains(r.output, l.svc.ip) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("DNS pod does not answer: %s %v", r.output, r.err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// memberCommand is etcd-operator's buildPod command for a member
// (controllers/etcdmember_controller.go @1bf58a746704ae274eed45427a69b1c2df886b60),
// with the member's TLS derived from the EtcdCluster as deriveMemberTLS does
// (controllers/helpers.go @109bfcce92e7e1b960c2c2114665cbf87ed4b3b3): client
// TLS from spec.tls.client.serverSecretRef, --client-cert-auth with the
// server Secret's ca.crt as trusted CA when an operator client Secret is
// set (ClientMTLS), peer mTLS from spec.tls.peer.secretRef; optionFlags
// from spec.options; URLs from peerURL and clientURL on the cluster's
// headless Service. spec.auth adds nothing here: buildPod reads none of it;
// the operator turns auth on over the client API once the cluster has
// converged (reconcileAuth), and --client-cert-auth, which spec.auth
// requires (the CRD: spec.auth.enabled needs spec.tls.client), makes a
// client certificate's CN its etcd user.
func memberCommand(c *v1alpha2.EtcdCluster, name, initialCluster, token string, bootstrap bool) []string {
	state := "new"
	if !bootstrap {
		state = "existing"
	}
	scheme := func(on bool) string {
		if on {
			return "https"
		}
		return "http"
	}
	tls := c.Spec.TLS
	clientTLS := tls != nil && tls.Client != nil && tls.Client.ServerSecretRef != nil
	peerTLS := tls != nil && tls.Peer != nil && tls.Peer.SecretRef != nil
	clientMTLS := clientTLS && tls.Client.OperatorClientSecretRef != nil
	svc := fmt.Sprintf("%s.%s.svc", c.Name, c.Namespace)
	cmd := []string{
		"etcd",
		"--name=" + name,
		"--data-dir=/var/lib/etcd",
		"--listen-peer-urls=" + scheme(peerTLS) + "://0.0.0.0:2380",
		"--listen-client-urls=" + scheme(clientTLS) + "://0.0.0.0:2379",
		"--advertise-client-urls=" + fmt.Sprintf("%s://%s.%s:2379", scheme(clientTLS), name, svc),
		"--initial-advertise-peer-urls=" + fmt.Sprintf("%s://%s.%s:2380", scheme(peerTLS), name, svc),
		"--initial-cluster=" + initialCluster,
		"--initial-cluster-token=" + token,
		"--initial-cluster-state=" + state,
		"--listen-metrics-urls=http://0.0.0.0:2381",
	}
	if o := c.Spec.Options; o != nil {
		if o.QuotaBackendBytes != nil {
			cmd = append(cmd, fmt.Sprintf("--quota-backend-bytes=%d", *o.QuotaBackendBytes))
		}
		if o.AutoCompactionMode != "" {
			cmd = append(cmd, "--auto-compaction-mode="+string(o.AutoCompactionMode))
		}
		if o.AutoCompactionRetention != "" {
			cmd = append(cmd, "--auto-compaction-retention="+o.AutoCompactionRetention)
		}
		if o.SnapshotCount != nil {
			cmd = append(cmd, fmt.Sprintf("--snapshot-count=%d", *o.SnapshotCount))
		}
	}
	if clientTLS {
		cmd = append(cmd, "--cert-file=/etc/etcd/tls/client/tls.crt", "--key-file=/etc/etcd/tls/client/tls.key")
		if clientMTLS {
			cmd = append(cmd, "--client-cert-auth=true", "--trusted-ca-file=/etc/etcd/tls/client/ca.crt")
		}
	}
	if peerTLS {
		cmd = append(cmd,
			"--peer-cert-file=/etc/etcd/tls/peer/tls.crt",
			"--peer-key-file=/etc/etcd/tls/peer/tls.key",
			"--peer-trusted-ca-file=/etc/etcd/tls/peer/ca.crt",
			"--peer-client-cert-auth=true",
		)
	}
	return cmd
}

// mounts maps a container's mount paths to directories of its pod: the
// stand-in for kubelet's volume mounts. Arguments and environment values
// are rewritten by replacing a mount path prefix (longest first) and
// nothing else, so the command line stays the rendered one.
type mounts map[string]string

func (m mounts) rewrite(s string) string {
	paths := make([]string, 0, len(m))
	for p := range m {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool { return len(paths[i]) > len(paths[j]) })
	for _, p := range paths {
		if i := strings.Index(s, p); i >= 0 && (len(s) == i+len(p) || s[i+len(p)] == '/') {
			return s[:i] + m[p] + s[i+len(p):]
		}
	}
	return s
}

func (m mounts) rewriteAll(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = m.rewrite(s)
	}
	return out
}

// memberVolumes writes the member pod's secret volumes from the current
// secrets (the server Secret at /etc/etcd/tls/client, the peer Secret at
// /etc/etcd/tls/peer) and returns the mounts; data is the data volume.
func (l *lab) memberVolumes(p *pod, sec secrets) (mounts, error) {
	tls := l.st.cluster.Spec.TLS
	m := mounts{"/var/lib/etcd": filepath.Join(p.dir, "data")}
	if err := os.MkdirAll(m["/var/lib/etcd"], 0o700); err != nil {
		return nil, err
	}
	vols := map[string]string{
		"/etc/etcd/tls/client": tls.Client.ServerSecretRef.Name,
		"/etc/etcd/tls/peer":   tls.Peer.SecretRef.Name,
	}
	for path, secret := range vols {
		dir := filepath.Join(p.dir, "volumes", strings.ReplaceAll(strings.TrimPrefix(path, "/"), "/", "-"))
		if err := writeSecretVolume(dir, sec[secret]); err != nil {
			return nil, err
		}
		m[path] = dir
	}
	return m, nil
}

// addMemberPod makes the pod of a new member and its DNS records: the pod
// hostname under the headless Service (spec.hostname, spec.subdomain), the
// headless Service's address list (publishNotReadyAddresses: every pod)
// and the PTR CoreDNS serves for an endpoint with a hostname.
func (l *lab) addMemberPod(ctx context.Context, name string) (*member, error) {
	p, err := l.net.addPod(ctx, name, l.st.namespace)
	if err != nil {
		return nil, err
	}
	fqdn := fmt.Sprintf("%s.%s.%s.svc.%s", name, l.st.names.Cluster, l.st.namespace, clusterDomain)
	if err := l.net.setA(fqdn, p.ip); err != nil {
		return nil, err
	}
	if err := l.net.setPTR(p.ip, fqdn); err != nil {
		return nil, err
	}
	m := &member{name: name, pod: p}
	l.members = append(l.members, m)
	return m, l.syncHeadless()
}

func (l *lab) syncHeadless() error {
	var ips []string
	for _, m := range l.members {
		ips = append(ips, m.pod.ip)
	}
	return l.net.setA(l.svcFQDN(l.st.names.Cluster), ips...)
}

// startMember starts etcd in m's pod with the secrets sec.
func (l *lab) startMember(m *member, initialCluster string, bootstrap bool, sec secrets) error {
	mnt, err := l.memberVolumes(m.pod, sec)
	if err != nil {
		return err
	}
	cmd := mnt.rewriteAll(memberCommand(l.st.cluster, m.name, initialCluster, l.token, bootstrap))
	cmd[0] = *etcdBin
	pr, err := start(m.pod, "etcd", nil, cmd...)
	if err != nil {
		return err
	}
	m.proc = pr
	l.logs = append(l.logs, pr)
	return nil
}

// operatorEnv is the operator's client configuration for the cluster:
// the server Secret's ca.crt, the operator client Secret's key pair.
func (l *lab) operatorEnv(sec secrets, endpoints []string) ([]string, error) {
	dir := filepath.Join(l.operator.dir, "secrets")
	tls := l.st.cluster.Spec.TLS
	srv, op := filepath.Join(dir, "server"), filepath.Join(dir, "operator-client")
	if err := writeSecretVolume(srv, sec[tls.Client.ServerSecretRef.Name]); err != nil {
		return nil, err
	}
	if err := writeSecretVolume(op, sec[tls.Client.OperatorClientSecretRef.Name]); err != nil {
		return nil, err
	}
	env := []string{
		"OP_ENDPOINTS=" + strings.Join(endpoints, ","),
		"OP_CA=" + filepath.Join(srv, "ca.crt"),
		"OP_CERT=" + filepath.Join(op, "tls.crt"),
		"OP_KEY=" + filepath.Join(op, "tls.key"),
	}
	if l.auth != "" {
		env = append(env, "OP_USER=root", "OP_PASSWORD="+l.auth)
	}
	if l.st.authOn() {
		// The root credentials Secret, which reconcileAuth reads.
		password, err := rootPassword(l.st, sec)
		if err != nil {
			return nil, err
		}
		env = append(env, "OP_ROOT_PASSWORD="+password)
	}
	return env, nil
}

func (l *lab) memberEndpoints() []string {
	var eps []string
	for _, m := range l.members {
		eps = append(eps, l.clientURL(m.name))
	}
	return eps
}

// operatorStep runs one step of the operator's client against endpoints.
func (l *lab) operatorStep(ctx context.Context, sec secrets, endpoints []string, args ...string) result {
	env, err := l.operatorEnv(sec, endpoints)
	if err != nil {
		return result{err: err}
	}
	return l.role(ctx, l.operator, 30*time.Second, env, "operator", args...)
}

// ready is the member pod's readiness probe (GET :2381/health), as the
// kubelet would run it against the pod address.
func (l *lab) ready(ctx context.Context, m *member) bool {
	return l.role(ctx, l.operator, 5*time.Second, nil, "probe", "http://"+m.pod.ip+":2381/health").ok()
}

func (l *lab) waitReady(ctx context.Context, m *member, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		if l.ready(ctx, m) {
			return nil
		}
		if m.proc.exited() {
			return fmt.Errorf("member %s exited: %v\n%s", m.name, m.proc.err, m.proc.tail(15))
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("member %s not ready after %s:\n%s", m.name, within, m.proc.tail(15))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// syncClientService points the client Service at the ready members.
func (l *lab) syncClientService(ctx context.Context) error {
	var eps []string
	for _, m := range l.members {
		if m.proc != nil && !m.proc.exited() && l.ready(ctx, m) {
			eps = append(eps, m.pod.ip+":2379")
		}
	}
	return os.WriteFile(l.svcEndpoints, []byte(strings.Join(eps, "\n")+"\n"), 0o644)
}

// bootstrap is the cluster controller's bootstrap: one seed member whose
// --initial-cluster names only itself, state new; ClusterID is latched by
// the operator's MemberList against the seed (tryDiscoverCluster).
func (l *lab) bootstrap(ctx context.Context) error {
	seed, err := l.addMemberPod(ctx, generateName(l.st.names.Cluster+"-"))
	if err != nil {
		return err
	}
	if err := l.startMember(seed, seed.name+"="+l.peerURL(seed.name), true, l.secrets); err != nil {
		return err
	}
	if err := l.waitReady(ctx, seed, 60*time.Second); err != nil {
		return err
	}
	if r := l.operatorStep(ctx, l.secrets, []string{l.clientURL(seed.name)}, "member-list"); !r.ok() {
		return fmt.Errorf("discovery (MemberList on the seed): %v: %s", r.err, r.output)
	}
	return l.syncClientService(ctx)
}

// join is scaleUp and promotion for one member: MemberAddAsLearner with the
// new member's peer URL (against the voters), --initial-cluster from the
// returned member list (name=peerURL, sorted, the new one named from its
// peer URL), the pod started with state existing and secrets sec, then
// MemberPromote until the learner has caught up. It returns the member and
// the error of the first step that failed (a learner that never becomes
// promotable stays, as with the operator; see removeMember).
func (l *lab) join(ctx context.Context, sec secrets, within time.Duration) (*member, error) {
	voters := l.memberEndpoints()
	name := generateName(l.st.names.Cluster + "-")
	// etcd refuses a member change until the leader has been connected to
	// a quorum for a while after the previous one ("unhealthy cluster");
	// the operator requeues (10 s) and tries again: here every 2 s, 40 s at
	// most.
	var r result
	for try := 0; ; try++ {
		r = l.operatorStep(ctx, l.secrets, voters, "add-learner", l.peerURL(name))
		if r.ok() || !strings.Contains(r.output, "unhealthy cluster") || try == 20 {
			break
		}
		time.Sleep(2 * time.Second)
	}
	if !r.ok() {
		return nil, fmt.Errorf("MemberAddAsLearner: %v: %s", r.err, r.output)
	}
	var ms []memberInfo
	if err := json.Unmarshal([]byte(r.output), &ms); err != nil {
		return nil, fmt.Errorf("MemberAddAsLearner output: %v: %s", err, r.output)
	}
	var parts []string
	for _, mi := range ms {
		if len(mi.PeerURLs) == 0 {
			continue
		}
		n := mi.Name
		if n == "" {
			n = strings.SplitN(strings.TrimPrefix(mi.PeerURLs[0], "https://"), ".", 2)[0]
		}
		parts = append(parts, n+"="+mi.PeerURLs[0])
	}
	sort.Strings(parts)
	m, err := l.addMemberPod(ctx, name)
	if err != nil {
		return nil, err
	}
	if err := l.startMember(m, strings.Join(parts, ","), false, sec); err != nil {
		return m, err
	}
	deadline := time.Now().Add(within)
	for {
		r := l.operatorStep(ctx, l.secrets, voters, "promote", l.peerURL(name))
		if r.ok() {
			break
		}
		if m.proc.exited() {
			return m, fmt.Errorf("learner %s exited: %v: %s", name, m.proc.err, etcdLogErrors(m.proc))
		}
		if time.Now().After(deadline) {
			return m, fmt.Errorf("learner %s never became promotable within %s: %s\nits log:\n%s", name, within, strings.TrimSpace(r.output), m.proc.tail(10))
		}
		time.Sleep(time.Second)
	}
	if err := l.waitReady(ctx, m, 30*time.Second); err != nil {
		return m, err
	}
	return m, l.syncClientService(ctx)
}

// removeMember is the member finalizer's MemberRemove, then the pod goes.
func (l *lab) removeMember(ctx context.Context, m *member) error {
	var voters []string
	for _, o := range l.members {
		if o != m {
			voters = append(voters, l.clientURL(o.name))
		}
	}
	r := l.operatorStep(ctx, l.secrets, voters, "remove", l.peerURL(m.name))
	if m.proc != nil {
		m.proc.kill()
	}
	for i, o := range l.members {
		if o == m {
			l.members = append(l.members[:i], l.members[i+1:]...)
			break
		}
	}
	fqdn := fmt.Sprintf("%s.%s.%s.svc.%s", m.name, l.st.names.Cluster, l.st.namespace, clusterDomain)
	_ = l.net.setA(fqdn)
	_ = l.net.setPTR(m.pod.ip, "")
	if err := l.syncHeadless(); err != nil {
		return err
	}
	if !r.ok() {
		return fmt.Errorf("MemberRemove: %v: %s", r.err, r.output)
	}
	return l.syncClientService(ctx)
}

// swapServerCert writes sec's server Secret into every member's client TLS
// volume (kubelet's update of a mounted Secret); etcd reads its
// certificate files at each TLS handshake, so the next connection sees it.
func (l *lab) swapServerCert(sec secrets) error {
	name := l.st.cluster.Spec.TLS.Client.ServerSecretRef.Name
	for _, m := range l.members {
		if err := writeSecretVolume(filepath.Join(m.pod.dir, "volumes", "etc-etcd-tls-client"), sec[name]); err != nil {
			return err
		}
	}
	return nil
}

// secretFile writes the key of a Secret a consumer references to a file.
func secretFile(dir string, sec secrets, ref kamajiRef) (string, error) {
	s, ok := sec[ref.name]
	if !ok {
		return "", fmt.Errorf("secret %s/%s does not exist", ref.namespace, ref.name)
	}
	b, ok := s[ref.key]
	if !ok {
		return "", fmt.Errorf("secret %s/%s has no key %s", ref.namespace, ref.name, ref.key)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, ref.name+"-"+ref.key)
	return path, os.WriteFile(path, b, 0o600)
}

type kamajiRef struct{ namespace, name, key string }

// etcdLogErrors picks the errors out of an etcd member's JSON log: the
// messages at warn level and above with their "error" field, the last
// three.
func etcdLogErrors(pr *proc) string {
	b, _ := os.ReadFile(pr.log)
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		var e struct{ Level, Msg, Error string }
		if json.Unmarshal([]byte(line), &e) != nil || (e.Level != "warn" && e.Level != "error" && e.Level != "fatal") || e.Error == "" {
			continue
		}
		out = append(out, e.Msg+": "+e.Error)
	}
	if len(out) > 3 {
		out = out[len(out)-3:]
	}
	if len(out) == 0 {
		return pr.tail(3)
	}
	return strings.Join(out, " | ")
}

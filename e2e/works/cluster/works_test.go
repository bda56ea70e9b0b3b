package cluster

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cmv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"

	kamajiv1alpha1 "github.com/etcdshapes/etcdshapes/apis/kamaji/v1alpha1"
	"github.com/etcdshapes/etcdshapes/etcd"
)

// inputs are what the consumers read: the Secrets, the DataStore and the
// check Job. A mutation changes one field of one of them.
type inputs struct {
	sec   secrets
	ds    *kamajiv1alpha1.DataStore
	check *batchv1.Job
	only  string // run only this container of the check Job ("" all)
}

// consumer is one real consumer of the stack: it returns what it saw or why
// it failed.
type consumer struct {
	name string
	run  func(ctx context.Context, l *lab, in inputs) (string, error)
}

var (
	operatorClientConsumer = consumer{"operator client", runOperatorClient}
	kamajiConsumer         = consumer{"kamaji", runKamaji}
	defragConsumer         = consumer{"defrag CronJob", runDefrag}
	checkConsumer          = consumer{"check Job", runCheck}
	snapshotConsumer       = consumer{"snapshot agent", runSnapshot}
	joinConsumer           = consumer{"member join", runJoin}
)

// mutation is one wrong field; the consumer named must fail with it.
type mutation struct {
	what     string
	consumer consumer
	// cert mutates one rendered Certificate (found by name suffix) before it
	// is issued again from the run's issuers; the other Secrets stay.
	certSuffix string
	cert       func(c *cmv1.Certificate)
	// ds and check mutate the DataStore and the check Job.
	ds    func(ds *kamajiv1alpha1.DataStore)
	check func(j *batchv1.Job) string // returns the container to run
	// authOnly mutations need etcd auth on to matter. The others are TLS
	// faults, refused before etcd's auth looks at a request, so they run
	// with auth off only.
	authOnly bool
}

func without(list []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return slices.Contains(drop, s) })
}

func withoutUsage(list []cmv1.KeyUsage, drop cmv1.KeyUsage) []cmv1.KeyUsage {
	return slices.DeleteFunc(slices.Clone(list), func(u cmv1.KeyUsage) bool { return u == drop })
}

// mutations is the table; each names the field, the wrong value and the
// consumer that must notice.
func mutations(st *stack) []mutation {
	n, ns := st.names.Cluster, st.namespace
	svc := n + "." + ns + ".svc"
	return []mutation{
		{
			what:     fmt.Sprintf("server Certificate dnsNames without %s-client and %s-client.%s.svc (the etcd chart before SPEC difference 7)", n, n, ns),
			consumer: snapshotConsumer, certSuffix: "-server",
			cert: func(c *cmv1.Certificate) {
				c.Spec.DNSNames = without(c.Spec.DNSNames, n+"-client", n+"-client."+ns+".svc")
			},
		},
		{
			what:     fmt.Sprintf("server Certificate dnsNames without %s (the DataStore endpoint)", svc),
			consumer: kamajiConsumer, certSuffix: "-server",
			cert: func(c *cmv1.Certificate) { c.Spec.DNSNames = without(c.Spec.DNSNames, svc) },
		},
		{
			what:     fmt.Sprintf("server Certificate dnsNames without *.%s (the member URLs)", svc),
			consumer: operatorClientConsumer, certSuffix: "-server",
			cert: func(c *cmv1.Certificate) { c.Spec.DNSNames = without(c.Spec.DNSNames, "*."+svc) },
		},
		{
			what:     "server Certificate usages without server auth",
			consumer: operatorClientConsumer, certSuffix: "-server",
			cert: func(c *cmv1.Certificate) { c.Spec.Usages = withoutUsage(c.Spec.Usages, cmv1.UsageServerAuth) },
		},
		{
			// Only removing client auth would leave no extended key usage at
			// all, which Go's x509 (and so etcd) accepts for any purpose:
			// the client certificate's usage matters only when another
			// extended usage takes its place.
			what:     "client Certificate usages with server auth in place of client auth",
			consumer: defragConsumer, certSuffix: "-client",
			cert: func(c *cmv1.Certificate) {
				c.Spec.Usages = append(withoutUsage(c.Spec.Usages, cmv1.UsageClientAuth), cmv1.UsageServerAuth)
			},
		},
		{
			what:     fmt.Sprintf("client Certificate signed by the peer CA (issuerRef %s-peer-issuer)", n),
			consumer: operatorClientConsumer, certSuffix: "-client",
			cert: func(c *cmv1.Certificate) { c.Spec.IssuerRef.Name = n + "-peer-issuer" },
		},
		{
			what:     "client Certificate commonName etcd-client, not root (etcd maps the CN to its user)",
			consumer: defragConsumer, certSuffix: "-client", authOnly: true,
			cert: func(c *cmv1.Certificate) { c.Spec.CommonName = "etcd-client" },
		},
		{
			what:     fmt.Sprintf("DataStore certificateAuthority referring to the peer CA (%s-peer-ca-tls)", n),
			consumer: kamajiConsumer,
			ds: func(ds *kamajiv1alpha1.DataStore) {
				ca := &ds.Spec.TLSConfig.CertificateAuthority
				ca.Certificate.SecretReference.Name = n + "-peer-ca-tls"
				ca.PrivateKey.SecretReference.Name = n + "-peer-ca-tls"
			},
		},
		{
			what:     "peer Certificate usages without client auth",
			consumer: joinConsumer, certSuffix: "-peer",
			cert: func(c *cmv1.Certificate) { c.Spec.Usages = withoutUsage(c.Spec.Usages, cmv1.UsageClientAuth) },
		},
		{
			what:     fmt.Sprintf("peer Certificate dnsNames without %s and %s (no name that resolves to a member's address)", n, svc),
			consumer: joinConsumer, certSuffix: "-peer",
			cert: func(c *cmv1.Certificate) { c.Spec.DNSNames = without(c.Spec.DNSNames, n, svc) },
		},
		{
			what:     "check Job's datascale container without SSL_CERT_FILE (issue 20, item 2)",
			consumer: checkConsumer,
			check: func(j *batchv1.Job) string {
				for i := range j.Spec.Template.Spec.Containers {
					c := &j.Spec.Template.Spec.Containers[i]
					c.Env = slices.DeleteFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == "SSL_CERT_FILE" })
				}
				return "check-datascale"
			},
		},
	}
}

// TestWorks runs both callers' stacks by their consumers: three members
// started as etcd-operator starts them and joined as it joins them, every
// consumer against them (all must work), then the mutation table (each
// named consumer must fail), then the same with etcd auth on.
func TestWorks(t *testing.T) {
	if why := netnsAvailable(); why != "" {
		t.Skip("works/cluster: " + why + "; run it as root with make test-works-cluster")
	}
	if *etcdBin == "" || *etcdctlBin == "" {
		t.Skip("works/cluster: -etcd and -etcdctl name no binaries; make test-works-cluster builds them")
	}
	deadline, ok := t.Deadline()
	if !ok {
		deadline = time.Now().Add(30 * time.Minute)
	}
	// Stop a minute before go test's own deadline, so cleanup still runs.
	ctx, cancel := context.WithDeadline(context.Background(), deadline.Add(-time.Minute))
	// Not defer: the parallel subtests run after this function returns.
	t.Cleanup(cancel)
	keyDir := *cacheDir
	if keyDir == "" {
		keyDir = t.TempDir()
	}
	// The callers run side by side, each on a network of its own; the
	// parent's cleanup runs once both are done.
	t.Cleanup(func() {
		for _, err := range cleanupAll() {
			t.Error("cleanup:", err)
		}
	})
	// Each caller twice: on defaults (auth off, as upstream) and with etcd
	// auth on, a stack of its own from a render with spec.auth (auth is
	// chosen when an etcd is created: the CRD refuses turning it on later).
	for _, c := range []struct {
		id     string
		render func(auth bool) (*stack, error)
		auth   bool
	}{{"e", renderEtcdChart, false}, {"c", renderCluster, false}, {"ea", renderEtcdChart, true}, {"ca", renderCluster, true}} {
		st, err := c.render(c.auth)
		if err != nil {
			t.Fatal(err)
		}
		if st.authOn() != c.auth {
			t.Fatalf("%s: rendered with etcd.Auth %v, the EtcdCluster's spec.auth is %+v", st.caller, c.auth, st.cluster.Spec.Auth)
		}
		t.Run(st.caller, func(t *testing.T) {
			t.Parallel()
			runStack(ctx, t, c.id, st, &keyCache{dir: keyDir, next: map[string]int{}})
		})
	}
}

func binaryVersion(path string) (string, error) {
	out, err := exec.Command(path, "--version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s --version: %v: %s", path, err, out)
	}
	return string(out), nil
}

func runStack(ctx context.Context, t *testing.T, id string, st *stack, keys *keyCache) {
	if v, err := binaryVersion(*etcdBin); err != nil || !strings.Contains(v, "etcd Version: "+st.cluster.Spec.Version+"\n") {
		t.Fatalf("the EtcdCluster renders etcd %s; %s is %q (%v): rebuild it (make test-works-cluster)", st.cluster.Spec.Version, *etcdBin, v, err)
	}
	dir, err := os.MkdirTemp(tmpRoot(), "works-")
	if err != nil {
		t.Fatal(err)
	}
	register(func() { registry.tmpDirs = append(registry.tmpDirs, dir) })

	start := time.Now()
	sec := secrets{}
	if err := issue(st.certs, st.issuers, keys, sec); err != nil {
		t.Fatal(err)
	}
	report(t, "%s (%s/%s, etcd %s): certificates issued by cert-manager's code in %s", st.caller, st.namespace, st.names.Cluster, st.cluster.Spec.Version, time.Since(start).Round(time.Millisecond))
	auth := st.authOn()
	if auth {
		// The root credentials Secret spec.auth names is the caller's,
		// made once before the etcd (docs/auth.md), as here.
		name, err := rootCredentials(st, sec)
		if err != nil {
			t.Fatal(err)
		}
		report(t, "  spec.auth: enabled, rootCredentialsSecretRef %s (made as the caller makes it: %s, username %s, a random password)", name, etcd.RootCredentialsType, etcd.RootUser)
	}

	l, err := newLab(ctx, st, id, dir, sec)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if t.Failed() || *keepLogs {
			for _, p := range l.logs {
				t.Logf("--- log of %s in %s (tail):\n%s", p.name, filepath.Base(filepath.Dir(p.log)), p.tail(20))
			}
		}
	}()
	start = time.Now()
	if err := l.bootstrap(ctx); err != nil {
		t.Fatal("bootstrap:", err)
	}
	for range 2 {
		if _, err := l.join(ctx, sec, 60*time.Second); err != nil {
			t.Fatal("join:", err)
		}
	}
	var names []string
	for _, m := range l.members {
		names = append(names, m.name+"@"+m.pod.ip)
	}
	report(t, "  members: %s (seed bootstrapped alone, two learners added, started, promoted) in %s", strings.Join(names, " "), time.Since(start).Round(time.Millisecond))

	base := inputs{sec: sec, ds: st.datastore, check: st.check}
	if auth {
		// reconcileAuth, once the cluster has converged: root with the
		// password of the Secret spec.auth names, the root role, auth
		// enable; from then on the operator dials with root's password
		// from the same Secret (resolveEtcdCredentials).
		if r := l.operatorStep(ctx, sec, l.memberEndpoints(), "auth-enable"); !r.ok() {
			t.Fatalf("auth enable: %v: %s", r.err, r.output)
		}
		password, err := rootPassword(st, sec)
		if err != nil {
			t.Fatal(err)
		}
		l.auth = password
		report(t, "  etcd auth on, from the rendered spec.auth (etcd-operator's reconcileAuth: UserAdd root with the Secret's password, UserGrantRole root root, AuthEnable)")
	} else {
		report(t, "  etcd auth off (the EtcdCluster renders no spec.auth)")
	}
	for _, c := range []consumer{operatorClientConsumer, kamajiConsumer, defragConsumer, checkConsumer, snapshotConsumer} {
		in := base
		if auth && c.name == checkConsumer.name {
			// check perf writes for a fixed minute, which the caller's
			// auth-off run measures; with auth on, check datascale makes
			// the same calls with the same certificate (CN root) in
			// seconds, which keeps the tier in CI's budget.
			in.only = "check-datascale"
		}
		start := time.Now()
		detail, err := c.run(ctx, l, in)
		if err != nil {
			report(t, "    FAIL %-16s %s", c.name, oneLine(err.Error()))
			t.Errorf("%s: %s: %v", st.caller, c.name, err)
			continue
		}
		report(t, "    ok   %-16s %s (%s)", c.name, detail, time.Since(start).Round(100*time.Millisecond))
	}
	report(t, "    mutations (one wrong field each; the consumer named must fail):")
	for _, m := range mutations(st) {
		if m.authOnly != auth {
			continue
		}
		in, err := l.mutate(st, keys, base, m)
		if err != nil {
			t.Fatalf("%s: %v", m.what, err)
		}
		start := time.Now()
		_, cerr := m.consumer.run(ctx, l, in)
		if restore := l.restore(ctx, base, m); restore != nil {
			t.Fatalf("restoring after %q: %v", m.what, restore)
		}
		if cerr == nil {
			report(t, "    PASSED (wrong) %-16s %s", m.consumer.name, m.what)
			t.Errorf("%s: %q: %s still works, so the suite cannot see this field", st.caller, m.what, m.consumer.name)
			continue
		}
		report(t, "    fails  %-16s %s\n             -> %s (%s)", m.consumer.name, m.what, oneLine(cerr.Error()), time.Since(start).Round(100*time.Millisecond))
	}
	// After every mutation was undone, the cluster still serves.
	if _, err := operatorClientConsumer.run(ctx, l, base); err != nil {
		t.Errorf("after the mutations: %v", err)
	}
}

// rootCredentials makes the Secret the rendered spec.auth names, as a
// caller makes it: kubernetes.io/basic-auth, username root, a random
// password (the render holds none).
func rootCredentials(st *stack, sec secrets) (string, error) {
	ref := st.cluster.Spec.Auth.RootCredentialsSecretRef
	if ref == nil || ref.Name == "" {
		return "", fmt.Errorf("spec.auth.enabled without rootCredentialsSecretRef (the CRD refuses it)")
	}
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	sec[ref.Name] = map[string][]byte{corev1.BasicAuthUsernameKey: []byte(etcd.RootUser), corev1.BasicAuthPasswordKey: []byte(base64.RawURLEncoding.EncodeToString(b))}
	return ref.Name, nil
}

// rootPassword is etcd-operator's readRootPassword: the password key of the
// Secret spec.auth.rootCredentialsSecretRef names (its username must be
// root: the operator provisions that user only).
func rootPassword(st *stack, sec secrets) (string, error) {
	a := st.cluster.Spec.Auth
	if a == nil || a.RootCredentialsSecretRef == nil || a.RootCredentialsSecretRef.Name == "" {
		return "", fmt.Errorf("spec.auth.rootCredentialsSecretRef is required when auth is enabled")
	}
	s, ok := sec[a.RootCredentialsSecretRef.Name]
	if !ok {
		return "", fmt.Errorf("read root credentials secret %s/%s: not found", st.namespace, a.RootCredentialsSecretRef.Name)
	}
	if u := string(s[corev1.BasicAuthUsernameKey]); u != etcd.RootUser {
		return "", fmt.Errorf("root credentials secret %s: username %q, not %q", a.RootCredentialsSecretRef.Name, u, etcd.RootUser)
	}
	pw := s[corev1.BasicAuthPasswordKey]
	if len(pw) == 0 {
		return "", fmt.Errorf("root credentials secret %s missing %q key", a.RootCredentialsSecretRef.Name, corev1.BasicAuthPasswordKey)
	}
	return string(pw), nil
}

// mutate derives the inputs of one mutation and applies what lives in the
// running cluster (a server certificate is swapped in the members' volumes).
func (l *lab) mutate(st *stack, keys *keyCache, base inputs, m mutation) (inputs, error) {
	in := base
	if m.cert != nil {
		orig := st.cert(m.certSuffix)
		if orig == nil {
			return in, fmt.Errorf("no Certificate %s%s", st.names.Cluster, m.certSuffix)
		}
		c := orig.DeepCopy()
		m.cert(c)
		in.sec = base.sec.clone()
		delete(in.sec, c.Spec.SecretName)
		// The same key for the same certificate (keyed by its position).
		mk := &keyCache{dir: keys.dir, next: map[string]int{}}
		for _, o := range st.certs {
			if o == orig {
				break
			}
			if o.Spec.PrivateKey != nil && orig.Spec.PrivateKey != nil && o.Spec.PrivateKey.Size == orig.Spec.PrivateKey.Size {
				mk.next[string(o.Spec.PrivateKey.Algorithm)+"-"+fmt.Sprint(o.Spec.PrivateKey.Size)]++
			}
		}
		if err := issue([]*cmv1.Certificate{c}, st.issuers, mk, in.sec); err != nil {
			return in, err
		}
		if m.certSuffix == "-server" {
			if err := l.swapServerCert(in.sec); err != nil {
				return in, err
			}
		}
	}
	if m.ds != nil {
		in.ds = base.ds.DeepCopy()
		m.ds(in.ds)
	}
	if m.check != nil {
		in.check = base.check.DeepCopy()
		in.only = m.check(in.check)
	}
	return in, nil
}

// restore undoes what mutate put into the running cluster.
func (l *lab) restore(ctx context.Context, base inputs, m mutation) error {
	if m.certSuffix == "-server" {
		return l.swapServerCert(base.sec)
	}
	return nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// report prints a line of the suite's summary (go test -v shows it in
// order, with the subtest's name).
func report(t *testing.T, format string, args ...any) {
	t.Helper()
	t.Logf(format, args...)
}

// tmpRoot prefers a memory file system for the members' data: etcd fsyncs
// every write and check perf measures latency, which a busy shared disk
// would make the test of.
func tmpRoot() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		return "/dev/shm"
	}
	return os.TempDir()
}

// ── The consumers ───────────────────────────────────────────────────────

func runOperatorClient(ctx context.Context, l *lab, in inputs) (string, error) {
	eps := l.memberEndpoints()
	r := l.operatorStep(ctx, in.sec, eps, "member-list")
	if !r.ok() {
		return "", fmt.Errorf("%v: %s", r.err, strings.TrimSpace(r.output))
	}
	var ms []memberInfo
	if err := json.Unmarshal([]byte(r.output), &ms); err != nil {
		return "", err
	}
	voters := 0
	for _, m := range ms {
		if !m.IsLearner {
			voters++
		}
	}
	if voters != 3 {
		return "", fmt.Errorf("MemberList: %d voters, want 3: %s", voters, r.output)
	}
	return fmt.Sprintf("MemberList over %s: 3 voters", strings.Replace(eps[0], l.members[0].name, "<member>", 1)), nil
}

// kamajiPods are the pods Kamaji and two tenant control planes' apiservers
// run in, made once per lab.
func (l *lab) kamajiPods(ctx context.Context) (kamaji, a, b *pod, err error) {
	get := func(name, ns string) (*pod, error) {
		for _, p := range l.extraPods {
			if p.name == name {
				return p, nil
			}
		}
		p, err := l.net.addPod(ctx, name, ns)
		if err == nil {
			l.extraPods = append(l.extraPods, p)
		}
		return p, err
	}
	if kamaji, err = get("kamaji", kamajiNamespace); err != nil {
		return
	}
	if a, err = get("kubernetes-a-apiserver", l.st.namespace); err != nil {
		return
	}
	b, err = get("kubernetes-b-apiserver", l.st.namespace)
	return
}

func (l *lab) jobPod(ctx context.Context, name string) (*pod, error) {
	for _, p := range l.extraPods {
		if p.name == name {
			return p, nil
		}
	}
	p, err := l.net.addPod(ctx, name, l.st.namespace)
	if err == nil {
		l.extraPods = append(l.extraPods, p)
	}
	return p, err
}

func dsRef(ds *kamajiv1alpha1.DataStore, r *kamajiv1alpha1.ContentRef) (kamajiRef, error) {
	if r == nil || r.SecretReference == nil {
		return kamajiRef{}, fmt.Errorf("DataStore %s: a reference is not to a Secret", ds.Name)
	}
	return kamajiRef{namespace: r.SecretReference.Namespace, name: r.SecretReference.Name, key: r.SecretReference.KeyPath}, nil
}

// runKamaji is a tenant control plane's life on the DataStore: Kamaji's
// setup for two tenants (user, role, permission on the prefix, the
// tenant's certificate signed with the DataStore CA), tenant A's apiserver
// writes and reads under its prefix, tenant B's apiserver tries A's prefix,
// then Kamaji's cleanup of both. With auth off B reads A's keys (etcd has
// no users to check); with auth on it must be refused.
func runKamaji(ctx context.Context, l *lab, in inputs) (string, error) {
	kp, ap, bp, err := l.kamajiPods(ctx)
	if err != nil {
		return "", err
	}
	ds := in.ds
	tc := ds.Spec.TLSConfig
	files := map[string]*kamajiv1alpha1.ContentRef{
		"KAMAJI_CA": &tc.CertificateAuthority.Certificate, "KAMAJI_CA_KEY": tc.CertificateAuthority.PrivateKey,
		"KAMAJI_CLIENT_CERT": &tc.ClientCertificate.Certificate, "KAMAJI_CLIENT_KEY": tc.ClientCertificate.PrivateKey,
	}
	env := []string{"KAMAJI_ENDPOINTS=" + strings.Join(ds.Spec.Endpoints, ",")}
	for _, k := range []string{"KAMAJI_CA", "KAMAJI_CA_KEY", "KAMAJI_CLIENT_CERT", "KAMAJI_CLIENT_KEY"} {
		ref, err := dsRef(ds, files[k])
		if err != nil {
			return "", err
		}
		path, err := secretFile(filepath.Join(kp.dir, "secrets"), in.sec, ref)
		if err != nil {
			return "", err
		}
		env = append(env, k+"="+path)
	}
	tenant := func(cluster string) string {
		return strings.ReplaceAll(l.st.namespace+"_"+cluster, "-", "_")
	}
	ta, tb := tenant("kubernetes-a"), tenant("kubernetes-b")
	certs := func(t string) string { return filepath.Join(kp.dir, "datastore-certificate-"+t) }
	for _, t := range []string{ta, tb} {
		if r := l.role(ctx, kp, 40*time.Second, env, "kamaji", "setup", t, t, certs(t)); !r.ok() {
			return "", fmt.Errorf("kamaji setup %s: %v: %s", t, r.err, strings.TrimSpace(r.output))
		}
	}
	apiEnv := func(t string) []string {
		return []string{"APISERVER_ENDPOINTS=" + strings.Join(ds.Spec.Endpoints, ","), "APISERVER_CERTS=" + certs(t)}
	}
	key := "/" + ta + "/registry/namespaces/default"
	if r := l.role(ctx, ap, 40*time.Second, apiEnv(ta), "apiserver", "put", key, "tenant-a"); !r.ok() {
		return "", fmt.Errorf("tenant A's apiserver put %s: %v: %s", key, r.err, strings.TrimSpace(r.output))
	}
	if r := l.role(ctx, ap, 40*time.Second, apiEnv(ta), "apiserver", "get", key); !r.ok() || r.output != "tenant-a" {
		return "", fmt.Errorf("tenant A's apiserver get %s: %v: %q", key, r.err, r.output)
	}
	// B on A's prefix, and A on B's (which B fills first): the direction
	// an older Kamaji's grant leaks in (see below).
	keyB := "/" + tb + "/registry/namespaces/default"
	if r := l.role(ctx, bp, 40*time.Second, apiEnv(tb), "apiserver", "put", keyB, "tenant-b"); !r.ok() {
		return "", fmt.Errorf("tenant B's apiserver put %s: %v: %s", keyB, r.err, strings.TrimSpace(r.output))
	}
	isolation, err := crossTenant(ctx, l, [2]*pod{bp, ap}, [2][]string{apiEnv(tb), apiEnv(ta)}, [2]string{key, keyB}, "B", "A", l.auth != "")
	if err != nil {
		return "", err
	}
	for _, t := range []string{ta, tb} {
		if r := l.role(ctx, kp, 40*time.Second, env, "kamaji", "cleanup", t, t); !r.ok() {
			return "", fmt.Errorf("kamaji cleanup %s: %v: %s", t, r.err, strings.TrimSpace(r.output))
		}
	}
	detail := fmt.Sprintf("setup, put/get under /%s/, cleanup via %s; %s", ta, ds.Spec.Endpoints[0], isolation)
	if l.auth == "" {
		return detail, nil
	}
	// The grant of an older Kamaji, [/<schema>/, "\0") (olderKamajiRangeEnd):
	// with auth on, tenant C's role covers tenant D's prefix, which sorts
	// above C's. The role is what isolates; auth only enforces it.
	tenC, tenD := tenant("kubernetes-c"), tenant("kubernetes-d")
	older := append(slices.Clone(env), "KAMAJI_OLDER_RANGE=1")
	for _, t := range []string{tenC, tenD} {
		if r := l.role(ctx, kp, 40*time.Second, older, "kamaji", "setup", t, t, certs(t)); !r.ok() {
			return "", fmt.Errorf("kamaji (older grant) setup %s: %v: %s", t, r.err, strings.TrimSpace(r.output))
		}
	}
	keyD := "/" + tenD + "/registry/namespaces/default"
	if r := l.role(ctx, bp, 40*time.Second, apiEnv(tenD), "apiserver", "put", keyD, "tenant-d"); !r.ok() {
		return "", fmt.Errorf("tenant D's apiserver put %s: %v: %s", keyD, r.err, strings.TrimSpace(r.output))
	}
	read := l.role(ctx, ap, 40*time.Second, apiEnv(tenC), "apiserver", "get", keyD)
	write := l.role(ctx, ap, 40*time.Second, apiEnv(tenC), "apiserver", "put", keyD, "tenant-c")
	if !read.ok() || read.output != "tenant-d" || !write.ok() {
		return "", fmt.Errorf(`with an older Kamaji's grant [/%s/, "%s"), tenant C was refused on D's prefix (read %v %q, write %v %q): the documented leak did not happen`, tenC, olderKamajiRangeEnd, read.err, read.output, write.err, write.output)
	}
	for _, t := range []string{tenC, tenD} {
		if r := l.role(ctx, kp, 40*time.Second, env, "kamaji", "cleanup", t, t); !r.ok() {
			return "", fmt.Errorf("kamaji cleanup %s: %v: %s", t, r.err, strings.TrimSpace(r.output))
		}
	}
	return detail + fmt.Sprintf(`; with an older Kamaji's grant [/<schema>/, "%s") (kamaji@09ce38f4) tenant C reads and writes tenant D's keys, which sort above its prefix`, olderKamajiRangeEnd), nil
}

// crossTenant has each of two tenant apiservers (pods, envs) read and
// write the other's key (keys[0] is the first's target, keys[1] the
// second's): with auth off both must reach it (no isolation; the control
// that shows the check can fail), with auth on both must be refused with
// permission denied.
func crossTenant(ctx context.Context, l *lab, pods [2]*pod, envs [2][]string, keys [2]string, first, second string, auth bool) (string, error) {
	var reached, refused []string
	for i, who := range []string{first, second} {
		other := []string{second, first}[i]
		read := l.role(ctx, pods[i], 40*time.Second, envs[i], "apiserver", "get", keys[i])
		write := l.role(ctx, pods[i], 40*time.Second, envs[i], "apiserver", "put", keys[i], "tenant-"+strings.ToLower(who))
		switch {
		case read.ok() && write.ok():
			reached = append(reached, fmt.Sprintf("%s on %s's prefix", who, other))
		case !read.ok() && !write.ok() && strings.Contains(read.output, "permission denied") && strings.Contains(write.output, "permission denied"):
			refused = append(refused, fmt.Sprintf("%s on %s's prefix", who, other))
		default:
			return "", fmt.Errorf("tenant %s on %s's prefix %s: read %v %q, write %v %q", who, other, keys[i], read.err, strings.TrimSpace(read.output), write.err, strings.TrimSpace(write.output))
		}
	}
	switch {
	case !auth && len(reached) == 2:
		return fmt.Sprintf("tenant certificates read and write each other's prefix (%s; auth off: no isolation)", strings.Join(reached, ", ")), nil
	case !auth:
		return "", fmt.Errorf("auth off, yet %s refused: the isolation check would prove nothing", strings.Join(refused, ", "))
	case len(refused) == 2:
		return fmt.Sprintf("tenant certificates are refused on each other's prefix (%s: permission denied, read and write)", strings.Join(refused, ", ")), nil
	}
	return "", fmt.Errorf("auth on, yet tenant %s", strings.Join(reached, ", "))
}

// podMounts writes the volumes of a pod template that the containers mount
// (Secret volumes only; the stacks' Jobs mount nothing else) and returns
// the mounts of container c.
func podMounts(dir string, spec corev1.PodSpec, c corev1.Container, sec secrets) (mounts, error) {
	m := mounts{}
	for _, vm := range c.VolumeMounts {
		var vol *corev1.Volume
		for i := range spec.Volumes {
			if spec.Volumes[i].Name == vm.Name {
				vol = &spec.Volumes[i]
			}
		}
		if vol == nil || vol.Secret == nil {
			return nil, fmt.Errorf("container %s mounts %s, not a Secret volume", c.Name, vm.Name)
		}
		d := filepath.Join(dir, "volumes", vm.Name)
		if err := writeSecretVolume(d, sec[vol.Secret.SecretName]); err != nil {
			return nil, err
		}
		m[vm.MountPath] = d
	}
	return m, nil
}

func runDefrag(ctx context.Context, l *lab, in inputs) (string, error) {
	p, err := l.jobPod(ctx, l.st.defrag.Name+"-job")
	if err != nil {
		return "", err
	}
	spec := l.st.defrag.Spec.JobTemplate.Spec.Template.Spec
	c := spec.Containers[0]
	if c.Image != "ghcr.io/ahrtr/etcd-defrag:v0.13.0" {
		return "", fmt.Errorf("the CronJob runs %s; the stand-in reproduces etcd-defrag v0.13.0", c.Image)
	}
	m, err := podMounts(p.dir, spec, c, in.sec)
	if err != nil {
		return "", err
	}
	args := m.rewriteAll(c.Args)
	r := l.role(ctx, p, 2*time.Minute, nil, "etcd-defrag", args...)
	if !r.ok() {
		return "", fmt.Errorf("%v: %s", r.err, lastLines(r.output, 3))
	}
	// A small database does not meet the rendered rule, so the verbatim
	// run defragments nothing; a second run with the rule's value made
	// "true" (its only change) makes the Defragment calls with the Job's
	// certificate too.
	forced := slices.Clone(args)
	i := slices.Index(forced, "--defrag-rule")
	if i < 0 || i+1 >= len(forced) {
		return "", fmt.Errorf("the CronJob's args have no --defrag-rule value: %q", c.Args)
	}
	forced[i+1] = "true"
	rf := l.role(ctx, p, 2*time.Minute, nil, "etcd-defrag", forced...)
	if !rf.ok() {
		return "", fmt.Errorf("with the rule made true: %v: %s", rf.err, lastLines(rf.output, 3))
	}
	return fmt.Sprintf("args verbatim (%d): %s; rule made true: %s", len(c.Args), trimLogTime(lastLines(r.output, 1)), trimLogTime(lastLines(rf.output, 1))), nil
}

// runCheck runs the check Job's containers in order (the init container
// check perf, then check datascale) with the rendered command, args and
// environment.
func runCheck(ctx context.Context, l *lab, in inputs) (string, error) {
	p, err := l.jobPod(ctx, in.check.Name)
	if err != nil {
		return "", err
	}
	spec := in.check.Spec.Template.Spec
	var done []string
	for _, c := range append(slices.Clone(spec.InitContainers), spec.Containers...) {
		if in.only != "" && c.Name != in.only {
			continue
		}
		if len(c.Command) != 1 || c.Command[0] != "/usr/local/bin/etcdctl" {
			return "", fmt.Errorf("container %s runs %q, not the image's etcdctl", c.Name, c.Command)
		}
		m, err := podMounts(p.dir, spec, c, in.sec)
		if err != nil {
			return "", err
		}
		var env []string
		for _, e := range c.Env {
			if e.ValueFrom != nil {
				return "", fmt.Errorf("container %s: env %s from a source the suite does not map", c.Name, e.Name)
			}
			env = append(env, e.Name+"="+m.rewrite(e.Value))
		}
		r := run(ctx, p, 5*time.Minute, env, append([]string{*etcdctlBin}, m.rewriteAll(c.Args)...)...)
		if !r.ok() {
			// check perf's verdict is about the machine: on 2 cores shared
			// with other builds a request can take over its 500 ms bound.
			// A run that measured (it wrote for the whole minute through the
			// Job's endpoint, certificate and CA, and printed the three
			// results) shows the Job works; one that could not connect
			// prints none of them.
			if c.Args[1] == "perf" && perfMeasured(r.output) {
				done = append(done, fmt.Sprintf("%s: measured, this machine's verdict: %s (%s)", c.Name, perfVerdict(r.output), r.took.Round(time.Second)))
				continue
			}
			return "", fmt.Errorf("%s (etcdctl %s): %v: %s", c.Name, strings.Join(c.Args[:2], " "), r.err, lastLines(r.output, 3))
		}
		done = append(done, fmt.Sprintf("%s: %s (%s)", c.Name, verdicts(r.output), r.took.Round(time.Second)))
	}
	return strings.Join(done, "; "), nil
}

func runSnapshot(ctx context.Context, l *lab, in inputs) (string, error) {
	p, err := l.jobPod(ctx, l.st.names.Cluster+"-works-snapshot")
	if err != nil {
		return "", err
	}
	tls := l.st.cluster.Spec.TLS
	ca := filepath.Join(p.dir, "volumes", "etcd-ca")
	cl := filepath.Join(p.dir, "volumes", "etcd-client")
	data := filepath.Join(p.dir, "volumes", "snapshot-data")
	if err := writeSecretVolume(ca, in.sec[tls.Client.ServerSecretRef.Name]); err != nil {
		return "", err
	}
	if err := writeSecretVolume(cl, in.sec[tls.Client.OperatorClientSecretRef.Name]); err != nil {
		return "", err
	}
	if err := os.MkdirAll(data, 0o700); err != nil {
		return "", err
	}
	endpoint := fmt.Sprintf("https://%s-client.%s.svc:2379", l.st.names.Cluster, l.st.namespace)
	env := []string{
		"ETCD_ENDPOINTS=" + endpoint,
		"SNAPSHOT_NAME=works",
		"ETCD_TLS_CA_PATH=" + ca + "/ca.crt",
		"ETCD_TLS_CERT_PATH=" + cl + "/tls.crt",
		"ETCD_TLS_KEY_PATH=" + cl + "/tls.key",
		"SNAPSHOT_DEST_KIND=pvc",
		"PVC_MOUNT_PATH=" + data,
	}
	if l.auth != "" {
		env = append(env, "ETCD_USERNAME=root", "ETCD_PASSWORD="+l.auth)
	}
	r := l.role(ctx, p, 2*time.Minute, env, "snapshot-agent")
	if !r.ok() {
		return "", fmt.Errorf("%v: %s", r.err, lastLines(r.output, 2))
	}
	db := filepath.Join(data, "works.db")
	if !isBoltFile(db) {
		return "", fmt.Errorf("%s is not a bbolt database", db)
	}
	fi, _ := os.Stat(db)
	return fmt.Sprintf("Snapshot over %s: %d-byte bbolt database", endpoint, fi.Size()), nil
}

// runJoin adds a fourth member with the inputs' peer certificate in its
// volume, as the operator's scale-up does, then removes it again (the
// operator's scale-down), so the cluster stays at three.
func runJoin(ctx context.Context, l *lab, in inputs) (string, error) {
	m, err := l.join(ctx, in.sec, 15*time.Second)
	if m != nil {
		if rerr := l.removeMember(ctx, m); rerr != nil && err == nil {
			err = rerr
		}
	}
	if err != nil {
		return "", err
	}
	return "a fourth member joined as a learner and was promoted, then removed", nil
}

// verdicts are etcdctl check's result lines (PASS…/FAIL…), without its
// progress bar.
func verdicts(out string) string {
	var v []string
	for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		for _, w := range []string{"PASS", "FAIL"} {
			if i := strings.Index(line, w); i >= 0 && !strings.Contains(line[i:], "p/s") {
				v = append(v, strings.TrimSpace(line[i:]))
				break
			}
		}
	}
	if len(v) == 0 {
		return lastLines(out, 1)
	}
	return strings.Join(v, "; ")
}

// perfMeasured reports whether etcdctl check perf's output holds its three
// results (throughput, slowest request, standard deviation).
func perfMeasured(out string) bool {
	return strings.Contains(out, "Throughput") && strings.Contains(out, "Slowest request") && strings.Contains(out, "Stddev")
}

func perfVerdict(out string) string {
	var fails []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "FAIL: ") {
			fails = append(fails, strings.TrimPrefix(line, "FAIL: "))
		}
	}
	if len(fails) == 0 {
		return "PASS"
	}
	return "FAIL (" + strings.Join(fails, "; ") + ")"
}

// trimLogTime drops the date and time Go's log package puts first.
func trimLogTime(s string) string {
	if f := strings.SplitN(s, " ", 3); len(f) == 3 && strings.Count(f[0], "/") == 2 {
		return f[2]
	}
	return s
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

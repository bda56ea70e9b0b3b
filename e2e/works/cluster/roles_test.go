package cluster

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	mathrand "math/rand"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.etcd.io/etcd/api/v3/authpb"
	"go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	"go.etcd.io/etcd/client/pkg/v3/transport"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// runRole is the entry point of every pod process that is this binary.
func runRole(role string, args []string) int {
	switch role {
	case "dns":
		return roleDNS(args)
	case "proxy":
		return roleProxy(args)
	case "probe":
		return roleProbe(args)
	case "operator":
		return exitCode(roleOperator(args))
	case "kamaji":
		return exitCode(roleKamaji(args))
	case "apiserver":
		return exitCode(roleAPIServer(args))
	case "etcd-defrag":
		return roleDefrag(args)
	case "snapshot-agent":
		return exitCode(roleSnapshotAgent())
	}
	fmt.Fprintln(os.Stderr, "unknown role", role)
	return 2
}

// tlsDiag is what a TLS handshake with cfg to the first endpoint says: a
// gRPC client reports a failed handshake as a hang until its deadline
// ("context deadline exceeded"), so a failing consumer adds this line to
// say why. It is a diagnosis only; the consumer's own call decides.
func tlsDiag(endpoint string, cfg *tls.Config) error {
	hostPort := endpoint
	if i := strings.Index(hostPort, "://"); i >= 0 {
		hostPort = hostPort[i+3:]
	}
	host, _, _ := strings.Cut(hostPort, ":")
	c := cfg.Clone()
	c.ServerName = host
	d := &net.Dialer{Timeout: 5 * time.Second}
	conn, err := tls.DialWithDialer(d, "tcp", hostPort, c)
	if err != nil {
		return fmt.Errorf("TLS handshake with %s: %w", hostPort, err)
	}
	defer conn.Close()
	// TLS 1.3: the server checks the client certificate after the
	// handshake; a read shows its verdict.
	_ = conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		var ne net.Error
		if !(errors.As(err, &ne) && ne.Timeout()) {
			return fmt.Errorf("TLS with %s: %w", hostPort, err)
		}
	}
	return nil
}

// withDiag appends tlsDiag's finding to err.
func withDiag(err error, endpoint string, cfg *tls.Config) error {
	if err == nil || cfg == nil {
		return err
	}
	if d := tlsDiag(endpoint, cfg); d != nil {
		return fmt.Errorf("%w [%v]", err, d)
	}
	return err
}

func exitCode(err error) int {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 1
	}
	return 0
}

// roleProbe is the member Pod's readiness probe (HTTPGet /health on the
// metrics port), run from inside the pod network.
func roleProbe(args []string) int {
	c := http.Client{Timeout: 3 * time.Second}
	resp, err := c.Get(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	fmt.Print(string(b))
	if resp.StatusCode != 200 {
		return 1
	}
	return 0
}

// ── etcd-operator's client ───────────────────────────────────────────────
//
// As cozystack/etcd-operator dials a cluster (controllers/etcd_client.go,
// buildOperatorTLSConfig; internal/etcdclient/etcdclient.go, New and
// TLSConfig): RootCAs from the server Secret's ca.crt, the operator-client
// Secret's tls.crt/tls.key as the client certificate, TLS 1.2 at least, a
// 5 s dial timeout, root's password once auth is on; endpoints are the
// members' client URLs https://<member>.<cluster>.<ns>.svc:2379
// (memberEndpoints). The steps are the ones the cluster controller takes
// with it: MemberList (5 s), MemberAddAsLearner (10 s), MemberPromote
// (10 s), MemberRemove (10 s), and reconcileAuth's UserAdd root, UserGrantRole
// root root, AuthEnable.

func operatorTLS() (*tls.Config, error) {
	caPEM, err := os.ReadFile(os.Getenv("OP_CA"))
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, errors.New("CA bundle is not valid PEM")
	}
	cfg := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	cert, err := tls.LoadX509KeyPair(os.Getenv("OP_CERT"), os.Getenv("OP_KEY"))
	if err != nil {
		return nil, fmt.Errorf("load client keypair: %w", err)
	}
	cfg.Certificates = []tls.Certificate{cert}
	return cfg, nil
}

func operatorClient() (*clientv3.Client, error) {
	cfg, err := operatorTLS()
	if err != nil {
		return nil, err
	}
	return clientv3.New(clientv3.Config{
		Endpoints:   strings.Split(os.Getenv("OP_ENDPOINTS"), ","),
		DialTimeout: 5 * time.Second,
		Username:    os.Getenv("OP_USER"),
		Password:    os.Getenv("OP_PASSWORD"),
		TLS:         cfg,
		Logger:      zap.NewNop(),
	})
}

type memberInfo struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	PeerURLs   []string `json:"peerURLs"`
	ClientURLs []string `json:"clientURLs"`
	IsLearner  bool     `json:"isLearner"`
}

func printMembers(ms []*etcdserverpb.Member) error {
	out := make([]memberInfo, 0, len(ms))
	for _, m := range ms {
		out = append(out, memberInfo{ID: fmt.Sprintf("%016x", m.ID), Name: m.Name, PeerURLs: m.PeerURLs, ClientURLs: m.ClientURLs, IsLearner: m.IsLearner})
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

func roleOperator(args []string) error {
	if len(args) == 0 {
		return errors.New("operator: want a step")
	}
	c, err := operatorClient()
	if err != nil {
		return err
	}
	defer c.Close()
	err = operatorStep(c, args)
	if err != nil && len(c.Endpoints()) > 0 {
		cfg, _ := operatorTLS()
		err = withDiag(err, c.Endpoints()[0], cfg)
	}
	return err
}

func operatorStep(c *clientv3.Client, args []string) error {
	ctx := context.Background()
	memberByPeer := func(peer string) (uint64, error) {
		lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		resp, err := c.MemberList(lctx)
		if err != nil {
			return 0, err
		}
		for _, m := range resp.Members {
			if slices.Contains(m.PeerURLs, peer) {
				return m.ID, nil
			}
		}
		return 0, fmt.Errorf("no member has peer URL %s", peer)
	}
	switch args[0] {
	case "member-list":
		lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		resp, err := c.MemberList(lctx)
		if err != nil {
			return err
		}
		return printMembers(resp.Members)
	case "add-learner":
		actx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		resp, err := c.MemberAddAsLearner(actx, []string{args[1]})
		if err != nil {
			return err
		}
		return printMembers(resp.Members)
	case "promote":
		id, err := memberByPeer(args[1])
		if err != nil {
			return err
		}
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		_, err = c.MemberPromote(pctx, id)
		return err
	case "remove":
		id, err := memberByPeer(args[1])
		if err != nil {
			return err
		}
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		_, err = c.MemberRemove(rctx, id)
		return err
	case "auth-enable":
		// reconcileAuth: root's password is the root credentials
		// Secret's (readRootPassword; OP_ROOT_PASSWORD here).
		password := os.Getenv("OP_ROOT_PASSWORD")
		if password == "" {
			return errors.New("auth-enable: no root credentials Secret (spec.auth.rootCredentialsSecretRef)")
		}
		actx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		st, err := c.AuthStatus(actx)
		if err != nil {
			return err
		}
		if st.Enabled {
			return nil
		}
		if _, err := c.UserAdd(actx, "root", password); err != nil && !strings.Contains(err.Error(), "user name already exists") {
			return err
		}
		if _, err := c.UserGrantRole(actx, "root", "root"); err != nil {
			return err
		}
		_, err = c.AuthEnable(actx)
		return err
	}
	return fmt.Errorf("operator: unknown step %q", args[0])
}

// ── Kamaji ──────────────────────────────────────────────────────────────
//
// Kamaji's datastore code is internal to its module, so the calls are
// reproduced here, pinned to clastix/kamaji:
//   - internal/datastore/datastore.go @18f6a03dd7918670b027649e2ac76defeb712cbc,
//     NewConnectionConfig: RootCAs from the DataStore's
//     tlsConfig.certificateAuthority.certificate, the client certificate
//     from tlsConfig.clientCertificate;
//   - internal/datastore/etcd.go @978a054a7dbb65c37dd2e6c53fa866476d83179a:
//     NewETCDConnection (clientv3.Config{Endpoints, TLS}, no dial timeout),
//     Check (AuthStatus), UserExists (UserGet), CreateUser
//     (UserAddWithOptions NoPassword), GrantPrivilegesExists (RoleGet),
//     GrantPrivileges (RoleAdd <schema>, RoleGrantPermission <schema>
//     "/<schema>/" with GetPrefixRangeEnd, READWRITE; UserGrantRole),
//     RevokePrivileges (RoleDelete), DeleteDB (Delete "/<schema>/" prefix),
//     DeleteUser (UserDelete);
//   - internal/resources/datastore/datastore_setup.go
//     @03ecc9bb62ef993b1be714290a761ab32685f904: the order createDB,
//     createUser, createGrantPrivileges and, on delete, revoke, deleteDB,
//     deleteUser;
//   - internal/resources/datastore/datastore_certificate.go
//     @8d25078c47404246266dd8aafc1b506f56e9cbbb and internal/crypto/crypto.go
//     @b34ea8ae74929b61698bba0e7b75c1f18dc9d663: the tenant's etcd client
//     certificate, CN = the setup user, O = system:masters, client, server
//     and code-signing usages, a new RSA 2048 key, signed with the
//     DataStore's CA certificate and key; ca.crt is the DataStore's CA.
// The user and schema are <tcp-namespace>_<tcp-name> with "-" made "_"
// (datastore_storage_config.go's default).

func kamajiConnection() (*clientv3.Client, error) {
	tlsConfig, err := kamajiTLS()
	if err != nil {
		return nil, err
	}
	return clientv3.New(clientv3.Config{
		Endpoints: strings.Split(os.Getenv("KAMAJI_ENDPOINTS"), ","),
		TLS:       tlsConfig,
		Logger:    zap.NewNop(),
	})
}

func kamajiTLS() (*tls.Config, error) {
	ca, err := os.ReadFile(os.Getenv("KAMAJI_CA"))
	if err != nil {
		return nil, err
	}
	rootCAs := x509.NewCertPool()
	if !rootCAs.AppendCertsFromPEM(ca) {
		return nil, errors.New("error create root CA for the DB connector")
	}
	tlsConfig := &tls.Config{RootCAs: rootCAs}
	crt, err := os.ReadFile(os.Getenv("KAMAJI_CLIENT_CERT"))
	if err != nil {
		return nil, err
	}
	key, err := os.ReadFile(os.Getenv("KAMAJI_CLIENT_KEY"))
	if err != nil {
		return nil, err
	}
	certificate, err := tls.X509KeyPair(crt, key)
	if err != nil {
		return nil, fmt.Errorf("cannot retrieve x.509 key pair from the Kine Secret: %w", err)
	}
	tlsConfig.Certificates = []tls.Certificate{certificate}
	return tlsConfig, nil
}

func roleKamaji(args []string) error {
	err := kamajiStep(args)
	if err != nil {
		cfg, _ := kamajiTLS()
		err = withDiag(err, strings.Split(os.Getenv("KAMAJI_ENDPOINTS"), ",")[0], cfg)
	}
	return err
}

func kamajiStep(args []string) error {
	if len(args) < 3 {
		return errors.New("kamaji: want setup USER SCHEMA OUTDIR or cleanup USER SCHEMA")
	}
	step, user, schema := args[0], args[1], args[2]
	c, err := kamajiConnection()
	if err != nil {
		return err
	}
	defer c.Close()
	// Kamaji reconciles with the controller's context; a bound here keeps a
	// broken TLS configuration (which clientv3 only reports as a hang) from
	// blocking the suite.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	key := fmt.Sprintf("/%s/", schema)
	userExists := func() (bool, error) {
		if _, err := c.UserGet(ctx, user); err != nil {
			if errors.Is(err, rpctypes.ErrUserNotFound) || strings.Contains(err.Error(), rpctypes.ErrUserNotFound.Error()) {
				return false, nil
			}
			return false, fmt.Errorf("check user exists: %w", err)
		}
		return true, nil
	}
	grantExists := func() (bool, error) {
		if _, err := c.RoleGet(ctx, schema); err != nil {
			if errors.Is(err, rpctypes.ErrRoleNotFound) || strings.Contains(err.Error(), rpctypes.ErrRoleNotFound.Error()) {
				return false, nil
			}
			return false, fmt.Errorf("check grant exists: %w", err)
		}
		u, err := c.UserGet(ctx, user)
		if err != nil {
			return false, fmt.Errorf("check grant exists: %w", err)
		}
		return slices.Contains(u.Roles, schema), nil
	}
	switch step {
	case "setup":
		if len(args) != 4 {
			return errors.New("kamaji setup: want USER SCHEMA OUTDIR")
		}
		if _, err := c.AuthStatus(ctx); err != nil { // Check
			return fmt.Errorf("check connection: %w", err)
		}
		// createDB: DBExists is always true for etcd.
		exists, err := userExists()
		if err != nil {
			return err
		}
		if !exists {
			if _, err := c.UserAddWithOptions(ctx, user, "", &clientv3.UserAddOptions{NoPassword: true}); err != nil {
				return fmt.Errorf("create user: %w", err)
			}
		}
		granted, err := grantExists()
		if err != nil {
			return err
		}
		if !granted {
			if _, err := c.RoleAdd(ctx, schema); err != nil {
				return fmt.Errorf("grant privileges: %w", err)
			}
			perm := clientv3.PermissionType(authpb.READWRITE)
			end := clientv3.GetPrefixRangeEnd(key)
			if os.Getenv("KAMAJI_OLDER_RANGE") != "" {
				end = olderKamajiRangeEnd
			}
			if _, err := c.RoleGrantPermission(ctx, schema, key, end, perm); err != nil {
				return fmt.Errorf("grant privileges: %w", err)
			}
			if _, err := c.UserGrantRole(ctx, user, schema); err != nil {
				return fmt.Errorf("grant privileges: %w", err)
			}
		}
		return kamajiTenantCertificate(user, args[3])
	case "cleanup":
		granted, err := grantExists()
		if err != nil {
			return err
		}
		if granted {
			if _, err := c.RoleDelete(ctx, schema); err != nil {
				return fmt.Errorf("revoke privileges: %w", err)
			}
		}
		if _, err := c.Delete(ctx, key, clientv3.WithPrefix()); err != nil {
			return fmt.Errorf("delete datastore: %w", err)
		}
		exists, err := userExists()
		if err != nil {
			return err
		}
		if exists {
			if _, err := c.UserDelete(ctx, user); err != nil {
				return fmt.Errorf("delete user: %w", err)
			}
		}
		return nil
	}
	return fmt.Errorf("kamaji: unknown step %q", step)
}

// olderKamajiRangeEnd is the range end of the role an older Kamaji grants
// (internal/datastore/etcd.go @09ce38f489cccca72ab728a259bc8fb2cf6e4770,
// rangeEnd = "\\0", meant as etcd's "every key from the key on"): the
// two characters backslash and zero, so the role covers every key from
// /<schema>/ up to "\\", which is every other tenant's /<schema>/ that
// sorts above it. The pinned commit grants clientv3.GetPrefixRangeEnd.
const olderKamajiRangeEnd = "\\0"

// kamajiTenantCertificate writes the datastore-certificate Secret's keys:
// ca.crt, server.crt, server.key.
func kamajiTenantCertificate(commonName, dir string) error {
	caPEM, err := os.ReadFile(os.Getenv("KAMAJI_CA"))
	if err != nil {
		return err
	}
	caKeyPEM, err := os.ReadFile(os.Getenv("KAMAJI_CA_KEY"))
	if err != nil {
		return err
	}
	b, _ := pem.Decode(caPEM)
	if b == nil {
		return errors.New("no right PEM block")
	}
	caCert, err := x509.ParseCertificate(b.Bytes)
	if err != nil {
		return fmt.Errorf("cannot parse x509 Certificate: %w", err)
	}
	kb, _ := pem.Decode(caKeyPEM)
	if kb == nil {
		return errors.New("no right PEM block")
	}
	caKey, err := x509.ParsePKCS1PrivateKey(kb.Bytes)
	if err != nil {
		return fmt.Errorf("provided CA private key for certificate generation cannot be parsed: cannot parse PKCS1 Private Key: %w", err)
	}
	template := &x509.Certificate{
		PublicKeyAlgorithm: x509.RSA,
		SerialNumber:       big.NewInt(mathrand.Int63()),
		Subject:            pkix.Name{CommonName: commonName, Organization: []string{"system:masters"}},
		NotBefore:          time.Now(),
		NotAfter:           time.Now().AddDate(10, 0, 0),
		SubjectKeyId:       []byte{1, 2, 3, 4, 6},
		ExtKeyUsage:        []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageCodeSigning},
		KeyUsage:           x509.KeyUsageDigitalSignature,
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	der, err := x509.CreateCertificate(rand.Reader, template, caCert, &key.PublicKey, caKey)
	if err != nil {
		return fmt.Errorf("cannot create the certificate: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{
		"ca.crt":     caPEM,
		"server.crt": pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		"server.key": pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}),
	}
	for _, name := range []string{"ca.crt", "server.crt", "server.key"} {
		if err := os.WriteFile(filepath.Join(dir, name), files[name], 0o600); err != nil {
			return err
		}
	}
	return nil
}

// ── A tenant's kube-apiserver ────────────────────────────────────────────
//
// The tenant control plane's apiserver reaches its datastore with
// --etcd-servers=https://<DataStore endpoint>, --etcd-cafile ca.crt,
// --etcd-certfile server.crt, --etcd-keyfile server.key from Kamaji's
// datastore-certificate Secret and --etcd-prefix /<schema>. Its etcd3
// storage backend builds the client TLS from etcd's transport.TLSInfo, as
// here (k8s.io/apiserver storagebackend/factory/etcd3.go).

func roleAPIServer(args []string) error {
	if len(args) < 2 {
		return errors.New("apiserver: want put KEY VALUE | get KEY")
	}
	dir := os.Getenv("APISERVER_CERTS")
	info := transport.TLSInfo{
		CertFile:      filepath.Join(dir, "server.crt"),
		KeyFile:       filepath.Join(dir, "server.key"),
		TrustedCAFile: filepath.Join(dir, "ca.crt"),
	}
	tlsCfg, err := info.ClientConfig()
	if err != nil {
		return err
	}
	var eps []string
	for _, ep := range strings.Split(os.Getenv("APISERVER_ENDPOINTS"), ",") {
		eps = append(eps, "https://"+ep)
	}
	c, err := clientv3.New(clientv3.Config{Endpoints: eps, TLS: tlsCfg, DialTimeout: 20 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	switch args[0] {
	case "put":
		_, err := c.Put(ctx, args[1], args[2])
		return withDiag(err, eps[0], tlsCfg)
	case "get":
		resp, err := c.Get(ctx, args[1])
		if err != nil {
			return withDiag(err, eps[0], tlsCfg)
		}
		if len(resp.Kvs) == 0 {
			return fmt.Errorf("no key %s", args[1])
		}
		fmt.Print(string(resp.Kvs[0].Value))
		return nil
	}
	return fmt.Errorf("apiserver: unknown step %q", args[0])
}

// ── The snapshot agent ──────────────────────────────────────────────────
//
// etcd-operator's Job runs "manager snapshot-agent" configured by env
// (controllers/snapshot_job.go, buildSnapshotJob; internal/agent/agent.go,
// etcdClient and loadTLS; internal/agent/snapshot.go, RunSnapshot): it
// dials ETCD_ENDPOINTS (https://<cluster>-client.<ns>.svc:2379,
// clientServiceEndpoint) with a 10 s dial timeout, RootCAs from
// ETCD_TLS_CA_PATH (the server Secret's ca.crt, mounted at
// /etc/etcd/pki/ca), the operator-client Secret's tls.crt/tls.key
// (mounted at /etc/etcd/pki/client), root's password once auth is on,
// streams Snapshot to <PVC_MOUNT_PATH>/<SNAPSHOT_NAME>.db and prints the
// marker line the controller scans. Only the PVC destination is
// reproduced (S3 needs a server this machine does not have).

func roleSnapshotAgent() error {
	eps := strings.Split(os.Getenv("ETCD_ENDPOINTS"), ",")
	cfg := clientv3.Config{
		Endpoints:   eps,
		DialTimeout: 10 * time.Second,
		Username:    os.Getenv("ETCD_USERNAME"),
		Password:    os.Getenv("ETCD_PASSWORD"),
		Logger:      zap.NewNop(),
	}
	caPEM, err := os.ReadFile(os.Getenv("ETCD_TLS_CA_PATH"))
	if err != nil {
		return fmt.Errorf("read CA: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return errors.New("CA is not valid PEM")
	}
	tlsCfg := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	cert, err := tls.LoadX509KeyPair(os.Getenv("ETCD_TLS_CERT_PATH"), os.Getenv("ETCD_TLS_KEY_PATH"))
	if err != nil {
		return fmt.Errorf("load client cert: %w", err)
	}
	tlsCfg.Certificates = []tls.Certificate{cert}
	cfg.TLS = tlsCfg
	cli, err := clientv3.New(cfg)
	if err != nil {
		return fmt.Errorf("connect to etcd: %w", err)
	}
	defer cli.Close()
	// SnapshotTimeout is 25 minutes upstream; 10 s is plenty here.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rc, err := cli.Snapshot(ctx)
	if err != nil {
		return withDiag(fmt.Errorf("take etcd snapshot: %w", err), eps[0], tlsCfg)
	}
	defer rc.Close()
	path := filepath.Join(os.Getenv("PVC_MOUNT_PATH"), os.Getenv("SNAPSHOT_NAME")+".db")
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), rc)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("write snapshot: %w", err)
	}
	fmt.Printf("snapshot uploaded: uri=%q size=%d sha256=%s\n", "file://"+path, n, hex.EncodeToString(h.Sum(nil)))
	return nil
}

// isBoltFile reports whether path starts with a bbolt meta page (the
// snapshot is the member's bbolt database): page header (16 bytes), then
// the magic 0xED0CDAED, little-endian.
func isBoltFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 20)
	if _, err := io.ReadFull(f, b); err != nil {
		return false
	}
	return bytes.Equal(b[16:20], []byte{0xed, 0xda, 0x0c, 0xed})
}

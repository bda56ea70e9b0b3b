package naming

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/etcdshapes/etcdshapes/invalid"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// Limits the derivations enforce. They come from the API server's rules for
// the kinds involved and from what etcd-operator derives from a cluster name.
const (
	// MaxClusterName bounds an EtcdCluster name: the operator derives member
	// pods "<name>-xxxxx" and a "<name>-client" Service (a DNS-1035 label, 63).
	MaxClusterName = 56
	// MaxDataStoreName bounds a Kamaji DataStore name before it is hashed.
	MaxDataStoreName = validation.DNS1123LabelMaxLength
	// MaxCronJobName is the API server's limit for a CronJob name: the Job
	// controller appends an 11-character suffix to a 52-character name.
	MaxCronJobName = 52
	// MaxJobName is the API server's limit for a Job name: it copies the
	// name into the pods' batch.kubernetes.io/job-name label (63).
	MaxJobName = validation.LabelValueMaxLength

	// EtcdChartRelease is the only release name the etcd chart accepts.
	EtcdChartRelease = "etcd"
	// EtcdChartName is the fixed EtcdCluster name of the etcd chart.
	EtcdChartName = "etcd"
	// RootTenant is the namespace of the root tenant.
	RootTenant = "tenant-root"

	tenantPrefix = "tenant-"
)

// The hash truncation schemes: a name over its limit keeps the first Keep
// characters of its readable part, then "-", the first HashLength hex
// digits of the SHA-256 of the full name, and the scheme's suffix.
// Exported for generators that reproduce the schemes (chartgen's Helm
// helpers). Released with the schemes; never change them.
const (
	HashLength    = 8
	DataStoreKeep = 54 // DataStore: namespace.release, no suffix
	CronJobKeep   = 36 // defrag CronJob: "-defrag"
	JobKeep       = 46 // cleanup Job: "-cleanup"
)

// Caller is the chart an etcd stack is rendered for, spelled as the
// command line and Request.Caller spell it. Its only values are
// CallerEtcd and CallerCluster; any other (the zero value "" included)
// is no caller, and every function that takes one refuses it
// (Caller.Validate), never reading it as either chart.
type Caller string

const (
	// CallerEtcd is the etcd chart: one shared etcd per tenant namespace,
	// named "etcd".
	CallerEtcd Caller = "etcd"
	// CallerCluster is the kubernetes chart's etcd: one etcd per tenant
	// cluster, named "<release>-etcd".
	CallerCluster Caller = "cluster"
)

// Callers are the two callers, CallerEtcd first.
func Callers() []Caller { return []Caller{CallerEtcd, CallerCluster} }

// String is the caller's spelling, "etcd" or "cluster"; any other value
// prints as it is, so a bad one is never shown as a chart.
func (c Caller) String() string { return string(c) }

// Validate refuses a value that is neither CallerEtcd nor CallerCluster:
// an *invalid.Error naming field (the caller's name of the input:
// "caller", "--caller", "Caller") and the value as given.
func (c Caller) Validate(field string) error {
	switch c {
	case CallerEtcd, CallerCluster:
		return nil
	}
	return invalid.Errorf(field, string(c), "must be %q or %q", CallerEtcd, CallerCluster)
}

// Names is every name one etcd stack uses. Build it with ForEtcdChart or
// ForCluster; the zero value, a literal or a copy whose fields were
// changed afterwards is not valid, and every builder refuses it (Validate).
type Names struct {
	// Caller is the chart the stack is rendered for; it decides the DataStore
	// name and the certificates' extra SANs.
	Caller Caller
	// Namespace is the tenant namespace ("tenant-<name>") every namespaced
	// object of the stack lives in.
	Namespace string
	// Release is the Helm release: "etcd" for the etcd chart, the tenant
	// cluster's release (e.g. "kubernetes-demo") for CallerCluster.
	Release string
	// Cluster is the EtcdCluster name and the base of every other name.
	Cluster string

	// made is what the constructor validated, so that Validate can tell a
	// constructed Names from a literal or an edited copy without
	// re-validating (builders call it on every object).
	made made
}

type made struct {
	ok                          bool
	caller                      Caller
	namespace, release, cluster string
}

func (n Names) sealed() Names {
	n.made = made{ok: true, caller: n.Caller, namespace: n.Namespace, release: n.Release, cluster: n.Cluster}
	return n
}

// Validate reports whether n was made by ForEtcdChart or ForCluster and
// not changed since. Every builder that takes Names calls it, so a zero
// value or a hand-made Names never reaches an object.
func (n Names) Validate() error {
	if !n.made.ok {
		return invalid.Errorf("names", n.Cluster, "must be made by naming.ForEtcdChart or naming.ForCluster, which validate them (the zero value and literals are not valid)")
	}
	if n.made.caller != n.Caller || n.made.namespace != n.Namespace || n.made.release != n.Release || n.made.cluster != n.Cluster {
		return invalid.Errorf("names", n.Cluster, "were changed after naming.ForEtcdChart or naming.ForCluster validated them; make new ones")
	}
	return nil
}

// ForEtcdChart returns the names of the etcd chart's stack in namespace.
// The release must be "etcd" (the chart pins it) and the namespace a tenant.
//
// Both are checked, each on its own, so that a bad pair is refused with
// both refusals (see invalid.List).
func ForEtcdChart(namespace, release string) (Names, error) {
	return ForEtcdChartAt(namespace, release, Paths{})
}

// ForEtcdChartAt is ForEtcdChart with the namespace and release refused
// under the caller's paths (see Paths).
func ForEtcdChartAt(namespace, release string, p Paths) (Names, error) {
	var c invalid.Collector
	c.Add(ValidateTenantNamespace(p.namespace(), namespace))
	if release != EtcdChartRelease {
		c.Addf(p.release(), release, "the etcd chart must be installed as release %q", EtcdChartRelease)
	}
	if err := c.Err(); err != nil {
		return Names{}, err
	}
	return Names{Caller: CallerEtcd, Namespace: namespace, Release: release, Cluster: EtcdChartName}.sealed(), nil
}

// ForCluster returns the names of a tenant cluster's etcd: "<release>-etcd".
// It enforces every rule of the names a rendered stack derives from the
// release; ClusterDataStore needs fewer.
// A bad namespace and a bad release are both refused (see invalid.List).
func ForCluster(namespace, release string) (Names, error) {
	return ForClusterAt(namespace, release, Paths{})
}

// ForClusterAt is ForCluster with the namespace and release refused under
// the caller's paths (see Paths).
func ForClusterAt(namespace, release string, p Paths) (Names, error) {
	var c invalid.Collector
	rel := p.release()
	c.Add(ValidateTenantNamespace(p.namespace(), namespace))
	name := clusterEtcdName(release)
	// The release's rules build on each other: the first it breaks is
	// its refusal.
	if !c.Add(validateRelease(rel, release)) {
		if errs := validation.IsDNS1123Label(release); len(errs) > 0 {
			c.Addf(rel, release, "must be a DNS-1123 label: %s", strings.Join(errs, "; "))
		} else if errs := validation.IsDNS1035Label(release); len(errs) > 0 {
			c.Addf(rel, release,
				"must start with a letter: etcd-operator names a Service \"<release>-etcd-client\" and Service names are DNS-1035 labels")
		} else if len(name) > MaxClusterName {
			c.Addf(rel, release,
				"the etcd name %q is %d characters, more than %d (etcd-operator derives pod and Service names from it)",
				name, len(name), MaxClusterName)
		}
	}
	if err := c.Err(); err != nil {
		return Names{}, err
	}
	return Names{Caller: CallerCluster, Namespace: namespace, Release: release, Cluster: name}.sealed(), nil
}

// ClusterEtcdName is the EtcdCluster name of a tenant cluster's etcd,
// "<release>-etcd", with only the checks every use of a tenant cluster's
// names needs (a release Helm accepts: a DNS-1123 label, or of at most 63
// characters a DNS-1123 subdomain, which makes "<release>-etcd" a valid
// object name), not ForCluster's: for reading the live state of a cluster
// whose names may predate them. Any other release is refused, an
// *invalid.Error naming "release": "" would give "-etcd".
func ClusterEtcdName(release string) (string, error) {
	if err := validateRelease("release", release); err != nil {
		return "", err
	}
	return clusterEtcdName(release), nil
}

func clusterEtcdName(release string) string { return release + "-etcd" }

// validateClusterRelease checks what every use of a tenant cluster's names
// needs: a tenant namespace and a release that is a DNS-1123 label, or of
// at most 63 characters a DNS-1123 subdomain, the grammar Helm requires of
// release names (dots allowed); the label the rendered objects need is then
// ForCluster's rule.
func validateClusterRelease(namespace, release string, p Paths) error {
	return invalid.Join(ValidateTenantNamespace(p.namespace(), namespace), validateRelease(p.release(), release))
}

// validateRelease is validateClusterRelease's rule of the release alone.
func validateRelease(field, release string) error {
	if release == "" {
		return invalid.Errorf(field, release, "must not be empty")
	}
	if errs := validation.IsDNS1123Label(release); len(errs) > 0 {
		// Helm's release names may hold dots (a DNS-1123 subdomain); such a
		// release is refused only where objects are named after it.
		if len(release) > validation.DNS1123LabelMaxLength || len(validation.IsDNS1123Subdomain(release)) > 0 {
			return invalid.Errorf(field, release, "must be a DNS-1123 label: %s", strings.Join(errs, "; "))
		}
	}
	return nil
}

// ClusterDataStore returns a tenant cluster's own DataStore name (see
// Names.DataStore) from the namespace and release alone. Unlike ForCluster
// it does not apply the rules of the objects a rendered stack names after
// the release (the 56-character etcd name, a release that starts with a
// letter): a cluster created before those rules, whose live
// KamajiControlPlane names a shared datastore, renders nothing and must
// still be recognised.
func ClusterDataStore(namespace, release string) (string, error) {
	return ClusterDataStoreAt(namespace, release, Paths{})
}

// ClusterDataStoreAt is ClusterDataStore with the namespace and release
// refused under the caller's paths (see Paths).
func ClusterDataStoreAt(namespace, release string, p Paths) (string, error) {
	if err := validateClusterRelease(namespace, release, p); err != nil {
		return "", err
	}
	return clusterDataStore(namespace, release), nil
}

func clusterDataStore(namespace, release string) string {
	return hashTruncate(namespace+"."+release, MaxDataStoreName, DataStoreKeep, "")
}

// ValidateTenantNamespace checks that ns is a Cozystack tenant namespace:
// "tenant-" followed by dash-separated tenant names, as a DNS-1123 label.
func ValidateTenantNamespace(field, ns string) error {
	if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
		return invalid.Errorf(field, ns, "must be a namespace name (DNS-1123 label): %s", strings.Join(errs, "; "))
	}
	if !strings.HasPrefix(ns, tenantPrefix) {
		return invalid.Errorf(field, ns, "must be a tenant namespace (\"tenant-<name>\")")
	}
	for _, part := range strings.Split(strings.TrimPrefix(ns, tenantPrefix), "-") {
		if part == "" {
			return invalid.Errorf(field, ns, "must be a tenant namespace: every tenant name on the path must be non-empty")
		}
	}
	return nil
}

// TenantPath lists the tenants whose administrators see a namespace's
// resources, as Cozystack's RBAC helpers derive them: every tenant on the
// path to the namespace, shortest first, then tenant-root unless it is the
// namespace itself. A namespace ValidateTenantNamespace refuses is
// refused with its error (field "namespace"): "tenant--a" would give the
// tenant "tenant-", which names no namespace.
func TenantPath(ns string) ([]string, error) {
	if err := ValidateTenantNamespace("namespace", ns); err != nil {
		return nil, err
	}
	return tenantPath(ns), nil
}

func tenantPath(ns string) []string {
	parts := strings.Split(ns, "-")
	out := make([]string, 0, len(parts))
	for i := 2; i <= len(parts); i++ {
		out = append(out, strings.Join(parts[:i], "-"))
	}
	if ns != RootTenant {
		out = append(out, RootTenant)
	}
	return out
}

// Derived names. Each is a pure function of the base name; "<name>" below
// is Cluster.

// SelfSigningIssuer names the self-signed Issuer that signs both CAs:
// "<name>-selfsigning-issuer".
func (n Names) SelfSigningIssuer() string { return n.Cluster + "-selfsigning-issuer" }

// PeerIssuer names the CA Issuer, backed by PeerCASecret, that signs the peer
// certificate: "<name>-peer-issuer".
func (n Names) PeerIssuer() string { return n.Cluster + "-peer-issuer" }

// Issuer names the CA Issuer, backed by CASecret, that signs the server and
// client certificates: "<name>-issuer".
func (n Names) Issuer() string { return n.Cluster + "-issuer" }

// PeerCACertificate names the Certificate of the peer CA: "<name>-peer-ca".
func (n Names) PeerCACertificate() string { return n.Cluster + "-peer-ca" }

// CACertificate names the Certificate of the CA of the server and client
// certificates: "<name>-ca".
func (n Names) CACertificate() string { return n.Cluster + "-ca" }

// ServerCertificate names the Certificate of the etcd server (client API):
// "<name>-server".
func (n Names) ServerCertificate() string { return n.Cluster + "-server" }

// PeerCertificate names the Certificate of the etcd peer API: "<name>-peer".
func (n Names) PeerCertificate() string { return n.Cluster + "-peer" }

// ClientCertificate names the Certificate of the etcd root client that
// etcd-operator, Kamaji and the defrag job present: "<name>-client".
func (n Names) ClientCertificate() string { return n.Cluster + "-client" }

// TLSSecret is the Secret cert-manager writes for a certificate name,
// "<certificate>-tls". A certificate name that is not an object name (a
// DNS-1123 subdomain), or so long that the Secret's name would not be
// one, is refused, an *invalid.Error naming "certificate".
func TLSSecret(certificate string) (string, error) {
	if errs := validation.IsDNS1123Subdomain(certificate); len(errs) > 0 {
		return "", invalid.Errorf("certificate", certificate, "must be a Certificate name (DNS-1123 subdomain): %s", strings.Join(errs, "; "))
	}
	secret := tlsSecret(certificate)
	if len(secret) > validation.DNS1123SubdomainMaxLength {
		return "", invalid.Errorf("certificate", certificate, "must be at most %d characters, so that its Secret %q is a name", validation.DNS1123SubdomainMaxLength-len(tlsSuffix), "<certificate>"+tlsSuffix)
	}
	return secret, nil
}

const tlsSuffix = "-tls"

func tlsSecret(certificate string) string { return certificate + tlsSuffix }

// PeerCASecret names the Secret of PeerCACertificate: "<name>-peer-ca-tls".
func (n Names) PeerCASecret() string { return tlsSecret(n.PeerCACertificate()) }

// CASecret names the Secret of CACertificate: "<name>-ca-tls".
func (n Names) CASecret() string { return tlsSecret(n.CACertificate()) }

// ServerSecret names the Secret of ServerCertificate: "<name>-server-tls".
func (n Names) ServerSecret() string { return tlsSecret(n.ServerCertificate()) }

// PeerSecret names the Secret of PeerCertificate: "<name>-peer-tls".
func (n Names) PeerSecret() string { return tlsSecret(n.PeerCertificate()) }

// ClientSecret names the Secret of ClientCertificate: "<name>-client-tls".
func (n Names) ClientSecret() string { return tlsSecret(n.ClientCertificate()) }

// TLSSecrets lists the five PKI secrets in the order the cleanup deletes them.
func (n Names) TLSSecrets() []string {
	return []string{n.PeerCASecret(), n.CASecret(), n.ServerSecret(), n.PeerSecret(), n.ClientSecret()}
}

// ClientService is the Service etcd-operator creates for clients.
func (n Names) ClientService() string { return n.Cluster + "-client" }

// ServiceHost is the cluster's in-namespace DNS name, "<name>.<ns>.svc".
func (n Names) ServiceHost() string { return n.Cluster + "." + n.Namespace + ".svc" }

// ClientEndpoint is the etcd client endpoint "<name>.<ns>.svc:2379".
func (n Names) ClientEndpoint() string { return n.ServiceHost() + ":2379" }

// LegacyHeadlessService is the etcd chart's transitional headless Service.
func (n Names) LegacyHeadlessService() string { return n.Cluster + "-headless" }

// PodScrape names the VMPodScrape of the members' metrics: "<name>-pod-scrape".
func (n Names) PodScrape() string { return n.Cluster + "-pod-scrape" }

// Cleanup names the cleanup hook's ServiceAccount, Role and RoleBinding, and is
// the unhashed base of CleanupJob: "<name>-cleanup".
func (n Names) Cleanup() string { return n.Cluster + "-cleanup" }

// CleanupJob is the cleanup hook's Job name: "<name>-cleanup", hashed down
// to the Job limit of 63 characters when longer (only a 56-character etcd
// name needs it; the chart's 64-character name is refused by the API server).
func (n Names) CleanupJob() string {
	return hashTruncate(n.Cleanup(), MaxJobName, JobKeep, "-cleanup")
}

// DashboardResources names the etcd chart's Role and RoleBinding that let the
// dashboard read the cluster's Service and WorkloadMonitor:
// "<release>-dashboard-resources", after the release rather than the cluster.
func (n Names) DashboardResources() string { return n.Release + "-dashboard-resources" }

// PrometheusRule names the PrometheusRule of the etcd alerts: "<name>-rules".
func (n Names) PrometheusRule() string { return n.Cluster + "-rules" }

// MaxMembers bounds a stack's members, as etcd.MaxReplicas does: member
// indices run from 0 to MaxMembers-1.
const MaxMembers = 99

// DataPVC is the PersistentVolumeClaim of member i (the etcd chart's legacy
// StatefulSet naming, which the cleanup hook deletes): "data-<name>-<i>".
// Names that Validate refuses, and an i outside 0 to MaxMembers-1 (-1
// gave "data-etcd--1"), are refused, an *invalid.Error naming "names" or
// "member".
func (n Names) DataPVC(i int) (string, error) {
	if err := n.Validate(); err != nil {
		return "", err
	}
	if i < 0 || i >= MaxMembers {
		return "", invalid.Errorf("member", i, "must be a member index from 0 to %d", MaxMembers-1)
	}
	return "data-" + n.Cluster + "-" + strconv.Itoa(i), nil
}

// DataStore is the Kamaji DataStore name. The etcd chart's shared datastore
// is named after the namespace; a tenant cluster's is "<ns>.<release>",
// hashed down to 63 characters when longer.
func (n Names) DataStore() string {
	if n.Caller == CallerEtcd {
		return n.Namespace
	}
	return clusterDataStore(n.Namespace, n.Release)
}

// DataStoreCollision says whether a DataStore name one stack renders can
// also be another stack's, and whose: the DataStore is cluster-scoped, and
// the hash scheme of a long "<namespace>.<release>" (frozen; see
// Names.DataStore) can give a name that another stack renders too.
//
//   - A hashed name whose readable part holds the namespace and a release
//     ("tenant-demo1.kubernetes-bbbb…-3a3d3b82") is that release's plain
//     name when the release is one a tenant cluster can have (ForCluster);
//     one cut inside the namespace, without the dot, is the etcd chart's
//     DataStore of the namespace of that name when it is a tenant
//     namespace.
//   - A name of the hashed shape (at most 63 characters, 52 to 54 readable
//     ones, then "-" and 8 lowercase hex digits), hashed or plain, can be
//     the hashed name of a longer "<namespace>.<release>" with that
//     prefix: the hash is 32 bits, which a search can match.
//
// other names the other stack in a clause ("release r in namespace n",
// "the etcd chart in namespace n", "a release whose ... hashes to it");
// ok is false when no other stack can render the name. Names.DataStoreCollision
// is the same answer for a stack's own DataStore, that stack left out.
func DataStoreCollision(name string) (other string, ok bool) {
	return dataStoreCollision(name, nil)
}

// DataStoreCollision is DataStoreCollision of n's DataStore name, with
// n itself left out of the stacks it names.
func (n Names) DataStoreCollision() (other string, ok bool) {
	return dataStoreCollision(n.DataStore(), &n)
}

func dataStoreCollision(name string, self *Names) (string, bool) {
	readable, hashed := hashedShape(name)
	if !hashed {
		return "", false
	}
	if ns, rel, dotted := strings.Cut(name, "."); dotted {
		isSelf := self != nil && self.Caller == CallerCluster && self.Namespace == ns && self.Release == rel
		if n, err := ForCluster(ns, rel); err == nil && n.DataStore() == name && !isSelf {
			return fmt.Sprintf("release %q in namespace %q (its plain <namespace>.<release>)", rel, ns), true
		}
	} else {
		isSelf := self != nil && self.Caller == CallerEtcd && self.Namespace == name
		if n, err := ForEtcdChart(name, EtcdChartRelease); err == nil && n.DataStore() == name && !isSelf {
			return fmt.Sprintf("the etcd chart in namespace %q (its namespace)", name), true
		}
	}
	return fmt.Sprintf("a release whose <namespace>.<release> is longer than %d characters, starts with %q and hashes to it", MaxDataStoreName, readable), true
}

// hashedShape reports whether name has the shape hashTruncate gives a
// DataStore name (no suffix): a readable part of DataStoreKeep characters,
// or one or two fewer once a trailing "-" and "." are trimmed, then "-"
// and HashLength lowercase hex digits; it returns the readable part.
func hashedShape(name string) (string, bool) {
	if len(name) > MaxDataStoreName || len(name) < DataStoreKeep-2+1+HashLength {
		return "", false
	}
	readable, sum := name[:len(name)-HashLength-1], name[len(name)-HashLength:]
	if name[len(readable)] != '-' || len(readable) > DataStoreKeep {
		return "", false
	}
	for i := 0; i < len(sum); i++ {
		if c := sum[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return "", false
		}
	}
	return readable, true
}

// DefragCronJob is the defrag CronJob name "<name>-defrag", hashed down to
// the CronJob limit of 52 characters when longer.
func (n Names) DefragCronJob() string {
	return hashTruncate(n.Cluster+"-defrag", MaxCronJobName, CronJobKeep, "-defrag")
}

// hashTruncate returns full when it fits in limit; otherwise the first keep
// characters of the readable part (full without suffix), with one trailing
// "-" and then one trailing "." trimmed so the result stays a valid name,
// then "-", the first 8 hex digits of sha256(full) and suffix.
func hashTruncate(full string, limit, keep int, suffix string) string {
	if len(full) <= limit {
		return full
	}
	readable := strings.TrimSuffix(full, suffix)
	if len(readable) > keep {
		readable = readable[:keep]
	}
	readable = strings.TrimSuffix(readable, "-")
	readable = strings.TrimSuffix(readable, ".")
	sum := sha256.Sum256([]byte(full))
	return readable + "-" + hex.EncodeToString(sum[:])[:HashLength] + suffix
}

package naming_test

import (
	"errors"
	"github.com/etcdshapes/etcdshapes/invalid"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/naming"
	pathvalidation "k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/util/validation"
)

// FuzzNames: every namespace and release the derivations accept yield names
// valid for their kinds and within their limits, and the same names every
// time; every refusal is a *invalid.Error naming the input.
//
//	go test ./naming -run '^$' -fuzz FuzzNames -fuzztime 200000x
func FuzzNames(f *testing.F) {
	for _, s := range [][2]string{
		{"tenant-root", "kubernetes-demo"},
		{"tenant-demo", "kubernetes-production-cluster-eu-west-1-abc"},
		{"tenant-averyverylongtenantname-andanotherlongchild", "kubernetes-demo"},
		{"tenant-" + strings.Repeat("a", 56), "kubernetes-" + strings.Repeat("b", 40)},
		{"tenant-a-b-c", "k"},
		{"tenant-demoxx", "kubernetes-" + strings.Repeat("z", 27) + "--" + strings.Repeat("x", 11)},
		{"tenant-a", "1-cluster"},
		{"default", "etcd"},
		{"tenant--a", "kubernetes-"},
		{"tenant-a", strings.Repeat("a", 52)},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, ns, rel string) {
		checkRefusal := func(err error, fields ...string) {
			var ne *invalid.Error
			if !errors.As(err, &ne) {
				t.Fatalf("error %v is not a *invalid.Error", err)
			}
			ok := false
			for _, f := range fields {
				ok = ok || ne.Field == f
			}
			if !ok || ne.Rule == "" {
				t.Fatalf("error %#v names field %q, want one of %v and a rule", ne, ne.Field, fields)
			}
			if ne.Value != ns && ne.Value != rel {
				t.Fatalf("error %#v does not carry the value given (%q, %q)", ne, ns, rel)
			}
		}

		if n, err := naming.ForCluster(ns, rel); err != nil {
			checkRefusal(err, "namespace", "release")
		} else {
			again, err := naming.ForCluster(ns, rel)
			if err != nil || again != n {
				t.Fatalf("ForCluster is not deterministic: %v %v", again, err)
			}
			checkNames(t, n)
			if n.DataStore() != again.DataStore() || n.DefragCronJob() != again.DefragCronJob() || n.CleanupJob() != again.CleanupJob() {
				t.Fatal("derived names are not deterministic")
			}
			if n.Cluster != rel+"-etcd" {
				t.Fatalf("cluster name %q, want %q", n.Cluster, rel+"-etcd")
			}
			if len(n.Cluster) > naming.MaxClusterName {
				t.Fatalf("EtcdCluster %q is longer than %d", n.Cluster, naming.MaxClusterName)
			}
			if full := ns + "." + rel; len(full) <= naming.MaxDataStoreName && n.DataStore() != full {
				t.Fatalf("DataStore %q, want %q", n.DataStore(), full)
			}
		}

		if n, err := naming.ForEtcdChart(ns, "etcd"); err != nil {
			checkRefusal(err, "namespace")
		} else {
			checkNames(t, n)
			if n.DataStore() != ns || n.Cluster != "etcd" {
				t.Fatalf("etcd chart names %+v", n)
			}
		}
		if rel != "etcd" {
			if _, err := naming.ForEtcdChart(ns, rel); err == nil {
				t.Fatalf("the etcd chart accepted release %q", rel)
			} else {
				checkRefusal(err, "namespace", "release")
			}
		}
	})
}

// checkNames validates every derived name against its kind's rules.
func checkNames(t *testing.T, n naming.Names) {
	t.Helper()
	is := func(kind, name string, limit int, rules ...func(string) []string) {
		t.Helper()
		if name == "" || len(name) > limit {
			t.Fatalf("%s name %q: length %d, limit %d", kind, name, len(name), limit)
		}
		for _, rule := range rules {
			if errs := rule(name); len(errs) > 0 {
				t.Fatalf("%s name %q: %v", kind, name, errs)
			}
		}
	}
	label, subdomain, dns1035 := validation.IsDNS1123Label, validation.IsDNS1123Subdomain, validation.IsDNS1035Label
	segment := func(s string) []string { return pathvalidation.IsValidPathSegmentName(s) }

	is("Namespace", n.Namespace, 63, label)
	is("EtcdCluster", n.Cluster, naming.MaxClusterName, subdomain, dns1035)
	// etcd-operator's Service and the member pods derive from the name.
	is("client Service", n.ClientService(), 63, dns1035)
	is("member pod", n.Cluster+"-abcde", 63, label)
	is("DataStore", n.DataStore(), 63, subdomain)
	is("defrag CronJob", n.DefragCronJob(), naming.MaxCronJobName, subdomain)
	is("cleanup Job", n.CleanupJob(), naming.MaxJobName, subdomain, validation.IsValidLabelValue)
	is("cleanup ServiceAccount", n.Cleanup(), 253, subdomain)
	is("cleanup Role", n.Cleanup(), 253, segment)
	for _, name := range []string{n.SelfSigningIssuer(), n.PeerIssuer(), n.Issuer()} {
		is("Issuer", name, 253, subdomain)
	}
	for _, name := range []string{n.PeerCACertificate(), n.CACertificate(), n.ServerCertificate(), n.PeerCertificate(), n.ClientCertificate()} {
		is("Certificate", name, 253, subdomain)
		// cert-manager refuses a commonName over 64 bytes; the CAs and
		// the serving certificates use their name as commonName.
		is("certificate commonName", name, 64)
	}
	secrets := map[string]bool{}
	for _, name := range n.TLSSecrets() {
		is("Secret", name, 253, subdomain)
		secrets[name] = true
	}
	if len(secrets) != 5 {
		t.Fatalf("TLS secrets are not distinct: %v", n.TLSSecrets())
	}
	is("VMPodScrape", n.PodScrape(), 253, subdomain)
	is("PrometheusRule", n.PrometheusRule(), 253, subdomain)
	is("ServiceHost", n.ServiceHost(), 253, subdomain)
	if n.Caller == naming.CallerEtcd {
		is("headless Service", n.LegacyHeadlessService(), 63, dns1035)
	}
	is("dashboard Role", n.DashboardResources(), 253, segment, subdomain)
	pvc, err := n.DataPVC(naming.MaxMembers - 1)
	if err != nil {
		t.Fatalf("DataPVC(%d): %v", naming.MaxMembers-1, err)
	}
	is("data PVC", pvc, 253, subdomain)
	// The certificate subject carries namespace and release (X.509 upper
	// bound 64 for O and OU).
	is("subject O", n.Namespace, 64)
	is("subject OU", n.Release, 64)
	tenants, err := naming.TenantPath(n.Namespace)
	if err != nil {
		t.Fatalf("TenantPath(%q): %v", n.Namespace, err)
	}
	for _, tn := range tenants {
		is("tenant", tn, 63, label)
		is("super-admin group", tn+"-super-admin", 253)
	}
}

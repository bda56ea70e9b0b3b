package naming_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	pathvalidation "k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Inputs of every kind the helpers take: negative, zero, edge and huge
// numbers, and empty, malformed, edge-length and hostile strings.
var (
	helperInts = []int{math.MinInt, -1, 0, 1, 2, 7, naming.MaxMembers - 1, naming.MaxMembers, naming.MaxSnapshotKeep - 1,
		naming.MaxSnapshotKeep, naming.MaxSnapshotKeep + 1, 1 << 31, math.MaxInt}
	helperStrings = []string{
		"", "-", ".", "a", "etcd", "-etcd", "etcd-", "Etcd", "a_b", "a.b", "a..b", "a b", "a\x00b", "añb", "a\u202eb",
		"tenant", "tenant-", "tenant--a", "tenant-a-", "tenant-a--b", "tenant-root", "tenant-a", "tenant-a-b", "Tenant-a",
		"tenant-a.b", "default", "kube-system",
		"kubernetes-demo", "kubernetes-", "kubernetes-a.b", "1-cluster", "kubernetes-" + strings.Repeat("b", 45),
		"tenant-" + strings.Repeat("a", 56), "tenant-" + strings.Repeat("a", 57),
		strings.Repeat("a", 52), strings.Repeat("a", 53), strings.Repeat("a", 63), strings.Repeat("a", 64),
		strings.Repeat("a", 249), strings.Repeat("a", 250), strings.Repeat("a", 253), strings.Repeat("a", 254),
		strings.Repeat("a.", 100) + "a", strings.Repeat("x", 1<<16),
	}
)

// helperNames are Names of both callers at the edges of what the
// constructors accept, and Names they did not make.
func helperNames(t *testing.T) (valid, unmade []naming.Names) {
	for _, ns := range helperStrings {
		if n, err := naming.ForEtcdChart(ns, naming.EtcdChartRelease); err == nil {
			valid = append(valid, n)
		}
		for _, rel := range helperStrings {
			if n, err := naming.ForCluster(ns, rel); err == nil {
				valid = append(valid, n)
			}
		}
	}
	if len(valid) < 10 {
		t.Fatalf("only %d valid Names from the inputs", len(valid))
	}
	edited := valid[0]
	edited.Cluster = "-" + edited.Cluster
	unmade = []naming.Names{
		{},
		{Caller: naming.CallerCluster, Namespace: "tenant-a", Release: "kubernetes-a", Cluster: "kubernetes-a-etcd"},
		edited,
	}
	return valid, unmade
}

// isName fails unless name is a valid object name of its kind: non-empty,
// within limit, passing each rule.
func isName(t *testing.T, what, name string, limit int, rules ...func(string) []string) {
	t.Helper()
	if name == "" || len(name) > limit {
		t.Fatalf("%s gave %q: %d characters, want 1 to %d", what, clip(name), len(name), limit)
	}
	for _, rule := range rules {
		if errs := rule(name); len(errs) > 0 {
			t.Fatalf("%s gave %q, not a valid name: %v", what, clip(name), errs)
		}
	}
}

// isRefusal fails unless err is a refusal (an *invalid.Error) naming one of
// fields.
func isRefusal(t *testing.T, what string, err error, fields ...string) {
	t.Helper()
	var ne *invalid.Error
	if !errors.As(err, &ne) {
		t.Fatalf("%s: error %v is not a *invalid.Error", what, err)
	}
	for _, e := range invalid.All(err) {
		if !slices.Contains(fields, e.Field) || e.Rule == "" {
			t.Fatalf("%s: refusal %v names %q, want one of %v with a rule", what, e, e.Field, fields)
		}
	}
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

var (
	label     = validation.IsDNS1123Label
	subdomain = validation.IsDNS1123Subdomain
	dns1035   = validation.IsDNS1035Label
	segment   = func(s string) []string { return pathvalidation.IsValidPathSegmentName(s) }
	// grafanaUID is the GrafanaDashboard CRD's rule of spec.uid.
	grafanaUID = func(s string) []string {
		for _, r := range s {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return []string{"holds " + string(r)}
			}
		}
		return nil
	}
)

// TestEveryHelperGivesANameOrAnError: every exported function and method
// of naming, given negative, zero, edge and huge numbers and empty,
// malformed, edge-length and hostile strings, returns a valid name of its
// kind (a DNS-1123 label or subdomain within the kind's limit) or a
// refusal naming its input; never a name such as "etcd-snapshot--1",
// "data-etcd--1" or the tenant "tenant-" of "tenant--a". A method of
// Names without an error to return is held to Names' contract: its
// Names are valid exactly when Validate says so (the builders call it),
// and then its name is valid. The table must list every exported
// identifier the package's files declare as a function or method.
func TestEveryHelperGivesANameOrAnError(t *testing.T) {
	valid, unmade := helperNames(t)
	// names runs check on every valid Names and refuses every unmade
	// one through Validate.
	names := func(check func(t *testing.T, n naming.Names)) func(t *testing.T) {
		return func(t *testing.T) {
			for _, n := range valid {
				check(t, n)
			}
			for _, n := range unmade {
				isRefusal(t, "Validate of Names not made by a constructor", n.Validate(), "names")
			}
		}
	}
	// method is names of a method without arguments.
	method := func(what string, m func(naming.Names) string, limit int, rules ...func(string) []string) func(t *testing.T) {
		return names(func(t *testing.T, n naming.Names) { isName(t, what+" of "+n.Cluster, m(n), limit, rules...) })
	}
	// indexed is a method of an index that returns an error, with the
	// index's range [0, max).
	indexed := func(what, field string, m func(naming.Names, int) (string, error), max int) func(t *testing.T) {
		return func(t *testing.T) {
			for _, n := range append(valid[:len(valid):len(valid)], unmade...) {
				for _, i := range helperInts {
					name, err := m(n, i)
					ok := n.Validate() == nil && i >= 0 && i < max
					switch {
					case ok && err != nil:
						t.Fatalf("%s(%d) of %q: %v", what, i, n.Cluster, err)
					case ok:
						isName(t, what, name, 253, subdomain)
						if what == "SnapshotSlot" {
							isName(t, what, name, naming.MaxSnapshotName, label)
						}
					case err == nil:
						t.Fatalf("%s(%d) of %+v gave %q, want a refusal", what, i, n, name)
					default:
						isRefusal(t, what, err, "names", field)
					}
				}
			}
		}
	}

	table := map[string]func(t *testing.T){
		"ForEtcdChart": func(t *testing.T) {
			for _, ns := range helperStrings {
				for _, rel := range []string{"etcd", "", "Etcd", "etcd-", "kubernetes-demo"} {
					n, err := naming.ForEtcdChart(ns, rel)
					if err != nil {
						isRefusal(t, "ForEtcdChart", err, "namespace", "release")
						continue
					}
					checkNames(t, n)
				}
			}
		},
		"ForCluster": func(t *testing.T) {
			for _, ns := range helperStrings {
				for _, rel := range helperStrings {
					n, err := naming.ForCluster(ns, rel)
					if err != nil {
						isRefusal(t, "ForCluster", err, "namespace", "release")
						continue
					}
					checkNames(t, n)
				}
			}
		},
		"ClusterEtcdName": func(t *testing.T) {
			for _, rel := range helperStrings {
				name, err := naming.ClusterEtcdName(rel)
				if err != nil {
					isRefusal(t, "ClusterEtcdName", err, "release")
					continue
				}
				isName(t, "ClusterEtcdName", name, 253, subdomain)
			}
		},
		"ClusterDataStore": func(t *testing.T) {
			for _, ns := range helperStrings {
				for _, rel := range helperStrings {
					name, err := naming.ClusterDataStore(ns, rel)
					if err != nil {
						isRefusal(t, "ClusterDataStore", err, "namespace", "release")
						continue
					}
					isName(t, "ClusterDataStore", name, naming.MaxDataStoreName, subdomain)
				}
			}
		},
		// The At forms: the plain form's names, a refusal under the
		// caller's paths.
		"ForEtcdChartAt": func(t *testing.T) {
			for _, ns := range helperStrings {
				for _, rel := range []string{"etcd", "", "Etcd", "kubernetes-demo"} {
					n, err := naming.ForEtcdChartAt(ns, rel, atPaths)
					want, wantErr := naming.ForEtcdChart(ns, rel)
					sameAt(t, "ForEtcdChartAt", n, want, err, wantErr)
				}
			}
		},
		"ForClusterAt": func(t *testing.T) {
			for _, ns := range helperStrings {
				for _, rel := range helperStrings {
					n, err := naming.ForClusterAt(ns, rel, atPaths)
					want, wantErr := naming.ForCluster(ns, rel)
					sameAt(t, "ForClusterAt", n, want, err, wantErr)
				}
			}
		},
		"ClusterDataStoreAt": func(t *testing.T) {
			for _, ns := range helperStrings {
				for _, rel := range helperStrings {
					n, err := naming.ClusterDataStoreAt(ns, rel, atPaths)
					want, wantErr := naming.ClusterDataStore(ns, rel)
					sameAt(t, "ClusterDataStoreAt", n, want, err, wantErr)
				}
			}
		},
		"TenantPath": func(t *testing.T) {
			for _, ns := range helperStrings {
				tenants, err := naming.TenantPath(ns)
				if err != nil {
					isRefusal(t, "TenantPath", err, "namespace")
					continue
				}
				if len(tenants) == 0 {
					t.Fatalf("TenantPath(%q) is empty", ns)
				}
				for _, tn := range tenants {
					isName(t, "TenantPath("+ns+")", tn, 63, label)
					if err := naming.ValidateTenantNamespace("tenant", tn); err != nil {
						t.Fatalf("TenantPath(%q) holds %q, not a tenant: %v", ns, tn, err)
					}
				}
			}
		},
		"TLSSecret": func(t *testing.T) {
			for _, c := range helperStrings {
				name, err := naming.TLSSecret(c)
				if err != nil {
					isRefusal(t, "TLSSecret", err, "certificate")
					continue
				}
				isName(t, "TLSSecret", name, 253, subdomain)
			}
		},
		"ValidateTenantNamespace": func(t *testing.T) {
			for _, ns := range helperStrings {
				if err := naming.ValidateTenantNamespace("namespace", ns); err != nil {
					isRefusal(t, "ValidateTenantNamespace", err, "namespace")
					continue
				}
				isName(t, "ValidateTenantNamespace", ns, 63, label)
			}
		},
		"ValidateSnapshotName": func(t *testing.T) {
			for _, s := range helperStrings {
				if err := naming.ValidateSnapshotName("name", s); err != nil {
					isRefusal(t, "ValidateSnapshotName", err, "name")
					continue
				}
				isName(t, "ValidateSnapshotName", s, naming.MaxSnapshotName, label)
			}
		},
		// DataStoreCollision names no object: it says whether a name
		// can be another stack's. Any string is asked about without
		// a refusal.
		"DataStoreCollision": func(t *testing.T) {
			for _, s := range helperStrings {
				if other, ok := naming.DataStoreCollision(s); ok != (other != "") {
					t.Fatalf("DataStoreCollision(%q) = %q, %v", clip(s), other, ok)
				}
			}
		},
		"Names.DataStoreCollision": names(func(t *testing.T, n naming.Names) {
			if other, ok := n.DataStoreCollision(); ok != (other != "") {
				t.Fatalf("DataStoreCollision of %q = %q, %v", n.DataStore(), other, ok)
			}
		}),
		// String names a caller, not an object.
		"Caller.String": func(t *testing.T) {
			// The two callers print as their spelling; any other value
			// prints as it is, never as a chart (TestCallerString).
			for _, s := range helperStrings {
				if got := naming.Caller(s).String(); got != s {
					t.Fatalf("Caller(%q).String() = %q", clip(s), clip(got))
				}
			}
		},
		// Validate accepts the two callers and refuses any other value,
		// naming the field and the value (TestCallerValidate).
		"Caller.Validate": func(t *testing.T) {
			for _, s := range append(helperStrings, "cluster", "ETCD", " etcd") {
				c := naming.Caller(s)
				err := c.Validate("caller")
				if known := c == naming.CallerEtcd || c == naming.CallerCluster; known != (err == nil) {
					t.Fatalf("Caller(%q).Validate: %v", clip(s), err)
				}
				var bad *invalid.Error
				if err != nil && (!errors.As(err, &bad) || bad.Field != "caller" || bad.Value != s) {
					t.Fatalf("Caller(%q).Validate: %v, want an *invalid.Error of caller quoting the value", clip(s), err)
				}
			}
		},
		"Callers": func(t *testing.T) {
			if got := naming.Callers(); !slices.Equal(got, []naming.Caller{naming.CallerEtcd, naming.CallerCluster}) {
				t.Fatalf("Callers() = %v", got)
			}
		},
		"Names.Validate": names(func(t *testing.T, n naming.Names) {
			if err := n.Validate(); err != nil {
				t.Fatal(err)
			}
		}),
		"Names.DataPVC":      indexed("DataPVC", "member", naming.Names.DataPVC, naming.MaxMembers),
		"Names.SnapshotSlot": indexed("SnapshotSlot", "slot", naming.Names.SnapshotSlot, naming.MaxSnapshotKeep),
		"Names.SnapshotSlots": func(t *testing.T) {
			for _, n := range append(valid[:len(valid):len(valid)], unmade...) {
				for _, keep := range helperInts {
					slots, err := n.SnapshotSlots(keep)
					ok := n.Validate() == nil && keep >= naming.MinSnapshotKeep && keep <= naming.MaxSnapshotKeep
					switch {
					case ok && err != nil:
						t.Fatalf("SnapshotSlots(%d): %v", keep, err)
					case ok:
						if len(slots) != keep {
							t.Fatalf("SnapshotSlots(%d) gave %d", keep, len(slots))
						}
						for _, s := range slots {
							isName(t, "SnapshotSlots", s, naming.MaxSnapshotName, label)
						}
					case err == nil:
						t.Fatalf("SnapshotSlots(%d) of %+v gave %v, want a refusal", keep, n, slots)
					default:
						isRefusal(t, "SnapshotSlots", err, "names", "keep")
					}
				}
			}
		},
		"Names.SelfSigningIssuer":     method("SelfSigningIssuer", naming.Names.SelfSigningIssuer, 253, subdomain),
		"Names.PeerIssuer":            method("PeerIssuer", naming.Names.PeerIssuer, 253, subdomain),
		"Names.Issuer":                method("Issuer", naming.Names.Issuer, 253, subdomain),
		"Names.PeerCACertificate":     method("PeerCACertificate", naming.Names.PeerCACertificate, 64, subdomain),
		"Names.CACertificate":         method("CACertificate", naming.Names.CACertificate, 64, subdomain),
		"Names.ServerCertificate":     method("ServerCertificate", naming.Names.ServerCertificate, 64, subdomain),
		"Names.PeerCertificate":       method("PeerCertificate", naming.Names.PeerCertificate, 64, subdomain),
		"Names.ClientCertificate":     method("ClientCertificate", naming.Names.ClientCertificate, 64, subdomain),
		"Names.PeerCASecret":          method("PeerCASecret", naming.Names.PeerCASecret, 253, subdomain),
		"Names.CASecret":              method("CASecret", naming.Names.CASecret, 253, subdomain),
		"Names.ServerSecret":          method("ServerSecret", naming.Names.ServerSecret, 253, subdomain),
		"Names.PeerSecret":            method("PeerSecret", naming.Names.PeerSecret, 253, subdomain),
		"Names.ClientSecret":          method("ClientSecret", naming.Names.ClientSecret, 253, subdomain),
		"Names.ClientService":         method("ClientService", naming.Names.ClientService, 63, dns1035),
		"Names.ServiceHost":           method("ServiceHost", naming.Names.ServiceHost, 253, subdomain),
		"Names.LegacyHeadlessService": method("LegacyHeadlessService", naming.Names.LegacyHeadlessService, 63, dns1035),
		"Names.PodScrape":             method("PodScrape", naming.Names.PodScrape, 253, subdomain),
		"Names.Cleanup":               method("Cleanup", naming.Names.Cleanup, 253, subdomain, segment),
		"Names.CleanupJob":            method("CleanupJob", naming.Names.CleanupJob, naming.MaxJobName, subdomain, validation.IsValidLabelValue),
		"Names.DashboardResources":    method("DashboardResources", naming.Names.DashboardResources, 253, subdomain, segment),
		"Names.PrometheusRule":        method("PrometheusRule", naming.Names.PrometheusRule, 253, subdomain),
		"Names.DataStore":             method("DataStore", naming.Names.DataStore, naming.MaxDataStoreName, subdomain),
		"Names.DefragCronJob":         method("DefragCronJob", naming.Names.DefragCronJob, naming.MaxCronJobName, subdomain),
		"Names.SnapshotSchedule":      method("SnapshotSchedule", naming.Names.SnapshotSchedule, naming.MaxCronJobName, subdomain),
		"Names.PodMonitor":            method("PodMonitor", naming.Names.PodMonitor, 253, subdomain),
		"Names.GrafanaDashboard":      method("GrafanaDashboard", naming.Names.GrafanaDashboard, 253, subdomain),
		"Names.DashboardUID":          method("DashboardUID", naming.Names.DashboardUID, naming.MaxDashboardUID, grafanaUID),
		"Names.CheckJob":              method("CheckJob", naming.Names.CheckJob, naming.MaxJobName, subdomain, validation.IsValidLabelValue),
		"Names.ClientEndpoint": names(func(t *testing.T, n naming.Names) {
			host, port, ok := strings.Cut(n.ClientEndpoint(), ":")
			if !ok || port != "2379" {
				t.Fatalf("ClientEndpoint %q is not HOST:2379", n.ClientEndpoint())
			}
			isName(t, "ClientEndpoint's host", host, 253, subdomain)
		}),
		"Names.TLSSecrets": names(func(t *testing.T, n naming.Names) {
			if len(n.TLSSecrets()) != 5 {
				t.Fatalf("TLSSecrets: %v", n.TLSSecrets())
			}
			for _, s := range n.TLSSecrets() {
				isName(t, "TLSSecrets", s, 253, subdomain)
			}
		}),
	}

	declared := exportedFuncs(t)
	var missing []string
	for _, name := range declared {
		if table[name] == nil {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("the table lists no inputs for %v: add them", missing)
	}
	for _, name := range declared {
		t.Run(name, table[name])
	}
}

// exportedFuncs lists the exported functions and methods (as
// "Type.Method") that the package's non-test files declare, sorted.
func exportedFuncs(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil {
				typ := fd.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				id, ok := typ.(*ast.Ident)
				if !ok || !id.IsExported() {
					continue
				}
				name = id.Name + "." + name
			}
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// atPaths are the helpers' At forms' paths in their tests.
var atPaths = naming.Paths{Namespace: field.NewPath("spec", "namespace"), Release: field.NewPath("--release")}

// sameAt: an At form gives what its plain form gives, its refusals
// under atPaths ("namespace" as "spec.namespace", "release" as
// "--release"), each with the plain form's value and rule.
func sameAt[T comparable](t *testing.T, helper string, got, want T, err, wantErr error) {
	t.Helper()
	if got != want {
		t.Fatalf("%s: %v, want %v", helper, got, want)
	}
	g, w := invalid.All(err), invalid.All(wantErr)
	if len(g) != len(w) {
		t.Fatalf("%s: %v, want the refusals of %v", helper, err, wantErr)
	}
	rename := map[string]string{"namespace": "spec.namespace", "release": "--release"}
	for i := range g {
		if g[i].Field != rename[w[i].Field] || g[i].Value != w[i].Value || g[i].Rule != w[i].Rule {
			t.Fatalf("%s: refusal %#v, want %#v under %q", helper, g[i], w[i], rename[w[i].Field])
		}
	}
}

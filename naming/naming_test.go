package naming_test

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// specHash is the SPEC's truncation rule, written from the SPEC text
// rather than from the implementation: keep the first `keep` characters of
// the readable part, trim ONE trailing "-" and then ONE trailing ".", then
// "-" + the first 8 hex digits of sha256(full) + suffix.
func specHash(full string, limit, keep int, suffix string) string {
	if len(full) <= limit {
		return full
	}
	readable := full[:len(full)-len(suffix)]
	if len(readable) > keep {
		readable = readable[:keep]
	}
	if len(readable) > 0 && readable[len(readable)-1] == '-' {
		readable = readable[:len(readable)-1]
	}
	if len(readable) > 0 && readable[len(readable)-1] == '.' {
		readable = readable[:len(readable)-1]
	}
	sum := fmt.Sprintf("%x", sha256.Sum256([]byte(full)))
	return readable + "-" + sum[:8] + suffix
}

func mustCluster(t *testing.T, ns, rel string) naming.Names {
	t.Helper()
	n, err := naming.ForCluster(ns, rel)
	require.NoError(t, err)
	return n
}

// tenant builds a valid tenant namespace of exactly length l (l >= 8)
// whose tenant parts are cut at the given positions.
func tenant(l int, dashes ...int) string {
	b := []byte("tenant-" + strings.Repeat("a", l-len("tenant-")))
	for _, d := range dashes {
		b[d] = '-'
	}
	return string(b)
}

func TestDataStoreName(t *testing.T) {
	cases := []struct{ ns, rel string }{
		{"tenant-demo", "kubernetes-demo"}, // short: unchanged
		{tenant(47), "kubernetes-abcd"},    // exactly 63
		{tenant(47), "kubernetes-abcde"},   // 64: hashed
		{tenant(53), "kubernetes-x"},       // cut right after the "." (trimmed)
		{tenant(54), "kubernetes-x"},       // cut at the end of the namespace
		{tenant(63), "kubernetes-x"},       // namespace longer than the kept part
		{tenant(60, 53), "kubernetes-x"},   // cut right after a "-" in the namespace (trimmed)
		{tenant(30), "kubernetes-" + strings.Repeat("b", 11) + "-" + strings.Repeat("c", 20)},
		{"tenant-demoxx", "kubernetes-" + strings.Repeat("z", 27) + "--" + strings.Repeat("x", 11)}, // "--" at the cut
		{"tenant-averyverylongtenantname-andanotherlongchild", "kubernetes-demo"},                   // golden cluster-longns
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d+%d", len(c.ns), len(c.rel)), func(t *testing.T) {
			n := mustCluster(t, c.ns, c.rel)
			full := c.ns + "." + c.rel
			got := n.DataStore()
			require.Equal(t, specHash(full, 63, 54, ""), got)
			require.LessOrEqual(t, len(got), 63)
			require.Empty(t, validation.IsDNS1123Subdomain(got))
			if len(full) <= 63 {
				require.Equal(t, full, got)
			} else {
				require.NotEqual(t, full, got)
				require.True(t, strings.HasPrefix(full, strings.TrimSuffix(got[:len(got)-9], ".")))
			}
		})
	}
}

func TestDataStoreNameEtcdChart(t *testing.T) {
	n, err := naming.ForEtcdChart(tenant(63), "etcd")
	require.NoError(t, err)
	require.Equal(t, tenant(63), n.DataStore())
}

func TestDataStoreTrimsOneDashThenOneDot(t *testing.T) {
	// The release starts with "k" and the namespace cannot end with "-", so
	// the cut can end in "-" or in "." but never in "-." or ".-": trimming
	// one "-" then one "." yields a name whose readable part ends in a
	// letter or digit, or in a single "-" when the release has "--" there.
	ns := "tenant-demoxx"
	rel := "kubernetes-" + strings.Repeat("z", 27) + "--" + strings.Repeat("x", 11)
	n := mustCluster(t, ns, rel)
	full := ns + "." + rel
	require.Equal(t, "--", full[52:54])
	got := n.DataStore()
	require.Equal(t, full[:53]+"-"+got[len(got)-8:], got, "only one '-' is trimmed")
	require.Equal(t, specHash(full, 63, 54, ""), got)
}

func TestDefragCronJobName(t *testing.T) {
	for _, rel := range []string{
		"kubernetes-demo",
		"kubernetes-" + strings.Repeat("a", 29),                                  // "<rel>-etcd-defrag" = 52
		"kubernetes-" + strings.Repeat("a", 30),                                  // 53: hashed
		"kubernetes-" + strings.Repeat("a", 24) + "-b" + strings.Repeat("c", 10), // cut after "-" (trimmed)
		"kubernetes-production-cluster-eu-west-1-abc",                            // golden cluster-longname
		"kubernetes-" + strings.Repeat("q", 40),                                  // the longest release
	} {
		t.Run(rel, func(t *testing.T) {
			n := mustCluster(t, "tenant-demo", rel)
			got := n.DefragCronJob()
			require.Equal(t, specHash(n.Cluster+"-defrag", 52, 36, "-defrag"), got)
			require.LessOrEqual(t, len(got), naming.MaxCronJobName)
			require.Empty(t, validation.IsDNS1123Subdomain(got))
			require.True(t, strings.HasSuffix(got, "-defrag"))
		})
	}
	n, err := naming.ForEtcdChart("tenant-root", "etcd")
	require.NoError(t, err)
	require.Equal(t, "etcd-defrag", n.DefragCronJob())
}

func TestCleanupJobName(t *testing.T) {
	// "<rel>-etcd-cleanup" is 62, 63 (unchanged) and 64 (hashed) long.
	for _, l := range []int{15, 49, 50, 51} {
		rel := "kubernetes-" + strings.Repeat("r", l-len("kubernetes-"))
		n := mustCluster(t, "tenant-demo", rel)
		got := n.CleanupJob()
		require.Equal(t, specHash(n.Cluster+"-cleanup", 63, 46, "-cleanup"), got)
		require.LessOrEqual(t, len(got), naming.MaxJobName)
		require.Empty(t, validation.IsDNS1123Label(got))
	}
}

// TestHashAgainstGolden checks the hash rule against names the golden
// files pin, so a change of rule shows up as a change of bytes as well.
func TestHashIsSHA256OfFullName(t *testing.T) {
	n := mustCluster(t, "tenant-demo", "kubernetes-production-cluster-eu-west-1-abc")
	full := n.Cluster + "-defrag"
	sum := sha256.Sum256([]byte(full))
	want := fmt.Sprintf("%02x%02x%02x%02x", sum[0], sum[1], sum[2], sum[3])
	require.Contains(t, n.DefragCronJob(), "-"+want+"-defrag")
}

func TestRandomNamesFollowTheSpec(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		ns, rel := randomTenant(r), randomRelease(r)
		n, err := naming.ForCluster(ns, rel)
		if err != nil {
			var ne *invalid.Error
			require.True(t, errors.As(err, &ne))
			require.Greater(t, len(rel)+len("-etcd"), naming.MaxClusterName, "%q refused: %v", rel, err)
			continue
		}
		require.Equal(t, specHash(ns+"."+rel, 63, 54, ""), n.DataStore())
		require.Equal(t, specHash(n.Cluster+"-defrag", 52, 36, "-defrag"), n.DefragCronJob())
	}
}

func randomTenant(r *rand.Rand) string {
	for {
		var parts []string
		for l := len("tenant"); ; {
			p := randomLabel(r, 1+r.Intn(20))
			if l+1+len(p) > 63 {
				break
			}
			parts = append(parts, p)
			l += 1 + len(p)
			if r.Intn(3) == 0 {
				break
			}
		}
		if len(parts) > 0 {
			return "tenant-" + strings.Join(parts, "-")
		}
	}
}

func randomRelease(r *rand.Rand) string {
	return "kubernetes-" + randomLabel(r, 1+r.Intn(45))
}

// randomLabel is a DNS-1123 label part of length l without dashes at the
// ends (and, for tenant parts, without dashes at all).
func randomLabel(r *rand.Rand, l int) string {
	const alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, l)
	for i := range b {
		b[i] = alnum[r.Intn(len(alnum))]
	}
	return string(b)
}

func TestTenantPath(t *testing.T) {
	cases := map[string][]string{
		"tenant-root":       {"tenant-root"},
		"tenant-a":          {"tenant-a", "tenant-root"},
		"tenant-a-b":        {"tenant-a", "tenant-a-b", "tenant-root"},
		"tenant-root-child": {"tenant-root", "tenant-root-child", "tenant-root"},
	}
	for ns, want := range cases {
		require.NoError(t, naming.ValidateTenantNamespace("namespace", ns))
		got, err := naming.TenantPath(ns)
		require.NoError(t, err)
		require.Equal(t, want, got, ns)
	}
	// An independent derivation over random namespaces: every prefix of
	// the namespace that ends at a "-" after "tenant-x", then the
	// namespace, then tenant-root unless it is the namespace.
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 500; i++ {
		ns := randomTenant(r)
		var want []string
		for j := len("tenant-") + 1; j < len(ns); j++ {
			if ns[j] == '-' {
				want = append(want, ns[:j])
			}
		}
		want = append(want, ns)
		if ns != "tenant-root" {
			want = append(want, "tenant-root")
		}
		got, err := naming.TenantPath(ns)
		require.NoError(t, err)
		require.Equal(t, want, got, ns)
		for _, tn := range got {
			require.Empty(t, validation.IsDNS1123Label(tn))
			require.True(t, strings.HasPrefix(ns, tn) || tn == "tenant-root")
		}
	}
}

func TestValidateTenantNamespace(t *testing.T) {
	for _, ok := range []string{"tenant-root", "tenant-a", "tenant-a-b-c", tenant(63), "tenant-0"} {
		require.NoError(t, naming.ValidateTenantNamespace("namespace", ok), ok)
	}
	for _, bad := range []string{"", "default", "kube-system", "tenant", "tenant-", "tenant--a", "tenant-a-", "tenant-a--b",
		"Tenant-a", "tenant-A", "tenant_a", "tenant-a.b", tenant(64), " tenant-a", "tenant-a\n", "xtenant-a"} {
		err := naming.ValidateTenantNamespace("namespace", bad)
		var ne *invalid.Error
		require.True(t, errors.As(err, &ne), "%q accepted", bad)
		require.Equal(t, "namespace", ne.Field)
		require.Equal(t, bad, ne.Value)
		require.NotEmpty(t, ne.Rule)
	}
}

func TestForClusterLimits(t *testing.T) {
	longest := "kubernetes-" + strings.Repeat("a", naming.MaxClusterName-len("-etcd")-len("kubernetes-"))
	n, err := naming.ForCluster("tenant-demo", longest)
	require.NoError(t, err)
	require.Len(t, n.Cluster, naming.MaxClusterName)

	for _, bad := range []string{longest + "a", "", "Kubernetes-demo", "kubernetes-", "-kubernetes", "kubernetes_demo", "kubernetes.demo", strings.Repeat("a", 64)} {
		_, err := naming.ForCluster("tenant-demo", bad)
		var ne *invalid.Error
		require.True(t, errors.As(err, &ne), "%q accepted", bad)
		require.Equal(t, "release", ne.Field)
		require.Equal(t, bad, ne.Value)
		require.Contains(t, err.Error(), fmt.Sprintf("%q", bad))
	}
}

func TestForEtcdChart(t *testing.T) {
	n, err := naming.ForEtcdChart("tenant-root", "etcd")
	require.NoError(t, err)
	require.Equal(t, "etcd", n.Cluster)
	for _, rel := range []string{"", "etcd2", "kubernetes-demo", "ETCD"} {
		_, err := naming.ForEtcdChart("tenant-root", rel)
		var ne *invalid.Error
		require.True(t, errors.As(err, &ne), "%q accepted", rel)
		require.Equal(t, "release", ne.Field)
	}
}

func TestErrorMessage(t *testing.T) {
	err := invalid.Errorf("values.size", "4Xi", "must be a quantity %s", "such as 4Gi")
	require.Equal(t, `values.size: invalid value "4Xi": must be a quantity such as 4Gi`, err.Error())
	require.Equal(t, `etcd.replicas: invalid value 2: must be 1 or 3`, (&invalid.Error{Field: "etcd.replicas", Value: 2, Rule: "must be 1 or 3"}).Error())
	require.Equal(t, `x: invalid value null: r`, (&invalid.Error{Field: "x", Rule: "r"}).Error())
	wrapped := fmt.Errorf("render: %w", err)
	var ne *invalid.Error
	require.True(t, errors.As(wrapped, &ne))
	require.Equal(t, "values.size", ne.Field)
}

// TestNamesAreDeterministic: the same inputs give the same names.
func TestNamesAreDeterministic(t *testing.T) {
	a := mustCluster(t, tenant(63), "kubernetes-"+strings.Repeat("d", 40))
	b := mustCluster(t, tenant(63), "kubernetes-"+strings.Repeat("d", 40))
	require.Equal(t, a, b)
	require.Equal(t, a.DataStore(), b.DataStore())
	require.Equal(t, a.DefragCronJob(), b.DefragCronJob())
}

// TestDataStoreCollision: a DataStore name another stack can render too
// is told, with the other stack when it can be named: a hashed name is the
// plain name of the release in its readable part (or, cut inside the
// namespace, the etcd chart's DataStore of that namespace), and any name
// of the hashed shape can be a longer release's hashed name; a name of
// neither kind is no one else's.
func TestDataStoreCollision(t *testing.T) {
	const ns = "tenant-demo1"
	b := mustCluster(t, ns, "kubernetes-"+strings.Repeat("b", 40))
	a := mustCluster(t, ns, strings.TrimPrefix(b.DataStore(), ns+"."))
	require.Equal(t, a.DataStore(), b.DataStore(), "B's hashed name is A's plain name")
	for _, n := range []naming.Names{a, b} {
		other, ok := naming.DataStoreCollision(n.DataStore())
		require.True(t, ok, n.Release)
		require.Equal(t, `release "`+a.Release+`" in namespace "`+ns+`" (its plain <namespace>.<release>)`, other)
	}
	// Each stack's own DataStore: the other one named, never itself.
	other, ok := b.DataStoreCollision()
	require.True(t, ok)
	require.Equal(t, `release "`+a.Release+`" in namespace "`+ns+`" (its plain <namespace>.<release>)`, other)
	other, ok = a.DataStoreCollision()
	require.True(t, ok)
	require.Equal(t, `a release whose <namespace>.<release> is longer than 63 characters, starts with "`+strings.TrimSuffix(a.DataStore(), a.DataStore()[len(a.DataStore())-9:])+`" and hashes to it`, other)

	// Cut inside a namespace of 54 characters or more: no dot left, and
	// the name is a tenant namespace's, the etcd chart's DataStore there.
	long := mustCluster(t, tenant(60), "kubernetes-demo")
	name := long.DataStore()
	require.NotContains(t, name, ".")
	other, ok = naming.DataStoreCollision(name)
	require.True(t, ok)
	require.Equal(t, `the etcd chart in namespace "`+name+`" (its namespace)`, other)
	other, ok = long.DataStoreCollision()
	require.True(t, ok)
	require.Equal(t, `the etcd chart in namespace "`+name+`" (its namespace)`, other)
	chart, err := naming.ForEtcdChart(name, "etcd")
	require.NoError(t, err)
	require.Equal(t, name, chart.DataStore())
	other, ok = chart.DataStoreCollision()
	require.True(t, ok, "the chart's own: the long release")
	require.Contains(t, other, "a release whose <namespace>.<release> is longer than 63 characters")

	// A hashed name whose readable release is no tenant cluster's (it
	// starts with a digit) can still be a longer release's.
	shaped := ns + "." + strings.Repeat("9", 54-len(ns)-1) + "-0123abcd"
	other, ok = naming.DataStoreCollision(shaped)
	require.True(t, ok, shaped)
	require.Contains(t, other, "a release whose <namespace>.<release> is longer than 63 characters")

	// Names of neither kind.
	for _, n := range []naming.Names{mustCluster(t, "tenant-demo", "kubernetes-demo"), mustCluster(t, tenant(63), "kubernetes-demo")} {
		if n.DataStore() == n.Namespace+"."+n.Release {
			other, ok := n.DataStoreCollision()
			require.False(t, ok, "%s: %s", n.DataStore(), other)
		}
	}
	for _, name := range []string{
		"tenant-demo.kubernetes-demo", "tenant-root", "tenant-demo", tenant(63),
		ns + "." + strings.Repeat("b", 54-len(ns)-1) + "-0123abcg", // not hex
		ns + "." + strings.Repeat("b", 54-len(ns)-1) + "-0123ABCD", // not lowercase
		ns + "." + strings.Repeat("b", 54-len(ns)) + "-0123abcd",   // 55 readable
		ns + "." + strings.Repeat("b", 50-len(ns)-1) + "-0123abcd", // 50 readable
		ns + "." + strings.Repeat("b", 54-len(ns)-1) + "x0123abcd", // no dash
	} {
		other, ok := naming.DataStoreCollision(name)
		require.False(t, ok, "%s: %s", name, other)
	}
}

// TestCallerString: each caller prints as the Request.Caller that selects
// it; any other value prints as it is, not as "etcd".
func TestCallerString(t *testing.T) {
	require.Equal(t, "etcd", naming.CallerEtcd.String())
	require.Equal(t, "cluster", naming.CallerCluster.String())
	for _, s := range []string{"", "Etcd", "kubernetes", "2"} {
		require.Equal(t, s, naming.Caller(s).String())
	}
}

// TestCallerValidate: an unknown caller is refused, naming the field the
// caller gave and the value; the zero value is no caller either (the int
// it replaced read 0 as the etcd chart).
func TestCallerValidate(t *testing.T) {
	require.NoError(t, naming.CallerEtcd.Validate("caller"))
	require.NoError(t, naming.CallerCluster.Validate("caller"))
	for _, s := range []string{"", "Etcd", "kubernetes", "0"} {
		err := naming.Caller(s).Validate("--caller")
		var bad *invalid.Error
		require.ErrorAs(t, err, &bad, "%q", s)
		require.Equal(t, "--caller", bad.Field)
		require.Equal(t, s, bad.Value)
		require.Equal(t, `--caller: invalid value "`+s+`": must be "etcd" or "cluster"`, err.Error())
	}
}

// TestNamesAtCallersPaths: the constructors refuse the namespace and the
// release under the paths their caller passes, each once; nil paths are
// "namespace" and "release".
func TestNamesAtCallersPaths(t *testing.T) {
	p := naming.Paths{Namespace: field.NewPath("--namespace"), Release: field.NewPath("spec", "release")}
	fields := func(err error) []string {
		var out []string
		for _, e := range invalid.All(err) {
			out = append(out, e.Field)
		}
		return out
	}
	_, err := naming.ForEtcdChartAt("default", "my-etcd", p)
	if got := fields(err); !slices.Equal(got, []string{"--namespace", "spec.release"}) {
		t.Fatalf("ForEtcdChartAt: %v (%v)", got, err)
	}
	_, err = naming.ForClusterAt("default", "Bad_", p)
	if got := fields(err); !slices.Equal(got, []string{"--namespace", "spec.release"}) {
		t.Fatalf("ForClusterAt: %v (%v)", got, err)
	}
	_, err = naming.ForClusterAt("tenant-a", "1-cluster", p)
	if got := fields(err); !slices.Equal(got, []string{"spec.release"}) {
		t.Fatalf("ForClusterAt, a release of ForCluster's own rules: %v (%v)", got, err)
	}
	_, err = naming.ClusterDataStoreAt("default", "", p)
	if got := fields(err); !slices.Equal(got, []string{"--namespace", "spec.release"}) {
		t.Fatalf("ClusterDataStoreAt: %v (%v)", got, err)
	}
	_, err = naming.ForClusterAt("default", "Bad_", naming.Paths{})
	if got := fields(err); !slices.Equal(got, []string{"namespace", "release"}) {
		t.Fatalf("ForClusterAt, nil paths: %v (%v)", got, err)
	}
}

package etcdshapes_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"

	"github.com/etcdshapes/etcdshapes"
	"github.com/stretchr/testify/require"
)

// renderYAML renders a request's stack to YAML.
func renderYAML(t *testing.T, r etcdshapes.Request) string {
	t.Helper()
	objs, err := etcdshapes.Render(r)
	require.NoError(t, err)
	out, err := etcdshapes.Marshal(objs)
	require.NoError(t, err)
	return string(out)
}

func fromYAML(t *testing.T, docs ...string) map[string]any {
	t.Helper()
	b := make([][]byte, len(docs))
	for i, d := range docs {
		b[i] = []byte(d)
	}
	v, err := values.Merge(b...)
	require.NoError(t, err)
	return v
}

// TestPlatformValuesIgnored: what the platform passes beside a chart's own
// values changes nothing: _namespace (a map, or anything) for both callers,
// unknown _cluster keys for both, and for the etcd chart a leftover backup
// map of any content.
func TestPlatformValuesIgnored(t *testing.T) {
	extras := []string{
		"_namespace:\n  etcd: tenant-root\n  monitoring: tenant-root\n  ingress: tenant-root\n  host: example.org\n  seaweedfs: tenant-root\n",
		"_namespace: {}\n",
		"_namespace: null\n",
		"_namespace: [1, 2]\n",
		"_cluster:\n  root-host: example.org\n  bundle-name: paas-full\n  cluster-domain: cozy.local\n  scheduling: {}\n  api-server-endpoint: https://1.2.3.4:6443\n",
		"_cluster:\n  scheduling:\n    other: x\n",
	}
	etcdOnly := []string{
		"backup:\n  enabled: true\n  s3Region: us-east-1\n  s3Bucket: s3.example.org/etcd-backups\n  schedule: \"0 2 * * *\"\n  cleanupStrategy: --keep-last=3\n  s3AccessKey: x\n  s3SecretKey: y\n  resticPassword: z\n",
		"backup:\n  enabled: false\n",
		"backup: {}\n",
		"backup: null\n",
		"backup: yes\n",
		"backup:\n  nested:\n    deeper: [1, {a: b}]\n",
	}
	for _, c := range []struct {
		req    etcdshapes.Request
		extras []string
	}{
		{etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root"}, append(extras, etcdOnly...)},
		{etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo",
			APIVersions: []string{etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APIVMPodScrape, etcdshapes.APICiliumNetworkPolicy}}, extras},
	} {
		base := c.req
		base.Values = fromYAML(t, "{}")
		want := renderYAML(t, base)
		for _, extra := range c.extras {
			r := c.req
			r.Values = fromYAML(t, extra)
			require.Equal(t, want, renderYAML(t, r), "%s with %q", c.req.Caller, extra)
		}
	}
}

// TestSharedDataStoreSkipsNameRules: a tenant cluster created before the
// name rules, with a name over a limit, renders nothing and no error while
// it stays on a shared datastore; the same name on its own datastore is
// refused. Input rules that are not about rendered names still apply.
func TestSharedDataStoreSkipsNameRules(t *testing.T) {
	for _, rel := range []string{
		"kubernetes-" + strings.Repeat("x", 42),      // "<release>-etcd" is 58 characters (56 allowed)
		"kubernetes-" + strings.Repeat("x", 52)[:42], // exactly one over
		strings.Repeat("a", 63),                      // the longest DNS-1123 label
		"1-legacy-cluster",                           // does not start with a letter
		"kubernetes.demo",                            // a dot: Helm's release names allow it, a Service name does not
	} {
		shared := etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: rel,
			Live: etcdshapes.LiveState{DataStoreName: "tenant-root"}}
		objs, err := etcdshapes.Render(shared)
		require.NoError(t, err, rel)
		require.Empty(t, objs, rel)
		own := shared
		own.Live = etcdshapes.LiveState{}
		_, err = etcdshapes.Render(own)
		require.Error(t, err, "%s on its own datastore", rel)
		ok, err := etcdshapes.SharesDataStore(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: rel, Live: shared.Live})
		require.NoError(t, err)
		require.True(t, ok)

		// Bad input is still refused behind the shared datastore.
		bad := shared
		bad.Values = fromYAML(t, "etcd:\n  replicas: 2\n")
		_, err = etcdshapes.Render(bad)
		require.ErrorContains(t, err, "etcd.replicas")
	}
	// What no release may be, shared or not.
	for _, rel := range []string{"", "Kubernetes-Demo", "kubernetes-demo-", "kubernetes..demo", strings.Repeat("a", 64)} {
		_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: rel,
			Live: etcdshapes.LiveState{DataStoreName: "tenant-root"}})
		require.ErrorContains(t, err, "release", rel)
	}
}

// TestGoNumbersAreYAMLNumbers: values built in Go with any number kind
// render exactly as the same number read from YAML.
func TestGoNumbersAreYAMLNumbers(t *testing.T) {
	etcdReq := func(v map[string]any) etcdshapes.Request {
		return etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: v}
	}
	want := renderYAML(t, etcdReq(fromYAML(t, "replicas: 1\nsize: 1073741824\nresources:\n  cpu: 2\n  memory: 1073741824\n_cluster:\n  cpu-allocation-ratio: 4\n  memory-allocation-ratio: 2\n")))
	for _, n := range []func(int) any{
		func(i int) any { return i },
		func(i int) any { return int8(min(i, 127)) },
		func(i int) any { return int16(min(i, 32767)) },
		func(i int) any { return int32(i) },
		func(i int) any { return int64(i) },
		func(i int) any { return uint(i) },
		func(i int) any { return uint8(min(i, 255)) },
		func(i int) any { return uint16(min(i, 65535)) },
		func(i int) any { return uint32(i) },
		func(i int) any { return uint64(i) },
		func(i int) any { return float32(i) },
		func(i int) any { return float64(i) },
		func(i int) any { return json.Number(strings.TrimSpace(string(rune('0'+i%10)) + "")) },
	} {
		// Only the small numbers go through every kind; the byte counts
		// take the kinds that hold them.
		v := map[string]any{
			"replicas":  n(1),
			"size":      int64(1 << 30),
			"resources": map[string]any{"cpu": n(2), "memory": uint64(1 << 30)},
			"_cluster":  map[string]any{"cpu-allocation-ratio": n(4), "memory-allocation-ratio": n(2)},
		}
		require.Equal(t, want, renderYAML(t, etcdReq(v)), "%T", n(1))
	}
	// Nested Go maps and slices of any element type read like YAML's.
	typed := map[string]any{
		"resources": map[string]string{"cpu": "2", "memory": "1Gi"},
		"_cluster": map[string]any{"scheduling": map[string]string{
			"globalAppTopologySpreadConstraints": "topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n"}},
		"affinity": map[string]any{"podAntiAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": []map[string]any{
			{"topologyKey": "kubernetes.io/hostname", "labelSelector": map[string]any{"matchLabels": map[string]string{"a": "b"}}}}}},
	}
	yamlForm := fromYAML(t, "resources: {cpu: \"2\", memory: 1Gi}\n_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: |\n      topologySpreadConstraints:\n      - maxSkew: 1\n        topologyKey: zone\n        whenUnsatisfiable: DoNotSchedule\naffinity:\n  podAntiAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n    - topologyKey: kubernetes.io/hostname\n      labelSelector: {matchLabels: {a: b}}\n")
	require.Equal(t, renderYAML(t, etcdReq(yamlForm)), renderYAML(t, etcdReq(typed)))
	// The caller's map is not changed.
	require.IsType(t, map[string]string{}, typed["resources"])
	c := etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"}
	c.Values = fromYAML(t, "etcd:\n  replicas: 1\n")
	want = renderYAML(t, c)
	for _, r := range []any{1, int64(1), uint(1), 1.0, float32(1), json.Number("1"), json.Number("1.0"), json.Number("1e0")} {
		c.Values = map[string]any{"etcd": map[string]any{"replicas": r}}
		require.Equal(t, want, renderYAML(t, c), "%T %v", r, r)
	}
}

// TestValuesKeepNumbersAsWritten: values.Merge returns every number as a
// json.Number spelled as the file spells it, including through anchors and
// in lists; Helm's YAML 1.1 reading decides what is a number.
func TestValuesKeepNumbersAsWritten(t *testing.T) {
	v := fromYAML(t, "a: 1e21\nb: 2147483648\nc: 3.50\nd: [1E3, -0.0]\ne: &x 7.0\nf: *x\ng: \"12\"\nh: 0x10\ni: yes\nj: {k: 1_000}\n")
	require.Equal(t, json.Number("1e21"), v["a"])
	require.Equal(t, json.Number("2147483648"), v["b"])
	require.Equal(t, json.Number("3.50"), v["c"])
	require.Equal(t, []any{json.Number("1E3"), json.Number("-0.0")}, v["d"])
	require.Equal(t, json.Number("7.0"), v["e"])
	require.Equal(t, json.Number("7.0"), v["f"])
	require.Equal(t, "12", v["g"])
	// No JSON spelling: as written, beside the number Helm reads.
	require.Equal(t, values.Number{Text: "0x10", JSON: "16"}, v["h"])
	require.Equal(t, true, v["i"]) // YAML 1.1, as Helm reads it
	require.Equal(t, map[string]any{"k": values.Number{Text: "1_000", JSON: "1000"}}, v["j"])
	// Marshalled back, the numbers are numbers.
	b, err := json.Marshal(v)
	require.NoError(t, err)
	require.Contains(t, string(b), `"a":1e21`)
	require.Contains(t, string(b), `"h":16`)
}

// TestSharedDataStorePlanWithLongNames: a legacy tenant cluster with a name
// over the limits, on a shared datastore, plans as nothing to do; its live
// state is read from its KamajiControlPlane.
func TestSharedDataStorePlanWithLongNames(t *testing.T) {
	rel := "kubernetes-" + strings.Repeat("x", 42)
	kcp := "apiVersion: controlplane.cluster.x-k8s.io/v1alpha1\nkind: KamajiControlPlane\nmetadata:\n  name: " + rel + "\n  namespace: tenant-demo\nspec:\n  dataStoreName: tenant-root\n"
	live, err := plan.ReadObjects([]byte(kcp))
	require.NoError(t, err)
	st, err := plan.LiveStateFromObjects("tenant-demo", rel, live)
	require.NoError(t, err)
	require.Equal(t, "tenant-root", st.DataStoreName)
	p, desired, err := plan.ForRequest(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: rel}, live)
	require.NoError(t, err)
	require.Empty(t, desired)
	require.True(t, p.SafeToApply(), p.String())
	require.Contains(t, p.String(), "No changes")
	// Without the shared datastore the names are refused.
	_, _, err = plan.ForRequest(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: rel}, nil)
	require.ErrorContains(t, err, "more than 56")
}

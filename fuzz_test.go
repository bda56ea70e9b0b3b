package etcdshapes_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testdata/crdcheck"
)

// Fuzz targets. Their seeds (f.Add and testdata/fuzz/<name>/) run with
// go test ./...; fuzz with e.g.
//
//	go test . -run '^$' -fuzz '^FuzzValues$' -fuzztime 20000x
//	ETCDSHAPES_CRDS=../shared/crds go test . -run '^$' -fuzz '^FuzzStacks$' -fuzztime 5000x

// requireNamingError fails unless err is a *invalid.Error with a field and a
// rule.
func requireNamingError(t *testing.T, err error) {
	t.Helper()
	var ne *invalid.Error
	if !errors.As(err, &ne) {
		t.Fatalf("error is not a *invalid.Error: %T %v", err, err)
	}
	if ne.Field == "" || ne.Rule == "" {
		t.Fatalf("error without a field or a rule: %#v", ne)
	}
}

// FuzzValues: values.Merge and the values readers never panic, and
// every refusal is a *invalid.Error.
func FuzzValues(f *testing.F) {
	seeds := [][2]string{
		{"{}", ""},
		{"replicas: 1\nstorageClass: local\nsize: 10Gi\n", "size: 1Ti"},
		{"replicas: 5\nsize: 512Mi\nresources:\n  cpu: 2\n  memory: 1Gi\n", "resources: null"},
		{"_cluster:\n  cpu-allocation-ratio: \"4\"\n  memory-allocation-ratio: 2\n", "_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: |\n      topologySpreadConstraints:\n      - maxSkew: 1\n        topologyKey: topology.kubernetes.io/zone\n        whenUnsatisfiable: DoNotSchedule\n"},
		{"etcd:\n  replicas: 1\n_cluster:\n  etcd-storage-class-local: local\n  etcd-storage-class-replicated: replicated\n", "etcd: null"},
		{"affinity:\n  podAntiAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n    - topologyKey: kubernetes.io/hostname\n", "affinity: {}"},
		{"resources:\n  limits:\n    cpu: 1\n", "version: 3.6"},
		{"- a\n- b\n", "a: ["},
		{"a: &x [*x]", "replicas: .nan"},
		{"replicas: 1e10\nsize: 1e400\n", "_cluster: 5"},
		{"{\"size\": \"4Gi\", \"resources\": {\"cpu\": {\"a\": 1}}}", "etcd: {replicas: 2}"},
	}
	for _, s := range seeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		merged, err := values.Merge(a, b)
		if err != nil {
			requireNamingError(t, err)
			return
		}
		// The readers must not modify the merged values.
		before, _ := json.Marshal(merged)
		if _, err := values.ReadEtcdChart(merged); err != nil {
			requireNamingError(t, err)
		}
		if _, err := values.ReadCluster(merged); err != nil {
			requireNamingError(t, err)
		}
		if after, _ := json.Marshal(merged); !bytes.Equal(before, after) {
			t.Fatalf("the values readers modified their input:\n%s\n%s", before, after)
		}
	})
}

// stackInput is one fuzzed render: the structured fields the charts read,
// laid into a values map so the fuzzer explores values rather than YAML
// syntax (FuzzValues covers that), plus raw YAML merged last.
type stackInput struct {
	cluster                         bool
	namespace, release              string
	version, size                   string
	replicas                        int64
	cpu, memory, extra              string
	cpuRatio, memRatio, ephRatio    string
	spread, storageClass, affinity  string
	apiVersions, liveDS, liveSC     string
	liveSCSet                       bool
	rawYAML                         string
	chartVersion                    string
	storageLocal, storageReplicated string
}

func (in stackInput) request() (etcdshapes.Request, error) {
	v := map[string]any{}
	put := func(m map[string]any, k, s string) {
		if s != "" {
			m[k] = s
		}
	}
	cl := map[string]any{}
	put(cl, "cpu-allocation-ratio", in.cpuRatio)
	put(cl, "memory-allocation-ratio", in.memRatio)
	put(cl, "ephemeral-storage-allocation-ratio", in.ephRatio)
	put(cl, "etcd-storage-class-local", in.storageLocal)
	put(cl, "etcd-storage-class-replicated", in.storageReplicated)
	if in.spread != "" {
		cl["scheduling"] = map[string]any{"globalAppTopologySpreadConstraints": in.spread}
	}
	if len(cl) > 0 {
		v["_cluster"] = cl
	}
	if in.cluster {
		if in.replicas != 0 {
			v["etcd"] = map[string]any{"replicas": float64(in.replicas)}
		}
	} else {
		put(v, "version", in.version)
		put(v, "size", in.size)
		put(v, "storageClass", in.storageClass)
		if in.replicas != 0 {
			v["replicas"] = float64(in.replicas)
		}
		res := map[string]any{}
		put(res, "cpu", in.cpu)
		put(res, "memory", in.memory)
		if name, q, ok := strings.Cut(in.extra, "="); ok {
			res[name] = q
		}
		if len(res) > 0 {
			v["resources"] = res
		}
		if in.affinity != "" {
			var a any
			if err := json.Unmarshal([]byte(in.affinity), &a); err == nil {
				v["affinity"] = a
			}
		}
	}
	docs := [][]byte{}
	if raw, err := json.Marshal(v); err == nil {
		docs = append(docs, raw)
	}
	if in.rawYAML != "" {
		docs = append(docs, []byte(in.rawYAML))
	}
	values, err := values.Merge(docs...)
	if err != nil {
		return etcdshapes.Request{}, err
	}
	r := etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: in.namespace, Release: in.release, ChartVersion: in.chartVersion, Values: values}
	if in.cluster {
		r.Caller = naming.CallerCluster
		if in.apiVersions != "" {
			r.APIVersions = strings.Split(in.apiVersions, ",")
		}
		r.Live.DataStoreName = in.liveDS
		if in.liveSCSet {
			sc := in.liveSC
			r.Live.StorageClassName = &sc
		}
	}
	return r, nil
}

var allAPIs = etcdshapes.APIVerticalPodAutoscaler + "," + etcdshapes.APIVMPodScrape + "," + etcdshapes.APICiliumNetworkPolicy

func stackSeeds() []stackInput {
	zone := "topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: topology.kubernetes.io/zone\n  whenUnsatisfiable: DoNotSchedule\n"
	return []stackInput{
		{namespace: "tenant-root", release: "etcd"},
		{namespace: "tenant-abc", release: "etcd", replicas: 1, storageClass: "local", size: "10Gi"},
		{namespace: "tenant-root", release: "etcd", replicas: 5, size: "512Mi", cpu: "2", memory: "1Gi"},
		{namespace: "tenant-root", release: "etcd", spread: zone, cpuRatio: "4", memRatio: "2"},
		{namespace: "tenant-a-b-c", release: "etcd", cpu: "1", memory: "1000Mi", extra: "example.com/device=1", cpuRatio: "3", memRatio: "1.5", ephRatio: "7"},
		{namespace: "tenant-root", release: "etcd", affinity: `{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"app.kubernetes.io/instance":"etcd"}},"topologyKey":"kubernetes.io/hostname"}]}}`},
		{namespace: "tenant-root", release: "etcd", size: "1Ti", version: "3.5.17", chartVersion: "1.2.3"},
		{cluster: true, namespace: "tenant-demo", release: "kubernetes-demo", apiVersions: allAPIs},
		{cluster: true, namespace: "tenant-demo", release: "kubernetes-demo", replicas: 1, storageLocal: "local", storageReplicated: "replicated", apiVersions: allAPIs},
		{cluster: true, namespace: "tenant-demo", release: "kubernetes-" + strings.Repeat("a", 40), apiVersions: allAPIs, spread: zone + "- maxSkew: 2\n  topologyKey: kubernetes.io/hostname\n  whenUnsatisfiable: ScheduleAnyway\n"},
		{cluster: true, namespace: "tenant-demo", release: "kubernetes-demo", liveDS: "tenant-root"},
		{cluster: true, namespace: "tenant-demo", release: "kubernetes-demo", liveDS: "tenant-demo.kubernetes-demo", liveSCSet: true, liveSC: "legacy-ssd"},
		{cluster: true, namespace: "tenant-demo", release: "kubernetes-demo", cpuRatio: "3", memRatio: "3", apiVersions: etcdshapes.APIVerticalPodAutoscaler},
		// Near misses of the optional APIs: never refused, told in bounded
		// warnings.
		{cluster: true, namespace: "tenant-demo", release: "kubernetes-demo", apiVersions: "cilium.io/v2, " + etcdshapes.APIVMPodScrape + " ,\x1b]52;c;aGk=\a,,monitoring.coreos.com/v1/ServiceMonitor,Cilium.io/v2/CiliumNetworkPolicy\u2028"},
		// Refused.
		{namespace: "tenant-root", release: "etcd", size: "4Xi"},
		{namespace: "tenant-root", release: "etcd", cpuRatio: "0.5"},
		{namespace: "tenant-root", release: "etcd", extra: "gpu=1"},
		{namespace: "tenant-root", release: "etcd", replicas: 2147483647},
		{namespace: "default", release: "etcd"},
		{cluster: true, namespace: "tenant-demo", release: "1-demo"},
		{cluster: true, namespace: "tenant-demo", release: "kubernetes-demo", replicas: 2},
		{namespace: "tenant-root", release: "etcd", spread: "topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: a\n  whenUnsatisfiable: DoNotSchedule\n- maxSkew: 2\n  topologyKey: a\n  whenUnsatisfiable: DoNotSchedule\n"},
		{namespace: "tenant-root", release: "etcd", affinity: `{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":""}]}}`},
	}
}

// FuzzStacks: Render never panics; a refusal is a *invalid.Error; an
// accepted input renders the same bytes twice and, with ETCDSHAPES_CRDS
// set, objects that pass the API server's create-time validation
// (crdcheck) and Pod Security "restricted".
func FuzzStacks(f *testing.F) {
	for _, s := range stackSeeds() {
		f.Add(s.cluster, s.namespace, s.release, s.version, s.size, s.replicas, s.cpu, s.memory, s.extra,
			s.cpuRatio, s.memRatio, s.ephRatio, s.spread, s.storageClass, s.affinity,
			s.apiVersions, s.liveDS, s.liveSC, s.liveSCSet, s.rawYAML, s.chartVersion, s.storageLocal, s.storageReplicated)
	}
	checker, haveCRDs, err := crdcheck.FromEnv()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, cluster bool, namespace, release, version, size string, replicas int64, cpu, memory, extra,
		cpuRatio, memRatio, ephRatio, spread, storageClass, affinity,
		apiVersions, liveDS, liveSC string, liveSCSet bool, rawYAML, chartVersion, storageLocal, storageReplicated string) {
		in := stackInput{cluster, namespace, release, version, size, replicas, cpu, memory, extra,
			cpuRatio, memRatio, ephRatio, spread, storageClass, affinity,
			apiVersions, liveDS, liveSC, liveSCSet, rawYAML, chartVersion, storageLocal, storageReplicated}
		checkStack(t, in, checker, haveCRDs)
	})
}

func checkStack(t *testing.T, in stackInput, checker *crdcheck.Checker, haveCRDs bool) {
	t.Helper()
	req, err := in.request()
	if err != nil {
		requireNamingError(t, err)
		return
	}
	checkAPIWarnings(t, req)
	objs, err := etcdshapes.Render(req)
	if err != nil {
		requireNamingError(t, err)
		for _, e := range invalid.All(err) {
			if e.Field == "apiVersions" {
				t.Fatalf("a served API list is refused: %v", err)
			}
		}
		return
	}
	out, err := etcdshapes.Marshal(objs)
	if err != nil {
		t.Fatalf("accepted input does not marshal: %v", err)
	}
	// Determinism: a second render builds the same objects (compared in
	// JSON, which is cheaper than a second Marshal; the golden tests pin
	// the printed bytes).
	again, err := etcdshapes.Render(req)
	if err != nil {
		t.Fatalf("second render fails: %v", err)
	}
	first, err1 := json.Marshal(objs)
	second, err2 := json.Marshal(again)
	if err1 != nil || err2 != nil || !bytes.Equal(first, second) {
		t.Fatalf("rendering is not deterministic (%v, %v)", err1, err2)
	}
	if !haveCRDs {
		return
	}
	// The printed YAML is what reaches the API server.
	if err := checker.ValidateYAML(out); err != nil {
		t.Fatalf("accepted input %s prints objects the API server refuses:\n%v", describe(in), err)
	}
	for _, o := range objs {
		for _, pt := range crdcheck.PodTemplates(o) {
			if err := crdcheck.Restricted(pt); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func describe(in stackInput) string { return fmt.Sprintf("%+v", in) }

// TestStackSeeds runs the seeds through the stack checks with their
// expected outcome, so the fuzz seeds also document what is refused.
func TestStackSeeds(t *testing.T) {
	checker, haveCRDs, err := crdcheck.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for i, s := range stackSeeds() {
		req, err := s.request()
		if err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		if _, err := etcdshapes.Render(req); err != nil {
			requireNamingError(t, err)
			refused++
		}
		checkStack(t, s, checker, haveCRDs)
	}
	if refused != 9 {
		t.Fatalf("%d seeds refused, want the 9 bad ones", refused)
	}
}

// FuzzInputFiles: arbitrary bytes read as a values file and as a live file,
// the way the CLI reads them (size limits on), never panic, every refusal
// is a *invalid.Error, and no input allocates more than a fixed multiple of
// its size beyond a fixed allowance (YAML alias bombs and pathological
// nesting included).
func FuzzInputFiles(f *testing.F) {
	for _, s := range []string{
		"{}",
		"replicas: 1\nsize: 1e21\n",
		"_namespace: {etcd: tenant-root}\nbackup: {enabled: true}\n",
		"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
		strings.Repeat("[", 20000),
		strings.Repeat("- ", 5000) + "1\n",
		"apiVersion: v1\nkind: List\nitems:\n- apiVersion: etcd-operator.cozystack.io/v1alpha2\n  kind: EtcdCluster\n  metadata: {name: etcd, namespace: tenant-root}\n  spec: {replicas: 3}\n",
		"apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: etcd-defrag, namespace: tenant-root}\nspec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n          - name: defrag\n            args: [" + strings.Repeat("a,", 1000) + "]\n",
		"---\n---\napiVersion: v1\n",
		"\xff\xfe",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if values, err := values.Merge(data); err != nil {
			requireNamingError(t, err)
		} else {
			for _, r := range []etcdshapes.Request{
				{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: values},
				{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo", Values: values},
			} {
				if _, err := etcdshapes.Render(r); err != nil {
					requireNamingError(t, err)
				}
			}
		}
		if live, err := plan.ReadObjects(data); err != nil {
			requireNamingError(t, err)
		} else {
			for _, r := range []etcdshapes.Request{
				{Caller: naming.CallerEtcd, Namespace: "tenant-root"},
				{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"},
			} {
				_, _, _ = plan.ForRequest(r, live)
			}
		}
		runtime.ReadMemStats(&after)
		if used, bound := after.TotalAlloc-before.TotalAlloc, uint64(64<<20)+uint64(400*len(data)); used > bound {
			t.Fatalf("%d bytes of input allocated %d bytes, more than %d", len(data), used, bound)
		}
	})
}

// checkAPIWarnings: the warnings about any served list are a bounded
// number of bounded lines without control characters (the CLI prints
// them on a terminal): at most 10 named entries, one count, one a
// gated optional API.
func checkAPIWarnings(t *testing.T, req etcdshapes.Request) {
	t.Helper()
	w := etcdshapes.APIVersionWarnings(req.Caller, req.APIVersions)
	if max := 11 + len(etcdshapes.OptionalAPIsOf(req.Caller)); len(w) > max {
		t.Fatalf("%d warnings, more than %d: %q", len(w), max, w)
	}
	for _, m := range w {
		if len(m) > 600 || !strings.HasPrefix(m, "apiVersions: ") {
			t.Fatalf("warning of %d bytes: %q", len(m), m)
		}
		for _, r := range m {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 {
				t.Fatalf("control character %U in warning %q", r, m)
			}
		}
	}
}

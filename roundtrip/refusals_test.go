package roundtrip

import (
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
)

// schemaRefusal is how Helm reports values that break values.schema.json;
// the schemas type the values as the library reads them, so a value of the
// wrong type is refused there, with Helm's message instead of the library's.
const schemaRefusal = "values don't meet the specifications of the schema"

type refusal struct {
	name      string
	caller    string
	namespace string
	release   string
	values    string
	live      etcdshapes.LiveState
	// schema: the chart's schema refuses it before the templates run.
	schema bool
	// decoder: the message ends in a YAML decoder's detail, which names Go
	// types the templates do not have; the rest must be the same.
	decoder bool
}

func refusals() []refusal {
	e := func(name, values string) refusal {
		return refusal{name: name, caller: "etcd", namespace: "tenant-root", release: "etcd", values: values}
	}
	c := func(name, values string) refusal {
		return refusal{name: name, caller: "cluster", namespace: "tenant-demo", release: "kubernetes-demo", values: values}
	}
	schema := func(r refusal) refusal { r.schema = true; return r }
	decoder := func(r refusal) refusal { r.decoder = true; return r }
	at := func(r refusal, ns, rel string) refusal { r.namespace, r.release = ns, rel; return r }
	str := func(s string) *string { return &s }
	spread := func(body string) string {
		return "_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: |\n" + indent(body, "      ")
	}
	out := []refusal{
		e("version-short", `version: "3.6"`),
		e("version-v", `version: "v3.6.11"`),
		schema(e("version-number", `version: 3.6`)),
		e("replicas-zero", `replicas: 0`),
		e("replicas-negative", `replicas: -1`),
		schema(e("replicas-fraction", `replicas: 2.5`)),
		schema(e("replicas-string", `replicas: "3"`)),
		e("resources-nested-limits", "resources:\n  limits:\n    cpu: 1"),
		e("resources-nested-requests", "resources:\n  requests:\n    cpu: 1"),
		e("resources-nested-map", "resources:\n  cpu:\n    a: 1"),
		e("resources-bad-quantity", "resources:\n  cpu: abc"),
		e("resources-negative", "resources:\n  cpu: \"-1\""),
		e("resources-bad-name", "resources:\n  \"Bad Name\": 1"),
		e("resources-two-slashes", "resources:\n  a/b/c: 1"),
		schema(e("resources-string", `resources: x`)),
		e("size-unit", `size: 10Gb`),
		e("size-zero", `size: 0`),
		e("size-negative", `size: "-1Gi"`),
		e("size-empty", `size: ""`),
		e("size-no-number", `size: Mi`),
		e("size-below-a-byte", `size: 100m`),
		e("size-too-large", `size: 10E`),
		schema(e("size-bool", `size: true`)),
		e("storage-class", `storageClass: Bad_Class`),
		schema(e("storage-class-number", `storageClass: 5`)),
		schema(e("affinity-string", `affinity: x`)),
		e("affinity-unknown", "affinity:\n  nodeAffinityX: {}"),
		e("ratio-zero", "_cluster:\n  cpu-allocation-ratio: 0"),
		e("ratio-zero-string", "_cluster:\n  memory-allocation-ratio: \"0\""),
		e("ratio-negative", "_cluster:\n  ephemeral-storage-allocation-ratio: -1"),
		e("ratio-word", "_cluster:\n  cpu-allocation-ratio: abc"),
		e("ratio-empty", "_cluster:\n  cpu-allocation-ratio: \"\""),
		e("ratio-huge", "_cluster:\n  cpu-allocation-ratio: 1e16"),
		e("ratio-inf", "_cluster:\n  cpu-allocation-ratio: inf"),
		schema(e("ratio-bool", "_cluster:\n  cpu-allocation-ratio: true")),
		schema(e("scheduling-string", "_cluster:\n  scheduling: x")),
		schema(e("spread-map", "_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints:\n      topologySpreadConstraints: []")),
		e("spread-empty-list", spread("topologySpreadConstraints: []\n")),
		e("spread-no-list", spread("foo: 1\n")),
		decoder(e("spread-not-yaml-map", spread("- a\n"))),
		decoder(e("spread-list-type", spread("topologySpreadConstraints: abc\n"))),
		decoder(e("spread-skew-type", spread("topologySpreadConstraints:\n- maxSkew: one\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n"))),
		e("spread-unknown-field", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n  foo: 1\n")),
		e("spread-skew-zero", spread("topologySpreadConstraints:\n- maxSkew: 0\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n")),
		e("spread-no-skew", spread("topologySpreadConstraints:\n- topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n")),
		e("spread-no-key", spread("topologySpreadConstraints:\n- maxSkew: 1\n  whenUnsatisfiable: DoNotSchedule\n")),
		e("spread-bad-key", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: \"bad key!\"\n  whenUnsatisfiable: DoNotSchedule\n")),
		e("spread-bad-when", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: Maybe\n")),
		e("spread-second-bad", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n- maxSkew: -2\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n")),
		e("spread-duplicate", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n- maxSkew: 2\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n")),
		e("spread-min-domains-anyway", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: ScheduleAnyway\n  minDomains: 2\n")),
		e("spread-min-domains-zero", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n  minDomains: 0\n")),
		e("spread-policy", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n  nodeTaintsPolicy: Always\n")),
		e("spread-match-label-keys-selector", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n  matchLabelKeys: [app.kubernetes.io/instance]\n")),
		e("spread-match-label-keys-bad", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n  matchLabelKeys: [\"a b\"]\n")),
		e("spread-selector-operator", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n  labelSelector:\n    matchExpressions:\n    - key: tier\n      operator: Has\n")),
		e("spread-selector-in-no-values", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n  labelSelector:\n    matchExpressions:\n    - key: tier\n      operator: In\n")),
		e("spread-selector-label-value", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n  labelSelector:\n    matchLabels:\n      tier: \"-bad-\"\n")),
		e("affinity-weight", "affinity:\n  podAntiAffinity:\n    preferredDuringSchedulingIgnoredDuringExecution:\n    - weight: 0\n      podAffinityTerm:\n        topologyKey: kubernetes.io/hostname\n"),
		e("affinity-topology-key", "affinity:\n  podAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n    - labelSelector:\n        matchLabels:\n          a: b\n"),
		e("affinity-node-terms", "affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms: []\n"),
		e("affinity-node-operator", "affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n      - matchExpressions:\n        - key: node-role.kubernetes.io/etcd\n          operator: Has\n"),
		e("affinity-node-exists-values", "affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n      - matchExpressions:\n        - key: a\n          operator: Exists\n          values: [x]\n"),
		e("affinity-node-fields", "affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n      - matchFields:\n        - key: metadata.uid\n          operator: In\n          values: [x]\n"),
		e("affinity-namespaces", "affinity:\n  podAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n    - topologyKey: zone\n      namespaces: [Bad_NS]\n"),
		e("affinity-match-label-keys", "affinity:\n  podAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n    - topologyKey: zone\n      labelSelector:\n        matchLabels:\n          a: b\n      matchLabelKeys: [a]\n"),
		e("replicas-above-max", `replicas: 100`),
		e("resources-unknown-standard", "resources:\n  gpu: 1"),
		e("resources-kubernetes-domain", "resources:\n  kubernetes.io/foo: 1"),
		e("resources-extended-fraction", "resources:\n  example.com/device: 1.5"),
		e("resources-hugepages", "resources:\n  hugepages-abc: 1Gi"),
		e("ratio-below-one", "_cluster:\n  cpu-allocation-ratio: \"0.5\""),
		e("unknown-key-empty", `"": 1`),
		e("unknown-key", `foo: 1`),
		e("unknown-key-sorted-first", "zzz: 1\naaa: 2"),
		at(e("namespace-default", `{}`), "default", "etcd"),
		at(e("namespace-empty-tenant", `{}`), "tenant-", "etcd"),
		at(e("namespace-empty-part", `{}`), "tenant--a", "etcd"),
		at(e("namespace-too-long", `{}`), "tenant-"+strings.Repeat("a", 60), "etcd"),
		at(e("release-not-etcd", `{}`), "tenant-root", "etcd2"),
		e("values-before-names", "replicas: 0"), // with a bad namespace below: the values are checked first
		c("replicas-two", "etcd:\n  replicas: 2"),
		c("replicas-five", "etcd:\n  replicas: 5"),
		c("replicas-zero", "etcd:\n  replicas: 0"),
		schema(c("replicas-fraction", "etcd:\n  replicas: 1.5")),
		c("etcd-unknown", "etcd:\n  size: 1Gi"),
		schema(c("etcd-string", "etcd: x")),
		c("local-class", "_cluster:\n  etcd-storage-class-local: Bad_SC"),
		c("replicated-class", "etcd:\n  replicas: 1\n_cluster:\n  etcd-storage-class-replicated: Bad_SC"),
		c("unused-replicated-class", "_cluster:\n  etcd-storage-class-replicated: Bad_SC"),
		c("ratio", "_cluster:\n  cpu-allocation-ratio: 0"),
		c("spread", spread("topologySpreadConstraints: []\n")),
		at(c("release-digit", `{}`), "tenant-demo", "1kubernetes"),
		at(c("release-long", `{}`), "tenant-demo", "kubernetes-"+strings.Repeat("x", 41)),
		at(c("release-dots", `{}`), "tenant-demo", "kubernetes.demo"),
		at(c("namespace", `{}`), "kube-system", "kubernetes-demo"),
	}
	r := at(out[len(out)-1], "tenant-demo", "kubernetes-demo")
	r.name, r.live = "live-datastore-name", etcdshapes.LiveState{DataStoreName: "Bad_DS"}
	out = append(out, r)
	r.name, r.live = "live-storage-class", etcdshapes.LiveState{StorageClassName: str("Bad_SC")}
	out = append(out, r)
	for i := range out {
		if out[i].name == "values-before-names" {
			out[i].namespace = "default"
		}
	}
	return out
}

func indent(s, pad string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pad + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestRefusals: every input the library refuses, the chart refuses too, with
// the library's message (or, for a value of the wrong type, Helm's schema
// message).
func TestRefusals(t *testing.T) {
	same, decoded, bySchema := 0, 0, 0
	for _, r := range refusals() {
		t.Run(r.caller+"/"+r.name, func(t *testing.T) {
			in := renderInput{caller: r.caller, release: r.release, namespace: r.namespace, values: []byte(r.values), live: r.live}
			_, goErr := goRender(in)
			if goErr == nil {
				t.Fatal("the library accepts this input; the case proves nothing")
			}
			_, helmErr := helmRender(t, in)
			if helmErr == nil {
				t.Fatalf("the chart renders what the library refuses with %v", goErr)
			}
			if r.schema {
				if !strings.Contains(helmErr.Error(), schemaRefusal) {
					t.Fatalf("expected the schema to refuse, got %v", helmErr)
				}
				bySchema++
				return
			}
			if r.decoder {
				const cut = "list of constraints: "
				msg := goErr.Error()
				if i := strings.Index(msg, cut); i < 0 || !strings.Contains(helmErr.Error(), msg[:i+len(cut)]) {
					t.Fatalf("refusals differ:\n  library: %s\n  chart:   %s", msg, helmErr)
				}
				decoded++
				return
			}
			checkSameRefusal(t, goErr, helmErr)
			same++
		})
	}
	t.Logf("refusals: %d with the library's message, %d with it up to a YAML decoder's detail, %d by the values schema", same, decoded, bySchema)
}

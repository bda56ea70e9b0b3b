package roundtrip

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/values"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/jsonnum"
	"github.com/etcdshapes/etcdshapes/invalid"
	"sigs.k8s.io/yaml"
)

type refusal struct {
	name      string
	caller    naming.Caller
	namespace string
	release   string
	values    string
	live      etcdshapes.LiveState
	// decoder: the message ends in a YAML decoder's detail, which names Go
	// types the templates do not have; the rest must be the same.
	decoder bool
	// lossy: a YAML number no float64 holds as written, which the
	// library refuses as written and Helm hands the chart as the float64
	// it reads (1e-400 as 0, 3.0000000000000000001 as 3): the chart
	// cannot see the spelling, so it renders, or refuses the float64 at
	// the same field (charts/README.md).
	lossy bool
}

func refusals() []refusal {
	e := func(name, values string) refusal {
		return refusal{name: name, caller: "etcd", namespace: "tenant-root", release: "etcd", values: values}
	}
	c := func(name, values string) refusal {
		return refusal{name: name, caller: "cluster", namespace: "tenant-demo", release: "kubernetes-demo", values: values}
	}
	decoder := func(r refusal) refusal { r.decoder = true; return r }
	lossy := func(r refusal) refusal { r.lossy = true; return r }
	at := func(r refusal, ns, rel string) refusal { r.namespace, r.release = ns, rel; return r }
	str := func(s string) *string { return &s }
	spread := func(body string) string {
		return "_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: |\n" + indent(body, "      ")
	}
	out := []refusal{
		e("version-short", `version: "3.6"`),
		e("version-v", `version: "v3.6.11"`),
		e("version-number", `version: 3.6`),
		// etcd's image tags have no leading zeros; the tag v<version>
		// holds at most 128 characters.
		e("version-leading-zero", `version: "3.6.011"`),
		e("version-leading-zero-minor", `version: "3.06.11"`),
		e("version-too-long", `version: "3.6.`+strings.Repeat("1", 124)+`"`),
		e("version-long-numbers", `version: "3.6.`+strings.Repeat("1", 20)+`"`+"\nreplicas: 0"),
		e("replicas-zero", `replicas: 0`),
		e("replicas-negative", `replicas: -1`),
		e("replicas-fraction", `replicas: 2.5`),
		e("replicas-string", `replicas: "3"`),
		e("resources-nested-limits", "resources:\n  limits:\n    cpu: 1"),
		e("resources-nested-requests", "resources:\n  requests:\n    cpu: 1"),
		e("resources-nested-map", "resources:\n  cpu:\n    a: 1"),
		e("resources-bad-quantity", "resources:\n  cpu: abc"),
		e("resources-negative", "resources:\n  cpu: \"-1\""),
		e("resources-bad-name", "resources:\n  \"Bad Name\": 1"),
		e("resources-two-slashes", "resources:\n  a/b/c: 1"),
		e("resources-string", `resources: x`),
		e("size-unit", `size: 10Gb`),
		e("size-zero", `size: 0`),
		e("size-negative", `size: "-1Gi"`),
		e("size-empty", `size: ""`),
		e("size-no-number", `size: Mi`),
		e("size-below-a-byte", `size: 100m`),
		e("size-too-large", `size: 10E`),
		e("size-bool", `size: true`),
		e("storage-class", `storageClass: Bad_Class`),
		e("storage-class-number", `storageClass: 5`),
		e("affinity-string", `affinity: x`),
		e("affinity-unknown", "affinity:\n  nodeAffinityX: {}"),
		e("affinity-unknown-nested", "affinity:\n  podAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n    - topologyKey: zone\n      foo: 1"),
		e("affinity-unknown-case", "affinity:\n  NodeAffinity: {}"),
		e("affinity-term-string", "affinity:\n  nodeAffinity: x"),
		e("affinity-terms-string", "affinity:\n  podAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution: x"),
		e("affinity-term-item-string", "affinity:\n  podAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution: [x]"),
		e("affinity-topology-key-number", "affinity:\n  podAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n    - topologyKey: 5"),
		e("affinity-match-labels-number", "affinity:\n  podAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n    - topologyKey: zone\n      labelSelector:\n        matchLabels:\n          a: 1"),
		e("affinity-values-number", "affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n      - matchExpressions:\n        - key: a\n          operator: In\n          values: [1, x]"),
		e("affinity-weight-fraction", "affinity:\n  podAntiAffinity:\n    preferredDuringSchedulingIgnoredDuringExecution:\n    - weight: 2.5\n      podAffinityTerm:\n        topologyKey: zone"),
		e("affinity-weight-string", "affinity:\n  podAntiAffinity:\n    preferredDuringSchedulingIgnoredDuringExecution:\n    - weight: \"5\"\n      podAffinityTerm:\n        topologyKey: zone"),
		e("affinity-weight-overflow", "affinity:\n  podAntiAffinity:\n    preferredDuringSchedulingIgnoredDuringExecution:\n    - weight: 3000000000\n      podAffinityTerm:\n        topologyKey: zone"),
		e("affinity-type-before-unknown", "affinity:\n  aaa: 1\n  podAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution: x"),
		e("ratio-zero", "_cluster:\n  cpu-allocation-ratio: 0"),
		e("ratio-zero-string", "_cluster:\n  memory-allocation-ratio: \"0\""),
		e("ratio-negative", "_cluster:\n  ephemeral-storage-allocation-ratio: -1"),
		e("ratio-word", "_cluster:\n  cpu-allocation-ratio: abc"),
		e("ratio-empty", "_cluster:\n  cpu-allocation-ratio: \"\""),
		e("ratio-huge", "_cluster:\n  cpu-allocation-ratio: 1e16"),
		e("ratio-inf", "_cluster:\n  cpu-allocation-ratio: inf"),
		e("ratio-bool", "_cluster:\n  cpu-allocation-ratio: true"),
		e("scheduling-string", "_cluster:\n  scheduling: x"),
		e("spread-map", "_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints:\n      topologySpreadConstraints: []"),
		e("spread-empty-list", spread("topologySpreadConstraints: []\n")),
		e("spread-no-list", spread("foo: 1\n")),
		decoder(e("spread-not-yaml-map", spread("- a\n"))),
		decoder(e("spread-list-type", spread("topologySpreadConstraints: abc\n"))),
		decoder(e("spread-skew-type", spread("topologySpreadConstraints:\n- maxSkew: one\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n"))),
		decoder(e("spread-second-skew-fraction", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n- maxSkew: 2.5\n  topologyKey: rack\n  whenUnsatisfiable: DoNotSchedule\n"))),
		decoder(e("spread-min-domains-type", spread("topologySpreadConstraints:\n- maxSkew: 1\n  minDomains: x\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n"))),
		decoder(e("spread-match-label-keys-type", spread("topologySpreadConstraints:\n- maxSkew: 1\n  matchLabelKeys: x\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n"))),
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
		e("null-version", "version: null"),
		e("null-replicas", "replicas: null"),
		e("null-size", "size: null"),
		e("null-ratio", "_cluster:\n  memory-allocation-ratio: null"),
		c("null-ratio", "_cluster:\n  cpu-allocation-ratio: null"),
		e("spread-blank", "_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: \"  \""),
		e("memory-request-past-int64", "resources:\n  memory: \"20e18\""),
		e("memory-number-request-past-int64", "resources:\n  memory: 1e21\n_cluster:\n  memory-allocation-ratio: 100"),
		e("ephemeral-request-past-int64", "resources:\n  ephemeral-storage: 400E"),
		e("vpa-bound-past-int64", "resources:\n  memory: null\n_cluster:\n  memory-allocation-ratio: 1e-10"),
		e("version-empty", `version: ""`),
		// The quantity bounds (internal/quantity), as the library meets
		// them: every form of exponent, suffix and length.
		e("size-huge-exponent", `size: 1e999999999`),
		e("size-huge-exponent-wrapping-int32", `size: 1e4294967297`),
		e("size-8Ei", `size: 8Ei`),
		e("size-past-max-in-Ei", `size: 7.999999999999999999132638262011596452794037759304046630859376Ei`),
		e("size-2^63", `size: "9223372036854775808"`),
		lossy(e("size-2^63-number", `size: 9223372036854775808`)),
		e("size-tiny-exponent", `size: "1e-999999999"`),
		e("size-too-long", `size: "0.`+strings.Repeat("0", 63)+`1"`),
		e("size-digitless-exact-path", `size: Ei`),
		e("memory-huge-exponent", "resources:\n  memory: 1e999999999"),
		e("memory-1e400", "resources:\n  memory: 1e400"),
		e("memory-number-1e300", "resources:\n  memory: 1e300"),
		e("cpu-tiny-exponent", "resources:\n  cpu: \"1e-999999999\""),
		e("cpu-1e400", "resources:\n  cpu: 1e400"),
		e("cpu-2000E", "resources:\n  cpu: 2000E"),
		e("ephemeral-tiny-exponent", "resources:\n  ephemeral-storage: \"5e-100\""),
		e("hugepages-huge-exponent", "resources:\n  hugepages-2Mi: 1e100000"),
		e("hugepages-page-size-huge", "resources:\n  hugepages-1e999999999: 2Mi"),
		e("hugepages-page-size-tiny", "resources:\n  hugepages-1e-999999999: 2Mi"),
		e("extended-tiny-exponent", "resources:\n  example.com/device: \"1e-999999999\""),
		e("memory-request-past-int64-ratio", "resources:\n  memory: 9E\n_cluster:\n  memory-allocation-ratio: \"0.5\""),
		lossy(e("ratio-below-a-float64", "_cluster:\n  cpu-allocation-ratio: 1e-400")),
		e("ratio-beyond-a-float64", "_cluster:\n  cpu-allocation-ratio: 1e400"),
		e("vpa-cpu-bound-past-int64", "resources:\n  cpu: null\n_cluster:\n  cpu-allocation-ratio: 1e-19"),
		e("vpa-cpu-bound-past-int64-string", "resources:\n  cpu: null\n_cluster:\n  cpu-allocation-ratio: \"1e-19\""),
		lossy(c("ratio-below-a-float64", "_cluster:\n  memory-allocation-ratio: 1e-400")),
		// Numbers no float64 holds as written (jsonnum.Float). Where the
		// chart sees the spelling (a string ratio, a float64's sign) it
		// refuses with the library's message; a YAML number's spelling
		// it cannot see (lossy).
		e("ratio-string-digits", "_cluster:\n  cpu-allocation-ratio: \"10.000000000000000001\""),
		e("ratio-string-underflow", "_cluster:\n  memory-allocation-ratio: \"1e-400\""),
		e("ratio-string-overflow", "_cluster:\n  ephemeral-storage-allocation-ratio: \"1e400\""),
		e("ratio-string-huge-exponent", "_cluster:\n  cpu-allocation-ratio: \"1e-99999999999999999999\""),
		e("ratio-string-negative-zero", "_cluster:\n  cpu-allocation-ratio: \"-0\""),
		c("ratio-string-digits", "_cluster:\n  cpu-allocation-ratio: \"1.00000000000000000001\""),
		e("ratio-negative-zero", "_cluster:\n  cpu-allocation-ratio: -0.0"),
		e("cpu-negative-zero", "resources:\n  cpu: -0.0"),
		e("size-negative-zero", "size: -0.0"),
		e("extended-negative-zero", "resources:\n  example.com/device: -0.0"),
		lossy(e("cpu-underflow", "resources:\n  cpu: 1e-400")),
		lossy(e("memory-digits", "resources:\n  memory: 123456789012345678")),
		lossy(e("replicas-digits", "replicas: 3.0000000000000000001")),
		lossy(e("replicas-negative-zero", "replicas: -0")),
		lossy(e("ratio-digits", "_cluster:\n  memory-allocation-ratio: 1.00000000000000000001")),
		lossy(c("replicas-digits", "etcd:\n  replicas: 1.0000000000000000001")),
		lossy(e("spread-skew-underflow", spread("topologySpreadConstraints:\n- maxSkew: 1e-400\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n"))),
		lossy(e("spread-skew-digits", spread("topologySpreadConstraints:\n- maxSkew: 1.0000000000000000001\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n"))),
		lossy(e("affinity-weight-digits", "affinity:\n  podAntiAffinity:\n    preferredDuringSchedulingIgnoredDuringExecution:\n    - weight: 50.0000000000000000001\n      podAffinityTerm:\n        topologyKey: zone")),
		// quantity.ChartRule: what the charts' float64 arithmetic does
		// not hold exactly, in every form.
		e("cpu-19-digits", "resources:\n  cpu: \"0.1234567890123456789\""),
		e("cpu-18-digits-milli", "resources:\n  cpu: 123456789012345678m"),
		e("memory-16-digits", "resources:\n  memory: \"1234567890123456\""),
		e("memory-binary-value-16-digits", "resources:\n  memory: 999999Gi"),
		e("memory-1Pi", "resources:\n  memory: 1Pi"),
		e("memory-whole-Ei", "resources:\n  memory: 3Ei"),
		e("cpu-fraction-of-a-nano", "resources:\n  cpu: 1.5n"),
		e("cpu-binary-fraction-of-a-nano", "resources:\n  cpu: 0.0000000001Ki"),
		e("ephemeral-not-a-float64", "resources:\n  ephemeral-storage: \"1234567890123450000\""),
		e("memory-Ei-upstream-reads-otherwise", "resources:\n  memory: 0.0000213623046875Ei"),
		e("size-19-digits", `size: "0.1234567890123456789Gi"`),
		e("hugepages-page-size-digits", "resources:\n  hugepages-1.0000000000000001Gi: 2Gi"),
		// etcd.MinSize, in every unit.
		e("size-one-byte", `size: "1"`),
		e("size-1Ki", `size: 1Ki`),
		e("size-100k", `size: 100k`),
		e("size-below-floor-Mi", `size: 255Mi`),
		e("size-below-floor-Gi", `size: 0.2499Gi`),
		e("size-below-floor-bytes", `size: 268435455`),
		e("size-below-floor-exponent", `size: 2.68e8`),
		// etcd.MinMemory, in every unit and spelling, the quick
		// test's forms among them (a quick match must not skip it).
		e("memory-1Mi", "resources:\n  memory: 1Mi"),
		e("memory-1k", "resources:\n  memory: 1k"),
		e("memory-one-byte", "resources:\n  memory: 1"),
		e("memory-31Mi", "resources:\n  memory: 31Mi"),
		e("memory-33M", "resources:\n  memory: 33M"),
		e("memory-below-floor-bytes", "resources:\n  memory: 33554431"),
		e("memory-below-floor-Ki", "resources:\n  memory: 32767Ki"),
		e("memory-below-floor-Gi", "resources:\n  memory: 0.0312Gi"),
		e("memory-below-floor-milli", "resources:\n  memory: 33554431000m"),
		e("memory-below-floor-exponent", "resources:\n  memory: 3.3e7"),
		// The length bounds of the values' free-form strings.
		e("ratio-too-long", "_cluster:\n  cpu-allocation-ratio: \"1."+strings.Repeat("0", 63)+"\""),
		c("ratio-too-long", "_cluster:\n  ephemeral-storage-allocation-ratio: \"1."+strings.Repeat("0", 63)+"\""),
		e("spread-too-long", spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n#"+strings.Repeat("x", 32768))),
		e("affinity-node-name", "affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n      - matchFields:\n        - key: metadata.name\n          operator: In\n          values: [Node_1]\n"),
		e("affinity-node-name-too-long", "affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n      - matchFields:\n        - key: metadata.name\n          operator: In\n          values: ["+strings.Repeat("n", 254)+"]\n"),
		e("hugepages-not-a-multiple", "resources:\n  hugepages-2Mi: 3Mi"),
		e("hugepages-page-zero", "resources:\n  hugepages-0: 1Gi"),
		e("hugepages-page-milli", "resources:\n  hugepages-1m: 1Gi"),
		e("hugepages-alone", "resources:\n  cpu: null\n  memory: null\n  hugepages-2Mi: 4Mi"),
		e("resources-requests-prefix", "resources:\n  requests.example.com/gpu: 1"),
		e("unknown-key-empty", `"": 1`),
		e("unknown-key", `foo: 1`),
		e("unknown-key-sorted-first", "zzz: 1\naaa: 2"),
		// Input text in a field (a key) or a rule is escaped in both
		// messages: an OSC 52 clipboard write, a forged line, C1 and
		// bidirectional controls, DEL.
		e("unknown-key-controls", `"a\e]52;c;eA==\a\netcdshapes: rendered 24 objects, all checks passed\u202e\x85\x7f\t": 1`),
		e("resource-name-controls", "resources:\n  \"a\\e[2J\\u2066b\\n\": 1"),
		c("unknown-etcd-key-controls", "etcd:\n  \"\\u2028x\\x9b\": 1"),
		at(e("namespace-default", `{}`), "default", "etcd"),
		at(e("namespace-empty-tenant", `{}`), "tenant-", "etcd"),
		at(e("namespace-empty-part", `{}`), "tenant--a", "etcd"),
		at(e("namespace-too-long", `{}`), "tenant-"+strings.Repeat("a", 60), "etcd"),
		// A tenant namespace after other text: the quick tests match
		// their pattern unanchored (regexFind) and must still take the
		// whole namespace.
		at(e("namespace-prefixed", `{}`), "xtenant-a", "etcd"),
		at(e("namespace-two-tenants", `{}`), "tenant-a;tenant-b", "etcd"),
		at(e("namespace-line-before", `{}`), "x\ntenant-a", "etcd"),
		at(e("release-not-etcd", `{}`), "tenant-root", "etcd2"),
		e("values-before-names", "replicas: 0"), // with a bad namespace below: the values are checked first
		c("replicas-two", "etcd:\n  replicas: 2"),
		c("replicas-five", "etcd:\n  replicas: 5"),
		c("replicas-zero", "etcd:\n  replicas: 0"),
		c("replicas-fraction", "etcd:\n  replicas: 1.5"),
		c("etcd-unknown", "etcd:\n  size: 1Gi"),
		c("etcd-string", "etcd: x"),
		c("local-class", "_cluster:\n  etcd-storage-class-local: Bad_SC"),
		c("replicated-class", "etcd:\n  replicas: 1\n_cluster:\n  etcd-storage-class-replicated: Bad_SC"),
		c("unused-replicated-class", "_cluster:\n  etcd-storage-class-replicated: Bad_SC"),
		c("ratio", "_cluster:\n  cpu-allocation-ratio: 0"),
		c("spread", spread("topologySpreadConstraints: []\n")),
		at(c("release-digit", `{}`), "tenant-demo", "1kubernetes"),
		at(c("release-long", `{}`), "tenant-demo", "kubernetes-"+strings.Repeat("x", 41)),
		at(c("release-dots", `{}`), "tenant-demo", "kubernetes.demo"),
		at(c("namespace", `{}`), "kube-system", "kubernetes-demo"),
		at(c("namespace-prefixed", `{}`), "xtenant-demo", "kubernetes-demo"),
		at(c("namespace-two-tenants", `{}`), "tenant-x;tenant-demo", "kubernetes-demo"),
		// etcd authentication: the root credentials Secret is named
		// exactly when auth is on, a Secret name, none of the stack's TLS
		// Secrets; the auth map's keys.
		e("auth-no-secret", "auth:\n  enabled: true"),
		e("auth-secret-while-off", "auth:\n  rootCredentialsSecret: root"),
		e("auth-secret-uppercase", "auth:\n  enabled: true\n  rootCredentialsSecret: Root"),
		e("auth-secret-too-long", "auth:\n  enabled: true\n  rootCredentialsSecret: "+strings.Repeat("a", 254)),
		e("auth-secret-client-tls", "auth:\n  enabled: true\n  rootCredentialsSecret: etcd-client-tls"),
		e("auth-secret-peer-ca-tls", "auth:\n  enabled: true\n  rootCredentialsSecret: etcd-peer-ca-tls"),
		e("auth-unknown-key", "auth:\n  enable: true"),
		e("auth-unknown-key-empty", "auth:\n  \"\": 1"),
		e("auth-after-affinity", "auth:\n  enabled: true\naffinity:\n  nodeAffinityX: {}"),
		e("auth-before-ratios", "auth:\n  enabled: true\n_cluster:\n  cpu-allocation-ratio: 0"),
		c("auth-no-secret", "etcd:\n  auth:\n    enabled: true"),
		c("auth-secret-while-off", "etcd:\n  auth:\n    enabled: false\n    rootCredentialsSecret: root"),
		c("auth-secret-dots-dashes", "etcd:\n  auth:\n    enabled: true\n    rootCredentialsSecret: a..b"),
		c("auth-secret-server-tls", "etcd:\n  auth:\n    enabled: true\n    rootCredentialsSecret: kubernetes-demo-etcd-server-tls"),
		c("auth-unknown-key", "etcd:\n  auth:\n    secret: x"),
		c("auth-after-replicas", "etcd:\n  replicas: 2\n  auth:\n    enabled: true"),
		func() refusal {
			r := c("auth-behind-shared-datastore", "etcd:\n  auth:\n    enabled: true")
			r.live = etcdshapes.LiveState{DataStoreName: "tenant-root"}
			return r
		}(),
	}
	out = append(out, wrongTypes()...)
	out = append(out, spreadTypes()...)
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

// yamlValues are values of every YAML type, by name.
var yamlValues = map[string]string{
	"string": `"x"`, "empty-string": `""`, "numeric-string": `"3"`,
	"whole-number": `3`, "zero": `0`, "fraction": `3.6`, "true": `true`, "false": `false`,
	"empty-list": `[]`, "list": `[a, 1]`, "empty-map": `{}`, "map": `{a: 1}`,
}

// Each kind of value lists the types of yamlValues the library refuses for it.
var (
	notString   = []string{"whole-number", "zero", "fraction", "true", "false", "empty-list", "list", "empty-map", "map"}
	notInt32    = []string{"string", "empty-string", "numeric-string", "fraction", "true", "false", "empty-list", "list", "empty-map", "map"}
	notQuantity = []string{"true", "false", "empty-list", "list", "empty-map", "map"}
	// notWholeQuantity: where the upstream chart's values.schema.json
	// allows an integer or a string (size, cpu, memory).
	notWholeQuantity = append([]string{"fraction"}, notQuantity...)
	notRatio         = []string{"empty-string", "true", "false", "empty-list", "list", "empty-map", "map"}
	notMap           = []string{"string", "empty-string", "numeric-string", "whole-number", "zero", "fraction", "true", "false", "empty-list", "list"}
	notBool          = []string{"string", "empty-string", "numeric-string", "whole-number", "zero", "fraction", "empty-list", "list", "empty-map", "map"}
)

// wrongTypes: every key the charts read, with a value of every type the
// library refuses there ("values.version: invalid value 3.6: must be a
// string"). The chart's values.schema.json must refuse each at the same
// field (checkSameRefusal).
func wrongTypes() []refusal {
	platform := []struct {
		key   string
		wrong []string
	}{
		{"_cluster", notMap},
		{"_cluster.cpu-allocation-ratio", notRatio},
		{"_cluster.memory-allocation-ratio", notRatio},
		{"_cluster.ephemeral-storage-allocation-ratio", notRatio},
		{"_cluster.etcd-storage-class-local", notString},
		{"_cluster.etcd-storage-class-replicated", notString},
		{"_cluster.scheduling", notMap},
		{"_cluster.scheduling.globalAppTopologySpreadConstraints", notString},
	}
	keys := map[string][]struct {
		key   string
		wrong []string
	}{
		"etcd": append([]struct {
			key   string
			wrong []string
		}{
			{"affinity", notMap},
			{"auth", notMap},
			{"auth.enabled", notBool},
			{"auth.rootCredentialsSecret", notString},
			{"replicas", notInt32},
			{"resources", notMap},
			{"resources.cpu", notWholeQuantity},
			{"resources.memory", notWholeQuantity},
			{"resources.ephemeral-storage", notQuantity},
			{"size", notWholeQuantity},
			{"storageClass", notString},
			{"version", notString},
		}, platform...),
		"cluster": append([]struct {
			key   string
			wrong []string
		}{
			{"etcd", notMap},
			{"etcd.replicas", notInt32},
			{"etcd.auth", notMap},
			{"etcd.auth.enabled", notBool},
			{"etcd.auth.rootCredentialsSecret", notString},
		}, platform...),
	}
	var out []refusal
	for _, caller := range []string{"etcd", "cluster"} {
		for _, k := range keys[caller] {
			for _, typ := range k.wrong {
				r := refusal{name: "type/" + k.key + "=" + typ, caller: naming.Caller(caller), values: nested(k.key, yamlValues[typ])}
				r.namespace, r.release = "tenant-root", "etcd"
				if caller == "cluster" {
					r.namespace, r.release = "tenant-demo", "kubernetes-demo"
				}
				out = append(out, r)
			}
		}
	}
	return out
}

// spreadTypes: a global spread constraint with a value the library's
// []corev1.TopologySpreadConstraint does not hold, in every kind of field
// (int32 and *int32 past their range or not whole, strings and the enum
// strings, []string, map[string]string, the label selector's structs and
// lists), on both charts. The chart decodes the constraints with the same
// types (the decoder twin) and refuses each with the library's message.
func spreadTypes() []refusal {
	const base = "topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n"
	cases := []struct{ name, body string }{
		{"skew-past-int32", strings.Replace(base, "maxSkew: 1", "maxSkew: 4294967297", 1)},
		{"skew-int32-max-plus-one", strings.Replace(base, "maxSkew: 1", "maxSkew: 2147483648", 1)},
		{"skew-below-int32", strings.Replace(base, "maxSkew: 1", "maxSkew: -2147483649", 1)},
		{"skew-fraction", strings.Replace(base, "maxSkew: 1", "maxSkew: 1.5", 1)},
		{"skew-bool", strings.Replace(base, "maxSkew: 1", "maxSkew: true", 1)},
		{"min-domains-past-int32", base + "  minDomains: 2147483648\n"},
		{"min-domains-string", base + "  minDomains: \"2\"\n"},
		{"min-domains-list", base + "  minDomains: [2]\n"},
		{"topology-key-number", strings.Replace(base, "topologyKey: zone", "topologyKey: 1", 1)},
		{"topology-key-map", strings.Replace(base, "topologyKey: zone", "topologyKey: {a: b}", 1)},
		{"when-number", strings.Replace(base, "whenUnsatisfiable: DoNotSchedule", "whenUnsatisfiable: 1", 1)},
		{"node-affinity-policy-number", base + "  nodeAffinityPolicy: 1\n"},
		{"node-taints-policy-bool", base + "  nodeTaintsPolicy: true\n"},
		{"match-label-keys-number", base + "  matchLabelKeys: [1]\n"},
		{"match-label-keys-string", base + "  matchLabelKeys: a\n"},
		{"selector-string", base + "  labelSelector: x\n"},
		{"match-labels-number", base + "  labelSelector:\n    matchLabels: {a: 1}\n"},
		{"match-labels-bool", base + "  labelSelector:\n    matchLabels: {a: true}\n"},
		{"match-labels-list", base + "  labelSelector:\n    matchLabels: [a]\n"},
		{"match-expressions-map", base + "  labelSelector:\n    matchExpressions: {key: a}\n"},
		{"match-expression-string", base + "  labelSelector:\n    matchExpressions: [a]\n"},
		{"match-expression-key-number", base + "  labelSelector:\n    matchExpressions:\n    - key: 1\n      operator: Exists\n"},
		{"match-expression-operator-number", base + "  labelSelector:\n    matchExpressions:\n    - key: a\n      operator: 1\n"},
		{"match-expression-values-number", base + "  labelSelector:\n    matchExpressions:\n    - key: a\n      operator: In\n      values: [1]\n"},
		{"match-expression-values-string", base + "  labelSelector:\n    matchExpressions:\n    - key: a\n      operator: In\n      values: a\n"},
		{"match-expression-unknown", base + "  labelSelector:\n    matchExpressions:\n    - key: a\n      operator: Exists\n      foo: 1\n"},
		{"selector-unknown", base + "  labelSelector:\n    matchLabel: {a: b}\n"},
		{"item-number", "topologySpreadConstraints: [1]\n"},
		{"list-string", "topologySpreadConstraints: abc\n"},
		// The decoder's first type error wins over an unknown field before it.
		{"type-after-unknown", base + "  aaa: 1\n  minDomains: x\n"},
		{"second-item-type", base + strings.Replace(strings.TrimPrefix(base, "topologySpreadConstraints:\n"), "maxSkew: 1", "maxSkew: 2.5", 1)},
	}
	var out []refusal
	for _, c := range cases {
		v := "_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: |\n" + indent(c.body, "      ")
		// decoder: the library names the element and field of a value of
		// the wrong type (values' spread type check); the chart's decoder
		// twin refuses the list with a Go decoder's detail.
		out = append(out,
			refusal{name: "spread-type/" + c.name, caller: "etcd", namespace: "tenant-root", release: "etcd", values: v, decoder: true},
			refusal{name: "spread-type/" + c.name, caller: "cluster", namespace: "tenant-demo", release: "kubernetes-demo", values: v, decoder: true})
	}
	return out
}

// nested is the YAML of value at the dotted key path.
func nested(path, value string) string {
	var b strings.Builder
	parts := strings.Split(path, ".")
	for i, p := range parts {
		b.WriteString(strings.Repeat("  ", i) + p + ":")
		if i < len(parts)-1 {
			b.WriteString("\n")
		}
	}
	return b.String() + " " + value + "\n"
}

// TestWrongTypesCoverEveryKey: the wrong-type cases cover every key the
// library reads (the charts' value keys, etcd.replicas and the platform's
// keys), so a key added to the library without a case fails here.
func TestWrongTypesCoverEveryKey(t *testing.T) {
	covered := map[naming.Caller]map[string]bool{naming.CallerEtcd: {}, naming.CallerCluster: {}}
	for _, r := range wrongTypes() {
		key := strings.SplitN(strings.TrimPrefix(r.name, "type/"), "=", 2)[0]
		covered[r.caller][strings.SplitN(key, ".", 2)[0]] = true
		if r.caller == "cluster" && strings.HasPrefix(key, "etcd.") {
			covered[r.caller][key] = true
		}
	}
	for _, k := range values.EtcdChartKeys() {
		if !covered["etcd"][k] {
			t.Errorf("etcd chart: no wrong-type case for %s", k)
		}
	}
	for _, k := range values.ClusterEtcdKeys() {
		if !covered["cluster"]["etcd."+k] {
			t.Errorf("cluster chart: no wrong-type case for etcd.%s", k)
		}
	}
	if !covered["cluster"]["_cluster"] || !covered["cluster"]["etcd"] {
		t.Error("cluster chart: no wrong-type case for etcd or _cluster")
	}
}

// TestNullValues: a null deletes a key for the library at every depth of
// the values' maps; Helm deletes only the nulls over a values.yaml default
// and hands the templates the others, which must read them as absent. (A
// null version, replicas, size or ratio is refused: see the refusals.)
func TestNullValues(t *testing.T) {
	for _, c := range []struct {
		caller naming.Caller
		values string
	}{
		{"etcd", "resources:\n  gpu: null"},
		{"etcd", "resources:\n  limits: null\n  requests: null"},
		{"etcd", "resources:\n  cpu: null\n  memory: null"},
		{"etcd", "resources: null"},
		{"etcd", "affinity:\n  nodeAffinity: null"},
		{"etcd", "affinity:\n  podAffinity:\n    foo: null\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution: null"},
		{"etcd", "storageClass: null\naffinity: null"},
		{"etcd", "_cluster: null"},
		{"etcd", "_cluster:\n  scheduling: null\n  etcd-storage-class-local: null"},
		{"etcd", "_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: null"},
		{"cluster", "etcd: null"},
		{"cluster", "etcd:\n  size: null"},
		{"cluster", "etcd:\n  replicas: null\n  size: null"},
		{"cluster", "_cluster:\n  etcd-storage-class-local: null\n  scheduling: null"},
		// No values.yaml default of auth: Helm hands the templates these
		// nulls, which read as auth off.
		{"etcd", "auth: null"},
		{"etcd", "auth:\n  enabled: null\n  rootCredentialsSecret: null"},
		{"etcd", "auth:\n  enabled: true\n  rootCredentialsSecret: etcd-root\n  foo: null"},
		{"cluster", "etcd:\n  auth: null"},
		{"cluster", "etcd:\n  auth:\n    enabled: null"},
	} {
		in := renderInput{caller: c.caller, namespace: "tenant-root", release: "etcd", values: []byte(c.values)}
		if c.caller == "cluster" {
			in.namespace, in.release = "tenant-demo", "kubernetes-demo"
		}
		t.Run(c.caller.String()+"/"+c.values, func(t *testing.T) {
			if _, err := goRender(in); err != nil {
				t.Fatalf("the library refuses: %v", err)
			}
			forEachHelm(t, func(t *testing.T, h helm) { compareRenders(t, h, in) })
		})
	}
}

func indent(s, pad string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pad + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestIgnoredAndShared: inputs the library accepts since issue 9 render the
// same objects with the chart: the platform's _namespace, an older chart's
// backup and unknown _cluster keys are ignored, and a cluster that stays on
// a shared datastore renders nothing even where its release breaks the
// rules of the names only a rendered stack uses.
func TestIgnoredAndShared(t *testing.T) {
	shared := etcdshapes.LiveState{DataStoreName: "default"}
	for _, c := range []struct {
		caller          naming.Caller
		values, release string
		live            etcdshapes.LiveState
	}{
		{caller: "etcd", values: "_namespace:\n  etcd: tenant-root\n  host: example.org\nbackup:\n  enabled: true\n  s3: {bucket: x}"},
		{caller: "etcd", values: "_namespace: 5\nbackup: [x]\n_cluster:\n  unknown: {a: 1}"},
		{caller: "cluster", values: "_namespace:\n  etcd: tenant-root\n_cluster:\n  unknown: 1\nhost: example.org"},
		{caller: "cluster", values: "{}", release: "kubernetes-" + strings.Repeat("x", 41), live: shared},
		{caller: "cluster", values: "{}", release: "kubernetes.demo", live: shared},
		{caller: "cluster", values: "{}", release: "1kubernetes", live: shared},
		{caller: "cluster", values: "etcd:\n  replicas: 1", release: "kubernetes-demo", live: shared},
	} {
		in := renderInput{caller: c.caller, namespace: "tenant-root", release: "etcd", values: []byte(c.values), live: c.live}
		if c.caller == "cluster" {
			in.namespace, in.release = "tenant-demo", "kubernetes-demo"
			if c.release != "" {
				in.release = c.release
			}
		}
		t.Run(c.caller.String()+"/"+in.release+"/"+c.values, func(t *testing.T) {
			if _, err := goRender(in); err != nil {
				t.Fatalf("the library refuses: %v", err)
			}
			forEachHelm(t, func(t *testing.T, h helm) { compareRenders(t, h, in) })
		})
	}
}

// TestRefusals: every input the library refuses, the chart refuses too, with
// the library's message, or, for a value of the wrong type, with Helm's
// values.schema.json message at the same field.
func TestRefusals(t *testing.T) {
	forEachHelm(t, testRefusals)
}

func testRefusals(t *testing.T, h helm) {
	same, decoded, lossy := 0, 0, 0
	for _, r := range refusals() {
		t.Run(r.caller.String()+"/"+r.name, func(t *testing.T) {
			in := renderInput{caller: r.caller, release: r.release, namespace: r.namespace, values: []byte(r.values), live: r.live}
			_, goErr := goRender(in)
			if goErr == nil {
				t.Fatal("the library accepts this input; the case proves nothing")
			}
			_, helmErr := helmRender(t, h, in)
			if r.lossy {
				checkLossy(t, goErr, helmErr)
				lossy++
				return
			}
			if helmErr == nil {
				t.Fatalf("the chart renders what the library refuses with %v", goErr)
			}
			if r.decoder {
				const cut = "list of constraints: "
				msg := firstMessage(goErr)
				// The library names a value of the wrong type by its
				// element and field; the chart (its fromYaml holds no
				// Go types) refuses the list, with the same rule up to
				// the decoder's detail.
				if namesSpreadElement(goErr) {
					if !spreadElementRefusal(goErr, helmErr) {
						t.Fatalf("refusals differ:\n  library: %s\n  chart:   %s", msg, helmErr)
					}
					decoded++
					return
				}
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
	t.Logf("%s: refusals: %d with the library's message or the schema's at its field, %d with it up to a YAML decoder's detail, %d numbers the chart cannot see as written", h.name(), same, decoded, lossy)
}

// spreadList is the values key of the global spread constraints.
const spreadList = "_cluster.scheduling.globalAppTopologySpreadConstraints"

// namesSpreadElement: the library refuses a value of the wrong type in
// the spread constraints at its element and field
// (spreadList+"[0].maxSkew").
func namesSpreadElement(goErr error) bool {
	var ne *invalid.Error
	return asNamingError(goErr, &ne) && strings.HasPrefix(ne.Field, spreadList+"[")
}

// spreadElementRefusal: the library names the element and field, and the
// chart (whose fromYaml holds no Go types) refuses the list with the
// same rule up to its decoder twin's detail.
func spreadElementRefusal(goErr, helmErr error) bool {
	return namesSpreadElement(goErr) && strings.Contains(helmErr.Error(), spreadList+": invalid value ") &&
		strings.Contains(helmErr.Error(), "list of constraints: json: ")
}

// checkLossy: the library refuses a YAML number no float64 holds as
// written (its rule is a jsonnum.Loss rule, its value the number as
// written); the chart, handed the float64 Helm reads, renders or refuses
// at the same field.
func checkLossy(t *testing.T, goErr, helmErr error) {
	t.Helper()
	var ne *invalid.Error
	if !asNamingError(goErr, &ne) || !isLossRule(ne.Rule) {
		t.Fatalf("the library does not refuse a number as written: %v", goErr)
	}
	if _, ok := ne.Value.(json.Number); !ok {
		t.Fatalf("the library quotes %T, not the number as written: %v", ne.Value, goErr)
	}
	if helmErr != nil && !strings.Contains(helmErr.Error(), ne.Field+": invalid value ") && !schemaRefuses(helmErr, ne.Field) {
		t.Fatalf("the chart refuses another field:\n  library: %v\n  chart:   %v", goErr, helmErr)
	}
}

// isLossRule reports whether rule is the refusal of a number no float64
// holds as written.
func isLossRule(rule string) bool {
	for _, l := range []jsonnum.Loss{jsonnum.NegativeZero, jsonnum.Underflow, jsonnum.Overflow} {
		if rule == l.Rule(0) {
			return true
		}
	}
	prefix, _, _ := strings.Cut(jsonnum.DigitsRuleFormat, "%s")
	return strings.HasPrefix(rule, prefix)
}

// fullAffinity sets every field of a corev1.Affinity, valid.
func fullAffinity() map[string]any {
	selector := func() map[string]any {
		return map[string]any{
			"matchLabels":      map[string]any{"tier": "db"},
			"matchExpressions": []any{map[string]any{"key": "app", "operator": "In", "values": []any{"etcd"}}},
		}
	}
	term := func() map[string]any {
		return map[string]any{
			"labelSelector": selector(), "namespaceSelector": selector(), "namespaces": []any{"tenant-root"},
			"topologyKey": "kubernetes.io/hostname", "matchLabelKeys": []any{"pod-template-hash"}, "mismatchLabelKeys": []any{"team"},
		}
	}
	nodeTerm := func() map[string]any {
		return map[string]any{
			"matchExpressions": []any{map[string]any{"key": "node-role.kubernetes.io/etcd", "operator": "Exists"}},
			"matchFields":      []any{map[string]any{"key": "metadata.name", "operator": "In", "values": []any{"node-1"}}},
		}
	}
	pod := func() map[string]any {
		return map[string]any{
			"requiredDuringSchedulingIgnoredDuringExecution":  []any{term()},
			"preferredDuringSchedulingIgnoredDuringExecution": []any{map[string]any{"weight": 50.0, "podAffinityTerm": term()}},
		}
	}
	return map[string]any{
		"nodeAffinity": map[string]any{
			"requiredDuringSchedulingIgnoredDuringExecution":  map[string]any{"nodeSelectorTerms": []any{nodeTerm()}},
			"preferredDuringSchedulingIgnoredDuringExecution": []any{map[string]any{"weight": 10.0, "preference": nodeTerm()}},
		},
		"podAffinity":     pod(),
		"podAntiAffinity": pod(),
	}
}

// mutate replaces one random node under v (a map or list) by a value of a
// random type, or adds an unknown field to a random map.
func mutate(r *rand.Rand, v any) {
	var nodes []func(any)
	var walk func(x any)
	walk = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			nodes = append(nodes, func(nv any) { t[pick(r, "foo", "Topologykey", "")] = nv })
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys) // the same cases on every run
			for _, k := range keys {
				c := t[k]
				nodes = append(nodes, func(nv any) { t[k] = nv })
				walk(c)
			}
		case []any:
			for i, c := range t {
				nodes = append(nodes, func(nv any) { t[i] = nv })
				walk(c)
			}
		}
	}
	walk(v)
	// No null: a null list item is not a wrong type (see TestAffinityDecodeTwin).
	values := []any{"x", "", 3.0, 0.0, 2.5, -1.0, 3e9, 1e21, true, false, []any{}, []any{"a", 1.0}, map[string]any{}, map[string]any{"a": 1.0}}
	nodes[r.Intn(len(nodes))](values[r.Intn(len(values))])
}

// TestAffinityDecodeTwin: affinities with values of the wrong type or
// unknown fields anywhere are refused by the chart with the library's
// message: the strict JSON decoder's first type error, else its first
// unknown field (or, once the types are right, the API server's rules).
// When both render, the objects are not compared here: the chart renders
// the affinity as written, the library as corev1.Affinity marshals it,
// which drops an empty map or list ({} and [] are the right type for many
// fields); the golden and random tests compare renders. Nulls are left out:
// a null list item decodes to the item's zero value in the library, which
// the chart does not model (charts/README.md).
func TestAffinityDecodeTwin(t *testing.T) {
	forEachHelm(t, affinityDecodeTwin)
}

func affinityDecodeTwin(t *testing.T, h helm) {
	r := rand.New(rand.NewSource(5))
	const cases = 400
	refused, decoder := 0, 0
	for i := 0; i < cases; i++ {
		a := fullAffinity()
		for n := 1 + r.Intn(3); n > 0; n-- {
			mutate(r, a)
		}
		raw, err := yaml.Marshal(map[string]any{"affinity": a})
		if err != nil {
			t.Fatal(err)
		}
		in := renderInput{caller: "etcd", namespace: "tenant-root", release: "etcd", values: raw}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			_, goErr := goRender(in)
			_, helmErr := helmRender(t, h, in)
			switch {
			case goErr != nil && helmErr != nil:
				checkSameRefusal(t, goErr, helmErr)
				refused++
				if strings.Contains(firstMessage(goErr), "must be a pod affinity: ") {
					decoder++
				}
			case goErr != nil:
				t.Errorf("the library refuses (%v) but the chart renders", goErr)
			case helmErr != nil:
				t.Errorf("the chart refuses but the library renders: %v", helmErr)
			}
			if t.Failed() {
				t.Logf("values:\n%s", raw)
			}
		})
	}
	t.Logf("%s: affinities: %d of %d refused by both with the same message, %d of them by the decoder", h.name(), refused, cases, decoder)
}

// fullSpread is a global spread constraint list setting every field of a
// corev1.TopologySpreadConstraint, valid.
func fullSpread() []any {
	return []any{map[string]any{
		"maxSkew": 2.0, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule", "minDomains": 3.0,
		"nodeAffinityPolicy": "Honor", "nodeTaintsPolicy": "Ignore", "matchLabelKeys": []any{"pod-template-hash"},
		"labelSelector": map[string]any{
			"matchLabels":      map[string]any{"tier": "db"},
			"matchExpressions": []any{map[string]any{"key": "app", "operator": "In", "values": []any{"etcd"}}},
		},
	}}
}

// TestSpreadDecodeTwin: global spread constraints with values of the wrong
// type or unknown fields anywhere are refused by both charts with the
// library's message, as TestAffinityDecodeTwin does for the affinity.
func TestSpreadDecodeTwin(t *testing.T) {
	forEachHelm(t, spreadDecodeTwin)
}

func spreadDecodeTwin(t *testing.T, h helm) {
	r := rand.New(rand.NewSource(7))
	const cases = 200
	refused := 0
	for i := 0; i < cases; i++ {
		l := fullSpread()
		for n := 1 + r.Intn(3); n > 0; n-- {
			mutate(r, l)
		}
		body, err := yaml.Marshal(map[string]any{"topologySpreadConstraints": l})
		if err != nil {
			t.Fatal(err)
		}
		raw, err := yaml.Marshal(map[string]any{"_cluster": map[string]any{"scheduling": map[string]any{"globalAppTopologySpreadConstraints": string(body)}}})
		if err != nil {
			t.Fatal(err)
		}
		in := renderInput{caller: "etcd", namespace: "tenant-root", release: "etcd", values: raw}
		if i%2 == 1 {
			in = renderInput{caller: "cluster", namespace: "tenant-demo", release: "kubernetes-demo", values: raw}
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			_, goErr := goRender(in)
			_, helmErr := helmRender(t, h, in)
			switch {
			case goErr != nil && helmErr != nil:
				// The library names a value of the wrong type at its
				// element and field; the chart's twin refuses the list.
				// Any other refusal must be the same.
				if spreadElementRefusal(goErr, helmErr) {
					refused++
					break
				}
				checkSameRefusal(t, goErr, helmErr)
				refused++
			case goErr != nil:
				t.Errorf("the library refuses (%v) but the chart renders", goErr)
			case helmErr != nil:
				t.Errorf("the chart refuses but the library renders: %v", helmErr)
			}
			if t.Failed() {
				t.Logf("%s values:\n%s", in.caller, raw)
			}
		})
	}
	t.Logf("%s: spread constraints: %d of %d refused by both with the same message", h.name(), refused, cases)
}

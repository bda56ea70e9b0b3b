package chartgen

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/plainjson"
	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/util/validation"
)

// chartFiles are a caller's application chart: Chart.yaml (depending on
// the library chart), values.yaml and values.schema.json in that chart's
// own values shape, the one template that renders the stack, and the ci/
// values `helm lint` and chart-testing render.
func chartFiles(caller naming.Caller, version string) ([]File, error) {
	var name, description, values string
	var schema map[string]any
	var ci []File
	switch caller {
	case naming.CallerEtcd:
		name, values, schema, ci = "etcd", etcdValues(), etcdSchema(), etcdCIValues
		description = "Cozystack's shared etcd of a tenant namespace (install as release \"etcd\"), generated from the etcdshapes builders."
	case naming.CallerCluster:
		name, values, schema, ci = "kubernetes-etcd", clusterValues(), clusterSchema(), clusterCIValues
		description = "The etcd of one Cozystack tenant Kubernetes cluster (install as the kubernetes chart's release \"kubernetes-<name>\"), generated from the etcdshapes builders."
	}
	chart := fmt.Sprintf(`# %s
apiVersion: v2
name: %s
description: %s
type: application
version: %s
dependencies:
  # The library chart with the templates: helm dependency build fetches it
  # into charts/ (see charts/README.md).
  - name: %s
    version: %s
    repository: %s
`, Header, name, jsonQuote(description), version, LibraryName, jsonQuote(version), jsonQuote(LibraryRepository))
	schema["$comment"] = Header
	js, err := plainjson.Marshal(schema, "  ")
	if err != nil {
		return nil, err
	}
	files := []File{
		{Path: "Chart.yaml", Data: []byte(chart)},
		{Path: "values.schema.json", Data: append(js, '\n')},
		{Path: "values.yaml", Data: []byte(values)},
		{Path: "templates/etcd.yaml", Data: []byte(tplHeader("") + fmt.Sprintf("{{ include \"etcdshapes.stack\" (dict \"root\" $ \"caller\" %q) }}\n", caller))},
	}
	for _, f := range ci {
		files = append(files, File{Path: f.Path, Data: []byte("# " + Header + "\n" + string(f.Data))})
	}
	return files, nil
}

// The ci/ values: chart-testing renders the chart with each, and the
// documented `helm lint --strict` runs them. Together they reach every
// object and both ways of each decision (the quick tests and the checks).
var (
	etcdCIValues = []File{
		{Path: "ci/defaults-values.yaml", Data: []byte("# The chart's defaults.\n{}\n")},
		{Path: "ci/custom-values.yaml", Data: []byte(`# Everything set: five members on a 10Gi class, custom resources and
# affinity, etcd auth, the platform's ratios and a zone spread.
version: "3.6.11"
replicas: 5
size: 10Gi
storageClass: local
resources:
  cpu: 2
  memory: 2Gi
  ephemeral-storage: 1Gi
affinity:
  podAntiAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
    - labelSelector:
        matchLabels:
          app.kubernetes.io/instance: etcd
      topologyKey: kubernetes.io/hostname
auth:
  enabled: true
  rootCredentialsSecret: etcd-root-credentials
_cluster:
  cpu-allocation-ratio: "4"
  memory-allocation-ratio: 1.5
  scheduling:
    globalAppTopologySpreadConstraints: |
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: DoNotSchedule
`)},
	}
	clusterCIValues = []File{
		{Path: "ci/defaults-values.yaml", Data: []byte("# The chart's defaults.\n{}\n")},
		{Path: "ci/single-values.yaml", Data: []byte(`# One member on the replicated class with etcd auth, the platform's ratios
# and spread.
etcd:
  replicas: 1
  auth:
    enabled: true
    rootCredentialsSecret: kubernetes-single-etcd-root-credentials
_cluster:
  cpu-allocation-ratio: 2
  etcd-storage-class-local: local
  etcd-storage-class-replicated: replicated
  scheduling:
    globalAppTopologySpreadConstraints: |
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: ScheduleAnyway
`)},
	}
)

// etcdValues is the etcd chart's values.yaml with the library's defaults.
// The platform's _cluster map is not a chart value: Cozystack passes it.
func etcdValues() string {
	return fmt.Sprintf(`# %s
## etcd version, X.Y.Z.
version: %s
## Number of etcd members, 1 to %d.
replicas: %d
## Size of each member's data volume: any Kubernetes quantity (4Gi, 10G, 5000000000).
size: %s
## StorageClass of the data volumes; empty uses the cluster's default.
storageClass: ""
## Limits of the etcd container, a flat map of resource names to quantities.
## Requests derive from the platform's allocation ratios (_cluster).
resources:
  cpu: %s
  memory: %s
## Affinity of the members; empty means a soft anti-affinity across nodes.
affinity: {}
%s`, Header, jsonQuote(etcd.DefaultVersion), etcd.MaxReplicas, etcd.DefaultReplicas, etcd.DefaultSize, etcd.DefaultCPU, etcd.DefaultMemory, authValuesText(""))
}

// authValuesText documents the auth map in a values.yaml, each line after
// indent: commented out, since auth is off by default (as upstream) and a
// render that sets it is checked in full.
func authValuesText(indent string) string {
	const text = `## etcd authentication, so that each tenant control plane on this etcd
## reaches only its own keys (Kamaji grants each a role on its prefix). Off
## by default, as upstream. Immutable once the etcd exists: choose it at
## creation (an upgrade that changes it is refused; delete and recreate).
## rootCredentialsSecret names a kubernetes.io/basic-auth Secret of this
## namespace (username root, the root password) that you create once,
## before the etcd (docs/auth.md of etcdshapes).
# auth:
#   enabled: true
#   rootCredentialsSecret: etcd-root-credentials
`
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			b.WriteString(indent + l)
		}
	}
	return b.String()
}

// clusterValues are the kubernetes chart's etcd values; the chart's other
// values do not concern its etcd and are accepted as they are.
func clusterValues() string {
	return fmt.Sprintf(`# %s
etcd:
  ## etcd members backing this cluster's control plane: 3 (Raft quorum) or 1
  ## (one member on a replicated StorageClass).
  replicas: %d
%s`, Header, etcd.DefaultReplicas, authValuesText("  "))
}

// The schemas declare the type of every value the charts read, the types
// the library accepts, and every rule of a single value that JSON Schema
// can state: the version's grammar and length, the replicas' range or
// choice, a quantity's grammar (schemaQuantityPattern) and length, the
// names' DNS-1123 grammar and length. Helm refuses such a value before
// any template runs, in its own words ("at '/replicas': got string, want
// integer", "at '/version': '3.6' does not match pattern ..."). Every rule
// here refuses only values the library refuses (TestSchemaRefusesOnly
// WhatTheLibraryRefuses, and roundtrip/ input by input). A null is allowed
// wherever the library reads it as no value (Helm drops a null that
// overrides a values.yaml default before the schema sees it). What a
// schema cannot say (a quantity's range as a float64, rules across fields,
// the names derived from the release and the namespace, the live state)
// the helpers check. The keys the etcd chart ignores (_namespace, backup)
// are not declared: any content is accepted, as the library accepts it.

// schemaQuantityPattern is the quantity grammar as a JSON Schema pattern
// (Go's regexp, unanchored, hence the anchors): a number with at least one
// digit (resource.ParseQuantity reads "Mi" or "." as 0, the grammar and the
// CRDs' pattern refuse them, and so does the library), with the library's
// bound on the exponent (quantity.MaxExponent, two significant digits).
// No text the library accepts is refused.
const schemaQuantityPattern = `^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([numkMGTPE]|[KMGTPE]i|[eE][+-]?0*[0-9]{1,2})?$`

// schemaRatioPattern is an allocation ratio's text as the library reads
// it (strconv.ParseFloat's decimal and hexadecimal forms, without a sign
// but "+"; not the empty text, which the library refuses). A negative
// ratio, inf and nan are ones the library refuses by their value (at
// most etcd.MaxRatio, above 0); a number's range is the schema's
// exclusiveMinimum and maximum. What the pattern cannot say (a decimal a
// float64 does not hold, a text above the bound, a number whose decimal
// is longer than etcd.MaxRatioLength) the helpers refuse.
const schemaRatioPattern = `^[+]?(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+)$`

// schemaSubdomainPattern is a DNS-1123 subdomain (a StorageClass or a
// Secret name) or the empty text, which the library reads as none.
const schemaSubdomainPattern = `^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)?$`

// schemaVersionPattern is etcd.VersionPattern without its bound on each
// number's digits, which versionProp states apart (a run of more than
// etcd.MaxVersionDigits digits refused): Go's regexp compiles x{0,17} as
// seventeen nested optional x, and Helm compiles the pattern twice at
// every render (the meta-schema's "format": "regex" check, then the
// schema): the bounded pattern cost some 1,100 allocations a render, the
// two here some 250 (bench's TestPhases).
const schemaVersionPattern = `^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`

// anchored is an anchored pattern p as the schema states it, in a group:
// "(^...$)". Go's regexp tries a one-pass program for a pattern that
// begins with "^" (a third of its compile's allocations), and a group
// first skips that analysis; what the pattern matches is the same.
func anchored(p string) string {
	if !strings.HasPrefix(p, "^") || !strings.HasSuffix(p, "$") {
		panic("chartgen: schema pattern " + p + " is not anchored")
	}
	return "(" + p + ")"
}

// quantityProp is a quantity: a string of its grammar, at most
// quantity.MaxLength characters, or a number.
func quantityProp(desc string, types ...string) map[string]any {
	return with(prop(desc, types...), "pattern", anchored(schemaQuantityPattern), "maxLength", quantity.MaxLength)
}

// nameProp is an optional DNS-1123 subdomain.
func nameProp(desc string, types ...string) map[string]any {
	return with(prop(desc, types...), "pattern", anchored(schemaSubdomainPattern), "maxLength", validation.DNS1123SubdomainMaxLength)
}

// versionProp is etcd.ValidateVersion's grammar and bounds: X.Y.Z
// (schemaVersionPattern), no number of more than etcd.MaxVersionDigits
// digits, at most etcd.MaxVersionLength characters.
func versionProp(desc string) map[string]any {
	return with(prop(desc, "string"), "pattern", anchored(schemaVersionPattern), "maxLength", etcd.MaxVersionLength,
		"not", map[string]any{"pattern": fmt.Sprintf("[0-9]{%d}", etcd.MaxVersionDigits+1)})
}

// prop is a property of the given types.
func prop(desc string, types ...string) map[string]any {
	var t any = types
	if len(types) == 1 {
		t = types[0]
	}
	return map[string]any{"description": desc, "type": t}
}

func with(p map[string]any, kv ...any) map[string]any {
	for i := 0; i+1 < len(kv); i += 2 {
		p[kv[i].(string)] = kv[i+1]
	}
	return p
}

// platformSchema is the _cluster map's; the storage classes are names for
// a tenant cluster, which reads them, and any string for the etcd chart,
// which ignores them.
func platformSchema(caller naming.Caller) map[string]any {
	// The three ratios share one definition (ratioSchema): its pattern is
	// compiled once a render, not three times.
	ratio := func(desc string) map[string]any {
		return map[string]any{"description": desc, "$ref": "#/definitions/ratio"}
	}
	class := func(desc string) map[string]any { return prop(desc, "string", "null") }
	if caller == naming.CallerCluster {
		class = func(desc string) map[string]any { return nameProp(desc, "string", "null") }
	}
	return with(prop("Platform values Cozystack passes to every chart; the keys below are read, the others ignored.", "object", "null"),
		"properties", map[string]any{
			"cpu-allocation-ratio":               ratio("CPU request = limit / ratio (default " + etcd.DefaultCPUAllocationRatio + ")."),
			"memory-allocation-ratio":            ratio("Memory request = limit / ratio (default " + etcd.DefaultMemoryAllocationRatio + ")."),
			"ephemeral-storage-allocation-ratio": ratio("Ephemeral-storage request = limit / ratio (default " + etcd.DefaultEphemeralStorageAllocationRatio + ")."),
			"etcd-storage-class-local":           class("StorageClass of a 3-member tenant cluster etcd."),
			"etcd-storage-class-replicated":      class("StorageClass of a 1-member tenant cluster etcd."),
			"scheduling": with(prop("The platform's scheduling settings.", "object", "null"),
				"properties", map[string]any{
					"globalAppTopologySpreadConstraints": prop("A YAML string holding a topologySpreadConstraints: list; replaces the default hostname spread.", "string", "null"),
				}),
		})
}

// ratioSchema is an allocation ratio (platformSchema): a string of
// schemaRatioPattern, at most etcd.MaxRatioLength characters, or a number
// above 0 and at most etcd.MaxRatio.
func ratioSchema() map[string]any {
	return with(prop("An allocation ratio: request = limit / ratio.", "string", "number", "null"),
		"pattern", anchored(schemaRatioPattern), "maxLength", etcd.MaxRatioLength,
		"exclusiveMinimum", 0, "maximum", json.Number(strconv.FormatFloat(etcd.MaxRatio, 'g', -1, 64)))
}

// chartSchema is a chart's values.schema.json: an object of properties,
// and the definitions they share.
func chartSchema(title string, properties map[string]any) map[string]any {
	return map[string]any{
		"$schema":     "http://json-schema.org/draft-07/schema#",
		"type":        "object",
		"title":       title,
		"properties":  properties,
		"definitions": map[string]any{"ratio": ratioSchema()},
	}
}

func etcdSchema() map[string]any {
	replicas := with(prop(fmt.Sprintf("Number of etcd members, 1 to %d.", etcd.MaxReplicas), "integer"), "minimum", 1, "maximum", etcd.MaxReplicas)
	return chartSchema("etcd", map[string]any{
		"version":  with(versionProp("etcd version, X.Y.Z."), "default", etcd.DefaultVersion),
		"replicas": with(replicas, "default", etcd.DefaultReplicas),
		// A fraction is refused for size, as upstream's schema refuses
		// it ("1.5" as a string is a quantity); the helpers refuse one
		// for cpu and memory (a property each would cost every render
		// more than the check). A whole number of bytes is at least one
		// and at most quantity.Max (a float64 below 2^63, as Helm holds
		// it: the validator compares that float64).
		"size": with(quantityProp("Size of each member's data volume (any Kubernetes quantity).", "string", "integer"),
			"minimum", 1, "maximum", json.Number(quantity.Max), "default", etcd.DefaultSize),
		"storageClass": with(nameProp("StorageClass of the data volumes; empty uses the cluster's default.", "string"), "default", ""),
		"resources": with(prop("Limits of the etcd container, a flat map of resource names to quantities.", "object"),
			"additionalProperties", quantityProp("A quantity.", "string", "number", "null"),
			"default", map[string]any{"cpu": etcd.DefaultCPU, "memory": etcd.DefaultMemory}),
		"affinity": with(prop("Affinity of the members (a pod affinity); empty means a soft anti-affinity across nodes.", "object"), "default", map[string]any{}),
		"auth":     authSchema(),
		"_cluster": platformSchema(naming.CallerEtcd),
	})
}

// authSchema is the auth map's (values.AuthKeys), off when absent; a
// null reads as absent, as the library reads it (values.yaml has no auth
// default for Helm to drop a null over).
func authSchema() map[string]any {
	return with(prop("etcd authentication (spec.auth), off by default; immutable once the etcd exists.", "object", "null"),
		"properties", map[string]any{
			"enabled": with(prop("Turn etcd authentication on (a new etcd only).", "boolean", "null"), "default", false),
			"rootCredentialsSecret": with(nameProp("A kubernetes.io/basic-auth Secret of the namespace (username root, the root password); required when enabled.",
				"string", "null"), "default", ""),
		})
}

func clusterSchema() map[string]any {
	return chartSchema("kubernetes (etcd values)", map[string]any{
		"etcd": with(prop("Control-plane etcd of this cluster.", "object", "null"),
			"properties", map[string]any{
				"replicas": with(prop("etcd members: 1 or 3.", "integer", "null"), "enum", []any{clusterReplicas[0], clusterReplicas[1], nil}, "default", etcd.DefaultReplicas),
				"auth":     authSchema(),
			}),
		"_cluster": platformSchema(naming.CallerCluster),
	})
}

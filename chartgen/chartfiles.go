package chartgen

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
)

// chartFiles are Chart.yaml, values.yaml and values.schema.json of a
// caller's chart, in that chart's own values shape.
func chartFiles(caller, version string) ([]File, error) {
	var name, description, values string
	var schema map[string]any
	switch caller {
	case etcdshapes.CallerEtcd:
		name = "etcd"
		description = "Cozystack's shared etcd of a tenant namespace (install as release \"etcd\"), generated from the etcdshapes builders."
		values = etcdValues()
		schema = etcdSchema()
	case etcdshapes.CallerCluster:
		name = "kubernetes-etcd"
		description = "The etcd of one Cozystack tenant Kubernetes cluster (install as the kubernetes chart's release \"kubernetes-<name>\"), generated from the etcdshapes builders."
		values = clusterValues()
		schema = clusterSchema()
	}
	chart := fmt.Sprintf("# %s\napiVersion: v2\nname: %s\ndescription: %s\ntype: application\nversion: %s\n",
		Header, name, jsonQuote(description), version)
	schema["$comment"] = Header
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(schema); err != nil {
		return nil, err
	}
	return []File{
		{Path: "Chart.yaml", Data: []byte(chart)},
		{Path: "values.schema.json", Data: buf.Bytes()},
		{Path: "values.yaml", Data: []byte(values)},
	}, nil
}

// etcdValues is the etcd chart's values.yaml with the library's defaults.
// The platform's _cluster map is not a chart value: Cozystack passes it.
func etcdValues() string {
	return fmt.Sprintf(`# %s
## etcd version, X.Y.Z.
version: %s
## Number of etcd members, at least 1.
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
`, Header, jsonQuote(etcd.DefaultVersion), etcd.DefaultReplicas, etcd.DefaultSize, etcd.DefaultCPU, etcd.DefaultMemory)
}

// clusterValues are the kubernetes chart's etcd values; the chart's other
// values do not concern its etcd and are accepted as they are.
func clusterValues() string {
	return fmt.Sprintf(`# %s
etcd:
  ## etcd members backing this cluster's control plane: 3 (Raft quorum) or 1
  ## (one member on a replicated StorageClass).
  replicas: %d
`, Header, etcd.DefaultReplicas)
}

// The schemas document the values (descriptions, defaults, the expected
// type in words) and constrain nothing: a value of the wrong type, like every
// other bad value, is refused by the templates with the library's own message
// ("values.version: invalid value 3.6: must be a string"), where a "type" here
// would have Helm refuse it first in JSON-schema words. "properties" still
// describe a map's keys to editors, and apply only when the value is a map.

// typed is a property of the given (documented, unenforced) type.
func typed(typ, desc string, extra ...any) map[string]any {
	p := map[string]any{"description": desc + " Type: " + typ + "."}
	for i := 0; i+1 < len(extra); i += 2 {
		p[extra[i].(string)] = extra[i+1]
	}
	return p
}

// schemaDescription says why the schema types nothing.
const schemaDescription = "Values of the chart. The expected type of each value is in its description, not enforced here: the templates refuse a value of the wrong type, like any other bad value, with the etcdshapes library's message."

func platformSchema() map[string]any {
	ratio := func(desc string) map[string]any { return typed("string or number", desc) }
	return typed("map", "Platform values Cozystack passes to every chart.",
		"properties", map[string]any{
			"cpu-allocation-ratio":               ratio("CPU request = limit / ratio (default " + etcd.DefaultCPUAllocationRatio + ")."),
			"memory-allocation-ratio":            ratio("Memory request = limit / ratio (default " + etcd.DefaultMemoryAllocationRatio + ")."),
			"ephemeral-storage-allocation-ratio": ratio("Ephemeral-storage request = limit / ratio (default " + etcd.DefaultEphemeralStorageAllocationRatio + ")."),
			"etcd-storage-class-local":           typed("string", "StorageClass of a 3-member tenant cluster etcd."),
			"etcd-storage-class-replicated":      typed("string", "StorageClass of a 1-member tenant cluster etcd."),
			"scheduling": typed("map", "The platform's scheduling settings.",
				"properties", map[string]any{
					"globalAppTopologySpreadConstraints": typed("string", "A YAML string holding a topologySpreadConstraints: list; replaces the default hostname spread."),
				}),
		})
}

func etcdSchema() map[string]any {
	return map[string]any{
		"$schema":     "http://json-schema.org/draft-07/schema#",
		"type":        "object",
		"title":       "etcd",
		"description": schemaDescription,
		"properties": map[string]any{
			"version":      typed("string", "etcd version, X.Y.Z.", "default", etcd.DefaultVersion),
			"replicas":     typed("integer", "Number of etcd members, at least 1.", "default", etcd.DefaultReplicas),
			"size":         typed("string or number", "Size of each member's data volume (any Kubernetes quantity).", "default", etcd.DefaultSize),
			"storageClass": typed("string", "StorageClass of the data volumes; empty uses the cluster's default.", "default", ""),
			"resources": typed("map", "Limits of the etcd container, a flat map of resource names to quantities.",
				"default", map[string]any{"cpu": etcd.DefaultCPU, "memory": etcd.DefaultMemory}),
			"affinity": typed("map", "Affinity of the members; empty means a soft anti-affinity across nodes.", "default", map[string]any{}),
			"_cluster": platformSchema(),
		},
	}
}

func clusterSchema() map[string]any {
	return map[string]any{
		"$schema":     "http://json-schema.org/draft-07/schema#",
		"type":        "object",
		"title":       "kubernetes (etcd values)",
		"description": schemaDescription,
		"properties": map[string]any{
			"etcd": typed("map", "Control-plane etcd of this cluster.",
				"properties", map[string]any{
					"replicas": typed("integer", "etcd members: 1 or 3.", "default", etcd.DefaultReplicas),
				}),
			"_cluster": platformSchema(),
		},
	}
}

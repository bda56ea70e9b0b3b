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

// The schemas type the values the way the library reads them and leave the
// rest (patterns, ranges, allowed numbers) to the templates, which refuse
// with the library's own messages.

func platformSchema() map[string]any {
	ratio := func(desc string) map[string]any {
		return map[string]any{"type": []string{"string", "number"}, "description": desc}
	}
	return map[string]any{
		"type":        "object",
		"description": "Platform values Cozystack passes to every chart.",
		"properties": map[string]any{
			"cpu-allocation-ratio":               ratio("CPU request = limit / ratio (default " + etcd.DefaultCPUAllocationRatio + ")."),
			"memory-allocation-ratio":            ratio("Memory request = limit / ratio (default " + etcd.DefaultMemoryAllocationRatio + ")."),
			"ephemeral-storage-allocation-ratio": ratio("Ephemeral-storage request = limit / ratio (default " + etcd.DefaultEphemeralStorageAllocationRatio + ")."),
			"etcd-storage-class-local":           map[string]any{"type": "string", "description": "StorageClass of a 3-member tenant cluster etcd."},
			"etcd-storage-class-replicated":      map[string]any{"type": "string", "description": "StorageClass of a 1-member tenant cluster etcd."},
			"scheduling": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"globalAppTopologySpreadConstraints": map[string]any{
						"type":        "string",
						"description": "A YAML string holding a topologySpreadConstraints: list; replaces the default hostname spread.",
					},
				},
			},
		},
	}
}

func etcdSchema() map[string]any {
	return map[string]any{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"type":    "object",
		"title":   "etcd",
		"properties": map[string]any{
			"version":      map[string]any{"type": "string", "default": etcd.DefaultVersion, "description": "etcd version, X.Y.Z."},
			"replicas":     map[string]any{"type": "integer", "default": etcd.DefaultReplicas, "description": "Number of etcd members, at least 1."},
			"size":         map[string]any{"type": []string{"string", "number"}, "default": etcd.DefaultSize, "description": "Size of each member's data volume (any Kubernetes quantity)."},
			"storageClass": map[string]any{"type": "string", "default": "", "description": "StorageClass of the data volumes; empty uses the cluster's default."},
			"resources": map[string]any{
				"type":        "object",
				"default":     map[string]any{"cpu": etcd.DefaultCPU, "memory": etcd.DefaultMemory},
				"description": "Limits of the etcd container, a flat map of resource names to quantities.",
			},
			"affinity": map[string]any{"type": "object", "default": map[string]any{}, "description": "Affinity of the members; empty means a soft anti-affinity across nodes."},
			"_cluster": platformSchema(),
		},
	}
}

func clusterSchema() map[string]any {
	return map[string]any{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"type":    "object",
		"title":   "kubernetes (etcd values)",
		"properties": map[string]any{
			"etcd": map[string]any{
				"type":        "object",
				"description": "Control-plane etcd of this cluster.",
				"properties": map[string]any{
					"replicas": map[string]any{"type": "integer", "default": etcd.DefaultReplicas, "description": "etcd members: 1 or 3."},
				},
			},
			"_cluster": platformSchema(),
		},
	}
}

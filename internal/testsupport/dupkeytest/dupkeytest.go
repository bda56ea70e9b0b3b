// Package dupkeytest is, for tests, the class of keys given twice in one
// map: every form of it, as a live file (refused) and as a values file
// (read as Helm reads it: the later key). The Go API's test at the root
// and the CLI's in cmd/etcdshapes run every reader over this one table.
// Only tests import it.
package dupkeytest

import "strings"

// LiveForm is a live file (plan.ReadObjects, plan --live) of the class.
type LiveForm struct {
	// Name says what the form is.
	Name string
	// Doc is the live file.
	Doc string
	// Field, Key and Rule are its refusal: the field (the key's place,
	// "live[0].metadata.labels.app"), the value (the key; a document's
	// first line for a document that holds two) and a part of the rule
	// (where both keys are). Field "" means the file is read: a form
	// beside the class.
	Field, Key, Rule string
}

// secret is a live Secret's start, named name.
func secret(name string) string {
	return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: " + name + "\n  namespace: tenant-demo\n"
}

// LiveForms are the live files of the class, and of the forms beside it
// that are read.
func LiveForms() []LiveForm {
	const json = `{
  "apiVersion": "v1",
  "kind": "Secret",
  "metadata": {
    "name": "a",
    "namespace": "tenant-demo",
    "name": "b"
  }
}
`
	const jsonList = `{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "a", "labels": {"app": "x", "app": "y"}}}]}`
	return []LiveForm{
		{"two objects run together", secret("a") + secret("b"), "live[0].apiVersion", "apiVersion", "(lines 1 and 6): a key may appear once in a map"},
		{"two Lists run together", "apiVersion: v1\nkind: List\nitems:\n- " + indent(secret("a")) + "apiVersion: v1\nkind: List\nitems: []\n",
			"live[0].apiVersion", "apiVersion", "(lines 1 and 9)"},
		{"a List and an object run together", "apiVersion: v1\nkind: List\nitems: []\n" + secret("a"), "live[0].apiVersion", "apiVersion", "(lines 1 and 4)"},
		{"top level", secret("a") + "kind: ConfigMap\n", "live[0].kind", "kind", "(lines 2 and 6)"},
		{"nested", secret("a") + "  labels:\n    app: x\n    app: y\n", "live[0].metadata.labels.app", "app", "(lines 7 and 8)"},
		{"in a List item", "apiVersion: v1\nkind: List\nitems:\n- " + indent(secret("a")+"data:\n  k: YQ==\n  k: Yg==\n"),
			"live[0].items[0].data.k", "k", "(lines 10 and 11)"},
		{"in the second document", secret("a") + "---\n" + secret("b") + "data: {}\ndata: {}\n", "live[1].data", "data", "(lines 12 and 13)"},
		{"JSON", json, "live[0].metadata.name", "name", "(lines 5 and 7)"},
		{"JSON List on one line", jsonList, "live[0].items[0].metadata.labels.app", "app", "(line 1, columns 124 and 136)"},
		{"flow style", "apiVersion: v1\nkind: Secret\nmetadata: {name: a, namespace: tenant-demo, name: b}\n", "live[0].metadata.name", "name", "(line 3, columns 12 and 45)"},
		{"quoted and plain", secret("a") + "stringData:\n  k: a\n  'k': b\n", "live[0].stringData.k", "k", "(lines 7 and 8)"},
		{"merge key", secret("a") + "stringData:\n  <<: {k: a, l: b}\n  k: c\n", "live[0].stringData.k", "k", "(lines 7 (through the << merge key) and 8)"},
		{"number and string", secret("a") + "stringData:\n  1: a\n  \"1\": b\n", "live[0].stringData.1", "1", "is two keys of one map that are one JSON key (lines 7 and 8)"},
		{"two JSON values in one document", "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": []}\n{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": []}\n",
			"live[0]", `{"apiVersion": "v1", "kind": "List", "items": []} …`, "holds another document or JSON value from line 2 after the first"},
		{"a YAML document after its end", secret("a") + "...\n" + secret("b"), "live[0]", "apiVersion: v1 …", "holds another document or JSON value from line 7 after the first"},
		{"a List with an object's fields", "apiVersion: v1\nkind: List\nitems: []\nspec: {}\n", "live[0].spec", "spec", "is not a field of a List"},
		{"items in an object", secret("a") + "items: []\n", "live[0].kind", "Secret", "is not a List's kind"},
		// Beside the class: read.
		{"keys of different case", secret("a") + "  labels:\n    app: x\n    App: z\n", "", "", ""},
		{"a merge key adding keys", secret("a") + "stringData:\n  <<: {k: a}\n  l: b\n", "", "", ""},
		{"the same key in two maps", secret("a") + "  labels: {k: a}\n  annotations: {k: a}\n", "", "", ""},
	}
}

// indent indents a block by two spaces after its first line (which
// follows a "- ").
func indent(s string) string {
	return strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}

// ValuesForm is an etcd chart values file of the class, which Helm (and
// so values.Merge and -f) reads as Later: each key given twice is the
// later one. Refused ones (Field set) are two keys that are one JSON key,
// which Helm keeps either of by chance.
type ValuesForm struct {
	// Name says what the form is.
	Name string
	// Doc is the values file; Later the same with only the later keys.
	Doc, Later string
	// SetJSON is the form as a --set-json argument ("" none), read as
	// Later too.
	SetJSON string
	// Field, Key and Rule are the refusal of Doc, when it is refused.
	Field, Key, Rule string
}

// spread is a values file with global spread constraints c.
func spread(c string) string {
	return "_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: |\n      topologySpreadConstraints:\n      - " +
		strings.ReplaceAll(strings.TrimSuffix(c, "\n"), "\n", "\n        ") + "\n"
}

// ValuesForms are the values files of the class.
func ValuesForms() []ValuesForm {
	const zone = "topologyKey: topology.kubernetes.io/zone\nwhenUnsatisfiable: DoNotSchedule\n"
	return []ValuesForm{
		{Name: "top level", Doc: "replicas: 3\nsize: 4Gi\nreplicas: 1\n", Later: "size: 4Gi\nreplicas: 1\n"},
		{Name: "nested", Doc: "resources:\n  cpu: 1\n  memory: 1Gi\n  cpu: 2\n", Later: "resources:\n  memory: 1Gi\n  cpu: 2\n", SetJSON: `resources={"cpu":1,"memory":"1Gi","cpu":2}`},
		{Name: "flow style", Doc: "resources: {memory: 1Gi, memory: 2Gi}\n", Later: "resources: {memory: 2Gi}\n"},
		{Name: "JSON", Doc: `{"size": "4Gi", "version": "3.6.11", "size": "8Gi"}`, Later: `{"version": "3.6.11", "size": "8Gi"}`, SetJSON: `size="4Gi",size="8Gi"`},
		{Name: "in a list item", Doc: "affinity:\n  podAntiAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n    - topologyKey: a\n      topologyKey: kubernetes.io/hostname\n",
			Later:   "affinity:\n  podAntiAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n    - topologyKey: kubernetes.io/hostname\n",
			SetJSON: `affinity={"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"a","topologyKey":"kubernetes.io/hostname"}]}}`},
		{Name: "merge key", Doc: "resources:\n  <<: {cpu: 1, memory: 1Gi}\n  cpu: 2\n", Later: "resources: {cpu: 2, memory: 1Gi}\n"},
		{Name: "in the spread constraints' YAML", Doc: spread("maxSkew: 1\n" + zone + "maxSkew: 2\n"), Later: spread(zone + "maxSkew: 2\n")},
		{Name: "keys of different case", Doc: "_namespace: {a: 1, A: 2}\n", Later: "_namespace: {a: 1, A: 2}\n"},
		{Name: "number and string", Doc: "affinity:\n  podAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n    - topologyKey: kubernetes.io/hostname\n      labelSelector:\n        matchLabels:\n          1: a\n          \"1\": b\n",
			Field: "values[0].affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchLabels.1", Key: "1", Rule: "(lines 7 and 8), as 1 and \"1\" are: Helm keeps either, by chance"},
		// Where no chart reads (the platform's _namespace), which of the
		// two Helm keeps changes nothing: no refusal.
		{Name: "number and string where no chart reads", Doc: "_namespace:\n  1: a\n  \"1\": b\n", Later: "_namespace:\n  \"1\": b\n"},
	}
}

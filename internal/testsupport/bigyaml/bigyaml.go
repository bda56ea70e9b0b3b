// Package bigyaml generates large, realistic inputs for the tests and
// benchmarks of the input limits (internal/inputlimit): a live file as
// `kubectl get -o yaml --show-managed-fields` prints a busy tenant
// namespace, and a large values file as a platform passes one. Both are
// printed by sigs.k8s.io/yaml, the printer kubectl uses, so that their
// shape (block scalars for multi-line strings, indentless lists, quoted
// numbers) is kubectl's.
package bigyaml

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"sigs.k8s.io/yaml"
)

// root is the repository's root directory.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// fixtureItems are the objects of testdata/apiserver/live.yaml: the etcd
// chart's and a tenant cluster's stacks as kube-apiserver returns them
// after server-side apply, managed fields included.
func fixtureItems() ([]map[string]any, error) {
	b, err := os.ReadFile(filepath.Join(root(), "testdata", "apiserver", "live.yaml"))
	if err != nil {
		return nil, err
	}
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := yaml.Unmarshal(b, &list); err != nil {
		return nil, err
	}
	return list.Items, nil
}

// pod is an etcd member Pod as `kubectl get pod -o yaml
// --show-managed-fields` prints it: the operator's and the kubelet's
// managed fields, status, and a last-applied annotation (a JSON document
// in a block scalar).
func pod(ns string, i int) map[string]any {
	name := fmt.Sprintf("etcd-%d-%d", i/3, i%3)
	ts := "2026-11-30T08:15:" + fmt.Sprintf("%02d", i%60) + "Z"
	container := map[string]any{
		"name":  "etcd",
		"image": "registry.k8s.io/etcd:3.6.11-0",
		"command": []any{"etcd", "--name=" + name, "--data-dir=/var/run/etcd/default.etcd",
			"--listen-client-urls=https://0.0.0.0:2379", "--advertise-client-urls=https://" + name + ".etcd-headless." + ns + ".svc:2379",
			"--listen-peer-urls=https://0.0.0.0:2380", "--initial-cluster-state=new", "--quota-backend-bytes=4080218931",
			"--cert-file=/etc/etcd/pki/server/cert/tls.crt", "--key-file=/etc/etcd/pki/server/cert/tls.key",
			"--client-cert-auth", "--trusted-ca-file=/etc/etcd/pki/server/ca/ca.crt", "--peer-client-cert-auth"},
		"ports": []any{
			map[string]any{"containerPort": 2379, "name": "client", "protocol": "TCP"},
			map[string]any{"containerPort": 2380, "name": "peer", "protocol": "TCP"},
			map[string]any{"containerPort": 2381, "name": "metrics", "protocol": "TCP"},
		},
		"resources": map[string]any{
			"limits":   map[string]any{"cpu": "1", "memory": "512Mi"},
			"requests": map[string]any{"cpu": "100m", "memory": "536870912"},
		},
		"livenessProbe":  map[string]any{"httpGet": map[string]any{"path": "/livez", "port": 2381, "scheme": "HTTP"}, "failureThreshold": 3, "periodSeconds": 10, "successThreshold": 1, "timeoutSeconds": 1},
		"readinessProbe": map[string]any{"httpGet": map[string]any{"path": "/readyz", "port": 2381, "scheme": "HTTP"}, "failureThreshold": 3, "periodSeconds": 10, "successThreshold": 1, "timeoutSeconds": 1},
		"volumeMounts": []any{
			map[string]any{"mountPath": "/var/run/etcd", "name": "data"},
			map[string]any{"mountPath": "/etc/etcd/pki/server/cert", "name": "server-cert", "readOnly": true},
			map[string]any{"mountPath": "/etc/etcd/pki/server/ca", "name": "server-ca", "readOnly": true},
			map[string]any{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "name": "kube-api-access-x7k2p", "readOnly": true},
		},
		"terminationMessagePath":   "/dev/termination-log",
		"terminationMessagePolicy": "File",
		"imagePullPolicy":          "IfNotPresent",
	}
	spec := map[string]any{
		"containers":                    []any{container},
		"dnsPolicy":                     "ClusterFirst",
		"enableServiceLinks":            true,
		"hostname":                      name,
		"subdomain":                     "etcd-headless",
		"nodeName":                      "node-" + strconv.Itoa(i%7),
		"preemptionPolicy":              "PreemptLowerPriority",
		"priority":                      0,
		"restartPolicy":                 "Always",
		"schedulerName":                 "default-scheduler",
		"securityContext":               map[string]any{},
		"serviceAccount":                "default",
		"serviceAccountName":            "default",
		"terminationGracePeriodSeconds": 30,
		"tolerations": []any{
			map[string]any{"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300},
			map[string]any{"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists", "tolerationSeconds": 300},
		},
		"volumes": []any{
			map[string]any{"name": "data", "persistentVolumeClaim": map[string]any{"claimName": "data-" + name}},
			map[string]any{"name": "server-cert", "secret": map[string]any{"defaultMode": 420, "secretName": "etcd-server-tls"}},
			map[string]any{"name": "server-ca", "secret": map[string]any{"defaultMode": 420, "secretName": "etcd-ca-tls"}},
			map[string]any{"name": "kube-api-access-x7k2p", "projected": map[string]any{"defaultMode": 420, "sources": []any{
				map[string]any{"serviceAccountToken": map[string]any{"expirationSeconds": 3607, "path": "token"}},
				map[string]any{"configMap": map[string]any{"name": "kube-root-ca.crt", "items": []any{map[string]any{"key": "ca.crt", "path": "ca.crt"}}}},
			}}},
		},
	}
	applied, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": name, "namespace": ns}, "spec": spec})
	cond := func(t string) map[string]any {
		return map[string]any{"lastProbeTime": nil, "lastTransitionTime": ts, "status": "True", "type": t}
	}
	fields := func(m map[string]any) map[string]any { return m }
	return map[string]any{
		"apiVersion": "v1",
		"kind":       "Pod",
		"metadata": map[string]any{
			"name":              name,
			"namespace":         ns,
			"uid":               fmt.Sprintf("6f1c2a8e-%04x-4b9e-9c1d-%012x", i%65536, i),
			"resourceVersion":   strconv.Itoa(4000000 + i),
			"creationTimestamp": ts,
			"labels":            map[string]any{"app.kubernetes.io/instance": "etcd", "app.kubernetes.io/name": "etcd", "app.kubernetes.io/managed-by": "etcd-operator", "apps.kubernetes.io/pod-index": strconv.Itoa(i % 3), "statefulset.kubernetes.io/pod-name": name},
			"annotations":       map[string]any{"kubectl.kubernetes.io/last-applied-configuration": string(applied) + "\n"},
			"ownerReferences":   []any{map[string]any{"apiVersion": "apps/v1", "blockOwnerDeletion": true, "controller": true, "kind": "StatefulSet", "name": "etcd", "uid": "0b6c8a3e-1d2f-4c5b-9e7a-8f9d0c1b2a3e"}},
			"managedFields": []any{
				map[string]any{"apiVersion": "v1", "fieldsType": "FieldsV1", "manager": "kube-controller-manager", "operation": "Update", "time": ts,
					"fieldsV1": fields(map[string]any{"f:metadata": map[string]any{"f:labels": map[string]any{".": map[string]any{}, "f:app.kubernetes.io/instance": map[string]any{}, "f:app.kubernetes.io/name": map[string]any{}, "f:statefulset.kubernetes.io/pod-name": map[string]any{}}, "f:ownerReferences": map[string]any{".": map[string]any{}, `k:{"uid":"0b6c8a3e-1d2f-4c5b-9e7a-8f9d0c1b2a3e"}`: map[string]any{}}},
						"f:spec": map[string]any{`f:containers`: map[string]any{`k:{"name":"etcd"}`: map[string]any{".": map[string]any{}, "f:command": map[string]any{}, "f:image": map[string]any{}, "f:imagePullPolicy": map[string]any{}, "f:livenessProbe": map[string]any{".": map[string]any{}, "f:failureThreshold": map[string]any{}, "f:httpGet": map[string]any{".": map[string]any{}, "f:path": map[string]any{}, "f:port": map[string]any{}}}, "f:name": map[string]any{}, "f:ports": map[string]any{".": map[string]any{}, `k:{"containerPort":2379,"protocol":"TCP"}`: map[string]any{".": map[string]any{}, "f:containerPort": map[string]any{}, "f:name": map[string]any{}}}, "f:resources": map[string]any{".": map[string]any{}, "f:limits": map[string]any{".": map[string]any{}, "f:cpu": map[string]any{}, "f:memory": map[string]any{}}}}}, "f:hostname": map[string]any{}, "f:subdomain": map[string]any{}, "f:volumes": map[string]any{".": map[string]any{}, `k:{"name":"data"}`: map[string]any{".": map[string]any{}, "f:name": map[string]any{}, "f:persistentVolumeClaim": map[string]any{".": map[string]any{}, "f:claimName": map[string]any{}}}}}})},
				map[string]any{"apiVersion": "v1", "fieldsType": "FieldsV1", "manager": "kubelet", "operation": "Update", "subresource": "status", "time": ts,
					"fieldsV1": map[string]any{"f:status": map[string]any{"f:conditions": map[string]any{`k:{"type":"ContainersReady"}`: map[string]any{".": map[string]any{}, "f:lastProbeTime": map[string]any{}, "f:lastTransitionTime": map[string]any{}, "f:status": map[string]any{}, "f:type": map[string]any{}}, `k:{"type":"Ready"}`: map[string]any{".": map[string]any{}, "f:lastProbeTime": map[string]any{}, "f:lastTransitionTime": map[string]any{}, "f:status": map[string]any{}, "f:type": map[string]any{}}}, "f:containerStatuses": map[string]any{}, "f:hostIP": map[string]any{}, "f:phase": map[string]any{}, "f:podIP": map[string]any{}, "f:podIPs": map[string]any{".": map[string]any{}, `k:{"ip":"10.244.1.17"}`: map[string]any{".": map[string]any{}, "f:ip": map[string]any{}}}, "f:startTime": map[string]any{}}}},
			},
		},
		"spec": spec,
		"status": map[string]any{
			"phase":      "Running",
			"hostIP":     "192.168.1." + strconv.Itoa(10+i%7),
			"podIP":      "10.244." + strconv.Itoa(i%250) + "." + strconv.Itoa(i%200+2),
			"podIPs":     []any{map[string]any{"ip": "10.244." + strconv.Itoa(i%250) + "." + strconv.Itoa(i%200+2)}},
			"qosClass":   "Burstable",
			"startTime":  ts,
			"conditions": []any{cond("PodReadyToStartContainers"), cond("Initialized"), cond("Ready"), cond("ContainersReady"), cond("PodScheduled")},
			"containerStatuses": []any{map[string]any{"containerID": "containerd://" + strings.Repeat("4f", 32), "image": "registry.k8s.io/etcd:3.6.11-0",
				"imageID": "registry.k8s.io/etcd@sha256:" + strings.Repeat("a1", 32), "lastState": map[string]any{}, "name": "etcd", "ready": true, "restartCount": i % 4,
				"started": true, "state": map[string]any{"running": map[string]any{"startedAt": ts}},
				"volumeMounts": []any{map[string]any{"mountPath": "/var/run/etcd", "name": "data"}, map[string]any{"mountPath": "/etc/etcd/pki/server/cert", "name": "server-cert", "readOnly": true, "recursiveReadOnly": "Disabled"}}}},
		},
	}
}

// renamed is a deep copy of obj with a name and uid unique to i, in
// namespace ns.
func renamed(obj map[string]any, ns string, i int) map[string]any {
	b, _ := json.Marshal(obj)
	var c map[string]any
	_ = json.Unmarshal(b, &c)
	meta, _ := c["metadata"].(map[string]any)
	if meta != nil {
		if name, ok := meta["name"].(string); ok {
			meta["name"] = name + "-" + strconv.Itoa(i)
		}
		if _, ok := meta["namespace"]; ok {
			meta["namespace"] = ns
		}
		meta["uid"] = fmt.Sprintf("0e8a4b1c-%04x-4d2e-8f3a-%012x", i%65536, i)
	}
	return c
}

// LiveList is a List as `kubectl get -o yaml --show-managed-fields`
// prints a busy namespace, of at least nodes YAML nodes (Lex's count)
// and close to it: for each step, the fixture's two stacks (43 objects as
// kube-apiserver returns them) and 30 etcd member Pods, each copy renamed.
func LiveList(ns string, nodes int) ([]byte, error) {
	_, b, err := liveList(ns, nodes)
	return b, err
}

// liveList is LiveList, with its items. The List is printed a step at a
// time, as the steps are counted: the printer sorts a map's keys (the
// List's are apiVersion, items, kind, metadata) and prints a list under
// a key without indenting it, so the List's items are its steps' printed
// items one after the other (TestLiveListIsOnePrint), and printing the
// List whole once more would double the cost.
func liveList(ns string, nodes int) ([]any, []byte, error) {
	fixture, err := fixtureItems()
	if err != nil {
		return nil, nil, err
	}
	var items []any
	printed := []byte("apiVersion: v1\nitems:\n")
	// itemsOf is what the printer prints for the items of
	// {"items": step}: all but its first line, "items:".
	itemsOf := func(step []any) ([]byte, error) {
		b, err := yaml.Marshal(map[string]any{"items": step})
		if err != nil {
			return nil, err
		}
		if !bytes.HasPrefix(b, []byte("items:\n")) {
			return nil, fmt.Errorf("bigyaml: the printer printed %.40q for a list of items", b)
		}
		return b[len("items:\n"):], nil
	}
	total := 0
	for i := 0; total < nodes; i++ {
		var step []any
		for _, o := range fixture {
			step = append(step, renamed(o, ns, i))
		}
		for p := range 30 {
			step = append(step, pod(ns, i*30+p))
		}
		b, err := itemsOf(step)
		if err != nil {
			return nil, nil, err
		}
		// Lex counts the document {"items": step}: "items", the list and
		// the items' nodes; the List counts the list once.
		n := inputlimit.Lex(append([]byte("items:\n"), b...)).Nodes
		if total+n > nodes {
			// The last step, an item at a time.
			for _, it := range step {
				b, err := itemsOf([]any{it})
				if err != nil {
					return nil, nil, err
				}
				items = append(items, it)
				printed = append(printed, b...)
				if total += inputlimit.Lex(append([]byte("items:\n"), b...)).Nodes - 3; total >= nodes {
					break
				}
			}
			break
		}
		items = append(items, step...)
		printed = append(printed, b...)
		total += n - 3
	}
	return items, append(printed, "kind: List\nmetadata:\n  resourceVersion: \"\"\n"...), nil
}

// Values is an etcd chart values file as a platform passes one, of at
// least nodes YAML nodes (Lex's count) and close to it: the chart's own
// values, then under _cluster (whose unknown keys the chart ignores)
// platform settings of every YAML kind and Grafana dashboards as JSON
// documents in block scalars, and the _namespace map.
func Values(nodes int) ([]byte, error) {
	cluster := map[string]any{
		"cpu-allocation-ratio":               10,
		"memory-allocation-ratio":            1,
		"ephemeral-storage-allocation-ratio": 40,
		"etcd-storage-class-local":           "local",
		"etcd-storage-class-replicated":      "replicated",
	}
	dashboard := func(i int) string {
		var panels []any
		for p := range 40 {
			panels = append(panels, map[string]any{"id": p, "type": "timeseries", "title": fmt.Sprintf("etcd panel %d-%d", i, p),
				"gridPos":     map[string]any{"h": 8, "w": 12, "x": p % 2 * 12, "y": p / 2 * 8},
				"targets":     []any{map[string]any{"expr": `sum(rate(etcd_disk_wal_fsync_duration_seconds_bucket{namespace="$namespace",pod=~"$pod"}[5m])) by (le)`, "legendFormat": "{{pod}}", "refId": "A"}},
				"fieldConfig": map[string]any{"defaults": map[string]any{"unit": "s", "min": 0, "thresholds": map[string]any{"mode": "absolute", "steps": []any{map[string]any{"color": "green", "value": nil}, map[string]any{"color": "red", "value": 0.5}}}}}})
		}
		b, _ := json.MarshalIndent(map[string]any{"title": fmt.Sprintf("etcd %d", i), "uid": fmt.Sprintf("etcd-%d", i), "panels": panels, "schemaVersion": 39}, "", "  ")
		return string(b) + "\n"
	}
	// doc is the values file with the platform settings from, to-1.
	doc := func(from, to int) ([]byte, error) {
		c := map[string]any{}
		for key, v := range cluster {
			c[key] = v
		}
		for i := from; i < to; i++ {
			switch i % 8 {
			case 0:
				c[fmt.Sprintf("feature-%d", i)] = i%3 == 0
			case 1:
				c[fmt.Sprintf("quota-%d", i)] = 1000 + i
			case 2:
				c[fmt.Sprintf("storage-class-%d", i)] = fmt.Sprintf("class-%d", i)
			case 3:
				c[fmt.Sprintf("tolerations-%d", i)] = []any{map[string]any{"key": "node-role.kubernetes.io/etcd", "operator": "Exists", "effect": "NoSchedule"}}
			case 4:
				c[fmt.Sprintf("limits-%d", i)] = map[string]any{"cpu": "2", "memory": "4Gi", "ephemeral-storage": "10Gi"}
			case 5:
				c[fmt.Sprintf("endpoint-%d", i)] = fmt.Sprintf("https://s3-%d.example.com:443/bucket-%d?region=eu-west-1", i, i)
			case 6:
				c[fmt.Sprintf("ratio-%d", i)] = 1.5
			case 7:
				if i%1024 == 7 {
					c[fmt.Sprintf("dashboard-%d", i)] = dashboard(i)
				} else {
					c[fmt.Sprintf("labels-%d", i)] = map[string]any{"app.kubernetes.io/part-of": "cozystack", "tier": "control-plane"}
				}
			}
		}
		return yaml.Marshal(map[string]any{
			"version": "3.6.11", "replicas": 3, "size": "10Gi",
			"resources":  map[string]any{"cpu": "2", "memory": "2Gi"},
			"_cluster":   c,
			"_namespace": map[string]any{"etcd": "tenant-root", "monitoring": "tenant-root", "ingress": "tenant-root", "host": "example.org", "seaweedfs": "tenant-root"},
		})
	}
	count := func(from, to int) (int, []byte, error) {
		b, err := doc(from, to)
		if err != nil {
			return 0, nil, err
		}
		return inputlimit.Lex(b).Nodes, b, nil
	}
	n0, _, err := count(0, 0)
	if err != nil {
		return nil, err
	}
	// Each setting adds the nodes of its kind (i%8, and for 7 whether it
	// is a dashboard), wherever the printer sorts it: counted once a kind,
	// they give the least k that reaches nodes without printing the
	// whole file more than once.
	per := map[int]int{}
	kind := func(i int) int {
		if i%1024 == 7 {
			return 8
		}
		return i % 8
	}
	k, total := 0, n0
	for ; total < nodes; k++ {
		c, ok := per[kind(k)]
		if !ok {
			n, _, err := count(k, k+1)
			if err != nil {
				return nil, err
			}
			c = n - n0
			per[kind(k)] = c
		}
		total += c
	}
	n, b, err := count(0, k)
	if err != nil || n == total {
		return b, err
	}
	// The counts did not add up: search, as the node count grows
	// linearly with k.
	for {
		switch {
		case n < nodes:
			k += max(1, (nodes-n)/4)
		case n-nodes > 8 && k > 0:
			k -= max(1, (n-nodes)/4)
		default:
			return b, nil
		}
		if n, b, err = count(0, k); err != nil {
			return nil, err
		}
	}
}

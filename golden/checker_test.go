package golden_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testdata/crdcheck"
	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// stack renders the per-cluster stack with every optional API and returns
// each object's JSON form keyed by kind.
func stack(t *testing.T) map[string]map[string]any {
	t.Helper()
	objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{
		Namespace: "tenant-demo", Release: "kubernetes-demo",
		APIVersions: []string{etcdshapes.APICiliumNetworkPolicy, etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APIVMPodScrape},
	})
	require.NoError(t, err)
	out := map[string]map[string]any{}
	for _, o := range objs {
		raw, err := json.Marshal(o)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(raw, &m))
		out[o.GetObjectKind().GroupVersionKind().Kind] = m
	}
	return out
}

func validate(t *testing.T, c *crdcheck.Checker, m map[string]any) error {
	t.Helper()
	raw, err := json.Marshal(m)
	require.NoError(t, err)
	return c.ValidateJSON(raw)
}

func set(m map[string]any, value any, path ...string) {
	for _, p := range path[:len(path)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	if value == nil {
		delete(m, path[len(path)-1])
		return
	}
	m[path[len(path)-1]] = value
}

// TestCheckerRefuses shows that each layer of the check can fail: every
// mutation of a valid object must be refused with a message naming it.
func TestCheckerRefuses(t *testing.T) {
	c := crdcheck.ForTest(t)
	for kind, m := range stack(t) {
		require.NoError(t, validate(t, c, m), "the unmodified %s must pass", kind)
	}
	cases := []struct {
		name, kind string
		mutate     func(m map[string]any)
		want       string
	}{
		{"unknown spec field (pruning)", "EtcdCluster", func(m map[string]any) { set(m, "x", "spec", "bogus") }, "spec.bogus"},
		{"unknown nested field (pruning)", "EtcdCluster", func(m map[string]any) { set(m, true, "spec", "storage", "fast") }, "spec.storage.fast"},
		{"unknown metadata field", "EtcdCluster", func(m map[string]any) { set(m, "x", "metadata", "bogus") }, "metadata.bogus"},
		{"schema pattern", "EtcdCluster", func(m map[string]any) { set(m, "3.6", "spec", "version") }, "spec.version"},
		{"schema type", "EtcdCluster", func(m map[string]any) { set(m, "three", "spec", "replicas") }, "spec.replicas"},
		{"schema minimum", "EtcdCluster", func(m map[string]any) { set(m, -1, "spec", "replicas") }, "spec.replicas"},
		{"required field", "EtcdCluster", func(m map[string]any) { set(m, nil, "spec", "version") }, "spec.version"},
		{"CEL rule", "EtcdCluster", func(m map[string]any) {
			set(m, map[string]any{"serverIssuerRef": map[string]any{"name": "x"}}, "spec", "tls", "client", "certManager")
		}, "exactly one of spec.tls.client.serverSecretRef or spec.tls.client.certManager"},
		{"CEL rule on a cluster-scoped kind", "DataStore", func(m map[string]any) {
			set(m, map[string]any{}, "spec", "tlsConfig", "clientCertificate", "privateKey")
		}, "clientCertificate privateKey must have secretReference or content"},
		{"namespace on a cluster-scoped kind", "DataStore", func(m map[string]any) { set(m, "tenant-demo", "metadata", "namespace") }, "metadata.namespace"},
		{"no namespace on a namespaced kind", "Certificate", func(m map[string]any) { set(m, nil, "metadata", "namespace") }, "metadata.namespace"},
		{"bad name", "Issuer", func(m map[string]any) { set(m, "Not_A_Name", "metadata", "name") }, "metadata.name"},
		{"bad label", "VMPodScrape", func(m map[string]any) { set(m, map[string]any{"a b": "c"}, "metadata", "labels") }, "metadata.labels"},
		{"wrong apiVersion", "WorkloadMonitor", func(m map[string]any) { m["apiVersion"] = "cozystack.io/v9" }, "Unsupported value"},
		{"enum", "Certificate", func(m map[string]any) { set(m, "DSA", "spec", "privateKey", "algorithm") }, "spec.privateKey.algorithm"},
		{"non-empty status", "Certificate", func(m map[string]any) { set(m, "x", "status", "notAfter") }, "status"},
		{"CNP unknown field", "CiliumNetworkPolicy", func(m map[string]any) { set(m, 1, "spec", "ingressDenyAll") }, "spec.ingressDenyAll"},
		{"VPA enum", "VerticalPodAutoscaler", func(m map[string]any) { set(m, "Sometimes", "spec", "updatePolicy", "updateMode") }, "spec.updatePolicy.updateMode"},

		// Fields etcd-operator copies into the member Pods.
		{"member requests above limits", "EtcdCluster", func(m map[string]any) {
			set(m, map[string]any{"cpu": "2"}, "spec", "resources", "requests")
		}, "must be less than or equal to cpu limit"},
		{"member resource name", "EtcdCluster", func(m map[string]any) {
			set(m, map[string]any{"gpu": "1"}, "spec", "resources", "limits")
			set(m, nil, "spec", "resources", "requests")
		}, "standard resource"},
		{"duplicate spread constraint", "EtcdCluster", func(m map[string]any) {
			c := m["spec"].(map[string]any)["topologySpreadConstraints"].([]any)
			m["spec"].(map[string]any)["topologySpreadConstraints"] = append(c, c[0])
		}, "Duplicate value"},
		{"spread label selector", "EtcdCluster", func(m map[string]any) {
			c := m["spec"].(map[string]any)["topologySpreadConstraints"].([]any)[0].(map[string]any)
			c["labelSelector"] = map[string]any{"matchLabels": map[string]any{"bad key!": "x"}}
		}, "labelSelector"},
		{"affinity without topologyKey", "EtcdCluster", func(m map[string]any) {
			set(m, map[string]any{"podAntiAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": []any{map[string]any{}}}}, "spec", "affinity")
		}, "topologyKey"},

		// Built-in kinds.
		{"built-in unknown field", "Job", func(m map[string]any) { set(m, 1, "spec", "bogus") }, "bogus"},
		{"built-in field lost in the round trip", "CronJob", func(m map[string]any) { set(m, "x", "spec", "jobTemplate", "spec", "template", "spec", "hostname2") }, "hostname2"},
		{"Job name over 63", "Job", func(m map[string]any) { set(m, strings.Repeat("a", 64), "metadata", "name") }, "metadata.name"},
		{"CronJob name over 52", "CronJob", func(m map[string]any) { set(m, strings.Repeat("a", 53), "metadata", "name") }, "metadata.name"},
		{"Job restartPolicy", "Job", func(m map[string]any) { set(m, "Always", "spec", "template", "spec", "restartPolicy") }, "restartPolicy"},
		{"mount of a missing volume", "Job", func(m map[string]any) { set(m, []any{}, "spec", "template", "spec", "volumes") }, "volumeMounts"},
		{"requests above limits", "CronJob", func(m map[string]any) {
			containers := []any{map[string]any{"name": "c", "image": "i", "resources": map[string]any{
				"limits": map[string]any{"cpu": "1"}, "requests": map[string]any{"cpu": "2"}}}}
			set(m, containers, "spec", "jobTemplate", "spec", "template", "spec", "containers")
			set(m, []any{}, "spec", "jobTemplate", "spec", "template", "spec", "volumes")
		}, "must be less than or equal to cpu limit"},
		{"non-standard resource name", "Job", func(m map[string]any) {
			containers := []any{map[string]any{"name": "c", "image": "i", "resources": map[string]any{"limits": map[string]any{"gpu": "1"}}}}
			set(m, containers, "spec", "template", "spec", "containers")
		}, "standard resource"},
		{"Role verb", "Role", func(m map[string]any) {
			m["rules"] = []any{map[string]any{"apiGroups": []any{""}, "resources": []any{"secrets"}, "verbs": []any{"remove"}}}
		}, "rules[0].verbs[0]"},
		{"RoleBinding subject kind", "RoleBinding", func(m map[string]any) {
			m["subjects"] = []any{map[string]any{"kind": "Robot", "name": "r"}}
		}, "subjects[0].kind"},
		{"ServiceAccount bad name", "ServiceAccount", func(m map[string]any) { set(m, "-sa", "metadata", "name") }, "metadata.name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := stack(t)[tc.kind]
			require.NotNil(t, m, "the stack has no %s", tc.kind)
			tc.mutate(m)
			err := validate(t, c, m)
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestCheckerYAML(t *testing.T) {
	c := crdcheck.ForTest(t)
	objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo"})
	require.NoError(t, err)
	out, err := etcdshapes.Marshal(objs)
	require.NoError(t, err)
	require.NoError(t, c.ValidateYAML(out))

	dup := "---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: a\n  name: b\n  namespace: tenant-demo\n"
	require.ErrorContains(t, c.ValidateYAML([]byte(dup)), "name")
	unknownKind := "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n  namespace: tenant-demo\n"
	require.ErrorContains(t, c.ValidateYAML([]byte(unknownKind)), "apps/v1, Kind=Deployment")
	// One bad document among good ones is found.
	require.Error(t, c.ValidateYAML(append(out, []byte(unknownKind)...)))
}

func TestCovers(t *testing.T) {
	c := crdcheck.ForTest(t)
	require.True(t, c.Covers(schema.GroupVersionKind{Group: "etcd-operator.cozystack.io", Version: "v1alpha2", Kind: "EtcdCluster"}))
	require.True(t, c.Covers(batchv1.SchemeGroupVersion.WithKind("CronJob")))
	require.False(t, c.Covers(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}))
}

func TestRestrictedRefuses(t *testing.T) {
	base := func() *corev1.PodTemplateSpec {
		return &corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			SecurityContext: &corev1.PodSecurityContext{
				RunAsNonRoot:   ptr(true),
				SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
			},
			Containers: []corev1.Container{{
				Name: "c", Image: "i",
				SecurityContext: &corev1.SecurityContext{
					AllowPrivilegeEscalation: ptr(false),
					Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
				},
			}},
		}}
	}
	job := func(t *corev1.PodTemplateSpec) runtime.Object {
		return &batchv1.Job{Spec: batchv1.JobSpec{Template: *t}}
	}
	require.NoError(t, crdcheck.Restricted(crdcheck.PodTemplates(job(base()))[0]))
	for name, mutate := range map[string]func(*corev1.PodTemplateSpec){
		"root allowed":         func(p *corev1.PodTemplateSpec) { p.Spec.SecurityContext.RunAsNonRoot = nil },
		"no seccomp":           func(p *corev1.PodTemplateSpec) { p.Spec.SecurityContext.SeccompProfile = nil },
		"privilege escalation": func(p *corev1.PodTemplateSpec) { p.Spec.Containers[0].SecurityContext.AllowPrivilegeEscalation = nil },
		"capabilities kept":    func(p *corev1.PodTemplateSpec) { p.Spec.Containers[0].SecurityContext.Capabilities = nil },
		"host network":         func(p *corev1.PodTemplateSpec) { p.Spec.HostNetwork = true },
		"hostPath volume": func(p *corev1.PodTemplateSpec) {
			p.Spec.Volumes = []corev1.Volume{{Name: "h", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/"}}}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			p := base()
			mutate(p)
			require.Error(t, crdcheck.Restricted(crdcheck.PodTemplates(job(p))[0]))
		})
	}
}

func ptr[T any](v T) *T { return &v }

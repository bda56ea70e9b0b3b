package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// liveList is a golden stack as `kubectl get -o yaml` prints it: a List of
// the objects with server fields and defaults, plus a tenant cluster's
// KamajiControlPlane. edit may change the objects first.
func liveList(t *testing.T, s golden.Scenario, edit func(*unstructured.Unstructured)) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "golden", "testdata", s.Name+".yaml"))
	require.NoError(t, err)
	objs, err := etcdshapes.ReadObjects(data)
	require.NoError(t, err)
	var items []any
	for _, o := range objs {
		u := o.(*unstructured.Unstructured)
		u.SetUID("uid-" + "x")
		u.SetResourceVersion("42")
		require.NoError(t, unstructured.SetNestedField(u.Object, map[string]any{"observedGeneration": int64(1)}, "status"))
		if u.GetKind() == "EtcdCluster" {
			require.NoError(t, unstructured.SetNestedField(u.Object, int64(600), "spec", "progressDeadlineSeconds"))
			require.NoError(t, unstructured.SetNestedField(u.Object, "", "spec", "storage", "medium"))
		}
		if edit != nil {
			edit(u)
		}
		items = append(items, u.Object)
	}
	if s.Caller == etcdshapes.CallerCluster {
		n, err := naming.ForCluster(s.Namespace, s.Release)
		require.NoError(t, err)
		ds := n.DataStore()
		if s.Live.DataStoreName != "" {
			ds = s.Live.DataStoreName
		}
		items = append(items, map[string]any{
			"apiVersion": "controlplane.cluster.x-k8s.io/v1alpha1", "kind": "KamajiControlPlane",
			"metadata": map[string]any{"name": s.Release, "namespace": s.Namespace},
			"spec":     map[string]any{"dataStoreName": ds},
		})
	}
	out, err := yaml.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	require.NoError(t, err)
	return out
}

// planArgs are the plan command's arguments for a scenario.
func planArgs(t *testing.T, s golden.Scenario, liveFile string) []string {
	t.Helper()
	values := filepath.Join(t.TempDir(), "values.yaml")
	require.NoError(t, os.WriteFile(values, []byte(s.Values), 0o644))
	args := []string{s.Caller, "--namespace", s.Namespace, "--release", s.Release, "-f", values, "--chart-version", "0.0.0", "--live", liveFile}
	for _, a := range s.APIVersions {
		args = append(args, "--api-versions", a)
	}
	return args
}

func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "live.yaml")
	require.NoError(t, os.WriteFile(p, data, 0o644))
	return p
}

func cliScenario(t *testing.T, name string) golden.Scenario {
	for _, s := range golden.All() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no scenario %s", name)
	return golden.Scenario{}
}

// Every golden stack planned against itself: no changes, exit 0.
func TestPlanCommandAgainstItself(t *testing.T) {
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runPlan(planArgs(t, s, writeTemp(t, liveList(t, s, nil))), nil, &stdout, &stderr)
			require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			assert.Contains(t, stdout.String(), "No changes.")
			assert.Contains(t, stdout.String(), "0 to create, 0 to update, 0 to delete")
			assert.Empty(t, stderr.String())
		})
	}
}

func TestPlanCommandRefusesTLSChange(t *testing.T) {
	s := cliScenario(t, "cluster-demo")
	live := liveList(t, s, func(u *unstructured.Unstructured) {
		if u.GetKind() == "EtcdCluster" {
			require.NoError(t, unstructured.SetNestedField(u.Object, "other-tls", "spec", "tls", "client", "serverSecretRef", "name"))
		}
	})
	var stdout, stderr bytes.Buffer
	code := runPlan(planArgs(t, s, "-"), bytes.NewReader(live), &stdout, &stderr)
	assert.Equal(t, 3, code, "%s%s", stdout.String(), stderr.String())
	out := stdout.String()
	assert.Contains(t, out, "~ update EtcdCluster tenant-demo/kubernetes-demo-etcd")
	assert.Contains(t, out, "REFUSED spec.tls.client.serverSecretRef.name: spec.tls is immutable")
	assert.Contains(t, out, "Not safe to apply")
}

func TestPlanCommandReplicasNeedDecision(t *testing.T) {
	s := cliScenario(t, "cluster-demo")
	s.Values = "etcd:\n  replicas: 1\n"
	var stdout, stderr bytes.Buffer
	code := runPlan(planArgs(t, s, writeTemp(t, liveList(t, cliScenario(t, "cluster-demo"), nil))), nil, &stdout, &stderr)
	assert.Equal(t, 3, code, "%s%s", stdout.String(), stderr.String())
	assert.Contains(t, stdout.String(), "DECISION spec.replicas: replicas 3 -> 1: quorum 2 -> 1")
}

// A growing volume is safe: exit 0 with a note.
func TestPlanCommandSafeUpdate(t *testing.T) {
	s := cliScenario(t, "etcd-defaults")
	live := writeTemp(t, liveList(t, s, nil))
	s.Values = "size: 8Gi\n"
	var stdout, stderr bytes.Buffer
	code := runPlan(planArgs(t, s, live), nil, &stdout, &stderr)
	assert.Equal(t, 0, code, "%s%s", stdout.String(), stderr.String())
	assert.Contains(t, stdout.String(), "~ spec.storage.size: \"4Gi\" -> \"8Gi\"")
	assert.Contains(t, stdout.String(), "note spec.storage.size")
	assert.Contains(t, stdout.String(), "Safe to apply.")
}

func TestPlanCommandJSON(t *testing.T) {
	s := cliScenario(t, "etcd-defaults")
	var stdout, stderr bytes.Buffer
	code := runPlan(append(planArgs(t, s, writeTemp(t, liveList(t, s, nil))), "-o", "json"), nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	var p etcdshapes.PlanResult
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &p))
	assert.True(t, p.Empty())
	assert.NotEmpty(t, p.Objects)
}

func TestPlanCommandUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "Usage:"},
		{[]string{"--help"}, 0, "Usage:"},
		{[]string{"etcd", "-h"}, 0, "etcdshapes plan etcd "},
		{[]string{"cluster", "--help"}, 0, "etcdshapes plan cluster "},
		{[]string{"nope"}, 2, `unknown caller "nope"`},
		{[]string{"etcd", "--namespace", "tenant-root"}, 2, "--live is required"},
		{[]string{"cluster", "--namespace", "tenant-demo", "--live", "x"}, 2, "--release is required"},
		{[]string{"etcd", "--namespace", "tenant-root", "--live", "-", "-f", "-"}, 2, "only one of --live and -f can read stdin"},
		{[]string{"etcd", "--namespace", "tenant-root", "--live", "x", "-o", "xml"}, 2, "--output must be text or json"},
		{[]string{"etcd", "--namespace", "tenant-root", "--live", "/nonexistent/live.yaml"}, 1, "--live: open"},
		{[]string{"etcd", "--namespace", "default", "--live", "-"}, 1, `namespace: invalid value "default"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runPlan(tc.args, strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, tc.code, code)
			if tc.code == 0 { // help: on stdout
				assert.Contains(t, stdout.String(), tc.want)
				assert.Empty(t, stderr.String())
				return
			}
			assert.Contains(t, stderr.String(), tc.want)
			assert.Empty(t, stdout.String())
		})
	}
}

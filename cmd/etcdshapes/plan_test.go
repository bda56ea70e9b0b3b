package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testtier"
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
	objs, err := plan.ReadObjects(data)
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
	if s.Caller == naming.CallerCluster {
		ds, err := goldentest.DataStore(s)
		require.NoError(t, err)
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
	args := []string{s.Caller.String(), "--namespace", s.Namespace, "--release", s.Release, "-f", values, "--chart-version", "0.0.0", "--live", liveFile}
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

// Every golden stack planned against itself: no changes, exit 0.
func TestPlanCommandAgainstItself(t *testing.T) {
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runPlan(planArgs(t, s, writeTemp(t, liveList(t, s, nil))), nil, &stdout, &stderr)
			require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			// A render saved as the live file has no managedFields
			// (a stack on a shared datastore renders nothing to compare).
			assert.Regexp(t, "\nNo changes(, qualified: .*)?\\.\n$", stdout.String())
			assert.Contains(t, stdout.String(), "0 to create, 0 to update, 0 to delete")
			assert.Empty(t, stderr.String())
		})
	}
}

func TestPlanCommandRefusesTLSChange(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
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
	assert.Contains(t, out, "REFUSED spec.tls.client.serverSecretRef: spec.tls is immutable")
	assert.Contains(t, out, "Not safe to apply")
}

// etcd auth turned on, or pointed at another Secret, on a live etcd, for
// both callers, through the values: exit 3, the API server would refuse
// it, and the plan says to recreate the etcd. (Turning it off is a removal,
// which a plan finds from the live managedFields: plan's own tests.)
func TestPlanCommandRefusesAuthChange(t *testing.T) {
	otherSecret := func(u *unstructured.Unstructured) {
		if u.GetKind() == "EtcdCluster" {
			require.NoError(t, unstructured.SetNestedField(u.Object, "other-root", "spec", "auth", "rootCredentialsSecretRef", "name"))
		}
	}
	for _, c := range []struct {
		live, desired string
		edit          func(*unstructured.Unstructured)
		change, rule  string
	}{
		{"etcd-defaults", "etcd-auth", nil, "+ spec.auth: {", "spec.auth cannot be added to or removed from an existing cluster; delete and recreate"},
		{"cluster-demo", "cluster-auth", nil, "+ spec.auth: {", "spec.auth cannot be added to or removed from an existing cluster; delete and recreate"},
		{"etcd-auth", "etcd-auth", otherSecret, `~ spec.auth.rootCredentialsSecretRef: {"name":"other-root"} -> {"name":"etcd-root-credentials"}`,
			"spec.auth is immutable post-create; delete and recreate the cluster to change auth configuration"},
		{"cluster-auth", "cluster-auth", otherSecret, `~ spec.auth.rootCredentialsSecretRef: {"name":"other-root"} -> {"name":"kubernetes-demo-etcd-root-credentials"}`,
			"spec.auth is immutable post-create; delete and recreate the cluster to change auth configuration"},
	} {
		t.Run(c.live+"->"+c.desired, func(t *testing.T) {
			live, desired := goldentest.Scenario(t, c.live), goldentest.Scenario(t, c.desired)
			var stdout, stderr bytes.Buffer
			code := runPlan(planArgs(t, desired, "-"), bytes.NewReader(liveList(t, live, c.edit)), &stdout, &stderr)
			assert.Equal(t, 3, code, "%s%s", stdout.String(), stderr.String())
			out := stdout.String()
			assert.Contains(t, out, c.change)
			assert.Contains(t, out, "REFUSED spec.auth")
			assert.Contains(t, out, c.rule)
			assert.Contains(t, out, "Not safe to apply")
		})
	}
}

// Two releases of tenant-demo1 render one DataStore name (the second's
// <namespace>.<release> is cut and hashed into the first's plain name):
// rendering the first against the second's live stack exits 3 and says
// the DataStore would be repointed at another etcd with other
// credentials.
func TestPlanCommandCollidingDataStoreNames(t *testing.T) {
	b := "kubernetes-" + strings.Repeat("b", 40)
	a := "kubernetes-" + strings.Repeat("b", 30) + "-3a3d3b82"
	live := ok(t, "", "render", "cluster", "-n", "tenant-demo1", "--release", b, "-o", "json")
	code, stdout, stderr := cli(t, live, "plan", "cluster", "-n", "tenant-demo1", "--release", a, "--live", "-")
	require.Equal(t, 3, code, "%s%s", stdout, stderr)
	assert.Contains(t, stdout, "~ update DataStore tenant-demo1."+a+"\n")
	assert.Contains(t, stdout, "DECISION spec.endpoints: every tenant control plane on this DataStore starts talking to other endpoints")
	assert.Contains(t, stdout, "the live DataStore points at another etcd, "+b+"-etcd in namespace tenant-demo1")
	assert.Contains(t, stdout, "DECISION spec.tlsConfig: every tenant control plane on this DataStore starts authenticating to etcd with other credentials")
}

func TestPlanCommandReplicasNeedDecision(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	s.Values = "etcd:\n  replicas: 1\n"
	var stdout, stderr bytes.Buffer
	code := runPlan(planArgs(t, s, writeTemp(t, liveList(t, goldentest.Scenario(t, "cluster-demo"), nil))), nil, &stdout, &stderr)
	assert.Equal(t, 3, code, "%s%s", stdout.String(), stderr.String())
	assert.Contains(t, stdout.String(), "DECISION spec.replicas: replicas 3 -> 1: quorum 2 -> 1")
}

// New resources for the members are safe: exit 0 with a note. A growing
// volume is not: the backend quota follows the size, the defrag
// CronJob's at once and the running members' only as each is replaced
// (plan.TestPlanQuotaChangeSplitsDefragFromMembers).
func TestPlanCommandSafeUpdate(t *testing.T) {
	s := goldentest.Scenario(t, "etcd-defaults")
	live := writeTemp(t, liveList(t, s, nil))
	s.Values = "resources: {cpu: 2, memory: 2Gi}\n"
	var stdout, stderr bytes.Buffer
	code := runPlan(planArgs(t, s, live), nil, &stdout, &stderr)
	assert.Equal(t, 0, code, "%s%s", stdout.String(), stderr.String())
	assert.Contains(t, stdout.String(), "note spec.resources")
	assert.Contains(t, stdout.String(), "\nSafe to apply, qualified: ")

	s.Values = "size: 8Gi\n"
	stdout.Reset()
	stderr.Reset()
	code = runPlan(planArgs(t, s, live), nil, &stdout, &stderr)
	assert.Equal(t, exitUnsafe, code, "%s%s", stdout.String(), stderr.String())
	assert.Contains(t, stdout.String(), "~ spec.storage.size: \"4Gi\" -> \"8Gi\"")
	assert.Contains(t, stdout.String(), "note spec.storage.size")
	assert.Contains(t, stdout.String(), "DECISION spec.options.quotaBackendBytes: the backend quota changes 4080218931 -> 8160437862 bytes")
}

// The etcd chart's version planned by etcd's upgrade policy: the issue's
// fleet-wide broken rolls (a skipped minor version, a major change, a
// minor upgrade from below the patch release etcd's guide requires) exit 3
// with etcd's reason; a patch change and a one-minor upgrade exit 0.
func TestPlanCommandVersionSteps(t *testing.T) {
	for _, c := range []struct {
		live, desired string
		code          int
		say           string
	}{
		{"3.4.30", "3.6.11", 3, "DECISION spec.version: etcd 3.4.30 -> 3.6.11 skips a minor version"},
		{"3.6.11", "4.0.0", 3, "DECISION spec.version: etcd 3.6.11 -> 4.0.0 changes the major version"},
		{"3.6.11", "3.4.30", 3, "DECISION spec.version: etcd 3.6.11 -> 3.4.30 downgrades more than one minor version"},
		{"3.6.11", "3.5.21", 3, "DECISION spec.version: etcd 3.6.11 -> 3.5.21 downgrades one minor version"},
		{"3.5.32", "3.6.11", 0, "note spec.version: etcd 3.5.32 -> 3.6.11 upgrades one minor version"},
		{"3.5.10", "3.6.11", 3, "DECISION spec.version: etcd 3.5.10 -> 3.6.11 upgrades one minor version from 3.5.10, below 3.5.32"},
		{"3.5.10", "3.5.32", 0, "note spec.version: etcd 3.5.10 -> 3.5.32 is a patch change within 3.5"},
		{"3.6.12", "3.6.11", 0, "note spec.version: etcd 3.6.12 -> 3.6.11 is a patch change within 3.6"},
	} {
		t.Run(c.live+"->"+c.desired, func(t *testing.T) {
			s := goldentest.Scenario(t, "etcd-defaults")
			live := writeTemp(t, liveList(t, s, func(u *unstructured.Unstructured) {
				if u.GetKind() == "EtcdCluster" {
					require.NoError(t, unstructured.SetNestedField(u.Object, c.live, "spec", "version"))
				}
			}))
			s.Values = "version: " + c.desired + "\n"
			var stdout, stderr bytes.Buffer
			code := runPlan(planArgs(t, s, live), nil, &stdout, &stderr)
			assert.Equal(t, c.code, code, "%s%s", stdout.String(), stderr.String())
			assert.Contains(t, stdout.String(), c.say)
		})
	}
}

func TestPlanCommandJSON(t *testing.T) {
	s := goldentest.Scenario(t, "etcd-defaults")
	var stdout, stderr bytes.Buffer
	code := runPlan(append(planArgs(t, s, writeTemp(t, liveList(t, s, nil))), "-o", "json"), nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	var p plan.Result
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &p))
	assert.True(t, p.Empty())
	assert.NotEmpty(t, p.Objects)
}

func TestPlanCommandUsage(t *testing.T) {
	planNoStdin := func(args []string, stdout, stderr io.Writer) int {
		return runPlan(args, strings.NewReader(""), stdout, stderr)
	}
	checkUsage(t, planNoStdin, []usageCase{
		{nil, 2, "Usage:"},
		{[]string{"--help"}, 0, "Usage:"},
		{[]string{"etcd", "-h"}, 0, "etcdshapes plan etcd "},
		{[]string{"cluster", "--help"}, 0, "etcdshapes plan cluster "},
		{[]string{"nope"}, 2, `unknown caller "nope"`},
		{[]string{"etcd", "--namespace", "tenant-root"}, 2, "--live is required"},
		{[]string{"cluster", "--namespace", "tenant-demo", "--live", "x"}, 2, "--release is required"},
		{[]string{"etcd", "--namespace", "tenant-root", "--live", "-", "-f", "-"}, 2, `stdin ("-") can be read by one input only, not by --live and -f`},
		{[]string{"etcd", "--namespace", "tenant-root", "--live", "x", "-o", "xml"}, 2, "--output must be text or json"},
		{[]string{"etcd", "--namespace", "tenant-root", "--live", "/nonexistent/live.yaml"}, 1, "--live: open"},
		{[]string{"etcd", "--namespace", "default", "--live", "-"}, 1, `namespace: invalid value "default"`},
	})
}

// Forgetting --api-versions does not delete the live objects of the
// optional kinds: they prove their APIs are served, and the plan says so.
func TestPlanCommandInfersOptionalAPIs(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo") // rendered with every optional API
	live := writeTemp(t, liveList(t, s, nil))
	s.APIVersions = nil
	var stdout, stderr bytes.Buffer
	code := runPlan(planArgs(t, s, live), nil, &stdout, &stderr)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	out := stdout.String()
	for _, want := range []string{
		"API served: autoscaling.k8s.io/v1/VerticalPodAutoscaler: inferred from live object VerticalPodAutoscaler tenant-demo/kubernetes-demo-etcd\n",
		"API served: operator.victoriametrics.com/v1beta1/VMPodScrape: inferred from live object VMPodScrape tenant-demo/kubernetes-demo-etcd-pod-scrape\n",
		"API served: cilium.io/v2/CiliumNetworkPolicy: inferred from live object CiliumNetworkPolicy tenant-demo/kubernetes-demo-etcd\n",
		"0 to create, 0 to update, 0 to delete",
		"\nNo changes, qualified: ",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "delete VerticalPodAutoscaler")

	stdout.Reset()
	code = runPlan(append(planArgs(t, s, live), "-o", "json"), nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	var p plan.Result
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &p))
	require.Len(t, p.InferredAPIs, 3)
	assert.Equal(t, etcdshapes.APIVerticalPodAutoscaler, p.InferredAPIs[0].API)
	assert.Equal(t, "VerticalPodAutoscaler", p.InferredAPIs[0].From.Kind)
}

// Every error of plan is printed once, with one "etcdshapes: " prefix:
// malformed live objects (named by their position in the file), files
// that cannot be read, bad values, a plan that cannot be written.
func TestPlanCommandErrorsHaveOnePrefix(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		return p
	}
	secret := "apiVersion: v1\nkind: Secret\nmetadata:\n  namespace: tenant-demo\n  name: a\n"
	item := func(doc string) string { // doc as an item of a List
		return "- " + strings.ReplaceAll(strings.TrimSuffix(doc, "\n"), "\n", "\n  ") + "\n"
	}
	cluster := "apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdCluster\nmetadata: {name: kubernetes-demo-etcd, namespace: tenant-demo}\n"
	for _, tc := range []struct {
		name   string
		live   string
		values string
		want   string
	}{
		{"apiVersion a number", file("v.yaml", "apiVersion: 1\nkind: Secret\nmetadata: {name: a}\n"), "", `live[0].apiVersion: invalid value 1: must be the object's group/version`},
		{"name a number", file("n.yaml", "---\n"+secret+"---\napiVersion: v1\nkind: Secret\nmetadata: {name: 7}\n"), "", `live[1].metadata.name: invalid value 7: must be the object's name`},
		{"bad fieldsV1", file("m.yaml", secret+"  managedFields: [{manager: etcdshapes, operation: Apply, fieldsV1: {spec: {}}}]\n"), "",
			`live[0].metadata.managedFields[0].fieldsV1: invalid value {spec: {}}: must be a field set (FieldsV1): parsing key as path element`},
		// Entries the API server never writes: another fields type or
		// operation would stand for ownership the plan cannot read.
		{"fieldsType FieldsV2", file("m2.yaml", secret+"  managedFields: [{manager: etcdshapes, operation: Apply, fieldsType: FieldsV2, fieldsV1: {}}]\n"), "",
			`live[0].metadata.managedFields[0].fieldsType: invalid value "FieldsV2": must be FieldsV1, the only fields type the API server writes`},
		{"fieldsType a number", file("m3.yaml", secret+"  managedFields: [{manager: etcdshapes, operation: Apply, fieldsType: 1, fieldsV1: {}}]\n"), "",
			`live[0].metadata.managedFields[0].fieldsType: invalid value 1: must be FieldsV1, the only fields type the API server writes`},
		{"operation Patch", file("m4.yaml", secret+"  managedFields: [{manager: etcdshapes, operation: Patch, fieldsType: FieldsV1, fieldsV1: {}}]\n"), "",
			`live[0].metadata.managedFields[0].operation: invalid value "Patch": must be Apply or Update, as the API server writes it`},
		{"operation missing", file("m5.yaml", secret+"  managedFields: [{manager: etcdshapes, fieldsType: FieldsV1, fieldsV1: {}}]\n"), "",
			`live[0].metadata.managedFields[0].operation: invalid value null: must be Apply or Update, as the API server writes it`},
		{"replicas a string", file("r.yaml", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: etcd-operator.cozystack.io/v1alpha2\n  kind: EtcdCluster\n  metadata: {name: kubernetes-demo-etcd, namespace: tenant-demo}\n  spec: {replicas: three}\n"), "",
			`live[0].items[0].spec.replicas: invalid value "three": must be a whole number of members`},
		{"not YAML", file("y.yaml", "a: [\n"), "", `live[0]: invalid value "a: [": must be YAML`},
		{"no namespace", file("ns.yaml", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: etcd-operator.cozystack.io/v1alpha2\n  kind: EtcdCluster\n  metadata: {name: kubernetes-demo-etcd}\n"), "",
			`live[0].items[0].metadata.namespace: invalid value "": must be set: EtcdCluster "kubernetes-demo-etcd" is namespaced, and the plan does not guess its namespace`},
		// An object given twice is named at both places in the file, in a
		// List or not.
		{"twice, in a List and after it", file("d1.yaml", "apiVersion: v1\nkind: List\nitems:\n"+item(cluster)+"---\n"+cluster), "",
			`live[1]: invalid value "EtcdCluster tenant-demo/kubernetes-demo-etcd": must not appear twice (first at live[0].items[0])`},
		{"twice in one List", file("d2.yaml", "apiVersion: v1\nkind: List\nitems:\n"+item(secret)+item(cluster)+item(strings.Replace(cluster, "v1alpha2", "v1alpha1", 1))), "",
			`live[0].items[2]: invalid value "EtcdCluster tenant-demo/kubernetes-demo-etcd": must not appear twice (first at live[0].items[1])`},
		{"twice in two documents", file("d3.yaml", secret+"---\n"+cluster+"---\n"+secret), "",
			`live[2]: invalid value "Secret tenant-demo/a": must not appear twice (first at live[0])`},
		{"a directory", dir, "", "--live " + dir + ": read " + dir + ": is a directory"},
		{"missing", filepath.Join(dir, "none.yaml"), "", "--live: open " + filepath.Join(dir, "none.yaml") + ": no such file or directory"},
		{"bad values", file("ok.yaml", secret), "etcd: {replicas: 2}\n", `etcd.replicas: invalid value 2: must be 1 or 3`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := s
			s.Values = tc.values
			var stdout, stderr bytes.Buffer
			code := runPlan(planArgs(t, s, tc.live), nil, &stdout, &stderr)
			assert.Equal(t, 1, code)
			assert.Empty(t, stdout.String())
			want := tc.want
			if strings.HasPrefix(want, "live[") {
				// A refused live object is named by the file and its
				// place in it.
				want = "--live " + tc.live + ": " + want
			}
			assert.True(t, strings.HasPrefix(stderr.String(), "etcdshapes: "+want), "stderr: %s", stderr.String())
			assert.Equal(t, 1, strings.Count(stderr.String(), "etcdshapes:"), "one prefix: %s", stderr.String())
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %s", stderr.String())
		})
	}
}

// A plan that cannot be written is an error (exit 1), in either format,
// however far the writing got.
func TestPlanCommandWriteErrors(t *testing.T) {
	s := goldentest.Scenario(t, "cluster-demo")
	live := writeTemp(t, liveList(t, s, nil))
	for _, format := range []string{"text", "json"} {
		for _, after := range []int{0, 1, 2} {
			t.Run(fmt.Sprintf("%s after %d writes", format, after), func(t *testing.T) {
				var stderr bytes.Buffer
				code := runPlan(append(planArgs(t, s, live), "-o", format), nil, &failingWriter{after: after}, &stderr)
				if format == "json" && after > 0 {
					// The JSON plan is one write.
					assert.Equal(t, 0, code, stderr.String())
					return
				}
				assert.Equal(t, 1, code)
				assert.Equal(t, "etcdshapes: writing the plan: no space left on device\n", stderr.String())
			})
		}
	}
}

// failingWriter accepts after writes, then fails every one.
type failingWriter struct{ after, calls int }

func (w *failingWriter) Write(b []byte) (int, error) {
	w.calls++
	if w.calls > w.after {
		return 0, errors.New("no space left on device")
	}
	return len(b), nil
}

// The real command writing to /dev/full (every write fails with ENOSPC):
// plan and render exit 1 and say why. The test binary runs itself as the
// command (see TestMain).
func TestCommandsOnDevFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	s := goldentest.Scenario(t, "cluster-demo")
	live := writeTemp(t, liveList(t, s, nil))
	for _, args := range [][]string{
		append([]string{"plan"}, planArgs(t, s, live)...),
		append(append([]string{"plan"}, planArgs(t, s, live)...), "-o", "json"),
		{"render", "cluster", "--namespace", "tenant-demo", "--release", "kubernetes-demo"},
		{"render", "etcd", "--namespace", "tenant-root"},
		{"render", "snapshot", "etcd", "--namespace", "tenant-root", "--name", "s", "--pvc", "backups"},
		{"render", "cluster", "--namespace", "tenant-demo", "--release", "kubernetes-demo", "-o", "json"},
		{"version", "-o", "text"},
		{"--version", ""},
		{"completion", "zsh"},
		{"help", "plan"},
	} {
		if args[len(args)-1] == "" {
			args = args[:len(args)-1]
		}
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), runAsCommand+"=1")
			cmd.Stdout = full
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit, "stderr: %s", stderr.String())
			assert.Equal(t, 1, exit.ExitCode())
			assert.Contains(t, stderr.String(), "no space left on device")
			assert.True(t, strings.HasPrefix(stderr.String(), "etcdshapes: "), stderr.String())
			assert.Equal(t, 1, strings.Count(stderr.String(), "etcdshapes:"), stderr.String())
		})
	}
}

// runAsCommand, set in the environment, makes the test binary run the
// command itself with its arguments.
const runAsCommand = "ETCDSHAPES_TEST_RUN_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(runAsCommand) != "" {
		asChild()
		os.Exit(command(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// The stacks as a real kube-apiserver returned them (testdata/apiserver,
// recorded by the e2e suite) plan empty through the command, whether
// --api-versions lists the optional APIs or not.
func TestPlanCommandServerDefaultedStacks(t *testing.T) {
	live := filepath.Join("..", "..", "testdata", "apiserver", "live.yaml")
	for _, args := range [][]string{
		{"etcd", "--namespace", "tenant-fixture", "--chart-version", "1.2.3", "--live", live},
		{"cluster", "--namespace", "tenant-fixture", "--release", "kubernetes-fixture", "--chart-version", "1.2.3", "--live", live,
			"--api-versions", etcdshapes.APIVerticalPodAutoscaler + "," + etcdshapes.APIVMPodScrape + "," + etcdshapes.APICiliumNetworkPolicy},
		{"cluster", "--namespace", "tenant-fixture", "--release", "kubernetes-fixture", "--chart-version", "1.2.3", "--live", live},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runPlan(args, nil, &stdout, &stderr)
			require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			assert.True(t, strings.HasSuffix(stdout.String(), "\nNo changes.\n"), stdout.String())
			assert.Contains(t, stdout.String(), "0 to create, 0 to update, 0 to delete")
			assert.Empty(t, stderr.String())
		})
	}
}

// A live file that holds nothing of the stack (empty, an empty List, the
// objects of another namespace: a failed or misdirected kubectl get)
// plans a fresh install, which needs a decision (exit 3), the plan
// printed and stderr saying why and how to plan a fresh install; with
// --fresh-install it is a note, exit 0, stderr silent; with
// --expect-existing a decision, stderr saying the stack is expected. A
// live file of the stack, and a tenant cluster on a shared datastore,
// whose KamajiControlPlane is live, are safe with and without
// --expect-existing, and a decision with --fresh-install. -o json carries
// nothingLive.
func TestPlanCommandExpectExisting(t *testing.T) {
	demo := goldentest.Scenario(t, "cluster-demo")
	other := goldentest.Scenario(t, "etcd-defaults") // tenant-root
	shared := goldentest.Scenario(t, "cluster-shared")
	for _, c := range []struct {
		name    string
		s       golden.Scenario
		live    []byte
		nothing bool
	}{
		{"empty file", demo, nil, true},
		{"comments only", demo, []byte("# kubectl printed nothing\n"), true},
		{"empty List", demo, []byte("apiVersion: v1\nkind: List\nitems: []\n"), true},
		{"another namespace's stack", demo, liveList(t, other, nil), true},
		{"the stack", demo, liveList(t, demo, nil), false},
		{"a shared datastore's KamajiControlPlane", shared, liveList(t, shared, nil), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			live := writeTemp(t, c.live)
			var stdout, stderr bytes.Buffer
			code := runPlan(planArgs(t, c.s, live), nil, &stdout, &stderr)
			require.Equal(t, c.nothing, strings.Contains(stdout.String(), "    DECISION: nothing live: "), stdout.String())
			if c.nothing {
				require.Equal(t, exitUnsafe, code, "%s%s", stdout.String(), stderr.String())
				require.Contains(t, stdout.String(), "Plan: ", "the plan is printed")
				require.Equal(t, "etcdshapes: the live file holds nothing of the stack, so the plan is of a fresh install: not safe to apply unless the stack does not exist; "+
					"check the kubectl get that wrote "+live+" (did it fail? its namespace, context and kinds), or plan a fresh install with --fresh-install\n", stderr.String())
			} else {
				require.Equal(t, exitOK, code, "%s%s", stdout.String(), stderr.String())
				require.Empty(t, stderr.String())
			}

			stdout.Reset()
			stderr.Reset()
			code = runPlan(append(planArgs(t, c.s, live), "--fresh-install"), nil, &stdout, &stderr)
			require.Equal(t, c.nothing, strings.Contains(stdout.String(), "    note: nothing live: "), stdout.String())
			if c.nothing {
				require.Equal(t, exitOK, code, "%s%s", stdout.String(), stderr.String())
				require.Empty(t, stderr.String())
			} else {
				require.Equal(t, exitUnsafe, code, "%s%s", stdout.String(), stderr.String())
				require.Contains(t, stdout.String(), "    DECISION: a fresh install was expected (--fresh-install, plan.FreshInstall), but the stack is live: ")
				require.Equal(t, "etcdshapes: --fresh-install: the live file holds objects of the stack (the plan names them), so the install is not fresh: not safe to apply as one; "+
					"check the release, the namespace and "+live+", or plan the apply over the live stack without --fresh-install\n", stderr.String())
			}

			stdout.Reset()
			stderr.Reset()
			code = runPlan(append(planArgs(t, c.s, live), "--expect-existing"), nil, &stdout, &stderr)
			if !c.nothing {
				require.Equal(t, 0, code, "%s%s", stdout.String(), stderr.String())
				require.Empty(t, stderr.String())
				return
			}
			require.Equal(t, 3, code, "%s%s", stdout.String(), stderr.String())
			require.Contains(t, stdout.String(), "Plan: ", "the plan is printed")
			require.Equal(t, "etcdshapes: --expect-existing: the live file holds none of the stack's objects, so the plan is of a fresh install: not safe to apply over a stack that exists; check the kubectl get that wrote "+live+" (its namespace, context and kinds)\n", stderr.String())

			stdout.Reset()
			stderr.Reset()
			code = runPlan(append(planArgs(t, c.s, live), "--expect-existing", "-o", "json"), nil, &stdout, &stderr)
			require.Equal(t, 3, code)
			var p plan.Result
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &p))
			require.True(t, p.NothingLive)
		})
	}
}

// The CLI path of the DataStore collision: a release whose DataStore name
// another release renders is a decision (exit 3) while the live file
// lacks the DataStore; appended by name as the help says, the live
// DataStore decides the plan (its own: exit 0).
func TestPlanCommandCollidingDataStore(t *testing.T) {
	const ns = "tenant-demo1"
	b := "kubernetes-" + strings.Repeat("b", 40)
	objs, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: ns, Release: b})
	require.NoError(t, err)
	var stack, ds []etcdshapes.Object
	for _, o := range etcdshapes.WithoutUninstallHooks(objs) {
		if o.GetObjectKind().GroupVersionKind().Kind == "DataStore" {
			ds = append(ds, o)
		} else {
			stack = append(stack, o)
		}
	}
	require.Len(t, ds, 1)
	stackYAML, err := etcdshapes.Marshal(stack)
	require.NoError(t, err)
	dsYAML, err := etcdshapes.Marshal(ds)
	require.NoError(t, err)
	s := golden.Scenario{Name: "collide", Caller: naming.CallerCluster, Namespace: ns, Release: b}
	var stdout, stderr bytes.Buffer
	code := runPlan(planArgs(t, s, writeTemp(t, stackYAML)), nil, &stdout, &stderr)
	require.Equal(t, 3, code, "%s%s", stdout.String(), stderr.String())
	require.Contains(t, stdout.String(), "+ create DataStore "+ds[0].GetName()+"\n    DECISION: cannot decide: the live objects hold no DataStore")
	require.Contains(t, stdout.String(), "kubectl get datastores.kamaji.clastix.io "+ds[0].GetName()+" -o yaml --show-managed-fields")

	stdout.Reset()
	code = runPlan(planArgs(t, s, writeTemp(t, append(append(stackYAML, "---\n"...), dsYAML...))), nil, &stdout, &stderr)
	require.Equal(t, 0, code, "%s%s", stdout.String(), stderr.String())
	require.Contains(t, stdout.String(), "\nNo changes, qualified: ")
}

// liveEncodings are the four shapes of a live file kubectl and scripts
// write, of the same objects: YAML and JSON, one List or one document
// per object.
func liveEncodings(t *testing.T, items []any) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	list := map[string]any{"apiVersion": "v1", "kind": "List", "items": items}
	y, err := yaml.Marshal(list)
	require.NoError(t, err)
	out["yaml List"] = y
	j, err := json.Marshal(list)
	require.NoError(t, err)
	out["json List"] = j
	var yd, jd []byte
	for _, it := range items {
		b, err := yaml.Marshal(it)
		require.NoError(t, err)
		yd = append(append(yd, "---\n"...), b...)
		b, err = json.MarshalIndent(it, "", "  ")
		require.NoError(t, err)
		jd = append(append(jd, "---\n"...), append(b, '\n')...)
	}
	out["yaml documents"], out["json documents"] = yd, jd
	return out
}

// The finding's class through the command, for every shape of both
// callers: one object removed from a live render (a kubectl get that
// dropped one kind), in every shape of live file, planned with the member
// count changed and --expect-existing. A missing EtcdCluster, DataStore,
// Issuer, Certificate or kept Secret is a decision naming the object and
// the kubectl get that fetches it: exit 3, never "Safe to apply". Any
// other kind missing is a note, and the plan of the values as they are
// stays safe (exit 0). The quick tier plans each object's removal in one
// shape of live file, the shapes in turn (each shape some ten times); the
// slow tier, in every shape. The plan package's TestPlanMissingLiveObject
// grades every removal through the Go API.
func TestPlanCommandMissingLiveObject(t *testing.T) {
	row := 0
	for _, name := range []string{"etcd-monitoring-apis", "cluster-monitoring-apis"} {
		s := goldentest.Scenario(t, name)
		var live map[string]any
		require.NoError(t, yaml.Unmarshal(liveList(t, s, nil), &live))
		items := live["items"].([]any)
		set := "replicas=1"
		if s.Caller == naming.CallerCluster {
			set = "etcd.replicas=3" // the scenario has 1
		}
		for i, it := range items {
			u := &unstructured.Unstructured{Object: it.(map[string]any)}
			kind := u.GetKind()
			if kind == "KamajiControlPlane" || etcdshapes.IsUninstallHook(u) {
				continue
			}
			rest := append(append([]any(nil), items[:i]...), items[i+1:]...)
			identity := map[string]bool{"EtcdCluster": true, "DataStore": true, "Issuer": true, "Certificate": true, "Secret": true}[kind]
			ref := kind + " " + u.GetName()
			if ns := u.GetNamespace(); ns != "" {
				ref = kind + " " + ns + "/" + u.GetName()
			}
			encodings := liveEncodings(t, rest)
			quick := slices.Sorted(maps.Keys(encodings))[row%len(encodings)]
			row++
			for enc, data := range encodings {
				t.Run(s.Name+"/"+kind+"/"+u.GetName()+"/"+enc, func(t *testing.T) {
					if enc != quick {
						testtier.SkipUnlessSlow(t, "this removal in the other shapes of live file")
					}
					file := writeTemp(t, data)
					var stdout, stderr bytes.Buffer
					code := runPlan(append(planArgs(t, s, file), "--set", set, "--expect-existing"), nil, &stdout, &stderr)
					out := stdout.String()
					require.Equal(t, 3, code, "%s%s", out, stderr.String())
					require.NotContains(t, out, "Safe to apply")
					require.Contains(t, out, "\n+ create "+ref+"\n")
					if identity {
						require.Contains(t, out, "DECISION: missing from the live objects: ", out)
						require.Contains(t, out, "but not this "+kind+". Either the live file lacks it")
						require.Contains(t, out, "kubectl get ")
						require.Contains(t, out, " "+u.GetName()+" -o yaml --show-managed-fields")
						if kind == "EtcdCluster" {
							require.Contains(t, out, "The live WorkloadMonitor "+u.GetNamespace()+"/"+u.GetName()+" counts ")
							require.Contains(t, out, " where the render has ")
						}
					} else {
						require.Contains(t, out, "note: not among the live objects: ")
					}
					stdout.Reset()
					code = runPlan(append(planArgs(t, s, file), "--expect-existing"), nil, &stdout, &stderr)
					if identity {
						require.Equal(t, 3, code, "%s", stdout.String())
						require.Contains(t, stdout.String(), "Not safe to apply")
					} else {
						require.Equal(t, 0, code, "%s", stdout.String())
						require.Contains(t, stdout.String(), "\nSafe to apply, qualified: ")
					}
				})
			}
		}
	}
}

// shortWriter takes n bytes, then fails: a stdout that breaks while the
// plan is printed.
type shortWriter struct{ n int }

func (w *shortWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("no space left on device")
	}
	w.n -= len(p)
	return len(p), nil
}

// TestPlanVerdictAgreesWithExitStatus: every way plan ends, one verdict.
// A plan that is printed ends its text with the verdict (Result.Summary),
// which -o json carries as "verdict" beside "safeToApply", "empty" and
// "counts", and the exit status is 0 exactly when the verdict says "Safe
// to apply" or "No changes" and "safeToApply" is true: for no changes, a
// safe update, a decision, a refusal, a fresh install with and without
// --expect-existing, a removal the plan cannot see without managedFields,
// a stack another manager applied, and the other ways plan exits non-zero
// (a malformed live file, a usage error, a stdout that fails midway),
// which print no verdict at all.
func TestPlanVerdictAgreesWithExitStatus(t *testing.T) {
	s := goldentest.Scenario(t, "etcd-defaults")
	cluster := func(edit func(u *unstructured.Unstructured)) func(u *unstructured.Unstructured) {
		return func(u *unstructured.Unstructured) {
			if u.GetKind() == "EtcdCluster" {
				edit(u)
			}
		}
	}
	const unknown = ", qualified: 20 live objects carry no managedFields (what the apply removes is not known)."
	// The server's answer for the etcd chart in tenant-fixture, applied as
	// etcdshapes, with managedFields.
	server := filepath.Join("..", "..", "testdata", "apiserver", "live.yaml")
	fixture := []string{"etcd", "--namespace", "tenant-fixture", "--chart-version", "1.2.3", "--live", server}
	type result struct {
		code    int
		verdict string // the text's last line; "" for none
	}
	for _, c := range []struct {
		name string
		args []string
		want result
	}{
		{"no changes", planArgs(t, s, writeTemp(t, liveList(t, s, nil))), result{0, "No changes" + unknown}},
		{"no changes, with managedFields", fixture, result{0, "No changes."}},
		{"a patch version change", planArgs(t, s, writeTemp(t, liveList(t, s, cluster(func(u *unstructured.Unstructured) {
			require.NoError(t, unstructured.SetNestedField(u.Object, "3.6.10", "spec", "version"))
		})))), result{0, "Safe to apply" + unknown}},
		{"a safe update, with managedFields", append(append([]string{}, fixture...), "--chart-version", "1.2.4"), result{0, "Safe to apply."}},
		{"a member-count change", planArgs(t, s, writeTemp(t, liveList(t, s, cluster(func(u *unstructured.Unstructured) {
			require.NoError(t, unstructured.SetNestedField(u.Object, int64(5), "spec", "replicas"))
		})))), result{3, "Not safe to apply: 0 refused by the API server, 1 need a decision" + unknown}},
		{"a shrinking volume", planArgs(t, s, writeTemp(t, liveList(t, s, cluster(func(u *unstructured.Unstructured) {
			require.NoError(t, unstructured.SetNestedField(u.Object, "100Gi", "spec", "storage", "size"))
		})))), result{3, "Not safe to apply: 1 refused by the API server, 0 need a decision" + unknown}},
		{"an immutable field the render leaves out, ownership unknown", planArgs(t, s, writeTemp(t, liveList(t, s, cluster(func(u *unstructured.Unstructured) {
			require.NoError(t, unstructured.SetNestedField(u.Object, "local", "spec", "storage", "storageClassName"))
		})))), result{3, "Not safe to apply: 0 refused by the API server, 1 need a decision" + unknown}},
		{"another manager's stack", append(append([]string{}, fixture...), "--field-manager", "kubectl"),
			result{0, "No changes, qualified: field manager kubectl owns no live field (Owned by other managers, above)."}},
		{"nothing live", planArgs(t, s, writeTemp(t, nil)), result{3, "Not safe to apply: 0 refused by the API server, 1 need a decision."}},
		{"nothing live, --fresh-install", append(planArgs(t, s, writeTemp(t, nil)), "--fresh-install"), result{0, "Safe to apply."}},
		{"nothing live, --expect-existing", append(planArgs(t, s, writeTemp(t, nil)), "--expect-existing"),
			result{3, "Not safe to apply: 0 refused by the API server, 1 need a decision."}},
		{"a live stack, --expect-existing", append(append([]string{}, fixture...), "--expect-existing"), result{0, "No changes."}},
		{"a live stack, --fresh-install", append(append([]string{}, fixture...), "--fresh-install"),
			result{3, "Not safe to apply: 0 refused by the API server, 1 need a decision."}},
		{"--fresh-install with --expect-existing", append(planArgs(t, s, writeTemp(t, nil)), "--fresh-install", "--expect-existing"), result{2, ""}},
		{"a malformed live file", planArgs(t, s, writeTemp(t, []byte("kind: [\n"))), result{1, ""}},
		{"a usage error", append(planArgs(t, s, writeTemp(t, nil)), "-o", "yaml"), result{2, ""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var text, stderr bytes.Buffer
			code := runPlan(c.args, nil, &text, &stderr)
			require.Equal(t, c.want.code, code, "%s%s", text.String(), stderr.String())
			if c.want.verdict == "" {
				assert.Empty(t, text.String(), "a plan that ends in an error prints no verdict")
				return
			}
			lines := strings.Split(strings.TrimSuffix(text.String(), "\n"), "\n")
			verdict := lines[len(lines)-1]
			assert.Equal(t, c.want.verdict, verdict, text.String())
			safe := strings.HasPrefix(verdict, "Safe to apply") || strings.HasPrefix(verdict, "No changes")
			assert.Equal(t, code == 0, safe, "the text's verdict and the exit status")

			var js bytes.Buffer
			require.Equal(t, c.want.code, runPlan(append(append([]string{}, c.args...), "-o", "json"), nil, &js, &stderr), stderr.String())
			var top map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(js.Bytes(), &top))
			var got struct {
				SafeToApply  *bool        `json:"safeToApply"`
				Empty        *bool        `json:"empty"`
				Verdict      *string      `json:"verdict"`
				Counts       *plan.Counts `json:"counts"`
				FieldManager *string      `json:"fieldManager"`
			}
			require.NoError(t, json.Unmarshal(js.Bytes(), &got))
			require.NotNil(t, got.SafeToApply, "no safeToApply in %s", js.String())
			require.NotNil(t, got.Empty, "no empty in %s", js.String())
			require.NotNil(t, got.Verdict, "no verdict in %s", js.String())
			require.NotNil(t, got.Counts, "no counts in %s", js.String())
			require.NotNil(t, got.FieldManager, "no fieldManager in %s", js.String())
			assert.Equal(t, code == 0, *got.SafeToApply, "the JSON's safeToApply and the exit status")
			assert.Equal(t, verdict, *got.Verdict, "the JSON's verdict and the text's")
			assert.Equal(t, strings.HasPrefix(verdict, "No changes"), *got.Empty)
			n := got.Counts
			assert.Contains(t, text.String(), fmt.Sprintf("Plan: %d to create, %d to update, %d to delete, %d unchanged.\n", n.Create, n.Update, n.Delete, n.Unchanged))
			if !*got.SafeToApply {
				assert.True(t, strings.HasPrefix(verdict, fmt.Sprintf("Not safe to apply: %d refused by the API server, %d need a decision", n.Refused, n.NeedsDecision)), verdict)
			} else {
				assert.Zero(t, n.Refused+n.NeedsDecision)
			}
			assert.Equal(t, strings.Count(text.String(), "    note"), n.Notes, text.String())
			// The rest of the form decodes into a Result, which agrees.
			var p plan.Result
			require.NoError(t, json.Unmarshal(js.Bytes(), &p))
			assert.Equal(t, *got.SafeToApply, p.SafeToApply())
			assert.Equal(t, *got.Empty, p.Empty())
			assert.Equal(t, *got.Verdict, p.Summary())
			assert.Equal(t, *n, p.Counts())
			for _, k := range []string{"safeToApply", "empty", "verdict", "counts", "fieldManager", "objects"} {
				assert.Contains(t, top, k)
			}
		})
	}
	// A stdout that fails while the plan is printed: exit 1, and what
	// reached it holds no verdict.
	for _, format := range []string{"text", "json"} {
		w := &shortWriter{n: 64}
		var stderr bytes.Buffer
		args := append(planArgs(t, s, writeTemp(t, liveList(t, s, nil))), "-o", format)
		require.Equal(t, exitError, runPlan(args, nil, w, &stderr), stderr.String())
		assert.Contains(t, stderr.String(), "no space left on device")
	}
}

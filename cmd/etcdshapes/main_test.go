package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/stretchr/testify/require"
)

// cliCase is one bad command line: args after "render", a values file (if
// any), and the field and value the error must name.
type cliCase struct {
	name   string
	args   []string
	values string
	field  string
	value  string
}

func writeValuesFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "values.yaml")
	require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
	return p
}

func cliBadInputs() []cliCase {
	etcdArgs := []string{"etcd", "--namespace", "tenant-root"}
	clusterArgs := []string{"cluster", "--namespace", "tenant-demo", "--release", "kubernetes-demo"}
	with := func(base []string, more ...string) []string { return append(append([]string{}, base...), more...) }
	return []cliCase{
		{"size", etcdArgs, "size: 4Xi\n", "values.size", `"4Xi"`},
		{"size zero", etcdArgs, "size: \"0\"\n", "values.size", `"0"`},
		{"quantity", etcdArgs, "resources:\n  memory: lots\n", "values.resources.memory", `"lots"`},
		{"nested resources", etcdArgs, "resources:\n  limits:\n    cpu: 1\n", "values.resources.limits", "{cpu: 1}"},
		{"non-standard resource", etcdArgs, "resources:\n  gpu: 1\n", "values.resources.gpu", `"gpu"`},
		{"version", etcdArgs, "version: \"3.6\"\n", "values.version", `"3.6"`},
		{"version leading zero", etcdArgs, "version: \"3.6.011\"\n", "values.version", `"3.6.011"`},
		{"version leading zero by --set-string", with(etcdArgs, "--set-string", "version=3.06.11"), "", "values.version", `"3.06.11"`},
		{"replicas", etcdArgs, "replicas: 0\n", "values.replicas", "0"},
		{"replicas huge", etcdArgs, "replicas: 100000\n", "values.replicas", "100000"},
		{"cluster replicas", clusterArgs, "etcd:\n  replicas: 2\n", "etcd.replicas", "2"},
		{"ratio", etcdArgs, "_cluster:\n  cpu-allocation-ratio: 0\n", "_cluster.cpu-allocation-ratio", "invalid value 0: "},
		{"ratio below 1", clusterArgs, "_cluster:\n  memory-allocation-ratio: \"0.5\"\n", "_cluster.memory-allocation-ratio", `"0.5"`},
		{"spread not a string", etcdArgs, "_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: [1]\n",
			"_cluster.scheduling.globalAppTopologySpreadConstraints", "[1]"},
		{"spread without topologySpreadConstraints:", clusterArgs,
			"_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: |\n      - maxSkew: 1\n",
			"_cluster.scheduling.globalAppTopologySpreadConstraints", `"- maxSkew: 1\n"`},
		{"spread rule", etcdArgs,
			"_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: |\n      topologySpreadConstraints:\n      - maxSkew: 1\n        topologyKey: zone\n        whenUnsatisfiable: Never\n",
			"_cluster.scheduling.globalAppTopologySpreadConstraints[0].whenUnsatisfiable", `"Never"`},
		{"unknown key", etcdArgs, "sizee: 4Gi\n", "sizee", `"4Gi"`},
		{"unknown key under etcd", clusterArgs, "etcd:\n  version: 3.6.11\n", "etcd.version", `"3.6.11"`},
		{"values not a map", etcdArgs, "just a string\n", "values[0]", `"just a string"`},
		{"namespace not a tenant", []string{"etcd", "--namespace", "default"}, "", "--namespace", `"default"`},
		{"namespace too long", []string{"cluster", "-n", "tenant-" + strings.Repeat("n", 57), "--release", "kubernetes-demo"}, "",
			"--namespace", `"tenant-` + strings.Repeat("n", 57) + `"`},
		{"etcd release", with(etcdArgs, "--release", "kubernetes-demo"), "", "--release", `"kubernetes-demo"`},
		{"release too long", []string{"cluster", "-n", "tenant-demo", "--release", "kubernetes-" + strings.Repeat("r", 41)}, "",
			"--release", `"kubernetes-` + strings.Repeat("r", 41) + `"`},
		{"release uppercase", []string{"cluster", "-n", "tenant-demo", "--release", "Kubernetes-demo"}, "", "--release", `"Kubernetes-demo"`},
		{"release digit first", []string{"cluster", "-n", "tenant-demo", "--release", "9-demo"}, "", "--release", `"9-demo"`},
		// --api-versions refuses nothing: TestCLIAPIVersionsAsHelm.
		{"live datastore", with(clusterArgs, "--live-datastore", "Tenant_Root"), "", "--live-datastore", `"Tenant_Root"`},
		{"live storage class", with(clusterArgs, "--live-storage-class", "fast ssd"), "", "--live-storage-class", `"fast ssd"`},
		{"chart version", with(etcdArgs, "--chart-version", "one"), "", "--chart-version", `"one"`},
		{"storage class", clusterArgs, "_cluster:\n  etcd-storage-class-local: Local_SSD\n", "_cluster.etcd-storage-class-local", `"Local_SSD"`},
		// Without --include-hooks they are left out, so the selection
		// would print nothing.
		{"show-only only uninstall hooks", with(etcdArgs, "--show-only", "Job/etcd-cleanup"), "", "--show-only", `"Job/etcd-cleanup"`},
		{"show-only only uninstall hooks (cluster)", with(clusterArgs, "-s", "*/kubernetes-demo-etcd-cleanup"), "", "--show-only", `"*/kubernetes-demo-etcd-cleanup"`},
	}
}

// TestCLIBadInputs: the CLI prints the library's error on stderr (field,
// value and rule on one line), nothing on stdout, and exits 1; the error
// behind it is a *invalid.Error for the same field.
func TestCLIBadInputs(t *testing.T) {
	for _, c := range cliBadInputs() {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{}, c.args...)
			if c.values != "" {
				args = append(args, "-f", writeValuesFile(t, c.values))
			}
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"render"}, args...), strings.NewReader(""), &stdout, &stderr)
			require.Equal(t, 1, code, "stderr: %s", stderr.String())
			require.Empty(t, stdout.String())
			msg := stderr.String()
			require.True(t, strings.HasPrefix(msg, "etcdshapes: "+c.field+": invalid value "), "stderr: %q", msg)
			require.Contains(t, msg, c.value)
			require.Equal(t, 1, strings.Count(msg, "\n"), "one line: %q", msg)

			_, err := render(naming.Caller(args[0]), args[1:], strings.NewReader(""), &bytes.Buffer{})
			var ne *invalid.Error
			require.True(t, errors.As(err, &ne), "not a *invalid.Error: %T %v", err, err)
			require.Equal(t, c.field, ne.Field)
			require.NotEmpty(t, ne.Rule)
			require.Equal(t, "etcdshapes: "+err.Error()+"\n", msg)
		})
	}
}

// TestCLIUsageErrors: command-line mistakes exit 2 with usage help and
// print nothing on stdout.
func TestCLIUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"draw"},
		{"render"},
		{"render", "kubernetes", "--namespace", "tenant-demo"},
		{"render", "etcd"},
		{"render", "cluster", "--namespace", "tenant-demo"},
		{"render", "etcd", "--namespace", "tenant-root", "--bogus"},
		{"render", "etcd", "--namespace", "tenant-root", "etcd", "extra"},
		{"render", "cluster", "kubernetes-a", "--namespace", "tenant-demo", "--release", "kubernetes-b"},
		{"render", "etcd", "--namespace", "tenant-root", "--live-datastore", "x"},
		{"render", "cluster", "--namespace", "tenant-demo", "--release", "kubernetes-demo", "--live-datastore", ""},
	} {
		var stdout, stderr bytes.Buffer
		code := run(args, strings.NewReader(""), &stdout, &stderr)
		require.Equal(t, 2, code, "%q: %s", args, stderr.String())
		require.Empty(t, stdout.String(), "%q", args)
		require.NotEmpty(t, stderr.String(), "%q", args)
	}
	// A values file that cannot be read.
	var stdout, stderr bytes.Buffer
	code := run([]string{"render", "etcd", "-n", "tenant-root", "-f", filepath.Join(t.TempDir(), "missing.yaml")}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 1, code)
	require.Empty(t, stdout.String())
	require.Contains(t, stderr.String(), "missing.yaml")
}

// TestCLIRendersLikeTheLibrary: the CLI's output is the library's Marshal
// of Render for every golden scenario: without the Helm uninstall hooks
// (WithoutUninstallHooks) by default, with stderr saying so in one line,
// and the whole render, the golden file's bytes, with --include-hooks or
// its environment variable, with an empty stderr (except for the
// shared-datastore note). golden.TestSchema checks those bytes against the
// CRDs; this package does not link the checker, which keeps its test
// binary small.
func TestCLIRendersLikeTheLibrary(t *testing.T) {
	for _, s := range golden.All() {
		t.Run(s.Name, func(t *testing.T) {
			objs, err := s.Render()
			require.NoError(t, err)
			req, err := s.Request()
			require.NoError(t, err)
			whole, err := etcdshapes.Marshal(objs)
			require.NoError(t, err)
			applied, err := etcdshapes.Marshal(etcdshapes.WithoutUninstallHooks(objs))
			require.NoError(t, err)
			for _, tc := range []struct {
				name, env string
				flags     []string
				want      []byte
			}{
				{"default", "", nil, applied},
				{"--include-hooks", "", []string{"--include-hooks"}, whole},
				{"env 1", "1", nil, whole},
				{"env true", "true", nil, whole},
				{"env 0", "0", nil, applied},
				{"env false", "false", nil, applied},
				{"flag wins over env", "1", []string{"--include-hooks=false"}, applied},
			} {
				t.Setenv(envIncludeHooks, tc.env)
				var stdout, errOut bytes.Buffer
				code := run(append(scenarioArgs(s), tc.flags...), strings.NewReader(s.Values), &stdout, &errOut)
				require.Equal(t, 0, code, "%s: stderr: %s", tc.name, errOut.String())
				require.Equal(t, string(tc.want), stdout.String(), tc.name)
				// A kept live storage class the values would not choose is
				// warned of, as the library says it.
				var stderr bytes.Buffer
				stderr.WriteString(withoutStorageClassWarning(errOut.String()))
				var warned []string
				for _, m := range storageClassWarning.FindAllString(errOut.String(), -1) {
					warned = append(warned, strings.TrimSuffix(strings.TrimPrefix(m, "etcdshapes: warning: "), "\n"))
				}
				require.Equal(t, etcdshapes.StorageClassWarnings(req), warned, tc.name)
				switch {
				case len(objs) == 0:
					require.Contains(t, stderr.String(), fmt.Sprintf("%q", s.Live.DataStoreName))
				case bytes.Equal(tc.want, whole) && len(tc.flags) == 0:
					// Hooks the environment turned on are warned of, on
					// one line.
					require.Regexp(t, `^etcdshapes: warning: the output holds 4 Helm uninstall hooks \(ServiceAccount/\S+-cleanup, Role/\S+-cleanup, RoleBinding/\S+-cleanup, Job/\S+-cleanup\), printed because `+envIncludeHooks+`=`+tc.env+` is set: never apply it`, stderr.String(), tc.name)
					require.Equal(t, 1, strings.Count(stderr.String(), "\n"), tc.name)
				case bytes.Equal(tc.want, whole):
					require.Empty(t, stderr.String(), tc.name)
				default:
					require.Regexp(t, `^etcdshapes: left out 4 Helm uninstall hooks \(ServiceAccount/\S+-cleanup, Role/\S+-cleanup, RoleBinding/\S+-cleanup, Job/\S+-cleanup\): `, stderr.String(), tc.name)
					require.Equal(t, 1, strings.Count(stderr.String(), "\n"), tc.name)
					require.Empty(t, withoutHooksNote(stderr.String()), tc.name)
				}
			}
		})
	}
}

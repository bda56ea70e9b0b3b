package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/require"
)

// TestEveryErrorOneALine: bad input is reported with every refusal, one a
// line with the prefix, the first the one the chart prints; the exit
// status stays 1.
func TestEveryErrorOneALine(t *testing.T) {
	f := filepath.Join(t.TempDir(), "values.yaml")
	require.NoError(t, os.WriteFile(f, []byte("size: 0\nreplicas: 100\n_cluster:\n  cpu-allocation-ratio: \"-1\"\n"), 0o600))
	code, stdout, stderr := cli(t, "", "render", "etcd", "-n", "default", "-f", f, "--chart-version", "one")
	require.Equal(t, 1, code, stderr)
	require.Empty(t, stdout)
	require.Equal(t, []string{
		"etcdshapes: values.replicas: invalid value 100: is out of range: must be at most 99 (etcd advises at most 7 members)",
		"etcdshapes: values.size: invalid value 0: must be a positive quantity of bytes",
		`etcdshapes: _cluster.cpu-allocation-ratio: invalid value "-1": must be a number above 0 and at most 1e15`,
		`etcdshapes: --namespace: invalid value "default": must be a tenant namespace ("tenant-<name>")`,
		`etcdshapes: --chart-version: invalid value "one": must be a chart version as Helm reads it (SemVer 2, e.g. 1.2.3 or 1.2.3-rc.1): invalid semantic version`,
	}, lines(stderr))

	// One bad input is one line.
	code, _, stderr = cli(t, "", "render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--set", "etcd.replicas=2")
	require.Equal(t, 1, code)
	require.Equal(t, "etcdshapes: etcd.replicas: invalid value 2: must be 1 or 3\n", stderr)
}

// TestCheckFlagOne: each field CheckJob refuses is named by its flag, once:
// the options under the paths CheckJobAt validates them under, the check's
// own fields through checkFlagOf; a field that is no flag is kept.
func TestCheckFlagOne(t *testing.T) {
	for field, want := range map[string]string{"Load": "--load", "Image": "--image", "namespace": "namespace", "Version": "Version"} {
		require.Equal(t, want, renamed(invalid.Errorf(field, "x", "r"), checkFlagOf).Field, field)
	}
	require.Nil(t, renamed(nil, checkFlagOf))
	code, _, stderr := cli(t, "", "render", "check", "etcd", "-n", "tenant-root", "--etcd-version", "latest", "--size", "-1Gi", "--load", "q")
	require.Equal(t, 1, code, stderr)
	var fields []string
	for _, l := range lines(stderr) {
		fields = append(fields, strings.SplitN(strings.TrimPrefix(l, "etcdshapes: "), ":", 2)[0])
	}
	require.Equal(t, []string{"--size", "--etcd-version", "--load"}, fields, stderr)
}

// lines splits stderr into its lines.
func lines(stderr string) []string {
	return strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
}

// TestRenderCheckEveryFlag: render check names every bad flag, each by its
// flag, one a line, in the order the checks run; the quota rule is skipped
// for a size the user did not mean.
func TestRenderCheckEveryFlag(t *testing.T) {
	code, stdout, stderr := cli(t, "", "render", "check", "etcd", "-n", "tenant-root", "--etcd-version", "3", "--size", "0")
	require.Equal(t, 1, code, stderr)
	require.Empty(t, stdout)
	require.Equal(t, []string{
		`etcdshapes: --size: invalid value "0": must be a positive quantity of bytes`,
		`etcdshapes: --etcd-version: invalid value "3": must be an etcd version X.Y.Z (decimal numbers without leading zeros, as etcd's image tags v<X.Y.Z> spell them), e.g. "3.6.11"`,
	}, lines(stderr))

	code, _, stderr = cli(t, "", "render", "check", "etcd", "-n", "default", "--size", "lots", "--load", "xl", "--datascale", "--image", "my etcd")
	require.Equal(t, 1, code, stderr)
	require.Equal(t, []string{
		`etcdshapes: --namespace: invalid value "default": must be a tenant namespace ("tenant-<name>")`,
		`etcdshapes: --size: invalid value "lots": must be a quantity, e.g. "4Gi"`,
		`etcdshapes: --image: invalid value "my etcd": must be an image reference without whitespace or control characters (e.g. "gcr.io/etcd-development/etcd:v3.6.11")`,
	}, lines(stderr))

	code, _, stderr = cli(t, "", "render", "check", "etcd", "-n", "tenant-root", "--etcd-version", "latest", "--load", "xl", "--datascale")
	require.Equal(t, 1, code, stderr)
	got := lines(stderr)
	require.Len(t, got, 2, stderr)
	require.True(t, strings.HasPrefix(got[0], `etcdshapes: --etcd-version: invalid value "latest"`), got[0])
	require.True(t, strings.HasPrefix(got[1], `etcdshapes: --load: invalid value "xl": etcdctl check perf and check datascale would write about 4.3 GB`), got[1])
}

// TestRenderSnapshotEveryFlag: render snapshot reports every bad flag, one
// a line, in the order the checks run.
func TestRenderSnapshotEveryFlag(t *testing.T) {
	code, stdout, stderr := cli(t, "", "render", "snapshot", "etcd", "-n", "tenant-root", "--name", "Bad_Name", "--pvc", "Bad")
	require.Equal(t, 1, code, stderr)
	require.Empty(t, stdout)
	require.Equal(t, []string{
		`etcdshapes: --name: invalid value "Bad_Name": must be a DNS-1123 label of at most 63 characters (it names the snapshot file and what etcd-operator derives from it)`,
		`etcdshapes: --pvc: invalid value "Bad": must be a PersistentVolumeClaim name (DNS-1123 subdomain)`,
	}, lines(stderr))

	code, _, stderr = cli(t, "", "render", "snapshot", "cluster", "-n", "default", "--release", "kubernetes-demo",
		"--schedule", "0 24 * * *", "--keep", "0", "--s3-endpoint", "minio:9000", "--s3-bucket", "etcd-backups", "--s3-credentials-secret", "s3")
	require.Equal(t, 1, code, stderr)
	require.Equal(t, []string{
		`etcdshapes: --namespace: invalid value "default": must be a tenant namespace ("tenant-<name>")`,
		`etcdshapes: --keep: invalid value 0: must be between 2 and 100 (the ring always keeps its newest completed snapshot, the last good backup, so it needs a second slot for the next one)`,
		`etcdshapes: --schedule: invalid value "0 24 * * *": hour field "24": end of range (24) above maximum (23): 24`,
		`etcdshapes: --s3-endpoint: invalid value "minio:9000": must be an http or https URL, e.g. "https://s3.amazonaws.com" or "http://minio.tenant-root.svc:9000"`,
	}, lines(stderr))
}

// TestEachRefusalOnceInFlagTerms: through the CLI, a refusal of an input a
// flag set names the flag, one of the values names its values key, each
// once (the library's callers: TestEachRefusalOnceInTheCallersTerms).
func TestEachRefusalOnceInFlagTerms(t *testing.T) {
	code, _, stderr := cli(t, "", "render", "etcd", "-n", "default", "--chart-version", "one",
		"--set", "size=-1Gi,version=latest,storageClass=A_B,replicas=100", "--set-string", "_cluster.cpu-allocation-ratio=x")
	require.Equal(t, 1, code, stderr)
	require.Equal(t, []string{
		`etcdshapes: values.version: invalid value "latest": must be an etcd version X.Y.Z (decimal numbers without leading zeros, as etcd's image tags v<X.Y.Z> spell them), e.g. "3.6.11"`,
		"etcdshapes: values.replicas: invalid value 100: is out of range: must be at most 99 (etcd advises at most 7 members)",
		`etcdshapes: values.size: invalid value "-1Gi": must be a positive quantity of bytes`,
		`etcdshapes: _cluster.cpu-allocation-ratio: invalid value "x": must be a decimal number`,
		`etcdshapes: --namespace: invalid value "default": must be a tenant namespace ("tenant-<name>")`,
		`etcdshapes: --chart-version: invalid value "one": must be a chart version as Helm reads it (SemVer 2, e.g. 1.2.3 or 1.2.3-rc.1): invalid semantic version`,
		`etcdshapes: values.storageClass: invalid value "A_B": must be a StorageClass name (DNS-1123 subdomain)`,
	}, lines(stderr))

	code, _, stderr = cli(t, "", "render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--live-storage-class", "A_B",
		"--set", "etcd.replicas=2,_cluster.etcd-storage-class-local=B_C")
	require.Equal(t, 1, code, stderr)
	require.Equal(t, []string{
		"etcdshapes: etcd.replicas: invalid value 2: must be 1 or 3",
		`etcdshapes: --live-storage-class: invalid value "A_B": must be a StorageClass name (DNS-1123 subdomain)`,
		`etcdshapes: _cluster.etcd-storage-class-local: invalid value "B_C": must be a StorageClass name (DNS-1123 subdomain)`,
	}, lines(stderr))

	// The names, the release given as the RELEASE argument: each once,
	// by its flag, among the values' refusals (render), or alone (plan
	// reads the live objects by the names, so it stops at them).
	ns := `etcdshapes: --namespace: invalid value "default": must be a tenant namespace ("tenant-<name>")`
	rel := `etcdshapes: --release: invalid value "Bad_": must be a DNS-1123 label: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`
	bad := []string{"cluster", "Bad_", "-n", "default", "--chart-version", "one", "--set", "etcd.replicas=2"}
	code, _, stderr = cli(t, "", append([]string{"render"}, bad...)...)
	require.Equal(t, 1, code, stderr)
	require.Equal(t, []string{
		"etcdshapes: etcd.replicas: invalid value 2: must be 1 or 3", ns, rel,
		`etcdshapes: --chart-version: invalid value "one": must be a chart version as Helm reads it (SemVer 2, e.g. 1.2.3 or 1.2.3-rc.1): invalid semantic version`,
	}, lines(stderr))
	live := filepath.Join(t.TempDir(), "live.yaml")
	require.NoError(t, os.WriteFile(live, nil, 0o600))
	code, _, stderr = cli(t, "", append([]string{"plan", "--live", live}, bad...)...)
	require.Equal(t, 1, code, stderr)
	require.Equal(t, []string{ns, rel}, lines(stderr))
}

package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The CLI prints what the builders build: the etcd package's golden files.
func TestRenderSnapshotMatchesBuilders(t *testing.T) {
	checkMatchesBuilders(t, renderSnapshot, []builderCase{
		{"snapshot-s3", []string{"etcd", "--namespace", "tenant-root", "--name", "before-upgrade",
			"--s3-endpoint", "https://minio.tenant-root.svc:9000", "--s3-bucket", "etcd-backups", "--s3-key", "tenant-root/",
			"--s3-region", "us-east-1", "--s3-force-path-style", "--s3-credentials-secret", "etcd-backup-s3"}},
		{"snapshot-pvc", []string{"cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--name", "kubernetes-demo-manual", "--pvc", "etcd-backups"}},
		{"schedule-s3", []string{"etcd", "--namespace", "tenant-root", "--schedule", "0 3 * * *",
			"--s3-endpoint", "https://minio.tenant-root.svc:9000", "--s3-bucket", "etcd-backups", "--s3-key", "tenant-root/etcd/",
			"--s3-region", "us-east-1", "--s3-force-path-style", "--s3-credentials-secret", "etcd-backup-s3"}},
		{"schedule-pvc-longname", []string{"cluster", "--namespace", "tenant-demo", "--release", "kubernetes-production-cluster-eu-west-1-abcdefghijk",
			"--schedule", "@hourly", "--keep", "24", "--pvc", "etcd-backups", "--pvc-subpath", "hourly"}},
	})
}

func TestRenderSnapshotErrors(t *testing.T) {
	pvc := []string{"--pvc", "backups"}
	checkUsage(t, renderSnapshot, []usageCase{
		{nil, 2, "Usage:"},
		{[]string{"-h"}, 0, "Usage:"},
		{[]string{"cluster", "--help"}, 0, "etcdshapes render snapshot cluster RELEASE --namespace NS"},
		{[]string{"mysql", "--namespace", "tenant-root"}, 2, `unknown caller "mysql"`},
		{append([]string{"etcd", "--namespace", "tenant-root"}, pvc...), 2, "exactly one of --name"},
		{append([]string{"etcd", "--namespace", "tenant-root", "--name", "a", "--schedule", "@daily"}, pvc...), 2, "exactly one of --name"},
		{[]string{"etcd", "--namespace", "tenant-root", "--name", "a"}, 2, "exactly one destination"},
		{append([]string{"etcd", "--namespace", "tenant-root", "--name", "a", "--s3-bucket", "b"}, pvc...), 2, "exactly one destination"},
		{append([]string{"etcd", "--namespace", "tenant-root", "--name", "a", "--keep", "3"}, pvc...), 2, "--keep needs --schedule"},
		{append([]string{"cluster", "--namespace", "tenant-demo", "--name", "a"}, pvc...), 2, "--release is required"},
		{append([]string{"etcd", "--namespace", "tenant-root", "--name", "a"}, append(pvc, "etcd", "extra")...), 2, `unexpected argument "extra"`},
		{append([]string{"etcd", "--namespace", "tenant-root", "--schedule", "@daily", "--keep", "0"}, pvc...), 1, "keep: invalid value 0"},
		{append([]string{"etcd", "--namespace", "tenant-root", "--schedule", "every day"}, pvc...), 1, `schedule: invalid value "every day"`},
		{[]string{"etcd", "--namespace", "tenant-root", "--name", "a", "--s3-endpoint", "https://s3", "--s3-bucket", "B", "--s3-credentials-secret", "c"}, 1,
			`--s3-bucket: invalid value "B"`},
		{[]string{"etcd", "--namespace", "tenant-root", "--name", "a", "--s3-endpoint", "https://s3", "--s3-bucket", "bucket", "--s3-credentials-secret", "c", "--s3-key", "x"}, 1,
			`--s3-key: invalid value "x": must be a prefix ending in "/"`},
		{append([]string{"etcd", "--namespace", "default", "--name", "a"}, pvc...), 1, `namespace: invalid value "default"`},
	})
}

// TestRenderSnapshotRefusesWhatNeverRuns: through the flags, an endpoint
// nothing can reach, a schedule that never fires, and every character of
// the hidden class (C0, DEL, C1, U+2028/U+2029, the BOM, a bidirectional
// override, a noncharacter, invalid UTF-8) in every free-text flag are
// refused with the field named: exit 1, nothing on stdout, no raw
// character on stderr.
func TestRenderSnapshotRefusesWhatNeverRuns(t *testing.T) {
	s3 := []string{"--s3-endpoint", "https://minio.tenant-root.svc:9000", "--s3-bucket", "etcd-backups", "--s3-credentials-secret", "s3", "--s3-key", "etcd/"}
	base := []string{"render", "snapshot", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo"}
	run := func(args ...string) (int, string, string) {
		return cli(t, "", append(append([]string{}, base...), args...)...)
	}
	for _, c := range []struct {
		args  []string
		field string
	}{
		{append([]string{"--name", "x"}, append(s3, "--s3-endpoint", "https://:443")...), "--s3-endpoint"},
		{append([]string{"--name", "x"}, append(s3, "--s3-endpoint", "https://minio:99999")...), "--s3-endpoint"},
		{append([]string{"--name", "x"}, append(s3, "--s3-endpoint", "http://minio:0")...), "--s3-endpoint"},
		{append([]string{"--schedule", "0 3 30 2 *"}, s3...), "--schedule"},
		{append([]string{"--schedule", "0 0 31 4 *"}, s3...), "--schedule"},
		{append([]string{"--schedule", "TZ=UTC 0 3 * * *"}, s3...), "--schedule"},
		// Over the length their consumer takes (etcd.MaxScheduleLength,
		// MaxS3EndpointLength, MaxSnapshotPath less the appended file,
		// MaxPathSegment).
		{append([]string{"--schedule", "0" + strings.Repeat(" ", 1017) + "3 * * *"}, s3...), "--schedule"},
		{append([]string{"--name", "x"}, append(s3, "--s3-endpoint", "https://s3.example.com/"+strings.Repeat("p", 1002))...), "--s3-endpoint"},
		{append([]string{"--name", "x"}, append(s3, "--s3-key", strings.Repeat("k", 958)+"/")...), "--s3-key"},
		{[]string{"--name", "x", "--pvc", "etcd-backups", "--pvc-subpath", strings.Repeat(strings.Repeat("d", 200)+"/", 4) + strings.Repeat("d", 154)}, "--pvc-subpath"},
		{[]string{"--name", "x", "--pvc", "etcd-backups", "--pvc-subpath", "etcd/" + strings.Repeat("s", 256)}, "--pvc-subpath"},
		// Lost with what it backs up, or replaced by the schedule.
		{[]string{"--name", "x", "--pvc", "data-kubernetes-demo-etcd-0"}, "--pvc"},
		{[]string{"--schedule", "@daily", "--pvc", "data-etcd-1"}, "--pvc"},
		{[]string{"--name", "kubernetes-demo-etcd-snapshot-0", "--pvc", "etcd-backups"}, "--name"},
		{append([]string{"--name", "x"}, append(s3, "--s3-endpoint", "ftp://admin:S3cr3t@s3.example.com")...), "--s3-endpoint"},
	} {
		code, stdout, stderr := run(c.args...)
		require.Equal(t, 1, code, "%v: %s", c.args, stderr)
		require.Empty(t, stdout)
		require.True(t, strings.HasPrefix(stderr, "etcdshapes: "+c.field+": invalid value "), "%v: %s", c.args, stderr)
		require.NotContains(t, stderr, "S3cr3t")
	}
	var class []string
	for r := rune(1); r < 0x20; r++ {
		class = append(class, string(r))
	}
	for r := rune(0x7F); r <= 0x9F; r++ {
		class = append(class, string(r))
	}
	class = append(class, "\u2028", "\u2029", "\ufeff", "\u202e", "\ufffe", "\xff", "\xc3")
	for _, ch := range class {
		for _, f := range []struct{ flag, value, field string }{
			{"--s3-key", "etcd" + ch + "x/", "--s3-key"},
			{"--s3-endpoint", "https://s3" + ch + ".example.com", "--s3-endpoint"},
			{"--s3-bucket", "etcd" + ch + "x", "--s3-bucket"},
			{"--s3-region", "us" + ch + "east", "--s3-region"},
			{"--s3-credentials-secret", "s3" + ch, "--s3-credentials-secret"},
			{"--pvc-subpath", "etcd" + ch + "x", "--pvc-subpath"},
			{"--pvc", "etcd" + ch + "x", "--pvc"},
			{"--name", "x" + ch + "y", "--name"},
		} {
			args := []string{"--name", "x"}
			if f.flag == "--name" {
				args = nil
			}
			if strings.HasPrefix(f.flag, "--pvc") {
				args = append(args, "--pvc", "etcd-backups")
			} else {
				args = append(args, s3...)
			}
			code, stdout, stderr := run(append(args, f.flag, f.value)...)
			require.Equal(t, 1, code, "%s %q: %s", f.flag, f.value, stderr)
			require.Empty(t, stdout)
			require.True(t, strings.HasPrefix(stderr, "etcdshapes: "+f.field+": invalid value "), "%s %q: %q", f.flag, f.value, stderr)
			require.NotContains(t, strings.TrimSuffix(stderr, "\n"), ch, "%s %q: the character is printed raw", f.flag, f.value)
		}
	}
}

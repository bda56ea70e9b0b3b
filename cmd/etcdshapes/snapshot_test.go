package main

import "testing"

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
		{[]string{"cluster", "--help"}, 0, "etcdshapes render snapshot cluster --namespace NS --release REL"},
		{[]string{"mysql", "--namespace", "tenant-root"}, 2, `unknown caller "mysql"`},
		{append([]string{"etcd", "--namespace", "tenant-root"}, pvc...), 2, "exactly one of --name"},
		{append([]string{"etcd", "--namespace", "tenant-root", "--name", "a", "--schedule", "@daily"}, pvc...), 2, "exactly one of --name"},
		{[]string{"etcd", "--namespace", "tenant-root", "--name", "a"}, 2, "exactly one destination"},
		{append([]string{"etcd", "--namespace", "tenant-root", "--name", "a", "--s3-bucket", "b"}, pvc...), 2, "exactly one destination"},
		{append([]string{"etcd", "--namespace", "tenant-root", "--name", "a", "--keep", "3"}, pvc...), 2, "--keep needs --schedule"},
		{append([]string{"cluster", "--namespace", "tenant-demo", "--name", "a"}, pvc...), 2, "--release is required"},
		{append([]string{"etcd", "--namespace", "tenant-root", "--name", "a"}, append(pvc, "extra")...), 2, `unexpected argument "extra"`},
		{append([]string{"etcd", "--namespace", "tenant-root", "--schedule", "@daily", "--keep", "0"}, pvc...), 1, "keep: invalid value 0"},
		{append([]string{"etcd", "--namespace", "tenant-root", "--schedule", "every day"}, pvc...), 1, `schedule: invalid value "every day"`},
		{[]string{"etcd", "--namespace", "tenant-root", "--name", "a", "--s3-endpoint", "https://s3", "--s3-bucket", "B", "--s3-credentials-secret", "c"}, 1,
			`destination.s3.bucket: invalid value "B"`},
		{[]string{"etcd", "--namespace", "tenant-root", "--name", "a", "--s3-endpoint", "https://s3", "--s3-bucket", "bucket", "--s3-credentials-secret", "c", "--s3-key", "x"}, 1,
			`destination.s3.key: invalid value "x": must be a prefix ending in "/"`},
		{append([]string{"etcd", "--namespace", "default", "--name", "a"}, pvc...), 1, `namespace: invalid value "default"`},
	})
}

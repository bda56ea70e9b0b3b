package etcdshapes_test

import (
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/bigyaml"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// inputs3BadInputs are the classes a hostile tester found past issue 19:
// a live stream beyond its limits as a whole (TestLiveStreamBounded), an
// S3 bucket name S3 refuses (etcd's TestS3BucketNamingRules), a naming
// helper's input that makes no name (naming's
// TestEveryHelperGivesANameOrAnError), and a Go quantity beyond the bounds
// in a values map (values' TestGoQuantitiesInValues).
func inputs3BadInputs() []badInput {
	live := func(data []byte) func() error {
		return func() error { _, err := plan.ReadObjects(data); return err }
	}
	bucket := func(name string) func() error {
		return func() error {
			return etcd.ValidateSnapshotDestination("destination", v1alpha2.SnapshotLocation{S3: &v1alpha2.S3Location{
				Endpoint: "https://s3.example.com", Bucket: name, CredentialsSecretRef: corev1.LocalObjectReference{Name: "s3"}}})
		}
	}
	names, _ := naming.ForEtcdChart("tenant-root", naming.EtcdChartRelease)
	huge := resource.MustParse("1e90")
	huge.Add(huge)
	empty := bigyaml.EmptyDocuments(plan.MaxDocuments + 1)
	return []badInput{
		{"live file of too many documents", live(empty), "live", "--- …", "has more than 20000 YAML documents (empty ones counted)"},
		{"live file of too many nodes together", live([]byte(liveThirds())), "live", "apiVersion: v1 …", "YAML nodes in its documents together"},
		{"S3 bucket formatted as an IP address", bucket("192.168.1.1"), "destination.s3.bucket", "192.168.1.1", "not formatted as an IP address"},
		{"S3 bucket of a reserved prefix", bucket("xn--abc"), "destination.s3.bucket", "xn--abc", "not beginning with xn--"},
		{"S3 bucket of a reserved suffix", bucket("abc--ol-s3"), "destination.s3.bucket", "abc--ol-s3", "not ending with --ol-s3"},
		{"data PVC of a negative member", func() error { _, err := names.DataPVC(-1); return err }, "member", -1, "member index from 0 to 98"},
		{"snapshot slot beyond the ring", func() error { _, err := names.SnapshotSlot(naming.MaxSnapshotKeep); return err }, "slot", naming.MaxSnapshotKeep, "from 0 to 99"},
		{"tenant path of an empty tenant", func() error { _, err := naming.TenantPath("tenant--a"); return err }, "namespace", "tenant--a", "every tenant name on the path must be non-empty"},
		{"Go quantity beyond the bounds in values", func() error { _, err := values.ReadEtcdChart(map[string]any{"size": huge}); return err }, "values.size", "2e90", "out of range"},
	}
}

// liveThirds is three documents of a third of the live node limit each.
func liveThirds() string {
	third := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: b}\nx:\n"
	var b []byte
	items := make([]byte, 0, 4*(plan.MaxNodes/3+10))
	for range plan.MaxNodes/3 + 10 {
		items = append(items, "- a\n"...)
	}
	for i := range 3 {
		if i > 0 {
			b = append(b, "---\n"...)
		}
		b = append(b, third...)
		b = append(b, items...)
	}
	return string(b)
}

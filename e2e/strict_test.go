//go:build apiserver

package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	etcdv1alpha2 "github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/naming"
	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestServerRejectsBadObjects shows that the dry-run check of
// TestGoldenObjectsAccepted can fail: the same requests, made with objects
// spoiled on purpose, are refused, for a custom kind (CRD schema) and a
// built-in one, for an unknown field (strict field validation) and for a
// bad value. None of these objects is counted in the closing line.
func TestServerRejectsBadObjects(t *testing.T) {
	ctx := context.Background()
	var objs []etcdshapes.Object
	for _, s := range golden.All() {
		if s.Caller == naming.CallerEtcd {
			var err error
			if objs, err = s.Render(); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	var (
		cluster *etcdv1alpha2.EtcdCluster
		cron    *batchv1.CronJob
	)
	for _, o := range objs {
		switch o := o.(type) {
		case *etcdv1alpha2.EtcdCluster:
			cluster = o
		case *batchv1.CronJob:
			cron = o
		}
	}
	if cluster == nil || cron == nil {
		t.Fatal("the etcd chart's stack lacks its EtcdCluster or defrag CronJob")
	}
	if err := ensureNamespace(ctx, cluster.Namespace); err != nil {
		t.Fatal(err)
	}
	withField := func(o etcdshapes.Object, value any, path ...string) client.Object {
		t.Helper()
		u, err := asUnstructured(o)
		if err != nil {
			t.Fatal(err)
		}
		if err := unstructured.SetNestedField(u.Object, value, path...); err != nil {
			t.Fatal(err)
		}
		return u
	}
	badVersion := cluster.DeepCopy()
	badVersion.Spec.Version = "latest"
	badSchedule := cron.DeepCopy()
	badSchedule.Spec.Schedule = "every night"

	for _, c := range []struct {
		name string
		obj  client.Object
		want string
	}{
		{"EtcdCluster unknown field", withField(cluster, "ssd", "spec", "storage", "class"), `unknown field "spec.storage.class"`},
		{"EtcdCluster bad version", badVersion, "spec.version"},
		{"CronJob unknown field", withField(cron, int64(1), "spec", "jobTemplate", "spec", "retries"), `unknown field "spec.jobTemplate.spec.retries"`},
		{"CronJob bad schedule", badSchedule, "spec.schedule"},
	} {
		err := k.Create(ctx, c.obj, client.DryRunAll, strict)
		switch {
		case err == nil:
			t.Errorf("%s: accepted; the check would not catch it", c.name)
		case !strings.Contains(err.Error(), c.want):
			t.Errorf("%s: refused for another reason (want %q): %s", c.name, c.want, oneLine(err))
		default:
			t.Logf("%s: rejected as expected: %s", c.name, oneLine(err))
		}
	}
}

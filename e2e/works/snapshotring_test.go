package works

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/jsonpath"
)

// TestSnapshotListingAsKubectlPrintsIt: the scheduled snapshot's script
// lists its ring with kubectl get --sort-by=.metadata.creationTimestamp
// --output='jsonpath=...' and reads one "<name>:<phase>" line per
// snapshot, oldest first; the etcd package's fake kubectl prints exactly
// that. Here the template, read from the rendered CronJob, runs through
// client-go's jsonpath as kubectl's JSONPathPrinter runs it
// (k8s.io/cli-runtime/pkg/printers: jsonpath.New, AllowMissingKeys(true),
// Parse, Execute over the List kubectl got, sorted), over snapshots that
// completed, failed, are pending, and have no status yet (which the
// operator has not reconciled): each prints as the script expects, a
// missing phase as nothing after the colon.
func TestSnapshotListingAsKubectlPrintsIt(t *testing.T) {
	n, err := naming.ForCluster("tenant-demo", "kubernetes-demo")
	if err != nil {
		t.Fatal(err)
	}
	dest := v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "backups"}}
	s, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "@daily", Keep: 4, Destination: dest})
	if err != nil {
		t.Fatal(err)
	}
	script := s.CronJob.Spec.JobTemplate.Spec.Template.Spec.Containers[0].Command[2]
	m := regexp.MustCompile(`kubectl get "\$res" \$SNAPSHOT_RING [^\n]*--output='jsonpath=([^']*)'`).FindStringSubmatch(script)
	if m == nil {
		t.Fatalf("the script lists its ring otherwise than with --output='jsonpath=...':\n%s", script)
	}
	var items []any
	for i, phase := range []string{v1alpha2.SnapshotPhaseComplete, v1alpha2.SnapshotPhaseFailed, v1alpha2.SnapshotPhasePending, ""} {
		snap, err := etcd.Snapshot(n, s.Slots[i], dest)
		if err != nil {
			t.Fatal(err)
		}
		snap.CreationTimestamp = metav1.NewTime(time.Date(2026, 12, 1+i, 3, 0, 0, 0, time.UTC))
		if phase != "" {
			snap.Status = &v1alpha2.EtcdSnapshotStatus{Phase: phase, Conditions: []metav1.Condition{{Type: "Ready", Status: metav1.ConditionFalse}}}
		}
		b, err := json.Marshal(snap)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := json.Unmarshal(b, &obj); err != nil {
			t.Fatal(err)
		}
		items = append(items, obj)
	}
	list := map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{}, "items": items}

	j := jsonpath.New("out")
	j.AllowMissingKeys(true)
	if err := j.Parse(m[1]); err != nil {
		t.Fatalf("kubectl cannot parse the template %q: %v", m[1], err)
	}
	var out bytes.Buffer
	if err := j.Execute(&out, list); err != nil {
		t.Fatal(err)
	}
	want := s.Slots[0] + ":Complete\n" + s.Slots[1] + ":Failed\n" + s.Slots[2] + ":Pending\n" + s.Slots[3] + ":\n"
	if out.String() != want {
		t.Fatalf("kubectl prints\n%q\nwhere the script reads\n%q", out.String(), want)
	}
}

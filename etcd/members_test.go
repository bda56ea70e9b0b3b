package etcd_test

import (
	"testing"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
)

// TestMembersBoundOnce: naming's member indices (DataPVC) run to the
// replicas the options admit, so every member of an admitted stack has
// its PVC name, and the cleanup hook of the most members builds.
func TestMembersBoundOnce(t *testing.T) {
	if int(etcd.MaxReplicas) != naming.MaxMembers {
		t.Fatalf("etcd.MaxReplicas %d, naming.MaxMembers %d: one bound of the members", etcd.MaxReplicas, naming.MaxMembers)
	}
	n, err := naming.ForEtcdChart("tenant-root", naming.EtcdChartRelease)
	if err != nil {
		t.Fatal(err)
	}
	h, err := etcd.Cleanup(n, etcd.MaxReplicas)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Role.Rules[0].ResourceNames; len(got) != int(etcd.MaxReplicas) || got[len(got)-1] != "data-etcd-98" {
		t.Fatalf("the hook deletes %v", got)
	}
}

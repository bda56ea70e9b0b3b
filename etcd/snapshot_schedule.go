package etcd

import (
	"encoding/json"
	"fmt"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/manifest"
	"strings"

	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/naming"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Scheduled snapshot settings.
const (
	// DefaultSnapshotKeep is how many snapshots a schedule keeps when
	// SnapshotScheduleOptions.Keep is 0: a week of daily snapshots.
	DefaultSnapshotKeep = 7
	// SnapshotComponentLabel marks the EtcdSnapshots a schedule creates,
	// with app.kubernetes.io/instance naming the cluster.
	SnapshotComponentLabel = "app.kubernetes.io/component"
	// SnapshotComponent is its value.
	SnapshotComponent = "scheduled-snapshot"

	snapshotResource = "etcdsnapshots"
	snapshotTimeout  = "300s"
)

// snapshotScript takes one snapshot into the schedule's ring of names. It
// is a constant, so the CronJob changes only when its inputs (environment)
// do. The ring is SNAPSHOT_RING, slot 0 first. The first free slot is
// used; when every slot holds a snapshot, the oldest (by creation time) is
// deleted and its name reused, which keeps the last N, except that the
// newest snapshot that completed (phase Complete: the last good backup) is
// never deleted, however old: when the snapshots after it failed, the
// oldest other one goes (keep is at least naming.MinSnapshotKeep, so there
// always is one). Reusing names is what lets the Role grant get and delete
// on exactly the ring's names (RBAC cannot scope delete by label, and
// cannot scope create by name at all), and it bounds storage: the file
// "<slot>.db" is overwritten in place even where the operator leaves a
// deleted snapshot's file behind. kubectl get prints each snapshot as
// "<name>:<phase>", oldest first (snapshotListing; a snapshot the operator
// has not reconciled yet has no phase). The manifest is SNAPSHOT_HEAD, the
// slot name, SNAPSHOT_TAIL (JSON).
const snapshotScript = `set -euf
res=etcdsnapshots.etcd-operator.cozystack.io
existing=$(kubectl get "$res" $SNAPSHOT_RING --namespace="$NAMESPACE" --ignore-not-found --sort-by=.metadata.creationTimestamp --output='` + snapshotListing + `')
taken=""
good=""
for entry in $existing; do
  name=${entry%%:*}
  taken="$taken $name"
  if [ "${entry#*:}" = ` + v1alpha2.SnapshotPhaseComplete + ` ]; then
    good=$name
  fi
done
slot=""
for name in $SNAPSHOT_RING; do
  case " $taken " in
    *" $name "*) ;;
    *) slot=$name; break ;;
  esac
done
if [ -z "$slot" ]; then
  for name in $taken; do
    if [ "$name" != "$good" ]; then
      slot=$name
      break
    fi
  done
  if [ -n "$good" ]; then
    echo "Deleting the oldest snapshot $slot, keeping $good, the newest that completed"
  else
    echo "Deleting the oldest snapshot $slot (none completed)"
  fi
  kubectl delete "$res" "$slot" --namespace="$NAMESPACE" --wait=true --timeout=` + snapshotTimeout + `
fi
echo "Creating EtcdSnapshot $slot"
printf '%s%s%s' "$SNAPSHOT_HEAD" "$slot" "$SNAPSHOT_TAIL" | kubectl create --namespace="$NAMESPACE" --filename=-
`

// snapshotListing is the kubectl output format the snapshot script lists
// the ring with: one line "<name>:<phase>" per snapshot (kubectl's
// jsonpath printer leaves a missing phase empty). Names are DNS labels
// and phases single words, so the shell splits the lines on whitespace.
const snapshotListing = `jsonpath={range .items[*]}{.metadata.name}{":"}{.status.phase}{"\n"}{end}`

// SnapshotScheduleOptions describe a scheduled snapshot.
type SnapshotScheduleOptions struct {
	// Schedule is a five-field cron expression ("0 3 * * *") or one of
	// @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly,
	// in the kube-controller-manager's time zone, as ValidateSchedule
	// checks it: one that fires.
	Schedule string
	// Keep is how many snapshots the schedule keeps (naming.MinSnapshotKeep
	// to naming.MaxSnapshotKeep; the ring never deletes its newest
	// completed snapshot, so it needs a second slot); 0 means
	// DefaultSnapshotKeep. Lowering it leaves the snapshots in the slots
	// above; delete them by hand.
	Keep int
	// Destination is where every snapshot goes (see
	// ValidateSnapshotDestination). Slot i's file is
	// SnapshotFile(Destination, Slots[i]).
	Destination v1alpha2.SnapshotLocation
}

// SnapshotSchedule is a CronJob that snapshots a cluster on a schedule and
// keeps the last Keep snapshots, with the least privilege that takes: a
// ServiceAccount whose Role may create EtcdSnapshots and get, list, watch
// and delete only the ring's names.
type SnapshotSchedule struct {
	// ServiceAccount is the identity the CronJob's pods run as.
	ServiceAccount *corev1.ServiceAccount
	// Role may create EtcdSnapshots and get, list, watch and delete the ring's
	// names (Slots) only.
	Role *rbacv1.Role
	// RoleBinding binds Role to ServiceAccount.
	RoleBinding *rbacv1.RoleBinding
	// CronJob runs on the schedule, deletes the oldest slot's snapshot when the
	// ring is full (never the newest that completed) and creates the next
	// one.
	CronJob *batchv1.CronJob
	// Slots are the ring's EtcdSnapshot names, slot 0 first.
	Slots []string
}

// Objects lists the schedule's objects in creation order.
func (s SnapshotSchedule) Objects() []manifest.Object {
	return []manifest.Object{s.ServiceAccount, s.Role, s.RoleBinding, s.CronJob}
}

// ScheduledSnapshots builds the snapshot schedule of the cluster n names.
// The names, the schedule, Keep and each field of the destination are
// checked each on its own: a bad input returns every refusal (see
// invalid.List) in that order.
func ScheduledSnapshots(n naming.Names, o SnapshotScheduleOptions) (SnapshotSchedule, error) {
	var c invalid.Collector
	c.Add(n.Validate())
	c.Add(ValidateSchedule("schedule", o.Schedule))
	keep := o.Keep
	if keep == 0 {
		keep = DefaultSnapshotKeep
	}
	// SnapshotSlots checks keep (and the names, refused above); the slot
	// names are used only when every check passed.
	slots, err := n.SnapshotSlots(keep)
	c.AddExcept(err, map[string]bool{"names": true})
	c.Add(ValidateSnapshotDestination("destination", o.Destination))
	c.Add(validateOffMembers(n, "destination", o.Destination))
	if err := c.Err(); err != nil {
		return SnapshotSchedule{}, err
	}
	head, tail, err := snapshotManifest(n, slots[0], o.Destination)
	if err != nil {
		return SnapshotSchedule{}, err
	}
	name := n.SnapshotSchedule()
	meta := metav1.ObjectMeta{Name: name, Namespace: n.Namespace}
	group := v1alpha2.SchemeGroupVersion.Group
	return SnapshotSchedule{
		ServiceAccount: &corev1.ServiceAccount{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"},
			ObjectMeta: meta,
		},
		Role: &rbacv1.Role{
			TypeMeta:   metav1.TypeMeta{APIVersion: RBACAPIVersion, Kind: "Role"},
			ObjectMeta: meta,
			Rules: []rbacv1.PolicyRule{
				// RBAC ignores resourceNames on create (the name is not
				// known when it authorizes); creating a snapshot is the
				// job's purpose and cannot touch an existing one.
				{APIGroups: []string{group}, Resources: []string{snapshotResource}, Verbs: []string{"create"}},
				// list and watch with resourceNames admit only requests
				// with a metadata.name field selector: kubectl delete
				// --wait watching one snapshot go.
				{APIGroups: []string{group}, Resources: []string{snapshotResource}, Verbs: []string{"get", "list", "watch", "delete"}, ResourceNames: slots},
			},
		},
		RoleBinding: &rbacv1.RoleBinding{
			TypeMeta:   metav1.TypeMeta{APIVersion: RBACAPIVersion, Kind: "RoleBinding"},
			ObjectMeta: meta,
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: name, Namespace: n.Namespace}},
		},
		CronJob: snapshotCronJob(n, o.Schedule, slots, head, tail),
		Slots:   slots,
	}, nil
}

// snapshotManifest is the JSON of slot's EtcdSnapshot split around its
// name, so that the script can name any slot without templating JSON.
func snapshotManifest(n naming.Names, slot string, dest v1alpha2.SnapshotLocation) (head, tail string, err error) {
	labels := map[string]string{InstanceLabel: n.Cluster, SnapshotComponentLabel: SnapshotComponent}
	raw, err := json.Marshal(snapshot(n, slot, dest, labels))
	if err != nil {
		return "", "", err
	}
	s := string(raw)
	marker := `"metadata":{"name":"` + slot + `"`
	i := strings.Index(s, marker)
	if i < 0 {
		return "", "", fmt.Errorf("etcd: snapshot manifest has no metadata.name %q", slot)
	}
	at := i + len(marker) - len(slot) - 1
	return s[:at], s[at+len(slot):], nil
}

func snapshotCronJob(n naming.Names, schedule string, slots []string, head, tail string) *batchv1.CronJob {
	name := n.SnapshotSchedule()
	// cronJob runs one at a time: two runs at once could pick the same slot.
	return cronJob(name, n.Namespace, schedule, 600, corev1.PodTemplateSpec{
		// The pod talks to the API server only; it never reaches etcd, so
		// it carries no etcd policy label.
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{AllowToAPIServerLabel: "true"}},
		Spec: kubectlPodSpec(name, "snapshot", []string{"/bin/sh", "-c", snapshotScript}, []corev1.EnvVar{
			{Name: "NAMESPACE", Value: n.Namespace},
			{Name: "SNAPSHOT_RING", Value: strings.Join(slots, " ")},
			{Name: "SNAPSHOT_HEAD", Value: head},
			{Name: "SNAPSHOT_TAIL", Value: tail},
		}, false),
	})
}

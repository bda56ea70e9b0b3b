package naming

import (
	"github.com/etcdshapes/etcdshapes/invalid"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation"
)

// Limits of the snapshot names.
const (
	// MaxSnapshotKeep bounds how many snapshots one schedule keeps. Each
	// kept snapshot is a name in the schedule's Role, and the slot number
	// is at most two digits, which keeps every slot name a DNS-1123 label.
	MaxSnapshotKeep = 100
	// MinSnapshotKeep is the fewest snapshots a schedule keeps: its ring
	// never gives up the newest snapshot that completed (the last good
	// backup) for a new one, so a ring of one would take a single
	// snapshot and then never another.
	MinSnapshotKeep = 2
	// MaxSnapshotName bounds an EtcdSnapshot name. The name becomes the
	// file name of the snapshot ("<name>.db") and etcd-operator derives
	// objects and label values from it, so it is held to a DNS-1123 label.
	MaxSnapshotName = validation.DNS1123LabelMaxLength

	// snapshotScheduleKeep is the readable part the schedule name keeps
	// when hashed: 34 + "-" + 8 hex + "-snapshot" = 52, the CronJob limit.
	// Released with the scheme; never change it.
	snapshotScheduleKeep = 34
	snapshotSuffix       = "-snapshot"
)

// KeepRule is the rule a schedule's keep must follow, as its refusals
// state it.
var KeepRule = "must be between " + strconv.Itoa(MinSnapshotKeep) + " and " + strconv.Itoa(MaxSnapshotKeep) +
	" (the ring always keeps its newest completed snapshot, the last good backup, so it needs a second slot for the next one)"

// SnapshotSchedule is the name of the scheduled-snapshot CronJob and of its
// ServiceAccount, Role and RoleBinding: "<name>-snapshot", hashed down to
// the CronJob limit of 52 characters when longer (as DefragCronJob is).
func (n Names) SnapshotSchedule() string {
	return hashTruncate(n.Cluster+snapshotSuffix, MaxCronJobName, snapshotScheduleKeep, snapshotSuffix)
}

// SnapshotSlot is the name of slot i of the schedule's ring of EtcdSnapshots,
// "<schedule>-<i>". A schedule that keeps N snapshots reuses the names of
// slots 0 to N-1, so its Role can grant delete on exactly those names.
// At most 52 + 1 + 2 = 55 characters for i below MaxSnapshotKeep. Names
// that Validate refuses, and an i outside 0 to MaxSnapshotKeep-1 (-1 gave
// "etcd-snapshot--1"), are refused, an *invalid.Error naming "names" or
// "slot".
func (n Names) SnapshotSlot(i int) (string, error) {
	if err := n.Validate(); err != nil {
		return "", err
	}
	if i < 0 || i >= MaxSnapshotKeep {
		return "", invalid.Errorf("slot", i, "must be a slot of a schedule's ring, from 0 to %d", MaxSnapshotKeep-1)
	}
	return n.snapshotSlot(i), nil
}

func (n Names) snapshotSlot(i int) string {
	return n.SnapshotSchedule() + "-" + strconv.Itoa(i)
}

// SnapshotSlots lists the names of slots 0 to keep-1; keep must be between
// MinSnapshotKeep and MaxSnapshotKeep, and n valid (Validate): each is
// refused on its own ("names", "keep").
func (n Names) SnapshotSlots(keep int) ([]string, error) {
	var c invalid.Collector
	c.Add(n.Validate())
	if keep < MinSnapshotKeep || keep > MaxSnapshotKeep {
		c.Addf("keep", keep, "%s", KeepRule)
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	out := make([]string, keep)
	for i := range out {
		out[i] = n.snapshotSlot(i)
	}
	return out, nil
}

// ValidateSnapshotName checks the name of a one-off EtcdSnapshot: a
// DNS-1123 label (see MaxSnapshotName).
func ValidateSnapshotName(field, name string) error {
	if name == "" {
		return invalid.Errorf(field, name, "must not be empty")
	}
	if errs := validation.IsDNS1123Label(name); len(errs) > 0 {
		return invalid.Errorf(field, name, "must be a DNS-1123 label of at most %d characters (it names the snapshot file and what etcd-operator derives from it)", MaxSnapshotName)
	}
	return nil
}

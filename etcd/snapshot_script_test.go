package etcd_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeKubectl keeps EtcdSnapshots as files in $FAKE_STATE, each holding
// its creation sequence number and its phase (empty until "the operator"
// sets one), and answers the three calls the snapshot script makes the way
// kubectl does: get prints the snapshots it finds, oldest first, in the
// format asked for (--output=name, or $FAKE_LISTING, the script's own,
// printed "<name>:<phase>" as kubectl's jsonpath printer prints it: the
// e2e/works test TestSnapshotListingAsKubectlPrintsIt runs that format
// through client-go's jsonpath, which kubectl prints with).
const fakeKubectl = `#!/bin/sh
set -eu
cmd=$1; shift
printf '%s\n' "$cmd $*" >> "$FAKE_STATE/.calls"
case "$cmd" in
get)
  shift
  format=""
  for a in "$@"; do
    case "$a" in
      --output=name) format=name ;;
      "--output=$FAKE_LISTING") format=listing ;;
      --output=*) echo "unexpected output format: $a" >&2; exit 1 ;;
    esac
  done
  for a in "$@"; do
    case "$a" in
      --*) ;;
      *) [ -f "$FAKE_STATE/$a" ] && echo "$(cat "$FAKE_STATE/$a") $a" ;;
    esac
  done | sort -n | while read -r seq phase name; do
    if [ "$format" = name ]; then
      echo "etcdsnapshot.etcd-operator.cozystack.io/$name"
    else
      [ "$phase" = "-" ] && phase=""
      echo "$name:$phase"
    fi
  done
  ;;
delete)
  shift
  [ -f "$FAKE_STATE/$1" ] || { echo "Error from server (NotFound)" >&2; exit 1; }
  rm "$FAKE_STATE/$1"
  ;;
create)
  manifest=$(cat)
  name=$(printf '%s' "$manifest" | sed 's/.*"metadata":{"name":"\([^"]*\)".*/\1/')
  [ ! -f "$FAKE_STATE/$name" ] || { echo "AlreadyExists" >&2; exit 1; }
  seq=$(cat "$FAKE_STATE/.seq" 2>/dev/null || echo 0)
  seq=$((seq + 1))
  echo "$seq" > "$FAKE_STATE/.seq"
  echo "$seq -" > "$FAKE_STATE/$name"
  printf '%s' "$manifest" > "$FAKE_STATE/.last"
  ;;
*)
  echo "unexpected kubectl $cmd" >&2; exit 1 ;;
esac
`

// ringRunner runs a schedule's script against fakeKubectl.
type ringRunner struct {
	t     *testing.T
	s     etcd.SnapshotSchedule
	sh    string
	bin   string
	state string
}

func newRing(t *testing.T, keep int) *ringRunner {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, tool := range []string{"sort", "sed", "cat"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s for the fake kubectl", tool)
		}
	}
	s, err := etcd.ScheduledSnapshots(clusterNames(t, "kubernetes-demo"), etcd.SnapshotScheduleOptions{Schedule: "@daily", Keep: keep, Destination: s3Dest("daily/")})
	require.NoError(t, err)
	dir := t.TempDir()
	r := &ringRunner{t: t, s: s, sh: sh, bin: filepath.Join(dir, "bin"), state: filepath.Join(dir, "state")}
	require.NoError(t, os.MkdirAll(r.bin, 0o755))
	require.NoError(t, os.MkdirAll(r.state, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(r.bin, "kubectl"), []byte(fakeKubectl), 0o755))
	return r
}

// run runs the script once and returns its output.
func (r *ringRunner) run() string {
	r.t.Helper()
	c := r.s.CronJob.Spec.JobTemplate.Spec.Template.Spec.Containers[0]
	require.Equal(r.t, []string{"/bin/sh", "-c"}, c.Command[:2])
	cmd := exec.Command(r.sh, "-c", c.Command[2])
	cmd.Env = []string{"PATH=" + r.bin + ":" + os.Getenv("PATH"), "FAKE_STATE=" + r.state, "FAKE_LISTING=" + etcd.SnapshotListing}
	for _, e := range c.Env {
		if e.Name != "HOME" {
			cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
		}
	}
	out, err := cmd.CombinedOutput()
	require.NoError(r.t, err, "%s", out)
	return string(out)
}

// ring lists the snapshots by slot with their creation sequence.
func (r *ringRunner) ring() map[string]int {
	out := map[string]int{}
	for _, slot := range r.s.Slots {
		if b, err := os.ReadFile(filepath.Join(r.state, slot)); err == nil {
			seq, _, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
			n, _ := strconv.Atoi(seq)
			out[slot] = n
		}
	}
	return out
}

// finish sets the phase of slot i's snapshot, as etcd-operator does.
func (r *ringRunner) finish(i int, phase string) {
	r.t.Helper()
	p := filepath.Join(r.state, r.s.Slots[i])
	b, err := os.ReadFile(p)
	require.NoError(r.t, err)
	seq, _, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	if phase == "" {
		phase = "-" // none yet
	}
	require.NoError(r.t, os.WriteFile(p, []byte(seq+" "+phase+"\n"), 0o644))
}

// The script keeps the last Keep snapshots in the ring: free slots first,
// then the oldest, with only get, delete and create.
func TestSnapshotScriptKeepsTheRing(t *testing.T) {
	r := newRing(t, 3)
	s, state := r.s, r.state
	run, ring := func() { t.Helper(); r.run() }, r.ring
	slot := func(i int) string { return s.Slots[i] }

	run()
	run()
	run()
	assert.Equal(t, map[string]int{slot(0): 1, slot(1): 2, slot(2): 3}, ring())
	run() // full: the oldest, slot 0, is replaced
	assert.Equal(t, map[string]int{slot(0): 4, slot(1): 2, slot(2): 3}, ring())
	run()
	assert.Equal(t, map[string]int{slot(0): 4, slot(1): 5, slot(2): 3}, ring())
	// A snapshot deleted by hand frees its slot, which is filled first.
	require.NoError(t, os.Remove(filepath.Join(state, slot(0))))
	run()
	assert.Equal(t, map[string]int{slot(0): 6, slot(1): 5, slot(2): 3}, ring())

	// What it created is the schedule's EtcdSnapshot.
	var created map[string]any
	last, err := os.ReadFile(filepath.Join(state, ".last"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(last, &created))
	assert.Equal(t, "EtcdSnapshot", created["kind"])
	assert.Equal(t, slot(0), created["metadata"].(map[string]any)["name"])

	// Every call names the ring's objects: nothing a label-scoped or
	// unrestricted Role would be needed for.
	calls, err := os.ReadFile(filepath.Join(state, ".calls"))
	require.NoError(t, err)
	verbs := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(calls)), "\n") {
		f := strings.Fields(line)
		verbs[f[0]] = true
		assert.NotContains(t, line, "--selector")
		assert.NotContains(t, line, "--all")
		if f[0] == "delete" {
			assert.Contains(t, s.Slots, f[2])
		}
	}
	got := make([]string, 0, len(verbs))
	for v := range verbs {
		got = append(got, v)
	}
	sort.Strings(got)
	assert.Equal(t, []string{"create", "delete", "get"}, got)
}

// TestSnapshotScriptNeverEvictsTheLastGoodBackup (B3): however the
// snapshots after it end (failed, pending, still running) and however old
// it is, the newest snapshot that completed stays in a full ring; the
// oldest other one makes room. With none completed, the oldest goes; once
// a newer one completes, the old good one is an ordinary snapshot again.
// Every ring size: the smallest, 2, too.
func TestSnapshotScriptNeverEvictsTheLastGoodBackup(t *testing.T) {
	for _, keep := range []int{naming.MinSnapshotKeep, 3, 5} {
		t.Run(strconv.Itoa(keep), func(t *testing.T) {
			r := newRing(t, keep)
			for range keep {
				r.run()
			}
			// Slot 0 completed, every later one failed or never finished.
			r.finish(0, v1alpha2.SnapshotPhaseComplete)
			for i := 1; i < keep; i++ {
				r.finish(i, []string{v1alpha2.SnapshotPhaseFailed, v1alpha2.SnapshotPhasePending, v1alpha2.SnapshotPhaseStarted, ""}[i%4])
			}
			// Many more runs, all failing: slot 0 is never deleted.
			for round := range 3 * keep {
				out := r.run()
				require.Equal(t, 1, r.ring()[r.s.Slots[0]], "round %d: the last good backup was evicted\n%s", round, out)
				require.Contains(t, out, "keeping "+r.s.Slots[0]+", the newest that completed")
				for i := 1; i < keep; i++ {
					r.finish(i, v1alpha2.SnapshotPhaseFailed)
				}
			}
			// A newer one completes: the ring goes back to the oldest
			// first, slot 0 included.
			newest, newestSlot := 0, 0
			for i, slot := range r.s.Slots {
				if seq := r.ring()[slot]; seq > newest {
					newest, newestSlot = seq, i
				}
			}
			r.finish(newestSlot, v1alpha2.SnapshotPhaseComplete)
			r.run()
			require.NotEqual(t, 1, r.ring()[r.s.Slots[0]], "slot 0 is no longer the newest good backup and is the oldest: it goes")
			require.Equal(t, newest, r.ring()[r.s.Slots[newestSlot]])
		})
	}
	t.Run("none completed", func(t *testing.T) {
		r := newRing(t, 3)
		for range 3 {
			r.run()
		}
		for i := range 3 {
			r.finish(i, v1alpha2.SnapshotPhaseFailed)
		}
		require.Contains(t, r.run(), "Deleting the oldest snapshot "+r.s.Slots[0]+" (none completed)")
		require.Equal(t, 4, r.ring()[r.s.Slots[0]])
	})
}

// TestSnapshotKeepBelowTwo: a ring of one could never take a second
// snapshot without deleting its only good one: refused, as the CLI's
// --keep 1 is.
func TestSnapshotKeepBelowTwo(t *testing.T) {
	_, err := etcd.ScheduledSnapshots(clusterNames(t, "kubernetes-demo"), etcd.SnapshotScheduleOptions{Schedule: "@daily", Keep: 1, Destination: s3Dest("daily/")})
	assertField(t, err, "keep")
	require.ErrorContains(t, err, "keep: invalid value 1: must be between 2 and 100 (the ring always keeps its newest completed snapshot")
}

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

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeKubectl keeps EtcdSnapshots as files in $FAKE_STATE, each holding
// its creation sequence number, and answers the three calls the snapshot
// script makes the way kubectl does.
const fakeKubectl = `#!/bin/sh
set -eu
cmd=$1; shift
echo "$cmd $*" >> "$FAKE_STATE/.calls"
case "$cmd" in
get)
  shift
  for a in "$@"; do
    case "$a" in
      --*) ;;
      *) [ -f "$FAKE_STATE/$a" ] && echo "$(cat "$FAKE_STATE/$a") $a" ;;
    esac
  done | sort -n | while read -r seq name; do echo "etcdsnapshot.etcd-operator.cozystack.io/$name"; done
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
  echo "$seq" > "$FAKE_STATE/$name"
  printf '%s' "$manifest" > "$FAKE_STATE/.last"
  ;;
*)
  echo "unexpected kubectl $cmd" >&2; exit 1 ;;
esac
`

// The script keeps the last Keep snapshots in the ring: free slots first,
// then the oldest, with only get, delete and create.
func TestSnapshotScriptKeepsTheRing(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, tool := range []string{"sort", "sed", "cat"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s for the fake kubectl", tool)
		}
	}
	s, err := etcd.ScheduledSnapshots(clusterNames(t, "kubernetes-demo"), etcd.SnapshotScheduleOptions{Schedule: "@daily", Keep: 3, Destination: s3Dest("daily/")})
	require.NoError(t, err)
	c := s.CronJob.Spec.JobTemplate.Spec.Template.Spec.Containers[0]
	require.Equal(t, []string{"/bin/sh", "-c"}, c.Command[:2])

	dir := t.TempDir()
	bin, state := filepath.Join(dir, "bin"), filepath.Join(dir, "state")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	require.NoError(t, os.MkdirAll(state, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "kubectl"), []byte(fakeKubectl), 0o755))

	run := func() {
		t.Helper()
		cmd := exec.Command(sh, "-c", c.Command[2])
		cmd.Env = []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "FAKE_STATE=" + state}
		for _, e := range c.Env {
			if e.Name != "HOME" {
				cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
			}
		}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	// ring lists the snapshots by slot with their creation sequence.
	ring := func() map[string]int {
		out := map[string]int{}
		for _, slot := range s.Slots {
			if b, err := os.ReadFile(filepath.Join(state, slot)); err == nil {
				n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				out[slot] = n
			}
		}
		return out
	}
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

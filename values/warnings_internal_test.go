package values

import (
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWarnedKeysAreRead: every key the Warnings functions call read is
// read by its reader: a value of the wrong type there is refused under
// that key. So the lists cannot drift from what the readers read.
func TestWarnedKeysAreRead(t *testing.T) {
	fields := func(err error) []string {
		var out []string
		for _, e := range invalid.Lines(err) {
			out = append(out, e)
		}
		return out
	}
	refuses := func(t *testing.T, read func(map[string]any) error, vals map[string]any, field string) {
		t.Helper()
		err := read(vals)
		require.Error(t, err, field)
		assert.Contains(t, fields(err)[0], field+": invalid value ", field)
	}
	cluster := func(v map[string]any) error { _, err := ReadCluster(v); return err }
	etcdChart := func(v map[string]any) error { _, err := ReadEtcdChart(v); return err }
	bad := []any{"x"} // a list where a map or a scalar is read
	for _, k := range clusterTopKeys {
		refuses(t, cluster, map[string]any{k: bad}, k)
	}
	for _, k := range append(append([]string{}, ratioKeys...), storageClassKeys...) {
		refuses(t, cluster, map[string]any{"_cluster": map[string]any{k: bad}}, "_cluster."+k)
	}
	for _, k := range ratioKeys {
		refuses(t, etcdChart, map[string]any{"_cluster": map[string]any{k: bad}}, "_cluster."+k)
	}
	for name, read := range map[string]func(map[string]any) error{"cluster": cluster, "etcd chart": etcdChart} {
		t.Run(name, func(t *testing.T) {
			refuses(t, read, map[string]any{"_cluster": map[string]any{schedulingKey: bad}}, "_cluster."+schedulingKey)
			refuses(t, read, map[string]any{"_cluster": map[string]any{schedulingKey: map[string]any{spreadKey: bad}}}, "_cluster."+schedulingKey+"."+spreadKey)
		})
	}
}

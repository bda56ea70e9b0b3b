package etcd_test

import (
	"errors"
	"testing"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestOptionsEveryError: independent bad inputs are all refused, in the
// order the checks always ran, so the first is the single error of before.
func TestOptionsEveryError(t *testing.T) {
	bad := corev1.NodeInclusionPolicy("Maybe")
	for _, c := range []struct {
		name   string
		o      etcd.Options
		fields []string
	}{
		{"version, replicas, size", etcd.Options{Version: "3.6", Replicas: -1, Size: resource.MustParse("-1")},
			[]string{"Version", "Replicas", "Size"}},
		{"storage class, ratios", etcd.Options{StorageClassName: "Bad_Class", Ratios: etcd.Ratios{CPU: "x", EphemeralStorage: "0"}},
			[]string{"StorageClassName", "Ratios.CPU", "Ratios.EphemeralStorage"}},
		{"bad ratio still checks the limits", etcd.Options{Ratios: etcd.Ratios{Memory: "-2"}, Resources: corev1.ResourceList{"cpu": resource.MustParse("-1"), "gpu": resource.MustParse("1")}},
			[]string{"Ratios.Memory", "Resources[cpu]", "Resources[gpu]"}},
		{"each resource and each constraint", etcd.Options{
			Resources: corev1.ResourceList{"cpu": resource.MustParse("-1"), "memory": resource.MustParse("-1")},
			TopologySpreadConstraints: []corev1.TopologySpreadConstraint{
				{MaxSkew: 0, TopologyKey: "zone", WhenUnsatisfiable: "Never"},
				{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule, NodeTaintsPolicy: &bad},
			},
			Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 0, PodAffinityTerm: corev1.PodAffinityTerm{TopologyKey: "zone"}}}}},
		}, []string{"Resources[cpu]", "Resources[memory]", "TopologySpreadConstraints[0].maxSkew", "TopologySpreadConstraints[0].whenUnsatisfiable",
			"TopologySpreadConstraints[1].nodeTaintsPolicy", "Affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.o.Validate()
			require.Error(t, err)
			all := invalid.All(err)
			got := make([]string, len(all))
			for i, e := range all {
				got[i] = e.Field
			}
			require.Equal(t, c.fields, got, "%v", err)
			list, ok := err.(invalid.List)
			require.True(t, ok, "%T", err)
			require.Len(t, list.ErrorList(), len(c.fields))
			var ie *invalid.Error
			require.True(t, errors.As(err, &ie))
			require.Equal(t, c.fields[0], ie.Field)
			var fe *field.Error
			require.True(t, errors.As(err, &fe))
			require.Equal(t, c.fields[0], fe.Field)
		})
	}
	// One bad input is the *invalid.Error itself.
	err := etcd.Options{Replicas: 100}.Validate()
	_, ok := err.(*invalid.Error)
	require.True(t, ok, "%T", err)
	require.Equal(t, "Replicas: invalid value 100: must be at most 99 (etcd advises at most 7 members)", err.Error())
}

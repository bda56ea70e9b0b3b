package etcd_test

import (
	"errors"
	"testing"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// TestMinMemory: a memory limit below etcd.MinMemory, in every unit and
// spelling, is refused (no member runs within it), naming
// Resources[memory] and quoting the limit; 0 (no limit), MinMemory itself
// and more are accepted, whatever request the ratio derives from them
// (the floor is on the limit, not the request).
func TestMinMemory(t *testing.T) {
	min := resource.MustParse(etcd.MinMemory)
	require.Equal(t, int64(etcd.MinMemoryBytes), min.Value())
	for _, m := range []string{"1", "1k", "1Ki", "1Mi", "1M", "31Mi", "33M", "32767Ki", "33554431", "0.0312Gi", "33554431000m", "3.3e7", "1e3", "0.001Gi"} {
		o := etcd.Options{Resources: corev1.ResourceList{"cpu": resource.MustParse("1"), "memory": resource.MustParse(m)}}
		err := o.Validate()
		var ne *invalid.Error
		require.True(t, errors.As(err, &ne), "%s: %v", m, err)
		assert.Equal(t, "Resources[memory]", ne.Field, "%s", m)
		assert.Equal(t, etcd.MinMemoryRule, ne.Rule, "%s", m)
		q := resource.MustParse(m)
		assert.Equal(t, q.String(), ne.Value, "%s", m)
		_, err = etcd.SanitizeResources(o.Resources, etcd.Ratios{})
		require.Error(t, err, m)
	}
	for _, m := range []string{"0", "0Mi", etcd.MinMemory, "33554432", "0.03125Gi", "33554432000m", "34M", etcd.DefaultMemory, "64Gi"} {
		o := etcd.Options{Resources: corev1.ResourceList{"memory": resource.MustParse(m)}}
		require.NoError(t, o.Validate(), m)
		// A ratio makes the request smaller than the floor: the
		// platform's overcommit, not the member's limit.
		o.Ratios.Memory = "40"
		require.NoError(t, o.Validate(), m)
	}
	// Without a memory limit there is nothing to judge.
	require.NoError(t, etcd.Options{Resources: corev1.ResourceList{"cpu": resource.MustParse("1")}}.Validate())
	require.NoError(t, etcd.Options{Resources: corev1.ResourceList{}}.Validate())
}

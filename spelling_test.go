package etcdshapes_test

import (
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/values"
)

// TestQuantitySpellingAsDocumented pins docs/differences.md 9: the
// library writes the EtcdCluster's size and resources as resource.Quantity
// prints them (a suffixed quantity canonical, one of digits and an
// exponent as given), not as the values spell them, as the charts do.
func TestQuantitySpellingAsDocumented(t *testing.T) {
	for _, tc := range []struct{ values, want string }{
		{"size: 4096Mi", "size: 4Gi"},
		{"size: 1024Gi", "size: 1Ti"},
		{"size: 4000M", "size: 4G"},
		{"size: 0.5Gi", "size: 512Mi"},
		{"size: \"4e+9\"", "size: \"4e+9\""},
		{"size: \"+8589934592\"", "size: \"+8589934592\""},
		{"size: \"1E9\"", "size: \"1E9\""},
		{"{}", "      cpu: \"1\"\n"},
		{"resources: {cpu: 1000m, memory: 1024Mi}", "      cpu: \"1\"\n      memory: 1Gi\n    requests:\n      cpu: 100m\n"},
	} {
		t.Run(tc.values, func(t *testing.T) {
			v, err := values.Merge([]byte(tc.values))
			if err != nil {
				t.Fatal(err)
			}
			objs, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Release: "etcd", Values: v})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range objs {
				if o.GetObjectKind().GroupVersionKind().Kind != "EtcdCluster" {
					continue
				}
				y, err := etcdshapes.Marshal([]etcdshapes.Object{o})
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(y), tc.want) {
					t.Fatalf("the EtcdCluster of %s does not hold %q:\n%s", tc.values, tc.want, y)
				}
				return
			}
			t.Fatal("no EtcdCluster")
		})
	}
}

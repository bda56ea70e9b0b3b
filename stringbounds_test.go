package etcdshapes_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/values"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// lengthBound is one free-form string input and the most bytes it takes:
// fill(n) is an otherwise valid input of n bytes, run renders (or builds)
// with it, and at limit+1 the refusal names field.
type lengthBound struct {
	// input is where the string enters: a values key, or a Go field as
	// stringFields names it ("etcd.Options.StorageClassName").
	input string
	limit int
	field string
	fill  func(n int) string
	run   func(s string) error
}

// repeatTo is s repeated and cut to n bytes.
func repeatTo(s string, n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(s, n/len(s)+1)[:n]
}

// subdomainOf is a DNS-1123 subdomain of n bytes: labels of 62 joined by
// dots, never ending in one.
func subdomainOf(n int) string {
	s := []byte(repeatTo(strings.Repeat("a", 62)+".", n))
	if s[len(s)-1] == '.' {
		s[len(s)-1] = 'b'
	}
	return string(s)
}

// pathOf is a relative path of n bytes in segments of 254.
func pathOf(n int) string {
	s := []byte(repeatTo(strings.Repeat("p", 254)+"/", n))
	if s[len(s)-1] == '/' {
		s[len(s)-1] = 'q'
	}
	return string(s)
}

// etcdRender renders the etcd chart with values built in Go.
func boundsEtcd(v map[string]any) error {
	_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: v})
	return err
}

// clusterRender renders the kubernetes chart's etcd with values built in Go.
func boundsCluster(v map[string]any) error {
	_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo", Values: v})
	return err
}

func boundsOptions(o etcd.Options) error {
	_, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Etcd: o})
	return err
}

func s3Destination(s3 v1alpha2.S3Location) v1alpha2.SnapshotLocation {
	if s3.Endpoint == "" {
		s3.Endpoint = "https://s3.example.com"
	}
	if s3.Bucket == "" {
		s3.Bucket = "backups"
	}
	if s3.CredentialsSecretRef.Name == "" {
		s3.CredentialsSecretRef.Name = "s3-credentials"
	}
	return v1alpha2.SnapshotLocation{S3: &s3}
}

func schedule(o etcd.SnapshotScheduleOptions) error {
	if o.Schedule == "" {
		o.Schedule = "0 3 * * *"
	}
	if o.Destination.S3 == nil && o.Destination.PVC == nil {
		o.Destination = s3Destination(v1alpha2.S3Location{})
	}
	_, err := etcd.ScheduledSnapshots(mustNames(), o)
	return err
}

func restore(src v1alpha2.SnapshotLocation) error {
	return etcd.Restore(src)(&v1alpha2.EtcdCluster{})
}

// nodeNameAffinity is an affinity whose node must be the one named.
func nodeNameAffinity(node string) *corev1.Affinity {
	return &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{node}}}}},
	}}}
}

func owner(ref metav1.OwnerReference) error {
	if ref.APIVersion == "" {
		ref.APIVersion = "example.com/v1"
	}
	if ref.Kind == "" {
		ref.Kind = "Tenant"
	}
	if ref.Name == "" {
		ref.Name = "demo"
	}
	if ref.UID == "" {
		ref.UID = "0f8c5a44-6d3b-4a3e-9f5e-1c2d3e4f5a6b"
	}
	return apply.WithOwnerReference(ref)(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "tenant-demo"}})
}

const spreadHead = "topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: topology.kubernetes.io/zone\n  whenUnsatisfiable: DoNotSchedule\n#"

// lengthBounds are every free-form string input, through the values and
// the Go API, with its limit (docs/limits.md's table).
func lengthBounds() []lengthBound {
	ratio := func(n int) string { return "1." + repeatTo("0", n-2) }
	// A version of n bytes whose numbers are each at most
	// etcd.MaxVersionDigits long where n allows it: the last ones filled
	// first, so that only past the limit does the first grow past it.
	version := func(n int) string {
		d := n - 2
		p3 := min(d-2, etcd.MaxVersionDigits)
		p2 := min(d-p3-1, etcd.MaxVersionDigits)
		p1 := d - p3 - p2
		num := func(k int) string { return "1" + strings.Repeat("0", k-1) }
		return num(p1) + "." + num(p2) + "." + num(p3)
	}
	quantity := func(n int) string { return repeatTo("0", n-3) + "4Gi" }
	spread := func(n int) string { return spreadHead + repeatTo("x", n-len(spreadHead)) }
	sched := func(n int) string { return "0" + repeatTo(" ", n-8) + "3 * * *" }
	endpoint := func(n int) string { return "https://s3.example.com/" + repeatTo("p", n-len("https://s3.example.com/")) }
	prefix := func(n int) string { return pathOf(n-1) + "/" }
	// An image's repository name with its registry, which the reference
	// grammar bounds (NameTotalLengthMax).
	image := func(n int) string { return "r.io/" + repeatTo("a", n-5) }
	var out []lengthBound
	add := func(b ...lengthBound) { out = append(out, b...) }
	// The values.
	add(lengthBound{"values.version", etcd.MaxVersionLength, "values.version", version, func(s string) error { return boundsEtcd(map[string]any{"version": s}) }},
		lengthBound{"values.size", 64, "values.size", quantity, func(s string) error { return boundsEtcd(map[string]any{"size": s}) }},
		lengthBound{"values.resources.cpu", 64, "values.resources.cpu", func(n int) string { return repeatTo("0", n-1) + "1" },
			func(s string) error { return boundsEtcd(map[string]any{"resources": map[string]any{"cpu": s}}) }},
		lengthBound{"values.resources (a resource name)", 244 + 1 + 63, "", func(n int) string { return subdomainOf(n-64) + "/" + repeatTo("x", 63) },
			func(s string) error {
				return boundsEtcd(map[string]any{"resources": map[string]any{"cpu": "1", s: "1"}})
			}},
		lengthBound{"values.storageClass", 253, "values.storageClass", subdomainOf, func(s string) error { return boundsEtcd(map[string]any{"storageClass": s}) }},
		lengthBound{"values.auth.rootCredentialsSecret", 253, "values.auth.rootCredentialsSecret", subdomainOf,
			func(s string) error {
				return boundsEtcd(map[string]any{"auth": map[string]any{"enabled": true, "rootCredentialsSecret": s}})
			}},
		lengthBound{"values.affinity (a node name of matchFields)", 253, "values.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]", subdomainOf,
			func(s string) error {
				var m map[string]any
				b, _ := json.Marshal(nodeNameAffinity(s))
				_ = json.Unmarshal(b, &m)
				return boundsEtcd(map[string]any{"affinity": m})
			}},
		lengthBound{"etcd.replicas and auth of the kubernetes chart", 253, "etcd.auth.rootCredentialsSecret", subdomainOf,
			func(s string) error {
				return boundsCluster(map[string]any{"etcd": map[string]any{"auth": map[string]any{"enabled": true, "rootCredentialsSecret": s}}})
			}},
	)
	for _, k := range []string{"cpu-allocation-ratio", "memory-allocation-ratio", "ephemeral-storage-allocation-ratio"} {
		add(lengthBound{"_cluster." + k, etcd.MaxRatioLength, "_cluster." + k, ratio, func(s string) error { return boundsCluster(map[string]any{"_cluster": map[string]any{k: s}}) }})
	}
	for _, k := range []string{"etcd-storage-class-local", "etcd-storage-class-replicated"} {
		add(lengthBound{"_cluster." + k, 253, "_cluster." + k, subdomainOf, func(s string) error { return boundsCluster(map[string]any{"_cluster": map[string]any{k: s}}) }})
	}
	add(lengthBound{"_cluster.scheduling.globalAppTopologySpreadConstraints", values.MaxSpreadConstraintsLength, "_cluster.scheduling.globalAppTopologySpreadConstraints", spread,
		func(s string) error {
			return boundsEtcd(map[string]any{"_cluster": map[string]any{"scheduling": map[string]any{"globalAppTopologySpreadConstraints": s}}})
		}})
	// The Go API.
	add(lengthBound{"etcd.Options.Version", etcd.MaxVersionLength, "Version", version, func(s string) error { return boundsOptions(etcd.Options{Version: s}) }},
		lengthBound{"etcd.Options.StorageClassName", 253, "StorageClassName", subdomainOf, func(s string) error { return boundsOptions(etcd.Options{StorageClassName: s}) }},
		lengthBound{"etcd.Options.ServiceLabel", 63, "ServiceLabel", func(n int) string { return repeatTo("a", n) }, func(s string) error {
			_, err := etcd.Cluster(mustNames(), etcd.Options{ServiceLabel: s})
			return err
		}},
		lengthBound{"etcd.Options.Affinity", 253, "Affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]", subdomainOf,
			func(s string) error { return boundsOptions(etcd.Options{Affinity: nodeNameAffinity(s)}) }},
		lengthBound{"etcd.Options.TopologySpreadConstraints", 317, "TopologySpreadConstraints[0].topologyKey", func(n int) string { return subdomainOf(n-64) + "/" + repeatTo("k", 63) },
			func(s string) error {
				return boundsOptions(etcd.Options{TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: s, WhenUnsatisfiable: corev1.DoNotSchedule}}})
			}},
		lengthBound{"etcd.Auth.RootCredentialsSecret", 253, "Auth.RootCredentialsSecret", subdomainOf, func(s string) error {
			return boundsOptions(etcd.Options{Auth: etcd.Auth{Enabled: true, RootCredentialsSecret: s}})
		}},
		lengthBound{"etcd.Ratios.CPU", etcd.MaxRatioLength, "Ratios.CPU", ratio, func(s string) error { return etcd.Ratios{CPU: s}.Validate() }},
		lengthBound{"etcd.Ratios.Memory", etcd.MaxRatioLength, "Ratios.Memory", ratio, func(s string) error { return etcd.Ratios{Memory: s}.Validate() }},
		lengthBound{"etcd.Ratios.EphemeralStorage", etcd.MaxRatioLength, "Ratios.EphemeralStorage", ratio, func(s string) error { return etcd.Ratios{EphemeralStorage: s}.Validate() }},
		lengthBound{"etcdshapes.EtcdChartStackOptions.Namespace", 63, "Namespace", func(n int) string { return "tenant-" + repeatTo("a", n-7) }, func(s string) error {
			_, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: s})
			return err
		}},
		lengthBound{"etcdshapes.ClusterStackOptions.Release", 51, "Release", func(n int) string { return "kubernetes-" + repeatTo("a", n-11) }, func(s string) error {
			_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: s})
			return err
		}},
		lengthBound{"etcdshapes.ClusterStackOptions.ChartVersion", 256, "ChartVersion", func(n int) string { return "1.0.0-" + repeatTo("a", n-6) }, func(s string) error {
			_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", ChartVersion: s})
			return err
		}},
		lengthBound{"etcdshapes.LiveState.DataStoreName", 253, "Live.DataStoreName", subdomainOf, func(s string) error {
			_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", Live: etcdshapes.LiveState{DataStoreName: s}})
			return err
		}},
		lengthBound{"etcdshapes.LiveState.StorageClassName", 253, "Live.StorageClassName", subdomainOf, func(s string) error {
			_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", Live: etcdshapes.LiveState{StorageClassName: &s}})
			return err
		}},
		lengthBound{"etcd.SnapshotScheduleOptions.Schedule", etcd.MaxScheduleLength, "schedule", sched, func(s string) error { return schedule(etcd.SnapshotScheduleOptions{Schedule: s}) }},
		lengthBound{"v1alpha2.S3Location.Endpoint", etcd.MaxS3EndpointLength, "destination.s3.endpoint", endpoint, func(s string) error {
			return schedule(etcd.SnapshotScheduleOptions{Destination: s3Destination(v1alpha2.S3Location{Endpoint: s})})
		}},
		lengthBound{"v1alpha2.S3Location.Bucket", 63, "destination.s3.bucket", func(n int) string { return repeatTo("b", n) }, func(s string) error {
			return schedule(etcd.SnapshotScheduleOptions{Destination: s3Destination(v1alpha2.S3Location{Bucket: s})})
		}},
		lengthBound{"v1alpha2.S3Location.Key", 958, "destination.s3.key", prefix, func(s string) error {
			return schedule(etcd.SnapshotScheduleOptions{Destination: s3Destination(v1alpha2.S3Location{Key: s})})
		}},
		lengthBound{"v1alpha2.S3Location.Key (a restore source)", etcd.MaxSnapshotPath, "bootstrap.restore.source.s3.key", pathOf, func(s string) error {
			return restore(s3Destination(v1alpha2.S3Location{Key: s}))
		}},
		lengthBound{"v1alpha2.S3Location.Region", 64, "destination.s3.region", func(n int) string { return repeatTo("r", n) }, func(s string) error {
			return schedule(etcd.SnapshotScheduleOptions{Destination: s3Destination(v1alpha2.S3Location{Region: s})})
		}},
		lengthBound{"v1alpha2.S3Location.CredentialsSecretRef", 253, "destination.s3.credentialsSecretRef.name", subdomainOf, func(s string) error {
			return schedule(etcd.SnapshotScheduleOptions{Destination: s3Destination(v1alpha2.S3Location{CredentialsSecretRef: corev1.LocalObjectReference{Name: s}})})
		}},
		lengthBound{"v1alpha2.PVCLocation.ClaimName", 253, "destination.pvc.claimName", subdomainOf, func(s string) error {
			return schedule(etcd.SnapshotScheduleOptions{Destination: v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: s}}})
		}},
		lengthBound{"v1alpha2.PVCLocation.SubPath", 957, "destination.pvc.subPath", pathOf, func(s string) error {
			return schedule(etcd.SnapshotScheduleOptions{Destination: v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "backups", SubPath: s}}})
		}},
		lengthBound{"v1alpha2.PVCLocation.SubPath (a path segment)", etcd.MaxPathSegment, "destination.pvc.subPath", func(n int) string { return repeatTo("s", n) }, func(s string) error {
			return schedule(etcd.SnapshotScheduleOptions{Destination: v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "backups", SubPath: s}}})
		}},
		lengthBound{"v1alpha2.PVCLocation.SubPath (a restore source)", etcd.MaxSnapshotPath, "bootstrap.restore.source.pvc.subPath", pathOf, func(s string) error {
			return restore(v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "backups", SubPath: s}})
		}},
		lengthBound{"etcd.Snapshot name", 63, "name", func(n int) string { return repeatTo("s", n) }, func(s string) error {
			_, err := etcd.Snapshot(mustNames(), s, s3Destination(v1alpha2.S3Location{}))
			return err
		}},
		lengthBound{"etcd.CheckOptions.Image (its repository path, after a registry r.io/)", 5 + 255, "Image", image, func(s string) error {
			_, err := etcd.CheckJob(mustNames(), etcd.Options{}, etcd.CheckOptions{Image: s})
			return err
		}},
		lengthBound{"etcd.CheckOptions.Image (the whole reference)", 1024, "Image", func(n int) string {
			return subdomainOf(n-1-255-1-128) + "/" + repeatTo("a", 255) + ":" + repeatTo("t", 128)
		}, func(s string) error {
			_, err := etcd.CheckJob(mustNames(), etcd.Options{}, etcd.CheckOptions{Image: s})
			return err
		}},
		lengthBound{"monitoring.DashboardOptions.Folder", 255, "folder", func(n int) string { return repeatTo("f", n) }, func(s string) error {
			_, err := monitoring.Dashboard(mustNames(), monitoring.DashboardOptions{Folder: s})
			return err
		}},
		lengthBound{"apply.FieldManager", apply.MaxFieldManagerLength, "fieldManager", func(n int) string { return repeatTo("m", n) }, func(s string) error { return apply.ValidateFieldManager("fieldManager", s) }},
		lengthBound{"v1.OwnerReference.APIVersion", 253 + 1 + 63, "ownerReference.apiVersion", func(n int) string { return subdomainOf(n-64) + "/" + "v" + repeatTo("1", 62) }, func(s string) error { return owner(metav1.OwnerReference{APIVersion: s}) }},
		lengthBound{"v1.OwnerReference.Kind", 63, "ownerReference.kind", func(n int) string { return "K" + repeatTo("k", n-1) }, func(s string) error { return owner(metav1.OwnerReference{Kind: s}) }},
		lengthBound{"v1.OwnerReference.Name", 253, "ownerReference.name", subdomainOf, func(s string) error { return owner(metav1.OwnerReference{Name: s}) }},
		lengthBound{"v1.OwnerReference.UID", apply.MaxOwnerUID, "ownerReference.uid", func(n int) string { return repeatTo("0", n) }, func(s string) error {
			return owner(metav1.OwnerReference{UID: types.UID(s)})
		}},
	)
	return out
}

// TestStringLengthBounds: every free-form string input, through the values
// and the Go API, takes a string of its limit and refuses one byte more,
// naming its field, in bounded time; and every string field of the Go
// API's options is in the table (or bounded by a rule the table names):
// a new field without a bound fails here.
func TestStringLengthBounds(t *testing.T) {
	covered := map[string]bool{}
	for _, b := range lengthBounds() {
		covered[strings.SplitN(b.input, " ", 2)[0]] = true
		t.Run(b.input, func(t *testing.T) {
			at, over := b.fill(b.limit), b.fill(b.limit+1)
			if len(at) != b.limit || len(over) != b.limit+1 {
				t.Fatalf("fill gives %d and %d bytes for %d", len(at), len(over), b.limit)
			}
			if err := b.run(at); err != nil {
				t.Fatalf("at its limit of %d bytes: %v", b.limit, err)
			}
			err := b.run(over)
			var ne *invalid.Error
			if !errors.As(err, &ne) {
				t.Fatalf("one byte over its limit of %d: %v", b.limit, err)
			}
			if all := invalid.All(err); len(all) > 0 {
				ne = all[0]
			}
			if b.field != "" && ne.Field != b.field {
				t.Fatalf("one byte over its limit of %d: refused at %q, want %q: %v", b.limit, ne.Field, b.field, err)
			}
			if msg := err.Error(); len(msg) > 4096 {
				t.Errorf("the refusal is %d bytes: the value is not cut", len(msg))
			}
		})
	}
	for _, f := range stringFields() {
		if !covered[f] && boundedElsewhere[f] == "" {
			t.Errorf("%s is a string input with no length bound in lengthBounds (add one, from its consumer's rule)", f)
		}
	}
	for f := range boundedElsewhere {
		if !slicesContains(stringFields(), f) {
			t.Errorf("boundedElsewhere names %s, which is no string field of the Go API", f)
		}
	}
}

// boundedElsewhere are the string fields of the Go API's options that
// lengthBounds does not take one by one, and why.
var boundedElsewhere = map[string]string{
	"etcdshapes.EtcdChartStackOptions.Release":                 "must be \"etcd\"",
	"etcdshapes.EtcdChartStackOptions.ChartVersion":            "as ClusterStackOptions.ChartVersion (monitoring.ValidateChartVersion: SemVer's 256)",
	"etcdshapes.EtcdChartStackOptions.APIVersions":             "never refused: a served list is the cluster's (Helm's VersionSet.Has); entries are matched whole, in linear time",
	"etcdshapes.ClusterStackOptions.Namespace":                 "as EtcdChartStackOptions.Namespace (a tenant namespace, a DNS-1123 label)",
	"etcdshapes.ClusterStackOptions.APIVersions":               "as EtcdChartStackOptions.APIVersions",
	"etcdshapes.ClusterStackOptions.StorageClassLocal":         "a StorageClass name, as values' _cluster.etcd-storage-class-local",
	"etcdshapes.ClusterStackOptions.StorageClassReplicated":    "a StorageClass name, as values' _cluster.etcd-storage-class-replicated",
	"etcdshapes.LiveState.Bootstrap":                           "a live value, rendered as the API server stored it",
	"etcdshapes.RequestPaths.ChartVersion":                     "a path the caller names its input by, not an input: a refusal quotes the value, bounded, not the path",
	"etcdshapes.RequestPaths.LiveDataStoreName":                "as RequestPaths.ChartVersion",
	"etcdshapes.RequestPaths.LiveStorageClassName":             "as RequestPaths.ChartVersion",
	"naming.Paths.Namespace":                                   "as RequestPaths.ChartVersion",
	"naming.Paths.Release":                                     "as RequestPaths.ChartVersion",
	"etcdshapes.Request.Caller":                                "etcd or cluster",
	"etcdshapes.Request.Namespace":                             "as EtcdChartStackOptions.Namespace",
	"etcdshapes.Request.Release":                               "as ClusterStackOptions.Release",
	"etcdshapes.Request.ChartVersion":                          "as ClusterStackOptions.ChartVersion",
	"etcdshapes.Request.Values":                                "the values, each in lengthBounds (values.*, _cluster.*)",
	"etcdshapes.Request.APIVersions":                           "as EtcdChartStackOptions.APIVersions",
	"etcd.CheckOptions.Load":                                   "one of s, m, l or xl",
	"etcd.Options.Resources":                                   "quantities (values.resources.cpu) and resource names (values.resources)",
	"etcd.Options.Size":                                        "a resource.Quantity: quantity.Check bounds its digits (64) and its exponent (99)",
	"etcdshapes.ClusterStackOptions.TopologySpreadConstraints": "as etcd.Options.TopologySpreadConstraints (the API server's Pod rules: label keys of at most 317, values of 63)",
	"monitoring.DashboardOptions.InstanceSelector":             "a label selector (apimachinery's ValidateLabelSelector: keys of at most 317, values of 63)",
}

// stringFields are the string inputs of the Go API's options, by the type
// that declares them: every field whose type holds a string (a string, a
// named string, a slice or map of them, an external struct such as
// corev1.Affinity), found by walking the options' types into this
// module's own (and the owner reference apply.WithOwnerReference takes).
func stringFields() []string {
	seen := map[reflect.Type]bool{}
	var out []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		name := t.String()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			own := strings.HasPrefix(ft.PkgPath(), "github.com/etcdshapes/etcdshapes")
			switch {
			case ft.Kind() == reflect.Struct && own && name+"."+f.Name != "etcdshapes.LiveState.Bootstrap":
				walk(ft)
			case holdsString(ft):
				out = append(out, name+"."+f.Name)
			}
		}
	}
	for _, v := range []any{etcd.Options{}, etcdshapes.EtcdChartStackOptions{}, etcdshapes.ClusterStackOptions{}, etcdshapes.Request{}, etcd.SnapshotScheduleOptions{},
		etcd.CheckOptions{}, monitoring.DashboardOptions{}, metav1.OwnerReference{}} {
		walk(reflect.TypeOf(v))
	}
	sort.Strings(out)
	return out
}

// holdsString reports whether a value of t can hold a string: a string
// kind, or a struct, slice, array or map (of anything: corev1.Affinity,
// []string, map[string]any).
func holdsString(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Struct, reflect.Slice, reflect.Array, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

func slicesContains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

package apigroup_test

import (
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	ciliumv2 "github.com/etcdshapes/etcdshapes/apis/cilium/v2"
	cozyv1alpha1 "github.com/etcdshapes/etcdshapes/apis/cozystack/v1alpha1"
	etcdv1alpha2 "github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	grafanav1beta1 "github.com/etcdshapes/etcdshapes/apis/grafana/v1beta1"
	kamajiv1alpha1 "github.com/etcdshapes/etcdshapes/apis/kamaji/v1alpha1"
	vmv1beta1 "github.com/etcdshapes/etcdshapes/apis/victoriametrics/v1beta1"
	"github.com/etcdshapes/etcdshapes/internal/apigroup"
)

// group is what one API package declares about its group version.
type group struct {
	groupName, apiVersion string
	gv                    schema.GroupVersion
	builder               runtime.SchemeBuilder
	addToScheme           func(*runtime.Scheme) error
	// kinds are the kinds the scheme must map to the Go type of each object.
	kinds map[string]runtime.Object
}

var groups = []group{
	{etcdv1alpha2.GroupName, etcdv1alpha2.APIVersion, etcdv1alpha2.SchemeGroupVersion, etcdv1alpha2.SchemeBuilder, etcdv1alpha2.AddToScheme, map[string]runtime.Object{
		"EtcdCluster": &etcdv1alpha2.EtcdCluster{}, "EtcdClusterList": &etcdv1alpha2.EtcdClusterList{},
		"EtcdSnapshot": &etcdv1alpha2.EtcdSnapshot{}, "EtcdSnapshotList": &etcdv1alpha2.EtcdSnapshotList{},
	}},
	{kamajiv1alpha1.GroupName, kamajiv1alpha1.APIVersion, kamajiv1alpha1.SchemeGroupVersion, kamajiv1alpha1.SchemeBuilder, kamajiv1alpha1.AddToScheme, map[string]runtime.Object{
		"DataStore": &kamajiv1alpha1.DataStore{}, "DataStoreList": &kamajiv1alpha1.DataStoreList{},
	}},
	{cozyv1alpha1.GroupName, cozyv1alpha1.APIVersion, cozyv1alpha1.SchemeGroupVersion, cozyv1alpha1.SchemeBuilder, cozyv1alpha1.AddToScheme, map[string]runtime.Object{
		"WorkloadMonitor": &cozyv1alpha1.WorkloadMonitor{}, "WorkloadMonitorList": &cozyv1alpha1.WorkloadMonitorList{},
	}},
	{grafanav1beta1.GroupName, grafanav1beta1.APIVersion, grafanav1beta1.SchemeGroupVersion, grafanav1beta1.SchemeBuilder, grafanav1beta1.AddToScheme, map[string]runtime.Object{
		"GrafanaDashboard": &grafanav1beta1.GrafanaDashboard{}, "GrafanaDashboardList": &grafanav1beta1.GrafanaDashboardList{},
	}},
	{vmv1beta1.GroupName, vmv1beta1.APIVersion, vmv1beta1.SchemeGroupVersion, vmv1beta1.SchemeBuilder, vmv1beta1.AddToScheme, map[string]runtime.Object{
		"VMPodScrape": &vmv1beta1.VMPodScrape{}, "VMPodScrapeList": &vmv1beta1.VMPodScrapeList{},
	}},
	{ciliumv2.GroupName, ciliumv2.APIVersion, ciliumv2.SchemeGroupVersion, ciliumv2.SchemeBuilder, ciliumv2.AddToScheme, map[string]runtime.Object{
		"CiliumNetworkPolicy": &ciliumv2.CiliumNetworkPolicy{}, "CiliumNetworkPolicyList": &ciliumv2.CiliumNetworkPolicyList{},
	}},
}

// Each API package's SchemeGroupVersion is its GroupName and the version of
// its APIVersion, and its AddToScheme (and SchemeBuilder) maps exactly its
// kinds, lists included, to their Go types, with the meta types clients need.
func TestGroupsRegisterTheirKinds(t *testing.T) {
	for _, g := range groups {
		t.Run(g.apiVersion, func(t *testing.T) {
			if g.gv.Group != g.groupName || g.gv.String() != g.apiVersion {
				t.Fatalf("SchemeGroupVersion %#v, want group %q and apiVersion %q", g.gv, g.groupName, g.apiVersion)
			}
			for name, add := range map[string]func(*runtime.Scheme) error{"AddToScheme": g.addToScheme, "SchemeBuilder": g.builder.AddToScheme} {
				s := runtime.NewScheme()
				if err := add(s); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkKinds(t, name, s, g.gv, g.kinds)
			}
		})
	}
}

// Version returns the group version it was given and a builder that
// registers the objects under it, lists under their own kind.
func TestVersion(t *testing.T) {
	gv, b := apigroup.Version("example.com", "v1", &metav1.PartialObjectMetadata{}, &metav1.PartialObjectMetadataList{})
	if want := (schema.GroupVersion{Group: "example.com", Version: "v1"}); gv != want {
		t.Fatalf("group version %#v, want %#v", gv, want)
	}
	s := runtime.NewScheme()
	if err := b.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	checkKinds(t, "Version", s, gv, map[string]runtime.Object{
		"PartialObjectMetadata": &metav1.PartialObjectMetadata{}, "PartialObjectMetadataList": &metav1.PartialObjectMetadataList{},
	})
}

// checkKinds fails unless the scheme maps each of kinds under gv to the Go
// type of its object, knows no other kind there beyond the meta types, and
// knows ListOptions under gv.
func checkKinds(t *testing.T, name string, s *runtime.Scheme, gv schema.GroupVersion, kinds map[string]runtime.Object) {
	t.Helper()
	for kind, obj := range kinds {
		got, err := s.New(gv.WithKind(kind))
		if err != nil {
			t.Errorf("%s: kind %s: %v", name, kind, err)
			continue
		}
		if reflect.TypeOf(got) != reflect.TypeOf(obj) {
			t.Errorf("%s: kind %s is %T, want %T", name, kind, got, obj)
		}
		gvks, _, err := s.ObjectKinds(obj)
		if err != nil || len(gvks) != 1 || gvks[0] != gv.WithKind(kind) {
			t.Errorf("%s: %T is registered as %v (%v), want only %s", name, obj, gvks, err, gv.WithKind(kind))
		}
	}
	meta := runtime.NewScheme()
	metav1.AddToGroupVersion(meta, gv)
	for kind := range s.KnownTypes(gv) {
		if _, ok := kinds[kind]; !ok && !meta.Recognizes(gv.WithKind(kind)) {
			t.Errorf("%s: unexpected kind %s", name, kind)
		}
	}
	if !s.Recognizes(gv.WithKind("ListOptions")) {
		t.Errorf("%s: ListOptions not registered under %s", name, gv)
	}
}

//go:build apiserver

package e2e

import (
	"path"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/client-go/discovery"
)

// servedList is this API server's served list as Helm builds
// .Capabilities.APIVersions from a cluster (Helm v3.22 pkg/action
// GetVersionSet, v4 alike): every group/version of discovery and every
// group/version/Kind of its resources, subresources included, each once.
func servedList(t *testing.T) []string {
	t.Helper()
	dc, err := discovery.NewDiscoveryClientForConfig(restConfig)
	if err != nil {
		t.Fatal(err)
	}
	groups, resources, err := dc.ServerGroupsAndResources()
	if err != nil && !discovery.IsGroupDiscoveryFailedError(err) {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, g := range groups {
		for _, v := range g.Versions {
			set[v.GroupVersion] = true
		}
	}
	for _, r := range resources {
		for _, rl := range r.APIResources {
			set[path.Join(r.GroupVersion, rl.Kind)] = true
		}
	}
	list := make([]string, 0, len(set))
	for a := range set {
		list = append(list, a)
	}
	sort.Strings(list)
	return list
}

// TestServedListNeverRefused: a real API server's served list (every
// built-in API and the CRDs of $ETCDSHAPES_CRDS) renders both stacks with
// every optional object and no warning: every name a server serves is an
// API's name to APIVersionWarnings. Without the PodMonitor's CRD (a
// cluster with prometheus-operator's other kinds: here the PrometheusRule)
// both stacks still render, without the PodMonitor, and the one warning is
// about the PodMonitor's group.
func TestServedListNeverRefused(t *testing.T) {
	list := servedList(t)
	for _, api := range etcdshapes.OptionalAPIs() {
		if !slices.Contains(list, api) {
			t.Fatalf("the test server does not serve %s (ETCDSHAPES_CRDS lists its CRD?)", api)
		}
	}
	withoutPodMonitor := slices.DeleteFunc(slices.Clone(list), func(a string) bool { return a == etcdshapes.APIPodMonitor })
	if !slices.Contains(withoutPodMonitor, "monitoring.coreos.com/v1/PrometheusRule") {
		t.Fatal("the test server does not serve the PrometheusRule")
	}
	for _, caller := range naming.Callers() {
		req := etcdshapes.Request{Caller: caller, Namespace: "tenant-demo", Release: "kubernetes-demo", APIVersions: list}
		if caller == naming.CallerEtcd {
			req.Release = ""
		}
		objs, err := etcdshapes.Render(req)
		if err != nil {
			t.Fatalf("%s: the server's list (%d entries) is refused: %v", caller, len(list), err)
		}
		kinds := map[string]bool{}
		for _, o := range objs {
			kinds[o.GetObjectKind().GroupVersionKind().Kind] = true
		}
		for _, api := range etcdshapes.OptionalAPIsOf(caller) {
			if kind := api[strings.LastIndexByte(api, '/')+1:]; !kinds[kind] {
				t.Errorf("%s: no %s rendered though the server serves %s", caller, kind, api)
			}
		}
		if w := etcdshapes.APIVersionWarnings(caller, list); len(w) > 0 {
			t.Errorf("%s: warnings about the server's own list: %q", caller, w)
		}

		req.APIVersions = withoutPodMonitor
		objs, err = etcdshapes.Render(req)
		if err != nil {
			t.Fatalf("%s: the server's list without the PodMonitor is refused: %v", caller, err)
		}
		for _, o := range objs {
			if o.GetObjectKind().GroupVersionKind().Kind == "PodMonitor" {
				t.Errorf("%s: a PodMonitor rendered though the list does not hold %s", caller, etcdshapes.APIPodMonitor)
			}
		}
		w := etcdshapes.APIVersionWarnings(caller, withoutPodMonitor)
		if len(w) != 1 || !strings.Contains(w[0], "in the API group of "+etcdshapes.APIPodMonitor) {
			t.Errorf("%s: want one warning about the PodMonitor's group, got %q", caller, w)
		}
	}
	t.Logf("the server serves %d API names", len(list))
}

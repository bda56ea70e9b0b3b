// Package partialtest builds the live files of a stack that a plan must
// never call safe: each object the stacks emit alone, each object that
// refers to a stack alone, the stack without its stateful core, and the
// whole stack (with the core, which is safe). The plan package's tests
// and the CLI's read the same table (TestPartlyLiveStackIsNeverSafe).
// Only tests import it.
package partialtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/stacknames"
	"github.com/etcdshapes/etcdshapes/naming"
	"sigs.k8s.io/yaml"
)

// Object is one live object of a case.
type Object struct {
	// Kind and Name name it.
	Kind, Name string
	// Tree is the object as kubectl get -o json prints it.
	Tree map[string]any
	// Core: the EtcdCluster or the DataStore of the stack.
	Core bool
	// Refers: not the stack's, but an object that refers to it (a control
	// plane on its DataStore, its TLS Secrets, its members' volumes, ...).
	Refers bool
}

// Stack is one stack, rendered with every optional API of its caller.
type Stack struct {
	// Caller is the stack's caller.
	Caller naming.Caller
	// Namespace and Release are the stack's.
	Namespace, Release string
	// APIVersions are the caller's optional APIs, all of them.
	APIVersions []string
	// Objects are the stack's render (uninstall hooks included) and, for
	// a tenant cluster, its KamajiControlPlane on its own DataStore.
	Objects []Object
	// Referrers are objects that refer to the stack, one of every kind
	// that does (plan's refersTo).
	Referrers []Object
}

// Case is a live file and what a plan of it must say.
type Case struct {
	// Name says which objects the file holds.
	Name string
	// Objects are the file's objects.
	Objects []map[string]any
	// CoreMissing: the file lacks the stack's EtcdCluster or DataStore,
	// and holds something of the stack or that refers to it: no plan of
	// it is safe to apply.
	CoreMissing bool
}

// Stacks are the etcd chart's stack in tenant-root and a tenant
// cluster's in tenant-demo, each with every optional API.
func Stacks() ([]Stack, error) {
	var out []Stack
	for _, s := range []struct {
		caller      naming.Caller
		ns, release string
	}{
		{naming.CallerEtcd, "tenant-root", naming.EtcdChartRelease},
		{naming.CallerCluster, "tenant-demo", "kubernetes-demo"},
	} {
		st, err := stack(s.caller, s.ns, s.release)
		if err != nil {
			return nil, fmt.Errorf("%s %s/%s: %w", s.caller, s.ns, s.release, err)
		}
		out = append(out, st)
	}
	return out, nil
}

// Request is the stack's request for plan.ForRequest.
func (s Stack) Request() etcdshapes.Request {
	return etcdshapes.Request{Caller: s.Caller, Namespace: s.Namespace, Release: s.Release, APIVersions: slices.Clone(s.APIVersions)}
}

// Args are the CLI's arguments that plan the stack against the live file
// (flags after them are appended).
func (s Stack) Args(liveFile string) []string {
	args := []string{"plan", s.Caller.String()}
	if s.Caller == naming.CallerCluster {
		args = append(args, s.Release)
	}
	args = append(args, "-n", s.Namespace, "--live", liveFile)
	for _, a := range s.APIVersions {
		args = append(args, "--api-versions", a)
	}
	return args
}

// Cases are the stack's live files: each object of the stack alone, each
// referrer alone, every object of one kind alone, the whole without the EtcdCluster, without the
// DataStore and without both (each also with the referrers), the
// referrers alone, and the whole stack with and without the referrers
// (the core present: safe).
func (s Stack) Cases() []Case {
	var out []Case
	for _, o := range append(slices.Clone(s.Objects), s.Referrers...) {
		what := "alone"
		if o.Refers {
			what = "alone (refers to the stack)"
		}
		out = append(out, Case{Name: o.Kind + "/" + o.Name + " " + what, Objects: []map[string]any{o.Tree}, CoreMissing: true})
	}
	// Every object of one kind, where the kind has several (the etcd
	// chart's two Secrets, the five Certificates, ...).
	var kinds []string
	byKind := map[string][]map[string]any{}
	for _, o := range append(slices.Clone(s.Objects), s.Referrers...) {
		if _, seen := byKind[o.Kind]; !seen {
			kinds = append(kinds, o.Kind)
		}
		byKind[o.Kind] = append(byKind[o.Kind], o.Tree)
	}
	for _, k := range kinds {
		if len(byKind[k]) > 1 {
			out = append(out, Case{Name: "every " + k + " alone", Objects: byKind[k], CoreMissing: true})
		}
	}
	without := func(name string, drop func(Object) bool, refs bool) Case {
		var objs []map[string]any
		for _, o := range s.Objects {
			if !drop(o) {
				objs = append(objs, o.Tree)
			}
		}
		if refs {
			for _, o := range s.Referrers {
				objs = append(objs, o.Tree)
			}
			name += ", with the referrers"
		}
		return Case{Name: name, Objects: objs}
	}
	for _, refs := range []bool{false, true} {
		for _, c := range []struct {
			name string
			drop func(Object) bool
		}{
			{"the stack without its EtcdCluster", func(o Object) bool { return o.Kind == "EtcdCluster" }},
			{"the stack without its DataStore", func(o Object) bool { return o.Kind == "DataStore" }},
			{"the stack without its core", func(o Object) bool { return o.Core }},
		} {
			cs := without(c.name, c.drop, refs)
			cs.CoreMissing = true
			out = append(out, cs)
		}
		out = append(out, without("the whole stack", func(Object) bool { return false }, refs))
	}
	var refs []map[string]any
	for _, o := range s.Referrers {
		refs = append(refs, o.Tree)
	}
	out = append(out, Case{Name: "the referrers alone", Objects: refs, CoreMissing: true})
	return out
}

// LiveFile is the case as kubectl get -o json prints a List.
func (c Case) LiveFile() ([]byte, error) {
	items := c.Objects
	if items == nil {
		items = []map[string]any{}
	}
	return json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items}, "", "  ")
}

func stack(caller naming.Caller, ns, release string) (Stack, error) {
	st := Stack{Caller: caller, Namespace: ns, Release: release, APIVersions: etcdshapes.OptionalAPIsOf(caller)}
	n, err := stacknames.Of(caller, ns, release)
	if err != nil {
		return Stack{}, err
	}
	objs, err := etcdshapes.Render(st.Request())
	if err != nil {
		return Stack{}, err
	}
	for _, o := range objs {
		tree, err := treeOf(o)
		if err != nil {
			return Stack{}, err
		}
		kind := o.GetObjectKind().GroupVersionKind().Kind
		st.Objects = append(st.Objects, Object{Kind: kind, Name: o.GetName(), Tree: tree, Core: kind == "EtcdCluster" || kind == "DataStore"})
	}
	if caller == naming.CallerCluster {
		// The tenant's own control plane, on its own DataStore: what a
		// live tenant cluster has.
		st.Objects = append(st.Objects, Object{Kind: "KamajiControlPlane", Name: release, Tree: kcp(ns, release, n.DataStore())})
	}
	refs, err := referrers(n)
	if err != nil {
		return Stack{}, err
	}
	st.Referrers = refs
	return st, nil
}

// referrers are one object of every kind that refers to the stack n
// names without being rendered by it.
func referrers(n naming.Names) ([]Object, error) {
	ns := n.Namespace
	meta := func(name string, labels map[string]any) map[string]any {
		m := map[string]any{"name": name, "namespace": ns, "uid": "uid-" + name}
		if labels != nil {
			m["labels"] = labels
		}
		return m
	}
	instance := map[string]any{etcd.InstanceLabel: n.Cluster, "app.kubernetes.io/managed-by": "etcd-operator"}
	pvc, err := n.DataPVC(0)
	if err != nil {
		return nil, err
	}
	out := []Object{
		// A control plane on the stack's DataStore, in another namespace
		// (the etcd chart's shared DataStore serves every tenant below).
		{Kind: "KamajiControlPlane", Name: "kubernetes-other", Tree: kcp("tenant-other", "kubernetes-other", n.DataStore())},
		{Kind: "TenantControlPlane", Name: "tcp", Tree: map[string]any{"apiVersion": "kamaji.clastix.io/v1alpha1", "kind": "TenantControlPlane",
			"metadata": map[string]any{"name": "tcp", "namespace": "tenant-other", "uid": "uid-tcp"}, "spec": map[string]any{"dataStore": n.DataStore()}}},
		{Kind: "PersistentVolumeClaim", Name: pvc, Tree: map[string]any{"apiVersion": "v1", "kind": "PersistentVolumeClaim",
			"metadata": meta(pvc, nil), "spec": map[string]any{"accessModes": []any{"ReadWriteOnce"}}}},
		{Kind: "PersistentVolumeClaim", Name: "data-" + n.Cluster + "-abcde", Tree: map[string]any{"apiVersion": "v1", "kind": "PersistentVolumeClaim",
			"metadata": meta("data-"+n.Cluster+"-abcde", instance), "spec": map[string]any{"accessModes": []any{"ReadWriteOnce"}}}},
		{Kind: "Pod", Name: n.Cluster + "-abcde", Tree: map[string]any{"apiVersion": "v1", "kind": "Pod",
			"metadata": meta(n.Cluster+"-abcde", instance), "spec": map[string]any{"containers": []any{map[string]any{"name": "etcd", "image": "ghcr.io/etcd:v3.6.11"}}}}},
		{Kind: "EtcdMember", Name: n.Cluster + "-abcde", Tree: map[string]any{"apiVersion": "etcd-operator.cozystack.io/v1alpha2", "kind": "EtcdMember",
			"metadata": meta(n.Cluster+"-abcde", instance)}},
		{Kind: "PodDisruptionBudget", Name: n.Cluster, Tree: map[string]any{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
			"metadata": meta(n.Cluster, instance)}},
		// A member Pod with the operator's cluster label only, a defrag
		// Job's Pod (its leave to reach the members), a Job of the defrag
		// CronJob (owned by it, unlabeled), a PVC owned by the EtcdCluster.
		{Kind: "Pod", Name: n.Cluster + "-fghij", Tree: map[string]any{"apiVersion": "v1", "kind": "Pod",
			"metadata": meta(n.Cluster+"-fghij", map[string]any{etcd.OperatorClusterKey: n.Cluster})}},
		{Kind: "Pod", Name: n.DefragCronJob() + "-29000000-abcde", Tree: map[string]any{"apiVersion": "v1", "kind": "Pod",
			"metadata": meta(n.DefragCronJob()+"-29000000-abcde", map[string]any{etcd.AllowToEtcdClusterLabel: n.Cluster})}},
		{Kind: "Job", Name: n.DefragCronJob() + "-29000000", Tree: map[string]any{"apiVersion": "batch/v1", "kind": "Job",
			"metadata": ownedBy(meta(n.DefragCronJob()+"-29000000", nil), "batch/v1", "CronJob", n.DefragCronJob())}},
		{Kind: "PersistentVolumeClaim", Name: "data-member-0", Tree: map[string]any{"apiVersion": "v1", "kind": "PersistentVolumeClaim",
			"metadata": ownedBy(meta("data-member-0", nil), "etcd-operator.cozystack.io/v1alpha2", "EtcdCluster", n.Cluster)}},
		// A DataStore of another name on the stack's etcd.
		{Kind: "DataStore", Name: "another-datastore", Tree: map[string]any{"apiVersion": "kamaji.clastix.io/v1alpha1", "kind": "DataStore",
			"metadata": map[string]any{"name": "another-datastore", "uid": "uid-another-datastore"},
			"spec":     map[string]any{"driver": "etcd", "endpoints": []any{n.ClientEndpoint()}}}},
		{Kind: "Service", Name: n.Cluster, Tree: map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": meta(n.Cluster, nil)}},
		{Kind: "Service", Name: n.ClientService(), Tree: map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": meta(n.ClientService(), nil)}},
	}
	for _, name := range n.TLSSecrets() {
		if n.Caller == naming.CallerEtcd && (name == n.CASecret() || name == n.ClientSecret()) {
			continue // the etcd chart's kept Secrets: the stack's own
		}
		out = append(out, Object{Kind: "Secret", Name: name, Tree: map[string]any{"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/tls",
			"metadata": meta(name, nil), "data": map[string]any{"tls.crt": "Y2VydA==", "tls.key": "a2V5"}}})
	}
	snap, err := etcd.Snapshot(n, "before-upgrade", v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "etcd-backups"}})
	if err != nil {
		return nil, err
	}
	sched, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "0 3 * * *",
		Destination: v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "etcd-backups"}}})
	if err != nil {
		return nil, err
	}
	check, err := etcd.CheckJob(n, etcd.Options{}, etcd.CheckOptions{})
	if err != nil {
		return nil, err
	}
	for _, o := range append([]etcdshapes.Object{snap, check}, sched.Objects()...) {
		tree, err := treeOf(o)
		if err != nil {
			return nil, err
		}
		// Unlabeled: each refers to the cluster by name alone.
		if m, _ := tree["metadata"].(map[string]any); m != nil {
			delete(m, "labels")
		}
		out = append(out, Object{Kind: o.GetObjectKind().GroupVersionKind().Kind, Name: o.GetName(), Tree: tree})
	}
	for i := range out {
		out[i].Refers = true
	}
	return out, nil
}

// ownedBy is meta with an owner reference to kind name.
func ownedBy(meta map[string]any, apiVersion, kind, name string) map[string]any {
	meta["ownerReferences"] = []any{map[string]any{"apiVersion": apiVersion, "kind": kind, "name": name, "uid": "uid-" + name, "controller": true}}
	return meta
}

func kcp(ns, name, dataStore string) map[string]any {
	return map[string]any{"apiVersion": "controlplane.cluster.x-k8s.io/v1alpha1", "kind": "KamajiControlPlane",
		"metadata": map[string]any{"name": name, "namespace": ns, "uid": "uid-" + name},
		"spec":     map[string]any{"dataStoreName": dataStore, "version": "v1.33.0"}}
}

// treeOf is o as the library prints it, read back as JSON.
func treeOf(o etcdshapes.Object) (map[string]any, error) {
	y, err := etcdshapes.MarshalObject(o)
	if err != nil {
		return nil, err
	}
	j, err := yaml.YAMLToJSON(y)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var tree map[string]any
	if err := d.Decode(&tree); err != nil {
		return nil, err
	}
	return tree, nil
}

// NothingCase is a live file that holds nothing of a stack: what a
// failed or misdirected kubectl get leaves. No plan of it is safe to
// apply unless it says it is of a fresh install (plan.FreshInstall,
// --fresh-install).
type NothingCase struct {
	// Name says what the file holds.
	Name string
	// File is the live file.
	File []byte
}

// NothingLive are the stack's live files that hold nothing of it
// (plan's Result.NothingLive): an empty file (a kubectl get that failed,
// its error on stderr only), document separators only, a List whose
// items are null, a List with no items, the same stack in another
// namespace (a misdirected -n or context), and another release's stack in
// the stack's namespace (a tenant cluster's, for the etcd chart, whose
// release is fixed).
func (s Stack) NothingLive() ([]NothingCase, error) {
	out := []NothingCase{
		{Name: "an empty file"},
		{Name: "document separators only", File: []byte("---\n---\n")},
		{Name: "a List with null items", File: []byte(`{"kind":"List","items":null}` + "\n")},
		{Name: "a List with no items", File: []byte("apiVersion: v1\nkind: List\nitems: []\n")},
	}
	elsewhere, err := stack(s.Caller, s.Namespace+"-other", s.Release)
	if err != nil {
		return nil, err
	}
	other, err := stack(naming.CallerCluster, s.Namespace, "kubernetes-other")
	if err != nil {
		return nil, err
	}
	for _, c := range []struct {
		name string
		st   Stack
	}{
		{"only another namespace's objects (" + elsewhere.Namespace + ")", elsewhere},
		{"only another release's objects (" + other.Release + ")", other},
	} {
		var cs Case
		for _, o := range append(slices.Clone(c.st.Objects), c.st.Referrers...) {
			cs.Objects = append(cs.Objects, o.Tree)
		}
		f, err := cs.LiveFile()
		if err != nil {
			return nil, err
		}
		out = append(out, NothingCase{Name: c.name, File: f})
	}
	return out, nil
}

// Whole is the whole stack's live file, with its referrers: it holds the
// stack, so it is nothing of NothingLive.
func (s Stack) Whole() ([]byte, error) {
	var cs Case
	for _, o := range append(slices.Clone(s.Objects), s.Referrers...) {
		cs.Objects = append(cs.Objects, o.Tree)
	}
	return cs.LiveFile()
}

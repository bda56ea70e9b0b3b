package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// The restore flags: the CLI's way to the procedure "Recover from a
// snapshot" (docs/procedures.md), which in Go is etcd.NewestSnapshot,
// etcd.SnapshotSource and apply.ForKind(etcd.Restore(src)).
const (
	restoreFromHelp = "the namespace's EtcdSnapshots `FILE`, as 'kubectl get -n NS -o yaml\n" +
		"etcdsnapshots.etcd-operator.cozystack.io' prints them (\"-\" reads stdin; read as --live):\n" +
		"the stack's EtcdCluster, and nothing else, bootstraps from its cluster's newest Complete\n" +
		"snapshot (spec.bootstrap.restore.source). The CRD takes it on a new cluster only: delete\n" +
		"the live EtcdCluster first (docs/procedures.md, \"Recover from a snapshot\")"
	restoreSnapshotHelp = "with --restore-from: restore from the file's EtcdSnapshot `NAME`, not the newest;\n" +
		"it must be of the stack's cluster and Complete"
)

// registerRestore adds --restore-from and --restore-snapshot to a render
// or plan command.
func (r *renderFlags) registerRestore(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&r.restoreFrom, "restore-from", "", restoreFromHelp)
	fs.StringVar(&r.restoreSnapshot, "restore-snapshot", "", restoreSnapshotHelp)
	_ = cmd.MarkFlagFilename("restore-from", "yaml", "yml", "json")
	completeFlag(cmd, "restore-snapshot")
}

// checkRestore refuses --restore-snapshot without the file it names a
// snapshot of.
func (r *renderFlags) checkRestore() error {
	if r.restoreSnapshot != "" && r.restoreFrom == "" {
		return usagef("--restore-snapshot %q needs --restore-from FILE, the namespace's EtcdSnapshots it is one of", r.restoreSnapshot)
	}
	return nil
}

// stackNames are the names of the stack the flags render, refused under
// the flags (--namespace, --release) as the render refuses them.
func (r *renderFlags) stackNames() (naming.Names, error) {
	if r.caller == naming.CallerCluster {
		return naming.ForClusterAt(r.namespace, r.release, namePaths)
	}
	rel := r.release
	if rel == "" {
		rel = naming.EtcdChartRelease
	}
	return naming.ForEtcdChartAt(r.namespace, rel, namePaths)
}

// restore is what the restore flags resolved to: the snapshot and the
// modifier that seeds the stack's EtcdCluster from its file.
type restore struct {
	snap *v1alpha2.EtcdSnapshot
	src  v1alpha2.SnapshotLocation
	// modified counts the EtcdClusters the modifier changed: one, or the
	// render holds none to restore into.
	modified int
}

// modifier is etcd.Restore of the snapshot's file, on the EtcdCluster
// only, its refusals named by the flags.
func (rs *restore) modifier(r *renderFlags) apply.Modifier {
	restore := etcd.Restore(rs.src)
	return apply.ForKind(func(c *v1alpha2.EtcdCluster) error {
		if err := restore(c); err != nil {
			return fmt.Errorf("%s: %w", r.restoreWhat(rs.snap), err)
		}
		rs.modified++
		return nil
	})
}

// restoreWhat names the flags that chose snap in a refusal.
func (r *renderFlags) restoreWhat(snap *v1alpha2.EtcdSnapshot) string {
	if r.restoreSnapshot != "" {
		return fmt.Sprintf("--restore-snapshot %s", r.restoreSnapshot)
	}
	return fmt.Sprintf("--restore-from %s: EtcdSnapshot %s", r.restoreFrom, snap.Name)
}

// readRestore reads --restore-from and picks its snapshot: the one
// --restore-snapshot names, else etcd.NewestSnapshot's; nil without
// --restore-from.
func (r *renderFlags) readRestore(stdin io.Reader) (*restore, error) {
	if r.restoreFrom == "" {
		return nil, nil
	}
	n, err := r.stackNames()
	if err != nil {
		return nil, err
	}
	snaps, err := readSnapshots(r.restoreFrom, stdin)
	if err != nil {
		return nil, err
	}
	var snap *v1alpha2.EtcdSnapshot
	if r.restoreSnapshot == "" {
		if err := r.othersOnly(n, snaps); err != nil {
			return nil, err
		}
		if snap, err = etcd.NewestSnapshot(n, snaps); err != nil {
			return nil, fmt.Errorf("--restore-from %s: %w", r.restoreFrom, err)
		}
	} else if snap, err = r.namedSnapshot(n, snaps); err != nil {
		return nil, err
	}
	src, err := etcd.SnapshotSource(snap)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.restoreWhat(snap), err)
	}
	return &restore{snap: snap, src: src}, nil
}

// othersOnly refuses a file whose snapshots are all of other clusters (or
// namespaces), naming them: the file of another stack, or of another
// namespace, given by mistake.
func (r *renderFlags) othersOnly(n naming.Names, snaps []v1alpha2.EtcdSnapshot) error {
	var others []string
	seen := map[string]bool{}
	for i := range snaps {
		s := &snaps[i]
		ns := s.Namespace
		if ns == "" {
			ns = n.Namespace
		}
		if ns == n.Namespace && s.Spec.ClusterRef.Name == n.Cluster {
			return nil
		}
		if c := ns + "/" + s.Spec.ClusterRef.Name; !seen[c] {
			seen[c] = true
			others = append(others, c)
		}
	}
	if len(others) == 0 {
		return nil // none at all: NewestSnapshot says so
	}
	const shown = 5
	list := strings.Join(others[:min(len(others), shown)], ", ")
	if len(others) > shown {
		list += fmt.Sprintf(" and %d more", len(others)-shown)
	}
	return invalid.Errorf("--restore-from", r.restoreFrom, "holds %s, all of other clusters (%s), none of the stack's EtcdCluster %s/%s: give it the snapshots of namespace %s",
		plural(len(snaps), "1 EtcdSnapshot", fmt.Sprintf("%d EtcdSnapshots", len(snaps))), list, n.Namespace, n.Cluster, n.Namespace)
}

// namedSnapshot is the snapshot --restore-snapshot names among snaps,
// refused unless it is one of the namespace's and of n's cluster
// (SnapshotSource then refuses one that did not complete).
func (r *renderFlags) namedSnapshot(n naming.Names, snaps []v1alpha2.EtcdSnapshot) (*v1alpha2.EtcdSnapshot, error) {
	var names []string
	for i := range snaps {
		s := &snaps[i]
		if s.Namespace != "" && s.Namespace != n.Namespace {
			continue
		}
		if s.Name != r.restoreSnapshot {
			names = append(names, s.Name)
			continue
		}
		if s.Spec.ClusterRef.Name != n.Cluster {
			return nil, invalid.Errorf("--restore-snapshot", r.restoreSnapshot, "is a snapshot of EtcdCluster %q, not of the stack's %s/%s: restore it into its own cluster",
				s.Spec.ClusterRef.Name, n.Namespace, n.Cluster)
		}
		return s, nil
	}
	held := "no EtcdSnapshot of namespace " + n.Namespace
	if len(names) > 0 {
		const shown = 10
		list := names[:min(len(names), shown)]
		held = fmt.Sprintf("the EtcdSnapshots %s", strings.Join(list, ", "))
		if len(names) > shown {
			held += fmt.Sprintf(" and %d more", len(names)-shown)
		}
	}
	return nil, invalid.Errorf("--restore-snapshot", r.restoreSnapshot, "is not in --restore-from %s, which holds %s", r.restoreFrom, held)
}

// readSnapshots reads a --restore-from file as --live is read (the live
// input's limits, plan.ReadObjects) and takes its objects as EtcdSnapshots:
// an object of any other kind or version is refused, naming it, since
// the file is what 'kubectl get etcdsnapshots' prints.
func readSnapshots(path string, stdin io.Reader) ([]v1alpha2.EtcdSnapshot, error) {
	objs, err := readObjectsFile("--restore-from", path, stdin)
	if err != nil {
		return nil, err
	}
	snaps := make([]v1alpha2.EtcdSnapshot, len(objs))
	for i, o := range objs {
		gvk := o.GetObjectKind().GroupVersionKind()
		what := fmt.Sprintf("%s %s (object %d of the file)", gvk.Kind, namespacedName(o), i+1)
		switch {
		case gvk.Group != v1alpha2.GroupName || gvk.Kind != "EtcdSnapshot":
			return nil, invalid.Errorf("--restore-from", path, "holds %s, not an EtcdSnapshot (%s): give it what 'kubectl get etcdsnapshots.%s -n NS -o yaml' prints",
				what, v1alpha2.APIVersion, v1alpha2.GroupName)
		case gvk.GroupVersion() != v1alpha2.SchemeGroupVersion:
			return nil, invalid.Errorf("--restore-from", path, "holds %s of %s, not of %s, the version etcdshapes reads", what, gvk.GroupVersion(), v1alpha2.APIVersion)
		}
		u, ok := o.(*unstructured.Unstructured)
		if !ok {
			return nil, invalid.Errorf("--restore-from", path, "holds %s as a %T, not as read from the file", what, o)
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &snaps[i]); err != nil {
			return nil, invalid.Errorf("--restore-from", path, "holds %s, which is not an EtcdSnapshot as etcd-operator serves it: %v", what, err)
		}
	}
	return snaps, nil
}

// namespacedName is "namespace/name", or the name of an object without a
// namespace.
func namespacedName(o etcdshapes.Object) string {
	if ns := o.GetNamespace(); ns != "" {
		return ns + "/" + o.GetName()
	}
	return o.GetName()
}

// sayRestore says on stderr what a render or plan restores: the snapshot
// and its file, and, when the live file holds the stack's EtcdCluster, a
// warning that the CRD refuses the bootstrap on it.
func (r *renderFlags) sayRestore(w io.Writer, live []etcdshapes.Object) {
	rs := r.restored
	if rs == nil {
		return
	}
	n, _ := r.stackNames() // readRestore checked them
	created := "no creation time"
	if !rs.snap.CreationTimestamp.IsZero() {
		created = "created " + rs.snap.CreationTimestamp.UTC().Format("2006-01-02T15:04:05Z")
	}
	sayf(w, "restoring EtcdCluster %s/%s from EtcdSnapshot %s (%s, %s): %s",
		n.Namespace, n.Cluster, rs.snap.Name, v1alpha2.SnapshotPhaseComplete, created, sourceText(rs.src))
	for _, o := range live {
		gvk := o.GetObjectKind().GroupVersionKind()
		if gvk.Group != v1alpha2.GroupName || gvk.Kind != "EtcdCluster" || o.GetName() != n.Cluster || o.GetNamespace() != n.Namespace {
			continue
		}
		if restoredFrom(o, rs.src) {
			return // restored from this file already: nothing changes
		}
		sayf(w, "warning: --restore-from %s: --live %s holds the live EtcdCluster %s/%s, and the CRD refuses adding or changing spec.bootstrap on an existing cluster (the plan says REFUSED): delete the EtcdCluster first, then fetch the live file again and plan (docs/procedures.md, \"Recover from a snapshot\")",
			r.restoreFrom, r.live, n.Namespace, n.Cluster)
		return
	}
}

// restoredFrom reports whether the live EtcdCluster o already bootstrapped
// from src: its spec.bootstrap is the one the restore renders, and the
// apply changes nothing of it.
func restoredFrom(o etcdshapes.Object, src v1alpha2.SnapshotLocation) bool {
	u, ok := o.(*unstructured.Unstructured)
	if !ok {
		return false
	}
	m, found, err := unstructured.NestedMap(u.Object, "spec", "bootstrap")
	if err != nil || !found {
		return false
	}
	var b v1alpha2.BootstrapSpec
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, &b); err != nil || b.Restore == nil {
		return false
	}
	return equality.Semantic.DeepEqual(b.Restore.Source, src)
}

// sourceText is a restore source as one line: s3://bucket/key (endpoint)
// or pvc claim/subPath.
func sourceText(s v1alpha2.SnapshotLocation) string {
	if s.S3 != nil {
		return fmt.Sprintf("s3://%s/%s at %s", s.S3.Bucket, s.S3.Key, s.S3.Endpoint)
	}
	if s.PVC != nil {
		return fmt.Sprintf("%s on PVC %s", s.PVC.SubPath, s.PVC.ClaimName)
	}
	return "(none)"
}

// checkRestored refuses a restore whose render holds no EtcdCluster to
// restore into (a tenant cluster that stays on a shared datastore).
func (r *renderFlags) checkRestored(rs *restore, dataStore string) error {
	if rs == nil || rs.modified > 0 {
		return nil
	}
	why := "the render holds no EtcdCluster to restore into"
	if dataStore != "" {
		why += fmt.Sprintf(" (the cluster stays on the shared datastore %q)", dataStore)
	}
	return invalid.Errorf("--restore-from", r.restoreFrom, "%s", why)
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/kamaji"
	"github.com/etcdshapes/etcdshapes/plan"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// StatusFieldManager owns the annotations the operator writes back on
// the input ConfigMap. The stack itself is applied as
// apply.FieldManager, which Plan reads from managedFields.
const StatusFieldManager = "etcdshapes-example-operator"

// Result is the outcome of a reconcile, written to ResultAnnotation.
type Result string

const (
	// Applied: the plan was safe (or approved) and was applied.
	Applied Result = "Applied"
	// Unchanged: the live stack is what the input renders.
	Unchanged Result = "Unchanged"
	// Refused: the API server would reject the plan; nothing was applied.
	Refused Result = "Refused"
	// DecisionNeeded: the plan costs availability or data; nothing was
	// applied until ApproveAnnotation carries the plan's token.
	DecisionNeeded Result = "DecisionNeeded"
	// Invalid: the input cannot be rendered; nothing was applied.
	Invalid Result = "Invalid"
)

// maxPlanText bounds the plan written to PlanAnnotation (all annotations
// of an object share 256 KiB).
const maxPlanText = 32 << 10

// Reconciler reconciles the tenant etcd stack of a ConfigMap labelled
// StackLabel=StackLabelValue.
type Reconciler struct {
	// Client reads the ConfigMap (from the manager's cache) and writes.
	Client client.Client
	// Reader reads live objects without a cache: the plan must see what
	// the server holds, managedFields included.
	Reader client.Reader
	// Mapper tells which optional APIs are served and which kinds exist.
	Mapper meta.RESTMapper
	// Recorder records an Event on the ConfigMap for every outcome but
	// Unchanged.
	Recorder events.EventRecorder
	// ChartVersion is the kubernetes chart version the stack reports
	// (the WorkloadMonitor's version); empty means "0.0.0".
	ChartVersion string
}

// outcome is what one reconcile did.
type outcome struct {
	result   Result
	message  string
	plan     string
	decision string
	snapshot string
}

// SetupWithManager watches the selected ConfigMaps and reconciles when
// their input changes (not when the operator writes its annotations).
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	selected := predicate.NewPredicateFuncs(func(o client.Object) bool {
		return o.GetLabels()[StackLabel] == StackLabelValue
	})
	inputChanged := predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		oldCM, ok1 := e.ObjectOld.(*corev1.ConfigMap)
		newCM, ok2 := e.ObjectNew.(*corev1.ConfigMap)
		return !ok1 || !ok2 || inputDigest(oldCM) != inputDigest(newCM)
	}}
	return ctrl.NewControllerManagedBy(mgr).
		Named("tenant-etcd").
		For(&corev1.ConfigMap{}, builder.WithPredicates(selected, inputChanged)).
		Complete(r)
}

// Reconcile renders, plans and, when the plan allows it, applies the stack
// of one ConfigMap, then records the outcome on it. Errors are returned
// only for what a retry can fix (the API server); an input or a plan that
// cannot be applied is recorded and waits for the input to change.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Client.Get(ctx, req.NamespacedName, cm); err != nil {
		// Deleting the ConfigMap leaves the stack: deleting a datastore
		// must never be a side effect.
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels[StackLabel] != StackLabelValue {
		return ctrl.Result{}, nil
	}
	out, err := r.reconcile(ctx, cm)
	if err != nil {
		return ctrl.Result{}, err
	}
	log.FromContext(ctx).Info("reconciled", "result", out.result, "message", out.message)
	return ctrl.Result{}, r.record(ctx, cm, out)
}

func (r *Reconciler) reconcile(ctx context.Context, cm *corev1.ConfigMap) (outcome, error) {
	in, err := readInput(cm)
	if err != nil {
		return outcome{result: Invalid, message: err.Error()}, nil
	}
	n, err := naming.ForCluster(cm.Namespace, in.release)
	if err != nil {
		return outcome{result: Invalid, message: err.Error()}, nil
	}
	apis, err := r.servedAPIs()
	if err != nil {
		return outcome{}, err
	}
	live, err := r.readLive(ctx, n)
	if err != nil {
		return outcome{}, err
	}
	// The live state (the EtcdCluster's storage class, the
	// KamajiControlPlane's DataStore) is what the chart's lookup reads;
	// the render uses it and so do the snapshot and the messages below.
	st, err := plan.LiveStateFromObjects(cm.Namespace, in.release, live)
	var p *plan.Result
	var desired []etcdshapes.Object
	if err == nil {
		// Plan with the modifier the apply uses, or the annotation it
		// adds would show as removed (from managedFields) on every
		// reconcile. desired comes back annotated.
		req := etcdshapes.Request{
			Caller: naming.CallerCluster, Namespace: cm.Namespace, Release: in.release,
			ChartVersion: r.ChartVersion, Values: in.values, APIVersions: apis, Live: st,
		}
		annotate := apply.WithAnnotations(map[string]string{ConfigAnnotation: cm.Namespace + "/" + cm.Name})
		p, desired, err = plan.ForRequest(req, live, annotate)
		if err == nil && p.NothingLive {
			// Nothing of the stack is live, which a plan takes for a
			// decision (a failed or misdirected kubectl get looks the
			// same). readLive read every object the stack can render by
			// name, any error but NotFound returned: here nothing live
			// is a fresh install, planned as one.
			p, desired, err = plan.ForRequestWith(req, live, []plan.Option{plan.FreshInstall()}, annotate)
		}
	}
	var bad *invalid.Error
	switch {
	case errors.As(err, &bad):
		return outcome{result: Invalid, message: err.Error()}, nil
	case err != nil:
		return outcome{}, err
	}
	out := outcome{plan: truncate(p.String(), maxPlanText)}

	// The snapshot comes before the gate: it changes nothing in the
	// stack, and a person who is asked to decide on a scale-down wants
	// it taken first.
	if in.snapshot != "" {
		switch {
		case st.StorageClassName == nil:
			out.message = "snapshot " + in.snapshot + " waits for the EtcdCluster to exist; "
		default:
			taken, err := r.takeSnapshot(ctx, cm, n, in)
			if err != nil {
				return outcome{}, err
			}
			if taken {
				out.snapshot = in.snapshot
			} else {
				out.message = "snapshot " + in.snapshot + " not taken: an EtcdSnapshot of that name belongs to another cluster; "
			}
		}
	}

	refused, decisions := 0, 0
	for _, f := range p.AllFindings() {
		switch f.Verdict {
		case plan.Refused:
			refused++
		case plan.NeedsDecision:
			decisions++
		}
	}
	token := decisionToken(p)
	switch {
	case refused > 0:
		out.result = Refused
		out.message += fmt.Sprintf("not applied: the API server would reject %d change(s); see %s", refused, PlanAnnotation)
		return out, nil
	case token != "" && in.approve != token:
		out.result, out.decision = DecisionNeeded, token
		out.message += fmt.Sprintf("not applied: %d change(s) need a decision; to apply this plan, annotate %s=%s", decisions, ApproveAnnotation, token)
		return out, nil
	case p.Empty():
		out.result = Unchanged
		if st.DataStoreName != "" && st.DataStoreName != n.DataStore() {
			out.message += "the tenant cluster stays on the shared DataStore " + st.DataStoreName + "; no etcd is rendered"
		} else {
			out.message += "the live stack matches the input"
		}
		return out, nil
	}

	reqs, err := apply.Requests(desired)
	if err != nil {
		return outcome{}, err
	}
	for _, a := range reqs {
		// Server-side apply of exactly the fields the library set (the
		// object is the apply body, decoded); Apply writes the server's
		// answer into the object, hence the copy.
		err := r.Client.Apply(ctx, client.ApplyConfigurationFromUnstructured(a.Object.DeepCopy()),
			client.FieldOwner(apply.FieldManager), client.ForceOwnership)
		if err != nil {
			return outcome{}, fmt.Errorf("applying %s %s/%s: %w", a.Object.GetKind(), a.Namespace, a.Name, err)
		}
	}
	deleted := 0
	for _, o := range p.Objects {
		if o.Action != plan.Delete {
			continue
		}
		u := &unstructured.Unstructured{}
		u.SetAPIVersion(o.APIVersion)
		u.SetKind(o.Kind)
		u.SetNamespace(o.Namespace)
		u.SetName(o.Name)
		if err := r.Client.Delete(ctx, u, client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(err) != nil {
			return outcome{}, fmt.Errorf("deleting %s: %w", o.ObjectRef, err)
		}
		deleted++
	}
	out.result = Applied
	out.message += fmt.Sprintf("applied: %d created, %d updated, %d deleted", p.Count(plan.Create), p.Count(plan.Update), deleted)
	if token != "" {
		out.message += " (approved " + token + ")"
	}
	return out, nil
}

// servedAPIs lists the stacks' optional APIs (etcdshapes.Shapes: the rows
// with an API) that the cluster serves, in the library's
// "group/version/Kind" form.
func (r *Reconciler) servedAPIs() ([]string, error) {
	var out []string
	for _, s := range etcdshapes.Shapes() {
		if s.API == "" || slices.Contains(out, s.API) {
			continue
		}
		served, err := r.serves(s.Kind)
		if err != nil {
			return nil, err
		}
		if served {
			out = append(out, s.API)
		}
	}
	return out, nil
}

func (r *Reconciler) serves(gvk schema.GroupVersionKind) (bool, error) {
	_, err := r.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	switch {
	case meta.IsNoMatchError(err):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// readLive gets, by name, every object the stack can render (every
// optional API on, Helm uninstall hooks left out) and the tenant's
// KamajiControlPlane; kinds the cluster does not serve and objects that do
// not exist are skipped. These are all the live objects the plan needs:
// the stack's objects to compare and delete, the live EtcdCluster's
// storage class and the KamajiControlPlane's DataStore.
func (r *Reconciler) readLive(ctx context.Context, n naming.Names) ([]etcdshapes.Object, error) {
	scope, err := etcdshapes.Scope(n)
	if err != nil {
		return nil, err
	}
	// The KamajiControlPlane (its spec.dataStoreName, read by
	// plan.LiveStateFromObjects) beside the stack's objects.
	keys := append([]etcdshapes.StackObject{{Kind: kamaji.ControlPlaneKind, Namespace: n.Namespace, Name: n.Release}}, scope...)
	var live []etcdshapes.Object
	for _, k := range keys {
		served, err := r.serves(k.Kind)
		if err != nil {
			return nil, err
		}
		if !served {
			continue
		}
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(k.Kind)
		err = r.Reader.Get(ctx, types.NamespacedName{Namespace: k.Namespace, Name: k.Name}, u)
		switch {
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			return nil, fmt.Errorf("reading %s %s/%s: %w", k.Kind.Kind, k.Namespace, k.Name, err)
		}
		live = append(live, u)
	}
	return live, nil
}

// takeSnapshot creates the requested EtcdSnapshot and reports whether the
// snapshot of that name is this cluster's. A snapshot is taken once: an
// existing one of that name is left as it is (the object is immutable;
// another snapshot needs another name).
func (r *Reconciler) takeSnapshot(ctx context.Context, cm *corev1.ConfigMap, n naming.Names, in input) (bool, error) {
	s, err := etcd.Snapshot(n, in.snapshot, *in.destination)
	if err != nil {
		return false, err
	}
	s.Annotations = map[string]string{ConfigAnnotation: cm.Namespace + "/" + cm.Name}
	err = r.Client.Create(ctx, s, client.FieldOwner(apply.FieldManager))
	if apierrors.IsAlreadyExists(err) {
		have := &unstructured.Unstructured{}
		have.SetGroupVersionKind(v1alpha2.SchemeGroupVersion.WithKind("EtcdSnapshot"))
		if err := r.Reader.Get(ctx, client.ObjectKeyFromObject(s), have); err != nil {
			return false, err
		}
		ref, _, _ := unstructured.NestedString(have.Object, "spec", "clusterRef", "name")
		return ref == n.Cluster, nil
	}
	if err != nil {
		return false, fmt.Errorf("creating EtcdSnapshot %s/%s: %w", s.Namespace, s.Name, err)
	}
	file, err := etcd.SnapshotFile(*in.destination, in.snapshot)
	if err != nil {
		return false, err
	}
	where, err := json.Marshal(file)
	if err != nil {
		return false, err
	}
	r.Recorder.Eventf(cm, s, corev1.EventTypeNormal, "SnapshotRequested", "Snapshot",
		"EtcdSnapshot %s of %s requested; its file: %s", s.Name, n.Cluster, where)
	return true, nil
}

// record writes the outcome to the ConfigMap's annotations, as
// StatusFieldManager with server-side apply (an annotation the outcome no
// longer sets, such as a decision token, is removed), and records an
// Event.
func (r *Reconciler) record(ctx context.Context, cm *corev1.ConfigMap, out outcome) error {
	ann := map[string]string{
		ResultAnnotation:  string(out.result),
		MessageAnnotation: out.message,
	}
	if out.plan != "" {
		ann[PlanAnnotation] = out.plan
	}
	if out.decision != "" {
		ann[DecisionAnnotation] = out.decision
	}
	if out.snapshot != "" {
		ann[SnapshotTakenAnnotation] = out.snapshot
	} else if taken := cm.Annotations[SnapshotTakenAnnotation]; taken != "" {
		// Keep the record of the last snapshot taken.
		ann[SnapshotTakenAnnotation] = taken
	}
	// client-go's typed apply configuration: only the annotations.
	target := corev1ac.ConfigMap(cm.Name, cm.Namespace).WithAnnotations(ann)
	if err := r.Client.Apply(ctx, target, client.FieldOwner(StatusFieldManager), client.ForceOwnership); err != nil {
		return fmt.Errorf("recording the outcome on ConfigMap %s/%s: %w", cm.Namespace, cm.Name, err)
	}
	switch out.result {
	case Applied:
		r.Recorder.Eventf(cm, nil, corev1.EventTypeNormal, string(out.result), "Apply", "%s", out.message)
	case Refused, DecisionNeeded, Invalid:
		r.Recorder.Eventf(cm, nil, corev1.EventTypeWarning, string(out.result), "Plan", "%s", truncate(out.message, 1000))
	}
	return nil
}

// truncate keeps s within n bytes, cutting at a character boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"
	"sort"
	"strings"

	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// The input ConfigMap: a label selects it, data carries the stack's inputs,
// annotations carry a person's requests.
const (
	// StackLabel selects the ConfigMaps this operator reconciles, with
	// the value StackLabelValue.
	StackLabel      = "etcdshapes.example/stack"
	StackLabelValue = "tenant-etcd"

	// KeyRelease is the kubernetes chart's release, "kubernetes-<cluster>";
	// the etcd is "<release>-etcd" in the ConfigMap's namespace.
	KeyRelease = "release"
	// KeyValues holds values in the kubernetes chart's shape: etcd.replicas
	// and the platform's _cluster keys (storage classes, ratios, spread).
	KeyValues = "values.yaml"
	// KeySnapshotDestination is where requested snapshots go: a
	// v1alpha2.SnapshotLocation in YAML ({pvc: {claimName, subPath}} or
	// {s3: {...}}).
	KeySnapshotDestination = "snapshot-destination.yaml"

	// SnapshotAnnotation requests a one-off snapshot with that name.
	SnapshotAnnotation = "etcdshapes.example/snapshot"
	// ApproveAnnotation approves a plan that needs a decision: its value
	// must be the token the operator wrote to DecisionAnnotation for that
	// plan, so an approval never carries over to another change.
	ApproveAnnotation = "etcdshapes.example/approve"
)

// What the operator writes back on the ConfigMap (it has no status), with
// its own field manager so the user's fields are never touched.
const (
	ResultAnnotation        = "etcdshapes.example/result"
	MessageAnnotation       = "etcdshapes.example/message"
	DecisionAnnotation      = "etcdshapes.example/decision"
	PlanAnnotation          = "etcdshapes.example/plan"
	SnapshotTakenAnnotation = "etcdshapes.example/snapshot-taken"
	// ConfigAnnotation is set on every object the operator applies: the
	// ConfigMap it came from.
	ConfigAnnotation = "etcdshapes.example/config"
)

// input is what a ConfigMap asks for.
type input struct {
	release     string
	values      map[string]any
	snapshot    string
	destination *v1alpha2.SnapshotLocation
	approve     string
}

// readInput parses a ConfigMap. Every error is a *invalid.Error naming the
// key, so that the message tells the user what to fix.
func readInput(cm *corev1.ConfigMap) (input, error) {
	in := input{
		release:  cm.Data[KeyRelease],
		snapshot: cm.Annotations[SnapshotAnnotation],
		approve:  cm.Annotations[ApproveAnnotation],
	}
	if in.release == "" {
		return input{}, invalid.Errorf("data."+KeyRelease, "", "must name the kubernetes chart's release (kubernetes-<cluster>)")
	}
	values, err := values.Merge([]byte(cm.Data[KeyValues]))
	if err != nil {
		return input{}, invalid.Errorf("data."+KeyValues, firstLine(cm.Data[KeyValues]), "must be the kubernetes chart's values in YAML: %v", err)
	}
	in.values = values
	if raw, ok := cm.Data[KeySnapshotDestination]; ok {
		var d v1alpha2.SnapshotLocation
		if err := yaml.UnmarshalStrict([]byte(raw), &d); err != nil {
			return input{}, invalid.Errorf("data."+KeySnapshotDestination, firstLine(raw), "must be a snapshot location ({pvc: {claimName, subPath}} or {s3: {...}}): %v", err)
		}
		if err := etcd.ValidateSnapshotDestination("data."+KeySnapshotDestination, d); err != nil {
			return input{}, err
		}
		in.destination = &d
	}
	if in.snapshot != "" {
		if in.destination == nil {
			return input{}, invalid.Errorf("annotations."+SnapshotAnnotation, in.snapshot, "needs data.%s to say where the snapshot goes", KeySnapshotDestination)
		}
		if err := naming.ValidateSnapshotName("annotations."+SnapshotAnnotation, in.snapshot); err != nil {
			return input{}, err
		}
	}
	return in, nil
}

// inputDigest is what the operator reacts to: the data, the selecting
// label and the two request annotations. Its own annotations are left out,
// so that writing them back does not trigger another reconcile.
func inputDigest(cm *corev1.ConfigMap) string {
	h := sha256.New()
	keys := make([]string, 0, len(cm.Data))
	for k := range cm.Data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		h.Write([]byte(k + "\x00" + cm.Data[k] + "\x00"))
	}
	for _, k := range []string{SnapshotAnnotation, ApproveAnnotation} {
		h.Write([]byte(k + "\x00" + cm.Annotations[k] + "\x00"))
	}
	h.Write([]byte(cm.Labels[StackLabel]))
	return hex.EncodeToString(h.Sum(nil))
}

// decisionToken identifies the decisions a plan needs: the first 16 hex
// digits of the SHA-256 of its needs-decision findings, in plan order.
// The same plan gives the same token; any other decision another token.
// Empty when nothing needs a decision.
func decisionToken(p *plan.Result) string {
	h := sha256.New()
	n := 0
	for _, f := range p.AllFindings() {
		if f.Verdict == plan.NeedsDecision {
			h.Write([]byte(f.String() + "\n"))
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

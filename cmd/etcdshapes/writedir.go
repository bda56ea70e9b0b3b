package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/etcdshapes/etcdshapes"
	etcdv1alpha2 "github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	kamajiv1alpha1 "github.com/etcdshapes/etcdshapes/apis/kamaji/v1alpha1"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// writeSignals stop a directory write (render --output-dir, gen chart):
// before its commit point it removes what it staged and the command exits
// 128+N, having changed nothing; after it, the write finishes first.
var writeSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalCause is the context cause of a write stopped by a signal.
type signalCause struct{ sig os.Signal }

func (c signalCause) Error() string { return signalName(c.sig) }

// signalName is a signal as a shell names it: SIGINT, SIGTERM, SIGHUP.
func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// signalExit is the exit status of a command a signal stopped, as a shell
// reports one (128+N).
func signalExit(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitError
}

// writeDirectory writes files into dir with chartwrite, under the signals
// writeSignals: a write they stop before its commit point changes nothing
// and the command exits 128+N; one they reach after it finishes, is
// reported, and the command exits 128+N as well. field names the
// directory's flag in messages ("--output-dir", "--out"). Refused files are
// reported on stderr (exit 1), an earlier run's recovery too. detail, when
// set, adds to the summary of a write that succeeded (it may cost: gen's
// template sizes render the chart again); removed, when set, says what
// became of a removed file's objects (reportWritten).
func writeDirectory(field, dir string, files []chartwrite.File, o chartwrite.Options, detail func() string, removed func(path string) string, stdout, stderr io.Writer) error {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, writeSignals...)
	defer signal.Stop(sigs)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case s := <-sigs:
			cancel(signalCause{s})
		case <-done:
		}
	}()
	o.LockWait = lockWait
	res, err := chartwrite.WriteContext(ctx, dir, files, o)
	close(done)
	<-stopped
	if res.Recovered != "" {
		sayf(stderr, "%s", res.Recovered)
	}
	var sc signalCause
	signalled := errors.As(context.Cause(ctx), &sc)
	if err != nil {
		var (
			refused *chartwrite.RefusedError
			unsafe  *unsafePruneError
			ie      *chartwrite.InterruptedError
		)
		switch {
		case errors.As(err, &ie) && signalled:
			sayf(stderr, "interrupted by %s before anything was written to %s; nothing changed there", signalName(sc.sig), dir)
			return &exitStatus{signalExit(sc.sig)}
		case errors.As(err, &refused):
			for _, r := range refused.Refusals {
				r.Field = field
			}
			sayErr(stderr, err)
			sayf(stderr, "nothing was written to %s", dir)
			return &exitStatus{exitError}
		case errors.As(err, &unsafe):
			sayErr(stderr, unsafe)
			sayf(stderr, "nothing was written to %s", dir)
			return &exitStatus{exitUnsafe}
		}
		var ne *invalid.Error
		if errors.As(err, &ne) && ne.Field == chartwrite.Field {
			ne.Field = field
		}
		if len(invalid.All(err)) == 0 {
			// An I/O error ("lstat d: not a directory") names the
			// flag it is about, as a refusal does.
			err = fmt.Errorf("%s: %w", field, err)
		}
		sayErr(stderr, err)
		if !errors.Is(err, chartwrite.ErrUnfinished) {
			// Every other failure leaves the directory as it was.
			sayf(stderr, "nothing was written to %s", dir)
		}
		return &exitStatus{exitError}
	}
	d := ""
	if detail != nil {
		d = detail()
	}
	if err := reportWritten(dir, res, d, removed, stdout, stderr); err != nil {
		return err
	}
	if signalled {
		sayf(stderr, "%s arrived after the write into %s had passed its commit point: it was finished, then etcdshapes stopped", signalName(sc.sig), dir)
		return &exitStatus{signalExit(sc.sig)}
	}
	return nil
}

// stackName is "NAMESPACE/RELEASE" of a render's stack, the etcd chart's
// release "etcd" when not given: with the command, the owner its
// --output-dir records.
func stackName(caller naming.Caller, namespace, release string) string {
	if caller == naming.CallerEtcd && release == "" {
		release = naming.EtcdChartRelease
	}
	return namespace + "/" + release
}

// renderFile is the name render --output-dir gives an object's file:
// NN-kind-name.yaml or .json.
var renderFile = regexp.MustCompile(`^[0-9]{2,}-[a-z0-9]+-[^/]+\.(yaml|json)$`)

// adoptsRender says whether a manifest from before owners were recorded
// can be render's: it lists only files render names.
func adoptsRender(paths []string) bool {
	for _, p := range paths {
		if !renderFile.MatchString(p) {
			return false
		}
	}
	return true
}

// adoptsChart says whether a manifest from before owners were recorded
// can be gen chart's: every chart has a Chart.yaml.
func adoptsChart(paths []string) bool {
	for _, p := range paths {
		if p == "Chart.yaml" {
			return true
		}
	}
	return false
}

// objectKey identifies an object across files: group, kind, namespace,
// name.
type objectKey struct {
	gk              schema.GroupKind
	namespace, name string
}

func (k objectKey) String() string {
	if k.namespace == "" {
		return k.gk.Kind + " " + k.name
	}
	return k.gk.Kind + " " + k.namespace + "/" + k.name
}

func keyOf(o etcdshapes.Object) objectKey {
	return objectKey{o.GetObjectKind().GroupVersionKind().GroupKind(), o.GetNamespace(), o.GetName()}
}

// stateLoss says what a GitOps prune (or kubectl apply --prune) deletes
// with an object of the stack that leaves the directory, for the kinds
// that hold state no render can give back: "" for the others, which the
// next render recreates as they were.
func stateLoss(u *unstructured.Unstructured) string {
	gk := u.GroupVersionKind().GroupKind()
	switch gk {
	case schema.GroupKind{Group: etcdv1alpha2.GroupName, Kind: "EtcdCluster"}:
		return "the etcd cluster: its members stop and every tenant control plane on it loses its datastore, and its data volumes go with it (each is owned by its EtcdMember)"
	case schema.GroupKind{Group: etcdv1alpha2.GroupName, Kind: "EtcdSnapshot"}:
		return "the snapshot, a backup"
	case schema.GroupKind{Group: kamajiv1alpha1.GroupName, Kind: "DataStore"}:
		return "the Kamaji DataStore: every tenant control plane on it loses its datastore"
	case schema.GroupKind{Group: "cert-manager.io", Kind: "Issuer"}, schema.GroupKind{Group: "cert-manager.io", Kind: "ClusterIssuer"}:
		return "an Issuer of the etcd's PKI: its certificates can no longer be renewed"
	case schema.GroupKind{Group: "", Kind: "Secret"}:
		return "the Secret and the keys it holds"
	case schema.GroupKind{Group: "", Kind: "PersistentVolumeClaim"}:
		return "the volume and its data"
	case schema.GroupKind{Group: "cert-manager.io", Kind: "Certificate"}:
		if isCA, _, _ := unstructured.NestedBool(u.Object, "spec", "isCA"); isCA {
			return "a CA certificate (and, where cert-manager owns its Secret, the CA's key): a new CA invalidates every certificate the old one issued"
		}
	}
	return ""
}

// unsafePruneError refuses a render --output-dir that would take objects
// holding state (stateLoss), or the objects of an API the render no
// longer lists (capabilityLoss), out of the directory, without
// --prune-unsafe: exit 3.
type unsafePruneError struct{ refusals invalid.List }

func (e *unsafePruneError) Error() string { return e.refusals.Error() }
func (e *unsafePruneError) Unwrap() error { return e.refusals }

// capabilityLoss says what a GitOps prune deletes with an object of a
// kind the stack renders only where its API is served (the table of
// shapes' gated kinds): the object a forgotten --api-versions drops from a
// render, although the cluster still serves its API; "" for other kinds.
func capabilityLoss(gk schema.GroupKind) string {
	switch gk.Kind {
	case "CiliumNetworkPolicy":
		return "the etcd's network policy, which denies its ports 2379 and 2380 to the pods outside its stack and namespace: they can reach etcd again"
	case "VerticalPodAutoscaler":
		return "the etcd's VerticalPodAutoscaler, which sets the requests of the members etcd-operator creates"
	case "VMPodScrape", "PodMonitor":
		return "the scrape of the etcd's metrics: its dashboards and alerts go blind"
	case "GrafanaDashboard":
		return "the etcd's Grafana dashboard"
	}
	return "the " + gk.Kind
}

// gatedAPI is the optional API that decides whether caller's stack renders
// objects of gk ("" when none does: the kind renders whatever is served).
func gatedAPI(caller naming.Caller, gk schema.GroupKind) string {
	for _, s := range etcdshapes.Shapes() {
		if s.API != "" && s.Kind.GroupKind() == gk && slices.Contains(s.Callers, caller) && !slices.Contains(s.AlwaysFor, caller) {
			return s.API
		}
	}
	return ""
}

// pruneReview is render --output-dir's chartwrite.Options.Approve: it
// reads the objects of every file the write replaces or removes. A file
// whose object this render no longer prints (under any file name) takes
// that object out of the directory, and a GitOps tool that prunes deletes
// it; for an object that holds state (stateLoss), an object of a kind
// gated by an API (capabilityLoss: the render's --api-versions may have
// forgotten it), or a file whose object cannot be read, that needs
// --prune-unsafe (enforce false). It records what became of each
// removed file's objects, which the summary says (removed).
type pruneReview struct {
	caller  naming.Caller // the stack's caller; "" for render snapshot|check
	served  []string      // the APIs the render listed
	enforce bool          // without --prune-unsafe
	// fileOf is each printed object's file.
	fileOf map[objectKey]string
	// fates are, by removed path, what became of its objects.
	fates map[string]string
}

func newPruneReview(printed []etcdshapes.Object, files []chartwrite.File, caller naming.Caller, served []string, enforce bool) *pruneReview {
	r := &pruneReview{caller: caller, served: served, enforce: enforce, fileOf: make(map[objectKey]string, len(printed)), fates: map[string]string{}}
	for i, o := range printed {
		r.fileOf[keyOf(o)] = files[i].Path
	}
	return r
}

func (r *pruneReview) approve(p chartwrite.Plan) error {
	var refusals invalid.List
	check := func(e chartwrite.Existing, verb string) {
		// The file as the directory names it: the last line says
		// which directory ("nothing was written to DIR").
		file := filepath.FromSlash(e.Path)
		if e.Data == nil {
			// Above chartwrite.MaxFileSize, not read: only --force
			// replaces or removes it.
			refusals = append(refusals, invalid.Errorf("--output-dir", file, "is too large to be read, so etcdshapes cannot tell which objects it holds, and this render would %s it: a GitOps prune may delete them; rerun with --prune-unsafe to %s it", verb, verb))
			return
		}
		objs, err := objectsIn(e.Data)
		if err != nil {
			refusals = append(refusals, invalid.Errorf("--output-dir", file, "%v, so etcdshapes does not read it and cannot tell which objects it holds, and this render would %s it: a GitOps prune may delete them; rerun with --prune-unsafe to %s it", err, verb, verb))
			return
		}
		var fates []string
		for _, u := range objs {
			k := keyOf(u)
			if now, ok := r.fileOf[k]; ok {
				fates = append(fates, fmt.Sprintf("%s is now in %s", k, now))
				continue // still printed, under another file name
			}
			fates = append(fates, fmt.Sprintf("%s is no longer rendered", k))
			if loss := stateLoss(u); loss != "" {
				refusals = append(refusals, invalid.Errorf("--output-dir", file, "holds %s, which this render no longer prints: %s the file makes a GitOps prune (or kubectl apply --prune) delete %s; rerun with --prune-unsafe to remove it from the directory",
					k, verbing(verb), loss))
			} else if api := gatedAPI(r.caller, k.gk); api != "" {
				why := "which this render no longer prints"
				fix := "rerun with --prune-unsafe to remove it from the directory"
				if !slices.Contains(r.served, api) {
					why = "which this render prints only where --api-versions lists " + api + ", and it does not"
					fix = "if the management cluster serves the API, rerun with --api-versions " + api + "; to remove the object, rerun with --prune-unsafe"
				}
				refusals = append(refusals, invalid.Errorf("--output-dir", file, "holds %s, %s: %s the file makes a GitOps prune (or kubectl apply --prune) delete %s; %s",
					k, why, verbing(verb), capabilityLoss(k.gk), fix))
			}
		}
		if verb == "remove" {
			r.fates[e.Path] = strings.Join(fates, "; ")
		}
	}
	type leaving struct {
		e    chartwrite.Existing
		verb string
	}
	entries := make([]leaving, 0, len(p.Replaced)+len(p.Removed))
	for _, e := range p.Replaced {
		entries = append(entries, leaving{e, "replace"})
	}
	for _, e := range p.Removed {
		entries = append(entries, leaving{e, "remove"})
	}
	// In path order, as chartwrite lists its refusals.
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].e.Path < entries[j].e.Path })
	for _, x := range entries {
		check(x.e, x.verb)
	}
	if len(refusals) == 0 || !r.enforce {
		return nil
	}
	return &unsafePruneError{refusals}
}

// removed is what became of the objects of a file the write removed
// (writeDirectory's removed).
func (r *pruneReview) removed(path string) string { return r.fates[path] }

// objectsIn reads the objects of a file as kubectl apply -f reads it: each
// YAML document (or JSON object) with a kind. What is not an object (a
// file someone wrote by hand, which only --force replaces or removes) is
// none, since no GitOps tool applies it either. A file beyond a live
// file's limits of documents and nodes (inputlimit.Live.CheckStream: a
// file of the directory's is as much the user's input as --live) is not
// decoded: the error says which limit.
func objectsIn(data []byte) ([]*unstructured.Unstructured, error) {
	limits := inputlimit.Live
	limits.What = "a file of the directory etcdshapes reads"
	if err := limits.CheckStream(data); err != nil {
		return nil, err
	}
	var out []*unstructured.Unstructured
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			return out, nil
		}
		if items, ok := m["items"].([]any); ok && strings.HasSuffix(fmt.Sprint(m["kind"]), "List") {
			for _, it := range items {
				if im, ok := it.(map[string]any); ok {
					out = append(out, &unstructured.Unstructured{Object: im})
				}
			}
			continue
		}
		if _, ok := m["kind"].(string); ok {
			out = append(out, &unstructured.Unstructured{Object: m})
		}
	}
}

// verbing is "replacing" or "removing".
func verbing(verb string) string { return strings.TrimSuffix(verb, "e") + "ing" }

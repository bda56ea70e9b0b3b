package etcdshapes

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/etcdshapes/etcdshapes/naming"
)

// Action is what applying a plan does to one object.
type Action string

const (
	// Create: the object does not exist yet.
	Create Action = "create"
	// Update: some fields the builders set differ from the live object.
	Update Action = "update"
	// Unchanged: every field the builders set has its live value.
	Unchanged Action = "unchanged"
	// Delete: a live object of the stack the stack no longer renders.
	Delete Action = "delete"
)

// Verdict grades a finding.
type Verdict string

const (
	// Refused: the API server rejects the change (a CRD rule or an
	// immutable field); delete and recreate, or keep the live value.
	Refused Verdict = "refused"
	// NeedsDecision: the API server accepts it, but it costs availability
	// or data, so a person must decide.
	NeedsDecision Verdict = "needs decision"
	// Note: worth knowing; does not block.
	Note Verdict = "note"
)

// ObjectRef names an object.
type ObjectRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Namespace is empty for cluster-scoped objects (the DataStore).
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// String is "Kind namespace/name", or "Kind name" when cluster-scoped.
func (r ObjectRef) String() string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name
}

// Finding is something about a change the API server refuses or a person
// must decide, or a note.
type Finding struct {
	Verdict Verdict `json:"verdict"`
	// Object is the object concerned.
	Object ObjectRef `json:"object"`
	// Path is the field concerned, e.g. "spec.tls.client.serverSecretRef";
	// empty for the whole object.
	Path    string `json:"path,omitempty"`
	Message string `json:"message"`
}

func (f Finding) String() string {
	where := f.Object.String()
	if f.Path != "" {
		where += " " + f.Path
	}
	return fmt.Sprintf("%s: %s: %s", f.Verdict, where, f.Message)
}

// ObjectPlan is the plan for one object.
type ObjectPlan struct {
	ObjectRef
	Action Action `json:"action"`
	// Changes are the changed fields of an update, sorted by path.
	Changes  []FieldChange `json:"changes,omitempty"`
	Findings []Finding     `json:"findings,omitempty"`
}

// PlanResult is what applying a desired stack to a live cluster does.
type PlanResult struct {
	// Objects in the desired order (install order), then the deletions.
	Objects []ObjectPlan `json:"objects"`
	// Findings that concern no object of the stack: the tenant cluster's
	// KamajiControlPlane moving to another DataStore.
	Findings []Finding `json:"findings,omitempty"`
	// Skipped are the desired Helm uninstall hooks, which are never
	// applied (see IsUninstallHook).
	Skipped []ObjectRef `json:"skipped,omitempty"`
	// InferredAPIs are the optional APIs PlanRequest rendered the stack
	// with although the request did not list them, because a live object
	// of the stack proves the API is served (see PlanRequest).
	InferredAPIs []InferredAPI `json:"inferredAPIs,omitempty"`
}

// InferredAPI is an optional API (APIVerticalPodAutoscaler, APIVMPodScrape,
// APICiliumNetworkPolicy) found served from a live object of the stack.
type InferredAPI struct {
	// API is the API as Request.APIVersions spells it.
	API string `json:"api"`
	// From is the live object that proves it.
	From ObjectRef `json:"from"`
}

// String is "API: inferred from live object Kind namespace/name".
func (a InferredAPI) String() string {
	return a.API + ": inferred from live object " + a.From.String()
}

// AllFindings lists every finding, objects' first.
func (p *PlanResult) AllFindings() []Finding {
	var out []Finding
	for _, o := range p.Objects {
		out = append(out, o.Findings...)
	}
	return append(out, p.Findings...)
}

// SafeToApply reports whether nothing is refused and nothing needs a
// decision: applying the plan is routine.
func (p *PlanResult) SafeToApply() bool {
	for _, f := range p.AllFindings() {
		if f.Verdict == Refused || f.Verdict == NeedsDecision {
			return false
		}
	}
	return true
}

// Empty reports whether applying the plan changes nothing.
func (p *PlanResult) Empty() bool {
	for _, o := range p.Objects {
		if o.Action != Unchanged {
			return false
		}
	}
	return len(p.Findings) == 0
}

// Count returns how many objects the plan gives action.
func (p *PlanResult) Count(a Action) int {
	n := 0
	for _, o := range p.Objects {
		if o.Action == a {
			n++
		}
	}
	return n
}

// PlanOption adjusts Plan.
type PlanOption func(*planConfig)

type planConfig struct {
	names     *naming.Names
	dataStore *string
}

// ForStack says which stack the desired objects are, which bounds what the
// plan deletes: only live objects this stack renders with some values
// and some served APIs, never Helm "keep" objects, uninstall hooks,
// EtcdSnapshots or snapshot schedules, nor another stack's objects in the
// same namespace. Without it the stack is found from the desired
// EtcdCluster; with neither, nothing is deleted.
func ForStack(n naming.Names) PlanOption {
	return func(c *planConfig) { c.names = &n }
}

// TargetDataStore names the DataStore the tenant cluster's
// KamajiControlPlane will use after the apply (a shared one when the
// cluster stays there). When the live KamajiControlPlane names another,
// the plan reports a datastore migration. Without it the target is the
// desired stack's own DataStore, if it renders one.
func TargetDataStore(name string) PlanOption {
	return func(c *planConfig) { c.dataStore = &name }
}

// Plan compares live objects with the desired ones and says, object by
// object, what applying the desired objects with server-side apply does:
// create, update (with the changed fields), leave unchanged, or delete
// (live objects of the stack it no longer renders; see ForStack). Fields
// the desired objects do not set are not compared, so server-set fields
// and defaults are never changes; quantities compare canonically and
// numbers by value. When a live object carries managedFields, fields
// FieldManager applied before and no longer sets are reported removed.
//
// Objects may be typed (the builders', or from a client) or unstructured
// (ReadObjects). The desired objects are planned as they are: when you
// apply with modifiers, plan the modified objects (Modify them first, or
// use PlanRequest, which takes the modifiers). Findings flag what the API
// server will refuse and what needs a decision; PlanResult.SafeToApply
// sums them up.
func Plan(live, desired []Object, opts ...PlanOption) (*PlanResult, error) {
	liveObjs, liveByKey, err := indexObjects("live", live)
	if err != nil {
		return nil, err
	}
	return planIndexed(liveObjs, liveByKey, desired, opts...)
}

// planIndexed is Plan of live objects already in the plan's form.
func planIndexed(liveObjs []*planObject, liveByKey map[objectKey]*planObject, desired []Object, opts ...PlanOption) (*PlanResult, error) {
	var cfg planConfig
	for _, o := range opts {
		o(&cfg)
	}
	desiredObjs, _, err := indexObjects("desired", desired)
	if err != nil {
		return nil, err
	}

	res := &PlanResult{}
	matched := map[objectKey]bool{}
	var stackDesired []*planObject
	for _, d := range desiredObjs {
		if IsUninstallHook(d.obj) {
			res.Skipped = append(res.Skipped, d.ref)
			continue
		}
		stackDesired = append(stackDesired, d)
		l := liveByKey[d.key]
		op := ObjectPlan{ObjectRef: d.ref}
		if l == nil {
			op.Action = Create
			op.Findings = createFindings(d)
			res.Objects = append(res.Objects, op)
			continue
		}
		matched[d.key] = true
		changes, err := objectChanges(l, d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.ref, err)
		}
		op.Action = Unchanged
		if len(changes) > 0 {
			op.Action = Update
			op.Changes = changes
			op.Findings = updateFindings(d, l, changes)
		}
		res.Objects = append(res.Objects, op)
	}

	names, haveNames := cfg.names, cfg.names != nil
	if !haveNames {
		if n, ok := namesOfStack(stackDesired); ok {
			names, haveNames = &n, true
		}
	}
	if haveNames {
		scope, err := stackScope(*names)
		if err != nil {
			return nil, err
		}
		var deletes []*planObject
		for _, l := range liveObjs {
			if matched[l.key] || !scope[l.key] || IsUninstallHook(l.obj) || isKept(l.obj) {
				continue
			}
			deletes = append(deletes, l)
		}
		sort.SliceStable(deletes, func(i, j int) bool { return lessKey(deletes[i].key, deletes[j].key) })
		rendersStack := false
		for _, d := range stackDesired {
			if scope[d.key] {
				rendersStack = true
				break
			}
		}
		for _, l := range deletes {
			res.Objects = append(res.Objects, ObjectPlan{ObjectRef: l.ref, Action: Delete, Findings: deleteFindings(l, rendersStack)})
		}
		if names.Caller == naming.PerCluster {
			target := ""
			switch {
			case cfg.dataStore != nil:
				target = *cfg.dataStore
			default:
				for _, d := range stackDesired {
					if d.key.groupKind() == dataStoreKind && d.key.name == names.DataStore() {
						target = d.key.name
					}
				}
			}
			if target != "" {
				res.Findings = append(res.Findings, dataStoreMove(*names, target, liveByKey)...)
			}
		}
	}
	return res, nil
}

// indexObjects converts objects into the plan's form and refuses
// duplicates, which would make the plan ambiguous.
func indexObjects(side string, objs []Object) ([]*planObject, map[objectKey]*planObject, error) {
	out := make([]*planObject, 0, len(objs))
	byKey := make(map[objectKey]*planObject, len(objs))
	for i, o := range objs {
		p, err := planForm(fmt.Sprintf("%s[%d]", side, i), o, side == "live")
		if err != nil {
			return nil, nil, err
		}
		if _, dup := byKey[p.key]; dup {
			return nil, nil, naming.Errorf(fmt.Sprintf("%s[%d]", side, i), p.ref.String(), "must not appear twice")
		}
		byKey[p.key] = p
		out = append(out, p)
	}
	return out, byKey, nil
}

func lessKey(a, b objectKey) bool {
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	if a.namespace != b.namespace {
		return a.namespace < b.namespace
	}
	return a.name < b.name
}

// objectChanges diffs the fields desired sets, plus the fields this
// manager applied before and no longer sets. apiVersion and kind are the
// object's identity (a live object read at another version is the same
// object), status is the server's.
func objectChanges(live, desired *planObject) ([]FieldChange, error) {
	d := withoutIdentity(desired.tree)
	l, _ := project(withoutIdentity(live.tree), d, "", "").(map[string]any)
	changes, err := diffFields(l, d)
	if err != nil {
		return nil, err
	}
	removed, err := removedFields(live.tree, desired.tree, live.ours, live.others, live.defaults)
	if err != nil {
		return nil, err
	}
	changes = append(changes, removed...)
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return changes, nil
}

func withoutIdentity(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		switch k {
		case "apiVersion", "kind", "status":
			continue
		}
		out[k] = v
	}
	return out
}

// PlanRequest renders r against live objects and plans the result: the
// tenant cluster's live state is read from live (LiveStateFromObjects)
// where r.Live leaves it unset, deletions are scoped to r's stack and a
// KamajiControlPlane moving to another DataStore is reported.
//
// The modifiers run on the rendered objects, as Modify runs them (every
// object, uninstall hooks included, all or nothing), before they are
// planned, so pass the ones you apply with: the plan is then of what
// ApplyRequests sends. It returns the desired objects too, modified:
// apply them as they are (ApplyRequests(desired)), without the modifiers
// again (a modifier that appends would append twice).
func PlanRequest(r Request, live []Object, mods ...Modifier) (*PlanResult, []Object, error) {
	liveObjs, liveByKey, err := indexObjects("live", live)
	if err != nil {
		return nil, nil, err
	}
	var (
		opts     []PlanOption
		inferred []InferredAPI
	)
	switch r.Caller {
	case CallerEtcd:
		rel := r.Release
		if rel == "" {
			rel = naming.EtcdChartRelease
		}
		n, err := naming.ForEtcdChart(r.Namespace, rel)
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, ForStack(n))
	case CallerCluster:
		if _, err := naming.ClusterDataStore(r.Namespace, r.Release); err != nil {
			return nil, nil, err
		}
		st, err := liveStateOf(r.Namespace, r.Release, naming.ClusterEtcdName(r.Release), liveObjs)
		if err != nil {
			return nil, nil, err
		}
		if r.Live.DataStoreName == "" {
			r.Live.DataStoreName = st.DataStoreName
		}
		if r.Live.StorageClassName == nil {
			r.Live.StorageClassName = st.StorageClassName
		}
		n, err := naming.ForCluster(r.Namespace, r.Release)
		if err != nil {
			// Names that break a rule of the objects a stack renders are
			// fine while the cluster stays on a shared datastore: it
			// renders nothing, and nothing of it can be live to delete.
			if shared, _ := SharesDataStore(ClusterOptions{Namespace: r.Namespace, Release: r.Release, Live: r.Live}); !shared {
				return nil, nil, err
			}
			opts = append(opts, TargetDataStore(r.Live.DataStoreName))
			break
		}
		target := n.DataStore()
		if r.Live.DataStoreName != "" {
			target = r.Live.DataStoreName
		}
		opts = append(opts, ForStack(n), TargetDataStore(target))
		if inferred, err = inferAPIs(n, r.APIVersions, liveByKey); err != nil {
			return nil, nil, err
		}
		if len(inferred) > 0 {
			apis := append([]string(nil), r.APIVersions...)
			for _, a := range inferred {
				apis = append(apis, a.API)
			}
			r.APIVersions = apis
		}
	}
	desired, err := Render(r)
	if err != nil {
		return nil, nil, err
	}
	if len(mods) > 0 {
		// On copies, as ApplyRequests and Modify do, so that no modifier
		// writes through to anything the rendered objects share.
		if desired, err = modifiedCopies(desired, mods); err != nil {
			return nil, nil, err
		}
	}
	p, err := planIndexed(liveObjs, liveByKey, desired, opts...)
	if err != nil {
		return nil, nil, err
	}
	p.InferredAPIs = inferred
	return p, desired, nil
}

// String renders the plan as text; see WriteText.
func (p *PlanResult) String() string {
	var b strings.Builder
	_ = p.WriteText(&b) // a strings.Builder does not fail
	return b.String()
}

// errWriter keeps the first error of a series of writes and skips the
// writes after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}

// WriteText renders the plan for a person: a summary line, the optional
// APIs inferred from live objects, then every object that changes with
// its changed fields and findings, each naming the object and the field,
// then the stack's findings and the verdict. Unchanged objects are
// counted, not listed. It returns the first error writing to w.
func (p *PlanResult) WriteText(out io.Writer) error {
	w := &errWriter{w: out}
	fmt.Fprintf(w, "Plan: %d to create, %d to update, %d to delete, %d unchanged.\n",
		p.Count(Create), p.Count(Update), p.Count(Delete), p.Count(Unchanged))
	if len(p.InferredAPIs) > 0 {
		fmt.Fprintln(w)
		for _, a := range p.InferredAPIs {
			fmt.Fprintf(w, "API served: %s\n", a)
		}
	}
	for _, o := range p.Objects {
		if o.Action == Unchanged {
			continue
		}
		fmt.Fprintf(w, "\n%s %s %s\n", actionMark[o.Action], o.Action, o.ObjectRef)
		for _, c := range o.Changes {
			switch c.Type {
			case FieldAdded:
				fmt.Fprintf(w, "    + %s: %s\n", c.Path, show(c.Desired))
			case FieldRemoved:
				fmt.Fprintf(w, "    - %s: %s\n", c.Path, show(c.Live))
			default:
				fmt.Fprintf(w, "    ~ %s: %s -> %s\n", c.Path, show(c.Live), show(c.Desired))
			}
		}
		for _, f := range o.Findings {
			writeFinding(w, f, false)
		}
	}
	if len(p.Findings) > 0 {
		fmt.Fprintln(w)
		for _, f := range p.Findings {
			writeFinding(w, f, true)
		}
	}
	if len(p.Skipped) > 0 {
		names := make([]string, len(p.Skipped))
		for i, s := range p.Skipped {
			names[i] = s.String()
		}
		fmt.Fprintf(w, "\nNot applied (Helm uninstall hooks): %s\n", strings.Join(names, ", "))
	}
	refused, decide := 0, 0
	for _, f := range p.AllFindings() {
		switch f.Verdict {
		case Refused:
			refused++
		case NeedsDecision:
			decide++
		}
	}
	switch {
	case refused+decide > 0:
		fmt.Fprintf(w, "\nNot safe to apply: %d refused by the API server, %d need a decision.\n", refused, decide)
	case p.Empty():
		fmt.Fprintln(w, "\nNo changes.")
	default:
		fmt.Fprintln(w, "\nSafe to apply.")
	}
	return w.err
}

var actionMark = map[Action]string{Create: "+", Update: "~", Delete: "-", Unchanged: "="}

var verdictMark = map[Verdict]string{Refused: "REFUSED", NeedsDecision: "DECISION", Note: "note"}

func writeFinding(w io.Writer, f Finding, withObject bool) {
	where := f.Path
	if withObject {
		where = strings.TrimSpace(f.Object.String() + " " + f.Path)
	}
	if where == "" {
		fmt.Fprintf(w, "    %s: %s\n", verdictMark[f.Verdict], f.Message)
		return
	}
	fmt.Fprintf(w, "    %s %s: %s\n", verdictMark[f.Verdict], where, f.Message)
}

// show prints a value as compact JSON, shortened for one line.
func show(v any) string {
	if v == nil {
		return "<none>"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const max = 100
	if s := string(b); len(s) > max {
		return s[:max-3] + "..."
	}
	return string(b)
}

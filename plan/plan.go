package plan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/invalid"

	"github.com/etcdshapes/etcdshapes/internal/errwriter"
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
	// APIVersion is the object's group and version, e.g. "batch/v1".
	APIVersion string `json:"apiVersion"`
	// Kind is the object's kind, e.g. "CronJob".
	Kind string `json:"kind"`
	// Namespace is empty for cluster-scoped objects (the DataStore).
	Namespace string `json:"namespace,omitempty"`
	// Name is the object's name.
	Name string `json:"name"`
}

// String is "Kind namespace/name", or "Kind name" when cluster-scoped, as
// the object has them (a message that prints it escapes it: see
// Finding.String and Result.WriteText).
func (r ObjectRef) String() string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name
}

// Finding is something about a change the API server refuses or a person
// must decide, or a note.
type Finding struct {
	// Verdict is how much the finding weighs: a note, a decision for a
	// person, or a change the API server refuses.
	Verdict Verdict `json:"verdict"`
	// Object is the object concerned.
	Object ObjectRef `json:"object"`
	// Path is the field concerned, e.g. "spec.tls.client.serverSecretRef";
	// empty for the whole object.
	Path string `json:"path,omitempty"`
	// Message says what happens and why, in a sentence.
	Message string `json:"message"`
}

// String is "<verdict>: <object> <path>: <message>", or "<verdict>:
// <message>" for a finding about no object (the stack's, such as nothing
// live), escaped with invalid.Escape (a live object's name or field may
// hold anything).
func (f Finding) String() string {
	where := ""
	if f.Object != (ObjectRef{}) {
		where = f.Object.String()
	}
	if f.Path != "" {
		where = strings.TrimSpace(where + " " + f.Path)
	}
	if where == "" {
		return invalid.Escape(fmt.Sprintf("%s: %s", f.Verdict, f.Message))
	}
	return invalid.Escape(fmt.Sprintf("%s: %s: %s", f.Verdict, where, f.Message))
}

// ObjectPlan is the plan for one object.
type ObjectPlan struct {
	ObjectRef
	// Action is what the apply does to the object: create, update,
	// delete, or nothing.
	Action Action `json:"action"`
	// Changes are the fields an update changes, sorted by path: what a
	// server-side apply as FieldManager, with force, sets, changes and
	// removes.
	Changes []FieldChange `json:"changes,omitempty"`
	// Kept are the live object's fields the apply leaves to the other
	// managers that own them (a sidecar container someone added), sorted
	// by path. Known only from managedFields.
	Kept []KeptField `json:"kept,omitempty"`
	// Conflicts are the fields other managers own whose value the apply
	// changes: without force the API server refuses the apply (409
	// Conflict); with force FieldManager takes them. Sorted by path.
	Conflicts []Conflict `json:"conflicts,omitempty"`
	// Ownership says whether the plan knew the live object's managedFields
	// (empty for a create or a delete).
	Ownership Ownership `json:"ownership,omitempty"`
	// Findings are what the operator should know or decide about the
	// object (see Verdict).
	Findings []Finding `json:"findings,omitempty"`
}

// Result is what applying a desired stack to a live cluster does.
type Result struct {
	// Objects in the desired order (install order), then the deletions.
	Objects []ObjectPlan `json:"objects"`
	// Findings that concern no object of the stack: the tenant cluster's
	// KamajiControlPlane moving to another DataStore.
	Findings []Finding `json:"findings,omitempty"`
	// Skipped are the desired Helm uninstall hooks, which are never
	// applied (see IsUninstallHook).
	Skipped []ObjectRef `json:"skipped,omitempty"`
	// InferredAPIs are the optional APIs ForRequest rendered the stack
	// with although the request did not list them, because a live object
	// of the stack proves the API is served (see ForRequest).
	InferredAPIs []InferredAPI `json:"inferredAPIs,omitempty"`
	// NothingLive says that no live object is of the stack (none of the
	// desired objects, none of the objects the stack can render, not the
	// tenant cluster's KamajiControlPlane): the plan is of a fresh
	// install, every object a create. A live file fetched from the wrong
	// namespace or context, or not at all, looks the same, so a finding
	// in Findings says so as a decision (SafeToApply is false), unless
	// FreshInstall says the stack does not exist yet: then as a note.
	NothingLive bool `json:"nothingLive,omitempty"`
	// MissingCore are the stack's stateful core objects (its EtcdCluster,
	// its DataStore) that the desired objects hold and the live objects
	// lack, while something of the stack or referring to it is live (not
	// NothingLive): the live file is partial (a kubectl get that failed
	// or skipped a kind), or the stack lost them. Each create of one
	// needs a decision where the live objects prove the stack exists, and
	// with ExpectExisting the plan needs one whenever MissingCore is not
	// empty. See docs/operator.md, "A partly live stack".
	MissingCore []ObjectRef `json:"missingCore,omitempty"`
	// FieldManager is the field manager the plan predicts the apply of,
	// given with AsFieldManager; empty for apply.FieldManager, the
	// default. The text and the JSON form name it either way: the apply
	// must use the same (see WriteText).
	FieldManager string `json:"fieldManager,omitempty"`
	// OtherOwners, when set, says that FieldManager owns no field of the
	// live objects with managedFields, and who does: the stack was likely
	// applied under another name (see OtherOwners). Summary qualifies the
	// verdict with it.
	OtherOwners *OtherOwners `json:"otherOwners,omitempty"`
	// Deletes are the plan's deletes (the objects whose Action is Delete)
	// as the kubectl commands that do them, in the order to run them:
	// what depends on an object before the object (see DeleteStep). An
	// apply never deletes, so these are run by hand, after the decisions
	// the plan has about them are made.
	Deletes []DeleteStep `json:"deletes,omitempty"`
	// RenderCommand, when set, is the command that renders the objects the
	// plan compared with (the CLI sets it: 'etcdshapes render ... --live
	// FILE' with the plan's flags); the text prints it piped into
	// ApplyCommand, so that what is applied is what was planned.
	RenderCommand string `json:"renderCommand,omitempty"`
	// RenderReadsStdin says that RenderCommand reads its standard input
	// ("-" for --live, -f or --set-file), as the plan did: the text says
	// to give it the same input again, since a printed command cannot.
	RenderReadsStdin bool `json:"renderReadsStdin,omitempty"`
}

// ApplyCommand is the kubectl command that applies a render (on its
// stdin) as the plan of field manager manager predicts: a server-side
// apply as that manager, with force ("kubectl apply --server-side
// --field-manager=etcdshapes --force-conflicts -f -"). The plan predicts
// the forced apply (apply.Requests' callers force too) and names every
// conflict it forces; without force, each object with a conflict is
// refused while the others are applied, which leaves the stack half
// changed. A manager that is not one shell word is quoted for a POSIX
// shell.
func ApplyCommand(manager string) string {
	if manager == "" {
		manager = apply.FieldManager
	}
	return "kubectl apply --server-side --field-manager=" + ShellWord(manager) + " --force-conflicts -f -"
}

// ShellWord is s as one word of a POSIX shell: as it is when it holds
// only characters no shell reads specially, else in single quotes. The
// CLI quotes the render command a plan prints with it.
func ShellWord(s string) string {
	for _, r := range s {
		if !(r == '-' || r == '_' || r == '.' || r == '/' || r == ':' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	if s == "" {
		return "''"
	}
	return s
}

// fieldManager is the manager the plan is of.
func (p *Result) fieldManager() string {
	if p.FieldManager == "" {
		return apply.FieldManager
	}
	return p.FieldManager
}

// InferredAPI is an optional API (APIVerticalPodAutoscaler, APIVMPodScrape,
// APICiliumNetworkPolicy) found served from a live object of the stack.
type InferredAPI struct {
	// API is the API as Request.APIVersions spells it.
	API string `json:"api"`
	// From is the live object that proves it.
	From ObjectRef `json:"from"`
}

// String is "API: inferred from live object Kind namespace/name",
// escaped with invalid.Escape.
func (a InferredAPI) String() string {
	return invalid.Escape(a.API + ": inferred from live object " + a.From.String())
}

// AllFindings lists every finding, objects' first; none for a nil Result.
func (p *Result) AllFindings() []Finding {
	if p == nil {
		return nil
	}
	var out []Finding
	for _, o := range p.Objects {
		out = append(out, o.Findings...)
	}
	return append(out, p.Findings...)
}

// SafeToApply reports whether nothing is refused and nothing needs a
// decision: applying the plan is routine. A nil Result is no plan, and not
// safe to apply.
func (p *Result) SafeToApply() bool {
	if p == nil {
		return false
	}
	for _, f := range p.AllFindings() {
		if f.Verdict == Refused || f.Verdict == NeedsDecision {
			return false
		}
	}
	return true
}

// Summary is the plan's verdict in one line, the last line of WriteText
// and "verdict" of the JSON form: "Not safe to apply: N refused by the
// API server, M need a decision." when SafeToApply is false, else "No
// changes." when the plan is Empty, else "Safe to apply."; each
// qualified (", qualified: ...") where the plan cannot see everything an
// apply does: live objects without managedFields (what the apply removes
// is not known; the removals that would matter are decisions, see
// Compute), or a live stack none of whose fields the plan's field manager
// owns. SafeToApply decides it, and so the CLI's exit status: one verdict
// for the text, the JSON form and the exit status. A nil Result is no
// plan: "No plan."
func (p *Result) Summary() string {
	if p == nil {
		return "No plan."
	}
	var line string
	switch c := p.Counts(); {
	case !p.SafeToApply():
		line = fmt.Sprintf("Not safe to apply: %d refused by the API server, %d need a decision", c.Refused, c.NeedsDecision)
	case p.Empty():
		line = "No changes"
	default:
		line = "Safe to apply"
	}
	if q := p.qualifiers(); len(q) > 0 {
		line += ", qualified: " + strings.Join(q, "; ")
	}
	return line + "."
}

// qualifiers say what the plan could not see (Summary).
func (p *Result) qualifiers() []string {
	var out []string
	if n := len(p.unknownOwnership()); n > 0 {
		out = append(out, fmt.Sprintf("%d live %s no managedFields (what the apply removes is not known)",
			n, plural(n, "object carries", "objects carry")))
	}
	if p.OtherOwners != nil {
		out = append(out, fmt.Sprintf("field manager %s owns no live field (Owned by other managers, above)", p.fieldManager()))
	}
	return out
}

// Empty reports whether applying the plan changes nothing: every object
// unchanged, no finding about the stack, and none refused or needing a
// decision (an object the plan cannot tell is unchanged, such as a
// removal it cannot see without managedFields). A nil Result is no plan,
// and not empty.
func (p *Result) Empty() bool {
	if p == nil || !p.SafeToApply() {
		return false
	}
	for _, o := range p.Objects {
		if o.Action != Unchanged {
			return false
		}
	}
	return len(p.Findings) == 0
}

// Count returns how many objects the plan gives action; 0 for a nil
// Result.
func (p *Result) Count(a Action) int {
	if p == nil {
		return 0
	}
	n := 0
	for _, o := range p.Objects {
		if o.Action == a {
			n++
		}
	}
	return n
}

// Counts sum a plan up: how many objects it creates, updates, deletes and
// leaves unchanged, how many findings it has of each verdict, and how
// many fields it changes that other managers own (conflicts).
type Counts struct {
	// Create is the number of objects created.
	Create int `json:"create"`
	// Update is the number of objects updated.
	Update int `json:"update"`
	// Delete is the number of objects deleted.
	Delete int `json:"delete"`
	// Unchanged is the number of objects the apply leaves as they are.
	Unchanged int `json:"unchanged"`
	// Refused is the number of findings the API server refuses.
	Refused int `json:"refused"`
	// NeedsDecision is the number of findings a person must decide.
	NeedsDecision int `json:"needsDecision"`
	// Notes is the number of notes.
	Notes int `json:"notes"`
	// Conflicts is the number of changed fields other managers own.
	Conflicts int `json:"conflicts"`
}

// Counts counts the plan; all zero for a nil Result.
func (p *Result) Counts() Counts {
	if p == nil {
		return Counts{}
	}
	c := Counts{Create: p.Count(Create), Update: p.Count(Update), Delete: p.Count(Delete), Unchanged: p.Count(Unchanged)}
	for _, f := range p.AllFindings() {
		switch f.Verdict {
		case Refused:
			c.Refused++
		case NeedsDecision:
			c.NeedsDecision++
		case Note:
			c.Notes++
		}
	}
	for _, o := range p.Objects {
		c.Conflicts += len(o.Conflicts)
	}
	return c
}

// MarshalJSON is the Result's JSON form with its verdict first:
// "safeToApply" (SafeToApply), "empty" (Empty), "verdict" (Summary, the
// text's last line), "counts" (Counts) and "fieldManager" (the manager
// the plan is of, apply.FieldManager included), which a script reads
// instead of relying on an exit status alone, then the other fields of
// Result. Decoding the form into a Result ignores the first four, and
// reads "fieldManager" as given.
func (p Result) MarshalJSON() ([]byte, error) {
	type fields Result // Result's fields without this method
	return json.Marshal(struct {
		SafeToApply bool   `json:"safeToApply"`
		Empty       bool   `json:"empty"`
		Verdict     string `json:"verdict"`
		Counts      Counts `json:"counts"`
		// NothingToApply says the render holds no object to apply: no
		// apply command to run, only the deletes.
		NothingToApply bool `json:"nothingToApply"`
		// FieldManager hides the embedded field, which leaves the
		// default out.
		FieldManager string `json:"fieldManager"`
		fields
	}{p.SafeToApply(), p.Empty(), p.Summary(), p.Counts(), p.NothingToApply(), p.fieldManager(), fields(p)})
}

// Option adjusts Compute.
type Option func(*planConfig)

type planConfig struct {
	names     *naming.Names
	dataStore *string
	// scope is stackScope(*names) when the caller has it already.
	scope map[objectKey]bool
	// kcp is the tenant cluster's KamajiControlPlane, when ForRequest
	// plans one (names may be unknown: a cluster with long names on a
	// shared datastore).
	kcp *objectKey
	// fieldManager is AsFieldManager's name; empty for apply.FieldManager.
	fieldManager string
	// expectExisting is ExpectExisting's, freshInstall FreshInstall's;
	// never both (checkExpectation).
	expectExisting, freshInstall bool
}

// checkExpectation refuses ExpectExisting with FreshInstall: one says
// the stack exists, the other that it does not.
func (c *planConfig) checkExpectation() error {
	if c.expectExisting && c.freshInstall {
		return invalid.Errorf("opts", "ExpectExisting, FreshInstall", "must not hold both: ExpectExisting says the stack exists, "+
			"FreshInstall that it does not (the CLI's --expect-existing and --fresh-install)")
	}
	return nil
}

// kcpKey is the key of the KamajiControlPlane of a tenant cluster.
func kcpKey(namespace, release string) objectKey {
	return objectKey{group: kamajiControlPlaneKind.Group, kind: kamajiControlPlaneKind.Kind, namespace: namespace, name: release}
}

// AsFieldManager says which field manager the objects will be applied
// as (metav1.ApplyOptions.FieldManager, controller-runtime's FieldOwner,
// kubectl apply --server-side --field-manager): the plan reads the
// fields that manager applied before from the live managedFields, and
// every other manager's as another's, so that it predicts the removals,
// the kept fields and the conflicts of that apply. An empty name is
// apply.FieldManager, the default; any other must pass
// apply.ValidateFieldManager, or Compute and ForRequestWith refuse it
// (field "fieldManager"). Plan with the name you apply with: planned as
// "etcdshapes", an apply as "my-operator" conflicts on every field
// "etcdshapes" owns, and removes none of the fields "my-operator" applied
// before and no longer sets.
func AsFieldManager(name string) Option {
	return func(c *planConfig) { c.fieldManager = name }
}

// ExpectExisting says that the stack exists: a plan whose live objects
// lack its stateful core, the EtcdCluster and the DataStore the desired
// objects hold, needs a decision, so SafeToApply is false. That is a plan
// that finds nothing of the stack among the live objects
// (Result.NothingLive, a decision without ExpectExisting too: a failed or
// misdirected kubectl get looks the same as a fresh install), and a plan
// of a partial live file (Result.MissingCore: the live objects hold some
// of the stack, or objects that refer to it, such as a
// KamajiControlPlane on its DataStore, but not its core), whatever else
// is live. A desired stack without a core (a tenant cluster that stays on
// a shared datastore renders nothing) needs only something of it live.
// Not with FreshInstall (Compute and ForRequestWith refuse both, field
// "opts"). The CLI's plan --expect-existing.
func ExpectExisting() Option {
	return func(c *planConfig) { c.expectExisting = true }
}

// FreshInstall says that the stack does not exist yet: the plan is of a
// fresh install. Without it, a plan that finds nothing of the stack among
// the live objects (Result.NothingLive) needs a decision, since a live
// file that a failed or misdirected kubectl get wrote (empty, another
// namespace's or context's objects, the stack's kinds left out) looks
// the same as a fresh install, and applying its plan over a stack that
// exists changes it unseen; with FreshInstall nothing live is a note,
// and the plan may be safe to apply. A live stack is then what needs a
// decision: any live object of the stack, or that refers to it, means the
// install is not fresh. Not with ExpectExisting (Compute and
// ForRequestWith refuse both, field "opts"). The CLI's plan
// --fresh-install.
func FreshInstall() Option {
	return func(c *planConfig) { c.freshInstall = true }
}

// ForStack says which stack the desired objects are, which bounds what the
// plan deletes: only live objects this stack renders with some values
// and some served APIs, never Helm "keep" objects, uninstall hooks,
// EtcdSnapshots or snapshot schedules, nor another stack's objects in the
// same namespace. Without it the stack is found from the desired
// EtcdCluster; with neither, nothing is deleted.
func ForStack(n naming.Names) Option {
	return func(c *planConfig) { c.names = &n }
}

// TargetDataStore names the DataStore the tenant cluster's
// KamajiControlPlane will use after the apply (a shared one when the
// cluster stays there). When the live KamajiControlPlane names another,
// the plan reports a datastore migration. Without it the target is the
// desired stack's own DataStore, if it renders one.
func TargetDataStore(name string) Option {
	return func(c *planConfig) { c.dataStore = &name }
}

// Compute compares live objects with the desired ones and says, object by
// object, what applying the desired objects with server-side apply as
// apply.FieldManager, or AsFieldManager's (with force, as apply.Requests'
// callers apply), does: create,
// update (with the fields it sets, changes and removes), leave unchanged,
// or delete (live objects of the stack it no longer renders; see
// ForStack). It predicts the apply the way the API server computes it:
// the desired object is merged into the live one with the schema the
// server uses (lists keyed, sets or atomic as the API declares them), and
// with the live object's managedFields the fields FieldManager applied
// before and no longer sets are removed unless another manager owns them,
// the fields other managers own and the desired object leaves out are
// kept (ObjectPlan.Kept), and a changed field another manager owns is a
// conflict (ObjectPlan.Conflicts). Without managedFields it merges only,
// and says so (ObjectPlan.Ownership). The result is defaulted as the
// server defaults it, so server-set fields and defaults are never
// changes; a quantity respelled with the same value is no change of a
// built-in kind (the server stores it canonical) and a noted change of a
// custom resource (the server stores the spelling it is sent, and bumps
// the object's generation).
//
// Objects may be typed (the builders', or from a client) or unstructured
// (ReadObjects). The desired objects are planned as they are: when you
// apply with modifiers, plan the modified objects (Modify them first, or
// use ForRequest, which takes the modifiers). Findings flag what the API
// server will refuse and what needs a decision; Result.SafeToApply
// sums them up. A desired object to create while live objects of its
// stack, or objects that refer to it (a control plane on its DataStore,
// its TLS Secrets, its members' volumes, its snapshots: see
// Result.MissingCore), are live is graded by what it is: an EtcdCluster,
// a DataStore, an Issuer or a Certificate needs a decision (the live
// file is partial, or the stack lost it), any other object gets a note
// (see docs/operator.md, "A partly live stack"). Nothing of the stack
// live (Result.NothingLive) needs a decision, unless FreshInstall says
// the plan is of a fresh install (see docs/operator.md, "Nothing live").
//
// Its errors' messages are safe to print (invalid.Safe): what a live
// object holds is escaped.
func Compute(live, desired []etcdshapes.Object, opts ...Option) (*Result, error) {
	liveObjs, liveByKey, err := indexObjects("live", live)
	if err != nil {
		return nil, err
	}
	res, err := planIndexed(liveObjs, liveByKey, desired, opts...)
	return res, invalid.Safe(err)
}

// planIndexed is Compute of live objects already in the plan's form.
func planIndexed(liveObjs []*planObject, liveByKey map[objectKey]*planObject, desired []etcdshapes.Object, opts ...Option) (*Result, error) {
	var cfg planConfig
	for i, o := range opts {
		if o == nil {
			return nil, invalid.Errorf("opts["+strconv.Itoa(i)+"]", nil, "must be an Option (ForStack, TargetDataStore), not nil")
		}
		o(&cfg)
	}
	if err := cfg.checkExpectation(); err != nil {
		return nil, err
	}
	manager := apply.FieldManager
	if cfg.fieldManager != "" {
		if err := apply.ValidateFieldManager("fieldManager", cfg.fieldManager); err != nil {
			return nil, err
		}
		manager = cfg.fieldManager
	}
	desiredObjs, desiredByKey, err := indexObjects("desired", desired)
	if err != nil {
		return nil, err
	}

	res := &Result{}
	if manager != apply.FieldManager {
		res.FieldManager = manager
	}
	if len(desiredObjs) > 0 {
		// One per desired object, and room for a few deletions.
		res.Objects = make([]ObjectPlan, 0, len(desiredObjs)+4)
	}
	var stackDesired []*planObject
	// withManaged counts the live objects planned with managedFields,
	// owners their other managers (managersOf), ownApplied whether the
	// manager applied any of them: none is foreignManagers' note.
	var (
		withManaged int
		owners      = map[string]int{}
		ownApplied  bool
	)
	// creates are the desired objects planned as creates, by their index
	// in res.Objects.
	var creates map[int]*planObject
	for _, d := range desiredObjs {
		if etcdshapes.IsUninstallHook(d.obj) {
			res.Skipped = append(res.Skipped, d.ref)
			continue
		}
		stackDesired = append(stackDesired, d)
		l := liveByKey[d.key]
		op := ObjectPlan{ObjectRef: d.ref}
		if l == nil {
			op.Action = Create
			op.Findings = createFindings(d)
			if creates == nil {
				creates = map[int]*planObject{}
			}
			creates[len(res.Objects)] = d
			res.Objects = append(res.Objects, op)
			continue
		}
		l.matched = true
		if err := l.check(); err != nil {
			return nil, err
		}
		pred, err := predictApply(l, d, manager)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.ref, err)
		}
		op.Action = Unchanged
		op.Changes, op.Kept, op.Conflicts, op.Ownership = pred.changes, pred.kept, pred.conflicts, pred.ownership
		if len(pred.changes) > 0 || len(pred.conflicts) > 0 || pred.refusal != "" {
			op.Action = Update
			op.Findings = updateFindings(d, l, pred.after, pred.changes)
		}
		op.Findings = append(op.Findings, ownershipFindings(d, pred)...)
		if pred.ownership == OwnershipUnknown {
			op.Findings = append(op.Findings, unknownOwnershipFindings(d, l, manager)...)
		} else if !etcdshapes.IsKept(l.obj) {
			// Helm's kept objects outlive any one manager's applies.
			withManaged++
			if managersOf(l, manager, owners) {
				ownApplied = true
			}
		}
		op.Findings = append(op.Findings, deletingFindings(l, op.Action)...)
		if hasVerdict(op.Findings, Refused) {
			for i := range op.Conflicts {
				op.Conflicts[i].ForceTakes = false
			}
		}
		res.Objects = append(res.Objects, op)
	}

	names, haveNames := cfg.names, cfg.names != nil
	if !haveNames {
		if n, ok := namesOfStack(stackDesired); ok {
			names, haveNames = &n, true
		}
	}
	for i := range res.Objects {
		if op := &res.Objects[i]; op.Action == Create {
			op.Findings = append(op.Findings, collisionFindings(op.ObjectRef, names)...)
		}
	}
	var scope map[objectKey]bool
	if haveNames {
		scope = cfg.scope
		if scope == nil || cfg.names == nil {
			var err error
			if scope, err = stackScope(*names); err != nil {
				return nil, err
			}
		}
		var deletes []*planObject
		for _, l := range liveObjs {
			if l.matched || !scope[l.key] || etcdshapes.IsUninstallHook(l.obj) || etcdshapes.IsKept(l.obj) {
				continue
			}
			if err := l.finish(); err != nil {
				return nil, err
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
			res.Objects = append(res.Objects, ObjectPlan{ObjectRef: l.ref, Action: Delete, Findings: append(deleteFindings(l, rendersStack), deletingFindings(l, Delete)...)})
		}
		res.Deletes = deleteSteps(deletes)
		if names.Caller == naming.CallerCluster {
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
				f, err := dataStoreMove(*names, target, liveByKey)
				if err != nil {
					return nil, err
				}
				res.Findings = append(res.Findings, f...)
			}
		}
		res.Findings = append(res.Findings, otherNamespaces(*names, scope, liveObjs)...)
	}
	kcp := cfg.kcp
	if kcp == nil && names != nil && names.Caller == naming.CallerCluster {
		k := kcpKey(names.Namespace, names.Release)
		kcp = &k
	}
	// Whether the stack is live, and wholly: one answer for every rule
	// that asks (stackLiveness).
	lv, err := stackLiveness(liveObjs, desiredObjs, desiredByKey, liveByKey, names, scope, kcp)
	if err != nil {
		return nil, err
	}
	// A create in a live stack: the object is new, or the live file lacks
	// it (missingFindings).
	if len(lv.evidence) > 0 {
		for i := range res.Objects {
			d, ok := creates[i]
			if !ok {
				continue
			}
			op := &res.Objects[i]
			f, err := missingFindings(d, lv.evidence, liveObjs, res)
			if err != nil {
				return nil, err
			}
			op.Findings = append(op.Findings, f...)
		}
	}
	res.Findings = append(res.Findings, deletingWitnesses(lv.evidence)...)
	if res.NothingLive = lv.nothingLive(); res.NothingLive {
		res.Findings = append(res.Findings, nothingLive(len(liveObjs), cfg))
	} else {
		if cfg.freshInstall {
			res.Findings = append(res.Findings, notFresh(lv))
		}
		for _, d := range lv.missingCore {
			res.MissingCore = append(res.MissingCore, d.ref)
		}
	}
	if cfg.expectExisting {
		res.Findings = append(res.Findings, expectExistingFindings(lv)...)
	}
	if !ownApplied {
		res.OtherOwners = otherOwners(withManaged, owners)
	}
	if len(res.Objects) == 0 {
		res.Objects = nil // as without the room made above: "objects": null
	}
	return res, nil
}

// indexObjects converts objects into the plan's form and refuses
// duplicates, which would make the plan ambiguous.
func indexObjects(side string, objs []etcdshapes.Object) ([]*planObject, map[objectKey]*planObject, error) {
	out := make([]*planObject, 0, len(objs))
	byKey := make(map[objectKey]*planObject, len(objs))
	for i, o := range objs {
		field := indexedField(side, i)
		var p *planObject
		var err error
		if side != "live" && isTypedUninstallHook(o) {
			p, err = hookHead(field, o)
		} else {
			p, err = planHead(field, o, side == "live")
		}
		if err != nil {
			return nil, nil, err
		}
		if side != "live" {
			if err := p.finish(); err != nil {
				return nil, nil, err
			}
		}
		if first, dup := byKey[p.key]; dup {
			return nil, nil, invalid.Errorf(field, p.ref.String(), "must not appear twice (first at %s)", first.field)
		}
		byKey[p.key] = p
		out = append(out, p)
	}
	return out, byKey, nil
}

// indexedFields are "live[i]" and "desired[i]" for the first
// indexedFieldsLen objects, made once: every plan names each of its
// objects so (for errors), and a name made anew is an allocation.
var indexedFields = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	for _, side := range []string{"live", "desired"} {
		names := make([]string, indexedFieldsLen)
		for i := range names {
			names[i] = side + "[" + strconv.Itoa(i) + "]"
		}
		out[side] = names
	}
	return out
})

const indexedFieldsLen = 256

// indexedField is side + "[" + i + "]".
func indexedField(side string, i int) string {
	if names := indexedFields()[side]; i < len(names) {
		return names[i]
	}
	return side + "[" + strconv.Itoa(i) + "]"
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

// ForRequest renders r against live objects and plans the result: the
// tenant cluster's live state is read from live (LiveStateFromObjects)
// where r.Live leaves it unset (for the etcd chart, the EtcdCluster's
// spec.bootstrap, which a restored cluster keeps), deletions are scoped to r's stack and a
// KamajiControlPlane moving to another DataStore is reported.
//
// The Helm uninstall hooks of the render are set aside before anything
// else (Result.Skipped names them): they are never planned, never
// modified and never returned. The modifiers run on copies of the other
// rendered objects, as apply.Requests runs them (all or nothing; a
// modifier that would make an object a hook, or a hook no longer one, is
// refused), before they are planned, so pass the ones you apply with: the
// plan is then of what apply.Requests sends. It returns the desired
// objects too, modified and without the hooks: apply them as they are
// (apply.Requests(desired)), without the modifiers again (a modifier that
// appends would append twice). To uninstall as helm uninstall does, ask
// for the hooks explicitly: apply.UninstallHookRequests of a Render.
func ForRequest(r etcdshapes.Request, live []etcdshapes.Object, mods ...apply.Modifier) (*Result, []etcdshapes.Object, error) {
	return ForRequestWith(r, live, nil, mods...)
}

// ForRequestWith is ForRequest with Compute's options: AsFieldManager,
// to plan the apply of a field manager of your own; FreshInstall or
// ExpectExisting, to say whether the stack exists. ForStack and
// TargetDataStore are ForRequest's to set, from the request and the live
// objects, and are refused here.
func ForRequestWith(r etcdshapes.Request, live []etcdshapes.Object, opts []Option, mods ...apply.Modifier) (*Result, []etcdshapes.Object, error) {
	res, desired, err := forRequest(r, live, opts, mods...)
	return res, desired, invalid.Safe(err)
}

// forRequest is ForRequestWith, its errors as they come.
func forRequest(r etcdshapes.Request, live []etcdshapes.Object, given []Option, mods ...apply.Modifier) (*Result, []etcdshapes.Object, error) {
	var own planConfig
	for i, o := range given {
		if o == nil {
			return nil, nil, invalid.Errorf("opts["+strconv.Itoa(i)+"]", nil, "must be an Option (AsFieldManager), not nil")
		}
		o(&own)
	}
	if err := own.checkExpectation(); err != nil {
		return nil, nil, err
	}
	if own.names != nil || own.dataStore != nil {
		return nil, nil, errors.New("plan.ForRequestWith: ForStack and TargetDataStore are set from the request, not given")
	}
	liveObjs, liveByKey, err := indexObjects("live", live)
	if err != nil {
		return nil, nil, err
	}
	r, rs, err := resolve(r, liveObjs, liveByKey)
	if err != nil {
		return nil, nil, err
	}
	opts, inferred, scope, haveNames := append(append([]Option(nil), given...), rs.opts...), rs.inferred, rs.scope, rs.haveNames
	desired, err := etcdshapes.Render(r)
	if err != nil {
		return nil, nil, err
	}
	if haveNames {
		if scope == nil {
			scope = scopeOf(desired)
		}
		opts = append(opts, func(c *planConfig) { c.scope = scope })
	}
	// What is applied is decided before any modifier runs: the uninstall
	// hooks are set aside as rendered (planned as skipped, never
	// returned), and the modifiers run on copies of the other objects
	// only, as apply.Requests runs them (apply refuses a modifier that
	// would make one of them a hook).
	planned := slices.Clone(desired)
	applied := make([]etcdshapes.Object, 0, len(desired))
	at := make([]int, 0, len(desired))
	for i, o := range desired {
		if !etcdshapes.IsUninstallHook(o) {
			applied = append(applied, o)
			at = append(at, i)
		}
	}
	if len(mods) > 0 {
		// On copies, as apply.Requests and Modify do, so that no modifier
		// writes through to anything the rendered objects share.
		if applied, err = apply.Modified(applied, mods...); err != nil {
			return nil, nil, err
		}
		for j, i := range at {
			planned[i] = applied[j]
		}
	}
	p, err := planIndexed(liveObjs, liveByKey, planned, opts...)
	if err != nil {
		return nil, nil, err
	}
	p.InferredAPIs = inferred
	keptStorageClass(p, r)
	return p, applied, nil
}

// keptStorageClass says on the planned EtcdCluster when the storage class
// it keeps (the live one: the field is immutable) is not the one the
// values choose for a fresh cluster (etcdshapes.StorageClassWarnings,
// which the render CLI prints too): on the member-count decision where
// the plan changes spec.replicas, since the count the class was chosen
// for changes (3 -> 1 on node-local storage: losing the node loses the
// data), else as a note on spec.storage.storageClassName.
func keptStorageClass(p *Result, r etcdshapes.Request) {
	msgs := etcdshapes.StorageClassWarnings(r)
	if len(msgs) == 0 {
		return
	}
	for i := range p.Objects {
		o := &p.Objects[i]
		if o.Kind != etcdClusterKind.Kind || o.Action == Delete || o.Action == Create {
			continue
		}
		for j := range o.Findings {
			if f := &o.Findings[j]; f.Path == "spec.replicas" && f.Verdict == NeedsDecision {
				f.Message += "; and " + strings.Join(msgs, "; ")
				return
			}
		}
		for _, m := range msgs {
			o.Findings = append(o.Findings, Finding{Verdict: Note, Object: o.ObjectRef, Path: "spec.storage.storageClassName", Message: m})
		}
		return
	}
}

// RequestFromLive is r as ForRequest renders it against live: the tenant
// cluster's live state (LiveStateFromObjects: its storage class, its
// KamajiControlPlane's datastore, its spec.bootstrap) and, for the etcd
// chart, the EtcdCluster's spec.bootstrap, read from live where r.Live
// leaves them unset, and r.APIVersions with the optional APIs a live
// object of the stack proves served (the plan's InferredAPIs). Render it
// (etcdshapes.Render) to get the objects a plan of r against live
// compares with: 'etcdshapes render --live' does, so that what is applied
// is what was planned.
func RequestFromLive(r etcdshapes.Request, live []etcdshapes.Object) (etcdshapes.Request, error) {
	liveObjs, liveByKey, err := indexObjects("live", live)
	if err != nil {
		return r, invalid.Safe(err)
	}
	r, _, err = resolve(r, liveObjs, liveByKey)
	return r, invalid.Safe(err)
}

// resolved is what resolve derives beside the request: the plan's
// options for the stack, the inferred APIs and the stack's scope.
type resolved struct {
	opts      []Option
	inferred  []InferredAPI
	scope     map[objectKey]bool
	haveNames bool
}

// resolve fills r's live state and served APIs from the live objects, as
// the plan renders r; ForRequest and RequestFromLive share it so that a
// render with --live is the plan's desired render.
func resolve(r etcdshapes.Request, liveObjs []*planObject, liveByKey map[objectKey]*planObject) (etcdshapes.Request, resolved, error) {
	var (
		opts     []Option
		inferred []InferredAPI
		// scope is the stack's objects (stackScope); nil where the
		// desired render holds them all, which then gives it.
		scope     map[objectKey]bool
		haveNames bool
	)
	switch r.Caller {
	case naming.CallerEtcd:
		rel := r.Release
		if rel == "" {
			rel = naming.EtcdChartRelease
		}
		n, err := naming.ForEtcdChartAt(r.Namespace, rel, r.Paths.Names)
		if err != nil {
			return r, resolved{}, err
		}
		opts, haveNames = append(opts, ForStack(n)), true
		// The etcd chart's live state is the EtcdCluster's bootstrap.
		if r.Live.Bootstrap == nil {
			if r.Live.Bootstrap, err = liveBootstrapOf(r.Namespace, n.Cluster, liveObjs); err != nil {
				return r, resolved{}, err
			}
		}
		// The PodMonitor and the dashboard render only where their API
		// is served: a live one proves it (see the cluster's case).
		if needsStackScope(naming.CallerEtcd, r.APIVersions, liveByKey) {
			if scope, err = stackScope(n); err != nil {
				return r, resolved{}, err
			}
		}
		r.APIVersions = withInferred(naming.CallerEtcd, r.APIVersions, &inferred, scope, liveByKey)
	case naming.CallerCluster:
		// The names under the request's paths, as Render refuses them:
		// what follows needs no rule of them these do not check.
		if _, err := naming.ClusterDataStoreAt(r.Namespace, r.Release, r.Paths.Names); err != nil {
			return r, resolved{}, err
		}
		kcp := kcpKey(r.Namespace, r.Release)
		opts = append(opts, func(c *planConfig) { c.kcp = &kcp })
		name, err := naming.ClusterEtcdName(r.Release)
		if err != nil {
			return r, resolved{}, err
		}
		st, err := liveStateOf(r.Namespace, r.Release, name, liveObjs)
		if err != nil {
			return r, resolved{}, err
		}
		if r.Live.DataStoreName == "" {
			r.Live.DataStoreName = st.DataStoreName
		}
		if r.Live.StorageClassName == nil {
			r.Live.StorageClassName = st.StorageClassName
		}
		if r.Live.Bootstrap == nil {
			r.Live.Bootstrap = st.Bootstrap
		}
		n, err := naming.ForClusterAt(r.Namespace, r.Release, r.Paths.Names)
		if err != nil {
			// Names that break a rule of the objects a stack renders are
			// fine while the cluster stays on a shared datastore: it
			// renders nothing, and nothing of it can be live to delete.
			if shared, _ := etcdshapes.SharesDataStore(etcdshapes.ClusterStackOptions{Namespace: r.Namespace, Release: r.Release, Live: r.Live}); !shared {
				return r, resolved{}, err
			}
			opts = append(opts, TargetDataStore(r.Live.DataStoreName))
			break
		}
		target := n.DataStore()
		if r.Live.DataStoreName != "" {
			target = r.Live.DataStoreName
		}
		opts, haveNames = append(opts, ForStack(n), TargetDataStore(target)), true
		// A cluster on a shared datastore renders nothing of its stack;
		// otherwise the render's scope does unless a live object is of
		// an optional kind the render leaves out (needsStackScope).
		if shared, _ := etcdshapes.SharesDataStore(etcdshapes.ClusterStackOptions{Namespace: r.Namespace, Release: r.Release, Live: r.Live}); shared || needsStackScope(naming.CallerCluster, r.APIVersions, liveByKey) {
			if scope, err = stackScope(n); err != nil {
				return r, resolved{}, err
			}
		}
		r.APIVersions = withInferred(naming.CallerCluster, r.APIVersions, &inferred, scope, liveByKey)
	}
	return r, resolved{opts: opts, inferred: inferred, scope: scope, haveNames: haveNames}, nil
}

// String renders the plan as text; see WriteText. A nil Result is
// "<nil>".
func (p *Result) String() string {
	if p == nil {
		return "<nil>"
	}
	var b strings.Builder
	_ = p.WriteText(&b) // a strings.Builder does not fail
	return b.String()
}

// WriteText renders the plan for a person: a summary line, the field
// manager the plan is of (apply.FieldManager or AsFieldManager's) with
// the command that applies as it (ApplyCommand), the optional
// APIs inferred from live objects, the objects whose ownership is not
// known and the other managers that own the live fields (OtherOwners), then every object that changes with its changed fields (a
// conflict with another manager said on its field), the fields kept for
// other managers and its findings, each naming the object and the field,
// then the stack's findings and the verdict (Summary). Unchanged objects are
// counted, and listed only for the fields they keep for other managers.
// A value too long for a line is shortened, a changed one to the window
// of each side where the two differ (the common start and end elided as
// "…"), so that two sides that differ never print alike; the JSON form
// (the Result itself) has every value whole.
// It returns the first error writing to w; a nil Result or a nil writer is
// an error, not a panic.
func (p *Result) WriteText(out io.Writer) error {
	switch {
	case p == nil:
		return errors.New("plan: WriteText of a nil Result")
	case isNilWriter(out):
		return errors.New("plan: WriteText needs a writer, not nil")
	}
	w := errwriter.New(out)
	textf(w, "Plan: %d to create, %d to update, %d to delete, %d unchanged.\n",
		p.Count(Create), p.Count(Update), p.Count(Delete), p.Count(Unchanged))
	textf(w, "\nField manager: %s, with force; apply with the same (%s).\n", p.fieldManager(), ApplyCommand(p.fieldManager()))
	switch {
	case p.NothingToApply():
		// kubectl apply of an empty render fails ("no objects passed to
		// apply"): no command to pipe it into.
		textf(w, "Nothing to apply: the render holds no object to apply (%s).\n", map[bool]string{true: "the plan's changes are its deletes, below", false: "and the plan deletes nothing"}[len(p.Deletes) > 0])
	case p.RenderCommand != "":
		textf(w, "Apply what this plan planned with:\n  %s | %s\n", p.RenderCommand, ApplyCommand(p.fieldManager()))
		if p.RenderReadsStdin {
			textf(w, "  (it reads stdin where the plan did: give it the same input again, or save that input to a file and name the file)\n")
		}
	}
	if len(p.InferredAPIs) > 0 {
		fmt.Fprintln(w)
		for _, a := range p.InferredAPIs {
			textf(w, "API served: %s\n", a)
		}
	}
	if unknown := p.unknownOwnership(); len(unknown) > 0 {
		what := "the live objects carry"
		if len(unknown) < p.Count(Update)+p.Count(Unchanged) {
			what = strings.Join(unknown, ", ") + " carry"
		}
		textf(w, "\nOwnership unknown: %s no managedFields (kubectl get --show-managed-fields prints them), so the plan\n"+
			"merges the desired objects into them: what an apply removes, leaves to other managers or conflicts on is not known.\n", what)
	}
	if p.OtherOwners != nil {
		textf(w, "\n%s\n", p.OtherOwners.text(p.fieldManager()))
	}
	for _, o := range p.Objects {
		if o.Action == Unchanged && len(o.Kept) == 0 && len(o.Findings) == 0 {
			continue
		}
		textf(w, "\n%s %s %s\n", actionMark[o.Action], o.Action, o.ObjectRef)
		conflictAt := map[string]Conflict{}
		for _, c := range o.Conflicts {
			conflictAt[c.Path] = c
		}
		for _, c := range o.Changes {
			suffix := ""
			if k, ok := conflictAt[c.Path]; ok {
				suffix = ": " + conflictText(k, p.fieldManager())
				delete(conflictAt, c.Path)
			}
			switch c.Type {
			case FieldAdded:
				textf(w, "    + %s: %s%s\n", c.Path, show(c.Desired), suffix)
			case FieldRemoved:
				textf(w, "    - %s: %s%s\n", c.Path, show(c.Live), suffix)
			default:
				l, d := showPair(c.Live, c.Desired)
				textf(w, "    ~ %s: %s -> %s%s\n", c.Path, l, d, suffix)
				writeListElements(w, c)
			}
		}
		for _, c := range o.Conflicts {
			if _, left := conflictAt[c.Path]; left {
				textf(w, "    ! %s: %s\n", c.Path, conflictText(c, p.fieldManager()))
			}
		}
		for _, k := range o.Kept {
			textf(w, "    = %s: kept (owned by %s)\n", k.Path, managerList(k.Managers))
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
		textf(w, "\nNot applied (Helm uninstall hooks): %s\n", strings.Join(names, ", "))
	}
	p.writeDeletes(w)
	if conflicts := p.Counts().Conflicts; conflicts > 0 {
		textf(w, "\n%d %s owned by other managers: an apply without force is refused (409 Conflict); with force, as apply.Requests' callers apply, %s takes %s.\n",
			conflicts, plural(conflicts, "field changes that is", "fields change that are"), p.fieldManager(), plural(conflicts, "it", "them"))
	}
	textf(w, "\n%s\n", p.Summary())
	return w.Err()
}

// NothingToApply reports whether the plan has no object to apply: none
// it creates, updates or leaves unchanged (a tenant cluster that stays on
// a shared datastore renders none), so there is no apply to run (kubectl
// apply of an empty input fails: "no objects passed to apply"); its
// deletes, if any, are Deletes. False for a nil Result.
func (p *Result) NothingToApply() bool {
	return p != nil && p.Count(Create)+p.Count(Update)+p.Count(Unchanged) == 0
}

// writeDeletes says that applying does not delete, and prints the
// deletes to run (Deletes), in their order, each object that holds the
// stack's state flagged.
func (p *Result) writeDeletes(w io.Writer) {
	if len(p.Deletes) == 0 {
		return
	}
	n := len(p.Deletes)
	textf(w, "\nApplying does not delete: an apply creates and updates, and leaves the %d %s to delete above in place. "+
		"Make the decisions about %s first; then delete %s so, in this order (what depends on an object before the object; each kubectl delete waits until its object is gone):\n",
		n, plural(n, "object", "objects"), plural(n, "it", "them"), plural(n, "it", "them"))
	leaves, datastore := false, false
	for _, d := range p.Deletes {
		datastore = datastore || d.Object.Kind == dataStoreKind.Kind
		if d.Holds != "" {
			textf(w, "  %s   # stateful: %s goes with it\n", d.Command, d.Holds)
		} else {
			textf(w, "  %s\n", d.Command)
		}
		leaves = leaves || d.Object.Kind == etcdClusterKind.Kind || d.Object.Kind == certificateKind.Kind
	}
	if leaves {
		// What the uninstall hook (the cleanup Job) would remove, and
		// these deletes do not: cert-manager keeps a Certificate's Secret
		// (unless run with --enable-certificate-owner-ref); the members'
		// volumes go with their EtcdMembers.
		textf(w, "  Deleting an EtcdCluster deletes its data: Kubernetes' garbage collector deletes etcd-operator's EtcdMembers and the data volumes (PVCs) they own (the EtcdCluster CRD: a member's PVC is owned by its EtcdMember); take a snapshot first (docs/procedures.md, Take a snapshot now). Volumes of the etcd chart's older StatefulSet (data-<name>-<i>) and the TLS Secrets cert-manager issued (their private keys; cert-manager keeps them unless run with --enable-certificate-owner-ref) stay: delete those once the data and the keys are no longer needed.\n")
	}
	if datastore {
		// Kamaji migrates a control plane's data to another DataStore
		// and only then records it; deleting the source mid-way loses it.
		textf(w, "  Delete nothing while a Kamaji datastore migration runs: wait until every TenantControlPlane that used this etcd shows the new DataStore in status.storage.dataStoreName (kubectl get tenantcontrolplanes -A -o custom-columns=NAME:.metadata.name,DATASTORE:.status.storage.dataStoreName), since the migration copies from this etcd.\n")
	}
}

// isNilWriter reports a nil writer or a typed nil pointer (a nil
// *bytes.Buffer), which would panic on the first write.
func isNilWriter(w io.Writer) bool {
	if w == nil {
		return true
	}
	v := reflect.ValueOf(w)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// unknownOwnership lists the live objects planned without managedFields.
func (p *Result) unknownOwnership() []string {
	var out []string
	for _, o := range p.Objects {
		if o.Ownership == OwnershipUnknown {
			out = append(out, o.ObjectRef.String())
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func managerList(ms []Manager) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.String()
	}
	return strings.Join(names, ", ")
}

// conflictText says whom a conflict is with and what force does for
// field manager manager.
func conflictText(c Conflict, manager string) string {
	s := "conflict with " + managerList(c.Managers) + " (an apply without force is refused; "
	if c.ForceTakes {
		return s + "with force " + manager + " takes the field)"
	}
	return s + "with force too, as the API server refuses the object)"
}

// writeListElements shows a changed list of objects, which an apply
// replaces whole (an atomic list), element by element: an element equal
// to one of the other side's is unchanged (moved at most), the others
// are paired by name where they have one, by their order otherwise; a
// changed pair too long for a line is shown down to the fields that
// differ (diffLines).
func writeListElements(w io.Writer, c FieldChange) {
	ll, lok := c.Live.([]any)
	dl, dok := c.Desired.([]any)
	if !lok || !dok || !allMaps(ll) || !allMaps(dl) {
		return
	}
	// Equal elements first.
	same := map[string][]int{}
	for i, l := range ll {
		k := canonicalJSON(l)
		same[k] = append(same[k], i)
	}
	usedL := make([]bool, len(ll))
	var restD []int
	for j, d := range dl {
		k := canonicalJSON(d)
		if is := same[k]; len(is) > 0 {
			usedL[is[0]] = true
			same[k] = is[1:]
			continue
		}
		restD = append(restD, j)
	}
	var restL []int
	for i := range ll {
		if !usedL[i] {
			restL = append(restL, i)
		}
	}
	lines := 0
	dRest, lRest := pick(dl, restD), pick(ll, restL)
	pairs := pairing(dRest, lRest)
	paired := make([]bool, len(lRest))
	for jj, i := range pairs {
		j := restD[jj]
		if i < 0 {
			textf(w, "        + [%d]: %s\n", j, show(dl[j]))
		} else {
			paired[i] = true
			writeDiffLines(w, "        ", diffLines(fmt.Sprintf("[%d]", j), ll[restL[i]], dl[j]))
		}
		lines++
	}
	for ii, i := range restL {
		if !paired[ii] {
			textf(w, "        - [%d]: %s\n", i, show(ll[i]))
			lines++
		}
	}
	if lines == 0 {
		fmt.Fprintln(w, "        (the same elements in another order)")
	}
}

func pick(l []any, idx []int) []any {
	out := make([]any, len(idx))
	for i, j := range idx {
		out[i] = l[j]
	}
	return out
}

// canonicalJSON is a JSON value's encoding with sorted keys.
func canonicalJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func allMaps(l []any) bool {
	for _, e := range l {
		if _, ok := e.(map[string]any); !ok {
			return false
		}
	}
	return true
}

var actionMark = map[Action]string{Create: "+", Update: "~", Delete: "-", Unchanged: "="}

var verdictMark = map[Verdict]string{Refused: "REFUSED", NeedsDecision: "DECISION", Note: "note"}

func writeFinding(w io.Writer, f Finding, withObject bool) {
	where := f.Path
	if withObject && f.Object != (ObjectRef{}) {
		where = strings.TrimSpace(f.Object.String() + " " + f.Path)
	}
	if where == "" {
		textf(w, "    %s: %s\n", verdictMark[f.Verdict], f.Message)
		return
	}
	textf(w, "    %s %s: %s\n", verdictMark[f.Verdict], where, f.Message)
}

// textf writes the plan's text as fmt.Fprintf would, every argument
// that is text (a string, a fmt.Stringer: names, paths, values, messages,
// the managers of live objects) escaped with invalid.Escape, so that
// nothing a live object holds reaches a terminal as it is or breaks a
// line of the plan. The formats are this package's own.
func textf(w io.Writer, format string, args ...any) {
	for i, a := range args {
		switch t := a.(type) {
		case string:
			args[i] = invalid.Escape(t)
		case fmt.Stringer:
			args[i] = invalid.Escape(t.String())
		}
	}
	fmt.Fprintf(w, format, args...)
}

// withInferred is listed with the optional APIs that gate caller's shapes
// and that a live object of the stack's scope proves served (inferAPIs),
// which it records in inferred.
func withInferred(caller naming.Caller, listed []string, inferred *[]InferredAPI, scope map[objectKey]bool, live map[objectKey]*planObject) []string {
	*inferred = slices.DeleteFunc(inferAPIs(listed, scope, live), func(a InferredAPI) bool {
		return !slices.Contains(etcdshapes.OptionalAPIsOf(caller), a.API)
	})
	if len(*inferred) == 0 {
		return listed
	}
	apis := append([]string(nil), listed...)
	for _, a := range *inferred {
		apis = append(apis, a.API)
	}
	return apis
}

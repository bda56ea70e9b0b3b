//go:build apiserver

package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/plan"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/naming"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// The plan's promise, checked against the API server: for live objects
// that other field managers have changed in every way they can, the plan
// of an apply as apply.FieldManager names exactly the fields the
// API server then changes, the fields it keeps for the other managers,
// the conflicts it refuses an apply without force for, and the changes it
// refuses outright.
//
// A seeded generator (ETCDSHAPES_AGREEMENT_SEED, default below) picks,
// for every object the two stacks and the snapshot builders render, a
// mutation of each class below, and for each:
//
//  1. creates the object with a server-side apply as FieldManager;
//  2. lets other managers change it (kubectl-edit and helm updating the
//     object, other-applier applying some of its fields);
//  3. reads it back (managedFields included) and plans the desired
//     object (the render, or the render changed as the class says);
//  4. sends the desired object as a server-side apply, dry-run, without
//     force and with force, and compares: the conflicts of the 409 the
//     server answers without force (field and manager) with the plan's;
//     a 422 with the plan's refusal; and, field by field, the object the
//     server returns with force against the live one with the plan's
//     changes (and that every field the plan keeps is kept).
//
// Fields are compared leaf by leaf. Lists are split into elements the way
// the server keys them, which the test reads from the server's own
// managedFields (k: and v: entries), not from the library's schema. Inside
// a field the plan adds, the server may add defaults the plan does not
// name (a new container's imagePullPolicy); nothing else may differ.
//
// It prints "plan agreement: N of M" and fails below M of M or when M is
// under minMutations.

const (
	agreeNS      = "tenant-agree"
	agreeRelease = "kubernetes-agree"
	minMutations = 200
	// defaultSeed makes a run reproducible; ETCDSHAPES_AGREEMENT_SEED
	// picks another.
	defaultSeed = 20261130
)

// The other field managers.
const (
	editor  = "kubectl-edit"  // Update
	helm    = "helm"          // Update
	applier = "other-applier" // Apply
)

// agreeTemplate is an object as the library applies it.
type agreeTemplate struct {
	ref  string
	body map[string]any
}

// agreeCase is one mutation of one object.
type agreeCase struct {
	class string
	what  string
	// desired is what FieldManager applies after the mutation.
	desired map[string]any
	// ops are the other managers' changes, in order.
	ops []agreeOp
}

type agreeOp struct {
	manager string
	// apply, when set, is applied by manager; otherwise edit changes the
	// live object, which manager sends as an update.
	apply map[string]any
	edit  func(obj map[string]any) error
}

// mutationClass builds a case for an object from its live form after
// FieldManager created it; ok is false when the class does not apply to
// the object.
type mutationClass struct {
	name  string
	build func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool)
}

type generator struct {
	rng *rand.Rand
	n   int // a counter for unique values
}

func (g *generator) next() int { g.n++; return g.n }

func TestPlanAgreement(t *testing.T) {
	ctx := context.Background()
	seed := uint64(defaultSeed)
	if s := os.Getenv("ETCDSHAPES_AGREEMENT_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("ETCDSHAPES_AGREEMENT_SEED=%q: %v", s, err)
		}
		seed = v
	}
	if err := ensureNamespace(ctx, agreeNS); err != nil {
		t.Fatal(err)
	}
	templates := agreementTemplates(t)
	g := &generator{rng: rand.New(rand.NewPCG(seed, 0x5eed))}
	var (
		agreed, total, skipped int
		classes                = map[string]int{}
		kinds                  = map[string]int{}
		defaults               int
	)
	defer func() {
		summaries.add("plan agreement: %d of %d (seed %d; %d mutations the API server refused to make or that did not apply skipped; %d server defaults inside added fields)", agreed, total, seed, skipped, defaults)
	}()
	// Rounds over every object and class until enough mutations ran and
	// every class ran minPerClass times; each round picks the fields
	// anew, later rounds only for the classes short of their minimum.
	const minPerClass = 12
	short := func() bool {
		for _, cl := range agreementClasses {
			if classes[cl.name] < minPerClass {
				return true
			}
		}
		return false
	}
	shown := map[string]bool{}
	for round := 0; (total < minMutations+20 || short()) && round < 6; round++ {
		for _, tmpl := range templates {
			for _, class := range agreementClasses {
				if round > 0 && classes[class.name] >= minPerClass {
					continue
				}
				live, err := recreate(ctx, tmpl)
				if err != nil {
					t.Fatalf("%s: creating the object: %v", tmpl.ref, err)
				}
				c, ok := class.build(g, tmpl, live)
				if !ok {
					continue
				}
				c.class = class.name
				res, err := runCase(ctx, tmpl, c)
				if errors.Is(err, errSkip) {
					skipped++
					continue
				}
				if err != nil {
					t.Fatalf("%s %s (%s): %v", tmpl.ref, c.class, c.what, err)
				}
				total++
				classes[c.class]++
				kinds[strings.Fields(tmpl.ref)[0]]++
				defaults += res.defaults
				if !shown[c.class] && res.plan != "" {
					shown[c.class] = true
					t.Logf("%s: %s (%s), agreed %v:\n%s", tmpl.ref, c.class, c.what, res.ok, indent(res.plan))
				}
				if res.ok {
					agreed++
					continue
				}
				t.Errorf("%s: %s (%s): the plan and the API server disagree:\n%s", tmpl.ref, c.class, c.what, indent(strings.Join(res.problems, "\n")))
			}
		}
	}
	for _, cl := range agreementClasses {
		t.Logf("class %-60s %d", cl.name, classes[cl.name])
		if classes[cl.name] == 0 {
			t.Errorf("no mutation of class %q ran", cl.name)
		}
	}
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		t.Logf("kind %-24s %d", k, kinds[k])
	}
	if total < minMutations {
		t.Errorf("only %d mutations compared, want at least %d", total, minMutations)
	}
	if agreed < total {
		t.Errorf("plan agreement: %d of %d", agreed, total)
	}
	t.Logf("plan agreement: %d of %d (seed %d)", agreed, total, seed)
}

// agreementTemplates are every object the etcd chart's stack, a tenant
// cluster's stack (every optional API) and the snapshot builders render,
// Helm uninstall hooks aside (the plan never applies them).
func agreementTemplates(t *testing.T) []agreeTemplate {
	t.Helper()
	var objs []etcdshapes.Object
	for _, r := range []etcdshapes.Request{
		{Caller: naming.CallerEtcd, Namespace: agreeNS, ChartVersion: "1.2.3"},
		{Caller: naming.CallerCluster, Namespace: agreeNS, Release: agreeRelease, ChartVersion: "1.2.3", APIVersions: golden.AllAPIs},
	} {
		objs = append(objs, mustRender(t, r)...)
	}
	n, err := naming.ForCluster(agreeNS, agreeRelease)
	if err != nil {
		t.Fatal(err)
	}
	objs = append(objs, bystanderObjects(t, n, "agree")...)
	reqs, err := apply.Requests(objs)
	if err != nil {
		t.Fatal(err)
	}
	var out []agreeTemplate
	for _, r := range reqs {
		var body map[string]any
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		out = append(out, agreeTemplate{ref: refOf(r.Object), body: body})
	}
	return out
}

// recreate deletes the object, applies it as FieldManager and returns
// it as the server stores it.
func recreate(ctx context.Context, tmpl agreeTemplate) (map[string]any, error) {
	u := &unstructured.Unstructured{Object: copyTree(tmpl.body)}
	if err := k.Delete(ctx, u, client.PropagationPolicy(metav1.DeletePropagationBackground)); err != nil && !apierrors.IsNotFound(err) {
		return nil, err
	}
	key := client.ObjectKeyFromObject(u)
	for deadline := time.Now().Add(30 * time.Second); ; {
		probe := &unstructured.Unstructured{}
		probe.SetGroupVersionKind(u.GroupVersionKind())
		err := k.Get(ctx, key, probe)
		if apierrors.IsNotFound(err) {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("still there after deleting it: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := applyAs(ctx, apply.FieldManager, tmpl.body, true, false, nil); err != nil {
		return nil, err
	}
	return getLive(ctx, tmpl.body)
}

func getLive(ctx context.Context, body map[string]any) (map[string]any, error) {
	u := &unstructured.Unstructured{Object: copyTree(body)}
	got := &unstructured.Unstructured{}
	got.SetGroupVersionKind(u.GroupVersionKind())
	if err := k.Get(ctx, client.ObjectKeyFromObject(u), got); err != nil {
		return nil, err
	}
	return got.Object, nil
}

// applyAs sends body as a server-side apply by manager; into, when set,
// receives the server's answer.
func applyAs(ctx context.Context, manager string, body map[string]any, force, dryRun bool, into *unstructured.Unstructured) error {
	js, err := json.Marshal(body)
	if err != nil {
		return err
	}
	opts := []client.PatchOption{client.FieldOwner(manager), strict}
	if force {
		opts = append(opts, client.ForceOwnership)
	}
	if dryRun {
		opts = append(opts, client.DryRunAll)
	}
	if into == nil {
		into = &unstructured.Unstructured{}
	}
	into.Object = copyTree(body)
	return k.Patch(ctx, into, client.RawPatch(types.ApplyPatchType, js), opts...)
}

var errSkip = errors.New("skipped")

type caseResult struct {
	ok       bool
	problems []string
	defaults int
	plan     string // the plan's text
}

// runCase runs the other managers' changes, plans and compares with the
// server's dry-run applies.
func runCase(ctx context.Context, tmpl agreeTemplate, c agreeCase) (caseResult, error) {
	if !sameJSON(c.desired, tmpl.body) {
		// A desired object the API server refuses as a new object is
		// not the plan's business (it does not validate values): skip.
		probe := copyTree(c.desired)
		meta := probe["metadata"].(map[string]any)
		meta["name"] = fmt.Sprint(meta["name"]) + "-probe"
		if err := applyAs(ctx, apply.FieldManager, probe, true, true, nil); err != nil {
			return caseResult{}, errSkip
		}
	}
	for _, op := range c.ops {
		if op.apply != nil {
			if err := applyAs(ctx, op.manager, op.apply, false, false, nil); err != nil {
				return caseResult{}, errSkip
			}
			continue
		}
		live, err := getLive(ctx, tmpl.body)
		if err != nil {
			return caseResult{}, err
		}
		if err := op.edit(live); err != nil {
			return caseResult{}, errSkip
		}
		u := &unstructured.Unstructured{Object: live}
		if err := k.Update(ctx, u, client.FieldOwner(op.manager)); err != nil {
			return caseResult{}, errSkip
		}
	}
	live, err := getLive(ctx, tmpl.body)
	if err != nil {
		return caseResult{}, err
	}
	p, err := plan.Compute([]etcdshapes.Object{&unstructured.Unstructured{Object: copyTree(live)}},
		[]etcdshapes.Object{&unstructured.Unstructured{Object: copyTree(c.desired)}})
	if err != nil {
		return caseResult{}, fmt.Errorf("plan: %w", err)
	}
	var op *plan.ObjectPlan
	for i := range p.Objects {
		if p.Objects[i].ObjectRef.String() == tmpl.ref {
			op = &p.Objects[i]
		}
	}
	if op == nil {
		return caseResult{problems: []string{"the plan has no " + tmpl.ref + ":\n" + p.String()}}, nil
	}
	res := caseResult{ok: true, plan: p.String()}
	bad := func(format string, args ...any) {
		res.ok = false
		res.problems = append(res.problems, fmt.Sprintf(format, args...))
	}
	refused := false
	for _, f := range op.Findings {
		if f.Verdict == plan.Refused {
			refused = true
		}
	}

	// Without force: the conflicts, or the refusal, or success.
	noForce := &unstructured.Unstructured{}
	errNF := applyAs(ctx, apply.FieldManager, c.desired, false, true, noForce)
	want := map[string]bool{}
	for _, cf := range op.Conflicts {
		for _, m := range cf.Managers {
			want["."+cf.Path+" "+conflictMessage(m)] = true
		}
	}
	switch {
	case len(want) > 0:
		got := conflictCauses(errNF)
		if got == nil {
			bad("without force: the plan names conflicts %v; the server answered %v", slices.Sorted(maps.Keys(want)), errString(errNF))
		} else if !sameSet(got, want) {
			bad("without force: the plan names conflicts %v; the server %v", slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got)))
		}
	case refused:
		if !apierrors.IsInvalid(errNF) {
			bad("without force: the plan refuses the object; the server answered %v", errString(errNF))
		}
	case errNF != nil:
		bad("without force: the plan has no conflict and refuses nothing; the server answered %v", errString(errNF))
	}

	// With force: the refusal, or the changes.
	forced := &unstructured.Unstructured{}
	errF := applyAs(ctx, apply.FieldManager, c.desired, true, true, forced)
	if refused {
		if !apierrors.IsInvalid(errF) {
			bad("with force: the plan refuses the object; the server answered %v", errString(errF))
		}
		return res, nil
	}
	if errF != nil {
		bad("with force: the plan accepts the object; the server answered %v", errString(errF))
		return res, nil
	}
	after := forced.Object
	orc := listOracleOf(live, after)
	server := map[string]leafChange{}
	diffLeaves(orc, nil, nil, live, after, server)
	planned := map[string]leafChange{}
	var addedRoots []string
	for _, ch := range op.Changes {
		path, err := parseElements(ch.PathElements)
		if err != nil {
			return caseResult{}, fmt.Errorf("change %s: %w", ch.Path, err)
		}
		if path.String() != "."+ch.Path {
			bad("change %s: its pathElements %v name %s", ch.Path, ch.PathElements, path)
		}
		switch ch.Type {
		case plan.FieldAdded:
			addedRoots = append(addedRoots, path.String())
			expand(orc, path, schemaPath(path), ch.Desired, func(p fieldpath.Path, v any) {
				planned[p.String()] = leafChange{kind: "added", after: v}
			})
		case plan.FieldRemoved:
			expand(orc, path, schemaPath(path), ch.Live, func(p fieldpath.Path, v any) {
				planned[p.String()] = leafChange{kind: "removed", live: v}
			})
		default:
			diffLeaves(orc, path, schemaPath(path), ch.Live, ch.Desired, planned)
		}
	}
	for p, pc := range planned {
		sc, ok := server[p]
		switch {
		case !ok:
			bad("%s: the plan %s it (%s), the server leaves it", p, pc.kind, pc)
		case sc.kind != pc.kind || !sameJSON(sc.live, pc.live) || !sameJSON(sc.after, pc.after):
			bad("%s: the plan %s it (%s), the server %s it (%s)", p, pc.kind, pc, sc.kind, sc)
		}
	}
	for p, sc := range server {
		if _, ok := planned[p]; ok {
			continue
		}
		if sc.kind == "added" && underAny(p, addedRoots) {
			res.defaults++
			continue
		}
		bad("%s: the server %s it (%s), the plan does not name it", p, sc.kind, sc)
	}
	// Kept fields stay as they are.
	for _, kf := range op.Kept {
		path, err := parseElements(kf.PathElements)
		if err != nil {
			return caseResult{}, err
		}
		lv, lok := getAt(live, path)
		av, aok := getAt(after, path)
		if !lok || !aok || !sameJSON(lv, av) {
			bad("%s: the plan keeps it for %v; the server does not (live %v, after %v)", kf.Path, kf.Managers, lv, av)
		}
	}
	return res, nil
}

func errString(err error) string {
	if err == nil {
		return "success"
	}
	return oneLine(err)
}

// conflictMessage is how the API server names a manager in a conflict
// (printManager in k8s.io/apimachinery's managedfields).
func conflictMessage(m plan.Manager) string {
	s := strconv.Quote(m.Name)
	if m.Subresource != "" {
		s += " with subresource " + strconv.Quote(m.Subresource)
	}
	if m.Operation == "Update" {
		s += " using " + m.APIVersion
	}
	return "conflict with " + s
}

// conflictCauses are the field and message of each conflict of a 409
// apply conflict; nil for any other answer.
func conflictCauses(err error) map[string]bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Code != 409 || status.Status().Details == nil {
		return nil
	}
	out := map[string]bool{}
	for _, c := range status.Status().Details.Causes {
		if c.Type == metav1.CauseTypeFieldManagerConflict {
			out[c.Field+" "+c.Message] = true
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func underAny(p string, roots []string) bool {
	for _, r := range roots {
		if strings.HasPrefix(p, r) && len(p) > len(r) && (p[len(r)] == '.' || p[len(r)] == '[') {
			return true
		}
	}
	return false
}

// leafChange is one leaf field the apply changes.
type leafChange struct {
	kind        string // added, removed, changed
	live, after any
}

func (c leafChange) String() string {
	b, _ := json.Marshal(map[string]any{"live": c.live, "after": c.after})
	return string(b)
}

// listOracle is how the API server splits each list into elements, read
// from the managedFields of the objects: a list some manager owns
// elements of by key ("k:") is keyed by those fields, by value ("v:") a
// set; any other list is atomic. A map some manager owns whole is atomic.
// Paths are schema paths: list elements are "[]".
type listOracle struct {
	keyed  map[string][]string
	set    map[string]bool
	atomic map[string]bool
	// whole are paths some manager owns with no field below them,
	// parent the paths some manager owns fields below.
	whole, parent map[string]bool
}

func listOracleOf(objs ...map[string]any) *listOracle {
	o := &listOracle{keyed: map[string][]string{}, set: map[string]bool{}, atomic: map[string]bool{}, whole: map[string]bool{}, parent: map[string]bool{}}
	for _, obj := range objs {
		meta, _ := obj["metadata"].(map[string]any)
		entries, _ := meta["managedFields"].([]any)
		for _, e := range entries {
			em, _ := e.(map[string]any)
			fields, _ := em["fieldsV1"].(map[string]any)
			o.read(fields, "")
		}
	}
	// A map is atomic where it is owned whole and nobody owns a field of
	// it (an empty map owned whole is no evidence).
	for p := range o.whole {
		if !o.parent[p] {
			o.atomic[p] = true
		}
	}
	return o
}

func (o *listOracle) read(node map[string]any, spath string) {
	for key, sub := range node {
		child, _ := sub.(map[string]any)
		switch {
		case strings.HasPrefix(key, "f:"):
			p := spath + "." + key[2:]
			if len(child) == 0 {
				o.whole[p] = true
			}
			for ck := range child {
				if ck != "." {
					o.parent[p] = true
				}
			}
			o.read(child, p)
		case strings.HasPrefix(key, "k:"):
			var kv map[string]any
			if err := json.Unmarshal([]byte(key[2:]), &kv); err == nil {
				names := make([]string, 0, len(kv))
				for n := range kv {
					names = append(names, n)
				}
				sort.Strings(names)
				o.keyed[spath] = names
			}
			o.read(child, spath+"[]")
		case strings.HasPrefix(key, "v:"):
			o.set[spath] = true
		}
	}
}

// schemaPath is a path with list elements as "[]".
func schemaPath(p fieldpath.Path) []string {
	out := make([]string, len(p))
	for i, pe := range p {
		if pe.FieldName != nil {
			out[i] = "." + *pe.FieldName
		} else {
			out[i] = "[]"
		}
	}
	return out
}

func joinSchema(sp []string) string { return strings.Join(sp, "") }

// excludedPath: fields an apply does not change (status, identity, the
// server's metadata), and their children.
func excludedPath(p fieldpath.Path) bool {
	if len(p) == 0 || p[0].FieldName == nil {
		return false
	}
	switch *p[0].FieldName {
	case "status", "apiVersion", "kind":
		return true
	case "metadata":
		if len(p) < 2 || p[1].FieldName == nil {
			return false
		}
		switch *p[1].FieldName {
		case "labels", "annotations", "ownerReferences":
			return false
		}
		return true
	}
	return false
}

// elementPE names a list element the way the oracle says the server
// keys the list; ok is false for an atomic list.
func (o *listOracle) elementPE(sp string, e any) (fieldpath.PathElement, bool) {
	if names, ok := o.keyed[sp]; ok {
		m, ok := e.(map[string]any)
		if !ok {
			return fieldpath.PathElement{}, false
		}
		fl := value.FieldList{}
		for _, n := range names {
			v, ok := m[n]
			if !ok {
				if n == "protocol" {
					v = "TCP" // the key's default
				} else {
					continue
				}
			}
			fl = append(fl, value.Field{Name: n, Value: value.NewValueInterface(v)})
		}
		fl.Sort()
		return fieldpath.PathElement{Key: &fl}, true
	}
	if o.set[sp] {
		v := value.NewValueInterface(e)
		return fieldpath.PathElement{Value: &v}, true
	}
	return fieldpath.PathElement{}, false
}

// expand calls fn with every leaf of v at path.
func expand(o *listOracle, path fieldpath.Path, sp []string, v any, fn func(fieldpath.Path, any)) {
	if excludedPath(path) {
		return
	}
	s := joinSchema(sp)
	switch t := v.(type) {
	case map[string]any:
		if o.atomic[s] || len(t) == 0 {
			fn(path, v)
			return
		}
		for k, c := range t {
			expand(o, with(path, fieldpath.PathElement{FieldName: ptrTo(k)}), append(sp[:len(sp):len(sp)], "."+k), c, fn)
		}
	case []any:
		if len(t) == 0 {
			fn(path, v)
			return
		}
		if _, ok := o.elementPE(s, t[0]); !ok {
			fn(path, v)
			return
		}
		for _, e := range t {
			pe, _ := o.elementPE(s, e)
			expand(o, with(path, pe), append(sp[:len(sp):len(sp)], "[]"), e, fn)
		}
	default:
		fn(path, v)
	}
}

// diffLeaves records the leaves where l and r differ.
func diffLeaves(o *listOracle, path fieldpath.Path, sp []string, l, r any, out map[string]leafChange) {
	if excludedPath(path) {
		return
	}
	s := joinSchema(sp)
	switch {
	case l == nil && r == nil:
		return
	case l == nil:
		expand(o, path, sp, r, func(p fieldpath.Path, v any) { out[p.String()] = leafChange{kind: "added", after: v} })
		return
	case r == nil:
		expand(o, path, sp, l, func(p fieldpath.Path, v any) { out[p.String()] = leafChange{kind: "removed", live: v} })
		return
	}
	lm, lok := l.(map[string]any)
	rm, rok := r.(map[string]any)
	if lok && rok && !o.atomic[s] {
		for k := range union(lm, rm) {
			diffLeaves(o, with(path, fieldpath.PathElement{FieldName: ptrTo(k)}), append(sp[:len(sp):len(sp)], "."+k), lm[k], rm[k], out)
		}
		return
	}
	ll, lok := l.([]any)
	rl, rok := r.([]any)
	if lok && rok && (o.keyed[s] != nil || o.set[s]) {
		li, ri := map[string]any{}, map[string]any{}
		pes := map[string]fieldpath.PathElement{}
		for _, side := range []struct {
			list []any
			into map[string]any
		}{{ll, li}, {rl, ri}} {
			for _, e := range side.list {
				pe, ok := o.elementPE(s, e)
				if !ok {
					continue
				}
				side.into[pe.String()] = e
				pes[pe.String()] = pe
			}
		}
		for key := range union(li, ri) {
			diffLeaves(o, with(path, pes[key]), append(sp[:len(sp):len(sp)], "[]"), li[key], ri[key], out)
		}
		return
	}
	if !sameJSON(l, r) {
		out[path.String()] = leafChange{kind: "changed", live: l, after: r}
	}
}

func union(a, b map[string]any) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func with(p fieldpath.Path, pe fieldpath.PathElement) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(p)+1)
	return append(append(out, p...), pe)
}

func ptrTo[T any](v T) *T { return &v }

func parseElements(els []string) (fieldpath.Path, error) {
	out := make(fieldpath.Path, 0, len(els))
	for _, e := range els {
		pe, err := fieldpath.DeserializePathElement(e)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", e, err)
		}
		out = append(out, pe)
	}
	return out, nil
}

// getAt follows a path through a JSON tree; list elements match when
// every key field they have equals the path's.
func getAt(v any, p fieldpath.Path) (any, bool) {
	for _, pe := range p {
		if pe.FieldName == nil {
			l, i, ok := elementIn(v, pe)
			if !ok {
				return nil, false
			}
			v = l[i]
			continue
		}
		m, _ := v.(map[string]any) // nil, which has no field, when v is no map
		next, ok := m[*pe.FieldName]
		if !ok {
			return nil, false
		}
		v = next
	}
	return v, true
}

// elementIn is the list v and the index of its element pe names; ok is
// false when v is no list or has no such element.
func elementIn(v any, pe fieldpath.PathElement) (l []any, j int, ok bool) {
	l, _ = v.([]any)
	j = findPE(l, pe)
	return l, j, j >= 0
}

func findPE(l []any, pe fieldpath.PathElement) int {
	for i, e := range l {
		switch {
		case pe.Key != nil:
			m, ok := e.(map[string]any)
			if !ok {
				continue
			}
			match, any := true, false
			for _, f := range *pe.Key {
				v, ok := m[f.Name]
				if !ok {
					continue
				}
				any = true
				if !value.Equals(value.NewValueInterface(v), f.Value) {
					match = false
				}
			}
			if match && any {
				return i
			}
		case pe.Value != nil:
			if value.Equals(value.NewValueInterface(e), *pe.Value) {
				return i
			}
		case pe.Index != nil:
			if *pe.Index == i {
				return i
			}
		}
	}
	return -1
}

// setAt sets the value at p, creating maps on the way; removeAt deletes
// it. Both report whether the path led anywhere.
func setAt(root map[string]any, p fieldpath.Path, v any) bool {
	var cur any = root
	for i, pe := range p {
		last := i == len(p)-1
		switch {
		case pe.FieldName != nil:
			m, ok := cur.(map[string]any)
			if !ok {
				return false
			}
			if last {
				m[*pe.FieldName] = v
				return true
			}
			next, ok := m[*pe.FieldName]
			if !ok {
				next = map[string]any{}
				m[*pe.FieldName] = next
			}
			cur = next
		default:
			l, j, ok := elementIn(cur, pe)
			if !ok {
				return false
			}
			if last {
				l[j] = v
				return true
			}
			cur = l[j]
		}
	}
	return false
}

func removeAt(root map[string]any, p fieldpath.Path) bool {
	if len(p) == 0 {
		return false
	}
	parent, ok := getAt(root, p[:len(p)-1])
	if !ok {
		return false
	}
	pe := p[len(p)-1]
	switch {
	case pe.FieldName != nil:
		m, ok := parent.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := m[*pe.FieldName]; !ok {
			return false
		}
		delete(m, *pe.FieldName)
		return true
	default:
		l, j, ok := elementIn(parent, pe)
		if !ok {
			return false
		}
		nl := append(append([]any{}, l[:j]...), l[j+1:]...)
		return setAt(root, p[:len(p)-1], nl)
	}
}

func copyTree(m map[string]any) map[string]any {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

// sameJSON compares two JSON values, numbers by value.
func sameJSON(a, b any) bool {
	return string(normJSON(a)) == string(normJSON(b))
}

// normJSON is v's JSON with sorted keys and every number as a float.
func normJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(fmt.Sprintf("unencodable %v", v))
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return b
	}
	out, _ := json.Marshal(x)
	return out
}

// ownedLeaves are the leaves FieldManager owns in a live object, with
// their values: fields, atomic lists and maps, and list elements' fields
// other than their keys.
func ownedLeaves(live map[string]any) []fieldpath.Path {
	meta, _ := live["metadata"].(map[string]any)
	entries, _ := meta["managedFields"].([]any)
	var out []fieldpath.Path
	for _, e := range entries {
		em, _ := e.(map[string]any)
		if em["manager"] != apply.FieldManager || em["operation"] != "Apply" {
			continue
		}
		fields, _ := em["fieldsV1"].(map[string]any)
		walkSet(fields, nil, func(p fieldpath.Path) {
			// Helm's hook and keep annotations change what the plan and
			// the apply do with the object: not mutated.
			if len(p) == 3 && *p[1].FieldName == "annotations" && strings.HasPrefix(*p[2].FieldName, "helm.sh/") {
				return
			}
			if _, ok := getAt(live, p); ok {
				out = append(out, p)
			}
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// walkSet calls fn with every leaf of a fieldsV1 tree that is a field
// (not an element itself, not a key field of its element).
func walkSet(node map[string]any, path fieldpath.Path, fn func(fieldpath.Path)) {
	var keyNames map[string]bool
	if n := len(path); n > 0 && path[n-1].Key != nil {
		keyNames = map[string]bool{}
		for _, f := range *path[n-1].Key {
			keyNames[f.Name] = true
		}
	}
	for key, sub := range node {
		if key == "." {
			continue
		}
		pe, err := fieldpath.DeserializePathElement(key)
		if err != nil {
			continue
		}
		child, _ := sub.(map[string]any)
		p := with(path, pe)
		if len(child) == 0 {
			if pe.FieldName != nil && !keyNames[*pe.FieldName] {
				fn(p)
			}
			continue
		}
		walkSet(child, p, fn)
	}
}

// keyedLists are the lists FieldManager owns elements of by key, with one
// of the elements' paths each.
func keyedLists(live map[string]any) []fieldpath.Path {
	meta, _ := live["metadata"].(map[string]any)
	entries, _ := meta["managedFields"].([]any)
	seen := map[string]bool{}
	var out []fieldpath.Path
	var walk func(node map[string]any, path fieldpath.Path)
	walk = func(node map[string]any, path fieldpath.Path) {
		for key, sub := range node {
			child, _ := sub.(map[string]any)
			pe, err := fieldpath.DeserializePathElement(key)
			if err != nil {
				continue
			}
			p := with(path, pe)
			if pe.Key != nil && !seen[path.String()] {
				seen[path.String()] = true
				out = append(out, p)
			}
			walk(child, p)
		}
	}
	for _, e := range entries {
		em, _ := e.(map[string]any)
		if em["manager"] == apply.FieldManager {
			fields, _ := em["fieldsV1"].(map[string]any)
			walk(fields, nil)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// changedValue is another value of v's type the API server accepts in
// most fields: a quantity doubled, a number plus one, a flipped bool, a
// string with a suffix.
func changedValue(g *generator, v any) any {
	switch t := v.(type) {
	case string:
		if q, err := resource.ParseQuantity(t); err == nil && q.Sign() > 0 && !strings.ContainsAny(t, "-/:") {
			q.Add(q)
			return q.String()
		}
		if strings.Count(t, " ") == 4 { // a cron schedule
			return fmt.Sprintf("%d * * * *", 1+g.rng.IntN(58))
		}
		if t == "" {
			return "x"
		}
		return t + "x"
	case float64:
		if t == float64(int64(t)) {
			return t + 1
		}
		return t * 2
	case int64:
		return t + 1
	case bool:
		return !t
	}
	return nil
}

// pick returns a random element of paths, or ok false.
func pick(g *generator, paths []fieldpath.Path, accept func(fieldpath.Path) bool) (fieldpath.Path, bool) {
	order := g.rng.Perm(len(paths))
	for _, i := range order {
		if accept == nil || accept(paths[i]) {
			return paths[i], true
		}
	}
	return nil, false
}

func scalarLeaf(live map[string]any) func(fieldpath.Path) bool {
	return func(p fieldpath.Path) bool {
		v, ok := getAt(live, p)
		if !ok {
			return false
		}
		switch v.(type) {
		case string, float64, int64, bool:
			return true
		}
		return false
	}
}

func listLeaf(live map[string]any) func(fieldpath.Path) bool {
	return func(p fieldpath.Path) bool {
		v, ok := getAt(live, p)
		l, isList := v.([]any)
		return ok && isList && len(l) > 0
	}
}

// cloneElement is a copy of e with its key fields given new values.
func cloneElement(g *generator, e any, keys []string) any {
	m, ok := e.(map[string]any)
	if !ok {
		return nil
	}
	c := copyTree(m)
	n := g.next()
	for _, k := range keys {
		switch v := c[k].(type) {
		case string:
			c[k] = fmt.Sprintf("%s-x%d", v, n)
		case float64:
			c[k] = v + float64(1000+n)
		}
	}
	return c
}

// The classes of mutations.
var agreementClasses = []mutationClass{
	{"other manager adds an element to a keyed list (kept)", func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool) {
		lists := keyedLists(live)
		elem, ok := pick(g, lists, nil)
		if !ok {
			return agreeCase{}, false
		}
		listPath := elem[:len(elem)-1]
		e, _ := getAt(live, elem)
		var keys []string
		for _, f := range *elem[len(elem)-1].Key {
			keys = append(keys, f.Name)
		}
		clone := cloneElement(g, e, keys)
		return agreeCase{what: "adds an element to " + listPath.String(), desired: t.body, ops: edited(func(obj map[string]any) bool {
			l, ok := getAt(obj, listPath)
			return ok && setAt(obj, listPath, append(l.([]any), copyTree(clone.(map[string]any))))
		})}, true
	}},
	{"other manager adds an element to an atomic list (conflict)", func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool) {
		p, ok := pick(g, ownedLeaves(live), listLeaf(live))
		if !ok {
			return agreeCase{}, false
		}
		v, _ := getAt(live, p)
		l := v.([]any)
		var extra any
		switch e := l[len(l)-1].(type) {
		case map[string]any:
			extra = copyTree(e)
		case string:
			extra = fmt.Sprintf("%s-x%d", e, g.next())
		default:
			return agreeCase{}, false
		}
		return agreeCase{what: "appends to " + p.String(), desired: t.body, ops: edited(func(obj map[string]any) bool {
			cur, ok := getAt(obj, p)
			if ok {
				setAt(obj, p, append(cur.([]any), extra))
			}
			return ok
		})}, true
	}},
	{"other manager adds a label (kept)", func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool) {
		key := fmt.Sprintf("example.com/added-%d", g.next())
		return agreeCase{what: "label " + key, desired: t.body, ops: []agreeOp{setBy(helm, fieldpath.MakePathOrDie("metadata", "labels", key), "x")}}, true
	}},
	{"other manager adds an annotation (kept)", func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool) {
		key := fmt.Sprintf("example.com/note-%d", g.next())
		return agreeCase{what: "annotation " + key, desired: t.body, ops: []agreeOp{setBy(editor, fieldpath.MakePathOrDie("metadata", "annotations", key), "a note")}}, true
	}},
	{"other manager changes a scalar we own (conflict)", func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool) {
		p, v, ok := ownedScalar(g, live)
		if !ok {
			return agreeCase{}, false
		}
		nv := changedValue(g, v)
		return agreeCase{what: fmt.Sprintf("%s: %v -> %v", p, v, nv), desired: t.body, ops: edited(func(obj map[string]any) bool {
			return setAt(obj, p, nv)
		})}, true
	}},
	{"we change a scalar we own (set)", func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool) {
		p, v, ok := ownedScalar(g, live)
		if !ok {
			return agreeCase{}, false
		}
		nv, d, ok := bodyWithChanged(g, t.body, p, v)
		if !ok {
			return agreeCase{}, false
		}
		return agreeCase{what: fmt.Sprintf("%s: %v -> %v", p, v, nv), desired: d}, true
	}},
	{"other applier shares a scalar we own, we change it (conflict)", func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool) {
		p, v, share, ok := sharedScalar(g, t, live)
		if !ok {
			return agreeCase{}, false
		}
		nv, d, ok := bodyWithChanged(g, t.body, p, v)
		if !ok {
			return agreeCase{}, false
		}
		return agreeCase{what: fmt.Sprintf("%s shared, then %v -> %v", p, v, nv), desired: d, ops: []agreeOp{{manager: applier, apply: share}}}, true
	}},
	{"other manager sets a scalar they own, then changes it (kept)", func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool) {
		p, v1, v2 := foreignScalar(g, t)
		return agreeCase{what: fmt.Sprintf("%s = %v then %v", p, v1, v2), desired: t.body, ops: []agreeOp{setBy(editor, p, v1), setBy(editor, p, v2)}}, true
	}},
	{"we stop sending a field we own (removed or defaulted)", func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool) {
		candidates := append(ownedLeaves(live), keyedLists(live)...)
		p, ok := pick(g, candidates, nil)
		if !ok {
			return agreeCase{}, false
		}
		d, ok := bodyWithout(t.body, p)
		if !ok {
			return agreeCase{}, false
		}
		return agreeCase{what: "stops sending " + p.String(), desired: d}, true
	}},
	{"other manager removes a field we own (added back)", func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool) {
		p, ok := pick(g, ownedLeaves(live), nil)
		if !ok {
			return agreeCase{}, false
		}
		return agreeCase{what: "removes " + p.String(), desired: t.body, ops: edited(func(obj map[string]any) bool {
			return removeAt(obj, p)
		})}, true
	}},
	{"other manager co-owns a field we stop sending (kept)", func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool) {
		p, _, share, ok := sharedScalar(g, t, live)
		if !ok {
			return agreeCase{}, false
		}
		d, ok := bodyWithout(t.body, p)
		if !ok {
			return agreeCase{}, false
		}
		return agreeCase{what: "shares " + p.String() + ", we stop sending it", desired: d, ops: []agreeOp{{manager: applier, apply: share}}}, true
	}},
	{"we leave out a field with a default (defaulted)", func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool) {
		kind := t.body["kind"].(string)
		var paths []fieldpath.Path
		for _, f := range defaultedFields[kind] {
			p := fieldpath.MakePathOrDie(f...)
			if _, ok := getAt(t.body, p); ok {
				paths = append(paths, p)
			}
		}
		p, ok := pick(g, paths, nil)
		if !ok {
			return agreeCase{}, false
		}
		d, _ := bodyWithout(t.body, p)
		return agreeCase{what: "leaves out " + p.String(), desired: d}, true
	}},
	{"we change an immutable field (refused)", func(g *generator, t agreeTemplate, live map[string]any) (agreeCase, bool) {
		fields := immutableFields[t.body["kind"].(string)]
		if len(fields) == 0 {
			return agreeCase{}, false
		}
		f := fields[g.rng.IntN(len(fields))]
		p := fieldpath.MakePathOrDie(f.path...)
		v, _ := getAt(t.body, p)
		d, ok := bodyWith(t.body, p, f.to)
		if !ok {
			return agreeCase{}, false
		}
		return agreeCase{what: fmt.Sprintf("%s: %v -> %v", p, v, f.to), desired: d}, true
	}},
}

// setBy is manager's update that sets v at p, where p leads.
func setBy(manager string, p fieldpath.Path, v any) agreeOp {
	return agreeOp{manager: manager, edit: func(obj map[string]any) error {
		setAt(obj, p, v)
		return nil
	}}
}

// edited is an editor's change of the live object; change reports false
// when it finds nothing to change, which skips the case.
func edited(change func(obj map[string]any) bool) []agreeOp {
	return []agreeOp{{manager: editor, edit: func(obj map[string]any) error {
		if !change(obj) {
			return errSkip
		}
		return nil
	}}}
}

// ownedScalar picks a scalar leaf the library owns in live, with its live
// value.
func ownedScalar(g *generator, live map[string]any) (fieldpath.Path, any, bool) {
	p, ok := pick(g, ownedLeaves(live), scalarLeaf(live))
	if !ok {
		return nil, nil, false
	}
	v, _ := getAt(live, p)
	return p, v, true
}

// sharedScalar picks a scalar leaf the library owns in live, with its live
// value and an apply body in which another applier sets it to that value
// too.
func sharedScalar(g *generator, t agreeTemplate, live map[string]any) (fieldpath.Path, any, map[string]any, bool) {
	p, v, ok := ownedScalar(g, live)
	if !ok {
		return nil, nil, nil, false
	}
	share := identity(t.body)
	if !setPath(share, live, p, v) {
		return nil, nil, nil, false
	}
	return p, v, share, true
}

// bodyWith is a copy of body with v at p, bodyWithout one without p; ok
// is false when p leads nowhere.
func bodyWith(body map[string]any, p fieldpath.Path, v any) (d map[string]any, ok bool) {
	d = copyTree(body)
	return d, setAt(d, p, v)
}

// bodyWithChanged draws another value for v (changedValue) and is a copy
// of body with it at p: the drawn value, so that a case names the value
// it tests, and the copy.
func bodyWithChanged(g *generator, body map[string]any, p fieldpath.Path, v any) (nv any, d map[string]any, ok bool) {
	nv = changedValue(g, v)
	d, ok = bodyWith(body, p, nv)
	return nv, d, ok
}

func bodyWithout(body map[string]any, p fieldpath.Path) (d map[string]any, ok bool) {
	d = copyTree(body)
	return d, removeAt(d, p)
}

// identity is an apply body with just the object's identity.
func identity(body map[string]any) map[string]any {
	meta := body["metadata"].(map[string]any)
	m := map[string]any{"name": meta["name"]}
	if ns, ok := meta["namespace"]; ok {
		m["namespace"] = ns
	}
	return map[string]any{"apiVersion": body["apiVersion"], "kind": body["kind"], "metadata": m}
}

// setPath sets v at p in an apply body, with the list elements on the way
// copied from live down to their key fields.
func setPath(body, live map[string]any, p fieldpath.Path, v any) bool {
	var cur any = body
	for i, pe := range p {
		last := i == len(p)-1
		switch {
		case pe.FieldName != nil:
			m := cur.(map[string]any)
			if last {
				m[*pe.FieldName] = v
				return true
			}
			next, ok := m[*pe.FieldName]
			if !ok {
				if p[i+1].FieldName != nil {
					next = map[string]any{}
				} else {
					next = []any{}
				}
				m[*pe.FieldName] = next
			}
			cur = next
		default:
			if pe.Key == nil {
				return false
			}
			elem := map[string]any{}
			for _, f := range *pe.Key {
				elem[f.Name] = f.Value.Unstructured()
			}
			parent, _ := getAt(body, p[:i])
			l, _ := parent.([]any)
			l = append(l, elem)
			setAt(body, p[:i], l)
			cur = elem
		}
	}
	return false
}

// foreignScalar is a field the library does not set, with two values
// another manager sets it to in turn: a field of the kind where one is
// known, else a label.
func foreignScalar(g *generator, t agreeTemplate) (fieldpath.Path, any, any) {
	kind := t.body["kind"].(string)
	if f, ok := foreignFields[kind]; ok {
		return fieldpath.MakePathOrDie(f.path...), f.v1, f.v2
	}
	return fieldpath.MakePathOrDie("metadata", "labels", fmt.Sprintf("example.com/theirs-%d", g.next())), "one", "two"
}

var foreignFields = map[string]struct {
	path   []any
	v1, v2 any
}{
	"CronJob":        {[]any{"spec", "timeZone"}, "Etc/UTC", "Europe/Berlin"},
	"Service":        {[]any{"spec", "publishNotReadyAddresses"}, false, true},
	"ServiceAccount": {[]any{"automountServiceAccountToken"}, false, true},
	"Certificate":    {[]any{"spec", "revisionHistoryLimit"}, int64(3), int64(5)},
	"Secret":         {[]any{"data", "extra"}, "b25l", "dHdv"},
	"EtcdCluster":    {[]any{"spec", "progressDeadlineSeconds"}, int64(900), int64(1200)},
}

// defaultedFields are fields the library sends that have a default.
var defaultedFields = map[string][][]any{
	"CronJob": {
		{"spec", "concurrencyPolicy"}, {"spec", "failedJobsHistoryLimit"}, {"spec", "successfulJobsHistoryLimit"},
		{"spec", "jobTemplate", "spec", "backoffLimit"},
	},
	"EtcdCluster": {{"spec", "replicas"}, {"spec", "progressDeadlineSeconds"}, {"spec", "storage", "medium"}},
	"Service":     {{"spec", "type"}, {"spec", "sessionAffinity"}},
	"Secret":      {{"type"}},
}

// immutableFields are fields the API server refuses to change, with a
// value the object would be valid with.
var immutableFields = map[string][]struct {
	path []any
	to   any
}{
	"EtcdCluster": {
		{[]any{"spec", "tls", "client", "serverSecretRef", "name"}, "other-server-tls"},
		{[]any{"spec", "storage", "storageClassName"}, "agree-other"},
		{[]any{"spec", "storage", "medium"}, "Memory"},
	},
	"DataStore":   {{[]any{"spec", "driver"}, "PostgreSQL"}},
	"RoleBinding": {{[]any{"roleRef", "name"}, "other-role"}},
	"Service":     {{[]any{"spec", "clusterIP"}, "10.0.0.77"}},
}

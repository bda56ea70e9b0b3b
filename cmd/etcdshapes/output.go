package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// lockWait bounds the wait for another run writing the same --output-dir
// or gen --out (chartwrite.DefaultLockWait; tests shorten it).
var lockWait = chartwrite.DefaultLockWait

// Output formats of render.
const (
	outputYAML = "yaml"
	outputJSON = "json"
)

// outputFlags say how render prints its objects: the format, a directory
// instead of stdout, which objects, and whether the Helm uninstall hooks.
type outputFlags struct {
	format      string
	dir         string
	showOnly    []string
	force       bool
	pruneUnsafe bool
	// owner names the command and stack whose files --output-dir holds
	// (chartwrite.Options.Owner), known once the flags are read.
	owner func() string
	// hooks: the command renders Helm uninstall hooks, so it has
	// --include-hooks (render etcd|cluster).
	hooks bool
	// stack is the caller whose stack the command renders (render
	// etcd|cluster), "" for another command's objects: a --show-only kind
	// of its stack that the render leaves out is told why.
	stack        naming.Caller
	includeHooks bool
	// envHooksIgnored: envIncludeHooks asked for the hooks, and
	// --output-dir left them out (said on stderr).
	envHooksIgnored bool
	flags           *pflag.FlagSet
	// served, set for render etcd|cluster, is the APIs its render
	// listed (--api-versions), once it rendered: a file of a kind they
	// gate leaves the directory only with --prune-unsafe.
	served func() []string
}

// envIncludeHooks is the opt-in to the Helm uninstall hooks for tools that
// run render and cannot pass --include-hooks (a comparison script with a
// fixed command line).
const envIncludeHooks = "ETCDSHAPES_INCLUDE_HOOKS"

func (o *outputFlags) register(cmd *cobra.Command, def string, hooks bool) {
	fs := cmd.Flags()
	o.flags, o.hooks = fs, hooks
	fs.StringVarP(&o.format, "output", "o", def,
		"output `FORMAT`: yaml (multi-document) or json (one v1 List, as kubectl get -o json prints)")
	fs.StringVar(&o.dir, "output-dir", "",
		"write one file per object into `DIR` (created if missing) instead of stdout, as\n"+
			"helm template --output-dir: NN-kind-name.yaml (or .json), NN the object's place in the\n"+
			"whole stack (helm template's order, hooks included), so a file keeps its name whatever\n"+
			"--show-only or --include-hooks select. It records what it wrote, and for which command\n"+
			"and stack, in DIR/"+chartwrite.ManifestName+", and never replaces or removes another file,\n"+
			"follows a symbolic link or opens a FIFO; a DIR another command or stack wrote (gen chart,\n"+
			"another namespace, a snapshot) is refused, even with --force. A render without --show-only\n"+
			"removes the files it wrote earlier for objects it no longer prints (uninstall hooks an\n"+
			"--include-hooks run wrote included), but a file whose object holds state (an EtcdCluster,\n"+
			"DataStore, EtcdSnapshot, CA Certificate, Issuer or Secret) or is of a kind an API gates\n"+
			"(the CiliumNetworkPolicy, VPA, VMPodScrape, PodMonitor, GrafanaDashboard: a forgotten\n"+
			"--api-versions) only with --prune-unsafe: without it the render exits 3 naming them and\n"+
			"the API to list; the summary names each file removed. A render with --show-only never\n"+
			"removes a file. The\n"+
			"files change as a whole: an error, SIGINT or SIGTERM leaves the old set (or, past the\n"+
			"commit point, the new one), and a run killed midway is undone or finished by the next.\n"+
			"Two runs into one DIR at once take turns (a lock file, DIR/"+chartwrite.LockName+", while\n"+
			"one writes); a run waits at most "+chartwrite.DefaultLockWait.String()+", then fails")
	fs.BoolVar(&o.force, "force", false,
		"with --output-dir: replace or remove regular files etcdshapes did not write or that were\nedited since")
	fs.BoolVar(&o.pruneUnsafe, "prune-unsafe", false,
		"with --output-dir: also remove (or replace) the files of objects that hold state, or are of\n"+
			"a kind an API gates, and that this render no longer prints (an EtcdCluster, DataStore,\n"+
			"EtcdSnapshot, CA Certificate, Issuer or Secret, e.g. a tenant cluster moving to a shared\n"+
			"datastore; a network policy, VPA, scrape or dashboard whose API --api-versions no longer\n"+
			"lists): a GitOps tool that prunes then deletes them")
	fs.StringArrayVarP(&o.showOnly, "show-only", "s", nil,
		"print only the objects `KIND[/NAME]` matches: KIND a kind or resource in any case, as kubectl\n"+
			"get reads it, optionally with its group (EtcdCluster, etcdcluster, certificates.cert-manager.io);\n"+
			"NAME a name or glob (Certificate/*-ca), every object of the kind without one. Repeat for\n"+
			"more; each must match an object (an uninstall hook only with --include-hooks), a KIND\n"+
			"that matches none is refused with the kinds rendered")
	if hooks {
		fs.BoolVar(&o.includeHooks, "include-hooks", false,
			"also print the Helm uninstall hooks (the post-delete cleanup ServiceAccount, Role,\n"+
				"RoleBinding and Job), as helm template does: for golden comparisons and Helm-like diffs,\n"+
				"never for kubectl apply or GitOps, since creating the cleanup Job runs it and it deletes\n"+
				"the etcd's TLS Secrets (and the etcd chart's data volumes). Without it they are left out\n"+
				"and stderr says how many. "+envIncludeHooks+"=1 (or true) in the environment does\n"+
				"the same, for tools that cannot pass the flag; 0, false or empty is the default")
	}
	completeFlag(cmd, "output", outputYAML, outputJSON)
	_ = cmd.MarkFlagDirname("output-dir")
	completeFlag(cmd, "show-only")
}

// printObjects gives cmd the output flags (YAML by default) and, as its
// work, checks them and writes the objects objects returns as they say.
// stack is the caller whose stack the command renders (render
// etcd|cluster): its objects may hold Helm uninstall hooks, so it has
// --include-hooks; "" for the commands that print other objects
// (render snapshot, render check). name names the stack the objects
// belong to, "NAMESPACE/RELEASE", once objects has checked the flags:
// with the command's path it is the owner --output-dir records.
func printObjects(cmd *cobra.Command, e env, stack naming.Caller, name func() string, objects func() ([]etcdshapes.Object, error)) *outputFlags {
	var of outputFlags
	of.register(cmd, outputYAML, stack != "")
	of.stack = stack
	of.owner = func() string { return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ") + " " + name() }
	cmd.RunE = runE(func(*cobra.Command, []string) error {
		if err := of.check(); err != nil {
			return err
		}
		objs, err := objects()
		if err != nil {
			return err
		}
		return of.write(objs, e.stdout, e.stderr)
	})
	return &of
}

// check reports malformed output flags, and resolves --include-hooks: the
// flag when given, else the environment's opt-in.
func (o *outputFlags) check() error {
	if o.format != outputYAML && o.format != outputJSON {
		return usagef("--output must be yaml or json, not %q", o.format)
	}
	if o.force && o.dir == "" {
		return usagef("--force needs --output-dir")
	}
	if o.pruneUnsafe && o.dir == "" {
		return usagef("--prune-unsafe needs --output-dir")
	}
	for _, s := range o.showOnly {
		if _, err := parseSelector(s); err != nil {
			return err
		}
	}
	if o.hooks && !o.flags.Changed("include-hooks") {
		on, err := includeHooksFromEnv()
		if err != nil {
			return err
		}
		// A directory is what a GitOps tool applies, whose sync runs
		// the cleanup Job: only the flag, typed for this run, puts the
		// hooks there, never a variable a shell or CI job kept.
		o.includeHooks = on && o.dir == ""
		o.envHooksIgnored = on && o.dir != ""
	}
	return nil
}

// includeHooksFromEnv reads envIncludeHooks: unset, empty, "0" or "false"
// leave the hooks out, "1" or "true" include them; anything else is a
// usage error, so that a typo ("yes", "ture") never decides silently
// either way.
func includeHooksFromEnv() (bool, error) {
	switch v := os.Getenv(envIncludeHooks); v {
	case "", "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	default:
		return false, usagef("%s=%q: must be 1 or true (print the Helm uninstall hooks, as --include-hooks), or 0, false or empty (leave them out)", envIncludeHooks, v)
	}
}

// write prints objs (selected by --show-only, the uninstall hooks left out
// without --include-hooks) in the format, to stdout or into the output
// directory, then says on stderr which uninstall hooks it left out.
func (o *outputFlags) write(objs []etcdshapes.Object, stdout, stderr io.Writer) error {
	keep, err := o.selectObjects(objs)
	if err != nil {
		return err
	}
	var (
		out      []etcdshapes.Object
		places   []int // each printed object's place in objs
		leftOut  []string
		printed  []string // the uninstall hooks printed
		filtered = len(o.showOnly) > 0
	)
	for i, obj := range objs {
		switch {
		case !keep[i]:
		case !o.includeHooks && etcdshapes.IsUninstallHook(obj):
			leftOut = append(leftOut, objectName(obj))
		default:
			if etcdshapes.IsUninstallHook(obj) {
				printed = append(printed, objectName(obj))
			}
			out = append(out, obj)
			places = append(places, i)
		}
	}
	if len(printed) > 0 && o.dir != "" && o.flags.Changed("include-hooks") {
		// Asked for, but into a directory, which is what a GitOps tool
		// syncs: said on every such run.
		fmt.Fprintln(stderr, invalid.Escape(fmt.Sprintf("etcdshapes: warning: %s holds %d Helm uninstall %s (%s), written because of --include-hooks: never let a GitOps tool or kubectl apply it: creating the cleanup Job runs it, and it deletes %s",
			o.dir, len(printed), map[bool]string{true: "hook", false: "hooks"}[len(printed) == 1], strings.Join(printed, ", "), cleanupDeletesOr(objs))))
	}
	if len(printed) > 0 && !o.flags.Changed("include-hooks") {
		// Turned on by the environment, which a shell keeps for every
		// later command: a pipe into kubectl apply is then the data loss
		// the default avoids, with nothing on the command line to show it.
		fmt.Fprintln(stderr, hooksPrinted(printed, cleanupDeletes(objs)))
	}
	if o.dir != "" {
		err = o.writeDir(out, places, len(objs), filtered, stdout, stderr)
		var es *exitStatus
		if errors.As(err, &es) && es.code != exitError && es.code != exitUnsafe {
			// Stopped by a signal: the hooks' note would only follow it.
			return err
		}
	} else {
		var b []byte
		if o.format == outputJSON {
			b, err = jsonList(out)
		} else {
			b, err = etcdshapes.Marshal(out)
		}
		if err == nil {
			_, err = stdout.Write(b)
		}
	}
	if err != nil {
		return err
	}
	if len(leftOut) > 0 {
		fmt.Fprintln(stderr, hooksLeftOut(leftOut, cleanupDeletes(objs)))
		if o.envHooksIgnored {
			fmt.Fprintln(stderr, "etcdshapes: warning: "+envIncludeHooks+" is ignored with --output-dir: a directory a GitOps tool syncs never holds the uninstall hooks unless --include-hooks is given")
		}
	}
	return nil
}

// hooksLeftOut is the line render prints on stderr when it left out Helm
// uninstall hooks (named KIND/NAME); deletes says what their cleanup
// deletes (cleanupDeletes).
func hooksLeftOut(names []string, deletes string) string {
	noun, them := "hooks", "them"
	if len(names) == 1 {
		noun, them = "hook", "it"
	}
	if deletes == "" {
		deletes = "what its Role allows"
	}
	return invalid.Escape(fmt.Sprintf("etcdshapes: left out %d Helm uninstall %s (%s): helm install never creates %s, and applying %s runs the cleanup, which deletes %s; --include-hooks prints %s",
		len(names), noun, strings.Join(names, ", "), them, them, deletes, them))
}

// hooksPrinted is the warning render prints on stderr when the
// environment (envIncludeHooks) put Helm uninstall hooks (named
// KIND/NAME) into its output: what applying them deletes.
func hooksPrinted(names []string, deletes string) string {
	if deletes == "" {
		deletes = "what its Role allows"
	}
	return invalid.Escape(fmt.Sprintf("etcdshapes: warning: the output holds %d Helm uninstall %s (%s), printed because %s is set: never apply it (kubectl apply, a GitOps tool): creating the cleanup Job runs it, and it deletes %s; --include-hooks=false leaves them out",
		len(names), map[bool]string{true: "hook", false: "hooks"}[len(names) == 1], strings.Join(names, ", "), envIncludeHooks+"="+os.Getenv(envIncludeHooks), deletes))
}

// cleanupDeletesOr is cleanupDeletes, or what a Role allows when it says
// nothing.
func cleanupDeletesOr(objs []etcdshapes.Object) string {
	if d := cleanupDeletes(objs); d != "" {
		return d
	}
	return "what its Role allows"
}

// cleanupDeletes says what the cleanup of objs' uninstall hooks deletes,
// read from the hooks themselves: every rule of an uninstall hook's Role
// that grants delete, resource by resource, with the names it is limited
// to ("the etcd members' data volumes (PersistentVolumeClaims data-etcd-0,
// data-etcd-1, data-etcd-2) and the TLS Secrets etcd-peer-ca-tls, …"); ""
// when none does.
func cleanupDeletes(objs []etcdshapes.Object) string {
	var parts []string
	for _, o := range objs {
		if !etcdshapes.IsUninstallHook(o) {
			continue
		}
		role, ok := asRole(o)
		if !ok {
			continue
		}
		for _, r := range role.Rules {
			if !slices.Contains(r.Verbs, "delete") && !slices.Contains(r.Verbs, "*") {
				continue
			}
			for _, res := range r.Resources {
				parts = append(parts, deletedResource(res, r.ResourceNames))
			}
		}
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// deletedResource names what a delete rule on res, limited to names (none:
// every one), deletes.
func deletedResource(res string, names []string) string {
	what := map[string]string{
		"persistentvolumeclaims": "the etcd members' data volumes (PersistentVolumeClaims %s)",
		"secrets":                "the TLS Secrets %s (the CAs' included)",
	}[res]
	if what == "" {
		what = "the " + res + " %s"
	}
	list := "(any)"
	if len(names) > 0 {
		list = strings.Join(names, ", ")
	}
	if res == "secrets" && !slices.ContainsFunc(names, func(n string) bool { return strings.HasSuffix(n, "-ca-tls") }) {
		what = "the TLS Secrets %s"
	}
	return fmt.Sprintf(what, list)
}

// asRole reads an object as an rbac/v1 Role, typed or unstructured.
func asRole(o etcdshapes.Object) (*rbacv1.Role, bool) {
	switch t := o.(type) {
	case *rbacv1.Role:
		return t, true
	case *unstructured.Unstructured:
		if t.GroupVersionKind() != rbacv1.SchemeGroupVersion.WithKind("Role") {
			return nil, false
		}
		var r rbacv1.Role
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(t.Object, &r); err != nil {
			return nil, false
		}
		return &r, true
	}
	return nil, false
}

// objectName is KIND/NAME, as --show-only and the messages name objects.
func objectName(o etcdshapes.Object) string {
	return o.GetObjectKind().GroupVersionKind().Kind + "/" + o.GetName()
}

// selector is one --show-only KIND or KIND/NAME; a bare KIND is
// KIND/*, every object of the kind.
type selector struct {
	arg, kind, group, name string
}

func parseSelector(s string) (selector, error) {
	kind, name, ok := strings.Cut(s, "/")
	if !ok {
		name = "*"
	}
	if kind == "" || name == "" || strings.Contains(name, "/") {
		return selector{}, usagef("--show-only %s must be KIND or KIND/NAME, e.g. EtcdCluster, EtcdCluster/etcd or 'Certificate/*-ca'", invalid.FormatValue(s))
	}
	sel := selector{arg: s, kind: strings.ToLower(kind), name: name}
	sel.kind, sel.group, _ = strings.Cut(sel.kind, ".")
	for _, p := range []string{sel.kind, sel.name} {
		if _, err := path.Match(p, ""); err != nil {
			return selector{}, usagef("--show-only %q: %v", s, err)
		}
	}
	return sel, nil
}

func (s selector) matches(o etcdshapes.Object) bool {
	name, _ := path.Match(s.name, o.GetName())
	return name && s.matchesKind(o.GetObjectKind().GroupVersionKind())
}

// matchesKind reports whether the selector's KIND (and group, if it has
// one) is gvk's: its kind or its resource, in any case, as kubectl get
// reads a kind.
func (s selector) matchesKind(gvk schema.GroupVersionKind) bool {
	if s.group != "" && s.group != gvk.Group {
		return false
	}
	kind, _ := path.Match(s.kind, strings.ToLower(gvk.Kind))
	gvr, known := etcdshapes.ResourceFor(gvk)
	resource, _ := path.Match(s.kind, gvr.Resource)
	return kind || known && resource
}

// selectObjects says which objects any --show-only matches (all without
// one). A selector that matches nothing is an error listing what was
// rendered; one that matches only Helm uninstall hooks, without
// --include-hooks, is an error saying so: it would print nothing.
func (o *outputFlags) selectObjects(objs []etcdshapes.Object) ([]bool, error) {
	keep := make([]bool, len(objs))
	if len(o.showOnly) == 0 {
		for i := range keep {
			keep[i] = true
		}
		return keep, nil
	}
	for _, arg := range o.showOnly {
		sel, err := parseSelector(arg)
		if err != nil {
			return nil, err
		}
		var found, hooks []string
		for i, obj := range objs {
			if !sel.matches(obj) {
				continue
			}
			keep[i] = true
			if etcdshapes.IsUninstallHook(obj) {
				hooks = append(hooks, objectName(obj))
			} else {
				found = append(found, objectName(obj))
			}
		}
		switch {
		case len(found) == 0 && len(hooks) > 0 && !o.includeHooks:
			return nil, invalid.Errorf("--show-only", arg, "matches only Helm uninstall hooks (%s), which render leaves out because applying them runs the cleanup: add --include-hooks to print them", strings.Join(hooks, ", "))
		case len(found) == 0 && len(hooks) == 0:
			return nil, o.noMatch(sel, objs)
		}
	}
	return keep, nil
}

// noMatch is the refusal of a selector that matches none of objs: when
// its KIND is none of their kinds, it lists their kinds (as Kubernetes
// spells them, sorted) and says why a kind of the stack is left out (an
// optional API not served); when its NAME is the mismatch, it lists the
// objects of that kind. Without --include-hooks the Helm uninstall hooks
// are not what the render prints: their kinds and objects are listed
// apart, as what --include-hooks adds.
func (o *outputFlags) noMatch(sel selector, objs []etcdshapes.Object) error {
	if len(objs) == 0 {
		return invalid.Errorf("--show-only", sel.arg, "matches no object: nothing was rendered")
	}
	var kinds, hookKinds, ofKind, hooksOfKind []string
	for _, obj := range objs {
		gvk := obj.GetObjectKind().GroupVersionKind()
		k, of := &kinds, &ofKind
		if !o.includeHooks && etcdshapes.IsUninstallHook(obj) {
			k, of = &hookKinds, &hooksOfKind
		}
		if !slices.Contains(*k, gvk.Kind) {
			*k = append(*k, gvk.Kind)
		}
		if sel.matchesKind(gvk) {
			*of = append(*of, objectName(obj))
		}
	}
	hooks := func(what []string) string {
		if len(what) == 0 {
			return ""
		}
		return "; its Helm uninstall hooks, which render leaves out without --include-hooks: " + strings.Join(what, ", ")
	}
	if len(ofKind)+len(hooksOfKind) > 0 {
		rendered := "rendered of that kind: " + strings.Join(ofKind, ", ")
		if len(ofKind) == 0 {
			rendered = "the render holds none of that kind"
		}
		return invalid.Errorf("--show-only", sel.arg, "matches no rendered object; %s%s", rendered, hooks(hooksOfKind))
	}
	slices.Sort(kinds)
	slices.Sort(hookKinds)
	why := ""
	for _, sh := range etcdshapes.Shapes() {
		optional := sh.API != "" && slices.Contains(sh.Callers, o.stack) && !slices.Contains(sh.AlwaysFor, o.stack)
		if optional && !slices.Contains(kinds, sh.Kind.Kind) && sel.matchesKind(sh.Kind) {
			why = fmt.Sprintf(" (the %s stack renders %s only where its API is served: --api-versions %s)", o.stack, sh.Kind.Kind, sh.API)
			break
		}
	}
	return invalid.Errorf("--show-only", sel.arg, "names no kind this render holds%s; its kinds: %s%s", why, strings.Join(kinds, ", "), hooks(hookKinds))
}

// jsonList prints objs as one v1 List, indented as kubectl prints it; each
// item is the YAML document Marshal prints, as JSON.
func jsonList(objs []etcdshapes.Object) ([]byte, error) {
	items := make([]json.RawMessage, len(objs))
	for i, obj := range objs {
		b, err := objectJSON(obj)
		if err != nil {
			return nil, err
		}
		items[i] = b
	}
	b, err := json.MarshalIndent(struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Items      []json.RawMessage `json:"items"`
	}{"v1", "List", items}, "", "    ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// objectJSON is the object's YAML document (Marshal's, so the same fields
// and values) as JSON.
func objectJSON(obj etcdshapes.Object) ([]byte, error) {
	doc, err := etcdshapes.MarshalObject(obj)
	if err != nil {
		return nil, err
	}
	return yaml.YAMLToJSON(doc)
}

// writeDir writes one file per object into the output directory through
// chartwrite: only files it wrote before (its manifest says which) are
// replaced, and removed only by a render that is not filtered; one whose
// object holds state and leaves the directory only with --prune-unsafe. Each file
// is numbered by its object's place in the whole stack of total objects,
// so that it keeps its name whatever --show-only and --include-hooks
// select (a filtered render replaces the very file a whole one wrote).
func (o *outputFlags) writeDir(objs []etcdshapes.Object, places []int, total int, filtered bool, stdout, stderr io.Writer) error {
	width := max(2, len(strconv.Itoa(total-1)))
	files := make([]chartwrite.File, len(objs))
	for i, obj := range objs {
		var (
			data []byte
			err  error
		)
		if o.format == outputJSON {
			if data, err = objectJSON(obj); err == nil {
				var indented []byte
				if indented, err = indentJSON(data); err == nil {
					data = indented
				}
			}
		} else {
			data, err = etcdshapes.Marshal([]etcdshapes.Object{obj})
		}
		if err != nil {
			return err
		}
		kind := strings.ToLower(obj.GetObjectKind().GroupVersionKind().Kind)
		files[i] = chartwrite.File{Path: fmt.Sprintf("%0*d-%s-%s.%s", width, places[i], kind, obj.GetName(), o.format), Data: data}
	}
	var served []string
	if o.served != nil {
		served = o.served()
	}
	review := newPruneReview(objs, files, o.stack, served, !o.pruneUnsafe)
	opts := chartwrite.Options{Force: o.force, Partial: filtered, Owner: o.owner(), Adopts: adoptsRender, Approve: review.approve}
	return writeDirectory("--output-dir", o.dir, files, opts, nil, review.removed, stdout, stderr)
}

func indentJSON(b []byte) ([]byte, error) {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "    "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// maxRemovedListed is how many removed files the summary names one by
// one; the manifest lists them all before the write.
const maxRemovedListed = 20

// reportWritten says what chartwrite did: the paths it left on stderr, a
// summary on stdout, and a line for each file it removed (the first
// maxRemovedListed), with what became of its objects where removed says
// (render: now in another file, or no longer rendered).
func reportWritten(dir string, res chartwrite.Result, detail string, removed func(string) string, stdout, stderr io.Writer) error {
	for _, n := range res.Left {
		sayf(stderr, "left %s: %s", filepath.Join(dir, filepath.FromSlash(n.Path)), n.Reason)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "wrote %d %s to %s, %d unchanged", len(res.Written), plural(len(res.Written), "file", "files"), dir, len(res.Unchanged))
	if detail != "" {
		fmt.Fprintf(&b, " (%s)", detail)
	}
	if len(res.Removed) > 0 {
		fmt.Fprintf(&b, ", removed %d stale generated %s", len(res.Removed), plural(len(res.Removed), "file", "files"))
	}
	if res.ManifestCreated {
		fmt.Fprintf(&b, "; recorded them in %s", filepath.Join(dir, chartwrite.ManifestName))
	}
	lines := []string{b.String()}
	for i, p := range res.Removed {
		if i == maxRemovedListed {
			lines = append(lines, fmt.Sprintf("  and %d more removed", len(res.Removed)-maxRemovedListed))
			break
		}
		line := "  removed " + filepath.Join(dir, filepath.FromSlash(p))
		if removed != nil {
			if fate := removed(p); fate != "" {
				line += ": " + fate
			}
		}
		lines = append(lines, line)
	}
	for i, l := range lines {
		lines[i] = invalid.Escape(l)
	}
	_, err := io.WriteString(stdout, strings.Join(lines, "\n")+"\n")
	return err
}

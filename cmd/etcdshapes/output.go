package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/etcdshapes/etcdshapes/invalid"
	"io"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"
)

// Output formats of render.
const (
	outputYAML = "yaml"
	outputJSON = "json"
)

// outputFlags say how render prints its objects: the format, a directory
// instead of stdout, and which objects.
type outputFlags struct {
	format   string
	dir      string
	showOnly []string
	force    bool
}

func (o *outputFlags) register(cmd *cobra.Command, def string) {
	fs := cmd.Flags()
	fs.StringVarP(&o.format, "output", "o", def,
		"output `FORMAT`: yaml (multi-document) or json (one v1 List, as kubectl get -o json prints)")
	fs.StringVar(&o.dir, "output-dir", "",
		"write one file per object into `DIR` (created if missing) instead of stdout, as\n"+
			"helm template --output-dir: NN-kind-name.yaml (or .json), NN the install order. It records\n"+
			"what it wrote in DIR/"+chartwrite.ManifestName+" and never replaces or removes another file,\n"+
			"follows a symbolic link or opens a FIFO; files it wrote and no longer renders are removed")
	fs.BoolVar(&o.force, "force", false,
		"with --output-dir: replace or remove regular files etcdshapes did not write or that were\nedited since")
	fs.StringArrayVarP(&o.showOnly, "show-only", "s", nil,
		"print only the objects `KIND/NAME` matches: KIND a kind or resource, any case, optionally\n"+
			"with its group (Certificate, certificates.cert-manager.io); NAME a name or glob\n"+
			"(Certificate/*-ca). Repeat for more; each must match an object")
	_ = cmd.RegisterFlagCompletionFunc("output", fixedCompletion(outputYAML, outputJSON))
	_ = cmd.MarkFlagDirname("output-dir")
	_ = cmd.RegisterFlagCompletionFunc("show-only", cobra.NoFileCompletions)
}

// printObjects gives cmd the output flags (YAML by default) and, as its
// work, checks them and writes the objects objects returns as they say.
func printObjects(cmd *cobra.Command, e env, objects func() ([]etcdshapes.Object, error)) {
	var of outputFlags
	of.register(cmd, outputYAML)
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
}

// check reports malformed output flags.
func (o *outputFlags) check() error {
	if o.format != outputYAML && o.format != outputJSON {
		return usagef("--output must be yaml or json, not %q", o.format)
	}
	if o.force && o.dir == "" {
		return usagef("--force needs --output-dir")
	}
	for _, s := range o.showOnly {
		if _, err := parseSelector(s); err != nil {
			return err
		}
	}
	return nil
}

// write prints objs (selected by --show-only) in the format, to stdout or
// into the output directory.
func (o *outputFlags) write(objs []etcdshapes.Object, stdout, stderr io.Writer) error {
	objs, err := o.selectObjects(objs)
	if err != nil {
		return err
	}
	if o.dir != "" {
		return o.writeDir(objs, stdout, stderr)
	}
	var out []byte
	if o.format == outputJSON {
		out, err = jsonList(objs)
	} else {
		out, err = etcdshapes.Marshal(objs)
	}
	if err != nil {
		return err
	}
	_, err = stdout.Write(out)
	return err
}

// selector is one --show-only KIND/NAME.
type selector struct {
	arg, kind, group, name string
}

func parseSelector(s string) (selector, error) {
	kind, name, ok := strings.Cut(s, "/")
	if !ok || kind == "" || name == "" || strings.Contains(name, "/") {
		return selector{}, usagef("--show-only %q must be KIND/NAME, e.g. EtcdCluster/etcd or 'Certificate/*'", s)
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
	gvk := o.GetObjectKind().GroupVersionKind()
	if s.group != "" && s.group != gvk.Group {
		return false
	}
	kind, _ := path.Match(s.kind, strings.ToLower(gvk.Kind))
	resource, _ := path.Match(s.kind, etcdshapes.ResourceFor(gvk).Resource)
	name, _ := path.Match(s.name, o.GetName())
	return (kind || resource) && name
}

// selectObjects keeps the objects any --show-only matches, in order; a
// selector that matches nothing is an error listing what was rendered.
func (o *outputFlags) selectObjects(objs []etcdshapes.Object) ([]etcdshapes.Object, error) {
	if len(o.showOnly) == 0 {
		return objs, nil
	}
	keep := make([]bool, len(objs))
	for _, arg := range o.showOnly {
		sel, err := parseSelector(arg)
		if err != nil {
			return nil, err
		}
		found := false
		for i, obj := range objs {
			if sel.matches(obj) {
				keep[i], found = true, true
			}
		}
		if !found {
			rendered := make([]string, len(objs))
			for i, obj := range objs {
				rendered[i] = obj.GetObjectKind().GroupVersionKind().Kind + "/" + obj.GetName()
			}
			if len(rendered) == 0 {
				return nil, invalid.Errorf("--show-only", arg, "matches no object: nothing was rendered")
			}
			return nil, invalid.Errorf("--show-only", arg, "matches no rendered object; rendered: %s", strings.Join(rendered, ", "))
		}
	}
	var out []etcdshapes.Object
	for i, obj := range objs {
		if keep[i] {
			out = append(out, obj)
		}
	}
	return out, nil
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
// replaced or removed.
func (o *outputFlags) writeDir(objs []etcdshapes.Object, stdout, stderr io.Writer) error {
	width := max(2, len(strconv.Itoa(len(objs)-1)))
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
		files[i] = chartwrite.File{Path: fmt.Sprintf("%0*d-%s-%s.%s", width, i, kind, obj.GetName(), o.format), Data: data}
	}
	res, err := chartwrite.Write(o.dir, files, chartwrite.Options{Force: o.force})
	if err != nil {
		var refused *chartwrite.RefusedError
		if errors.As(err, &refused) {
			for _, r := range refused.Refusals {
				r.Field = "output-dir"
			}
			sayErr(stderr, err)
			sayf(stderr, "nothing was written to %s", o.dir)
			return &exitStatus{exitError}
		}
		var ne *invalid.Error
		if errors.As(err, &ne) && ne.Field == chartwrite.Field {
			ne.Field = "output-dir"
		}
		return err
	}
	return reportWritten(o.dir, res, "", stdout, stderr)
}

func indentJSON(b []byte) ([]byte, error) {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "    "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// reportWritten says what chartwrite did: the paths it left on stderr, a
// summary on stdout.
func reportWritten(dir string, res chartwrite.Result, detail string, stdout, stderr io.Writer) error {
	for _, n := range res.Left {
		sayf(stderr, "left %s: %s", filepath.Join(dir, filepath.FromSlash(n.Path)), n.Reason)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "wrote %d files to %s, %d unchanged", len(res.Written), dir, len(res.Unchanged))
	if detail != "" {
		fmt.Fprintf(&b, " (%s)", detail)
	}
	if len(res.Removed) > 0 {
		fmt.Fprintf(&b, ", removed %d stale generated files", len(res.Removed))
	}
	if res.ManifestCreated {
		fmt.Fprintf(&b, "; recorded them in %s", filepath.Join(dir, chartwrite.ManifestName))
	}
	_, err := io.WriteString(stdout, invalid.Escape(b.String())+"\n")
	return err
}

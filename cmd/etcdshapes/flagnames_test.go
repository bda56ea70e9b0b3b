package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// badFlag is a bad value of one flag: the arguments that give it, and the
// base arguments of the command it replaces (a --schedule replaces
// --name).
type badFlag struct {
	args []string
	drop []string
	// none says why the flag has no value to refuse (a boolean whose
	// misuse another flag's message names).
	none string
}

// TestEveryFlagErrorNamesTheFlag: for every flag of every command, a bad
// value is reported on stderr naming the flag as typed ("--chart-version:
// invalid value ..."), never by the library's name of what it sets
// ("chartVersion", "destination.s3.bucket", "live.dataStoreName",
// "apiVersions"). The table must list every flag the commands register,
// walked from the root command; a flag with no value to refuse says why.
func TestEveryFlagErrorNamesTheFlag(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "live.yaml")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// The base arguments of each command, which it accepts.
	base := map[string][]string{
		"render etcd":             {"-n", "tenant-root"},
		"render cluster":          {"-n", "tenant-demo", "--release", "kubernetes-demo"},
		"plan etcd":               {"-n", "tenant-root", "--live", empty},
		"plan cluster":            {"-n", "tenant-demo", "--release", "kubernetes-demo", "--live", empty},
		"render snapshot etcd":    {"-n", "tenant-root", "--name", "a", "--pvc", "backups"},
		"render snapshot cluster": {"-n", "tenant-demo", "--release", "kubernetes-demo", "--name", "a", "--pvc", "backups"},
		"render check etcd":       {"-n", "tenant-root"},
		"render check cluster":    {"-n", "tenant-demo", "--release", "kubernetes-demo"},
		"gen chart":               {"--caller", "etcd", "--out", filepath.Join(dir, "chart")},
		"version":                 {},
	}
	s3 := func(flag, value string) badFlag {
		good := map[string]string{"--s3-endpoint": "https://s3.example.com", "--s3-bucket": "etcd-backups", "--s3-credentials-secret": "s3"}
		good[flag] = value
		var args []string
		for _, f := range []string{"--s3-endpoint", "--s3-bucket", "--s3-credentials-secret", "--s3-key", "--s3-region"} {
			if v, ok := good[f]; ok {
				args = append(args, f, v)
			}
		}
		return badFlag{args: args, drop: []string{"--pvc"}}
	}
	boolean := func(why string) badFlag { return badFlag{none: why} }
	bad := map[string]badFlag{
		"namespace":             {args: []string{"--namespace", "Bad"}},
		"release":               {args: []string{"--release", "Bad_"}},
		"chart-version":         {args: []string{"--chart-version", "1.x"}},
		"values":                {args: []string{"--values", filepath.Join(dir, "missing.yaml")}},
		"set":                   {args: []string{"--set", "a"}},
		"set-string":            {args: []string{"--set-string", "a"}},
		"set-file":              {args: []string{"--set-file", "a=" + filepath.Join(dir, "missing")}},
		"set-json":              {args: []string{"--set-json", "a={"}},
		"set-literal":           {args: []string{"--set-literal", "a"}},
		"api-versions":          {args: []string{"--api-versions", "not an api"}}, // a warning: nothing is refused
		"live-datastore":        {args: []string{"--live-datastore", "Bad_"}},
		"live-storage-class":    {args: []string{"--live-storage-class", "Bad_"}},
		"output":                {args: []string{"--output", "xml"}},
		"output-dir":            {args: []string{"--output-dir", "/dev/null/x"}},
		"show-only":             {args: []string{"--show-only", "a/b/c"}},
		"force":                 {args: []string{"--force"}},
		"prune-unsafe":          {args: []string{"--prune-unsafe"}},
		"include-hooks":         boolean("a boolean: every value is valid"),
		"live":                  {args: []string{"--live", filepath.Join(dir, "missing-live.yaml")}},
		"restore-from":          {args: []string{"--restore-from", filepath.Join(dir, "missing-snapshots.yaml")}},
		"restore-snapshot":      {args: []string{"--restore-snapshot", "nightly-0"}}, // without --restore-from
		"field-manager":         {args: []string{"--field-manager", "a\tb"}},
		"expect-existing":       {args: []string{"--expect-existing"}},
		"fresh-install":         {args: []string{"--fresh-install", "--expect-existing"}},
		"load":                  {args: []string{"--load", "q"}},
		"size":                  {args: []string{"--size", "1x"}},
		"etcd-version":          {args: []string{"--etcd-version", "3.x"}},
		"image":                 {args: []string{"--image", "A:b:c"}},
		"datascale":             boolean("a boolean: every value is valid (the load it adds is refused as --load)"),
		"name":                  {args: []string{"--name", "Bad_"}},
		"schedule":              {args: []string{"--schedule", "x"}, drop: []string{"--name"}},
		"keep":                  {args: []string{"--schedule", "0 3 * * *", "--keep", "1"}, drop: []string{"--name"}},
		"s3-endpoint":           s3("--s3-endpoint", "minio:9000"),
		"s3-bucket":             s3("--s3-bucket", "192.168.1.1"),
		"s3-credentials-secret": s3("--s3-credentials-secret", "Bad_"),
		"s3-key":                s3("--s3-key", "k"),
		"s3-region":             s3("--s3-region", "a b"),
		"s3-force-path-style":   boolean("a boolean: every value is valid"),
		"pvc":                   {args: []string{"--pvc", "Bad_"}},
		"pvc-subpath":           {args: []string{"--pvc-subpath", "/abs"}},
		"caller":                {args: []string{"--caller", "foo"}},
		"library":               boolean("a boolean: with --caller, the refusal names --caller"),
		"out":                   {args: []string{"--out", "/dev/null/x"}},
		"version":               boolean("a boolean: prints the version"),
		"no-descriptions":       boolean("a boolean of completion"),
	}
	// gen chart's --force is valid alone.
	genForce := boolean("valid alone: gen chart's --force needs no other flag")

	root := newRootCmd(env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
	type flagOf struct{ command, flag string }
	var all []flagOf
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" {
				all = append(all, flagOf{strings.TrimPrefix(c.CommandPath(), "etcdshapes "), f.Name})
			}
		})
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	sort.Slice(all, func(i, j int) bool { return all[i].command+all[i].flag < all[j].command+all[j].flag })
	if len(all) < 100 {
		t.Fatalf("only %d flags found", len(all))
	}
	for _, f := range all {
		b, ok := bad[f.flag]
		if f.command == "gen chart" && f.flag == "force" {
			b = genForce
		}
		if !ok {
			t.Errorf("%s --%s: the table has no bad value of it", f.command, f.flag)
			continue
		}
		if b.none != "" {
			continue
		}
		args, ok := base[f.command]
		if !ok {
			t.Errorf("%s --%s: the table has no base arguments of the command", f.command, f.flag)
			continue
		}
		t.Run(f.command+" --"+f.flag, func(t *testing.T) {
			line := append(strings.Fields(f.command), without(args, b.drop)...)
			line = append(line, b.args...)
			_, _, stderr := cli(t, "", line...)
			named := regexp.MustCompile(`(^|[^-\w])--` + regexp.QuoteMeta(f.flag) + `([^-\w]|$)`)
			for _, l := range strings.Split(stderr, "\n") {
				if strings.HasPrefix(l, "etcdshapes: ") && named.MatchString(l) {
					return
				}
			}
			t.Fatalf("%q: no line of stderr names --%s:\n%s", line, f.flag, stderr)
		})
	}
}

// without is args less the flags in drop and their values.
func without(args, drop []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if slices.Contains(drop, args[i]) {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

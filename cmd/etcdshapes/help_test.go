package main

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/internal/doccheck"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHelp: every command answers -h, -help and --help with its own usage
// on stdout, nothing on stderr, and exit 0.
func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		path []string // the command, before the help flag
		want []string // its synopsis and flags that only its usage shows
		not  []string // what another command's usage would show
	}{
		{nil, []string{"Usage:", "etcdshapes render etcd ", "etcdshapes gen chart", "etcdshapes plan etcd|cluster",
			"etcdshapes render snapshot cluster RELEASE --namespace NS", "--live-storage-class NAME"}, nil},
		{[]string{"render"}, []string{"etcdshapes render etcd ", "etcdshapes render cluster ",
			"etcdshapes render snapshot cluster RELEASE --namespace NS", "etcdshapes render check etcd|cluster", "--api-versions GROUP/VERSION/Kind", "--set KEY=VALUE",
			"Available Commands:"}, []string{"etcdshapes plan", "etcdshapes gen"}},
		{[]string{"render", "etcd"}, []string{"etcdshapes render etcd ", "--namespace NS", "--chart-version V", "(default 0.0.0)", "(the VPA and VMPodScrape always)", "--live FILE"},
			[]string{"etcdshapes render cluster", "--live-datastore"}},
		{[]string{"render", "cluster"}, []string{"etcdshapes render cluster RELEASE --namespace NS", "--api-versions API", "--live-storage-class NAME", "--live FILE"},
			[]string{"etcdshapes render etcd"}},
		{[]string{"render", "snapshot"}, []string{"etcdshapes render snapshot etcd ", "etcdshapes render snapshot cluster ", "--schedule", "--s3-endpoint"}, nil},
		{[]string{"render", "snapshot", "etcd"}, []string{"etcdshapes render snapshot etcd ", "--keep N", "--pvc CLAIM", "(default 7)"},
			[]string{"etcdshapes render snapshot cluster"}},
		{[]string{"render", "snapshot", "cluster"}, []string{"etcdshapes render snapshot cluster RELEASE --namespace NS --name NAME", "--s3-bucket"},
			[]string{"etcdshapes render snapshot etcd", "[RELEASE]"}},
		{[]string{"render", "check"}, []string{"etcdshapes render check etcd ", "etcdshapes render check cluster ", "--datascale", "no ServiceAccount, Role or RoleBinding"}, nil},
		{[]string{"render", "check", "etcd"}, []string{"etcdshapes render check etcd ", "--load MODEL", "--etcd-version X.Y.Z", "--size QUANTITY", "--image IMAGE", `(default "s")`},
			[]string{"etcdshapes render check cluster"}},
		{[]string{"render", "check", "cluster"}, []string{"etcdshapes render check cluster RELEASE --namespace NS", "--datascale", "--load MODEL"},
			[]string{"etcdshapes render check etcd", "--etcd-version", "--size"}},
		{[]string{"plan"}, []string{"etcdshapes plan etcd ", "etcdshapes plan cluster ", "--live FILE", "Exit status"}, nil},
		{[]string{"plan", "etcd"}, []string{"etcdshapes plan etcd ", "--live FILE", "--output", "--namespace NS"},
			[]string{"etcdshapes plan cluster", "--live-datastore NAME"}},
		{[]string{"plan", "cluster"}, []string{"etcdshapes plan cluster RELEASE --live FILE --namespace NS", "--live-datastore NAME", "--output"},
			[]string{"etcdshapes plan etcd"}},
		{[]string{"gen"}, []string{"etcdshapes gen chart --caller etcd|cluster --out DIR", "--library"}, nil},
		{[]string{"gen", "chart"}, []string{"etcdshapes gen chart --caller etcd|cluster --out DIR", "--library", "--out DIR", "(default 0.0.0)", "--force", ".etcdshapes-generated", "Exit status"}, nil},
	} {
		for _, h := range []string{"-h", "-help", "--help"} {
			args := append(append([]string{}, tc.path...), h)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				code := run(args, strings.NewReader(""), &stdout, &stderr)
				require.Equal(t, 0, code, "stderr: %s", stderr.String())
				assert.Empty(t, stderr.String())
				out := stdout.String()
				require.NotEmpty(t, out)
				assert.Contains(t, out, "Usage:")
				for _, w := range tc.want {
					assert.Contains(t, out, w)
				}
				for _, n := range tc.not {
					assert.NotContains(t, out, n)
				}
			})
		}
	}
	// Help after other flags is still help.
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"render", "cluster", "-n", "tenant-demo", "--help"}, strings.NewReader(""), &stdout, &stderr))
	assert.Contains(t, stdout.String(), "etcdshapes render cluster RELEASE --namespace NS")
	assert.Empty(t, stderr.String())
}

// TestUsageErrorsGoToStderr: an unknown flag or subcommand exits 2 with the
// error and usage (or a pointer to --help) on stderr and nothing on stdout.
func TestUsageErrorsGoToStderr(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // the error
		help string // the usage, or the --help to run
	}{
		{[]string{"--bogus"}, "unknown flag: --bogus", "etcdshapes --help"},
		{[]string{"draw"}, `unknown command "draw" for "etcdshapes"`, "etcdshapes --help"},
		{[]string{"rendr"}, "Did you mean this?", "etcdshapes --help"},
		{[]string{"render", "etcd", "-namespace"}, "flag needs an argument: --namespace", "etcdshapes render etcd --help"},
		{[]string{"render", "etcd", "-x"}, "unknown shorthand flag: 'x' in -x", "etcdshapes render etcd --help"},
		{[]string{"render", "etcd", "-n", "tenant-root", "-o", "xml"}, `--output must be yaml or json, not "xml"`, "etcdshapes render etcd --help"},
		{[]string{"render", "etcd", "-n", "tenant-root", "--force"}, "--force needs --output-dir", "etcdshapes render etcd --help"},
		{[]string{"render", "etcd", "-n", "tenant-root", "--show-only", "EtcdCluster/"}, `--show-only "EtcdCluster/" must be KIND or KIND/NAME`, "etcdshapes render etcd --help"},
		{[]string{"render", "etcd", "-n", "tenant-root", "--show-only", "/etcd"}, `--show-only "/etcd" must be KIND or KIND/NAME`, "etcdshapes render etcd --help"},
		{[]string{"render", "etcd", "-n", "tenant-root", "--show-only", ""}, `--show-only is empty, where KIND[/NAME] is expected`, "etcdshapes render etcd --help"},
		{[]string{"render", "etcd", "-n", "tenant-root", "--show-only", "Secret/a/b"}, `--show-only "Secret/a/b" must be KIND or KIND/NAME`, "etcdshapes render etcd --help"},
		{[]string{"render", "etcd", "-n", "tenant-root", "--show-only", "[x"}, "syntax error in pattern", "etcdshapes render etcd --help"},
		{[]string{"render", "etcd", "-n", "tenant-root", "--show-only", "EtcdCluster/[x"}, "syntax error in pattern", "etcdshapes render etcd --help"},
		{[]string{"render", "etcd", "-n", "tenant-root", "-f", "-", "--set-file", "a=-"}, `stdin ("-") can be read by one input only, not by -f and --set-file`, "etcdshapes render etcd --help"},
		{[]string{"version", "extra"}, `unexpected argument "extra"`, "etcdshapes version --help"},
		{[]string{"version", "-o", "yaml"}, `--output must be text or json, not "yaml"`, "etcdshapes version --help"},
		{[]string{"help", "draw"}, `unknown help topic "draw"`, "etcdshapes help --help"},
		{[]string{"completion", "tcsh"}, `unknown command "tcsh" for "etcdshapes completion"`, "etcdshapes completion --help"},
		{[]string{"render", "--bogus"}, `unknown caller "--bogus"`, "etcdshapes render --help"},
		{[]string{"render", "etcd", "--bogus"}, "unknown flag: --bogus", "etcdshapes render etcd --help"},
		{[]string{"render", "cluster", "--bogus"}, "unknown flag: --bogus", "etcdshapes render cluster --help"},
		{[]string{"render", "cluster", "-n", "tenant-demo"}, "--release is required for render cluster", "etcdshapes render cluster --help"},
		{[]string{"render", "snapshot", "--bogus"}, `unknown caller "--bogus"`, "etcdshapes render snapshot --help"},
		{[]string{"render", "snapshot", "etcd", "--bogus"}, "unknown flag: --bogus", "etcdshapes render snapshot etcd --help"},
		{[]string{"render", "snapshot", "cluster", "--bogus"}, "unknown flag: --bogus", "etcdshapes render snapshot cluster --help"},
		{[]string{"render", "check", "--bogus"}, `unknown caller "--bogus"`, "etcdshapes render check --help"},
		{[]string{"render", "check", "etcd", "--bogus"}, "unknown flag: --bogus", "etcdshapes render check etcd --help"},
		{[]string{"render", "check", "cluster", "--bogus"}, "unknown flag: --bogus", "etcdshapes render check cluster --help"},
		{[]string{"plan", "--bogus"}, `unknown caller "--bogus"`, "etcdshapes plan --help"},
		{[]string{"plan", "etcd", "--bogus"}, "unknown flag: --bogus", "etcdshapes plan etcd --help"},
		{[]string{"plan", "cluster", "--bogus"}, "unknown flag: --bogus", "etcdshapes plan cluster --help"},
		{[]string{"gen", "--bogus"}, `unknown gen target "--bogus"`, "etcdshapes gen --help"},
		{[]string{"gen", "chart", "--bogus"}, "unknown flag: --bogus", "etcdshapes gen chart --help"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, 2, code)
			assert.Empty(t, stdout.String())
			assert.True(t, strings.HasPrefix(stderr.String(), "etcdshapes: "), "stderr: %q", stderr.String())
			assert.Contains(t, stderr.String(), tc.want)
			assert.Contains(t, stderr.String(), tc.help)
		})
	}
}

// TestHelpAppliesAsThePlanPredicts: every kubectl apply command a help
// text shows applies as the plan predicts (doccheck.ApplyCommandProblems,
// which the documents pass too): server-side, as the plan's field
// manager (NAME for --field-manager's), with force.
func TestHelpAppliesAsThePlanPredicts(t *testing.T) {
	root := newRootCmd(env{})
	root.InitDefaultHelpCmd()
	commands := 0
	for _, path := range commandPaths(root, nil) {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, run(append(append([]string{}, path...), "--help"), strings.NewReader(""), &stdout, &stderr), stderr.String())
		commands += strings.Count(stdout.String(), "kubectl apply --")
		for _, p := range doccheck.ApplyCommandProblems(stdout.String(), apply.FieldManager) {
			t.Errorf("etcdshapes %s --help: %s", strings.Join(path, " "), p)
		}
	}
	require.Positive(t, commands, "the help texts show no kubectl apply command: is the check reading them?")
}

// TestUsageErrorsAreBounded: a usage error quotes a flag's value cut to
// maxUsageArg bytes with its length, whatever the flag: a 100 KB value is
// never echoed whole.
func TestUsageErrorsAreBounded(t *testing.T) {
	long := strings.Repeat("a", 100_000)
	code, stdout, stderr := cli(t, "", "render", "cluster", "kubernetes-demo", "-n", "tenant-demo", "--restore-snapshot", long)
	require.Equal(t, exitUsage, code, stderr)
	require.Empty(t, stdout)
	require.Less(t, len(stderr), 2000, "stderr: %.300q", stderr)
	require.Contains(t, stderr, "...(100000 bytes)")
	// A rune is never cut in half.
	err := usagef("%q", strings.Repeat("é", 200))
	require.True(t, utf8.ValidString(err.Error()), err.Error())
}

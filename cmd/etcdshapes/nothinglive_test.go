package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/testsupport/partialtest"
	"github.com/stretchr/testify/require"
)

// TestPlanNothingLiveClass is plan's TestNothingLiveIsNeverSafeByDefault
// through the command: for each live file that holds nothing of the stack
// (an empty file, as a failed kubectl get leaves it; "---" only; a List
// whose items are null or empty; only another namespace's or another
// release's objects), and the whole stack beside them, by default, with
// --fresh-install and with --expect-existing, the exit status, the text's
// verdict, -o json's safeToApply, verdict and nothingLive, and stderr
// agree: nothing live exits 3 unless --fresh-install, the whole stack
// exits 3 only with --fresh-install, and each "not safe" says why on
// stderr. --fresh-install with --expect-existing is a usage error (exit
// 2) naming both, and prints no plan.
func TestPlanNothingLiveClass(t *testing.T) {
	stacks, err := partialtest.Stacks()
	require.NoError(t, err)
	dir := t.TempDir()
	for _, s := range stacks {
		cases, err := s.NothingLive()
		require.NoError(t, err)
		whole, err := s.Whole()
		require.NoError(t, err)
		cases = append(cases, partialtest.NothingCase{Name: "the whole stack", File: whole})
		for i, c := range cases {
			nothing := c.Name != "the whole stack"
			file := filepath.Join(dir, string(s.Caller)+"-"+strconv.Itoa(i)+".yaml")
			require.NoError(t, os.WriteFile(file, c.File, 0o600))
			for _, flag := range []string{"", "--fresh-install", "--expect-existing"} {
				t.Run(string(s.Caller)+"/"+c.Name+"/"+flag, func(t *testing.T) {
					args := s.Args(file)
					if flag != "" {
						args = append(args, flag)
					}
					var text, textErr bytes.Buffer
					code := run(args, strings.NewReader(""), &text, &textErr)
					var js, jsErr bytes.Buffer
					jsCode := run(append(args, "-o", "json"), strings.NewReader(""), &js, &jsErr)
					require.Equal(t, code, jsCode, "text and -o json exit alike")
					require.Equal(t, textErr.String(), jsErr.String(), "stderr alike for text and -o json")
					var got struct {
						SafeToApply bool   `json:"safeToApply"`
						Verdict     string `json:"verdict"`
						NothingLive bool   `json:"nothingLive"`
					}
					require.NoError(t, json.Unmarshal(js.Bytes(), &got), js.String())
					lines := strings.Split(strings.TrimRight(text.String(), "\n"), "\n")
					verdict := lines[len(lines)-1]
					require.Equal(t, verdict, got.Verdict, "the text's last line is the JSON verdict")
					require.Equal(t, nothing, got.NothingLive)

					safe := nothing == (flag == "--fresh-install")
					var says string // the line of stderr that says why it is not safe
					switch {
					case nothing && flag == "":
						says = "etcdshapes: the live file holds nothing of the stack, so the plan is of a fresh install: not safe to apply unless the stack does not exist; " +
							"check the kubectl get that wrote " + file + " (did it fail? its namespace, context and kinds), or plan a fresh install with --fresh-install"
					case nothing && flag == "--expect-existing":
						says = "etcdshapes: --expect-existing: the live file holds none of the stack's objects, so the plan is of a fresh install: not safe to apply over a stack that exists; " +
							"check the kubectl get that wrote " + file + " (its namespace, context and kinds)"
					case !nothing && flag == "--fresh-install":
						says = "etcdshapes: --fresh-install: the live file holds objects of the stack (the plan names them), so the install is not fresh: not safe to apply as one; " +
							"check the release, the namespace and " + file + ", or plan the apply over the live stack without --fresh-install"
					}
					var said []string
					for _, l := range strings.Split(strings.TrimRight(textErr.String(), "\n"), "\n") {
						if strings.HasPrefix(l, "etcdshapes: ") && !strings.HasPrefix(l, "etcdshapes: warning: ") {
							said = append(said, l)
						}
					}
					if safe {
						require.Equal(t, exitOK, code, "%s\n%s", text.String(), textErr.String())
						require.True(t, got.SafeToApply)
						require.True(t, strings.HasPrefix(verdict, "Safe to apply") || strings.HasPrefix(verdict, "No changes"), verdict)
						require.Empty(t, said, textErr.String())
						return
					}
					require.Equal(t, exitUnsafe, code, "%s\n%s", text.String(), textErr.String())
					require.False(t, got.SafeToApply)
					require.True(t, strings.HasPrefix(verdict, "Not safe to apply: 0 refused by the API server, 1 need a decision"), verdict)
					require.Equal(t, []string{says}, said, textErr.String())
				})
			}
			t.Run(string(s.Caller)+"/"+c.Name+"/--fresh-install --expect-existing", func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				code := run(append(s.Args(file), "--fresh-install", "--expect-existing"), strings.NewReader(""), &stdout, &stderr)
				require.Equal(t, exitUsage, code, stderr.String())
				require.Empty(t, stdout.String())
				require.Contains(t, stderr.String(), "etcdshapes: --fresh-install and --expect-existing contradict each other: "+
					"--fresh-install says the stack does not exist yet, --expect-existing that it does; give one\n")
			})
		}
	}
}

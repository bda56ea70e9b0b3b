package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// session is a documented terminal session: a fenced block whose first
// line is "$ etcdshapes ...", each "$ " line a command run from the
// repository root and the lines after it what the terminal shows
// (stdout and stderr together).
type session struct {
	where string // file:line of the fence
	skip  string // why it is not run ("<!-- session not run: why -->" above the fence)
	steps []sessionStep
}

type sessionStep struct {
	command string
	output  string
}

// documentedSessions are the sessions of the README, docs/ and the READMEs
// they send a newcomer to first.
func documentedSessions(t *testing.T, root string) []session {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	docs = append(docs, filepath.Join(root, "README.md"), filepath.Join(root, "charts", "README.md"),
		filepath.Join(root, "examples", "operator", "README.md"))
	var out []session
	for _, path := range docs {
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		lines := strings.Split(string(raw), "\n")
		for i := 0; i < len(lines); i++ {
			fence := strings.TrimSpace(lines[i])
			if !strings.HasPrefix(fence, "```") {
				continue
			}
			indent := lines[i][:strings.Index(lines[i], "```")]
			start := i
			var body []string
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
				body = append(body, strings.TrimPrefix(lines[i], indent))
			}
			if len(body) == 0 || !strings.HasPrefix(body[0], "$ etcdshapes ") {
				continue
			}
			rel, _ := filepath.Rel(root, path)
			s := session{where: rel + ":" + itoa(start+1)}
			if start > 0 {
				above := strings.TrimSpace(lines[start-1])
				if why, ok := strings.CutPrefix(above, "<!-- session not run: "); ok {
					s.skip = strings.TrimSuffix(why, " -->")
				}
			}
			for _, l := range body {
				if cmd, ok := strings.CutPrefix(l, "$ "); ok {
					s.steps = append(s.steps, sessionStep{command: cmd})
					continue
				}
				st := &s.steps[len(s.steps)-1]
				st.output += l + "\n"
			}
			out = append(out, s)
		}
	}
	return out
}

func itoa(n int) string {
	var b []byte
	for ; n > 0 || len(b) == 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// TestDocumentedSessions: every terminal session the documents show
// ("$ etcdshapes ..." and what follows) prints what they say, run by bash
// from the repository root with this test binary as etcdshapes; a session
// that cannot run here says why above its block (<!-- session not run:
// why -->). So a sample error message never drifts from the real one.
func TestDocumentedSessions(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run the sessions with")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	self, err := os.Executable()
	require.NoError(t, err)
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "etcdshapes"), []byte("#!/bin/sh\n"+runAsCommand+"=1 exec '"+self+"' \"$@\"\n"), 0o755))
	sessions := documentedSessions(t, root)
	run := 0
	for _, s := range sessions {
		t.Run(s.where, func(t *testing.T) {
			if s.skip != "" {
				t.Skip(s.skip)
			}
			run++
			for _, st := range s.steps {
				cmd := exec.Command("bash", "-c", st.command)
				cmd.Dir = root
				cmd.Env = []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LANG=C"}
				out, _ := cmd.CombinedOutput()
				assert.Equal(t, st.output, string(out), "$ %s", st.command)
			}
		})
	}
	require.GreaterOrEqual(t, run, 5, "the documents' sessions: is the test reading them?")
}

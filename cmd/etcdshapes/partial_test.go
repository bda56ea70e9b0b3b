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

// TestPlanPartlyLiveStackIsNeverSafe is plan's TestPartlyLiveStackIsNeverSafe
// through the command: for each live file of the table (each kind the
// stacks emit alone, each kind that refers to a stack alone, the stack
// without its EtcdCluster, its DataStore or both, the whole stack), with
// and without --expect-existing, the text's verdict, -o json's
// safeToApply and verdict, and the exit status agree, and say "not safe"
// (exit 3) whenever the file lacks the stack's core and holds anything
// of it or referring to it; --expect-existing then says on stderr that
// the file is partial. The whole stack is safe (exit 0), with
// --expect-existing too.
func TestPlanPartlyLiveStackIsNeverSafe(t *testing.T) {
	stacks, err := partialtest.Stacks()
	require.NoError(t, err)
	dir := t.TempDir()
	for _, s := range stacks {
		for i, c := range s.Cases() {
			t.Run(s.Caller.String()+"/"+c.Name, func(t *testing.T) {
				data, err := c.LiveFile()
				require.NoError(t, err)
				file := filepath.Join(dir, s.Caller.String()+"-"+strconv.Itoa(i)+".json")
				require.NoError(t, os.WriteFile(file, data, 0o600))
				for _, expect := range []bool{false, true} {
					args := s.Args(file)
					if expect {
						args = append(args, "--expect-existing")
					}
					var text, textErr bytes.Buffer
					code := run(args, strings.NewReader(""), &text, &textErr)
					var js, jsErr bytes.Buffer
					jsCode := run(append(args, "-o", "json"), strings.NewReader(""), &js, &jsErr)
					require.Equal(t, code, jsCode, "text and -o json exit alike")
					var got struct {
						SafeToApply bool   `json:"safeToApply"`
						Verdict     string `json:"verdict"`
						NothingLive bool   `json:"nothingLive"`
						MissingCore []any  `json:"missingCore"`
					}
					require.NoError(t, json.Unmarshal(js.Bytes(), &got), js.String())
					lines := strings.Split(strings.TrimRight(text.String(), "\n"), "\n")
					verdict := lines[len(lines)-1]
					require.Equal(t, verdict, got.Verdict, "the text's last line is the JSON verdict")
					require.False(t, got.NothingLive)
					if !c.CoreMissing {
						require.Equal(t, 0, code, "%s\n%s", text.String(), textErr.String())
						require.True(t, got.SafeToApply)
						require.Empty(t, got.MissingCore)
						require.NotContains(t, textErr.String(), "partial")
						continue
					}
					require.Equal(t, exitUnsafe, code, "%s\n%s", text.String(), textErr.String())
					require.False(t, got.SafeToApply)
					require.NotEmpty(t, got.MissingCore)
					require.True(t, strings.HasPrefix(verdict, "Not safe to apply: "), verdict)
					require.Contains(t, text.String(), "DECISION: missing from the live objects: the live file is partial, or the stack lost it: ")
					require.Equal(t, expect, strings.Contains(text.String(), "DECISION: the live file is partial: the stack is expected to exist"), text.String())
					require.Equal(t, expect, strings.Contains(textErr.String(), "etcdshapes: --expect-existing: the live file is partial: "), textErr.String())
					require.Equal(t, textErr.String(), jsErr.String(), "stderr alike for text and -o json")
				}
			})
		}
	}
}

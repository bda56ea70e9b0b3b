package testtier

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTagSelectsTheTier: the two files that set Slow are selected by the
// tag, one in each tier.
func TestTagSelectsTheTier(t *testing.T) {
	for _, c := range []struct {
		tags string
		want string
	}{{"", "quick.go"}, {Tag, "slow.go"}} {
		out, err := exec.Command("go", "list", "-tags="+c.tags, "-f", "{{join .GoFiles \" \"}}", ".").Output()
		if err != nil {
			t.Fatalf("go list -tags=%s: %v", c.tags, err)
		}
		files := strings.Fields(string(out))
		if !strings.Contains(" "+strings.Join(files, " ")+" ", " "+c.want+" ") || len(files) != 2 {
			t.Errorf("go list -tags=%s: %v, want testtier.go and %s", c.tags, files, c.want)
		}
	}
}

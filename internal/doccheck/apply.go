// Package doccheck holds the checks of the module's documentation: every
// exported identifier has a doc comment (its test), and every kubectl
// apply command the documents and the command's help show applies as the
// plan predicts (ApplyCommandProblems).
package doccheck

import (
	"fmt"
	"regexp"
	"strings"
)

// The plan predicts a server-side apply as one field manager
// (etcdshapes unless planned with --field-manager), with force: a command
// that applies otherwise does something the plan did not show. A
// client-side apply (kubectl-client-side-apply) or a server-side one
// without --field-manager (kubectl) leaves the fields etcdshapes set
// before to etcdshapes and keeps them; planned as etcdshapes, the removal
// of an immutable field the plan refuses is then kept, and the other way
// round. Without --force-conflicts, every object with a conflict the plan
// showed is refused while the others are applied: the stack is left half
// changed.

// placeholderRE is a field manager spelled as a placeholder in a synopsis
// (NAME), which stands for the one the plan was given.
var placeholderRE = regexp.MustCompile(`^[A-Z][A-Z_]*$`)

// ApplyCommandProblems checks each kubectl apply command in text (a
// document, a fenced block, a help text): one that applies (a flag
// follows "kubectl apply" on its line, a trailing backslash continuing
// it) must be a server-side apply (--server-side) as field manager
// manager (--field-manager=NAME or --field-manager NAME; a placeholder
// such as NAME passes) with --force-conflicts. A mention of the command
// ("kubectl apply" and no flag after it) and one of the commands that
// delete (--prune, --force) are descriptions, not commands to run. It
// returns one problem per command, naming it.
func ApplyCommandProblems(text, manager string) []string {
	var problems []string
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		for strings.HasSuffix(strings.TrimSpace(line), `\`) && i+1 < len(lines) {
			i++
			line = strings.TrimSuffix(strings.TrimSpace(line), `\`) + " " + lines[i]
		}
		rest := line
		for {
			at := strings.Index(rest, "kubectl apply")
			if at < 0 {
				break
			}
			cmd := rest[at:]
			rest = rest[at+len("kubectl apply"):]
			// "kubectl apply" then punctuation ("for kubectl apply, ...")
			// names the command.
			if after := cmd[len("kubectl apply"):]; after != "" && after[0] != ' ' && after[0] != '`' {
				continue
			}
			// A command ends at a code span's end, a pipe or a shell
			// separator.
			if end := strings.IndexAny(cmd, "`|;)&"); end >= 0 {
				cmd = cmd[:end]
			}
			if p := applyProblem(strings.Fields(cmd)[2:], manager); p != "" {
				problems = append(problems, fmt.Sprintf("%q: %s", strings.TrimSpace(cmd), p))
			}
		}
	}
	return problems
}

// applyProblem is what is wrong with kubectl apply args, "" for nothing.
func applyProblem(args []string, manager string) string {
	if len(args) == 0 || !strings.HasPrefix(args[0], "-") {
		// "kubectl apply" alone, or in a sentence ("which kubectl apply
		// and plan --live read").
		return ""
	}
	var serverSide, force bool
	fm := ""
	for i := range args {
		args[i] = strings.TrimRight(args[i], ",.") // the end of a sentence
	}
	for i, a := range args {
		switch {
		case a == "--prune", strings.HasPrefix(a, "--prune="), a == "--force", strings.HasPrefix(a, "--force="):
			return "" // a command that deletes, described
		case a == "--server-side", a == "--server-side=true":
			serverSide = true
		case a == "--force-conflicts", a == "--force-conflicts=true":
			force = true
		case strings.HasPrefix(a, "--field-manager="):
			fm = strings.TrimPrefix(a, "--field-manager=")
		case a == "--field-manager" && i+1 < len(args):
			fm = args[i+1]
		}
	}
	var missing []string
	if !serverSide {
		missing = append(missing, "--server-side")
	}
	if fm != manager && !placeholderRE.MatchString(fm) {
		if fm == "" {
			missing = append(missing, "--field-manager="+manager)
		} else {
			return fmt.Sprintf("applies as field manager %q where the plan predicts %q", fm, manager)
		}
	}
	if !force {
		missing = append(missing, "--force-conflicts")
	}
	if len(missing) == 0 {
		return ""
	}
	return "lacks " + strings.Join(missing, ", ") + ": the plan predicts a server-side apply as field manager " + manager + ", with force"
}

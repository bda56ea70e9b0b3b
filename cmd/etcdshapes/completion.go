package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// completionValues is the flag annotation that completeFlag sets: the
// words the shell completes for the flag's value.
const completionValues = "etcdshapes_completion_values"

// completeFlag records what the shell completes for the value of cmd's
// flag name: one of values, or nothing at all (no file names either)
// without any. registerCompletions hands it to cobra for a completion
// request only.
func completeFlag(cmd *cobra.Command, name string, values ...string) {
	f := cmd.Flag(name)
	if f == nil {
		return // TestEveryFlagCompletion lists the flags it must find
	}
	if f.Annotations == nil {
		f.Annotations = map[string][]string{}
	}
	f.Annotations[completionValues] = append([]string{}, values...)
}

// isCompletionRequest says whether args ask for completions: cobra's
// shell scripts call the command as 'etcdshapes __complete ARGS...'.
func isCompletionRequest(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// registerCompletions registers the completions completeFlag recorded in
// the tree under c. Only a completion request needs them, and only it
// registers them: cobra keeps flag completion functions in a
// package-level map keyed by the flag, which nothing ever removes from
// (spf13/cobra#2012), so that registering them for every command line kept
// every command tree built in a process alive, with the streams it wrote
// to. The tests build thousands in one process; the 165 MB they retained
// made each garbage collection cost a second of CPU.
func registerCompletions(c *cobra.Command) {
	register := func(f *pflag.Flag) {
		if values, ok := f.Annotations[completionValues]; ok {
			_ = c.RegisterFlagCompletionFunc(f.Name, fixedCompletion(values...))
		}
	}
	c.Flags().VisitAll(register)
	c.PersistentFlags().VisitAll(register)
	for _, sub := range c.Commands() {
		registerCompletions(sub)
	}
}

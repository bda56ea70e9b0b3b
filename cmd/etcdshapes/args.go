package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// normalizeArgs keeps the command lines of the standard flag package
// working on pflag's: a single-dash long flag (-namespace NS,
// -release=REL, -help) becomes its double-dash form. A single dash followed
// by a long flag's exact name is never a valid shorthand group with a
// value worth meaning ("-namespace" as -n "amespace"), so nothing pflag
// reads otherwise changes: -ntenant-demo stays -n tenant-demo. Values of
// flags that take one are skipped, and nothing after "--" is touched.
func normalizeArgs(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil || cmd.DisableFlagParsing {
		return args
	}
	cmd.InitDefaultHelpFlag()
	flags := pflag.NewFlagSet("", pflag.ContinueOnError)
	flags.AddFlagSet(cmd.Flags())
	flags.AddFlagSet(cmd.InheritedFlags())
	out := append([]string(nil), args...)
	for i := 0; i < len(out); i++ {
		a := out[i]
		switch {
		case a == "--":
			return out
		case strings.HasPrefix(a, "--"):
			name, _, inline := strings.Cut(a[2:], "=")
			if f := flags.Lookup(name); f != nil && !inline && f.NoOptDefVal == "" {
				i++ // its value
			}
		case len(a) > 1 && a[0] == '-':
			name, _, inline := strings.Cut(a[1:], "=")
			if f := flags.Lookup(name); f != nil && len(name) > 1 {
				out[i] = "-" + a
				if !inline && f.NoOptDefVal == "" {
					i++
				}
				continue
			}
			// A shorthand group: the first flag that takes a value takes
			// the rest of the group, or the next argument.
			for j := 1; j < len(a); j++ {
				f := flags.ShorthandLookup(a[j : j+1])
				if f == nil {
					break
				}
				if f.NoOptDefVal == "" {
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		}
	}
	return out
}

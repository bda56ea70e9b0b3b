package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// An empty value given to a flag that takes text (--output-dir "",
// -f "", --set "") is a usage error naming the flag: "" would otherwise
// read as the flag left out (stdout for --output-dir, the default release
// or chart version, no entry for --api-versions), so a script whose
// variable is unset (--output-dir "$DIR") would do something else than
// it says, without a word. A flag whose empty value means something of
// its own carries emptyMeans (--live-storage-class "": a live cluster
// without a storage class).

// emptyMeans is the annotation of a flag whose empty value is meaningful;
// its value says what it means, for the reader.
const emptyMeans = "etcdshapes-empty-means"

// allowEmpty marks the flag name of cmd as one whose empty value means
// meaning.
func allowEmpty(cmd *cobra.Command, name, meaning string) {
	_ = cmd.Flags().SetAnnotation(name, emptyMeans, []string{meaning})
}

// emptyValue is a text flag's value that records whether it was given
// empty.
type emptyValue struct {
	pflag.Value
	empty bool
}

func (v *emptyValue) Set(s string) error {
	if s == "" {
		v.empty = true
	}
	return v.Value.Set(s)
}

// textFlag reports whether a flag's value is text (a string, or a list of
// strings given one a flag).
func textFlag(f *pflag.Flag) bool {
	switch f.Value.Type() {
	case "string", "stringArray", "stringSlice":
		return true
	}
	return false
}

// refuseEmptyFlags makes every text flag of cmd and its subcommands
// record an empty value, and each command refuse one before it checks its
// arguments or runs.
func refuseEmptyFlags(cmd *cobra.Command) {
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if _, ok := f.Value.(*emptyValue); !ok && textFlag(f) && f.Annotations[emptyMeans] == nil {
			f.Value = &emptyValue{Value: f.Value}
		}
	})
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := emptyFlagError(c); err != nil {
				return err
			}
			return args(c, a)
		}
	}
	for _, sub := range cmd.Commands() {
		refuseEmptyFlags(sub)
	}
}

// emptyFlagError is the usage error for the flags of cmd given an empty
// value, one a line, nil when there is none.
func emptyFlagError(cmd *cobra.Command) error {
	var errs []error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if v, ok := f.Value.(*emptyValue); ok && v.empty {
			what := "a value"
			if strings.Contains(f.Usage, "`") {
				what, _ = pflag.UnquoteUsage(f)
			}
			errs = append(errs, fmt.Errorf("--%s is empty, where %s is expected (is a shell variable unset?)", f.Name, what))
		}
	})
	if len(errs) == 0 {
		return nil
	}
	return &usageError{errors.Join(errs...)}
}

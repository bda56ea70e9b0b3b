package main

import (
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/spf13/pflag"
)

// flagField is a field by which the library names an input that a flag
// sets: its refusals name the flag instead, as the user typed it
// ("--chart-version", not the Go options' "chartVersion").
type flagField struct {
	// field is the library's name of the input.
	field string
	// flag is the flag that sets it.
	flag string
	// value, when set, is the flag's value (the release's, also when
	// given as the RELEASE argument): a refusal of field is the flag's
	// only when the flag was given and the refusal quotes that value,
	// since a command's other inputs may give a field of that name too
	// (a values key "namespace", a live DataStore name plan reads from
	// the live objects).
	value *string
}

// nameFlagFields are the flags of a stack's names (naming.ForEtcdChart,
// naming.ForCluster) where the command takes no other input of those
// names.
var nameFlagFields = []flagField{
	{field: "namespace", flag: "--namespace"},
	{field: "release", flag: "--release"},
}

// inFlagTerms renames, in place, each refusal in err of a field fields
// lists to its flag, and returns err: the error keeps its wrapping
// (another error's context, a List's order). fs says which flags were
// given; it may be nil when every field is the flag's whatever its value.
func inFlagTerms(err error, fs *pflag.FlagSet, fields ...flagField) error {
	for _, e := range invalid.All(err) {
		for _, f := range fields {
			if e.Field != f.field {
				continue
			}
			if f.value != nil {
				s, ok := e.Value.(string)
				given := *f.value != "" || fs != nil && fs.Changed(f.flag[2:])
				if !given || !ok || s != *f.value {
					continue
				}
			}
			e.Field = f.flag
			break
		}
	}
	return err
}

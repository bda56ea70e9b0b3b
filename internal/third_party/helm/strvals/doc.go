// Package strvals is a copy of helm.sh/helm/v3/pkg/strvals from Helm
// v3.22.0 (Apache License 2.0, Copyright The Helm Authors; each file keeps
// its license header): the parser of Helm's --set, --set-string,
// --set-file, --set-json and --set-literal arguments.
//
// It is changed to use the standard library's errors package instead of
// github.com/pkg/errors, with the same messages, and to keep two kinds of
// numbers as written where Helm's types lose them (each change marked
// "etcdshapes:" in parser.go): --set-json decodes numbers as json.Number
// (Helm's float64 reads 1e-400 as 0 and 3.0000000000000000001 as 3;
// those beyond a float64's range give Helm's error still), and --set
// gives a negative zero ("-0") as a json.Number (Helm's int64 is 0). The
// values readers refuse such numbers, naming the field. It is otherwise
// kept as Helm wrote it, including where it repeats itself (parser.go and
// literal_parser.go, and their tests), so that it can be compared with
// Helm's line by line. The roundtrip module (its own go.mod, which imports
// Helm) checks that it parses like Helm's on generated and edge-case
// inputs (TestStrvalsMatchHelm), numbers compared by value.
//
// Numbers are otherwise Helm's: --set gives int64 for whole numbers
// without a leading zero and a string for anything else ("1.5", "010").
// The library reads any Go number kind as the same YAML number.
//
// Forked code lives under internal/third_party, apart from etcdshapes' own;
// internal/strvals (Sets) is the command's use of it.
package strvals

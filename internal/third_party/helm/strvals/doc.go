// Package strvals is a copy of helm.sh/helm/v3/pkg/strvals from Helm
// v3.22.0 (Apache License 2.0, Copyright The Helm Authors; each file keeps
// its license header): the parser of Helm's --set, --set-string,
// --set-file, --set-json and --set-literal arguments.
//
// It is changed only to use the standard library's errors package instead
// of github.com/pkg/errors, with the same messages, and is otherwise kept
// as Helm wrote it, including where it repeats itself (parser.go and
// literal_parser.go, and their tests), so that it can be compared with
// Helm's line by line. The roundtrip module (its own go.mod, which imports
// Helm) checks that it parses like Helm's on generated and edge-case
// inputs (TestStrvalsMatchHelm).
//
// Numbers are Helm's: --set gives int64 for whole numbers without a
// leading zero and a string for anything else ("1.5", "010"); --set-json
// gives float64 (encoding/json). The library reads any Go number kind as the
// same YAML number.
//
// Forked code lives under internal/third_party, apart from etcdshapes' own;
// internal/strvals (Sets) is the command's use of it.
package strvals

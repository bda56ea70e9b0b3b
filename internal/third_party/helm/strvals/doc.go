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
// Forked code lives under internal/third_party, apart from etcdshapes' own;
// internal/strvals (Sets) is the command's use of it.
package strvals

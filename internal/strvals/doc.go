// Package strvals is Helm's parser of --set, --set-string, --set-file,
// --set-json and --set-literal arguments, and the order in which Helm
// applies them, for the etcdshapes command.
//
// parser.go and literal_parser.go are copies of helm.sh/helm/v3/pkg/strvals
// from Helm v3.22.0 (Apache License 2.0, Copyright The Helm Authors; each
// file keeps its license header), changed only to use the standard
// library's errors package instead of github.com/pkg/errors, with the same
// messages. The rest of the package (sets.go) is etcdshapes' own: Sets.Apply
// applies the arguments in the order Helm's values.Options.MergeValues does,
// and bounds the memory their list indices can allocate.
//
// Why a copy and not an import: the command lives in the library's module,
// and Helm stays out of the library's go.mod. Importing
// helm.sh/helm/v3/pkg/strvals adds only two packages to the command
// (it and github.com/pkg/errors), but puts helm.sh/helm/v3 and its
// requirements (k8s.io/kubectl, k8s.io/cli-runtime, ... at its versions)
// into the module graph of every program that imports the library;
// helm.sh/helm/v3/pkg/cli/values, which holds MergeValues, adds 518
// packages. The roundtrip module (its own go.mod, which imports Helm)
// checks that this copy parses like Helm's on generated and edge-case
// inputs (TestStrvalsMatchHelm).
//
// Numbers are Helm's: --set gives int64 for whole numbers without a
// leading zero and a string for anything else ("1.5", "010"); --set-json
// gives float64 (encoding/json). The library reads any Go number kind as the
// same YAML number.
package strvals

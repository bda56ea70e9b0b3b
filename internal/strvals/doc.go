// Package strvals applies Helm's --set, --set-string, --set-file,
// --set-json and --set-literal arguments for the etcdshapes command: Sets
// holds them, Sets.Apply applies them in the order Helm's
// values.Options.MergeValues does, and bounds the memory their list indices
// can allocate.
//
// The parser of each argument is Helm's own, copied into
// internal/third_party/helm/strvals (helm.sh/helm/v3/pkg/strvals, Helm
// v3.22.0, Apache License 2.0, Copyright The Helm Authors).
//
// Why a copy and not an import: the command lives in the library's module,
// and Helm stays out of the library's go.mod. Importing
// helm.sh/helm/v3/pkg/strvals adds only two packages to the command
// (it and github.com/pkg/errors), but puts helm.sh/helm/v3 and its
// requirements (k8s.io/kubectl, k8s.io/cli-runtime, ... at its versions)
// into the module graph of every program that imports the library;
// helm.sh/helm/v3/pkg/cli/values, which holds MergeValues, adds 518
// packages. The roundtrip module (its own go.mod, which imports Helm)
// checks that the copy parses like Helm's on generated and edge-case
// inputs (TestStrvalsMatchHelm).
//
// Numbers are Helm's: --set gives int64 for whole numbers without a
// leading zero and a string for anything else ("1.5", "010"); --set-json
// gives float64 (encoding/json). The library reads any Go number kind as the
// same YAML number.
package strvals

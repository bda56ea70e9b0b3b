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
// packages.
package strvals

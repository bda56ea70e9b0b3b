package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/etcdshapes/etcdshapes"
)

// renderFlags are the flags that describe one render; render and plan share
// them so that a plan always describes what render would print.
type renderFlags struct {
	caller                           string
	namespace, release, chartVersion string
	valueFiles, apiVersions          listFlag
	liveDataStore, liveStorageClass  optionalString
}

func (r *renderFlags) register(fs *flag.FlagSet, caller string) {
	r.caller = caller
	fs.StringVar(&r.namespace, "namespace", "", "")
	fs.StringVar(&r.namespace, "n", "", "")
	fs.StringVar(&r.release, "release", "", "")
	fs.StringVar(&r.chartVersion, "chart-version", "", "")
	fs.Var(&r.valueFiles, "f", "")
	fs.Var(&r.valueFiles, "values", "")
	if caller == etcdshapes.CallerCluster {
		fs.Var(&r.apiVersions, "api-versions", "")
		fs.Var(&r.liveDataStore, "live-datastore", "")
		fs.Var(&r.liveStorageClass, "live-storage-class", "")
	}
}

// check reports a missing or malformed flag; command names the command in
// the message ("render", "plan").
func (r *renderFlags) check(fs *flag.FlagSet, command string) error {
	switch {
	case fs.NArg() > 0:
		return &usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	case r.namespace == "":
		return &usageError{errors.New("--namespace is required")}
	case r.caller == etcdshapes.CallerCluster && r.release == "":
		return &usageError{fmt.Errorf("--release is required for %s cluster", command)}
	case r.liveDataStore.set && r.liveDataStore.value == "":
		return &usageError{errors.New("--live-datastore needs a DataStore name")}
	}
	return nil
}

// request reads the values files and builds the render request. Live state
// flags that were not given stay unset.
func (r *renderFlags) request(stdin io.Reader) (etcdshapes.Request, error) {
	docs, err := readValues(r.valueFiles, stdin)
	if err != nil {
		return etcdshapes.Request{}, err
	}
	values, err := etcdshapes.MergeValues(docs...)
	if err != nil {
		return etcdshapes.Request{}, err
	}
	req := etcdshapes.Request{Caller: r.caller, Namespace: r.namespace, Release: r.release, ChartVersion: r.chartVersion, Values: values}
	if r.caller != etcdshapes.CallerCluster {
		return req, nil
	}
	for _, a := range r.apiVersions {
		for _, part := range strings.Split(a, ",") {
			req.APIVersions = append(req.APIVersions, strings.TrimSpace(part))
		}
	}
	req.Live.DataStoreName = r.liveDataStore.value
	if r.liveStorageClass.set {
		sc := r.liveStorageClass.value
		req.Live.StorageClassName = &sc
	}
	return req, nil
}

package etcdshapes

import "github.com/etcdshapes/etcdshapes/internal/printer"

// Marshal prints objects as multi-document YAML, each document opened by
// "---", in the given order. Each document is sigs.k8s.io/yaml's form of the
// object (keys sorted, TypeMeta first as set by the builders) without the
// noise typed structs carry: a top-level status holding only empty maps,
// and empty metadata of nested templates. cert-manager
// durations are printed the way the charts spell them ("87600h", not
// "87600h0m0s"): the same value, and the same bytes the API server stores.
//
// Those bytes are written by internal/yamlemit straight from the typed
// object (a reflection walk with encoding/json's rules, no JSON written or
// read), 50–80 times faster than going through sigs.k8s.io/yaml; an object
// it cannot print exactly (see its package doc) is printed through
// sigs.k8s.io/yaml.
func Marshal(objs []Object) ([]byte, error) { return printer.Marshal(objs) }

// MarshalObject prints one object as Marshal does, without the separator.
func MarshalObject(o Object) ([]byte, error) { return printer.MarshalObject(o) }

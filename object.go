package etcdshapes

import "github.com/etcdshapes/etcdshapes/manifest"

// Object is what every builder returns: a typed Kubernetes object with
// metadata, usable with controller-runtime clients (it is a client.Object).
// It is manifest.Object, which the builders' bundles list with Objects().
type Object = manifest.Object

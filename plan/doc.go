// Package plan says what applying a stack to its live objects would do, as
// server-side apply does it: Compute compares desired objects with live
// ones, ForRequest renders an etcdshapes.Request and plans it against the
// live objects of its stack (reading the live state, inferring served
// APIs, scoping deletions to the stack).
//
// The prediction uses the API server's own schemas for every kind the
// library emits, embedded at go generate time (the CRDs' openAPIV3Schema
// and Kubernetes' built-in schemas, converted to structured-merge-diff's
// form; no file is read at run time), and structured-merge-diff's merge
// with the live managedFields: the fields an apply as apply.FieldManager
// (or the manager AsFieldManager names) sets, changes and removes, the fields it leaves to other managers, and
// the conflicts it meets (naming the other manager and whether force would
// take the field). Without managedFields it says so and diffs plainly.
//
// Findings say what the API server will refuse (immutable fields, CRD
// rules), what needs a person's decision (fewer members, an etcd version
// step etcd does not support as a rolling one, a DataStore's endpoints or
// TLS Secrets, which a colliding DataStore name of another release would
// change, a new DataStore of such a name that the live objects lack, an
// EtcdCluster, DataStore, Issuer or Certificate to create while the rest
// of the stack, or an object that refers to it, is live: the live file is
// partial, Result.MissingCore, or the stack lost it; nothing of the stack
// live, Result.NothingLive, which a failed or misdirected kubectl get
// leaves, unless FreshInstall says the plan is of a fresh install; with
// FreshInstall, anything of the stack live; with ExpectExisting, a live
// file without the stack's EtcdCluster or DataStore; a live object
// being deleted that holds the stack's state or identity; a larger backend
// quota, which the defrag CronJob takes at once and the running members
// only when replaced; a tenant cluster's member count changed on a kept
// storage class its values would not choose) and what is
// worth knowing (another live object being deleted, nothing of the stack
// live with FreshInstall, any other object to create in a live stack, objects
// of the stack's kinds in other namespaces);
// Result.SafeToApply sums them up. An apply never deletes: Result.Deletes
// are the plan's deletes as kubectl commands, in the order to run them
// (what depends on an object first), and Result.NothingToApply says when
// there is no apply to run at all. Helm uninstall hooks are never planned,
// and a live object of a namespaced kind without a namespace, or of a
// stack kind spelled with another case or whitespace around it, is
// refused, never guessed at. Result.String, WriteText and Finding.String escape what they
// quote of the objects (invalid.Escape).
// ReadObjects reads live objects as kubectl prints them, and
// LiveStateFromObjects the live state a stack's render needs.
package plan

//go:generate go run ../internal/crdgen/cmd/crdgen -out zz_generated.crddefaults.go
//go:generate go run -C ../internal/schemagen . -out ../../plan/zz_generated.smdschema.go

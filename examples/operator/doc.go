// Command operator is an example controller that keeps one tenant
// cluster's etcd stack (the objects etcdshapes.ClusterStack renders) in the
// state a ConfigMap asks for, with controller-runtime.
//
// It shows the order of operations the library is built for, and why:
//
//  1. Render the stack from the input (etcdshapes.Render), with the
//     optional APIs the cluster serves, as Helm's .Capabilities would.
//  2. Read the live objects with an uncached reader: the plan needs what
//     the server holds now, managedFields included (a cache may lag, and
//     may be configured to drop managedFields).
//  3. Plan (plan.ForRequest) with the modifiers the apply uses, so
//     that "no change" really means the apply changes nothing; it returns
//     the modified objects, which are what is applied. Nothing of the
//     stack live is a decision to a plan; read by name, every error but
//     NotFound returned, it is a fresh install here, planned as one
//     (plan.FreshInstall).
//  4. Refuse a plan the API server would reject (plan.Refused) and
//     hold one that costs availability or data (plan.NeedsDecision)
//     until a person approves exactly that plan.
//  5. Otherwise apply every object with server-side apply as
//     apply.FieldManager, and delete what the plan deletes.
//
// A snapshot (etcd.Snapshot) can be requested on the same ConfigMap; it is
// taken before the plan is gated, so that "take a snapshot, then approve
// the scale-down" is one edit after another.
//
// The example is its own Go module so that controller-runtime never enters
// the library's dependencies. See README.md for the input format and how
// to run its test (make test-example-operator).
package main

// Package e2e proves that a real kube-apiserver accepts every object the
// library renders. Unit and golden tests pin bytes; only the API server
// knows whether those bytes pass its schemas, CRD structural validation and
// CEL rules, and whether an upgrade of a live stack is allowed (the
// EtcdCluster CRD forbids changing spec.tls, spec.storage.storageClassName
// and spec.storage.medium, and shrinking spec.storage.size).
//
// The suite is its own module, so the library never depends on
// controller-runtime, and its tests are behind the build tag "apiserver"
// because they need the kube-apiserver and etcd binaries. Run it from the
// repository root with
//
//	make test-apiserver
//
// which builds kube-apiserver and etcd from the Go module proxy into ./bin
// (see hack/kube-apiserver), starts them with controller-runtime's envtest,
// installs the CRDs from the directories $ETCDSHAPES_CRDS lists (like
// PATH: ../shared/crds and ../shared/crds-planned) and:
//
//   - creates every object of every golden scenario (golden.All) with
//     server-side dry-run and strict field validation, both as the typed
//     object a Go caller sends and as the YAML the CLI prints;
//   - for each per-cluster scenario, creates the stack for real, re-renders
//     it with changed inputs and the live state (LiveState.StorageClassName)
//     and updates it, which must be accepted, and checks that an update
//     that ignores the live state is rejected by the CRD's CEL rules;
//   - creates every snapshot shape the same way, for every stack of the
//     golden scenarios: EtcdSnapshots to S3 and to a PVC, the scheduled
//     snapshot's ServiceAccount, Role, RoleBinding and CronJob, the
//     EtcdSnapshot its job creates, and every golden EtcdCluster
//     bootstrapping from a snapshot in S3 and on a PVC; and asks the RBAC
//     authorizer what a schedule's ServiceAccount may do;
//   - creates the objects of the builders beyond the stacks the same way,
//     for every stack: the PodMonitor, the GrafanaDashboard (default and
//     every option), the performance check Job (three loads), and the
//     check Job's pods in a namespace that enforces Pod Security
//     "restricted", where the same pod without its security context is
//     refused (extras_test.go);
//   - installs an etcd chart stack and a tenant cluster's stack for real
//     with apply.Requests (server-side apply as FieldManager), reads them
//     back and checks every plan verdict against the server: an empty plan
//     writes nothing, every refused change is rejected for exactly the
//     objects the plan names, every change that needs a decision or is
//     safe is accepted and then plans empty, a live optional object whose
//     API the request leaves out is inferred and unchanged (plan_test.go);
//   - installs two more stacks (uninstall hooks included), reads back what
//     the server made of them (every default filled in), checks that they
//     plan empty and that they are testdata/apiserver/live.yaml, which the
//     root package's tests read as the server's answer
//     (ETCDSHAPES_UPDATE_FIXTURES=1 rewrites it; fixture_test.go);
//   - reads the server's served list as Helm builds .Capabilities from a
//     cluster (discovery's group/versions and group/version/Kinds) and
//     renders both stacks with it, and without the PodMonitor's API: never
//     refused, no warning about the server's own names (apiversions_test.go).
//
// Snapshot objects count in the closing line with the golden objects; the
// plan and RBAC checks print their own lines before it. Its last line is
// "apiserver: N objects accepted, M rejected".
package e2e

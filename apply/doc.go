// Package apply turns a stack into server-side apply requests for
// FieldManager (or a field manager of your own, checked by
// ValidateFieldManager and planned with plan.AsFieldManager): Requests gives, for each object in the stack's order, the
// object as unstructured, its API resource, its namespace and name, the
// apply patch type and body (the object as etcdshapes.Marshal prints it,
// in JSON), leaving out the Helm uninstall hooks, which must never run on
// an apply (UninstallHookRequests gives them, for a caller that
// uninstalls as helm uninstall does). Modifiers (WithOwnerReference, WithLabels, WithAnnotations,
// ForKind) are the cross-cutting edits an operator makes to the builders'
// objects; Requests and Modified apply them to copies, Modify in place.
// No modifier decides what is applied: whether an object is an uninstall
// hook is read before any modifier runs, and one that would change it is
// refused.
// plan.ForRequest takes the same modifiers, so that a plan is of what
// Requests sends.
package apply

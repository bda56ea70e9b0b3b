// Package naming owns every object name the etcd shapes use, the limits that
// bound them and the deterministic hash truncation that keeps long names
// within those limits.
//
// Two callers share the shapes. The etcd chart runs one etcd per tenant
// namespace and names it "etcd"; the kubernetes chart runs one etcd per tenant
// cluster and names it "<release>-etcd". Every other name (issuers,
// certificates, secrets, the defrag CronJob, the cleanup hooks, the Kamaji
// DataStore) is derived from that base name here, and nowhere else.
//
// The truncation schemes are part of the public contract: a DataStore or a
// CronJob name that changes between releases orphans the live object, so the
// schemes below never change once released.
package naming

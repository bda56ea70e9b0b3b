// Package roundtrip proves the charts chartgen generates: Helm's own engine
// renders them in process and the objects must equal the builders' field for
// field (quantities compared as the API server stores them).
//
// It is a separate module so that Helm never enters the library's go.mod,
// and its tests take longer than the library's. Run it with
//
//	cd roundtrip && go test ./...
//
// The tests cover every golden scenario (live state through a fake
// Kubernetes client behind lookup), every case of ../../shared/reference
// (override with ETCDSHAPES_REFERENCE), each hand-written helper template
// against its Go twin on many inputs, the refusals, and random values.
package roundtrip

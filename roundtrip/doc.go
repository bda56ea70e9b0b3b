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
//
// TestAPIVersionsDifferential renders served API lists of every kind of
// near miss (spaces, case, quotes, commas, group/versions, other kinds of
// an optional API's group, long and non-ASCII entries) with the library,
// the generated charts and the upstream charts, and checks that each
// renders the optional objects Helm's own VersionSet.Has serves and
// refuses none; TestAPIVersionsHelmCLI does it with `helm template`
// ($HELM, $HELM4) and the etcdshapes CLI given the same --api-versions.
//
// TestUpstreamOracle is the standing differential test against the oracle,
// the upstream charts in ../../shared/upstream (override with
// ETCDSHAPES_UPSTREAM): Helm's engine renders them, with --api-versions as
// Capabilities and the live state in the _live values they read instead of
// lookup, for 500 seeded inputs per caller drawn by the generator in
// oracle_gen_test.go, and each is compared with the library's objects
// (oracle_test.go, oracle_expect_test.go):
//
//   - both render: the objects must be equal once SPEC's deliberate
//     differences (and the README's 7 and 9) are applied to the upstream
//     objects, each computed independently and checked exactly;
//   - only the library refuses: its *invalid.Error must name a field the
//     test finds in a class SPEC's difference 6 or the README's 8 lists;
//   - the upstream chart fails: the library must refuse the same input.
//
// At 500 inputs or more every generator class, deliberate difference and
// outcome must occur. ETCDSHAPES_ORACLE_N, ETCDSHAPES_ORACLE_BASE and
// ETCDSHAPES_ORACLE_SEEDS choose the seeds; a failure prints its seed,
// values and object diff, and reruns with
//
//	ETCDSHAPES_ORACLE_SEEDS=17 go test -run 'TestUpstreamOracle/cluster/seed=17$' .
package roundtrip

// Package promtool is promtool's rule unit test runner, `promtool test
// rules`, copied from github.com/prometheus/prometheus v0.316.0
// (cmd/promtool; Apache License 2.0, Copyright The Prometheus Authors; each
// file keeps its license header), so that the alerts tier runs in process
// exactly what the promtool binary runs, without building that binary: its
// main package links every service discovery and cloud SDK, some 1.8 GB of
// modules and eleven CPU minutes to build on a new machine, of which the rule
// tests use none.
//
// The copy, and what was changed (upstream_test.go applies exactly these
// edits to the module's files, as found in the module cache, and requires
// the result to equal the copy):
//
//   - unittest.go is cmd/promtool/unittest.go (the runner:
//     RulesUnitTest, RulesUnitTestResult and the test file format), with the
//     package clause "package main" changed to "package promtool" and a line
//     naming the source after the license header.
//   - unittest_test.go is cmd/promtool/unittest_test.go, upstream's own
//     tests of the runner, with the same two edits, and each "./testdata/"
//     path replaced by upstreamTestdata(t) + "/": it runs on promtool's own
//     fixtures, cmd/promtool/testdata of the v0.316.0 module (which the
//     module zip holds), read in place from the module cache; the test skips,
//     saying so, when the module's source is not there.
//   - cmd.go holds the pieces of cmd/promtool/main.go and query.go that
//     unittest.go needs (the exit codes, parseTime, the feature flag state,
//     main.go's init, which sets the UTF-8 name validation the Prometheus
//     common module defaults to anyway), each between marker comments, and
//     TestRules, the entry point: the "test rules" case of main.go with the
//     flags at their defaults, the flags' values for the pointers kingpin
//     gives main.go, and a returned exit code for os.Exit. Not copied:
//     kingpin's command line, the --enable-feature parsing (no feature is
//     enabled, so parser.Options stays zero, as in promtool without the
//     flag), and the blank import of prometheus/plugins (service discovery
//     registrations, which rule unit tests never reach).
//
// Output is promtool's: "Processing test file", SUCCESS or FAILED and each
// failure on os.Stdout and os.Stderr, as the binary prints them, and the
// JUnit XML report (promtool's --junit) to the writer TestRules is given,
// which carries each failure's text for a caller to inspect.
//
// Prometheus's NOTICE: The Prometheus systems and service monitoring server,
// Copyright 2012-2015 The Prometheus Authors. This product includes software
// developed at SoundCloud Ltd. (https://soundcloud.com/).
//
// To move to another Prometheus release: bump the module's
// github.com/prometheus/prometheus requirement and promtoolVersion in
// upstream_test.go, copy the two files again with the edits above, and
// compare cmd.go's excerpts; TestCopyMatchesUpstream fails until they agree.
package promtool

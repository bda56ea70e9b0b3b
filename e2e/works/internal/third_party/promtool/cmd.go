// Copyright The Prometheus Authors
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
// http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

// Excerpts of github.com/prometheus/prometheus v0.316.0, cmd/promtool/main.go
// and cmd/promtool/query.go: what unittest.go needs from them, and the
// "test rules" command's call. See doc.go. Between each "upstream" and "end
// upstream" comment the text is upstream's, byte for byte, except where the
// comment names an edit; upstream_test.go checks it against the module.

package promtool

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/common/promslog"

	"github.com/prometheus/prometheus/promql/parser"
	"github.com/prometheus/prometheus/promql/promqltest"
)

// upstream cmd/promtool/main.go: the feature flag state (no
// --enable-feature given leaves both as they are) and the logger (which the
// rule tests never use: unittest.go logs to promslog.NewNopLogger()).
var (
	promqlEnableDelayedNameRemoval = false
	promtoolParserOpts             = parser.Options{}
	logger                         = promslog.New(&promslog.Config{})
)

func init() {
	// This can be removed when the legacy global mode is fully deprecated.
	//nolint:staticcheck
	model.NameValidationScheme = model.UTF8Validation
}

const (
	successExitCode = 0
	failureExitCode = 1
	// Exit code 3 is used for "one or more lint issues detected".
	lintErrExitCode = 3

	lintOptionAll                   = "all"
	lintOptionDuplicateRules        = "duplicate-rules"
	lintOptionTooLongScrapeInterval = "too-long-scrape-interval"
	lintOptionNone                  = "none"
	checkHealth                     = "/-/healthy"
	checkReadiness                  = "/-/ready"
)

// end upstream

// upstream cmd/promtool/query.go
func parseTime(s string) (time.Time, error) {
	if t, err := strconv.ParseFloat(s, 64); err == nil {
		s, ns := math.Modf(t)
		return time.Unix(int64(s), int64(ns*float64(time.Second))).UTC(), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("cannot parse %q to a valid timestamp", s)
}

// end upstream

// TestRules runs what `promtool test rules [--junit FILE] FILE...` runs
// with no other flag (--run, --debug, --diff, --ignore-unknown-fields and
// --enable-feature at their defaults), in process: it returns the exit code
// (0 success, 1 failure), writes the JUnit XML report to results (io.Discard
// when nil, as without --junit) and promtool's own report to os.Stdout and
// os.Stderr. The JUnit report carries every failure's text.
func TestRules(results io.Writer, testRulesFiles ...string) int {
	if results == nil {
		results = io.Discard
	}
	// The flags' values when not given (main.go: --run is Strings(), the
	// other three Default("false").Bool()).
	var (
		testRulesRun                 []string
		testRulesDiff                = false
		testRulesDebug               = false
		testRulesIgnoreUnknownFields = false
	)
	// upstream cmd/promtool/main.go
	promtoolParser := parser.NewParser(promtoolParserOpts)
	// end upstream

	// upstream cmd/promtool/main.go, edited: the flags are values, not
	// pointers (no "*"), and the exit code is returned ("return" for
	// "os.Exit(", without its closing parenthesis).
	return RulesUnitTestResult(results,
		promqltest.LazyLoaderOpts{
			EnableAtModifier:         true,
			EnableNegativeOffset:     true,
			EnableDelayedNameRemoval: promqlEnableDelayedNameRemoval,
		},
		promtoolParser,
		testRulesRun,
		testRulesDiff,
		testRulesDebug,
		testRulesIgnoreUnknownFields,
		testRulesFiles...)
	// end upstream
}

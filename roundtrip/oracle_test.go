package roundtrip

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"sigs.k8s.io/yaml"
)

// TestUpstreamOracle is the standing differential test against the oracle:
// the upstream charts in ../../shared/upstream (the templates the library
// replaces), rendered in process by Helm's engine, for generated inputs of
// both callers (oracle_gen_test.go). Each input falls in one of three
// classes, and anything else fails with the seed, the values and the diff:
//
//   - (a) both render: the library's objects must equal the upstream
//     objects with SPEC's deliberate differences applied, each computed
//     independently here and checked exactly (oracle_expect_test.go);
//   - (b) only the library refuses: the error is a *invalid.Error whose field
//     names an input this test independently finds in a class SPEC (6) or the
//     README (8) lists;
//   - (c) the upstream chart fails (values.schema.json, a template's fail,
//     a template error): the library refuses too, naming the input the
//     chart failed on (or another input of a refused class, when the
//     input has several faults).
//
// Two differences are checked exactly besides SPEC's, the README's 7 (the
// cleanup Job name) and 9, which this test found and which the library
// does not copy: the upstream template prints values.size unquoted, so YAML
// reads a size spelled like a number ("4e+9", "+8589934592") as that
// number, while the library keeps the quantity as given (same value).
//
// ETCDSHAPES_ORACLE_N sets the inputs per caller (default 500; at 500 or
// more every generator class and every deliberate difference must occur),
// ETCDSHAPES_ORACLE_BASE the first seed (default 1), and
// ETCDSHAPES_ORACLE_SEEDS=3,17 runs only those seeds: one input reruns with
// ETCDSHAPES_ORACLE_SEEDS=17 go test -run 'TestUpstreamOracle/cluster/seed=17$' .
// ETCDSHAPES_UPSTREAM names another upstream directory.
func TestUpstreamOracle(t *testing.T) {
	seeds := oracleSeeds(t)
	pool := newUpstreamPool(t, upstreamDir())
	var mu sync.Mutex
	stats := map[naming.Caller]*oracleStats{}
	start := time.Now()
	for _, caller := range naming.Callers() {
		st := &oracleStats{classes: map[string]int{}, differences: map[string]int{}, refusals: map[string]int{}}
		stats[caller] = st
		t.Run(caller.String(), func(t *testing.T) {
			for _, seed := range seeds {
				t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
					t.Parallel()
					in := generate(caller, seed)
					res := checkOracle(t, pool, in)
					mu.Lock()
					defer mu.Unlock()
					st.add(in, res)
				})
			}
		})
	}
	for _, caller := range naming.Callers() {
		st := stats[caller]
		t.Logf("%s: %d inputs: (a) both render %d (%d of them render nothing), (b) library refuses %d, (c) upstream fails %d; deliberate differences applied: %s; refused fields: %s",
			caller, st.total, st.outcomes["a"], st.empty, st.outcomes["b"], st.outcomes["c"], st.describe(st.differences), st.describe(st.refusals))
		if testing.Verbose() {
			t.Logf("%s classes: %s", caller, st.describe(st.classes))
		}
	}
	t.Logf("upstream oracle: %d inputs per caller (seeds %d to %d) in %s", len(seeds), seeds[0], seeds[len(seeds)-1], time.Since(start).Round(time.Millisecond))
	if len(seeds) >= 500 && os.Getenv("ETCDSHAPES_ORACLE_SEEDS") == "" && !t.Failed() {
		for _, caller := range naming.Callers() {
			stats[caller].requireCoverage(t, caller)
		}
	}
}

// oracleSeeds are the seeds of this run.
func oracleSeeds(t *testing.T) []int64 {
	if s := os.Getenv("ETCDSHAPES_ORACLE_SEEDS"); s != "" {
		var out []int64
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil {
				t.Fatalf("ETCDSHAPES_ORACLE_SEEDS: %v", err)
			}
			out = append(out, n)
		}
		return out
	}
	n, base := 500, int64(1)
	if s := os.Getenv("ETCDSHAPES_ORACLE_N"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("ETCDSHAPES_ORACLE_N: %q is not a positive number", s)
		}
		n = v
	}
	if s := os.Getenv("ETCDSHAPES_ORACLE_BASE"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("ETCDSHAPES_ORACLE_BASE: %v", err)
		}
		base = v
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = base + int64(i)
	}
	return out
}

// --- the upstream charts

// upstreamWhat says what ETCDSHAPES_UPSTREAM names, for the messages of
// the tests that read it.
const upstreamWhat = "ETCDSHAPES_UPSTREAM names the directory of the upstream Helm templates the library replaces: " +
	"cozy-lib/ (Cozystack's packages/library/cozy-lib), etcd/ (packages/extra/etcd) and kubernetes/ (packages/apps/kubernetes), " +
	"each with its Chart.yaml and templates/, carrying docs/differences.md 1–3 and 10; unset, ../../shared/upstream beside the checkout (docs/testing.md)"

// upstreamDir is the upstream charts' directory: the shared directory beside
// the checkout, unless ETCDSHAPES_UPSTREAM names another.
func upstreamDir() string {
	if d := os.Getenv("ETCDSHAPES_UPSTREAM"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "upstream")
}

// upstreamPool hands out loaded upstream charts, one per concurrent render:
// Helm's value coalescing may link a chart's default maps into the values
// of a render, so two renders never share a chart.
type upstreamPool struct {
	dir  string
	mu   sync.Mutex
	free map[naming.Caller][]*chart.Chart
}

func newUpstreamPool(t *testing.T, dir string) *upstreamPool {
	for _, c := range []string{"etcd", "kubernetes"} {
		if _, err := os.Stat(filepath.Join(dir, c, "Chart.yaml")); err != nil {
			t.Fatalf("the upstream charts are missing: %v. %s", err, upstreamWhat)
		}
	}
	return &upstreamPool{dir: dir, free: map[naming.Caller][]*chart.Chart{}}
}

func chartDir(caller naming.Caller) string {
	if caller == naming.CallerEtcd {
		return "etcd"
	}
	return "kubernetes"
}

func (p *upstreamPool) get(caller naming.Caller) (*chart.Chart, error) {
	p.mu.Lock()
	if l := p.free[caller]; len(l) > 0 {
		c := l[len(l)-1]
		p.free[caller] = l[:len(l)-1]
		p.mu.Unlock()
		return c, nil
	}
	p.mu.Unlock()
	return loader.LoadDir(filepath.Join(p.dir, chartDir(caller)))
}

func (p *upstreamPool) put(caller naming.Caller, c *chart.Chart) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free[caller] = append(p.free[caller], c)
}

// render renders the upstream chart of the input's caller like
// `helm template <release> <chart> --namespace <ns> -f values --api-versions …`,
// with the live state in the _live values the upstream kubernetes chart
// reads instead of lookup.
func (p *upstreamPool) render(in oracleInput, values []byte) (string, error) {
	c, err := p.get(in.caller)
	if err != nil {
		return "", err
	}
	defer p.put(in.caller, c)
	vals, err := chartutil.ReadValues(values)
	if err != nil {
		return "", err
	}
	live := map[string]any{}
	if in.live.DataStoreName != "" {
		live["kamajiControlPlane"] = map[string]any{"spec": map[string]any{"dataStoreName": in.live.DataStoreName}}
	}
	if in.live.StorageClassName != nil {
		live["etcdCluster"] = map[string]any{"spec": map[string]any{"storage": map[string]any{"storageClassName": *in.live.StorageClassName}}}
	}
	if len(live) > 0 {
		vals["_live"] = live
	}
	caps := chartutil.DefaultCapabilities.Copy()
	caps.APIVersions = append(caps.APIVersions, in.apis...)
	top, err := chartutil.ToRenderValues(c, vals, chartutil.ReleaseOptions{Name: in.release, Namespace: in.namespace, IsInstall: true}, caps)
	if err != nil {
		return "", err
	}
	out, err := engine.Render(c, top)
	if err != nil {
		return "", err
	}
	names := sortedKeys(out)
	var b strings.Builder
	for _, n := range names {
		if strings.HasSuffix(n, "NOTES.txt") {
			continue
		}
		b.WriteString("---\n# Source: " + n + "\n" + out[n] + "\n")
	}
	return b.String(), nil
}

// --- one input

// oracleResult is what one input showed.
type oracleResult struct {
	outcome     string // "a", "b" or "c"
	empty       bool   // (a) with no object on either side
	differences []string
	refusal     string // the library's field, (b) and (c)
}

// checkOracle renders in with the upstream chart and the library and
// classifies the pair.
func checkOracle(t *testing.T, pool *upstreamPool, in oracleInput) oracleResult {
	t.Helper()
	raw := in.valuesYAML()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s\n--- input (rerun: ETCDSHAPES_ORACLE_SEEDS=%d go test -run 'TestUpstreamOracle/%s/seed=%d$' .):\n%s",
			fmt.Sprintf(format, args...), in.seed, in.caller, in.seed, in.describe())
	}
	libYAML, libErr := goRender(renderInput{caller: in.caller, release: in.release, namespace: in.namespace, values: raw, apiVersions: in.apis, live: in.live})
	upYAML, upErr := pool.render(in, raw)
	var diffs []string
	// oracleIn is the input the upstream objects come from: the input, or
	// the input with what a deliberate difference replaces neutralised.
	oracleIn := in

	// Difference 4 on a YAML number: the upstream quota helper takes only a
	// string (regexFind) and fails. The oracle for the rest is the same size
	// spelled as a string; the quota is checked below like any other unit.
	if upErr != nil && quotaTypeError.MatchString(upErr.Error()) {
		f, ok := in.values["size"].(float64)
		if !ok {
			fail("the upstream quota helper fails on a size that is not a number: %v", upErr)
		}
		oracleIn = cloneInput(in)
		oracleIn.values["size"] = strconv.FormatFloat(f, 'f', -1, 64)
		upYAML, upErr = pool.render(in, oracleIn.valuesYAML())
		diffs = append(diffs, "4:number-size")
	}

	var up []object
	upGarbage := ""
	if upErr == nil {
		var err error
		up, err = oracleCanon(upYAML, in.namespace)
		if err != nil && dupSelector.MatchString(err.Error()) {
			// Difference 5: the upstream template adds a second
			// labelSelector to a last constraint that has one: YAML
			// with a duplicate key. The oracle for the rest is the
			// same input without that selector; the constraints are
			// checked below against their own expectation.
			alt, ok := withoutLastSelector(oracleIn)
			if !ok {
				fail("upstream render has a duplicate labelSelector, but the last constraint has none: %v", err)
			}
			upYAML2, err2 := pool.render(in, alt.valuesYAML())
			if err2 != nil {
				fail("upstream render of the input without the last selector fails: %v", err2)
			}
			up, err = oracleCanon(upYAML2, in.namespace)
			diffs = append(diffs, "5:duplicate-selector")
		}
		if err != nil {
			upGarbage = err.Error()
			up = nil
		}
	}
	faults := inputFaults(in, up)

	var ne *invalid.Error
	switch {
	case upErr != nil:
		// (c) the upstream chart fails.
		if libErr == nil {
			fail("(c) the upstream chart fails but the library renders:\n  upstream: %v", upErr)
		}
		if !errors.As(libErr, &ne) {
			fail("(c) the library refuses with %T %v, not a *invalid.Error", libErr, libErr)
		}
		fields, known := upstreamErrorFields(in, upErr)
		if !known {
			fail("(c) the upstream error is of no known kind; extend upstreamErrorFields:\n  upstream: %v\n  library:  %v", upErr, libErr)
		}
		if !fieldIn(ne.Field, fields) && !fieldIn(ne.Field, faults.strict()) {
			fail("(c) the library's field %q names another input than the upstream error (%q) or any listed fault (%v):\n  upstream: %v\n  library:  %v",
				ne.Field, fields, faults, upErr, libErr)
		}
		return oracleResult{outcome: "c", refusal: ne.Field}
	case libErr != nil:
		// (b) only the library refuses.
		if !errors.As(libErr, &ne) {
			fail("(b) the library refuses with %T %v, not a *invalid.Error", libErr, libErr)
		}
		if !fieldIn(ne.Field, faults.all()) {
			fail("(b) the library refuses an input the upstream chart renders, and the test finds that field in no class SPEC or the README lists:\n  library: %v\n  faults found: %v\n  upstream garbage: %s",
				libErr, faults, upGarbage)
		}
		return oracleResult{outcome: "b", refusal: ne.Field}
	}
	// (a) both render.
	if upGarbage != "" {
		fail("(a) the library renders where the upstream chart renders unparseable YAML:\n  %s\n--- library:\n%s", upGarbage, libYAML)
	}
	if s := faults.strict(); len(s) > 0 {
		fail("(a) the library renders an input in a refused class: %v", faults)
	}
	want, applied, err := expectFromUpstream(in, up)
	if err != nil {
		fail("(a) the upstream render does not have the shape the deliberate differences assume: %v\n--- upstream:\n%s", err, upYAML)
	}
	diffs = append(diffs, applied...)
	got, err := oracleCanon(libYAML, in.namespace)
	if err != nil {
		fail("(a) library output: %v", err)
	}
	if d := diffObjects(want, got); len(d) > 0 {
		fail("(a) the library's objects differ from the upstream objects with SPEC's deliberate differences %v applied (want = upstream+differences, got = library):\n  %s",
			diffs, strings.Join(d, "\n  "))
	}
	return oracleResult{outcome: "a", empty: len(got) == 0, differences: diffs}
}

var (
	quotaTypeError = regexp.MustCompile(`executing "cozy-lib\.etcd\.quotaBackendBytes" at <\.>: wrong type for value; expected string; got float64`)
	dupSelector    = regexp.MustCompile(`"labelSelector" already set in map|key "labelSelector" already`)
)

// cloneInput copies an input deep enough to change its values.
func cloneInput(in oracleInput) oracleInput {
	var v map[string]any
	if err := yaml.Unmarshal(in.valuesYAML(), &v); err != nil {
		panic(err)
	}
	if v == nil {
		v = map[string]any{}
	}
	in.values = v
	return in
}

// oracleCanon parses a render into objects as canon does (kcanon's rules),
// with numbers read as the API server reads them: a quantity written as a
// YAML number is the quantity of its JSON text (kcanon prints it with %v
// first, "5e+09" for the "5000000000" the API server sees), and a quota
// near 2^63 stays an exact integer.
func oracleCanon(doc, ns string) ([]object, error) {
	var out []object
	for _, d := range docSep.Split(doc, -1) {
		js, err := yaml.YAMLToJSONStrict([]byte(d)) // a duplicate key is an error, not the last value
		if err != nil {
			return nil, fmt.Errorf("%w in:\n%s", err, d)
		}
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("%w in:\n%s", err, d)
		}
		if m == nil {
			continue
		}
		normalizeMeta(m, ns)
		walk(m, "") // quantities from the JSON text, as the API server reads them
		exactNumbers(m)
		prune(m)
		out = append(out, object{objectKey(m), m})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out, nil
}

func objectKey(m map[string]any) string {
	md, _ := m["metadata"].(map[string]any)
	return fmt.Sprintf("%v %v %v/%v", m["apiVersion"], m["kind"], md["namespace"], md["name"])
}

// mapLeaves replaces, in place, every value of v's maps and lists at any
// depth that is neither a map nor a list by f of it; v itself when it is
// neither gives f(v).
func mapLeaves(v any, f func(any) any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			t[k] = mapLeaves(c, f)
		}
	case []any:
		for i, c := range t {
			t[i] = mapLeaves(c, f)
		}
	default:
		return f(v)
	}
	return v
}

// exactNumbers turns every json.Number into an int64 when it is a whole
// number that fits, else into a float64, and a whole float64 that fits in
// 2^53 into an int64, so that numbers compare by value whichever parser
// read them; quantities are canonicalised from there by walk.
func exactNumbers(v any) any { return mapLeaves(v, exactNumber) }

// exactNumber is exactNumbers of one value that is neither a map nor a
// list.
func exactNumber(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(t), 64)
		return f
	case float64:
		if t == float64(int64(t)) && t > -(1<<53) && t < 1<<53 {
			return int64(t)
		}
	}
	return v
}

// --- statistics and coverage

type oracleStats struct {
	total       int
	outcomes    map[string]int
	empty       int
	classes     map[string]int
	differences map[string]int
	refusals    map[string]int
}

func (s *oracleStats) add(in oracleInput, r oracleResult) {
	if s.outcomes == nil {
		s.outcomes = map[string]int{}
	}
	s.total++
	s.outcomes[r.outcome]++
	if r.empty {
		s.empty++
	}
	for _, c := range in.classes {
		s.classes[c]++
	}
	seen := map[string]bool{}
	for _, d := range r.differences {
		if !seen[d] {
			s.differences[d]++
			seen[d] = true
		}
	}
	if r.refusal != "" {
		f := r.refusal
		if i := strings.IndexByte(f, '['); i >= 0 {
			f = f[:i]
		}
		s.refusals[r.outcome+":"+f]++
	}
}

func (s *oracleStats) describe(m map[string]int) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

// requireCoverage fails when a run of 500 or more inputs missed a class the
// generator is meant to cover, a deliberate difference, or an outcome.
func (s *oracleStats) requireCoverage(t *testing.T, caller naming.Caller) {
	t.Helper()
	var missing []string
	for _, o := range []string{"a", "b", "c"} {
		if s.outcomes[o] == 0 {
			missing = append(missing, "outcome "+o)
		}
	}
	for _, c := range requiredClasses[caller] {
		found := false
		for k := range s.classes {
			if k == c || strings.HasPrefix(k, c+"-") {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, "class "+c)
		}
	}
	for _, d := range requiredDifferences[caller] {
		if s.differences[d] == 0 {
			missing = append(missing, "difference "+d)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%s: the generated inputs missed: %s", caller, strings.Join(missing, ", "))
	}
}

// TestOracleGeneratorDeterministic: a seed gives the same input every time,
// so a failure's seed reproduces it.
func TestOracleGeneratorDeterministic(t *testing.T) {
	for _, caller := range naming.Callers() {
		for seed := int64(0); seed < 200; seed++ {
			a, b := generate(caller, seed), generate(caller, seed)
			if a.describe() != b.describe() {
				t.Fatalf("%s seed %d differs:\n%s\n%s", caller, seed, a.describe(), b.describe())
			}
		}
	}
}

package roundtrip

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/naming"
	"helm.sh/helm/v3/pkg/chartutil"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"
)

// This file holds what TestUpstreamOracle knows independently of the
// library: SPEC's rules for names and the quota, the deliberate differences
// applied to an upstream render, the input classes SPEC and the README say
// the library refuses, and which input an upstream failure names. Nothing
// here calls the library's code; constants are SPEC's.

const instanceLabel = "app.kubernetes.io/instance"

// --- SPEC's rules, written out again

// hashName is SPEC's truncation: full when it fits in limit, else the first
// keep characters of full without suffix, one trailing "-" then one
// trailing "." trimmed, "-", 8 hex digits of sha256(full), suffix.
func hashName(full string, limit, keep int, suffix string) string {
	if len(full) <= limit {
		return full
	}
	readable := strings.TrimSuffix(full, suffix)
	readable = readable[:min(len(readable), keep)]
	readable = strings.TrimSuffix(strings.TrimSuffix(readable, "-"), ".")
	sum := sha256.Sum256([]byte(full))
	return readable + "-" + hex.EncodeToString(sum[:])[:8] + suffix
}

func ownDataStoreName(ns, release string) string { return hashName(ns+"."+release, 63, 54, "") }
func defragName(name string) string              { return hashName(name+"-defrag", 52, 36, "-defrag") }
func cleanupJobName(name string) string          { return hashName(name+"-cleanup", 63, 46, "-cleanup") }

// etcdName is the EtcdCluster name of the input.
func etcdName(in oracleInput) string {
	if in.caller == naming.CallerEtcd {
		return "etcd"
	}
	return in.release + "-etcd"
}

// sharedDataStore: the live KamajiControlPlane names another datastore, so
// the cluster renders nothing.
func sharedDataStore(in oracleInput) bool {
	return in.caller == naming.CallerCluster && in.live.DataStoreName != "" && in.live.DataStoreName != ownDataStoreName(in.namespace, in.release)
}

// quantityString spells a values scalar as the library and the API read it
// (a YAML number as its shortest decimal).
func quantityString(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), true
	}
	return "", false
}

// quantityGrammar is the Kubernetes quantity grammar (resource.ParseQuantity's).
var quantityGrammar = regexp.MustCompile(`^([+-]?)([0-9]*\.?[0-9]*)(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?[0-9]+|[numkMGTPE]?)$`)

// beyondBounds is why a values scalar of the quantity grammar is beyond
// the README's quantity bounds (class 8): a text longer than 64
// characters, an exponent beyond ±99, or a value of 2^63 or more once read
// as a float64 (the nearest float64 of its exact value, computed here with
// big.Rat, independently of the library). A YAML number (the float64 Helm
// holds) is held to the last alone, as its spelling is the library's.
func beyondBounds(v any) (string, bool) {
	const limit = 1 << 63
	if f, isNum := v.(float64); isNum {
		if !(math.Abs(f) < limit) {
			return "a number of 2^63 or more", true
		}
		return "", false
	}
	s, isStr := v.(string)
	m := quantityGrammar.FindStringSubmatch(s)
	if !isStr || m == nil {
		return "", false
	}
	if len(s) > 64 {
		return "longer than 64 characters", true
	}
	num := strings.TrimSuffix(m[2], ".")
	if strings.HasPrefix(num, ".") || num == "" {
		num = "0" + num
	}
	mant, ok := new(big.Rat).SetString(m[1] + num)
	if !ok {
		return "", false
	}
	exp10, exp2 := int64(0), int64(0)
	switch suffix := m[3]; {
	case strings.HasSuffix(suffix, "i"):
		exp2 = 10 * int64(strings.Index("KMGTPE", suffix[:1])+1)
	case len(suffix) <= 1:
		exp10 = map[string]int64{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}[suffix]
	default:
		e, err := strconv.ParseInt(strings.TrimPrefix(suffix[1:], "+"), 10, 64)
		if err != nil || e > 99 || e < -99 {
			return "an exponent beyond ±99", true
		}
		exp10 = e
	}
	val := new(big.Rat).Mul(mant, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(exp2))))
	p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(exp10)), nil))
	if exp10 < 0 {
		p.Inv(p)
	}
	if f, _ := val.Mul(val, p).Float64(); !(math.Abs(f) < limit) {
		return "2^63 or more as a float64", true
	}
	return "", false
}

// notHeldExactly is why a values scalar within the bounds is a quantity
// the charts' float64 arithmetic does not hold exactly (class 8, the
// README's quantity.ChartRule), computed here from the exact value with
// big.Rat and the decimal expansion, independently of the library: a
// number (as written, or a YAML number's shortest decimal) or a value
// (the number times its suffix) of more than 15 significant digits, a
// value that is no whole number of nano-units, one from 2^53 on that is
// no float64, or one in Ei that Sprig's reading of 2^60
// (1152921504606847000) makes another float64.
func notHeldExactly(v any) (string, bool) {
	s, isStr := v.(string)
	if f, isNum := v.(float64); isNum {
		s, isStr = strconv.FormatFloat(f, 'g', -1, 64), true
	}
	m := quantityGrammar.FindStringSubmatch(s)
	if !isStr || m == nil {
		return "", false
	}
	digits := func(dec string) int {
		return len(strings.Trim(strings.ReplaceAll(strings.ReplaceAll(dec, ".", ""), "-", ""), "0"))
	}
	if digits(m[2]) > 15 {
		return "a number of more than 15 significant digits", true
	}
	num := strings.TrimSuffix(m[2], ".")
	if strings.HasPrefix(num, ".") || num == "" {
		num = "0" + num
	}
	mant, ok := new(big.Rat).SetString(num)
	if !ok {
		return "", false
	}
	exp10, exp2 := int64(0), uint(0)
	switch suffix := m[3]; {
	case strings.HasSuffix(suffix, "i"):
		exp2 = 10 * uint(strings.Index("KMGTPE", suffix[:1])+1)
	case len(suffix) <= 1:
		exp10 = map[string]int64{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}[suffix]
	default:
		exp10, _ = strconv.ParseInt(strings.TrimPrefix(suffix[1:], "+"), 10, 64)
	}
	p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(exp10)), nil))
	if exp10 < 0 {
		p.Inv(p)
	}
	val := new(big.Rat).Mul(mant, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), exp2)))
	val.Mul(val, p)
	if digits(val.FloatString(200)) > 15 {
		return "a value of more than 15 significant digits", true
	}
	if !new(big.Rat).Mul(val, big.NewRat(1_000_000_000, 1)).IsInt() {
		return "a fraction of a nano-unit", true
	}
	if val.Cmp(new(big.Rat).SetFloat64(1<<53)) >= 0 {
		if _, exact := val.Float64(); !exact {
			return "2^53 or more and no float64", true
		}
	}
	if m[3] == "Ei" {
		up, _ := new(big.Rat).Mul(mant, new(big.Rat).SetInt64(1152921504606847000)).Float64()
		if want, _ := val.Float64(); up != want {
			return "in Ei, which Sprig reads as another float64", true
		}
	}
	return "", false
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// quota is SPEC's quotaBackendBytes, size × 0.95 formatted like %.0f,
// computed from the exact size: ok is false when the size is no quantity.
func quota(size any) (*big.Int, bool) {
	s, ok := quantityString(size)
	if !ok {
		return nil, false
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return nil, false
	}
	exact, ok := new(big.Rat).SetString(q.AsDec().String())
	if !ok {
		return nil, false
	}
	f, _ := exact.Mul(exact, big.NewRat(95, 100)).Float64()
	n, ok := new(big.Int).SetString(strconv.FormatFloat(f, 'f', 0, 64), 10)
	return n, ok
}

// effectiveSize is the size the input's EtcdCluster gets.
func effectiveSize(in oracleInput) any {
	if in.caller == naming.CallerEtcd {
		if s, ok := in.values["size"]; ok {
			return s
		}
	}
	return "4Gi"
}

// sizeSpellings are a size as the upstream EtcdCluster gets it and as the
// library prints it, both canonicalised.
type sizeSpellings struct{ upstream, library any }

// unquotedSizeDifference: the upstream template writes "size: <value>"
// unquoted; when YAML reads that value as a number whose quantity is
// spelled differently from the quantity as written, ok is true. The two
// must be the same amount.
func unquotedSizeDifference(size string) (sizeSpellings, bool) {
	js, err := yaml.YAMLToJSON([]byte("size: " + size))
	if err != nil {
		return sizeSpellings{}, false
	}
	var m map[string]json.Number
	if json.Unmarshal(js, &m) != nil {
		return sizeSpellings{}, false // YAML read a string: printed as given
	}
	up, err1 := resource.ParseQuantity(string(m["size"]))
	lib, err2 := resource.ParseQuantity(size)
	if err1 != nil || err2 != nil || up.Cmp(lib) != 0 || up.String() == lib.String() {
		return sizeSpellings{}, false
	}
	return sizeSpellings{up.String(), lib.String()}, true
}

// upstreamKnowsUnit reports whether the upstream quota helper computes a
// size: it takes the first run of digits and dots and the first run of
// letters, and knows only Ki, Mi and Gi (anything else gives 0).
func upstreamKnowsUnit(size string) bool {
	unit := regexp.MustCompile(`[a-zA-Z]+`).FindString(size)
	return unit == "Ki" || unit == "Mi" || unit == "Gi"
}

// --- (a): the deliberate differences applied to the upstream objects

// expectFromUpstream is what the library must render for an input both
// sides render: the upstream objects with SPEC's deliberate differences
// applied, each checked against what the upstream template is known to
// render first. applied names the differences that changed something.
func expectFromUpstream(in oracleInput, up []object) ([]object, []string, error) {
	var applied []string
	byKind := map[string][]map[string]any{}
	for _, o := range up {
		k, _ := o.val["kind"].(string)
		byKind[k] = append(byKind[k], o.val)
	}
	if sharedDataStore(in) {
		if len(up) != 0 {
			return nil, nil, fmt.Errorf("a cluster on a shared datastore renders %d objects upstream", len(up))
		}
		return up, []string{"shared-datastore"}, nil
	}
	name := etcdName(in)
	clusters, crons := byKind["EtcdCluster"], byKind["CronJob"]
	if len(clusters) != 1 || len(crons) != 1 {
		return nil, nil, fmt.Errorf("want one EtcdCluster and one CronJob, got %d and %d", len(clusters), len(crons))
	}
	ec, cron := clusters[0], crons[0]

	// 4: every size unit works. The quota SPEC's rule gives, from the
	// exact size; the upstream helper must agree where it knows the unit
	// and renders 0 elsewhere.
	size := effectiveSize(in)
	want, ok := quota(size)
	if !ok {
		return nil, nil, fmt.Errorf("size %v is not a quantity", size)
	}
	opts, _ := dig(ec, "spec", "options").(map[string]any)
	upQuota := fmt.Sprint(opts["quotaBackendBytes"])
	sizeStr, _ := quantityString(size)
	switch {
	case upQuota == want.String():
	case upQuota == "0" && !upstreamKnowsUnit(sizeStr):
		opts["quotaBackendBytes"] = want.Int64()
		applied = append(applied, "4:quota")
	default:
		return nil, nil, fmt.Errorf("upstream quotaBackendBytes %s for size %q, SPEC's rule gives %s", upQuota, sizeStr, want)
	}

	// 9 (README's, not SPEC's; found by this test and reported): the
	// upstream template prints values.size unquoted, so YAML reads a size
	// spelled like a number ("4e+9", "+8589934592", "1E3") as that number
	// and the EtcdCluster gets the number; the library keeps the quantity
	// as given. Same value.
	if in.caller == naming.CallerEtcd {
		if u, ok := unquotedSizeDifference(sizeStr); ok {
			st, _ := dig(ec, "spec", "storage").(map[string]any)
			if st["size"] != u.upstream {
				return nil, nil, fmt.Errorf("upstream storage.size %v for size %q, the unquoted YAML gives %v", st["size"], sizeStr, u.upstream)
			}
			st["size"] = u.library
			applied = append(applied, "9:size-unquoted")
		}
	}

	// 1 (with 4): the defrag passes --compaction=false and the quota.
	// 2: its name obeys the 52-character rule.
	if n := dig(cron, "metadata", "name"); n != defragName(name) {
		return nil, nil, fmt.Errorf("upstream defrag CronJob %v, SPEC's rule gives %s", n, defragName(name))
	}
	if len(defragName(name)) > 52 {
		return nil, nil, fmt.Errorf("defrag name %s is over 52 characters", defragName(name))
	}
	if defragName(name) != name+"-defrag" {
		applied = append(applied, "2:defrag-name")
	}
	containers, _ := dig(cron, "spec", "jobTemplate", "spec", "template", "spec", "containers").([]any)
	if len(containers) != 1 {
		return nil, nil, fmt.Errorf("defrag CronJob has %d containers", len(containers))
	}
	args, _ := containers[0].(map[string]any)["args"].([]any)
	compaction, quotaArg := -1, -1
	for i, a := range args {
		switch s := fmt.Sprint(a); {
		case s == "--compaction=false":
			compaction = i
		case strings.HasPrefix(s, "--etcd-storage-quota-bytes="):
			quotaArg = i
			if v := strings.TrimPrefix(s, "--etcd-storage-quota-bytes="); v != want.String() {
				if v != "0" || upstreamKnowsUnit(sizeStr) {
					return nil, nil, fmt.Errorf("upstream defrag quota %s for size %q, SPEC's rule gives %s", v, sizeStr, want)
				}
				args[i] = "--etcd-storage-quota-bytes=" + want.String()
				applied = append(applied, "1+4:defrag-quota")
			}
		}
	}
	if compaction < 0 || quotaArg < 0 {
		return nil, nil, fmt.Errorf("the upstream defrag lacks difference 1: args %v", args)
	}
	applied = append(applied, "1:defrag-args")

	// 3: the etcd chart's VMPodScrape selects the instance.
	if in.caller == naming.CallerEtcd {
		ps := byKind["VMPodScrape"]
		if len(ps) != 1 || !reflect.DeepEqual(dig(ps[0], "spec", "selector", "matchLabels"), map[string]any{instanceLabel: "etcd"}) {
			return nil, nil, fmt.Errorf("the upstream VMPodScrape lacks difference 3: %v", ps)
		}
		applied = append(applied, "3:podscrape-selector")
	}

	// 5: every global spread constraint gets the member selector; one
	// with its own keeps it. Upstream adds it to the last one only.
	constraints, ok, err := inputConstraints(in)
	if err != nil {
		return nil, nil, err
	}
	if ok {
		selector := map[string]any{"matchLabels": map[string]any{instanceLabel: name}}
		upWant := cloneList(constraints)
		upWant[len(upWant)-1].(map[string]any)["labelSelector"] = selector
		libWant := cloneList(constraints)
		for _, c := range libWant {
			if _, has := c.(map[string]any)["labelSelector"]; !has {
				c.(map[string]any)["labelSelector"] = selector
			}
		}
		spec := ec["spec"].(map[string]any)
		if !reflect.DeepEqual(spec["topologySpreadConstraints"], upWant) {
			return nil, nil, fmt.Errorf("upstream spread constraints %v, want the input's with the selector on the last: %v", spec["topologySpreadConstraints"], upWant)
		}
		if !reflect.DeepEqual(upWant, libWant) {
			applied = append(applied, "5:spread-selectors")
		}
		spec["topologySpreadConstraints"] = libWant
	}

	// 7 (README): the cleanup Job name fits 63 characters.
	if in.caller == naming.CallerCluster {
		jobs := byKind["Job"]
		if len(jobs) != 1 {
			return nil, nil, fmt.Errorf("want one cleanup Job, got %d", len(jobs))
		}
		md := jobs[0]["metadata"].(map[string]any)
		if md["name"] != name+"-cleanup" {
			return nil, nil, fmt.Errorf("upstream cleanup Job %v", md["name"])
		}
		if n := cleanupJobName(name); n != name+"-cleanup" {
			md["name"] = n
			applied = append(applied, "7:cleanup-job-name")
		}
	}

	out := make([]object, 0, len(up))
	for _, o := range up {
		out = append(out, object{objectKey(o.val), o.val})
	}
	return out, applied, nil
}

func dig(m map[string]any, path ...string) any {
	var cur any = m
	for _, p := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[p]
	}
	return cur
}

func cloneList(l []any) []any {
	b, err := yaml.Marshal(l)
	if err != nil {
		panic(err)
	}
	var out []any
	if err := yaml.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return exactNumbers(out).([]any)
}

// inputConstraints are the input's global spread constraints, as a
// canonical list; ok is false when there are none.
func inputConstraints(in oracleInput) ([]any, bool, error) {
	c, _ := in.values["_cluster"].(map[string]any)
	sched, _ := c["scheduling"].(map[string]any)
	s, _ := sched["globalAppTopologySpreadConstraints"].(string)
	if s == "" {
		return nil, false, nil
	}
	var holder map[string]any
	if err := yaml.Unmarshal([]byte(s), &holder); err != nil {
		return nil, false, fmt.Errorf("input constraints: %v", err)
	}
	l, _ := holder["topologySpreadConstraints"].([]any)
	if len(l) == 0 {
		return nil, false, fmt.Errorf("input constraints hold no list: %q", s)
	}
	return cloneList(l), true, nil
}

// withoutLastSelector is the input without the labelSelector of its last
// global spread constraint.
func withoutLastSelector(in oracleInput) (oracleInput, bool) {
	alt := cloneInput(in)
	l, ok, err := inputConstraints(alt)
	if !ok || err != nil {
		return alt, false
	}
	last := l[len(l)-1].(map[string]any)
	if _, has := last["labelSelector"]; !has {
		return alt, false
	}
	delete(last, "labelSelector")
	s, err := yaml.Marshal(map[string]any{"topologySpreadConstraints": l})
	if err != nil {
		panic(err)
	}
	alt.values["_cluster"].(map[string]any)["scheduling"].(map[string]any)["globalAppTopologySpreadConstraints"] = string(s)
	return alt, true
}

// --- (b) and (c): the classes the library refuses

// faultSet maps an input field, in the library's terms, to why the input
// is in a class SPEC (difference 6) or the README (difference 8) says the
// library refuses. A strict fault must be refused; a loose one may be.
type faultSet map[string]fault

type fault struct {
	reason string
	strict bool
}

func (f faultSet) add(field, reason string) {
	if _, ok := f[field]; !ok {
		f[field] = fault{reason, true}
	}
}

func (f faultSet) loose(field, reason string) {
	if _, ok := f[field]; !ok {
		f[field] = fault{reason, false}
	}
}

func (f faultSet) all() []string { return sortedKeys(f) }

func (f faultSet) strict() []string {
	var out []string
	for _, k := range sortedKeys(f) {
		if f[k].strict {
			out = append(out, k)
		}
	}
	return out
}

func (f faultSet) String() string {
	var parts []string
	for _, k := range sortedKeys(f) {
		s := "strict"
		if !f[k].strict {
			s = "loose"
		}
		parts = append(parts, fmt.Sprintf("%s (%s: %s)", k, s, f[k].reason))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// fieldIn: field is one of fields or lies under one ("values.affinity"
// covers "values.affinity.nodeAffinity…").
func fieldIn(field string, fields []string) bool {
	for _, f := range fields {
		if field == f || strings.HasPrefix(field, f+".") || strings.HasPrefix(field, f+"[") {
			return true
		}
	}
	return false
}

var versionPattern = regexp.MustCompile(`^\d+\.\d+\.\d+$`) // the EtcdCluster CRD's spec.version

// inputFaults finds every refused class the input is in, from the input
// and the upstream objects (nil when upstream failed or rendered garbage).
func inputFaults(in oracleInput, up []object) faultSet {
	f := faultSet{}
	shared := sharedDataStore(in)
	// Names: a namespace that is not a tenant (6); for a tenant cluster a
	// release whose etcd name is over 56 characters or that is no DNS-1035
	// label (8), which apply only to rendered objects.
	if !isTenant(in.namespace) {
		if shared {
			f.loose("namespace", "not a tenant namespace")
		} else {
			f.add("namespace", "not a tenant namespace")
		}
	}
	if in.caller == naming.CallerCluster && !shared {
		if len(in.release)+len("-etcd") > 56 {
			f.add("release", "etcd name over 56 characters")
		}
		if len(validation.IsDNS1035Label(in.release)) > 0 {
			f.add("release", "not a DNS-1035 label: the <release>-etcd-client Service name is invalid")
		}
	}
	if in.caller == naming.CallerCluster && chartutil.ValidateReleaseName(in.release) != nil {
		// helm install refuses the release, so no such cluster exists; the
		// library may refuse it even on a shared datastore.
		f.loose("release", "a release name Helm refuses")
	}
	if in.caller == naming.CallerEtcd && in.release != "etcd" {
		f.add("release", "the etcd chart's release must be etcd")
	}
	// Nothing in the served API list is refused (the README's
	// --api-versions rule): an entry matches whole, as in Helm, so no
	// refusal class for it.
	if in.live.DataStoreName != "" && len(validation.IsDNS1123Subdomain(in.live.DataStoreName)) > 0 {
		f.add("live.dataStoreName", "not a DataStore name")
	}
	if in.live.StorageClassName != nil && *in.live.StorageClassName != "" && len(validation.IsDNS1123Subdomain(*in.live.StorageClassName)) > 0 {
		f.add("live.storageClassName", "not a StorageClass name")
	}

	cluster, hasCluster := in.values["_cluster"]
	cm, isMap := cluster.(map[string]any)
	if hasCluster && cluster != nil && !isMap {
		f.add("_cluster", "not a map")
	}
	ratios := map[string]float64{}
	for _, k := range ratioKeys {
		v, ok := cm[k]
		if !ok {
			continue
		}
		field := "_cluster." + k
		if v == nil {
			f.add(field, "null: the chart reads it as 0 and divides by it")
			continue
		}
		s, isStr := v.(string)
		if n, isNum := v.(float64); isNum {
			s, isStr = strconv.FormatFloat(n, 'f', -1, 64), true
		}
		r, err := strconv.ParseFloat(s, 64)
		_, written := v.(string)
		switch {
		case written && len(s) > 64:
			f.add(field, "a ratio longer than 64 characters")
		case !isStr || err != nil:
			f.add(field, "not a number")
		case r <= 0:
			f.add(field, "a ratio of 0 or below")
		default:
			ratios[k] = r
		}
	}
	for _, k := range []string{"etcd-storage-class-local", "etcd-storage-class-replicated"} {
		if in.caller != naming.CallerCluster {
			break
		}
		if v, ok := cm[k]; ok && v != nil {
			if s, isStr := v.(string); !isStr || (s != "" && len(validation.IsDNS1123Subdomain(s)) > 0) {
				f.add("_cluster."+k, "not a StorageClass name")
			}
		}
	}
	spreadFaults(f, cm)

	if in.caller == naming.CallerCluster {
		if e, ok := in.values["etcd"].(map[string]any); ok {
			if r := e["replicas"]; r != nil && r != 1.0 && r != 3.0 {
				f.add("etcd.replicas", "not 1 or 3")
			}
		}
		// Fixed resources 1000m/512Mi: a cpu or memory ratio below 1
		// makes the request exceed the limit.
		for _, k := range []string{"cpu-allocation-ratio", "memory-allocation-ratio"} {
			if r, ok := ratios[k]; ok && r < 1 {
				f.add("_cluster."+k, "below 1: the request exceeds its limit")
			}
		}
		return f
	}

	// The etcd chart's values. A null deletes the chart's default (Helm),
	// and the chart renders no version, no replica count, no quota.
	v := in.values
	for _, k := range []string{"version", "replicas", "size"} {
		if x, ok := v[k]; ok && x == nil {
			f.add("values."+k, "null: Helm deletes the chart's default")
		}
	}
	if x, ok := v["version"]; ok && x != nil {
		if s, isStr := x.(string); !isStr || !versionPattern.MatchString(s) {
			f.add("values.version", "not X.Y.Z (the EtcdCluster CRD's pattern)")
		}
	}
	if x, ok := v["replicas"]; ok && x != nil {
		if n, isNum := x.(float64); !isNum || n != float64(int64(n)) || n < 1 || n > 99 {
			f.add("values.replicas", "not a whole number from 1 to 99")
		}
	}
	if x, ok := v["size"]; ok && x != nil {
		// The bounds first: ParseQuantity of a text beyond them may not
		// end ("1e-999999999").
		reason, beyond := beyondBounds(x)
		s, isQ := quantityString(x)
		q, err := resource.Quantity{}, error(nil)
		if !beyond {
			q, err = resource.ParseQuantity(s)
		}
		max := new(big.Int).SetUint64(1 << 63)
		held, notHeld := notHeldExactly(x)
		switch {
		case beyond:
			f.add("values.size", "beyond the quantity bounds: "+reason)
		case !isQ || err != nil:
			f.add("values.size", "not a quantity")
		case notHeld:
			f.add("values.size", "not held exactly by the charts' float64 arithmetic: "+held)
		case q.Sign() <= 0:
			f.add("values.size", "not positive")
		case q.Cmp(resource.MustParse("256Mi")) < 0:
			f.add("values.size", "below 256Mi, where etcd's write-ahead log (2 x 64 MB, fallocated) does not fit")
		default:
			n, _ := quota(x)
			if n.Sign() < 1 || n.Cmp(max) >= 0 {
				f.add("values.size", "quota below one byte or over int64")
			}
		}
	}
	if x, ok := v["storageClass"]; ok && x != nil {
		if s, isStr := x.(string); !isStr || (s != "" && len(validation.IsDNS1123Subdomain(s)) > 0) {
			f.add("values.storageClass", "not a StorageClass name")
		}
	}
	if x, ok := v["affinity"]; ok && x != nil {
		affinityFaults(f, x)
	}
	resourceFaults(f, v, ratios, up)
	return f
}

func isTenant(ns string) bool {
	if len(validation.IsDNS1123Label(ns)) > 0 || !strings.HasPrefix(ns, "tenant-") {
		return false
	}
	for _, p := range strings.Split(strings.TrimPrefix(ns, "tenant-"), "-") {
		if p == "" {
			return false
		}
	}
	return true
}

// effectiveResources is the etcd chart's resources map after Helm's
// coalescing with the defaults (a null deletes a default); nil when the
// value is not a map.
func effectiveResources(v map[string]any) (map[string]any, bool) {
	out := map[string]any{"cpu": "1000m", "memory": "512Mi"}
	x, ok := v["resources"]
	if !ok || x == nil {
		return out, true
	}
	m, isMap := x.(map[string]any)
	if !isMap {
		return nil, false
	}
	for k, q := range m {
		if q == nil {
			delete(out, k)
		} else {
			out[k] = q
		}
	}
	return out, true
}

// resourceFaults: the Pod API's rules for a container resource (etcd-operator
// copies the resources into the member Pods) and the SPEC's flat map.
func resourceFaults(f faultSet, v map[string]any, ratios map[string]float64, up []object) {
	res, ok := effectiveResources(v)
	if !ok {
		f.add("values.resources", "not a map")
		return
	}
	hugepages, cpuOrMemory := false, false
	for _, name := range sortedKeys(res) {
		field := "values.resources." + name
		raw := res[name]
		if name == "limits" || name == "requests" {
			f.add(field, "a nested requests:/limits: section")
			continue
		}
		if _, nested := raw.(map[string]any); nested {
			f.add(field, "a nested map")
			continue
		}
		if len(validation.IsQualifiedName(name)) > 0 {
			f.add(field, "not a resource name")
			continue
		}
		if reason, beyond := beyondBounds(raw); beyond {
			f.add(field, "beyond the quantity bounds: "+reason)
			continue
		}
		if reason, notHeld := notHeldExactly(raw); notHeld {
			f.add(field, "not held exactly by the charts' float64 arithmetic: "+reason)
			continue
		}
		s, isQ := quantityString(raw)
		q, err := resource.ParseQuantity(s)
		if !isQ || err != nil {
			f.add(field, "not a quantity")
			continue
		}
		if q.Sign() < 0 {
			f.add(field, "negative")
			continue
		}
		if back, err := resource.ParseQuantity(q.String()); err != nil || back.Cmp(q) != 0 {
			f.add(field, "stored as another quantity")
			continue
		}
		switch {
		case name == "memory" && q.Sign() > 0 && q.Cmp(resource.MustParse("32Mi")) < 0:
			cpuOrMemory = true
			f.add(field, "below 32Mi, where an etcd member (32 MiB resident before it stores a key) is OOM-killed at start")
		case name == "cpu" || name == "memory":
			cpuOrMemory = true
		case name == "ephemeral-storage":
		case strings.HasPrefix(name, "hugepages-"):
			hugepages = true
			page, err := resource.ParseQuantity(strings.TrimPrefix(name, "hugepages-"))
			if _, notHeld := notHeldExactly(strings.TrimPrefix(name, "hugepages-")); err != nil || notHeld || page.Sign() <= 0 || page.MilliValue()%1000 != 0 {
				f.add(field, "an invalid huge page size")
				continue
			}
			lim, ok := new(big.Rat).SetString(q.AsDec().String())
			ps, _ := new(big.Rat).SetString(page.AsDec().String())
			if !ok || !new(big.Rat).Quo(lim, ps).IsInt() {
				f.add(field, "not a multiple of its page size")
			}
		case !strings.Contains(name, "/"):
			f.add(field, "not a container resource (cpu, memory, ephemeral-storage, hugepages-<size> or domain/name)")
		case strings.Contains(strings.SplitN(name, "/", 2)[0], "kubernetes.io") || strings.HasPrefix(name, "requests."):
			f.add(field, "an extended resource in kubernetes.io")
		default:
			if q.MilliValue()%1000 != 0 {
				f.add(field, "an extended resource that is not a whole number")
			}
		}
	}
	if hugepages && !cpuOrMemory {
		f.add("values.resources", "hugepages without cpu or memory")
	}
	// A byte request of 2^63 or more: the chart's integer conversion of
	// it is undefined (amd64: a negative request, which the API refuses).
	for name, def := range map[string]float64{"memory": 1, "ephemeral-storage": 40} {
		if _, beyond := beyondBounds(res[name]); beyond {
			continue
		}
		s, isQ := quantityString(res[name])
		q, err := resource.ParseQuantity(s)
		if !isQ || err != nil {
			continue
		}
		r, ok := ratios[name+"-allocation-ratio"]
		if !ok {
			r = def
		}
		lim, _ := new(big.Rat).SetString(q.AsDec().String())
		quo := new(big.Rat).Quo(lim, new(big.Rat).SetFloat64(r))
		if quo.Cmp(new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 63))) >= 0 {
			f.add("values.resources."+name, "its request is 2^63 bytes or more")
		}
	}
	// A request above its limit in what the upstream chart renders: the
	// API server refuses the member Pods. A ratio below 1 is the cause,
	// or the chart's float64 arithmetic rounding a limit up.
	for _, o := range up {
		if o.val["kind"] != "EtcdCluster" {
			continue
		}
		req, _ := dig(o.val, "spec", "resources", "requests").(map[string]any)
		lim, _ := dig(o.val, "spec", "resources", "limits").(map[string]any)
		for _, name := range sortedKeys(req) {
			rq, err1 := resource.ParseQuantity(fmt.Sprint(req[name]))
			lq, err2 := resource.ParseQuantity(fmt.Sprint(lim[name]))
			if err1 == nil && rq.Sign() < 0 {
				f.add("values.resources."+name, "the chart renders a negative request")
			}
			if err1 != nil || err2 != nil || rq.Cmp(lq) <= 0 {
				continue
			}
			ratio := name + "-allocation-ratio"
			if r, ok := ratios[ratio]; ok && r < 1 {
				f.add("_cluster."+ratio, "below 1: the request exceeds its limit")
			} else {
				f.add("values.resources."+name, "the chart's arithmetic makes the request exceed the limit")
			}
		}
	}
}

const spreadField = "_cluster.scheduling.globalAppTopologySpreadConstraints"

// spreadKnown are the fields of a TopologySpreadConstraint.
var spreadKnown = map[string]bool{"maxSkew": true, "topologyKey": true, "whenUnsatisfiable": true, "labelSelector": true,
	"minDomains": true, "nodeAffinityPolicy": true, "nodeTaintsPolicy": true, "matchLabelKeys": true}

// spreadFaults: the constraints must be a YAML string holding a non-empty
// topologySpreadConstraints: list (6), each constraint valid for the Pod
// API (8).
func spreadFaults(f faultSet, cm map[string]any) {
	sched, ok := cm["scheduling"]
	if !ok || sched == nil {
		return
	}
	sm, isMap := sched.(map[string]any)
	if !isMap {
		f.add("_cluster.scheduling", "not a map")
		return
	}
	raw, ok := sm["globalAppTopologySpreadConstraints"]
	if !ok || raw == nil {
		return
	}
	s, isStr := raw.(string)
	if !isStr {
		f.add(spreadField, "not a YAML string")
		return
	}
	if len(s) > 32<<10 {
		f.add(spreadField, "longer than 32 KiB")
		return
	}
	if s == "" {
		return // none; anything else upstream renders as constraints
	}
	var holder map[string]any
	if err := yaml.Unmarshal([]byte(s), &holder); err != nil {
		f.add(spreadField, "not YAML")
		return
	}
	list, _ := holder["topologySpreadConstraints"].([]any)
	if len(holder) != 1 || len(list) == 0 {
		f.add(spreadField, "no non-empty topologySpreadConstraints: list alone")
		return
	}
	type pair struct{ key, when any }
	seen := map[pair]bool{}
	for i, x := range list {
		field := fmt.Sprintf("%s[%d]", spreadField, i)
		c, _ := x.(map[string]any)
		for k := range c {
			if !spreadKnown[k] {
				f.add(spreadField, "an unknown constraint field "+k)
			}
		}
		if n, _ := c["maxSkew"].(float64); n < 1 {
			f.add(field+".maxSkew", "below 1")
		}
		key, _ := c["topologyKey"].(string)
		if key == "" || len(validation.IsQualifiedName(key)) > 0 {
			f.add(field+".topologyKey", "empty or not a label key")
		}
		when := c["whenUnsatisfiable"]
		if when != "DoNotSchedule" && when != "ScheduleAnyway" {
			f.add(field+".whenUnsatisfiable", "not DoNotSchedule or ScheduleAnyway")
		}
		if seen[pair{key, when}] {
			f.add(field, "a duplicate topologyKey and whenUnsatisfiable")
		}
		seen[pair{key, when}] = true
		if md, ok := c["minDomains"]; ok {
			if n, _ := md.(float64); n < 1 || when != "DoNotSchedule" {
				f.add(field+".minDomains", "below 1 or without DoNotSchedule")
			}
		}
		if sel, ok := c["labelSelector"].(map[string]any); ok {
			ml, _ := sel["matchLabels"].(map[string]any)
			for k, v := range ml {
				if len(validation.IsQualifiedName(k)) > 0 || len(validation.IsValidLabelValue(fmt.Sprint(v))) > 0 {
					f.add(field+".labelSelector", "an invalid label")
				}
			}
		}
	}
}

// affinityFaults: the Pod API's rules for the affinity the generator
// spells (8), and a map at all (6).
func affinityFaults(f faultSet, x any) {
	const field = "values.affinity"
	m, isMap := x.(map[string]any)
	if !isMap {
		f.add(field, "not a map")
		return
	}
	for k := range m {
		if k != "nodeAffinity" && k != "podAffinity" && k != "podAntiAffinity" {
			f.add(field, "an unknown field "+k)
		}
	}
	var walkTerms func(v any)
	walkTerms = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			if w, ok := t["weight"]; ok {
				if n, _ := w.(float64); n < 1 || n > 100 {
					f.add(field, "a weight outside 1-100")
				}
			}
			if _, ok := t["podAffinityTerm"]; !ok {
				if _, isTerm := t["labelSelector"]; isTerm {
					if k, _ := t["topologyKey"].(string); k == "" {
						f.add(field, "a pod affinity term without topologyKey")
					}
				}
			}
			if t["key"] == "metadata.name" {
				vals, _ := t["values"].([]any)
				for _, v := range vals {
					if n, _ := v.(string); len(validation.IsDNS1123Subdomain(n)) > 0 {
						f.add(field, "a node name (matchFields metadata.name) that is no DNS-1123 subdomain")
					}
				}
			}
			if terms, ok := t["nodeSelectorTerms"]; ok {
				if l, _ := terms.([]any); len(l) == 0 {
					f.add(field, "no node selector terms")
				}
			}
			if op, ok := t["operator"]; ok {
				vals, _ := t["values"].([]any)
				switch op {
				case "In", "NotIn":
					if len(vals) == 0 {
						f.add(field, op.(string)+" without values")
					}
				case "Exists", "DoesNotExist":
					if len(vals) > 0 {
						f.add(field, "Exists with values")
					}
				case "Gt", "Lt":
				default:
					f.add(field, fmt.Sprintf("an unknown operator %v", op))
				}
			}
			for _, c := range t {
				walkTerms(c)
			}
		case []any:
			for _, c := range t {
				walkTerms(c)
			}
		}
	}
	walkTerms(m)
}

// upstreamErrorFields names the inputs an upstream failure is about, in
// the library's terms; known is false for a failure of no known kind.
func upstreamErrorFields(in oracleInput, err error) (fields []string, known bool) {
	msg := err.Error()
	prefix := "values."
	if in.caller == naming.CallerCluster {
		prefix = ""
	}
	switch {
	case strings.Contains(msg, "values don't meet the specifications of the schema"):
		for _, m := range regexp.MustCompile(`at '(/[^']*)'`).FindAllStringSubmatch(msg, -1) {
			p := strings.Split(strings.TrimPrefix(m[1], "/"), "/")
			for i := range p {
				p[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(p[i])
			}
			fields = append(fields, prefix+strings.Join(p, "."))
		}
		return fields, len(fields) > 0
	case strings.Contains(msg, "The name of the release MUST BE"):
		return []string{"release"}, true
	case strings.Contains(msg, "is not a valid tenant identifier"):
		return []string{"namespace"}, true
	case regexp.MustCompile(`etcd name ".*" is \d+ characters long`).MatchString(msg):
		return []string{"release"}, true
	case strings.Contains(msg, "etcd.replicas: 2 members"):
		return []string{"etcd.replicas"}, true
	case strings.Contains(msg, "A flat map of resources expected"):
		return []string{"values.resources"}, true
	case strings.Contains(msg, "decimal division by 0"):
		// The ratio the chart reads as 0: a value ParseFloat refuses
		// (cast yields 0) or 0 itself.
		c, _ := in.values["_cluster"].(map[string]any)
		for _, k := range ratioKeys {
			v, ok := c[k]
			if !ok {
				continue
			}
			if r, err := strconv.ParseFloat(fmt.Sprint(v), 64); v == nil || err != nil || r == 0 {
				fields = append(fields, "_cluster."+k)
			}
		}
		return fields, len(fields) > 0
	case strings.Contains(msg, `executing "cozy-lib.etcd.cluster" at <fromYaml>`) ||
		strings.Contains(msg, `executing "cozy-lib.etcd.cluster" at <$rawConstraints>`):
		return []string{spreadField}, true
	case strings.Contains(msg, `executing "cozy-lib.etcd.quotaBackendBytes" at <.>: invalid value; expected string`):
		// No size at all: a null deleted the chart's default.
		return []string{"values.size"}, true
	case strings.Contains(msg, `executing "cozy-lib.etcd.cluster" at <.>: wrong type for value; expected map`):
		// get . "globalAppTopologySpreadConstraints" on a scheduling
		// that is not a map.
		return []string{"_cluster.scheduling"}, true
	case strings.Contains(msg, `executing "kubernetes.etcd.storageClass" at <index $cluster`):
		return []string{"_cluster"}, true
	case strings.Contains(msg, `at <dig "scheduling"`) || strings.Contains(msg, `at <index (.Values._cluster`) ||
		strings.Contains(msg, "cozyConfig") || strings.Contains(msg, `at <$cluster`):
		return []string{"_cluster"}, true
	}
	return nil, false
}

// requiredClasses are the generator classes a run of 500 or more inputs must
// cover per caller (a class matches itself and "<class>-…").
var requiredClasses = map[naming.Caller][]string{
	naming.CallerEtcd: {
		"size/Ki", "size/Mi", "size/Gi", "size/Ti", "size/Pi", "size/Ei", "size/k", "size/M", "size/G", "size/T", "size/P", "size/E",
		"size/m", "size/plain-integer", "size/plain-decimal", "size/exponent", "size/number", "size/invalid",
		"resources/cpu-m", "resources/cpu-number", "resources/cpu-exponent", "resources/cpu-decimal", "resources/cpu-integer", "resources/cpu-u", "resources/cpu-n", "resources/cpu-k",
		"resources/memory-Mi", "resources/memory-Gi", "resources/memory-Ki", "resources/memory-Ti", "resources/memory-Pi", "resources/memory-Ei",
		"resources/memory-M", "resources/memory-G", "resources/memory-T", "resources/memory-P", "resources/memory-k", "resources/memory-exponent", "resources/memory-integer", "resources/memory-number",
		"resources/ephemeral-storage", "resources/cpu-null", "resources/memory-null", "resources/hugepages", "resources/extended", "resources/invalid",
		"ratio/cpu-number-integer", "ratio/cpu-string-fraction", "ratio/memory-string-integer", "ratio/memory-number-fraction",
		"ratio/ephemeral-storage-string", "ratio/cpu-number-below-1", "ratio/invalid",
		"spread/one", "spread/several", "spread/with-selector", "spread/minDomains", "spread/policies", "spread/matchLabelKeys",
		"spread/other-scheduling-keys", "spread/empty-string", "spread/blank", "spread/invalid",
		"nulls/version", "nulls/replicas", "nulls/size", "nulls/resources", "nulls/_cluster.cpu-allocation-ratio", "nulls/backup", "nulls/_namespace",
		"affinity/empty", "affinity/node-required", "affinity/node-preferred", "affinity/pod-anti-required", "affinity/pod-anti-preferred", "affinity/pod-preferred", "affinity/combined", "affinity/invalid",
		"namespace/tenant-root", "namespace/depth-1", "namespace/depth-3", "namespace/depth-5", "namespace/length-63", "namespace/not-a-tenant",
		"release/not-etcd", "replicas/1", "replicas/99", "replicas/invalid", "version/X.Y.Z", "version/invalid",
		"storageClass/named", "storageClass/empty", "storageClass/invalid",
		"apis/none", "apis/cilium+vpa+vmpodscrape", "apis/unrelated",
		"platform/_namespace", "platform/unknown-cluster-keys", "platform/backup", "platform/cluster-not-a-map",
	},
	naming.CallerCluster: {
		"release/short", "release/defrag-limit-1", "release/defrag-limit+0", "release/defrag-limit+1", "release/cleanup-limit-1", "release/cleanup-limit+0",
		"release/cleanup-limit+1", "release/etcd-name-limit", "release/datastore-limit-1", "release/datastore-limit+0", "release/datastore-limit+1", "release/invalid",
		"namespace/tenant-root", "namespace/depth-2", "namespace/depth-4", "namespace/length-62", "namespace/not-a-tenant",
		"replicas/1", "replicas/3", "replicas/invalid",
		"ratio/cpu-number", "ratio/memory-string", "ratio/ephemeral-storage", "ratio/invalid",
		"spread/one", "spread/several", "spread/with-selector", "spread/policies", "spread/matchLabelKeys", "spread/blank", "spread/invalid",
		"nulls/etcd", "nulls/etcd.replicas", "nulls/_cluster.memory-allocation-ratio", "nulls/_cluster.etcd-storage-class-local",
		"storageClass/etcd-storage-class-local-named", "storageClass/etcd-storage-class-local-empty",
		"storageClass/etcd-storage-class-replicated-named", "storageClass/etcd-storage-class-replicated-empty", "storageClass/invalid",
		"live/none", "live/datastore-own", "live/datastore-other", "live/storage-class", "live/storage-class-empty", "live/storage-class-too", "live/invalid-name",
		"apis/none", "apis/cilium", "apis/vpa", "apis/vmpodscrape", "apis/cilium+vpa+vmpodscrape", "apis/unrelated",
		"platform/_namespace", "platform/unknown-cluster-keys", "platform/chart-values", "platform/cluster-not-a-map",
	},
}

// requiredDifferences are the deliberate differences a run of 500 or more
// inputs must exercise per caller.
var requiredDifferences = map[naming.Caller][]string{
	naming.CallerEtcd:    {"1:defrag-args", "1+4:defrag-quota", "3:podscrape-selector", "4:quota", "4:number-size", "5:spread-selectors", "5:duplicate-selector", "9:size-unquoted"},
	naming.CallerCluster: {"1:defrag-args", "2:defrag-name", "5:spread-selectors", "5:duplicate-selector", "7:cleanup-job-name", "shared-datastore"},
}

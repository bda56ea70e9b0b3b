package etcd

import (
	"errors"
	"fmt"
	"github.com/etcdshapes/etcdshapes/internal/jsonnum"
	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/etcdshapes/etcdshapes/invalid"
	"math"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/inf.v0"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Default allocation ratios of the platform (Cozystack's cozy-lib).
const (
	DefaultCPUAllocationRatio              = "10"
	DefaultMemoryAllocationRatio           = "1"
	DefaultEphemeralStorageAllocationRatio = "40"
)

// MaxRatioLength bounds an allocation ratio's text, in bytes: a ratio is
// a number the charts read as a float64 (strconv.ParseFloat, which takes
// any length), and every float64 is written exactly in at most 24
// characters ("-2.2250738585072014e-308"); 64 is a quantity's bound
// (internal/quantity.MaxLength), as a ratio divides quantities.
const MaxRatioLength = 64

// MaxRatio bounds an allocation ratio's value (above 0 and at most
// MaxRatio); RatioRangeRule is the refusal of a ratio outside.
const (
	MaxRatio       = 1e15
	RatioRangeRule = "must be a number above 0 and at most 1e15"
)

// RatioLengthRule is the refusal of a ratio longer than MaxRatioLength.
const RatioLengthRule = "is longer than 64 characters, the most a ratio takes (every float64 is written exactly in at most 24)"

// Ratios are the platform's overcommit ratios: a container's request is its
// limit divided by the ratio. They are decimal strings, as the platform
// configuration carries them ("4", "1.5"), of at most MaxRatioLength
// characters; empty means the default.
type Ratios struct {
	// CPU is the CPU ratio; empty means DefaultCPUAllocationRatio.
	CPU string
	// Memory is the memory ratio; empty means DefaultMemoryAllocationRatio.
	Memory string
	// EphemeralStorage is the ephemeral-storage ratio; empty means
	// DefaultEphemeralStorageAllocationRatio.
	EphemeralStorage string
}

// ratio is one parsed allocation ratio.
type ratio struct {
	field string
	// given is the ratio as the caller gave it, which refusals quote.
	given string
	// value is the ratio as the chart holds it, a float64; text is the
	// shortest decimal that rounds to it, the decimal the chart divides by.
	value float64
	text  string
	// whole and places are set when the ratio is a whole number 2^a·5^b
	// below 2^53 (1, 2, 4, 10, 40, ...): then every quotient of an int64
	// amount ends within places = max(a, b) decimals, so the chart's
	// 16-place rounding is exact and a float64 division gives the same
	// result without decimal arithmetic. Zero otherwise.
	whole  int64
	places int
}

func parseRatio(field, s, def string) (ratio, error) {
	if s == "" {
		s = def
	}
	if len(s) > MaxRatioLength {
		return ratio{}, invalid.Errorf(field, s, "%s", RatioLengthRule)
	}
	f, err := strconv.ParseFloat(s, 64)
	// A number beyond a float64's range is ±Inf with a range error: the
	// bound below refuses it, as the chart's float conversion does.
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return ratio{}, invalid.Errorf(field, s, "must be a decimal number")
	}
	// A decimal that the float64 does not hold (3.0000000000000000001
	// reads as 3, 1e-400 as 0): refused as written, before the bounds
	// judge the number it reads as.
	if _, loss, ok := jsonnum.Float(s); ok && loss != jsonnum.Exact {
		return ratio{}, invalid.Errorf(field, s, "%s", loss.Rule(f))
	}
	if !(f > 0) || f > MaxRatio {
		return ratio{}, invalid.Errorf(field, s, "%s", RatioRangeRule)
	}
	// The chart converts the ratio to a float64 and then to the shortest
	// decimal that rounds to it; do the same so "0.3" divides as 0.3.
	r := ratio{field: field, given: s, value: f, text: strconv.FormatFloat(f, 'f', -1, 64)}
	if f == math.Trunc(f) && f < 1<<53 {
		r.whole, r.places = int64(f), terminatingPlaces(int64(f))
		if r.places < 0 {
			r.whole = 0
		}
	}
	return r, nil
}

// terminatingPlaces is max(a, b) when n = 2^a·5^b, the number of decimals
// 1/n takes, and -1 when n has another prime factor.
func terminatingPlaces(n int64) int {
	a, b := 0, 0
	for n%2 == 0 {
		n, a = n/2, a+1
	}
	for n%5 == 0 {
		n, b = n/5, b+1
	}
	if n != 1 {
		return -1
	}
	return max(a, b)
}

// decimal is the ratio as an exact decimal, for the chart's arithmetic.
func (r ratio) decimal() *inf.Dec {
	d, ok := new(inf.Dec).SetString(r.text)
	if !ok {
		// FormatFloat of a finite float always parses.
		panic("etcd: ratio " + r.text + " is not a decimal")
	}
	return d
}

// parsedRatios are the three ratios, validated.
type parsedRatios struct{ cpu, memory, ephemeral ratio }

// Validate reports every ratio that is not a number above zero (see
// Options.Validate for the form of the error).
func (r Ratios) Validate() error {
	return GoPaths(nil).ValidateRatios(r)
}

// parse reads the three ratios, each on its own, so that every bad one is
// reported.
func (r Ratios) parse(paths Paths) (parsedRatios, error) {
	var p parsedRatios
	var c invalid.Collector
	var err error
	p.cpu, err = parseRatio(paths.RatioCPU.String(), r.CPU, DefaultCPUAllocationRatio)
	c.Add(err)
	p.memory, err = parseRatio(paths.RatioMemory.String(), r.Memory, DefaultMemoryAllocationRatio)
	c.Add(err)
	p.ephemeral, err = parseRatio(paths.RatioEphemeralStorage.String(), r.EphemeralStorage, DefaultEphemeralStorageAllocationRatio)
	c.Add(err)
	return p, c.Err()
}

// divisionScale is the number of decimal places the chart's divf keeps.
const divisionScale = 16

// SanitizeResources turns a flat map of limits into requirements the way
// Cozystack's resource sanitiser does: limits are the input; the cpu request
// is cpu ÷ cpu ratio; the memory and ephemeral-storage requests are
// floor(bytes ÷ ratio); any other resource requests its limit.
//
// The arithmetic reproduces the chart's (decimal division to 16 places, then
// a float64, printed in its shortest form) so that the quantity stored for a
// request is identical to the chart's and moving a cluster from the chart to
// this library does not roll its members.
func SanitizeResources(limits corev1.ResourceList, r Ratios) (corev1.ResourceRequirements, error) {
	paths := GoPaths(nil)
	p, err := r.parse(paths)
	if err != nil {
		return corev1.ResourceRequirements{}, err
	}
	return sanitize(limits, &p, paths)
}

// sortedNames are the names of limits, sorted, so that the refusals come in
// the same order on every run.
func sortedNames(limits corev1.ResourceList) []string {
	names := make([]string, 0, len(limits))
	for name := range limits {
		names = append(names, string(name))
	}
	sort.Strings(names)
	return names
}

// sanitize checks every limit (each resource on its own, in name order)
// and derives the requests of those that pass. With no ratios (nil: they
// were refused) it checks the limits alone, as the requests divide by the
// ratios; the refusals of the limits and their order are the same.
func sanitize(limits corev1.ResourceList, p *parsedRatios, paths Paths) (corev1.ResourceRequirements, error) {
	out := corev1.ResourceRequirements{Limits: corev1.ResourceList{}, Requests: corev1.ResourceList{}}
	names := sortedNames(limits)
	var c invalid.Collector
	c.Add(validateHugePagesNeedCPUOrMemory(paths.Resources.String(), limits, names))
	for _, n := range names {
		name := corev1.ResourceName(n)
		limit := limits[name]
		if c.Add(validateContainerResource(paths.resource(n), name, limit)) {
			continue
		}
		if name == corev1.ResourceMemory && c.Add(validateMemoryLimit(paths.resource(n), limit)) {
			continue
		}
		out.Limits[name] = limit.DeepCopy()
		if p == nil {
			continue
		}
		switch name {
		case corev1.ResourceCPU:
			out.Requests[name] = cpuRequest(limit, p.cpu)
		case corev1.ResourceMemory, corev1.ResourceEphemeralStorage:
			r := p.memory
			if name == corev1.ResourceEphemeralStorage {
				r = p.ephemeral
			}
			q, ok := byteRequest(limit, r)
			if !ok {
				c.Addf(paths.resource(n), quantity.Quoted(limit),
					"divided by the %s allocation ratio %s it makes a request of 2^63 bytes or more, which the chart's integer conversion turns into garbage (a negative request on amd64)", n, r.text)
				continue
			}
			out.Requests[name] = q
		default:
			out.Requests[name] = limit.DeepCopy()
		}
	}
	return out, c.Err()
}

// ValidateContainerResource applies the API server's Pod rules for one
// container resource limit (etcd-operator copies the resources into the
// member Pods, where a refusal would come long after the EtcdCluster was
// accepted): a standard resource (cpu, memory, ephemeral-storage,
// hugepages-<page size>) or a domain-qualified extended resource outside
// kubernetes.io, whose quantity is a whole number. A hugepages limit must be
// a whole multiple of a valid page size (a positive whole number of bytes),
// as the Pod API requires of new Pods. The quantity must also be one the API
// server stores unchanged.
func ValidateContainerResource(name corev1.ResourceName, q resource.Quantity) error {
	return GoPaths(nil).ValidateContainerResource(name, q)
}

func validateContainerResource(f string, name corev1.ResourceName, q resource.Quantity) error {
	n := string(name)
	if errs := validation.IsQualifiedName(n); len(errs) > 0 {
		return invalid.Errorf(f, n, "must be a resource name: %s", strings.Join(errs, "; "))
	}
	// The bounds come before any arithmetic on q (roundTrips, Cmp, the
	// division of the requests), and the charts' rules with them: the
	// requests divide q as the charts' float64 arithmetic does, which is
	// exact only for a value it holds exactly.
	if err := quantity.ChartCheck(f, q); err != nil {
		return err
	}
	if q.Sign() < 0 {
		return invalid.Errorf(f, quantity.Quoted(q), "must not be negative")
	}
	if !roundTrips(q) {
		exact := q.AsDec().String()
		if strings.Contains(exact, ".") {
			exact = strings.TrimSuffix(strings.TrimRight(exact, "0"), ".")
		}
		return invalid.Errorf(f, exact, "is too large for a Kubernetes quantity: it would be stored as %s", q.String())
	}
	switch {
	case name == corev1.ResourceCPU || name == corev1.ResourceMemory || name == corev1.ResourceEphemeralStorage:
	case strings.HasPrefix(n, corev1.ResourceHugePagesPrefix):
		return validateHugePages(f, n, q)
	case !strings.Contains(n, "/"):
		return invalid.Errorf(f, n, "must be cpu, memory, ephemeral-storage, hugepages-<size> or a domain-qualified extended resource such as example.com/device")
	case strings.Contains(n, "kubernetes.io/"):
		// The API's IsNativeResource: a name in the kubernetes.io domain
		// must be a standard one.
		return invalid.Errorf(f, n, "an extended resource must not be in the kubernetes.io domain")
	case strings.HasPrefix(n, "requests.") || len(validation.IsQualifiedName("requests."+n)) > 0:
		// The API's IsExtendedResourceName: quotas name it "requests.<name>".
		return invalid.Errorf(f, n, "must be an extended resource name that \"requests.<name>\" keeps valid")
	default:
		if q.MilliValue()%1000 != 0 {
			return invalid.Errorf(f, quantity.Quoted(q), "an extended resource must be a whole number")
		}
	}
	return nil
}

// ValidateMemoryLimit refuses a memory limit of the etcd container that
// no member runs within: one below MinMemory but 0 (which Kubernetes
// runs without a limit). q is a limit ValidateContainerResource admits.
// The refusal names Resources[memory] and quotes q. It judges the limit,
// the input, never the request derived from it (see MinMemory).
func ValidateMemoryLimit(q resource.Quantity) error {
	return validateMemoryLimit(GoPaths(nil).resource(string(corev1.ResourceMemory)), q)
}

func validateMemoryLimit(field string, q resource.Quantity) error {
	if q.Sign() > 0 && q.Cmp(minMemory) < 0 {
		return invalid.Errorf(field, quantity.Quoted(q), "%s", MinMemoryRule)
	}
	return nil
}

// minMemory is MinMemory as a quantity.
var minMemory = *resource.NewQuantity(MinMemoryBytes, resource.BinarySI)

// validateHugePages is the Pod API's rule for a hugepages-<size> limit
// (IsHugePageResourceValueDivisible): the page size parses as a quantity, is
// positive and a whole number of bytes, and the limit is a whole multiple of
// it.
func validateHugePages(field, name string, q resource.Quantity) error {
	page := strings.TrimPrefix(name, corev1.ResourceHugePagesPrefix)
	switch rule := quantity.ChartRule(page); rule {
	case "":
	case quantity.SyntaxRule:
		return invalid.Errorf(field, name, "must be hugepages-<page size>, e.g. hugepages-2Mi")
	default:
		return invalid.Errorf(field, name, "names a page size that %s", rule)
	}
	size, err := resource.ParseQuantity(page)
	if err != nil {
		return invalid.Errorf(field, name, "must be hugepages-<page size>, e.g. hugepages-2Mi")
	}
	if size.Sign() <= 0 || size.MilliValue()%1000 != 0 {
		return invalid.Errorf(field, name, "must name a page size of a positive whole number of bytes, e.g. hugepages-2Mi or hugepages-1Gi")
	}
	if q.MilliValue()%1000 != 0 || q.Value()%size.Value() != 0 {
		return invalid.Errorf(field, quantity.Quoted(q), "must be a whole multiple of the page size %s, as the Pod API requires", size.String())
	}
	return nil
}

// validateHugePagesNeedCPUOrMemory is the Pod API's rule that a container
// with hugepages also sets cpu or memory.
func validateHugePagesNeedCPUOrMemory(field string, limits corev1.ResourceList, names []string) error {
	_, cpu := limits[corev1.ResourceCPU]
	_, memory := limits[corev1.ResourceMemory]
	if cpu || memory {
		return nil
	}
	for _, n := range names {
		if strings.HasPrefix(n, corev1.ResourceHugePagesPrefix) {
			return invalid.Errorf(field, strings.Join(names, ", "), "%s needs a cpu or memory limit beside it: the Pod API refuses hugepages without them", n)
		}
	}
	return nil
}

// roundTrips reports whether q's canonical form, which is what is sent and
// stored, reads back as q. Beyond about 10^21 it does not
// (ParseQuantity("1000000000000000000000") prints as "1", "2000E" as "2"),
// and the API server would store another quantity without a word.
func roundTrips(q resource.Quantity) bool {
	back, err := resource.ParseQuantity(q.String())
	return err == nil && back.Cmp(q) == 0
}

// quotient is the chart's divf: value ÷ ratio rounded half away from zero
// to 16 decimal places, then converted to the nearest float64.
func quotient(q resource.Quantity, r ratio) float64 {
	if f, ok := exactQuotient(q, r); ok {
		return f
	}
	return decimalQuotient(q, r)
}

// decimalQuotient is the chart's arithmetic step by step.
func decimalQuotient(q resource.Quantity, r ratio) float64 {
	d := new(inf.Dec).QuoRound(q.AsDec(), r.decimal(), divisionScale, inf.RoundHalfUp)
	f, _ := strconv.ParseFloat(d.String(), 64)
	return f
}

// exactQuotient is the fast path for a whole 2^a·5^b ratio and an amount
// that is a whole number of units or milli-units: the quotient ends within
// divisionScale decimals, so rounding to them changes nothing, and with
// dividend and divisor exact in a float64 (below 2^53) IEEE division rounds
// the exact quotient to the nearest float64, as ParseFloat of its decimal
// does. ok is false where any of that does not hold.
func exactQuotient(q resource.Quantity, r ratio) (float64, bool) {
	if r.whole == 0 {
		return 0, false
	}
	amount, places := int64(0), 0
	if v, ok := q.AsInt64(); ok {
		amount = v
	} else if m := q.MilliValue(); q.Cmp(*resource.NewMilliQuantity(m, resource.DecimalSI)) == 0 {
		amount, places = m, 3
	} else {
		return 0, false
	}
	const exactFloat = 1 << 53
	divisor := r.whole
	if places > 0 {
		if divisor >= exactFloat/1000 {
			return 0, false
		}
		divisor *= 1000
	}
	if amount < 0 || amount >= exactFloat || places+r.places > divisionScale {
		return 0, false
	}
	return float64(amount) / float64(divisor), true
}

func cpuRequest(limit resource.Quantity, r ratio) resource.Quantity {
	// The chart prints the float with Go's %v; the API server parses that.
	s := fmt.Sprint(quotient(limit, r))
	q, err := resource.ParseQuantity(s)
	if err != nil {
		// Unreachable for finite non-negative floats; fall back to exact.
		return *resource.NewDecimalQuantity(*new(inf.Dec).QuoRound(limit.AsDec(), r.decimal(), 9, inf.RoundUp), resource.DecimalSI)
	}
	return q
}

// byteRequest is floor(limit ÷ ratio) in bytes; ok is false when that is
// 2^63 or more, where the chart's conversion to an integer is undefined (Go
// leaves an out-of-range float-to-int conversion to the platform: amd64
// gives a negative number).
func byteRequest(limit resource.Quantity, r ratio) (resource.Quantity, bool) {
	f := quotient(limit, r)
	// The chart truncates with sprig's int (toward zero; requests are >= 0),
	// which a Go conversion does for every float64 below 2^63.
	if !(f < 1<<63) {
		return resource.Quantity{}, false
	}
	return *resource.NewQuantity(int64(f), resource.DecimalSI), true
}

package etcd

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/naming"
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

// Ratios are the platform's overcommit ratios: a container's request is its
// limit divided by the ratio. They are decimal strings, as the platform
// configuration carries them ("4", "1.5"); empty means the default.
type Ratios struct {
	CPU              string
	Memory           string
	EphemeralStorage string
}

// ratio is one parsed allocation ratio.
type ratio struct {
	field string
	dec   *inf.Dec
}

func parseRatio(field, s, def string) (ratio, error) {
	if s == "" {
		s = def
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return ratio{}, naming.Errorf(field, s, "must be a decimal number")
	}
	if !(f > 0) || f > 1e15 {
		return ratio{}, naming.Errorf(field, s, "must be a number above 0 and at most 1e15")
	}
	// The chart converts the ratio to a float64 and then to the shortest
	// decimal that rounds to it; do the same so "0.3" divides as 0.3.
	d, ok := new(inf.Dec).SetString(strconv.FormatFloat(f, 'f', -1, 64))
	if !ok {
		return ratio{}, naming.Errorf(field, s, "must be a decimal number")
	}
	return ratio{field: field, dec: d}, nil
}

// parsedRatios are the three ratios, validated.
type parsedRatios struct{ cpu, memory, ephemeral ratio }

// Validate reports the first ratio that is not a number above zero.
func (r Ratios) Validate() error {
	_, err := r.parse()
	return err
}

func (r Ratios) parse() (parsedRatios, error) {
	var p parsedRatios
	var err error
	if p.cpu, err = parseRatio("_cluster.cpu-allocation-ratio", r.CPU, DefaultCPUAllocationRatio); err != nil {
		return p, err
	}
	if p.memory, err = parseRatio("_cluster.memory-allocation-ratio", r.Memory, DefaultMemoryAllocationRatio); err != nil {
		return p, err
	}
	if p.ephemeral, err = parseRatio("_cluster.ephemeral-storage-allocation-ratio", r.EphemeralStorage, DefaultEphemeralStorageAllocationRatio); err != nil {
		return p, err
	}
	return p, nil
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
	p, err := r.parse()
	if err != nil {
		return corev1.ResourceRequirements{}, err
	}
	return sanitize(limits, p)
}

func sanitize(limits corev1.ResourceList, p parsedRatios) (corev1.ResourceRequirements, error) {
	out := corev1.ResourceRequirements{Limits: corev1.ResourceList{}, Requests: corev1.ResourceList{}}
	names := make([]string, 0, len(limits))
	for name := range limits {
		names = append(names, string(name))
	}
	sort.Strings(names)
	for _, n := range names {
		name := corev1.ResourceName(n)
		limit := limits[name]
		if limit.Sign() < 0 {
			return out, naming.Errorf("values.resources."+n, limit.String(), "must not be negative")
		}
		if err := validateContainerResource(name, limit); err != nil {
			return out, err
		}
		out.Limits[name] = limit.DeepCopy()
		switch name {
		case corev1.ResourceCPU:
			out.Requests[name] = cpuRequest(limit, p.cpu)
		case corev1.ResourceMemory:
			out.Requests[name] = byteRequest(limit, p.memory)
		case corev1.ResourceEphemeralStorage:
			out.Requests[name] = byteRequest(limit, p.ephemeral)
		default:
			out.Requests[name] = limit.DeepCopy()
		}
	}
	return out, nil
}

// validateContainerResource applies the API server's rules for a container
// resource (etcd-operator copies the resources into the member Pods): a
// standard resource (cpu, memory, ephemeral-storage, hugepages-<size>) or a
// domain-qualified extended resource outside kubernetes.io, whose quantity
// is a whole number.
func validateContainerResource(name corev1.ResourceName, q resource.Quantity) error {
	n := string(name)
	f := "values.resources." + n
	if errs := validation.IsQualifiedName(n); len(errs) > 0 {
		return naming.Errorf(f, n, "must be a resource name: %s", strings.Join(errs, "; "))
	}
	switch {
	case name == corev1.ResourceCPU || name == corev1.ResourceMemory || name == corev1.ResourceEphemeralStorage:
	case strings.HasPrefix(n, corev1.ResourceHugePagesPrefix):
		if _, err := resource.ParseQuantity(strings.TrimPrefix(n, corev1.ResourceHugePagesPrefix)); err != nil {
			return naming.Errorf(f, n, "must be hugepages-<page size>, e.g. hugepages-2Mi")
		}
	case !strings.Contains(n, "/"):
		return naming.Errorf(f, n, "must be cpu, memory, ephemeral-storage, hugepages-<size> or a domain-qualified extended resource such as example.com/device")
	case strings.Contains(strings.SplitN(n, "/", 2)[0], "kubernetes.io") || strings.HasPrefix(n, "requests."):
		return naming.Errorf(f, n, "an extended resource must not be in the kubernetes.io domain")
	default:
		if q.MilliValue()%1000 != 0 {
			return naming.Errorf(f, q.String(), "an extended resource must be a whole number")
		}
	}
	return nil
}

// quotient is the chart's divf: value ÷ ratio rounded half away from zero
// to 16 decimal places, then converted to the nearest float64.
func quotient(q resource.Quantity, r ratio) float64 {
	d := new(inf.Dec).QuoRound(q.AsDec(), r.dec, divisionScale, inf.RoundHalfUp)
	f, _ := strconv.ParseFloat(d.String(), 64)
	return f
}

func cpuRequest(limit resource.Quantity, r ratio) resource.Quantity {
	// The chart prints the float with Go's %v; the API server parses that.
	s := fmt.Sprint(quotient(limit, r))
	q, err := resource.ParseQuantity(s)
	if err != nil {
		// Unreachable for finite non-negative floats; fall back to exact.
		return *resource.NewDecimalQuantity(*new(inf.Dec).QuoRound(limit.AsDec(), r.dec, 9, inf.RoundUp), resource.DecimalSI)
	}
	return q
}

func byteRequest(limit resource.Quantity, r ratio) resource.Quantity {
	f := quotient(limit, r)
	// The chart truncates with sprig's int (toward zero; requests are >= 0).
	bf := new(big.Float).SetFloat64(f)
	bi, _ := bf.Int(nil)
	if !bi.IsInt64() {
		return *resource.NewQuantity(1<<63-1, resource.DecimalSI)
	}
	return *resource.NewQuantity(bi.Int64(), resource.DecimalSI)
}

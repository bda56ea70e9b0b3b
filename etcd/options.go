package etcd

import (
	"math"
	"regexp"
	"strconv"

	"github.com/etcdshapes/etcdshapes/naming"
	"gopkg.in/inf.v0"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Defaults of the etcd chart, which the kubernetes chart fixes for its
// per-cluster etcd.
const (
	DefaultVersion  = "3.6.11"
	DefaultReplicas = int32(3)
	DefaultSize     = "4Gi"
	DefaultCPU      = "1000m"
	DefaultMemory   = "512Mi"
)

// Options are what a caller varies about one etcd. The zero value means the
// documented defaults.
type Options struct {
	// Version is the etcd version X.Y.Z; empty means DefaultVersion.
	Version string
	// Replicas is the member count; 0 means DefaultReplicas.
	Replicas int32
	// Size is the data volume size; zero means DefaultSize. Any quantity
	// spelling works ("4Gi", "10G", "1Ti", "500000000").
	Size resource.Quantity
	// StorageClassName of the data volumes; empty omits the field (the
	// cluster default). Immutable once the EtcdCluster exists.
	StorageClassName string
	// Resources are the etcd container's limits as a flat map; requests
	// are derived by SanitizeResources. Nil means cpu 1000m, memory 512Mi;
	// an empty non-nil map renders no resources.
	Resources corev1.ResourceList
	// Ratios are the platform's allocation ratios.
	Ratios Ratios
	// Affinity of the members; nil means a soft pod anti-affinity on
	// app.kubernetes.io/instance across kubernetes.io/hostname.
	Affinity *corev1.Affinity
	// TopologySpreadConstraints replace the default hostname spread when
	// not empty. Each gets a labelSelector matching the cluster's members
	// unless it carries its own.
	TopologySpreadConstraints []corev1.TopologySpreadConstraint
	// ServiceLabel is the cozystack.io/service label of the member pods
	// ("etcd" for the etcd chart, "kubernetes-etcd" per cluster); empty
	// omits additionalMetadata.
	ServiceLabel string
}

// resolved is Options with defaults applied and inputs validated.
type resolved struct {
	Options
	quota     int64
	resources *corev1.ResourceRequirements
	ratios    parsedRatios
}

var versionPattern = regexp.MustCompile(`^\d+\.\d+\.\d+$`)

func (o Options) resolve() (resolved, error) {
	r := resolved{Options: o}
	if r.Version == "" {
		r.Version = DefaultVersion
	}
	if !versionPattern.MatchString(r.Version) {
		return r, naming.Errorf("values.version", r.Version, "must be an etcd version X.Y.Z, e.g. %q", DefaultVersion)
	}
	if r.Replicas == 0 {
		r.Replicas = DefaultReplicas
	}
	if r.Replicas < 1 {
		return r, naming.Errorf("values.replicas", r.Replicas, "must be at least 1")
	}
	if r.Size.IsZero() {
		r.Size = resource.MustParse(DefaultSize)
	}
	quota, err := quotaBackendBytes(r.Size)
	if err != nil {
		return r, err
	}
	r.quota = quota
	if r.StorageClassName != "" {
		if errs := validation.IsDNS1123Subdomain(r.StorageClassName); len(errs) > 0 {
			return r, naming.Errorf("values.storageClass", r.StorageClassName, "must be a StorageClass name (DNS-1123 subdomain)")
		}
	}
	if r.ratios, err = r.Ratios.parse(); err != nil {
		return r, err
	}
	limits := r.Resources
	if limits == nil {
		limits = corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse(DefaultCPU),
			corev1.ResourceMemory: resource.MustParse(DefaultMemory),
		}
	}
	if len(limits) > 0 {
		req, err := sanitize(limits, r.ratios)
		if err != nil {
			return r, err
		}
		r.resources = &req
	}
	for i, c := range r.TopologySpreadConstraints {
		if err := validateSpread(i, c); err != nil {
			return r, err
		}
	}
	return r, nil
}

// Validate reports the first input that breaks a rule.
func (o Options) Validate() error {
	_, err := o.resolve()
	return err
}

// QuotaBackendBytes is etcd's --quota-backend-bytes for a data volume:
// 95% of its size in bytes, rounded like the chart's printf "%.0f".
func QuotaBackendBytes(size resource.Quantity) (int64, error) {
	return quotaBackendBytes(size)
}

func quotaBackendBytes(size resource.Quantity) (int64, error) {
	if size.Sign() <= 0 {
		return 0, naming.Errorf("values.size", size.String(), "must be a positive quantity of bytes")
	}
	// The chart multiplies exact decimals (sprig's mulf), then formats the
	// float64 result with %.0f.
	d := new(inf.Dec).Mul(size.AsDec(), inf.NewDec(95, 2))
	f, err := strconv.ParseFloat(d.String(), 64)
	if err != nil || f >= math.MaxInt64 {
		return 0, naming.Errorf("values.size", size.String(), "is too large for etcd's int64 quota")
	}
	n, err := strconv.ParseInt(strconv.FormatFloat(f, 'f', 0, 64), 10, 64)
	if err != nil {
		return 0, naming.Errorf("values.size", size.String(), "is too large for etcd's int64 quota")
	}
	if n < 1 {
		return 0, naming.Errorf("values.size", size.String(), "must be at least one byte of quota")
	}
	return n, nil
}

func validateSpread(i int, c corev1.TopologySpreadConstraint) error {
	field := "_cluster.scheduling.globalAppTopologySpreadConstraints[" + strconv.Itoa(i) + "]"
	if c.MaxSkew < 1 {
		return naming.Errorf(field+".maxSkew", c.MaxSkew, "must be at least 1")
	}
	if c.TopologyKey == "" {
		return naming.Errorf(field+".topologyKey", c.TopologyKey, "must not be empty")
	}
	if errs := validation.IsQualifiedName(c.TopologyKey); len(errs) > 0 {
		return naming.Errorf(field+".topologyKey", c.TopologyKey, "must be a label key")
	}
	switch c.WhenUnsatisfiable {
	case corev1.DoNotSchedule, corev1.ScheduleAnyway:
	default:
		return naming.Errorf(field+".whenUnsatisfiable", string(c.WhenUnsatisfiable), "must be DoNotSchedule or ScheduleAnyway")
	}
	return nil
}

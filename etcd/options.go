package etcd

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/internal/labelselector"
	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"gopkg.in/inf.v0"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"
)

// Defaults of the etcd chart, which the kubernetes chart fixes for its
// per-cluster etcd.
const (
	DefaultVersion  = "3.6.11"
	DefaultReplicas = int32(3)
	DefaultSize     = "4Gi"
	DefaultCPU      = "1000m"
	DefaultMemory   = "512Mi"
	// MinSize is the least data volume size. etcd preallocates its
	// write-ahead log on the data volume (etcd-operator gives it no other)
	// before it stores a key: the open segment and the next one its file
	// pipeline creates, 64,000,000 bytes each (etcd's
	// wal.SegmentSizeBytes, fallocated: a volume without the room fails
	// with ENOSPC and the member never starts). 256Mi is twice those
	// 128,000,000 bytes: the rest holds the database, the raft snapshots
	// and the filesystem's own structures. Its quota is 255013683 bytes.
	MinSize = "256Mi"
	// MinSizeBytes is MinSize in bytes.
	MinSizeBytes = 256 << 20
	// MinMemory is the least memory limit of an etcd member (the etcd
	// container's resources.memory), 0 aside, which Kubernetes runs
	// without a limit (the kubelet sets none for a zero). Measured on
	// etcd v3.6.11 (built as e2e/works/cluster builds it, go1.26)
	// started with the flags etcd-operator gives a member (client and
	// peer mTLS, --quota-backend-bytes of a MinSize volume, periodic
	// compaction, --snapshot-count=10000): a single member is resident
	// at 32,860 KiB (VmHWM) once it answers its health check, before a
	// key is written, three members at 35,632-36,192 KiB each; after
	// 2,000 puts of 1 KiB, 47,460 KiB alone and 58,416-59,628 KiB in
	// three. 32Mi (32,768 KiB) is below what an idle member already
	// holds, and 14 MiB (31%) below the least peak with a little data:
	// a smaller limit is OOM-killed at start, and the margin leaves a
	// node, CPU count or build that needs somewhat less accepted. The
	// floor is on the limit, the input: the request, floor(limit ÷
	// memory ratio), is the platform's overcommit and may be smaller.
	MinMemory = "32Mi"
	// MinMemoryBytes is MinMemory in bytes.
	MinMemoryBytes = 32 << 20
	// MaxReplicas bounds the member count. etcd advises at most 7 members;
	// the bound keeps the cleanup hook, which names one PVC per member,
	// and its Role small.
	MaxReplicas = int32(99)
)

// ReplicasOrDefault is the member count n means: DefaultReplicas for 0,
// else n. Every caller that defaults a replica count asks it, so that the
// default lives in one place.
func ReplicasOrDefault(n int32) int32 {
	if n == 0 {
		return DefaultReplicas
	}
	return n
}

// MinSizeRule is the refusal of a size below MinSize.
const MinSizeRule = "must be at least " + MinSize + " (etcd.MinSize): etcd preallocates 128,000,000 bytes of write-ahead log on the data volume before it stores a key (two segments of 64,000,000), so a smaller volume never runs"

// MinMemoryRule is the refusal of a memory limit below MinMemory.
const MinMemoryRule = "must be at least " + MinMemory + " (etcd.MinMemory), or 0 for no limit: an etcd member is resident at 32 MiB before it stores a key (46 to 58 MiB with a little data), so a smaller limit is OOM-killed at start"

// minSize is MinSize as a quantity.
var minSize = *resource.NewQuantity(MinSizeBytes, resource.BinarySI)

// Options are what a caller varies about one etcd. The zero value means the
// documented defaults.
type Options struct {
	// Version is the etcd version X.Y.Z (see VersionPattern); empty means
	// DefaultVersion.
	Version string
	// Replicas is the member count; 0 means DefaultReplicas.
	Replicas int32
	// Size is the data volume size; zero means DefaultSize. Any quantity
	// spelling works ("4Gi", "10G", "1Ti", "500000000"); it must be at
	// least MinSize. Like every quantity of the options it must keep the
	// quantity bounds (at most 64 digits, an exponent within ±99, below
	// 2^63 as a float64; resource.ParseQuantity itself turns 8Ei into
	// 2^63-1, which is refused) and the charts' rules of its value
	// (quantity.ChartRule: at most 15 significant digits, whole
	// nano-units, from 2^53 on a float64).
	Size resource.Quantity
	// StorageClassName of the data volumes; empty omits the field (the
	// cluster default). Immutable once the EtcdCluster exists.
	StorageClassName string
	// Resources are the etcd container's limits as a flat map; requests
	// are derived by SanitizeResources. Nil means cpu 1000m, memory 512Mi;
	// an empty non-nil map renders no resources. A memory limit is 0 (no
	// limit) or at least MinMemory; the request it derives may be
	// smaller.
	Resources corev1.ResourceList
	// Ratios are the platform's allocation ratios.
	Ratios Ratios
	// Affinity of the members; nil, or an Affinity that sets none of its
	// three fields (the chart's "affinity: {}"), means a soft pod
	// anti-affinity on app.kubernetes.io/instance across
	// kubernetes.io/hostname.
	Affinity *corev1.Affinity
	// TopologySpreadConstraints replace the default hostname spread when
	// not empty. Each gets a labelSelector matching the cluster's members
	// unless it carries its own.
	TopologySpreadConstraints []corev1.TopologySpreadConstraint
	// ServiceLabel is the cozystack.io/service label of the member pods
	// ("etcd" for the etcd chart, "kubernetes-etcd" per cluster); empty
	// omits additionalMetadata.
	ServiceLabel string
	// Auth turns on etcd's own authentication (spec.auth); the zero
	// value leaves it off and renders no spec.auth, as upstream does.
	// spec.auth is immutable: choose it when the etcd is created.
	Auth Auth
}

// Auth is the EtcdCluster's spec.auth: etcd authentication, which gives
// each tenant control plane on a shared etcd only its own key prefix.
//
// With auth on, etcd-operator creates etcd's root user with the password
// of RootCredentialsSecret and runs "auth enable" once the cluster has
// converged. From then on a client certificate authenticates as the etcd
// user of its common name: the stack's client certificate is CN root, so
// the Kamaji DataStore, the defrag CronJob and the check Job act as root
// and nothing of theirs changes, while each tenant apiserver's certificate
// (CN its Kamaji user, signed by the DataStore's CA) reaches only the
// prefix of the role Kamaji grants it. With auth off (the default) every
// certificate the DataStore's CA signs reads and writes every tenant's
// keys. docs/auth.md has the trade-off and the proof.
//
// The API server refuses spec.auth being added, removed or changed on an
// existing EtcdCluster (plan says so: delete and recreate the etcd).
type Auth struct {
	// Enabled renders spec.auth with enabled: true. It needs
	// RootCredentialsSecret.
	Enabled bool
	// RootCredentialsSecret names the Secret, in the etcd's namespace, of
	// type kubernetes.io/basic-auth with username "root" and the root
	// password, which etcd-operator reads (spec.auth.rootCredentialsSecretRef).
	// It is the caller's: the library never renders a password (renders are
	// deterministic); create it once, before the etcd (docs/auth.md
	// shows how). etcd-operator turns auth on only once it can read it.
	// Required when Enabled; refused when not, and refused when it names one
	// of the stack's own TLS Secrets.
	RootCredentialsSecret string
}

// RootCredentialsType is the type of the root credentials Secret
// (Auth.RootCredentialsSecret), and RootUser its username: etcd-operator
// reads the password key and provisions etcd's user "root".
const (
	RootCredentialsType = corev1.SecretTypeBasicAuth
	RootUser            = "root"
)

// validate checks the auth options on their own: the Secret is named
// exactly when auth is on, and is a Secret name.
func (a Auth) validate(field string) error {
	switch {
	case a.Enabled && a.RootCredentialsSecret == "":
		return invalid.Errorf(field, a.RootCredentialsSecret, "must name the root credentials Secret (type %s, username %s and a password) when auth is enabled: etcd-operator turns auth on only once it reads the root password from it", RootCredentialsType, RootUser)
	case !a.Enabled && a.RootCredentialsSecret != "":
		return invalid.Errorf(field, a.RootCredentialsSecret, "is set while auth is disabled, which would leave auth off: enable auth too, or leave it empty")
	case a.RootCredentialsSecret != "":
		if errs := validation.IsDNS1123Subdomain(a.RootCredentialsSecret); len(errs) > 0 {
			return invalid.Errorf(field, a.RootCredentialsSecret, "must be a Secret name (DNS-1123 subdomain): %s", strings.Join(errs, "; "))
		}
	}
	return nil
}

// validateNames refuses a root credentials Secret that is one of the
// stack's TLS Secrets (the client certificate's, say): etcd-operator would
// find no password there and never turn auth on.
func (a Auth) validateNames(field string, n naming.Names) error {
	if a.RootCredentialsSecret == "" {
		return nil
	}
	if slices.Contains(n.TLSSecrets(), a.RootCredentialsSecret) {
		return invalid.Errorf(field, a.RootCredentialsSecret,
			"must not be one of the stack's TLS Secrets (%s): it must be a %s Secret of its own, holding the root password", strings.Join(n.TLSSecrets(), ", "), RootCredentialsType)
	}
	return nil
}

// ValidateSpreadConstraints checks the platform's spread constraints with
// the API server's Pod rules, since etcd-operator copies them into the
// member Pods.
// Every constraint is checked; the refusals come in list order.
func ValidateSpreadConstraints(list []corev1.TopologySpreadConstraint) error {
	return GoPaths(nil).ValidateSpreadConstraints(list)
}

func validateSpreadConstraints(p *k8sfield.Path, list []corev1.TopologySpreadConstraint) error {
	var errs invalid.Collector
	for i, c := range list {
		errs.Add(validateSpread(p.Index(i), c, list[:i]))
	}
	return errs.Err()
}

// resolved is Options with defaults applied and inputs validated.
type resolved struct {
	Options
	// paths name the options in the caller's terms.
	paths Paths
	// quota is the quota of Size (at least 1), or 0 when Size was refused.
	quota     int64
	resources *corev1.ResourceRequirements
	ratios    parsedRatios
}

// resolve applies the defaults and runs every check, collecting the
// refusals of the independent ones in the order of the checks, so that
// the first is the one the chart, which stops at its first failure, prints.
// A check that needs an earlier value valid (the requests need the ratios
// and the limits) is skipped when that value was refused.
func (o Options) resolve(p Paths) (resolved, error) {
	r := resolved{Options: o, paths: p}
	var c invalid.Collector
	if r.Version == "" {
		r.Version = DefaultVersion
	}
	c.Add(validateVersion(p.Version.String(), r.Version))
	r.Replicas = ReplicasOrDefault(r.Replicas)
	if r.Replicas < 1 {
		c.Addf(p.Replicas.String(), r.Replicas, "must be at least 1")
	}
	if r.Replicas > MaxReplicas {
		c.Addf(p.Replicas.String(), r.Replicas, "must be at most %d (etcd advises at most 7 members)", MaxReplicas)
	}
	if r.Size.IsZero() {
		r.Size = resource.MustParse(DefaultSize)
	}
	quota, err := quotaBackendBytes(p.Size.String(), r.Size)
	c.Add(err)
	r.quota = quota
	if r.StorageClassName != "" {
		if errs := validation.IsDNS1123Subdomain(r.StorageClassName); len(errs) > 0 {
			c.Addf(p.StorageClassName.String(), r.StorageClassName, "must be a StorageClass name (DNS-1123 subdomain)")
		}
	}
	if r.ServiceLabel != "" {
		// A label value on the member pods and PVCs: the API server
		// refuses anything else, long after the EtcdCluster was accepted.
		if errs := validation.IsValidLabelValue(r.ServiceLabel); len(errs) > 0 {
			c.Addf(p.ServiceLabel.String(), r.ServiceLabel, "must be a label value (the cozystack.io/service label of the member pods): %s", strings.Join(errs, "; "))
		}
	}
	r.ratios, err = r.Ratios.parse(p)
	ratiosOK := !c.Add(err)
	limits := r.Resources
	if limits == nil {
		limits = corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse(DefaultCPU),
			corev1.ResourceMemory: resource.MustParse(DefaultMemory),
		}
	}
	if len(limits) > 0 {
		// Refused ratios give no requests; the limits are still checked
		// on their own.
		ratios := &r.ratios
		if !ratiosOK {
			ratios = nil
		}
		if req, err := sanitize(limits, ratios, p); !c.Add(err) && ratiosOK {
			if !c.Add(requestsWithinLimits(req, r.ratios)) {
				r.resources = &req
			}
		}
	}
	c.Add(validateSpreadConstraints(p.TopologySpreadConstraints, r.TopologySpreadConstraints))
	if r.Affinity != nil {
		c.Add(invalid.FromFieldErrors(validateAffinity(r.Affinity, p.Affinity)))
	}
	c.Add(r.Auth.validate(p.AuthRootCredentialsSecret.String()))
	return r, c.Err()
}

// requestsWithinLimits refuses a ratio below 1 where it applies: the
// request would exceed the limit, and the API server refuses the member
// Pods etcd-operator creates with such resources. At a ratio of 1 or more
// no request exceeds its limit: the limits keep the charts' rules
// (quantity.ChartRule), under which the chart's arithmetic never rounds a
// quotient above the limit it divides.
func requestsWithinLimits(req corev1.ResourceRequirements, p parsedRatios) error {
	var errs invalid.Collector
	for _, c := range []struct {
		name  corev1.ResourceName
		ratio ratio
	}{{corev1.ResourceCPU, p.cpu}, {corev1.ResourceMemory, p.memory}, {corev1.ResourceEphemeralStorage, p.ephemeral}} {
		lim, ok := req.Limits[c.name]
		q, has := req.Requests[c.name]
		if !ok || !has || q.Cmp(lim) <= 0 {
			continue
		}
		errs.Addf(c.ratio.field, c.ratio.given,
			"must be at least 1 here: the %s request %s would exceed its limit %s, which the API server refuses", c.name, q.String(), lim.String())
	}
	return errs.Err()
}

// Validate reports every input that breaks a rule: nil, the one
// *invalid.Error, or an invalid.List in the order the checks ran (the
// first is what the chart prints), each named by its Go field
// (GoPaths(nil).Validate; Paths.Validate names them in another caller's
// terms).
func (o Options) Validate() error {
	return GoPaths(nil).Validate(o)
}

// QuotaBackendBytes is etcd's --quota-backend-bytes for a data volume:
// 95% of its size in bytes, rounded like the chart's printf "%.0f". A size
// beyond the quantity bounds (2^63 bytes or more as a float64, or with more than 64
// digits or an exponent beyond ±99, see Options.Size) is refused before any
// arithmetic, so that no size costs more than microseconds; so is one the
// charts' float64 arithmetic does not hold exactly (quantity.ChartRule)
// and one below MinSize.
func QuotaBackendBytes(size resource.Quantity) (int64, error) {
	return quotaBackendBytes(GoPaths(nil).Size.String(), size)
}

func quotaBackendBytes(field string, size resource.Quantity) (int64, error) {
	if err := quantity.ChartCheck(field, size); err != nil {
		return 0, err
	}
	if size.Sign() <= 0 {
		return 0, invalid.Errorf(field, quantity.Quoted(size), "must be a positive quantity of bytes")
	}
	if size.Cmp(minSize) < 0 {
		return 0, invalid.Errorf(field, quantity.Quoted(size), "%s", MinSizeRule)
	}
	// The chart multiplies exact decimals (sprig's mulf), then formats the
	// float64 result with %.0f.
	d := new(inf.Dec).Mul(size.AsDec(), inf.NewDec(95, 2))
	f, err := strconv.ParseFloat(d.String(), 64)
	if err != nil || f >= math.MaxInt64 {
		return 0, invalid.Errorf(field, quantity.Quoted(size), "is too large for etcd's int64 quota")
	}
	n, err := strconv.ParseInt(strconv.FormatFloat(f, 'f', 0, 64), 10, 64)
	if err != nil {
		return 0, invalid.Errorf(field, quantity.Quoted(size), "is too large for etcd's int64 quota")
	}
	return n, nil
}

// validateSpread applies the API server's Pod rules for a spread
// constraint: etcd-operator copies the constraints into the member Pods,
// where a bad one would be refused long after the EtcdCluster was
// accepted. before are the constraints that precede it.
func validateSpread(at *k8sfield.Path, c corev1.TopologySpreadConstraint, before []corev1.TopologySpreadConstraint) error {
	field := at.String()
	var errs invalid.Collector
	if c.MaxSkew < 1 {
		errs.Addf(field+".maxSkew", c.MaxSkew, "must be at least 1")
	}
	if c.TopologyKey == "" {
		errs.Addf(field+".topologyKey", c.TopologyKey, "must not be empty")
	} else if msgs := validation.IsQualifiedName(c.TopologyKey); len(msgs) > 0 {
		errs.Addf(field+".topologyKey", c.TopologyKey, "must be a label key")
	}
	switch c.WhenUnsatisfiable {
	case corev1.DoNotSchedule, corev1.ScheduleAnyway:
	default:
		errs.Addf(field+".whenUnsatisfiable", string(c.WhenUnsatisfiable), "must be DoNotSchedule or ScheduleAnyway")
	}
	// A duplicate of a constraint that is itself refused says nothing
	// more; the fields below are checked whatever the ones above hold.
	for j, b := range before {
		if errs.Len() > 0 {
			break
		}
		if b.TopologyKey == c.TopologyKey && b.WhenUnsatisfiable == c.WhenUnsatisfiable {
			errs.Addf(field, c.TopologyKey+", "+string(c.WhenUnsatisfiable),
				"repeats the topologyKey and whenUnsatisfiable of constraint [%d]; the API server refuses duplicates", j)
			break
		}
	}
	if c.MinDomains != nil {
		if *c.MinDomains < 1 {
			errs.Addf(field+".minDomains", *c.MinDomains, "must be at least 1")
		} else if c.WhenUnsatisfiable == corev1.ScheduleAnyway {
			// Only against a valid whenUnsatisfiable, which is refused
			// on its own otherwise.
			errs.Addf(field+".minDomains", *c.MinDomains, "can only be used with whenUnsatisfiable: DoNotSchedule")
		}
	}
	for _, pol := range []struct {
		name string
		p    *corev1.NodeInclusionPolicy
	}{{".nodeAffinityPolicy", c.NodeAffinityPolicy}, {".nodeTaintsPolicy", c.NodeTaintsPolicy}} {
		if pol.p != nil && *pol.p != corev1.NodeInclusionPolicyHonor && *pol.p != corev1.NodeInclusionPolicyIgnore {
			errs.Addf(field+pol.name, string(*pol.p), "must be Honor or Ignore")
		}
	}
	errs.Add(invalid.FromFieldErrors(labelselector.Validate(c.LabelSelector, at.Child("labelSelector"))))
	// The library adds a selector on the members when there is none.
	keys := map[string]bool{InstanceLabel: c.LabelSelector == nil}
	if c.LabelSelector != nil {
		for k := range c.LabelSelector.MatchLabels {
			keys[k] = true
		}
		for _, e := range c.LabelSelector.MatchExpressions {
			keys[e.Key] = true
		}
	}
	for j, k := range c.MatchLabelKeys {
		f := field + ".matchLabelKeys[" + strconv.Itoa(j) + "]"
		if msgs := validation.IsQualifiedName(k); len(msgs) > 0 {
			errs.Addf(f, k, "must be a label key")
		} else if keys[k] {
			errs.Addf(f, k, "must not be a key of the constraint's labelSelector")
		}
	}
	return errs.Err()
}

// validateAffinity applies the API server's Pod rules for affinity (the
// operator copies it into the member Pods).
func validateAffinity(a *corev1.Affinity, p *k8sfield.Path) k8sfield.ErrorList {
	var errs k8sfield.ErrorList
	if na := a.NodeAffinity; na != nil {
		np := p.Child("nodeAffinity")
		if r := na.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
			rp := np.Child("requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
			if len(r.NodeSelectorTerms) == 0 {
				errs = append(errs, k8sfield.Required(rp, "must have at least one node selector term"))
			}
			for i, t := range r.NodeSelectorTerms {
				errs = append(errs, validateNodeSelectorTerm(t, rp.Index(i))...)
			}
		}
		for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			tp := np.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
			errs = append(errs, validateWeight(t.Weight, tp.Child("weight"))...)
			errs = append(errs, validateNodeSelectorTerm(t.Preference, tp.Child("preference"))...)
		}
	}
	terms := func(name string, required []corev1.PodAffinityTerm, preferred []corev1.WeightedPodAffinityTerm) {
		pp := p.Child(name)
		for i, t := range required {
			errs = append(errs, validatePodAffinityTerm(t, pp.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i))...)
		}
		for i, t := range preferred {
			tp := pp.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
			errs = append(errs, validateWeight(t.Weight, tp.Child("weight"))...)
			errs = append(errs, validatePodAffinityTerm(t.PodAffinityTerm, tp.Child("podAffinityTerm"))...)
		}
	}
	if pa := a.PodAffinity; pa != nil {
		terms("podAffinity", pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		terms("podAntiAffinity", pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	return errs
}

func validateWeight(w int32, p *k8sfield.Path) k8sfield.ErrorList {
	if w < 1 || w > 100 {
		return k8sfield.ErrorList{k8sfield.Invalid(p, w, "must be in the range 1-100")}
	}
	return nil
}

func validatePodAffinityTerm(t corev1.PodAffinityTerm, p *k8sfield.Path) k8sfield.ErrorList {
	var errs k8sfield.ErrorList
	if t.TopologyKey == "" {
		errs = append(errs, k8sfield.Required(p.Child("topologyKey"), "must not be empty"))
	}
	for _, msg := range validation.IsQualifiedName(t.TopologyKey) {
		errs = append(errs, k8sfield.Invalid(p.Child("topologyKey"), t.TopologyKey, msg))
	}
	errs = append(errs, labelselector.Validate(t.LabelSelector, p.Child("labelSelector"))...)
	errs = append(errs, labelselector.Validate(t.NamespaceSelector, p.Child("namespaceSelector"))...)
	for i, ns := range t.Namespaces {
		for _, msg := range validation.IsDNS1123Label(ns) {
			errs = append(errs, k8sfield.Invalid(p.Child("namespaces").Index(i), ns, msg))
		}
	}
	keys := map[string]bool{}
	if t.LabelSelector != nil {
		for k := range t.LabelSelector.MatchLabels {
			keys[k] = true
		}
		for _, e := range t.LabelSelector.MatchExpressions {
			keys[e.Key] = true
		}
	}
	for _, l := range []struct {
		name string
		keys []string
	}{{"matchLabelKeys", t.MatchLabelKeys}, {"mismatchLabelKeys", t.MismatchLabelKeys}} {
		for i, k := range l.keys {
			for _, msg := range validation.IsQualifiedName(k) {
				errs = append(errs, k8sfield.Invalid(p.Child(l.name).Index(i), k, msg))
			}
			if keys[k] {
				errs = append(errs, k8sfield.Invalid(p.Child(l.name).Index(i), k, "must not be a key of the term's labelSelector"))
			}
		}
	}
	return errs
}

func validateNodeSelectorTerm(t corev1.NodeSelectorTerm, p *k8sfield.Path) k8sfield.ErrorList {
	var errs k8sfield.ErrorList
	for i, r := range t.MatchExpressions {
		rp := p.Child("matchExpressions").Index(i)
		for _, msg := range validation.IsQualifiedName(r.Key) {
			errs = append(errs, k8sfield.Invalid(rp.Child("key"), r.Key, msg))
		}
		errs = append(errs, validateNodeSelectorOperator(r, rp)...)
		for j, v := range r.Values {
			for _, msg := range validation.IsValidLabelValue(v) {
				errs = append(errs, k8sfield.Invalid(rp.Child("values").Index(j), v, msg))
			}
		}
	}
	for i, r := range t.MatchFields {
		rp := p.Child("matchFields").Index(i)
		if r.Key != "metadata.name" {
			errs = append(errs, k8sfield.NotSupported(rp.Child("key"), r.Key, []string{"metadata.name"}))
		}
		if r.Operator != corev1.NodeSelectorOpIn && r.Operator != corev1.NodeSelectorOpNotIn {
			errs = append(errs, k8sfield.NotSupported(rp.Child("operator"), r.Operator, []string{"In", "NotIn"}))
		} else if len(r.Values) != 1 {
			errs = append(errs, k8sfield.Required(rp.Child("values"), "must have exactly one value"))
		}
		// The values of metadata.name are node names: the API server's
		// ValidateNodeName, a DNS-1123 subdomain (at most 253).
		for j, v := range r.Values {
			if r.Key != "metadata.name" {
				break
			}
			for _, msg := range validation.IsDNS1123Subdomain(v) {
				errs = append(errs, k8sfield.Invalid(rp.Child("values").Index(j), v, msg))
			}
		}
	}
	return errs
}

func validateNodeSelectorOperator(r corev1.NodeSelectorRequirement, p *k8sfield.Path) k8sfield.ErrorList {
	switch r.Operator {
	case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
		if len(r.Values) == 0 {
			return k8sfield.ErrorList{k8sfield.Required(p.Child("values"), "must be given for operator In or NotIn")}
		}
	case corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist:
		if len(r.Values) > 0 {
			return k8sfield.ErrorList{k8sfield.Forbidden(p.Child("values"), "must be empty for operator Exists or DoesNotExist")}
		}
	case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
		if len(r.Values) != 1 {
			return k8sfield.ErrorList{k8sfield.Required(p.Child("values"), "must be a single value for operator Gt or Lt")}
		}
	default:
		return k8sfield.ErrorList{k8sfield.NotSupported(p.Child("operator"), r.Operator, []string{"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"})}
	}
	return nil
}

package crdcheck

import (
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Pass-through fields: etcd-operator copies some EtcdCluster fields
// verbatim into the member Pods. The CRD's schema only types them; the API
// server validates them when the operator creates a Pod, too late for the
// user. The checker applies the API server's Pod rules for them
// (k8s.io/kubernetes/pkg/apis/core/validation) to the EtcdCluster, so an
// input that would leave the cluster without members fails here.

type podPassThrough struct {
	Resources                 *corev1.ResourceRequirements      `json:"resources"`
	TopologySpreadConstraints []corev1.TopologySpreadConstraint `json:"topologySpreadConstraints"`
	Affinity                  *corev1.Affinity                  `json:"affinity"`
}

var passThroughKinds = map[string]bool{"EtcdCluster": true}

func validatePassThrough(kind string, obj map[string]any) field.ErrorList {
	if !passThroughKinds[kind] {
		return nil
	}
	spec, ok := obj["spec"]
	if !ok {
		return nil
	}
	raw, err := json.Marshal(spec)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("spec"), err)}
	}
	var p podPassThrough
	if err := json.Unmarshal(raw, &p); err != nil {
		return field.ErrorList{field.Invalid(field.NewPath("spec"), nil, "does not decode as Pod fields: "+err.Error())}
	}
	sp := field.NewPath("spec")
	var errs field.ErrorList
	if p.Resources != nil {
		errs = append(errs, validateResources(*p.Resources, sp.Child("resources"))...)
	}
	errs = append(errs, ValidateTopologySpreadConstraints(p.TopologySpreadConstraints, sp.Child("topologySpreadConstraints"))...)
	errs = append(errs, ValidateAffinity(p.Affinity, sp.Child("affinity"))...)
	return errs
}

// ValidateTopologySpreadConstraints is the API server's Pod rule for
// topologySpreadConstraints.
func ValidateTopologySpreadConstraints(cs []corev1.TopologySpreadConstraint, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, c := range cs {
		cp := p.Index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, field.Invalid(cp.Child("maxSkew"), c.MaxSkew, "must be greater than zero"))
		}
		if c.TopologyKey == "" {
			errs = append(errs, field.Required(cp.Child("topologyKey"), "can not be empty"))
		}
		if c.WhenUnsatisfiable != corev1.DoNotSchedule && c.WhenUnsatisfiable != corev1.ScheduleAnyway {
			errs = append(errs, field.NotSupported(cp.Child("whenUnsatisfiable"), c.WhenUnsatisfiable, []string{"DoNotSchedule", "ScheduleAnyway"}))
		}
		for _, other := range cs[i+1:] {
			if other.TopologyKey == c.TopologyKey && other.WhenUnsatisfiable == c.WhenUnsatisfiable {
				errs = append(errs, field.Duplicate(cp.Child("{topologyKey, whenUnsatisfiable}"), fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable)))
			}
		}
		if c.MinDomains != nil {
			if *c.MinDomains <= 0 {
				errs = append(errs, field.Invalid(cp.Child("minDomains"), *c.MinDomains, "must be greater than zero"))
			}
			if c.WhenUnsatisfiable != corev1.DoNotSchedule {
				errs = append(errs, field.Invalid(cp.Child("minDomains"), *c.MinDomains, "can only use minDomains if whenUnsatisfiable=DoNotSchedule"))
			}
		}
		for _, pol := range []struct {
			name string
			v    *corev1.NodeInclusionPolicy
		}{{"nodeAffinityPolicy", c.NodeAffinityPolicy}, {"nodeTaintsPolicy", c.NodeTaintsPolicy}} {
			if pol.v != nil && *pol.v != corev1.NodeInclusionPolicyHonor && *pol.v != corev1.NodeInclusionPolicyIgnore {
				errs = append(errs, field.NotSupported(cp.Child(pol.name), *pol.v, []string{"Honor", "Ignore"}))
			}
		}
		selectorKeys := sets.New[string]()
		if c.LabelSelector != nil {
			for k := range c.LabelSelector.MatchLabels {
				selectorKeys.Insert(k)
			}
			for _, e := range c.LabelSelector.MatchExpressions {
				selectorKeys.Insert(e.Key)
			}
		}
		for j, k := range c.MatchLabelKeys {
			for _, msg := range validation.IsQualifiedName(k) {
				errs = append(errs, field.Invalid(cp.Child("matchLabelKeys").Index(j), k, msg))
			}
			if selectorKeys.Has(k) {
				errs = append(errs, field.Invalid(cp.Child("matchLabelKeys").Index(j), k, "exists in both matchLabelKeys and labelSelector"))
			}
		}
		errs = append(errs, metav1validation.ValidateLabelSelector(c.LabelSelector, metav1validation.LabelSelectorValidationOptions{}, cp.Child("labelSelector"))...)
	}
	return errs
}

// validateWeight is the API server's rule for a preferred term's weight.
func validateWeight(w int32, p *field.Path) field.ErrorList {
	if w <= 0 || w > 100 {
		return field.ErrorList{field.Invalid(p, w, "must be in the range 1-100")}
	}
	return nil
}

// ValidateAffinity is the API server's Pod rule for affinity.
func ValidateAffinity(a *corev1.Affinity, p *field.Path) field.ErrorList {
	if a == nil {
		return nil
	}
	var errs field.ErrorList
	if na := a.NodeAffinity; na != nil {
		np := p.Child("nodeAffinity")
		if r := na.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
			rp := np.Child("requiredDuringSchedulingIgnoredDuringExecution")
			if len(r.NodeSelectorTerms) == 0 {
				errs = append(errs, field.Required(rp.Child("nodeSelectorTerms"), "must have at least one node selector term"))
			}
			for i, t := range r.NodeSelectorTerms {
				errs = append(errs, validateNodeSelectorTerm(t, rp.Child("nodeSelectorTerms").Index(i))...)
			}
		}
		for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			tp := np.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
			errs = append(errs, validateWeight(t.Weight, tp.Child("weight"))...)
			errs = append(errs, validateNodeSelectorTerm(t.Preference, tp.Child("preference"))...)
		}
	}
	aff, anti := orZero(a.PodAffinity), orZero(a.PodAntiAffinity)
	for _, pa := range []struct {
		name      string
		required  []corev1.PodAffinityTerm
		preferred []corev1.WeightedPodAffinityTerm
	}{
		{"podAffinity", aff.RequiredDuringSchedulingIgnoredDuringExecution, aff.PreferredDuringSchedulingIgnoredDuringExecution},
		{"podAntiAffinity", anti.RequiredDuringSchedulingIgnoredDuringExecution, anti.PreferredDuringSchedulingIgnoredDuringExecution},
	} {
		pp := p.Child(pa.name)
		for i, t := range pa.required {
			errs = append(errs, validatePodAffinityTerm(t, pp.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i))...)
		}
		for i, t := range pa.preferred {
			tp := pp.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
			errs = append(errs, validateWeight(t.Weight, tp.Child("weight"))...)
			errs = append(errs, validatePodAffinityTerm(t.PodAffinityTerm, tp.Child("podAffinityTerm"))...)
		}
	}
	return errs
}

// orZero is *p, or T's zero value for a nil p.
func orZero[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

func validatePodAffinityTerm(t corev1.PodAffinityTerm, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.TopologyKey == "" {
		errs = append(errs, field.Required(p.Child("topologyKey"), "can not be empty"))
	} else {
		for _, msg := range validation.IsQualifiedName(t.TopologyKey) {
			errs = append(errs, field.Invalid(p.Child("topologyKey"), t.TopologyKey, msg))
		}
	}
	opts := metav1validation.LabelSelectorValidationOptions{}
	errs = append(errs, metav1validation.ValidateLabelSelector(t.LabelSelector, opts, p.Child("labelSelector"))...)
	errs = append(errs, metav1validation.ValidateLabelSelector(t.NamespaceSelector, opts, p.Child("namespaceSelector"))...)
	for i, ns := range t.Namespaces {
		for _, msg := range validation.IsDNS1123Label(ns) {
			errs = append(errs, field.Invalid(p.Child("namespaces").Index(i), ns, msg))
		}
	}
	keys := sets.New[string]()
	if t.LabelSelector != nil {
		for k := range t.LabelSelector.MatchLabels {
			keys.Insert(k)
		}
		for _, e := range t.LabelSelector.MatchExpressions {
			keys.Insert(e.Key)
		}
	}
	for name, list := range map[string][]string{"matchLabelKeys": t.MatchLabelKeys, "mismatchLabelKeys": t.MismatchLabelKeys} {
		for i, k := range list {
			for _, msg := range validation.IsQualifiedName(k) {
				errs = append(errs, field.Invalid(p.Child(name).Index(i), k, msg))
			}
			if keys.Has(k) {
				errs = append(errs, field.Invalid(p.Child(name).Index(i), k, "exists in both "+name+" and labelSelector"))
			}
		}
	}
	return errs
}

func validateNodeSelectorTerm(t corev1.NodeSelectorTerm, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, r := range t.MatchExpressions {
		rp := p.Child("matchExpressions").Index(i)
		for _, msg := range validation.IsQualifiedName(r.Key) {
			errs = append(errs, field.Invalid(rp.Child("key"), r.Key, msg))
		}
		errs = append(errs, validateNodeSelectorRequirement(r, rp, true)...)
	}
	for i, r := range t.MatchFields {
		rp := p.Child("matchFields").Index(i)
		if r.Key != "metadata.name" {
			errs = append(errs, field.NotSupported(rp.Child("key"), r.Key, []string{"metadata.name"}))
		}
		if r.Operator != corev1.NodeSelectorOpIn && r.Operator != corev1.NodeSelectorOpNotIn {
			errs = append(errs, field.NotSupported(rp.Child("operator"), r.Operator, []string{"In", "NotIn"}))
		} else if len(r.Values) != 1 {
			errs = append(errs, field.Required(rp.Child("values"), "must have exactly one value"))
		}
	}
	return errs
}

func validateNodeSelectorRequirement(r corev1.NodeSelectorRequirement, p *field.Path, labelValues bool) field.ErrorList {
	var errs field.ErrorList
	switch r.Operator {
	case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
		if len(r.Values) == 0 {
			errs = append(errs, field.Required(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
		}
	case corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist:
		if len(r.Values) > 0 {
			errs = append(errs, field.Forbidden(p.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
		}
	case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
		if len(r.Values) != 1 {
			errs = append(errs, field.Required(p.Child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("operator"), r.Operator, []string{"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"}))
	}
	if labelValues {
		for i, v := range r.Values {
			for _, msg := range validation.IsValidLabelValue(v) {
				errs = append(errs, field.Invalid(p.Child("values").Index(i), v, msg))
			}
		}
	}
	return errs
}

package crdcheck

import (
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"sort"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	pathvalidation "k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kjson "sigs.k8s.io/json"
)

// Built-in kinds are not checked against an OpenAPI schema: the library
// emits them from k8s.io/api's own types. The checker decodes them strictly
// into those types (unknown or duplicate fields fail, as with strict field
// validation), requires the typed round trip to reproduce the input (a
// field that would be dropped or rewritten fails), and applies the subset
// of the API server's validation (k8s.io/kubernetes/pkg/apis/*/validation,
// which is not importable as a library) that the emitted fields touch:
// names per kind, ObjectMeta, pod templates, Job and CronJob fields, RBAC
// rules and bindings, Service ports.

type builtin struct {
	newObj   func() runtime.Object
	nameFn   apimachineryvalidation.ValidateNameFunc
	validate func(obj runtime.Object) field.ErrorList
}

var builtins = map[schema.GroupVersionKind]builtin{
	corev1.SchemeGroupVersion.WithKind("Service"): {
		newObj: func() runtime.Object { return &corev1.Service{} },
		nameFn: apimachineryvalidation.NameIsDNS1035Label,
		validate: func(o runtime.Object) field.ErrorList {
			return validateService(o.(*corev1.Service))
		},
	},
	corev1.SchemeGroupVersion.WithKind("Secret"): {
		newObj: func() runtime.Object { return &corev1.Secret{} },
		nameFn: apimachineryvalidation.NameIsDNSSubdomain,
		validate: func(o runtime.Object) field.ErrorList {
			return validateSecret(o.(*corev1.Secret))
		},
	},
	corev1.SchemeGroupVersion.WithKind("ServiceAccount"): {
		newObj:   func() runtime.Object { return &corev1.ServiceAccount{} },
		nameFn:   apimachineryvalidation.NameIsDNSSubdomain,
		validate: func(runtime.Object) field.ErrorList { return nil },
	},
	rbacv1.SchemeGroupVersion.WithKind("Role"): {
		newObj: func() runtime.Object { return &rbacv1.Role{} },
		nameFn: pathSegmentName,
		validate: func(o runtime.Object) field.ErrorList {
			return validateRules(o.(*rbacv1.Role).Rules, field.NewPath("rules"))
		},
	},
	rbacv1.SchemeGroupVersion.WithKind("RoleBinding"): {
		newObj: func() runtime.Object { return &rbacv1.RoleBinding{} },
		nameFn: pathSegmentName,
		validate: func(o runtime.Object) field.ErrorList {
			return validateRoleBinding(o.(*rbacv1.RoleBinding))
		},
	},
	batchv1.SchemeGroupVersion.WithKind("Job"): {
		newObj: func() runtime.Object { return &batchv1.Job{} },
		nameFn: jobName,
		validate: func(o runtime.Object) field.ErrorList {
			return validateJobSpec(&o.(*batchv1.Job).Spec, field.NewPath("spec"))
		},
	},
	batchv1.SchemeGroupVersion.WithKind("CronJob"): {
		newObj: func() runtime.Object { return &batchv1.CronJob{} },
		nameFn: cronJobName,
		validate: func(o runtime.Object) field.ErrorList {
			return validateCronJob(o.(*batchv1.CronJob))
		},
	},
}

// Names of the built-in kinds beyond a DNS subdomain.
const (
	// MaxJobName: the API server labels a Job's pods with
	// batch.kubernetes.io/job-name=<name>, a label value.
	MaxJobName = validation.LabelValueMaxLength
	// MaxCronJobName: the CronJob controller appends an 11-character
	// suffix to form Job names.
	MaxCronJobName = 52
)

func pathSegmentName(name string, prefix bool) []string {
	return pathvalidation.IsValidPathSegmentName(name)
}

func jobName(name string, prefix bool) []string {
	errs := apimachineryvalidation.NameIsDNSSubdomain(name, prefix)
	if len(name) > MaxJobName {
		errs = append(errs, fmt.Sprintf("must be no more than %d characters (the job-name label of its pods)", MaxJobName))
	}
	return errs
}

func cronJobName(name string, prefix bool) []string {
	errs := apimachineryvalidation.NameIsDNSSubdomain(name, prefix)
	if len(name) > MaxCronJobName {
		errs = append(errs, fmt.Sprintf("must be no more than %d characters", MaxCronJobName))
	}
	return errs
}

func validateBuiltin(gvk schema.GroupVersionKind, b builtin, raw []byte, u *unstructured.Unstructured) error {
	e := &Error{GVK: gvk, Namespace: u.GetNamespace(), Name: u.GetName()}
	obj := b.newObj()
	strict, err := kjson.UnmarshalStrict(raw, obj, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	if err != nil {
		e.Errs = append(e.Errs, field.Invalid(field.NewPath(""), nil, "does not decode as "+gvk.Kind+": "+err.Error()))
		return e
	}
	for _, s := range strict {
		e.Errs = append(e.Errs, field.Invalid(field.NewPath(""), nil, "strict field validation: "+s.Error()))
	}
	e.Errs = append(e.Errs, roundTrip(obj, raw)...)
	e.Errs = append(e.Errs, validateMeta(u, true, b.nameFn)...)
	e.Errs = append(e.Errs, b.validate(obj)...)
	if len(e.Errs) > 0 {
		return e
	}
	return nil
}

// roundTrip reports fields of raw that the typed object does not reproduce.
func roundTrip(obj runtime.Object, raw []byte) field.ErrorList {
	again, err := json.Marshal(obj)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath(""), err)}
	}
	var a, b any
	if err := json.Unmarshal(raw, &a); err != nil {
		return field.ErrorList{field.InternalError(field.NewPath(""), err)}
	}
	if err := json.Unmarshal(again, &b); err != nil {
		return field.ErrorList{field.InternalError(field.NewPath(""), err)}
	}
	am, _ := a.(map[string]any)
	bm, _ := b.(map[string]any)
	var errs field.ErrorList
	for _, k := range sets.List(sets.KeySet(am).Union(sets.KeySet(bm))) {
		diff(field.NewPath(k), am[k], bm[k], &errs)
	}
	return errs
}

// empty reports whether v is what a typed struct prints for "nothing":
// null or a map holding only empty values.
func empty(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, c := range t {
			if !empty(c) {
				return false
			}
		}
		return true
	}
	return false
}

// diff reports where b (the typed round trip) loses or rewrites what a (the
// input) says. Empty values the typed struct adds (status: {}) are not
// differences.
func diff(p *field.Path, a, b any, errs *field.ErrorList) {
	if a == nil && empty(b) {
		return
	}
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			*errs = append(*errs, field.Invalid(p, a, fmt.Sprintf("round trip through the typed object changes it to %v", b)))
			return
		}
		keys := sets.KeySet(av).Union(sets.KeySet(bv))
		for _, k := range sets.List(keys) {
			diff(p.Child(k), av[k], bv[k], errs)
		}
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			*errs = append(*errs, field.Invalid(p, a, fmt.Sprintf("round trip through the typed object changes it to %v", b)))
			return
		}
		for i := range av {
			diff(p.Index(i), av[i], bv[i], errs)
		}
	default:
		if !reflect.DeepEqual(a, b) {
			*errs = append(*errs, field.Invalid(p, a, fmt.Sprintf("round trip through the typed object changes it to %v", b)))
		}
	}
}

func validateSecret(s *corev1.Secret) field.ErrorList {
	var errs field.ErrorList
	size := 0
	for k, v := range s.Data {
		for _, msg := range validation.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(field.NewPath("data").Key(k), k, msg))
		}
		size += len(v)
	}
	for k, v := range s.StringData {
		for _, msg := range validation.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(field.NewPath("stringData").Key(k), k, msg))
		}
		size += len(v)
	}
	if size > corev1.MaxSecretSize {
		errs = append(errs, field.TooLong(field.NewPath("data"), "", corev1.MaxSecretSize))
	}
	return errs
}

func validateService(s *corev1.Service) field.ErrorList {
	var errs field.ErrorList
	sp := field.NewPath("spec")
	switch s.Spec.Type {
	case "", corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer, corev1.ServiceTypeExternalName:
	default:
		errs = append(errs, field.NotSupported(sp.Child("type"), s.Spec.Type, []string{"ClusterIP", "NodePort", "LoadBalancer", "ExternalName"}))
	}
	headless := s.Spec.ClusterIP == corev1.ClusterIPNone
	if len(s.Spec.Ports) == 0 && !headless && s.Spec.Type != corev1.ServiceTypeExternalName {
		errs = append(errs, field.Required(sp.Child("ports"), ""))
	}
	names := sets.New[string]()
	for i, port := range s.Spec.Ports {
		pp := sp.Child("ports").Index(i)
		if len(s.Spec.Ports) > 1 && port.Name == "" {
			errs = append(errs, field.Required(pp.Child("name"), "required when more than one port"))
		}
		if port.Name != "" {
			errs = append(errs, uniqueLabel(names, port.Name, pp.Child("name"))...)
		}
		for _, msg := range validation.IsValidPortNum(int(port.Port)) {
			errs = append(errs, field.Invalid(pp.Child("port"), port.Port, msg))
		}
		switch port.Protocol {
		case "", corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP:
		default:
			errs = append(errs, field.NotSupported(pp.Child("protocol"), port.Protocol, []string{"TCP", "UDP", "SCTP"}))
		}
		if port.TargetPort.Type == intstr.Int && port.TargetPort.IntVal != 0 {
			for _, msg := range validation.IsValidPortNum(int(port.TargetPort.IntVal)) {
				errs = append(errs, field.Invalid(pp.Child("targetPort"), port.TargetPort.IntVal, msg))
			}
		} else if port.TargetPort.Type == intstr.String {
			for _, msg := range validation.IsValidPortName(port.TargetPort.StrVal) {
				errs = append(errs, field.Invalid(pp.Child("targetPort"), port.TargetPort.StrVal, msg))
			}
		}
	}
	errs = append(errs, metav1validation.ValidateLabels(s.Spec.Selector, sp.Child("selector"))...)
	return errs
}

var validVerbs = sets.New("get", "list", "watch", "create", "update", "patch", "delete", "deletecollection", "*",
	"use", "bind", "escalate", "impersonate", "approve", "sign", "attest")

func validateRules(rules []rbacv1.PolicyRule, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, r := range rules {
		rp := p.Index(i)
		if len(r.Verbs) == 0 {
			errs = append(errs, field.Required(rp.Child("verbs"), "verbs must contain at least one value"))
		}
		for j, v := range r.Verbs {
			if !validVerbs.Has(v) {
				errs = append(errs, field.NotSupported(rp.Child("verbs").Index(j), v, sets.List(validVerbs)))
			}
		}
		if len(r.NonResourceURLs) > 0 {
			if len(r.APIGroups) > 0 || len(r.Resources) > 0 || len(r.ResourceNames) > 0 {
				errs = append(errs, field.Invalid(rp.Child("nonResourceURLs"), r.NonResourceURLs, "rules cannot apply to both regular resources and non-resource URLs"))
			}
			continue
		}
		if len(r.APIGroups) == 0 {
			errs = append(errs, field.Required(rp.Child("apiGroups"), "resource rules must supply at least one api group"))
		}
		if len(r.Resources) == 0 {
			errs = append(errs, field.Required(rp.Child("resources"), "resource rules must supply at least one resource"))
		}
		for j, name := range r.ResourceNames {
			if name == "" {
				errs = append(errs, field.Required(rp.Child("resourceNames").Index(j), ""))
			}
		}
	}
	return errs
}

func validateRoleBinding(b *rbacv1.RoleBinding) field.ErrorList {
	var errs field.ErrorList
	rr := field.NewPath("roleRef")
	if b.RoleRef.APIGroup != rbacv1.GroupName {
		errs = append(errs, field.NotSupported(rr.Child("apiGroup"), b.RoleRef.APIGroup, []string{rbacv1.GroupName}))
	}
	if b.RoleRef.Kind != "Role" && b.RoleRef.Kind != "ClusterRole" {
		errs = append(errs, field.NotSupported(rr.Child("kind"), b.RoleRef.Kind, []string{"Role", "ClusterRole"}))
	}
	if b.RoleRef.Name == "" {
		errs = append(errs, field.Required(rr.Child("name"), ""))
	} else {
		for _, msg := range pathvalidation.IsValidPathSegmentName(b.RoleRef.Name) {
			errs = append(errs, field.Invalid(rr.Child("name"), b.RoleRef.Name, msg))
		}
	}
	for i, s := range b.Subjects {
		sp := field.NewPath("subjects").Index(i)
		if s.Name == "" {
			errs = append(errs, field.Required(sp.Child("name"), ""))
		}
		switch s.Kind {
		case rbacv1.ServiceAccountKind:
			if s.APIGroup != "" {
				errs = append(errs, field.NotSupported(sp.Child("apiGroup"), s.APIGroup, []string{""}))
			}
			for _, msg := range apimachineryvalidation.ValidateServiceAccountName(s.Name, false) {
				errs = append(errs, field.Invalid(sp.Child("name"), s.Name, msg))
			}
			if s.Namespace == "" {
				errs = append(errs, field.Required(sp.Child("namespace"), ""))
			}
			for _, msg := range validation.IsDNS1123Label(s.Namespace) {
				errs = append(errs, field.Invalid(sp.Child("namespace"), s.Namespace, msg))
			}
		case rbacv1.UserKind, rbacv1.GroupKind:
			if s.APIGroup != rbacv1.GroupName {
				errs = append(errs, field.NotSupported(sp.Child("apiGroup"), s.APIGroup, []string{rbacv1.GroupName}))
			}
		default:
			errs = append(errs, field.NotSupported(sp.Child("kind"), s.Kind, []string{"ServiceAccount", "User", "Group"}))
		}
	}
	return errs
}

func validateCronJob(c *batchv1.CronJob) field.ErrorList {
	var errs field.ErrorList
	sp := field.NewPath("spec")
	if fields := strings.Fields(c.Spec.Schedule); len(fields) != 5 && !strings.HasPrefix(c.Spec.Schedule, "@") {
		errs = append(errs, field.Invalid(sp.Child("schedule"), c.Spec.Schedule, "must be a cron schedule of 5 fields"))
	}
	switch c.Spec.ConcurrencyPolicy {
	case "", batchv1.AllowConcurrent, batchv1.ForbidConcurrent, batchv1.ReplaceConcurrent:
	default:
		errs = append(errs, field.NotSupported(sp.Child("concurrencyPolicy"), c.Spec.ConcurrencyPolicy, []string{"Allow", "Forbid", "Replace"}))
	}
	nonNeg := func(p *field.Path, v *int64) {
		if v != nil && *v < 0 {
			errs = append(errs, field.Invalid(p, *v, "must be greater than or equal to 0"))
		}
	}
	nonNeg(sp.Child("startingDeadlineSeconds"), c.Spec.StartingDeadlineSeconds)
	if c.Spec.SuccessfulJobsHistoryLimit != nil {
		nonNeg(sp.Child("successfulJobsHistoryLimit"), ptr(int64(*c.Spec.SuccessfulJobsHistoryLimit)))
	}
	if c.Spec.FailedJobsHistoryLimit != nil {
		nonNeg(sp.Child("failedJobsHistoryLimit"), ptr(int64(*c.Spec.FailedJobsHistoryLimit)))
	}
	errs = append(errs, metav1validation.ValidateLabels(c.Spec.JobTemplate.Labels, sp.Child("jobTemplate", "metadata", "labels"))...)
	errs = append(errs, validateJobSpec(&c.Spec.JobTemplate.Spec, sp.Child("jobTemplate", "spec"))...)
	return errs
}

func validateJobSpec(s *batchv1.JobSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.BackoffLimit != nil && *s.BackoffLimit < 0 {
		errs = append(errs, field.Invalid(p.Child("backoffLimit"), *s.BackoffLimit, "must be greater than or equal to 0"))
	}
	if s.ActiveDeadlineSeconds != nil && *s.ActiveDeadlineSeconds <= 0 {
		errs = append(errs, field.Invalid(p.Child("activeDeadlineSeconds"), *s.ActiveDeadlineSeconds, "must be greater than 0"))
	}
	if s.Parallelism != nil && *s.Parallelism < 0 {
		errs = append(errs, field.Invalid(p.Child("parallelism"), *s.Parallelism, "must be greater than or equal to 0"))
	}
	if s.Completions != nil && *s.Completions < 0 {
		errs = append(errs, field.Invalid(p.Child("completions"), *s.Completions, "must be greater than or equal to 0"))
	}
	if s.Selector != nil || (s.ManualSelector != nil && *s.ManualSelector) {
		errs = append(errs, field.Forbidden(p.Child("selector"), "the API server generates the selector; leave it unset"))
	}
	tp := p.Child("template")
	switch s.Template.Spec.RestartPolicy {
	case corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever:
	default:
		errs = append(errs, field.NotSupported(tp.Child("spec", "restartPolicy"), s.Template.Spec.RestartPolicy, []string{"OnFailure", "Never"}))
	}
	errs = append(errs, validatePodTemplate(&s.Template, tp)...)
	return errs
}

// uniqueLabel refuses name at p unless it is a DNS label (RFC 1123) that
// seen does not hold yet, and adds it to seen: the rule for the names of a
// pod's volumes and containers and of a Service's ports.
func uniqueLabel(seen sets.Set[string], name string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsDNS1123Label(name) {
		errs = append(errs, field.Invalid(p, name, msg))
	}
	if seen.Has(name) {
		errs = append(errs, field.Duplicate(p, name))
	}
	seen.Insert(name)
	return errs
}

// validatePodTemplate is the part of ValidatePodTemplateSpec the library's
// pod templates touch.
func validatePodTemplate(t *corev1.PodTemplateSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	mp := p.Child("metadata")
	errs = append(errs, metav1validation.ValidateLabels(t.Labels, mp.Child("labels"))...)
	errs = append(errs, apimachineryvalidation.ValidateAnnotations(t.Annotations, mp.Child("annotations"))...)
	sp := p.Child("spec")
	spec := &t.Spec
	if spec.ServiceAccountName != "" {
		for _, msg := range apimachineryvalidation.ValidateServiceAccountName(spec.ServiceAccountName, false) {
			errs = append(errs, field.Invalid(sp.Child("serviceAccountName"), spec.ServiceAccountName, msg))
		}
	}
	volumes := sets.New[string]()
	for i, v := range spec.Volumes {
		vp := sp.Child("volumes").Index(i)
		errs = append(errs, uniqueLabel(volumes, v.Name, vp.Child("name"))...)
		if n := countSources(v.VolumeSource); n != 1 {
			errs = append(errs, field.Invalid(vp, v.Name, fmt.Sprintf("must specify exactly one volume source, not %d", n)))
		}
		if v.Secret != nil {
			for _, msg := range validation.IsDNS1123Subdomain(v.Secret.SecretName) {
				errs = append(errs, field.Invalid(vp.Child("secret", "secretName"), v.Secret.SecretName, msg))
			}
		}
	}
	if len(spec.Containers) == 0 {
		errs = append(errs, field.Required(sp.Child("containers"), ""))
	}
	names := sets.New[string]()
	for i, c := range spec.Containers {
		cp := sp.Child("containers").Index(i)
		errs = append(errs, uniqueLabel(names, c.Name, cp.Child("name"))...)
		if strings.TrimSpace(c.Image) != c.Image || c.Image == "" {
			errs = append(errs, field.Invalid(cp.Child("image"), c.Image, "must be a non-empty image reference without surrounding spaces"))
		}
		for j, env := range c.Env {
			for _, msg := range validation.IsEnvVarName(env.Name) {
				errs = append(errs, field.Invalid(cp.Child("env").Index(j).Child("name"), env.Name, msg))
			}
		}
		mounts := sets.New[string]()
		for j, m := range c.VolumeMounts {
			mp := cp.Child("volumeMounts").Index(j)
			if !volumes.Has(m.Name) {
				errs = append(errs, field.NotFound(mp.Child("name"), m.Name))
			}
			if !path.IsAbs(m.MountPath) {
				errs = append(errs, field.Invalid(mp.Child("mountPath"), m.MountPath, "must be an absolute path"))
			}
			if mounts.Has(m.MountPath) {
				errs = append(errs, field.Invalid(mp.Child("mountPath"), m.MountPath, "must be unique"))
			}
			mounts.Insert(m.MountPath)
		}
		errs = append(errs, validateResources(c.Resources, cp.Child("resources"))...)
	}
	if sc := spec.SecurityContext; sc != nil {
		for _, v := range []*int64{sc.RunAsUser, sc.RunAsGroup, sc.FSGroup} {
			if v != nil && *v < 0 {
				errs = append(errs, field.Invalid(sp.Child("securityContext"), *v, "ids must be non-negative"))
			}
		}
	}
	return errs
}

func countSources(v corev1.VolumeSource) int {
	n := 0
	rv := reflect.ValueOf(v)
	for i := 0; i < rv.NumField(); i++ {
		if !rv.Field(i).IsNil() {
			n++
		}
	}
	return n
}

// validateResources is ValidateContainerResourceRequirements for standard
// and extended resources: valid names, non-negative quantities, requests
// at most limits.
func validateResources(r corev1.ResourceRequirements, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	check := func(list corev1.ResourceList, lp *field.Path) {
		keys := make([]string, 0, len(list))
		for k := range list {
			keys = append(keys, string(k))
		}
		sort.Strings(keys)
		for _, k := range keys {
			q := list[corev1.ResourceName(k)]
			errs = append(errs, ValidateContainerResourceName(k, lp.Key(k))...)
			if q.Sign() < 0 {
				errs = append(errs, field.Invalid(lp.Key(k), q.String(), "must be greater than or equal to 0"))
			}
		}
	}
	check(r.Limits, p.Child("limits"))
	check(r.Requests, p.Child("requests"))
	for name, req := range r.Requests {
		lim, ok := r.Limits[name]
		if ok && req.Cmp(lim) > 0 {
			errs = append(errs, field.Invalid(p.Child("requests").Key(string(name)), req.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, lim.String())))
		}
		if ok && !standardCompressible(name) && req.Cmp(lim) != 0 {
			errs = append(errs, field.Invalid(p.Child("requests").Key(string(name)), req.String(), "must be equal to the limit: hugepages and extended resources cannot be overcommitted"))
		}
	}
	for _, list := range []corev1.ResourceList{r.Limits, r.Requests} {
		for name, q := range list {
			if strings.Contains(string(name), "/") && q.MilliValue()%1000 != 0 {
				errs = append(errs, field.Invalid(p.Child("limits").Key(string(name)), q.String(), "extended resources must be whole numbers"))
			}
		}
	}
	return errs
}

func standardCompressible(name corev1.ResourceName) bool {
	return name == corev1.ResourceCPU || name == corev1.ResourceMemory || name == corev1.ResourceEphemeralStorage
}

// ValidateContainerResourceName mirrors the API server's rule for container
// resource names: a standard container resource (cpu, memory,
// ephemeral-storage, hugepages-<size>) or a domain-qualified extended
// resource outside kubernetes.io.
func ValidateContainerResourceName(name string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsQualifiedName(name) {
		errs = append(errs, field.Invalid(p, name, msg))
	}
	if len(errs) > 0 {
		return errs
	}
	switch {
	case name == "cpu" || name == "memory" || name == "ephemeral-storage":
	case strings.HasPrefix(name, "hugepages-"):
		if _, err := resource.ParseQuantity(strings.TrimPrefix(name, "hugepages-")); err != nil {
			errs = append(errs, field.Invalid(p, name, "hugepages size must be a quantity"))
		}
	case !strings.Contains(name, "/"):
		errs = append(errs, field.Invalid(p, name, "must be a standard resource for containers"))
	case strings.HasPrefix(name, "kubernetes.io/") || strings.Contains(strings.SplitN(name, "/", 2)[0], ".kubernetes.io") ||
		strings.HasPrefix(name, "requests."):
		errs = append(errs, field.Invalid(p, name, "must be an extended resource outside the kubernetes.io domain"))
	}
	return errs
}

func ptr[T any](v T) *T { return &v }

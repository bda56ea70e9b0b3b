package crdcheck

import (
	"fmt"
	"sync"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	psaapi "k8s.io/pod-security-admission/api"
	psapolicy "k8s.io/pod-security-admission/policy"
)

// PodTemplate is a pod template found in an object, with where it was found.
type PodTemplate struct {
	// Owner is "Kind namespace/name" of the object holding the template.
	Owner    string
	Template *corev1.PodTemplateSpec
}

// PodTemplates returns the pod templates of the workload kinds the library
// emits (Job, CronJob, Pod). Other objects have none.
func PodTemplates(obj runtime.Object) []PodTemplate {
	owner := func(kind, ns, name string) string { return kind + " " + ns + "/" + name }
	switch o := obj.(type) {
	case *batchv1.Job:
		return []PodTemplate{{Owner: owner("Job", o.Namespace, o.Name), Template: &o.Spec.Template}}
	case *batchv1.CronJob:
		return []PodTemplate{{Owner: owner("CronJob", o.Namespace, o.Name), Template: &o.Spec.JobTemplate.Spec.Template}}
	case *corev1.Pod:
		return []PodTemplate{{Owner: owner("Pod", o.Namespace, o.Name), Template: &corev1.PodTemplateSpec{ObjectMeta: o.ObjectMeta, Spec: o.Spec}}}
	}
	return nil
}

var (
	psaOnce      sync.Once
	psaEvaluator psapolicy.Evaluator
	psaErr       error
)

// Restricted evaluates a pod template against the Pod Security Standards
// "restricted" level at the latest version, with the evaluator
// pod-security-admission runs. It returns nil when the pod is allowed.
func Restricted(t PodTemplate) error {
	psaOnce.Do(func() {
		psaEvaluator, psaErr = psapolicy.NewEvaluator(psapolicy.DefaultChecks(), nil)
	})
	if psaErr != nil {
		return psaErr
	}
	lv := psaapi.LevelVersion{Level: psaapi.LevelRestricted, Version: psaapi.LatestVersion()}
	res := psapolicy.AggregateCheckResults(psaEvaluator.EvaluatePod(lv, &t.Template.ObjectMeta, &t.Template.Spec))
	if !res.Allowed {
		return fmt.Errorf("%s: pod template violates PodSecurity %q: %s", t.Owner, lv.String(), res.ForbiddenDetail())
	}
	return nil
}

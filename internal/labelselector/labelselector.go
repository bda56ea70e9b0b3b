// Package labelselector validates a label selector as apimachinery's
// metav1validation.ValidateLabelSelector does, with its errors in a fixed
// order: apimachinery reads matchLabels by ranging over the map, so a
// selector with several bad labels is refused in a different order from
// one run to the next, and the first refusal, the one a Helm chart prints,
// would change with it.
package labelselector

import (
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Validate returns the errors metav1validation.ValidateLabelSelector
// returns for sel with the default options (label values in the selector
// must be valid label values), the same errors, with matchLabels' in the
// order of their keys, then matchExpressions' in list order. A nil selector
// has none.
func Validate(sel *metav1.LabelSelector, path *field.Path) field.ErrorList {
	if sel == nil {
		return nil
	}
	keys := make([]string, 0, len(sel.MatchLabels))
	for k := range sel.MatchLabels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs field.ErrorList
	for _, k := range keys {
		errs = append(errs, metav1validation.ValidateLabels(map[string]string{k: sel.MatchLabels[k]}, path.Child("matchLabels"))...)
	}
	for i, r := range sel.MatchExpressions {
		errs = append(errs, metav1validation.ValidateLabelSelectorRequirement(r, metav1validation.LabelSelectorValidationOptions{}, path.Child("matchExpressions").Index(i))...)
	}
	return errs
}

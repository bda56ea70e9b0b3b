package labelselector_test

import (
	"fmt"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/labelselector"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestValidate: the errors are apimachinery's, as a set, and come in one
// order on every run: bad label keys and values by key, then the
// expressions.
func TestValidate(t *testing.T) {
	path := field.NewPath("spec", "selector")
	for name, sel := range map[string]*metav1.LabelSelector{
		"nil":  nil,
		"none": {},
		"good": {MatchLabels: map[string]string{"app": "etcd", "a/b": "c"}},
		"bad labels and expressions": {
			MatchLabels: map[string]string{"z bad": "1", "a bad": "2", "ok": "bad value!", "m/": "", "-x": "-y"},
			MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: "app", Operator: metav1.LabelSelectorOpIn},
				{Key: "bad key", Operator: "Near", Values: []string{"x"}},
				{Key: "zone", Operator: metav1.LabelSelectorOpExists, Values: []string{"a"}},
			},
		},
	} {
		t.Run(name, func(t *testing.T) {
			first := labelselector.Validate(sel, path)
			require.ElementsMatch(t, metav1validation.ValidateLabelSelector(sel, metav1validation.LabelSelectorValidationOptions{}, path), first)
			for range 50 {
				require.Equal(t, first, labelselector.Validate(sel, path))
			}
			if name == "bad labels and expressions" {
				var order []string
				for _, e := range first[:7] {
					order = append(order, e.Field+" "+fmt.Sprint(e.BadValue))
				}
				require.Equal(t, []string{
					// matchLabels by key: "-x", "a bad", "m/", "ok", "z bad".
					"spec.selector.matchLabels -x",
					"spec.selector.matchLabels -y",
					"spec.selector.matchLabels a bad",
					"spec.selector.matchLabels m/", // no prefix, and no name
					"spec.selector.matchLabels m/",
					"spec.selector.matchLabels bad value!",
					"spec.selector.matchLabels z bad",
				}, order)
				require.Equal(t, "spec.selector.matchExpressions[0].values", first[7].Field)
			}
		})
	}
}

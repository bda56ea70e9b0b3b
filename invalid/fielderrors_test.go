package invalid_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestFromFieldErrors(t *testing.T) {
	p := field.NewPath("instanceSelector")
	for _, tc := range []struct {
		name string
		errs field.ErrorList
		want []*invalid.Error
	}{
		{"none", nil, nil},
		{"nil element", field.ErrorList{nil}, nil},
		{"detail is the rule", field.ErrorList{field.Invalid(p.Child("matchLabels"), "a b", "must be a label value")},
			[]*invalid.Error{{Field: "instanceSelector.matchLabels", Value: "a b", Rule: "must be a label value"}}},
		{"no detail: the type in lower case", field.ErrorList{field.Required(p.Child("key"), "")},
			[]*invalid.Error{{Field: "instanceSelector.key", Value: "", Rule: "required value"}}},
		{"every error, in order", field.ErrorList{
			field.Forbidden(p.Child("b"), "must be empty"),
			nil,
			field.NotSupported(p.Child("a"), "X", []string{"In"}),
		}, []*invalid.Error{
			{Field: "instanceSelector.b", Value: "", Rule: "must be empty"},
			{Field: "instanceSelector.a", Value: "X", Rule: `supported values: "In"`},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := invalid.FromFieldErrors(tc.errs)
			if got := invalid.All(err); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("All(FromFieldErrors) = %#v, want %#v", got, tc.want)
			}
			switch len(tc.want) {
			case 0:
				if err != nil {
					t.Fatalf("FromFieldErrors = %v, want nil", err)
				}
			case 1:
				var e *invalid.Error
				if !errors.As(err, &e) || err != error(e) {
					t.Fatalf("one refusal is %T, want the *invalid.Error itself", err)
				}
			default:
				if _, ok := err.(invalid.List); !ok {
					t.Fatalf("two refusals are %T, want an invalid.List", err)
				}
			}
		})
	}
}

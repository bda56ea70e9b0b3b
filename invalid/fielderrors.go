package invalid

import (
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// FromFieldErrors turns every error of an apimachinery validation into a
// refusal, in the list's order, and returns them as Collector.Err does:
// nil, the one *Error, or a List. Each keeps the error's Field and BadValue;
// its rule is the error's Detail, or where apimachinery gives none the
// error type in lower case ("required value"), so that it reads as the
// library's rules do. A nil element is skipped.
func FromFieldErrors(errs field.ErrorList) error {
	var c Collector
	for _, e := range errs {
		if e == nil {
			continue
		}
		rule := e.Detail
		if rule == "" {
			rule = strings.ToLower(e.Type.String())
		}
		c.Addf(e.Field, e.BadValue, "%s", rule)
	}
	return c.Err()
}

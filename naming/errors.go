package naming

import (
	"fmt"
)

// Error is the one error type every etcdshapes builder returns for bad input.
// It names the input field, the value that was given and the rule it broke, so
// that a refusal can be acted on without reading the code. Use errors.As to
// recover it from a wrapped error.
type Error struct {
	// Field is the input path in the callers' own terms, e.g. "values.size",
	// "_cluster.cpu-allocation-ratio" or "namespace".
	Field string
	// Value is the offending value as the caller gave it.
	Value any
	// Rule says what the value must be.
	Rule string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: invalid value %s: %s", e.Field, quoteValue(e.Value), e.Rule)
}

// Errorf builds an *Error whose rule is formatted like fmt.Sprintf.
func Errorf(field string, value any, format string, args ...any) *Error {
	return &Error{Field: field, Value: value, Rule: fmt.Sprintf(format, args...)}
}

func quoteValue(v any) string {
	switch t := v.(type) {
	case nil:
		return "<nil>"
	case string:
		return fmt.Sprintf("%q", t)
	default:
		return fmt.Sprintf("%v", t)
	}
}

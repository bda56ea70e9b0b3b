package invalid

import (
	"errors"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// List is every refusal of one call, in the order the checks ran, so that a
// caller fixes all of its inputs at once instead of one per run. A builder
// returns a List only for two or more refusals: a single one is returned as
// the *Error itself, whose message and type do not depend on whether other
// checks ran.
//
// The first element is the refusal a check that stops at its first failure
// (the Helm charts' templates) reports.
type List []*Error

// maxListErrors bounds how many refusals Error prints (each is bounded by
// Error.Error), so that a values file with thousands of bad keys gives a
// message of bounded length; All and ErrorList still give every one.
const maxListErrors = 20

// Error prints each refusal's message on its own line, in order. Lines
// rather than "; " because each message already holds "; " and ": " of
// its own, and the CLI prints one refusal a line. Beyond 20 refusals the
// rest is counted on a last line ("… and 5 more").
func (l List) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i == maxListErrors {
			b.WriteString("\n… and " + strconv.Itoa(len(l)-i) + " more")
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		if e == nil {
			b.WriteString("<nil>")
			continue
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap gives the refusals to errors.As and errors.Is, which try them in
// order: errors.As(err, &e) with e an *Error or an apimachinery
// *field.Error recovers the first.
func (l List) Unwrap() []error {
	out := make([]error, 0, len(l))
	for _, e := range l {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// ErrorList is the refusals as apimachinery's field.ErrorList (each as
// FieldError makes it), for code that aggregates Kubernetes validation
// errors.
func (l List) ErrorList() field.ErrorList {
	out := make(field.ErrorList, 0, len(l))
	for _, e := range l {
		if e != nil {
			out = append(out, e.FieldError())
		}
	}
	return out
}

// ErrorList is the one refusal as a one-element field.ErrorList, so that
// code can ask any refusal for its list without a type switch.
func (e *Error) ErrorList() field.ErrorList {
	return field.ErrorList{e.FieldError()}
}

// All returns every *Error in err, in order: the elements of a List, the
// *Error itself, or those found by unwrapping (fmt.Errorf's %w,
// errors.Join). It returns nil for nil or an error that holds none.
func All(err error) []*Error {
	var out []*Error
	collect(err, &out, 0)
	return out
}

// maxUnwrapDepth bounds the walk of All over a chain of wrapped errors.
const maxUnwrapDepth = 100

func collect(err error, out *[]*Error, depth int) {
	if err == nil || depth > maxUnwrapDepth {
		return
	}
	switch t := err.(type) {
	case *Error:
		if t != nil {
			*out = append(*out, t)
		}
		return
	case List:
		for _, e := range t {
			if e != nil {
				*out = append(*out, e)
			}
		}
		return
	}
	switch u := err.(type) {
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			collect(e, out, depth+1)
		}
	case interface{ Unwrap() error }:
		collect(u.Unwrap(), out, depth+1)
	}
}

// Collector gathers the refusals of independent checks, so that a
// validator runs them all and returns every refusal, in the order it ran
// them. The zero value is ready to use.
type Collector struct {
	errs List
	// other keeps errors that hold no *Error (I/O, say); Err returns them
	// joined after the refusals rather than dropping them.
	other []error
}

// Add records every refusal in err (see All) and every error in it that
// holds no refusal, whole (an I/O error joined with refusals is kept, not
// dropped), and reports whether err held anything (a nil *Error, or a List
// of none, is nothing), so that a check another depends on can be written
// "if c.Add(err) { skip the dependent check }".
func (c *Collector) Add(err error) bool {
	return c.AddEach(err, func(e *Error) *Error { return e })
}

// Addf records a refusal built as Errorf builds it.
func (c *Collector) Addf(field string, value any, format string, args ...any) {
	c.errs = append(c.errs, Errorf(field, value, format, args...))
}

// Len is the number of errors recorded so far.
func (c *Collector) Len() int { return len(c.errs) + len(c.other) }

// Err returns nil when nothing was recorded, the *Error itself when it is
// the only one (a single refusal is the *Error itself, not a List of one),
// and otherwise a List of every refusal in order. An error that holds no
// *Error is joined after them with errors.Join.
func (c *Collector) Err() error {
	var refusals error
	switch len(c.errs) {
	case 0:
	case 1:
		refusals = c.errs[0]
	default:
		refusals = append(List(nil), c.errs...)
	}
	if len(c.other) == 0 {
		return refusals
	}
	if refusals == nil && len(c.other) == 1 {
		return c.other[0]
	}
	return errors.Join(append([]error{refusals}, c.other...)...)
}

// Join returns the refusals of errs (nils skipped) as Collector.Err does:
// nil, the one *Error, or a List.
func Join(errs ...error) error {
	var c Collector
	for _, err := range errs {
		c.Add(err)
	}
	return c.Err()
}

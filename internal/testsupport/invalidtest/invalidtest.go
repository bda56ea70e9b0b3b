// Package invalidtest checks, for tests, that an error refusing bad input
// names exactly the fields it must, in the shapes callers rely on. Only
// tests import it.
package invalidtest

import (
	"errors"
	"slices"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Fields lists the field of every refusal in err, in order.
func Fields(err error) []string {
	all := invalid.All(err)
	out := make([]string, len(all))
	for i, e := range all {
		out[i] = e.Field
	}
	return out
}

// RequireEvery fails the test unless err refuses exactly fields, in order:
// invalid.All gives every one; one field is the *invalid.Error itself, two
// or more an invalid.List with one field.Error each, whose Unwrap gives
// errors.As the first as an *invalid.Error; and errors.As recovers the
// first as a *field.Error.
func RequireEvery(t testing.TB, err error, fields ...string) {
	t.Helper()
	if len(fields) == 0 {
		t.Fatal("RequireEvery needs the fields err must refuse")
	}
	if err == nil {
		t.Fatalf("no error, want one refusing %q", fields)
	}
	if got := Fields(err); !slices.Equal(got, fields) {
		t.Fatalf("refused fields %q, want %q: %v", got, fields, err)
	}
	if len(fields) == 1 {
		// errors.As would give this *invalid.Error itself: nothing to ask it.
		if _, ok := err.(*invalid.Error); !ok {
			t.Fatalf("one refusal is a %T, want an *invalid.Error: %v", err, err)
		}
	} else {
		list, ok := err.(invalid.List)
		if !ok {
			t.Fatalf("%d refusals are a %T, want an invalid.List: %v", len(fields), err, err)
		}
		if n := len(list.ErrorList()); n != len(fields) {
			t.Fatalf("ErrorList has %d errors, want %d: %v", n, len(fields), err)
		}
		var ie *invalid.Error
		if !errors.As(err, &ie) {
			t.Fatalf("errors.As finds no *invalid.Error in %T: %v", err, err)
		}
		if ie.Field != fields[0] {
			t.Fatalf("errors.As gives the *invalid.Error of %q, want %q: %v", ie.Field, fields[0], err)
		}
	}
	var fe *field.Error
	if !errors.As(err, &fe) {
		t.Fatalf("errors.As finds no *field.Error in %T: %v", err, err)
	}
	if fe.Field != fields[0] {
		t.Fatalf("errors.As gives the *field.Error of %q, want %q: %v", fe.Field, fields[0], err)
	}
}

package invalidtest_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/testsupport/invalidtest"
	"github.com/etcdshapes/etcdshapes/invalid"
)

// recorder keeps the message of the first Fatal and ends the goroutine
// that called it, as testing.T does.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatal(args ...any) {
	r.failed = fmt.Sprint(args...)
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// failure is what RequireEvery reports for err and fields ("" when it
// accepts them).
func failure(err error, fields ...string) string {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		invalidtest.RequireEvery(r, err, fields...)
	}()
	<-done
	return r.failed
}

func TestRequireEvery(t *testing.T) {
	a := invalid.Errorf("a", 1, "must be 2")
	b := invalid.Errorf("b", 1, "must be 3")
	for _, tc := range []struct {
		name   string
		err    error
		fields []string
		want   string
	}{
		{"one", a, []string{"a"}, ""},
		{"two", invalid.List{a, b}, []string{"a", "b"}, ""},
		{"no fields", a, nil, "RequireEvery needs the fields err must refuse"},
		{"no error", nil, []string{"a"}, `no error, want one refusing ["a"]`},
		{"other fields", invalid.List{a, b}, []string{"b", "a"}, `refused fields ["a" "b"], want ["b" "a"]`},
		{"not a refusal", errors.New("a"), []string{"a"}, `refused fields [], want ["a"]`},
		{"a list of one", invalid.List{a}, []string{"a"}, "one refusal is a invalid.List, want an *invalid.Error"},
		{"wrapped", fmt.Errorf("w: %w", invalid.List{a, b}), []string{"a", "b"}, "2 refusals are a *fmt.wrapError, want an invalid.List"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := failure(tc.err, tc.fields...)
			if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
				t.Errorf("RequireEvery reports %q, want %q", got, tc.want)
			}
		})
	}
}

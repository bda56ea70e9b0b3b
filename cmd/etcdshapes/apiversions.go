package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/spf13/pflag"
)

// apiVersionsValue is --api-versions. It is pflag's string slice, the
// flag `helm template --api-versions` is (Helm v3.22 cmd/helm/template.go
// and v4 pkg/cmd/template.go: f.StringSliceVarP), so that every value is
// read into entries as Helm reads it: as one CSV record (encoding/csv:
// commas separate, double quotes quote, spaces are kept, an empty value
// is no entry, a bare quote is an error) and nothing else. The one thing
// Helm drops without a word, the records after a value's first line
// (csv.Reader.Read reads one record), is recorded to be warned about.
type apiVersionsValue struct {
	pflag.Value
	// cut are the values that hold more than their first record.
	cut []string
	// given are the values as given, for the render command a plan prints.
	given []string
}

func newAPIVersionsValue(p *[]string) *apiVersionsValue {
	fs := pflag.NewFlagSet("api-versions", pflag.ContinueOnError)
	fs.StringSliceVar(p, "api-versions", nil, "")
	return &apiVersionsValue{Value: fs.Lookup("api-versions").Value}
}

func (v *apiVersionsValue) Set(s string) error {
	if err := v.Value.Set(s); err != nil {
		return err
	}
	v.given = append(v.given, s)
	if strings.ContainsAny(s, "\r\n") {
		r := csv.NewReader(strings.NewReader(s))
		if _, err := r.Read(); err == nil {
			if _, err := r.Read(); err != io.EOF {
				v.cut = append(v.cut, s)
			}
		}
	}
	return nil
}

// String is "" for no entry, so that --help shows no default.
func (v *apiVersionsValue) String() string {
	if s := v.Value.String(); s != "[]" {
		return s
	}
	return ""
}

// apiWarnings are the warnings about the served list the command renders
// with (apis: --api-versions, and for plan the APIs inferred from live
// objects): the values Helm reads only the first line of, then
// etcdshapes.APIVersionWarnings.
func (r *renderFlags) apiWarnings(apis []string) []string {
	var out []string
	if r.apiFlag != nil {
		for _, s := range r.apiFlag.cut {
			out = append(out, fmt.Sprintf("--api-versions %s: only its first line is read, as helm template reads it; the entries after the line break are not listed",
				invalid.FormatValue(s)))
		}
	}
	// The library names the list by its Go name; here it is the flag.
	for _, w := range etcdshapes.APIVersionWarnings(r.caller, apis) {
		if rest, ok := strings.CutPrefix(w, "apiVersions: "); ok {
			w = "--api-versions: " + rest
		}
		out = append(out, w)
	}
	return out
}

// warn prints warnings on stderr, one a line.
func warn(w io.Writer, warnings []string) {
	for _, m := range warnings {
		fmt.Fprintf(w, "etcdshapes: warning: %s\n", m)
	}
}

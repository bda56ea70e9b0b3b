package strvals

import (
	"errors"
	"fmt"
	helmstrvals "github.com/etcdshapes/etcdshapes/internal/third_party/helm/strvals"
	"github.com/etcdshapes/etcdshapes/invalid"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func noFiles(path string) ([]byte, error) { return nil, fmt.Errorf("no file %s", path) }

// Helm's order: --set-json, --set, --set-string, --set-file, --set-literal,
// whatever the order on the command line; later arguments of one flag win.
func TestApplyOrder(t *testing.T) {
	base := map[string]any{"a": "file", "keep": "file", "m": map[string]any{"x": 1.0}}
	s := Sets{
		Literals: []string{"e=literal,{x}"},
		Files:    []string{"d=/f"},
		Strings:  []string{"c=string", "b=0003"},
		Values:   []string{"a=set,b=2,c=3,d=4,e=5", "m.y=true"},
		JSON:     []string{`a="json"`, `b={"k":[1,2]}`, `c=null`},
	}
	err := s.Apply(base, func(p string) ([]byte, error) { return []byte("content of " + p), nil })
	require.NoError(t, err)
	require.Equal(t, map[string]any{
		"a": "set", "keep": "file",
		"b": "0003", "c": "string", "d": "content of /f", "e": "literal,{x}",
		"m": map[string]any{"x": 1.0, "y": true},
	}, base)
}

func TestApplyErrors(t *testing.T) {
	for _, tc := range []struct {
		sets Sets
		flag string
		arg  string
		rule string
	}{
		{Sets{Values: []string{"a"}}, "--set", "a", `must be KEY=VALUE[,KEY=VALUE]... as for helm --set: key "a" has no value`},
		{Sets{Values: []string{"a[x]=1"}}, "--set", "a[x]=1", "error parsing index"},
		{Sets{Values: []string{"a[-1]=1"}}, "--set", "a[-1]=1", "negative -1 index not allowed"},
		{Sets{Values: []string{"a[65537]=1"}}, "--set", "a[65537]=1", "greater than maximum supported index of 65536"},
		{Sets{Values: []string{strings.Repeat("a.", 31) + "b=1"}}, "--set", strings.Repeat("a.", 31) + "b=1", "nested level"},
		{Sets{Strings: []string{"a,b=1"}}, "--set-string", "a,b=1", `key "a" has no value (cannot end with ,)`},
		{Sets{JSON: []string{`a={"b":`}}, "--set-json", `a={"b":`, "as for helm --set-json: unexpected EOF"},
		{Sets{Literals: []string{"a"}}, "--set-literal", "a", `key "a" has no value`},
		{Sets{Files: []string{"a"}}, "--set-file", "a", `key "a" has no value`},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			err := tc.sets.Apply(map[string]any{}, noFiles)
			var ne *invalid.Error
			require.True(t, errors.As(err, &ne), "%T %v", err, err)
			require.Equal(t, tc.flag, ne.Field)
			require.Equal(t, tc.arg, ne.Value)
			require.Contains(t, ne.Rule, tc.rule)
		})
	}
	// The reader's own error is returned as it is.
	err := Sets{Files: []string{"a=/missing"}}.Apply(map[string]any{}, func(string) ([]byte, error) { return nil, fs.ErrNotExist })
	require.ErrorIs(t, err, fs.ErrNotExist)
	var ne *invalid.Error
	require.False(t, errors.As(err, &ne))
}

// TestListIndexBudget: list indices may allocate at most MaxListElements
// elements over all arguments, however the indices are spelled; what stays
// under the budget parses as Helm parses it.
func TestListIndexBudget(t *testing.T) {
	many := make([]string, MaxListElements/(helmstrvals.MaxIndex+1)+1)
	for i := range many {
		many[i] = fmt.Sprintf("k%d[65536]=1", i)
	}
	deep := "a" + strings.Repeat("[65536]", 20) + "=1"
	for name, s := range map[string]Sets{
		"many keys":      {Values: many},
		"nested":         {Values: []string{deep}},
		"escaped digits": {Values: []string{"a" + strings.Repeat(`[6\5536]`, 20) + "=1"}},
		"across flags":   {Strings: many[:10], JSON: many[10:]},
		"literal":        {Literals: []string{deep}},
		"file":           {Files: []string{deep}},
	} {
		t.Run(name, func(t *testing.T) {
			err := s.Apply(map[string]any{}, noFiles)
			var ne *invalid.Error
			require.True(t, errors.As(err, &ne), "%v", err)
			require.Contains(t, ne.Rule, "allocate more than 1048576 list elements")
		})
	}
	m := map[string]any{}
	require.NoError(t, Sets{Values: many[:15]}.Apply(m, noFiles))
	require.Len(t, m["k3"], 65537)
	require.Equal(t, 2, indexElements(`a[1]=x`))
	require.Equal(t, 0, indexElements(`a=[x]`))
	require.Equal(t, helmstrvals.MaxIndex+1, indexElements(`a[70000]=1`)) // refused by the parser before allocating
	require.Equal(t, 0, indexElements(`a[99999999999999999999999]=1`))    // not an int: refused
}

func TestFilePaths(t *testing.T) {
	s := Sets{Files: []string{"a=-", `b=/x\,y,c={p,q}`, "broken"}}
	require.Equal(t, []string{"-", "/x,y", "p", "q"}, s.FilePaths())
	require.True(t, Sets{}.Empty())
	require.False(t, s.Empty())
}

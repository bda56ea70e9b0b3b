package strvals

import (
	helmstrvals "github.com/etcdshapes/etcdshapes/internal/third_party/helm/strvals"
	"github.com/etcdshapes/etcdshapes/invalid"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Flags name the arguments in errors, as the command spells them.
const (
	FlagJSON    = "--set-json"
	FlagSet     = "--set"
	FlagString  = "--set-string"
	FlagFile    = "--set-file"
	FlagLiteral = "--set-literal"
)

// MaxListElements bounds the list elements that the list indices of all the
// arguments of one Sets may allocate together. Helm bounds one index
// (helmstrvals.MaxIndex, 65536) but not their number, so a command line
// of many "kN[65536]=1" would allocate a megabyte each; a real values
// tree has a handful of short lists.
const MaxListElements = 1 << 20

// Sets are the --set family of one command line, each in the order given.
type Sets struct {
	JSON     []string // --set-json KEY=JSON
	Values   []string // --set KEY=VALUE
	Strings  []string // --set-string KEY=VALUE
	Files    []string // --set-file KEY=PATH
	Literals []string // --set-literal KEY=VALUE
}

// Empty reports whether no argument is given.
func (s Sets) Empty() bool {
	return len(s.JSON)+len(s.Values)+len(s.Strings)+len(s.Files)+len(s.Literals) == 0
}

// ReadFile reads a --set-file path; its content becomes the value, as a
// string.
type ReadFile func(path string) ([]byte, error)

// Apply lays the arguments over base (the merged values files) in Helm's
// order, that of values.Options.MergeValues in Helm v3.22.0: every
// --set-json, then every --set, --set-string, --set-file and
// --set-literal, each group in the order given. A malformed argument is a
// *invalid.Error naming the flag and the argument; an error of readFile is
// returned as it is. base may be changed even when an error is returned.
func (s Sets) Apply(base map[string]any, readFile ReadFile) error {
	if err := s.checkIndices(); err != nil {
		return err
	}
	var readErr error
	reader := func(rs []rune) (any, error) {
		b, err := readFile(string(rs))
		if err != nil {
			readErr = err
			return nil, err
		}
		return string(b), nil
	}
	groups := []struct {
		flag  string
		args  []string
		parse func(string, map[string]any) error
		rule  string
	}{
		{FlagJSON, s.JSON, helmstrvals.ParseJSON, "must be KEY=JSON[,KEY=JSON]... as for helm --set-json"},
		{FlagSet, s.Values, helmstrvals.ParseInto, "must be KEY=VALUE[,KEY=VALUE]... as for helm --set"},
		{FlagString, s.Strings, helmstrvals.ParseIntoString, "must be KEY=VALUE[,KEY=VALUE]... as for helm --set-string"},
		{FlagFile, s.Files, func(a string, m map[string]any) error { return helmstrvals.ParseIntoFile(a, m, reader) },
			"must be KEY=PATH[,KEY=PATH]... as for helm --set-file"},
		{FlagLiteral, s.Literals, helmstrvals.ParseLiteralInto, "must be KEY=VALUE as for helm --set-literal"},
	}
	for _, g := range groups {
		for _, a := range g.args {
			// Helm's parser reads an argument as runes: a byte that is
			// not UTF-8 becomes U+FFFD in the key or value. Refused with
			// the argument as typed instead (shown escaped, "\xff").
			if !utf8.ValidString(a) {
				return invalid.Errorf(g.flag, a, "must be UTF-8 text: Helm reads each byte that is not as U+FFFD, a key or value the argument does not hold")
			}
			if err := g.parse(a, base); err != nil {
				if readErr != nil {
					return readErr
				}
				return invalid.Errorf(g.flag, a, "%s: %v", g.rule, err)
			}
		}
	}
	return nil
}

// FilePaths returns the paths the --set-file arguments name, in order,
// without reading them (to see which read stdin before reading anything).
func (s Sets) FilePaths() []string {
	var paths []string
	for _, a := range s.Files {
		_ = helmstrvals.ParseIntoFile(a, map[string]any{}, func(rs []rune) (any, error) {
			paths = append(paths, string(rs))
			return "", nil
		})
	}
	return paths
}

// checkIndices refuses arguments whose list indices could allocate more
// than MaxListElements elements in all. It over-counts (an index-like
// "[N]" inside a value counts too), never under-counts: each "[N]" of a key
// allocates at most N+1 elements, once.
func (s Sets) checkIndices() error {
	total := 0
	for _, g := range []struct {
		flag string
		args []string
	}{{FlagJSON, s.JSON}, {FlagSet, s.Values}, {FlagString, s.Strings}, {FlagFile, s.Files}, {FlagLiteral, s.Literals}} {
		for _, a := range g.args {
			total += indexElements(a)
			if total > MaxListElements {
				return invalid.Errorf(g.flag, a, "its list indices, with those of the arguments before it, allocate more than %d list elements (Helm allows each index up to %d)", MaxListElements, helmstrvals.MaxIndex)
			}
		}
	}
	return nil
}

// indexElements adds up N+1 for every "[N]" in a, reading N as the parsers
// do (backslash escapes the next character, strconv.Atoi); indices above
// helmstrvals.MaxIndex count as one more than it (the parsers refuse
// them before allocating).
func indexElements(a string) int {
	total := 0
	for {
		i := strings.IndexByte(a, '[')
		if i < 0 {
			return total
		}
		a = a[i+1:]
		var digits strings.Builder
		j := 0
		for ; j < len(a) && a[j] != ']'; j++ {
			if a[j] == '\\' && j+1 < len(a) {
				j++
			}
			digits.WriteByte(a[j])
		}
		if n, err := strconv.Atoi(digits.String()); err == nil && n >= 0 {
			total += min(n, helmstrvals.MaxIndex) + 1
		}
	}
}

package yamlemit

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// keyLess is yaml.v2's keyList.Less (sorter.go) for two string keys: runes
// compare with letters after everything else, and runs of digits compare
// as numbers ("a2" < "a10").
func keyLess(ar, br []rune) bool {
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		al := unicode.IsLetter(ar[i])
		bl := unicode.IsLetter(br[i])
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			return bl
		}
		var ai, bi int
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(ar[j]); j-- {
				if ar[j] != '0' {
					an = 1
					bn = 1
					break
				}
			}
		}
		for ai = i; ai < len(ar) && unicode.IsDigit(ar[ai]); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for bi = i; bi < len(br) && unicode.IsDigit(br[bi]); bi++ {
			bn = bn*10 + int64(br[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}

// maxDigitKeys bounds the quadratic order check of maps with digits in
// their keys; bigger ones take the slow path.
const maxDigitKeys = 256

// sortKeys puts the Map n's entries in the order yaml.v2 prints them.
//
// yaml.v2 sorts with sort.Sort, starting from Go's random map order, so its
// output is only deterministic when keyLess is a strict total order on the
// keys. Without digits it is one (a lexicographic order over a total order
// of runes), and then duplicate keys, which the slow path would have merged,
// are adjacent. With digits the numeric runs can make it intransitive, so
// the sorted result is checked pair by pair; a map that fails (or has
// duplicates) is left to the slow path, which prints such a map differently
// from run to run anyway.
func (e *emitter) sortKeys(n Node) error {
	nd := e.t.nodes[n]
	ents := e.t.ents[nd.start : nd.start+nd.n]
	if len(ents) < 2 {
		return nil
	}
	if e.t.plainASCIIKeys(ents) {
		return e.t.sortASCII(ents)
	}
	e.runes = e.runes[:0]
	e.spans = e.spans[:0]
	digits := false
	for _, ent := range ents {
		start := int32(len(e.runes))
		k := e.t.b(ent.key)
		for i := 0; i < len(k); {
			c := k[i]
			if c < utf8.RuneSelf {
				if c >= '0' && c <= '9' {
					digits = true
				}
				e.runes = append(e.runes, rune(c))
				i++
				continue
			}
			r, w := utf8.DecodeRune(k[i:])
			if unicode.IsDigit(r) {
				digits = true
			}
			e.runes = append(e.runes, r)
			i += w
		}
		e.spans = append(e.spans, [2]int32{start, int32(len(e.runes))})
	}
	if digits && len(ents) > maxDigitKeys {
		return ErrFallback
	}
	key := func(i int32) []rune { s := e.spans[i]; return e.runes[s[0]:s[1]] }
	e.order = e.order[:0]
	for i := range ents {
		e.order = append(e.order, int32(i))
	}
	ord := e.order
	if len(ord) <= 12 {
		for i := 1; i < len(ord); i++ {
			for j := i; j > 0 && keyLess(key(ord[j]), key(ord[j-1])); j-- {
				ord[j], ord[j-1] = ord[j-1], ord[j]
			}
		}
	} else {
		slices.SortFunc(ord, func(a, b int32) int {
			switch {
			case keyLess(key(a), key(b)):
				return -1
			case keyLess(key(b), key(a)):
				return 1
			}
			return 0
		})
	}
	if digits {
		for i := 0; i < len(ord); i++ {
			for j := i + 1; j < len(ord); j++ {
				if !keyLess(key(ord[i]), key(ord[j])) || keyLess(key(ord[j]), key(ord[i])) {
					return ErrFallback
				}
			}
		}
	} else {
		for i := 1; i < len(ord); i++ {
			if !keyLess(key(ord[i-1]), key(ord[i])) {
				return ErrFallback // duplicate key
			}
		}
	}
	e.perm = append(e.perm[:0], ents...)
	for i, o := range ord {
		ents[i] = e.perm[o]
	}
	return nil
}

// plainASCIIKeys reports keys that are all ASCII without digits, for which
// keyLess is keyLessASCII.
func (t *Tree) plainASCIIKeys(ents []entry) bool {
	for _, ent := range ents {
		for _, c := range t.b(ent.key) {
			if c >= utf8.RuneSelf || c >= '0' && c <= '9' {
				return false
			}
		}
	}
	return true
}

// keyLessASCII is keyLess for ASCII keys without digits: the numeric branch
// never triggers, so it is a lexicographic order in which letters rank
// after every other character.
func keyLessASCII(a, b []byte) bool {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return asciiRank(a[i]) < asciiRank(b[i])
		}
	}
	return len(a) < len(b)
}

func asciiRank(c byte) int {
	if c|0x20 >= 'a' && c|0x20 <= 'z' {
		return int(c) + 256
	}
	return int(c)
}

// sortASCII sorts entries whose keys passed plainASCIIKeys; the order is
// total, so equal neighbours after sorting are duplicate keys.
func (t *Tree) sortASCII(ents []entry) error {
	if len(ents) <= 12 {
		for i := 1; i < len(ents); i++ {
			for j := i; j > 0 && keyLessASCII(t.b(ents[j].key), t.b(ents[j-1].key)); j-- {
				ents[j], ents[j-1] = ents[j-1], ents[j]
			}
		}
	} else {
		slices.SortFunc(ents, func(a, b entry) int {
			switch {
			case keyLessASCII(t.b(a.key), t.b(b.key)):
				return -1
			case keyLessASCII(t.b(b.key), t.b(a.key)):
				return 1
			}
			return 0
		})
	}
	for i := 1; i < len(ents); i++ {
		if !keyLessASCII(t.b(ents[i-1].key), t.b(ents[i].key)) {
			return ErrFallback // duplicate key
		}
	}
	return nil
}

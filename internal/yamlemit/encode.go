package yamlemit

import (
	"cmp"
	"encoding"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/internal/jsonnum"
)

// Encode reads a Go value into t, replacing what t held, as Parse would
// read the JSON that encoding/json writes for it (json.Marshal, without
// HTML escaping): the same nodes, the same text, the same refusals. It
// walks the value with reflection instead of writing and re-reading JSON,
// which is most of the cost of printing an object. Values that implement
// json.Marshaler are marshalled and their JSON parsed as Parse does.
//
// The walk follows encoding/json's rules (field names and tags, embedded
// structs, omitempty and omitzero, Marshaler and TextMarshaler with the
// same receivers, byte slices as base64, map keys); what it does not
// cover (the ",string" option, channels, functions, complex numbers,
// NaN or infinite floats, cycles) returns ErrFallback or an error, and the
// caller prints the document the old way.
func (t *Tree) Encode(v any) error {
	t.reset(t.srcBuf[:0])
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		t.literalNode(Null, "null") // encoding/json's nil
		return nil
	}
	_, err := typeEncoder(rv.Type())(t, rv)
	t.srcBuf = t.src[:0]
	return err
}

// encoderFunc adds the node of v (and its children) to t.
type encoderFunc func(t *Tree, v reflect.Value) (Node, error)

var encoderCache sync.Map // reflect.Type -> encoderFunc

// typeEncoder is encoding/json's typeEncoder: one encoder per type, built
// once; a recursive type waits for its own encoder to be built.
func typeEncoder(typ reflect.Type) encoderFunc {
	if f, ok := encoderCache.Load(typ); ok {
		return f.(encoderFunc)
	}
	var (
		wg sync.WaitGroup
		f  encoderFunc
	)
	wg.Add(1)
	fi, loaded := encoderCache.LoadOrStore(typ, encoderFunc(func(t *Tree, v reflect.Value) (Node, error) {
		wg.Wait()
		return f(t, v)
	}))
	if loaded {
		return fi.(encoderFunc)
	}
	f = newTypeEncoder(typ, true)
	wg.Done()
	encoderCache.Store(typ, f)
	return f
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	numberType        = reflect.TypeFor[json.Number]()
	isZeroerType      = reflect.TypeFor[interface{ IsZero() bool }]()
)

// newTypeEncoder is encoding/json's newTypeEncoder.
func newTypeEncoder(typ reflect.Type, allowAddr bool) encoderFunc {
	if f, ok := specialEncoders[typ]; ok {
		return f
	}
	if typ.Kind() != reflect.Pointer && allowAddr && reflect.PointerTo(typ).Implements(marshalerType) {
		return condAddr(addrMarshalerEncoder, newTypeEncoder(typ, false))
	}
	if typ.Implements(marshalerType) {
		return marshalerEncoder
	}
	if typ.Kind() != reflect.Pointer && allowAddr && reflect.PointerTo(typ).Implements(textMarshalerType) {
		return condAddr(addrTextMarshalerEncoder, newTypeEncoder(typ, false))
	}
	if typ.Implements(textMarshalerType) {
		return textMarshalerEncoder
	}
	switch typ.Kind() {
	case reflect.Bool:
		return boolEncoder
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intEncoder
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintEncoder
	case reflect.Float32:
		return floatEncoder(32)
	case reflect.Float64:
		return floatEncoder(64)
	case reflect.String:
		if typ == numberType {
			return numberEncoder
		}
		return stringEncoder
	case reflect.Interface:
		return interfaceEncoder
	case reflect.Struct:
		return newStructEncoder(typ)
	case reflect.Map:
		return newMapEncoder(typ)
	case reflect.Slice:
		return newSliceEncoder(typ)
	case reflect.Array:
		return newArrayEncoder(typ)
	case reflect.Pointer:
		return newPtrEncoder(typ)
	}
	return func(*Tree, reflect.Value) (Node, error) { return 0, ErrFallback }
}

func condAddr(canAddr, elseEnc encoderFunc) encoderFunc {
	return func(t *Tree, v reflect.Value) (Node, error) {
		if v.CanAddr() {
			return canAddr(t, v)
		}
		return elseEnc(t, v)
	}
}

// literalNode adds a null, true or false.
func (t *Tree) literalNode(k Kind, word string) Node {
	d0 := len(t.dec)
	t.dec = append(t.dec, word...)
	return t.add(node{kind: k, text: t.decSpan(d0)})
}

// fragment parses JSON a Marshaler wrote as Parse would, as one value.
func (t *Tree) fragment(js []byte) (Node, error) {
	if len(t.src)+len(js) > math.MaxInt32 {
		return 0, ErrFallback
	}
	start := len(t.src)
	t.src = append(t.src, js...)
	t.pos = start
	n, err := t.value()
	if err != nil {
		return 0, err
	}
	t.skipSpace()
	if t.pos != len(t.src) {
		return 0, ErrFallback
	}
	return n, nil
}

func marshalJSON(t *Tree, m json.Marshaler) (Node, error) {
	b, err := m.MarshalJSON()
	if err != nil {
		return 0, err
	}
	return t.fragment(b)
}

func marshalerEncoder(t *Tree, v reflect.Value) (Node, error) {
	return viaInterface(t, v, marshalJSON)
}

func addrMarshalerEncoder(t *Tree, v reflect.Value) (Node, error) {
	return viaAddrInterface(t, v, marshalJSON)
}

func marshalText(t *Tree, m encoding.TextMarshaler) (Node, error) {
	b, err := m.MarshalText()
	if err != nil {
		return 0, err
	}
	s, err := t.stringSpan(string(b))
	if err != nil {
		return 0, err
	}
	return t.add(node{kind: String, text: s}), nil
}

func textMarshalerEncoder(t *Tree, v reflect.Value) (Node, error) {
	return viaInterface(t, v, marshalText)
}

func addrTextMarshalerEncoder(t *Tree, v reflect.Value) (Node, error) {
	return viaAddrInterface(t, v, marshalText)
}

// viaInterface encodes v, whose type implements M (json.Marshaler or
// encoding.TextMarshaler), with enc; a nil pointer is null, as in
// encoding/json. One function serves both interfaces so that their nil
// rules cannot drift apart.
func viaInterface[M any](t *Tree, v reflect.Value, enc func(*Tree, M) (Node, error)) (Node, error) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return t.literalNode(Null, "null"), nil
	}
	m, ok := reflect.TypeAssert[M](v)
	if !ok {
		return t.literalNode(Null, "null"), nil
	}
	return enc(t, m)
}

// viaAddrInterface is viaInterface for an addressable v whose pointer,
// not v itself, implements M.
func viaAddrInterface[M any](t *Tree, v reflect.Value, enc func(*Tree, M) (Node, error)) (Node, error) {
	va := v.Addr()
	if va.IsNil() {
		return t.literalNode(Null, "null"), nil
	}
	m, _ := reflect.TypeAssert[M](va)
	return enc(t, m)
}

func boolEncoder(t *Tree, v reflect.Value) (Node, error) {
	if v.Bool() {
		return t.literalNode(Bool, "true"), nil
	}
	return t.literalNode(Bool, "false"), nil
}

// Integers print as written on every path (yamlNumber of their decimal).
func intEncoder(t *Tree, v reflect.Value) (Node, error) {
	d0 := len(t.dec)
	t.dec = strconv.AppendInt(t.dec, v.Int(), 10)
	return t.add(node{kind: Number, text: t.decSpan(d0)}), nil
}

func uintEncoder(t *Tree, v reflect.Value) (Node, error) {
	d0 := len(t.dec)
	t.dec = strconv.AppendUint(t.dec, v.Uint(), 10)
	return t.add(node{kind: Number, text: t.decSpan(d0)}), nil
}

// floatEncoder writes encoding/json's text for the float (its floatEncoder)
// and turns it into what yaml.v2 prints for that JSON number, as number
// does.
func floatEncoder(bits int) encoderFunc {
	return func(t *Tree, v reflect.Value) (Node, error) {
		f := v.Float()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return 0, ErrFallback // encoding/json refuses them
		}
		var buf [32]byte
		b := buf[:0]
		abs := math.Abs(f)
		format := byte('f')
		if abs != 0 {
			if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
				format = 'e'
			}
		}
		b = strconv.AppendFloat(b, f, format, -1, bits)
		if format == 'e' {
			// clean up e-09 to e-9
			n := len(b)
			if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
				b[n-2] = b[n-1]
				b = b[:n-1]
			}
		}
		return t.numberNode(b)
	}
}

// numberEncoder is a json.Number: written as it is, "0" when empty.
func numberEncoder(t *Tree, v reflect.Value) (Node, error) {
	s := v.String()
	if s == "" {
		s = "0"
	}
	if !jsonnum.Is(s) {
		return 0, ErrFallback // encoding/json refuses it
	}
	return t.numberNode([]byte(s))
}

// numberNode adds the Number node Parse would make of the JSON number tok.
func (t *Tree) numberNode(tok []byte) (Node, error) {
	d0 := len(t.dec)
	var ok bool
	if t.dec, ok = appendNumberText(t.dec, tok); !ok {
		return 0, ErrFallback
	}
	return t.add(node{kind: Number, text: t.decSpan(d0)}), nil
}

func stringEncoder(t *Tree, v reflect.Value) (Node, error) {
	s, err := t.stringSpan(v.String())
	if err != nil {
		return 0, err
	}
	return t.add(node{kind: String, text: s}), nil
}

// stringSpan stores a Go string as Parse stores the JSON string
// encoding/json writes for it: invalid UTF-8 bytes become U+FFFD, and the
// characters Parse refuses (refusedRune) send the document the old way.
func (t *Tree) stringSpan(s string) (span, error) {
	if len(t.dec)+len(s)*3 > math.MaxInt32 {
		return span{}, ErrFallback
	}
	d0 := len(t.dec)
	t.dec = append(t.dec, s...)
	b := t.dec[d0:]
	for i := 0; i < len(b); {
		// Eight bytes at a time while they are ASCII other than DEL.
		for i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			if w&0x8080808080808080 != 0 || hasZeroByte(w^0x7F7F7F7F7F7F7F7F) {
				break
			}
			i += 8
		}
		if i >= len(b) {
			break
		}
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7F {
				return span{}, ErrFallback
			}
			i++
			continue
		}
		r, w := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && w == 1 {
			return t.coercedString(s, d0)
		}
		if refusedRune(r) {
			return span{}, ErrFallback
		}
		i += w
	}
	return t.decSpan(d0), nil
}

// hasZeroByte reports whether one of w's bytes is zero.
func hasZeroByte(w uint64) bool {
	return (w-0x0101010101010101)&^w&0x8080808080808080 != 0
}

// coercedString stores s with each invalid UTF-8 byte replaced by U+FFFD,
// as encoding/json writes it.
func (t *Tree) coercedString(s string, d0 int) (span, error) {
	t.rewrote = true
	t.dec = t.dec[:d0]
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			t.dec = utf8.AppendRune(t.dec, utf8.RuneError)
		case r == 0x7F || refusedRune(r):
			return span{}, ErrFallback
		default:
			t.dec = append(t.dec, s[i:i+w]...)
		}
		i += w
	}
	return t.decSpan(d0), nil
}

func interfaceEncoder(t *Tree, v reflect.Value) (Node, error) {
	if v.IsNil() {
		return t.literalNode(Null, "null"), nil
	}
	e := v.Elem()
	return typeEncoder(e.Type())(t, e)
}

func newPtrEncoder(typ reflect.Type) encoderFunc {
	elem := typeEncoder(typ.Elem())
	return func(t *Tree, v reflect.Value) (Node, error) {
		if v.IsNil() {
			return t.literalNode(Null, "null"), nil
		}
		if t.depth++; t.depth > maxDepth {
			return 0, ErrFallback // deep, or a cycle
		}
		n, err := elem(t, v.Elem())
		t.depth--
		return n, err
	}
}

func newSliceEncoder(typ reflect.Type) encoderFunc {
	// Byte slices are base64 strings; arrays of bytes are not.
	if typ.Elem().Kind() == reflect.Uint8 {
		p := reflect.PointerTo(typ.Elem())
		if !p.Implements(marshalerType) && !p.Implements(textMarshalerType) {
			return encodeByteSlice
		}
	}
	arr := newArrayEncoder(typ)
	return func(t *Tree, v reflect.Value) (Node, error) {
		if v.IsNil() {
			return t.literalNode(Null, "null"), nil
		}
		return arr(t, v)
	}
}

func encodeByteSlice(t *Tree, v reflect.Value) (Node, error) {
	if v.IsNil() {
		return t.literalNode(Null, "null"), nil
	}
	b := v.Bytes()
	d0 := len(t.dec)
	t.dec = base64.StdEncoding.AppendEncode(t.dec, b)
	return t.add(node{kind: String, text: t.decSpan(d0)}), nil
}

func newArrayEncoder(typ reflect.Type) encoderFunc {
	elem := typeEncoder(typ.Elem())
	return func(t *Tree, v reflect.Value) (Node, error) {
		if t.depth++; t.depth > maxDepth {
			return 0, ErrFallback
		}
		self := t.add(node{kind: List})
		mark := len(t.stackI)
		for i, n := 0, v.Len(); i < n; i++ {
			c, err := elem(t, v.Index(i))
			if err != nil {
				return 0, err
			}
			t.stackI = append(t.stackI, c)
		}
		t.closeList(self, mark)
		return self, nil
	}
}

// closeList ends a List: its items move from the stack into t.items.
func (t *Tree) closeList(self Node, mark int) {
	t.stackI = closeNode(t, self, t.stackI, &t.items, mark)
}

// closeMap ends a Map: its entries move from the stack into t.ents.
func (t *Tree) closeMap(self Node, mark int) {
	t.stackE = closeNode(t, self, t.stackE, &t.ents, mark)
}

// closeNode ends the container self, whose children sit on stack above
// mark: they move to the end of kids, the node records where they start
// and how many they are, and the depth the container counted drops. It
// returns the stack without them. Parse and Encode build Lists and Maps
// alike, so both close them here.
func closeNode[T entry | Node](t *Tree, self Node, stack []T, kids *[]T, mark int) []T {
	c := stack[mark:]
	t.nodes[self].start = int32(len(*kids))
	t.nodes[self].n = int32(len(c))
	*kids = append(*kids, c...)
	t.depth--
	return stack[:mark]
}

// keySpan stores a map key or field name, refusing what Parse refuses.
func (t *Tree) keySpan(k string) (span, error) {
	s, err := t.stringSpan(k)
	if err != nil {
		return span{}, err
	}
	if s.n > maxKeyLen {
		return span{}, ErrFallback
	}
	return s, nil
}

func newMapEncoder(typ reflect.Type) encoderFunc {
	switch typ.Key().Kind() {
	case reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		if !typ.Key().Implements(textMarshalerType) {
			return func(*Tree, reflect.Value) (Node, error) { return 0, ErrFallback }
		}
	}
	elem := typeEncoder(typ.Elem())
	return func(t *Tree, v reflect.Value) (Node, error) {
		if v.IsNil() {
			return t.literalNode(Null, "null"), nil
		}
		if t.depth++; t.depth > maxDepth {
			return 0, ErrFallback
		}
		self := t.add(node{kind: Map})
		mark := len(t.stackE)
		it := v.MapRange()
		for it.Next() {
			name, err := resolveKeyName(it.Key())
			if err != nil {
				return 0, err
			}
			k, err := t.keySpan(name)
			if err != nil {
				return 0, err
			}
			c, err := elem(t, it.Value())
			if err != nil {
				return 0, err
			}
			t.stackE = append(t.stackE, entry{key: k, val: c})
		}
		t.closeMap(self, mark)
		return self, nil
	}
}

// resolveKeyName is encoding/json's.
func resolveKeyName(k reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	if tm, ok := reflect.TypeAssert[encoding.TextMarshaler](k); ok {
		if k.Kind() == reflect.Pointer && k.IsNil() {
			return "", nil
		}
		buf, err := tm.MarshalText()
		return string(buf), err
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), nil
	}
	return "", ErrFallback
}

// field is one JSON field of a struct type, as encoding/json's typeFields
// finds it.
type field struct {
	name      string
	tag       bool
	index     []int
	typ       reflect.Type
	omitEmpty bool
	omitZero  bool
	isZero    func(reflect.Value) bool
	quoted    bool
	enc       encoderFunc
	// keyOK: the name passes keySpan's checks; plain: simplePlain.
	keyOK, plain bool
}

func newStructEncoder(typ reflect.Type) encoderFunc {
	fields := typeFields(typ)
	var scratch Tree
	for i := range fields {
		f := &fields[i]
		k, err := scratch.keySpan(f.name)
		f.keyOK = err == nil
		f.plain = f.keyOK && simplePlain(scratch.b(k))
	}
	// In the order yaml.v2 prints the keys, when that order is a strict
	// total order on them (as sortKeys requires): the struct's maps then
	// need no sorting, however many fields are omitted.
	sorted := yamlOrder(fields)
	if sorted != nil {
		fields = sorted
	}
	var once sync.Once
	resolve := func() {
		for i := range fields {
			fields[i].enc = typeEncoder(typeByIndex(typ, fields[i].index))
		}
	}
	return func(t *Tree, v reflect.Value) (Node, error) {
		once.Do(resolve)
		if t.depth++; t.depth > maxDepth {
			return 0, ErrFallback
		}
		self := t.add(node{kind: Map, sorted: sorted != nil})
		mark := len(t.stackE)
	next:
		for i := range fields {
			f := &fields[i]
			var fv reflect.Value
			if len(f.index) == 1 {
				fv = v.Field(f.index[0])
			} else {
				fv = v
				for _, ix := range f.index {
					if fv.Kind() == reflect.Pointer {
						if fv.IsNil() {
							continue next
						}
						fv = fv.Elem()
					}
					fv = fv.Field(ix)
				}
			}
			if f.omitEmpty && isEmptyValue(fv) ||
				f.omitZero && (f.isZero == nil && fv.IsZero() || f.isZero != nil && f.isZero(fv)) {
				continue
			}
			if f.quoted || !f.keyOK {
				return 0, ErrFallback
			}
			d0 := len(t.dec)
			t.dec = append(t.dec, f.name...)
			k := t.decSpan(d0)
			c, err := f.enc(t, fv)
			if err != nil {
				return 0, err
			}
			t.stackE = append(t.stackE, entry{key: k, val: c, plain: f.plain})
		}
		t.closeMap(self, mark)
		return self, nil
	}
}

// yamlOrder returns the fields in the order sortKeys would put their
// keys, or nil when keyLess is not a strict total order on them (then the
// emitter sorts, and refuses, as for any map).
func yamlOrder(fields []field) []field {
	if len(fields) > maxDigitKeys {
		return nil
	}
	runes := make([][]rune, len(fields))
	for i, f := range fields {
		runes[i] = []rune(f.name)
	}
	idx := make([]int, len(fields))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case keyLess(runes[a], runes[b]):
			return -1
		case keyLess(runes[b], runes[a]):
			return 1
		}
		return 0
	})
	for i := 0; i < len(idx); i++ {
		for j := i + 1; j < len(idx); j++ {
			if !keyLess(runes[idx[i]], runes[idx[j]]) || keyLess(runes[idx[j]], runes[idx[i]]) {
				return nil
			}
		}
	}
	out := make([]field, len(fields))
	for i, j := range idx {
		out[i] = fields[j]
	}
	return out
}

func typeByIndex(t reflect.Type, index []int) reflect.Type {
	for _, i := range index {
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		t = t.Field(i).Type
	}
	return t
}

// isEmptyValue is encoding/json's omitempty test.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// typeFields is encoding/json's typeFields (Go 1.26): the fields of a
// struct type in index order, with Go's rules for embedded structs, except
// that fields with JSON tags are promoted.
func typeFields(t reflect.Type) []field {
	current := []field{}
	next := []field{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []field
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := 0; i < f.typ.NumField(); i++ {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					t := sf.Type
					if t.Kind() == reflect.Pointer {
						t = t.Elem()
					}
					if !sf.IsExported() && t.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !isValidTag(name) {
					name = ""
				}
				index := make([]int, len(f.index)+1)
				copy(index, f.index)
				index[len(f.index)] = i
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				quoted := false
				if hasOption(opts, "string") {
					switch ft.Kind() {
					case reflect.Bool,
						reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
						reflect.Float32, reflect.Float64,
						reflect.String:
						quoted = true
					}
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					fl := field{
						name:      name,
						tag:       tagged,
						index:     index,
						typ:       ft,
						omitEmpty: hasOption(opts, "omitempty"),
						omitZero:  hasOption(opts, "omitzero"),
						quoted:    quoted,
					}
					if fl.omitZero {
						fl.isZero = zeroer(sf.Type)
					}
					fields = append(fields, fl)
					if count[f.typ] > 1 {
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, field{name: ft.Name(), index: index, typ: ft})
				}
			}
		}
	}
	slices.SortFunc(fields, func(a, b field) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tag != b.tag {
			if a.tag {
				return -1
			}
			return +1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for advance, i := 0, 0; i < len(fields); i += advance {
		fi := fields[i]
		for advance = 1; i+advance < len(fields); advance++ {
			if fields[i+advance].name != fi.name {
				break
			}
		}
		if advance == 1 {
			out = append(out, fi)
			continue
		}
		// dominantField: the first, unless the first two tie.
		if dom := fields[i : i+advance]; !(len(dom[0].index) == len(dom[1].index) && dom[0].tag == dom[1].tag) {
			out = append(out, dom[0])
		}
	}
	fields = out
	slices.SortFunc(fields, func(a, b field) int { return slices.Compare(a.index, b.index) })
	return fields
}

// zeroer is encoding/json's IsZero choice for an omitzero field.
func zeroer(t reflect.Type) func(reflect.Value) bool {
	type isZeroer interface{ IsZero() bool }
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			return v.IsNil() ||
				(v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil()) ||
				v.Interface().(isZeroer).IsZero()
		}
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			return v.IsNil() || v.Interface().(isZeroer).IsZero()
		}
	case t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			return v.Interface().(isZeroer).IsZero()
		}
	case reflect.PointerTo(t).Implements(isZeroerType):
		return func(v reflect.Value) bool {
			if !v.CanAddr() {
				v2 := reflect.New(v.Type()).Elem()
				v2.Set(v)
				v = v2
			}
			return v.Addr().Interface().(isZeroer).IsZero()
		}
	}
	return nil
}

func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

// isValidTag is encoding/json's.
func isValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

package ojson

import (
	"fmt"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// SyntaxError is malformed JSON. Offset is the byte offset of the
// offending byte (len(data) when the input ends too early).
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return e.Msg }

// Decoder reads JSON values from one byte slice in a single pass, with no
// intermediate tokens: a value is checked and built while it is scanned.
// Callers that need both a value and its exact bytes (a catalog keeps each
// tool's raw JSON) read the Offset before and after Value.
//
// The grammar is RFC 8259, checked as encoding/json checks it; strings are
// decoded as encoding/json decodes them (invalid UTF-8 bytes and lone
// surrogate escapes become U+FFFD). Nesting deeper than 10,000 is an error.
type Decoder struct {
	data  []byte
	pos   int
	depth int
	share bool
	// members and values are scratch stacks: an object's members (an
	// array's elements) are gathered here and copied once into a slice of
	// the exact size, carved out of memberSlab (valueSlab, textSlab for
	// unescaped strings): one allocation serves many values.
	members    []Member
	values     []Value
	memberSlab []Member
	valueSlab  []Value
	textSlab   []byte
	scratch    []byte
	// before is the length of the inputs read before this one (Reset);
	// carved counts the members, elements and unescaped bytes cut from
	// the slabs so far, all inputs together: their density in the input
	// read so far sizes the next slab (more).
	before int
	carved struct{ members, values, text int }
}

// NewDecoder returns a decoder over data. Decoded strings are copies.
func NewDecoder(data []byte) *Decoder { return &Decoder{data: data} }

// NewSharedDecoder returns a decoder whose decoded strings point into data
// wherever they need no unescaping, instead of being copied. The caller
// promises never to modify data afterwards (a file read for this purpose
// only); this saves most of the allocations of a large catalog.
func NewSharedDecoder(data []byte) *Decoder { return &Decoder{data: data, share: true} }

// Reset makes d read data from its start, as a new decoder (shared or not,
// as d was made) would, except that the values decoded from data are cut
// from the slabs that earlier inputs began: a program that keeps many
// documents (a catalog of many files) wastes only the unused end of the
// last slab instead of one per document, and the scratch space is reused.
// Values decoded before stay valid.
func (d *Decoder) Reset(data []byte) {
	d.before += d.pos
	d.data, d.pos, d.depth = data, 0, 0
	clear(d.members)
	clear(d.values)
	d.members, d.values = d.members[:0], d.values[:0]
}

// Offset is the position of the next unread byte.
func (d *Decoder) Offset() int { return d.pos }

// Data returns the input.
func (d *Decoder) Data() []byte { return d.data }

func (d *Decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// Peek skips white space and returns the kind of the next value (Invalid
// at the end of the input or before a byte that starts no value).
func (d *Decoder) Peek() Kind {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return Invalid
	}
	switch c := d.data[d.pos]; c {
	case '{':
		return Object
	case '[':
		return Array
	case '"':
		return String
	case 't', 'f':
		return Bool
	case 'n':
		return Null
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return Number
		}
	}
	return Invalid
}

// Start skips white space and returns the offset where the next value
// starts.
func (d *Decoder) Start() int {
	d.skipSpace()
	return d.pos
}

// End checks that only white space is left.
func (d *Decoder) End() error {
	d.skipSpace()
	if d.pos < len(d.data) {
		return d.errorf("invalid character %s after top-level value", quoteChar(d.data[d.pos]))
	}
	return nil
}

func (d *Decoder) errorf(format string, args ...any) error {
	return &SyntaxError{Offset: d.pos, Msg: fmt.Sprintf(format, args...)}
}

func (d *Decoder) eof() error {
	return &SyntaxError{Offset: len(d.data), Msg: "unexpected end of JSON input"}
}

// quoteChar formats c as encoding/json does in its messages.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// Value decodes the next value.
func (d *Decoder) Value() (Value, error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return Value{}, d.eof()
	}
	switch c := d.data[d.pos]; c {
	case '{':
		return d.object()
	case '[':
		return d.array()
	case '"':
		s, err := d.str()
		return StringOf(s), err
	case 't':
		return Value{Kind: Bool, Bool: true}, d.literal("true")
	case 'f':
		return Value{Kind: Bool}, d.literal("false")
	case 'n':
		return Value{Kind: Null}, d.literal("null")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			start := d.pos
			if err := d.number(); err != nil {
				return Value{}, err
			}
			return NumberOf(d.text(start, d.pos)), nil
		}
		return Value{}, d.errorf("invalid character %s looking for beginning of value", quoteChar(c))
	}
}

// Skip checks and steps over the next value without building it.
func (d *Decoder) Skip() error {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return d.eof()
	}
	switch c := d.data[d.pos]; c {
	case '{':
		return d.Object(func(string) error { return d.Skip() })
	case '[':
		return d.Array(func(int) error { return d.Skip() })
	case '"':
		return d.skipString()
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return d.number()
		}
		return d.errorf("invalid character %s looking for beginning of value", quoteChar(c))
	}
}

// Object reads an object, calling member for each key in source order; the
// callback must read the member's value (Value or Skip) before returning.
// The next value must be an object.
func (d *Decoder) Object(member func(key string) error) error {
	if empty, err := d.enter('{', '}', "an object"); empty || err != nil {
		return err
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) {
			return d.eof()
		}
		if d.data[d.pos] != '"' {
			return d.errorf("invalid character %s looking for beginning of object key string", quoteChar(d.data[d.pos]))
		}
		key, err := d.str()
		if err != nil {
			return err
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return d.eof()
		}
		if d.data[d.pos] != ':' {
			return d.errorf("invalid character %s after object key", quoteChar(d.data[d.pos]))
		}
		d.pos++
		if err := member(key); err != nil {
			return err
		}
		if done, err := d.next('}', "object key:value pair"); done || err != nil {
			return err
		}
	}
}

// Array reads an array, calling elem for each element; the callback must
// read the element (Value or Skip). The next value must be an array.
func (d *Decoder) Array(elem func(i int) error) error {
	if empty, err := d.enter('[', ']', "an array"); empty || err != nil {
		return err
	}
	for i := 0; ; i++ {
		if err := elem(i); err != nil {
			return err
		}
		if done, err := d.next(']', "array element"); done || err != nil {
			return err
		}
	}
}

// enter steps into the object or array that must come next (want names
// it in the error), one level deeper. An empty one is left again at once
// and reported as empty.
func (d *Decoder) enter(open, close byte, want string) (empty bool, err error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return false, d.eof()
	}
	if d.data[d.pos] != open {
		return false, d.errorf("invalid character %s, want %s", quoteChar(d.data[d.pos]), want)
	}
	if d.depth++; d.depth > maxDepth {
		return false, d.errorf("exceeded max depth")
	}
	d.pos++
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == close {
		d.pos++
		d.depth--
		return true, nil
	}
	return false, nil
}

// next steps over the comma after a member or element (after names it in
// the error), or over close, leaving the level and reporting done.
func (d *Decoder) next(close byte, after string) (done bool, err error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return false, d.eof()
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		return false, nil
	case close:
		d.pos++
		d.depth--
		return true, nil
	}
	return false, d.errorf("invalid character %s after %s", quoteChar(d.data[d.pos]), after)
}

func (d *Decoder) object() (Value, error) { return d.ObjectValue(nil) }

// ObjectValue decodes the next value, which must be an object, as Value
// does; seen, when not nil, is called after each member with its key and
// its exact bytes (a sub-slice of the input with no spare capacity).
func (d *Decoder) ObjectValue(seen func(key string, raw []byte)) (Value, error) {
	base := len(d.members)
	err := d.Object(func(key string) error {
		start := d.Start()
		v, err := d.Value()
		d.members = append(d.members, Member{Key: key, Value: v})
		if err == nil && seen != nil {
			seen(key, d.data[start:d.pos:d.pos])
		}
		return err
	})
	// Every further member takes at least 4 bytes ("":0,).
	n := len(d.members) - base
	ms := pop(&d.members, carve(&d.memberSlab, n, d.more(d.carved.members, 4)), base)
	d.carved.members += n
	if err != nil {
		return Value{}, err
	}
	return ObjectOf(ms...), nil
}

func (d *Decoder) array() (Value, error) {
	base := len(d.values)
	err := d.Array(func(int) error {
		v, err := d.Value()
		d.values = append(d.values, v)
		return err
	})
	// Every further element takes at least 2 bytes (0,).
	n := len(d.values) - base
	vs := pop(&d.values, carve(&d.valueSlab, n, d.more(d.carved.values, 2)), base)
	d.carved.values += n
	if err != nil {
		return Value{}, err
	}
	return ArrayOf(vs...), nil
}

// pop moves the items gathered on a scratch stack above base off it, into
// items (a slice of the exact size cut from a slab).
func pop[T any](stack *[]T, items []T, base int) []T {
	s := *stack
	copy(items, s[base:])
	clear(s[base:])
	*stack = s[:base]
	return items
}

// more estimates how many more items of a kind the rest of the input
// holds, from carved, how many the input read so far (earlier inputs
// included) held: the same density, plus a quarter and a few for the
// estimate's error, and never more than the rest could hold at minSize
// bytes per item. A slab sized by it is rarely left much unused.
func (d *Decoder) more(carved, minSize int) int {
	rest := len(d.data) - d.pos
	bound := rest / minSize
	read := d.before + d.pos
	if read <= 0 {
		return bound
	}
	est := int(int64(rest) * int64(carved) / int64(read))
	return min(est+est/4+8, bound)
}

// Slab sizes in bytes: a decoder's first slab is small (most documents
// parsed one at a time are), later ones double up to maxSlab, and none is
// larger than what the rest of the input could still fill, so little is
// left unused at the end of a document. Powers of two are sizes the Go
// allocator has a class (or a whole number of pages) for.
const (
	minSlab = 1 << 10
	maxSlab = 64 << 10
)

// allocSize is the largest size of at most b bytes (b >= 8) that the Go
// allocator gives exactly, rounding nothing up: a power of two up to 32
// KiB (each is a size class), a multiple of its 8 KiB pages above.
func allocSize(b int) int {
	if b > 32<<10 {
		return b &^ (8<<10 - 1)
	}
	return 1 << (bits.Len(uint(b)) - 1)
}

// carve returns n zeroed items from the slab, a fresh slab when it has
// too few left; more is at most how many more items the rest of the input
// can hold. The result's capacity is n: an append to it copies instead of
// writing over its neighbours. A slab is kept alive as long as any value
// cut from it, which suits a document kept whole.
func carve[T any](slab *[]T, n, more int) []T {
	s := *slab
	if n == 0 {
		return nil
	}
	if cap(s)-len(s) < n {
		var zero T
		item := int(unsafe.Sizeof(zero))
		bytes := min(max(2*cap(s)*item, minSlab), maxSlab)
		size := min(bytes/item, n+more)
		if n > size/2 {
			return make([]T, n) // a large one on its own
		}
		// Cut down to a size the allocator has a class (or a whole
		// number of pages) for, at least n since n <= size/2: no bytes
		// are rounded up past the capacity, unusable. make, not append
		// (which clears its new capacity): fresh memory from make is not
		// written until an item is cut from it, so the pages of a slab's
		// unused end are never touched.
		s = make([]T, 0, allocSize(size*item)/item)
	}
	items := s[len(s) : len(s)+n : len(s)+n]
	*slab = s[:len(s)+n]
	return items
}

func (d *Decoder) literal(word string) error {
	for i := 0; i < len(word); i++ {
		if d.pos >= len(d.data) {
			return d.eof()
		}
		if d.data[d.pos] != word[i] {
			return d.errorf("invalid character %s in literal %s (expecting %s)", quoteChar(d.data[d.pos]), word, quoteChar(word[i]))
		}
		d.pos++
	}
	return nil
}

// number steps over -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (d *Decoder) number() error {
	digits := func(what string) error {
		if d.pos >= len(d.data) {
			return d.eof()
		}
		if c := d.data[d.pos]; c < '0' || c > '9' {
			return d.errorf("invalid character %s in %s", quoteChar(c), what)
		}
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
		}
		return nil
	}
	if d.data[d.pos] == '-' {
		d.pos++
	}
	if d.pos < len(d.data) && d.data[d.pos] == '0' {
		d.pos++
	} else if err := digits("numeric literal"); err != nil {
		return err
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if err := digits("numeric literal"); err != nil {
			return err
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if err := digits("exponent of numeric literal"); err != nil {
			return err
		}
	}
	return nil
}

// text returns data[start:end] as a string, shared or copied.
func (d *Decoder) text(start, end int) string {
	if end == start {
		return ""
	}
	if d.share {
		return unsafe.String(&d.data[start], end-start)
	}
	return string(d.data[start:end])
}

// scanString steps over a string starting at the opening quote and
// reports whether it needs unescaping (escapes or invalid UTF-8).
func (d *Decoder) scanString() (start, end int, plain bool, err error) {
	d.pos++ // opening quote
	start = d.pos
	plain = true
	for {
		// Runs of plain ASCII (no quote, backslash or control
		// character) in a tight loop.
		for d.pos < len(d.data) && plainASCII[d.data[d.pos]] {
			d.pos++
		}
		if d.pos >= len(d.data) {
			return 0, 0, false, d.eof()
		}
		c := d.data[d.pos]
		switch {
		case c == '"':
			end = d.pos
			d.pos++
			return start, end, plain, nil
		case c == '\\':
			plain = false
			d.pos++
			if d.pos >= len(d.data) {
				return 0, 0, false, d.eof()
			}
			switch d.data[d.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.pos++
			case 'u':
				d.pos++
				for i := 0; i < 4; i++ {
					if d.pos >= len(d.data) {
						return 0, 0, false, d.eof()
					}
					if !isHex(d.data[d.pos]) {
						return 0, 0, false, d.errorf("invalid character %s in \\u hexadecimal character escape", quoteChar(d.data[d.pos]))
					}
					d.pos++
				}
			default:
				return 0, 0, false, d.errorf("invalid character %s in string escape code", quoteChar(d.data[d.pos]))
			}
		case c < 0x20:
			return 0, 0, false, d.errorf("invalid character %s in string literal", quoteChar(c))
		case c < utf8.RuneSelf:
			d.pos++
		default:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			if r == utf8.RuneError && size == 1 {
				plain = false
			}
			d.pos += size
		}
	}
}

// plainASCII marks the bytes a string body holds as they are: printable
// ASCII other than `"` and `\`, and DEL.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func (d *Decoder) skipString() error {
	_, _, _, err := d.scanString()
	return err
}

func (d *Decoder) str() (string, error) {
	start, end, plain, err := d.scanString()
	if err != nil {
		return "", err
	}
	if plain {
		return d.text(start, end), nil
	}
	return d.unquote(d.data[start:end]), nil
}

// unquote decodes a checked string body as encoding/json does. The text
// is decoded into a scratch buffer, then copied into the decoder's text
// slab, which is never written again below its length: the string points
// into it.
func (d *Decoder) unquote(s []byte) string {
	d.scratch = unquote(d.scratch[:0], s)
	if len(d.scratch) == 0 {
		return ""
	}
	b := carve(&d.textSlab, len(d.scratch), d.more(d.carved.text, 1))
	d.carved.text += len(b)
	copy(b, d.scratch)
	return unsafe.String(&b[0], len(b))
}

// unquote appends the decoding of a checked string body to b as
// encoding/json decodes it.
func unquote(b, s []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			i++
			switch s[i] {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(s[i+1:])
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1) // the next \uXXXX, if one follows
					if i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
						r2 = hex4(s[i+3:])
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						i += 6
						b = utf8.AppendRune(b, dec)
						break
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
			default: // '"', '\\', '/'
				b = append(b, s[i])
			}
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			i += size
			b = utf8.AppendRune(b, r) // RuneError for an invalid byte
		}
	}
	return b
}

func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

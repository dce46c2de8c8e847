// Package jsonpos finds where each value of a JSON document is written: the
// byte offsets of every object member's key and value and of every array
// element, addressed by JSON Pointer (RFC 6901), and the line and column of
// any offset.
//
// It is a position index only, built on demand (by lint, when it needs to
// say "file:line:col"), so loading catalogs never pays for it.
//
// Algorithm: one recursive-descent pass over the bytes (RFC 8259 grammar,
// depth-limited), recording for each value its pointer ("/servers/0/tools/3/
// description"), the offset of its member key (-1 for array elements and the
// root) and of its first byte. Object keys are decoded (escapes resolved)
// and escaped for the pointer as RFC 6901 says ("~" → "~0", "/" → "~1"). A
// repeated key keeps its last occurrence, as JSON.parse and serde_json do.
// Line and column come from a table of line starts (a line ends at "\n",
// "\r\n" or a "\r" alone, as editors count them) and a table of code point
// counts every runeStep bytes, so each position costs O(runeStep) whatever
// the length of its line (a minified catalog is one line); columns count
// Unicode code points from 1 (SARIF's "unicodeCodePoints").
package jsonpos

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 10000

// MaxIndexDepth bounds which values are indexed: values nested deeper are
// checked but get no pointer, so the index stays linear in the input (a
// pointer is as long as its value is deep; indexing every level of a
// 9,000-deep array would take 9,000²/2 bytes of pointers). It is well past
// corpus.MaxSchemaDepth (128) plus a catalog's own nesting, so every value
// of a tool that clients see has its position.
const MaxIndexDepth = 256

// Pos is where one value is written.
type Pos struct {
	Key   int // offset of the member key's opening quote; -1 for array elements and the root
	Value int // offset of the value's first byte
	End   int // offset just after the value
}

// Start is the member's key when it has one, else the value.
func (p Pos) Start() int {
	if p.Key >= 0 {
		return p.Key
	}
	return p.Value
}

// Index holds the positions of one document.
type Index struct {
	data  []byte
	ptrs  map[string]Pos
	lines []int // offsets of line starts
	// runes[k] is (offset, code points before offset) for the first rune
	// boundary at or after k*runeStep, as utf8.DecodeRune walks data from
	// its start.
	runes [][2]int
	// fold maps foldKey(pointer) to the first pointer in document order
	// with that key; built on the first LookupFold that misses.
	fold     map[string]string
	foldOnce sync.Once
}

// runeStep is the distance between code point checkpoints.
const runeStep = 1024

// runeCount is utf8.RuneCount; a test counts the bytes it is given.
var runeCount = utf8.RuneCount

// SyntaxError is malformed JSON at Offset.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// Build indexes data, which must hold exactly one JSON value.
func Build(data []byte) (*Index, error) {
	ix := &Index{data: data, ptrs: map[string]Pos{}}
	p := &parser{data: data, ix: ix}
	p.space()
	if err := p.value("", -1, 0); err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(data) {
		return nil, &SyntaxError{p.i, "data after the JSON value"}
	}
	ix.lines = lineStarts(data)
	ix.runes = runeMarks(data)
	return ix, nil
}

// lineStarts are the offsets where lines begin: 0, and after every "\n",
// "\r\n" and "\r" not followed by "\n".
func lineStarts(data []byte) []int {
	lines := []int{0}
	for i, c := range data {
		switch {
		case c == '\n':
			lines = append(lines, i+1)
		case c == '\r' && (i+1 == len(data) || data[i+1] != '\n'):
			lines = append(lines, i+1)
		}
	}
	return lines
}

// runeMarks walks data rune by rune (utf8.DecodeRune, an invalid byte is
// one code point) and records a checkpoint at the first boundary at or
// after every multiple of runeStep.
func runeMarks(data []byte) [][2]int {
	marks := make([][2]int, 0, len(data)/runeStep+1)
	n := 0
	for i := 0; i < len(data); {
		if i >= len(marks)*runeStep {
			marks = append(marks, [2]int{i, n})
		}
		if data[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRune(data[i:])
			i += size
		}
		n++
	}
	if len(marks) == 0 {
		marks = append(marks, [2]int{0, 0})
	}
	return marks
}

// runesBefore counts the code points of data[:off], off being a rune
// boundary (a line start or a JSON token, both ASCII).
func (ix *Index) runesBefore(off int) int {
	k := min(off/runeStep, len(ix.runes)-1)
	for k > 0 && ix.runes[k][0] > off {
		k--
	}
	m := ix.runes[k]
	return m[1] + runeCount(ix.data[m[0]:off])
}

// Lookup returns the position of the value at ptr ("" is the root).
func (ix *Index) Lookup(ptr string) (Pos, bool) {
	p, ok := ix.ptrs[ptr]
	return p, ok
}

// LookupFold is Lookup, falling back to a pointer whose member names match
// ptr's case-insensitively (strings.EqualFold, as encoding/json matches
// struct fields), the first in document order. It returns the pointer
// found.
func (ix *Index) LookupFold(ptr string) (string, Pos, bool) {
	if p, ok := ix.ptrs[ptr]; ok {
		return ptr, p, true
	}
	ix.foldOnce.Do(func() {
		ix.fold = make(map[string]string, len(ix.ptrs))
		for q, p := range ix.ptrs {
			k := foldKey(q)
			if prev, ok := ix.fold[k]; !ok || p.Value < ix.ptrs[prev].Value {
				ix.fold[k] = q
			}
		}
	})
	q, ok := ix.fold[foldKey(ptr)]
	if !ok {
		return "", Pos{}, false
	}
	return q, ix.ptrs[q], true
}

// foldKey maps every string of one strings.EqualFold class to the same
// key: each rune replaced by the smallest rune of its simple case-folding
// orbit (unicode.SimpleFold), which is what EqualFold compares.
func foldKey(s string) string {
	var b []byte
	for i, r := range s {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		if m != r && b == nil {
			b = append(make([]byte, 0, len(s)), s[:i]...)
		}
		if b != nil {
			b = utf8.AppendRune(b, m)
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// Len is the number of indexed values.
func (ix *Index) Len() int { return len(ix.ptrs) }

// Raw returns the bytes of the value at ptr.
func (ix *Index) Raw(ptr string) ([]byte, bool) {
	p, ok := ix.ptrs[ptr]
	if !ok {
		return nil, false
	}
	return ix.data[p.Value:p.End], true
}

// LineCol converts a byte offset into a 1-based line and a 1-based column
// counted in Unicode code points.
func (ix *Index) LineCol(off int) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > len(ix.data) {
		off = len(ix.data)
	}
	l := sort.Search(len(ix.lines), func(i int) bool { return ix.lines[i] > off }) - 1
	if l < 0 {
		l = 0
	}
	return l + 1, ix.runesBefore(off) - ix.runesBefore(ix.lines[l]) + 1
}

// Pointer joins unescaped reference tokens into a JSON Pointer.
func Pointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(Escape(t))
	}
	return b.String()
}

// Tokens splits a JSON Pointer into its unescaped reference tokens
// (RFC 6901 §3–4); "" has none.
func Tokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	toks := strings.Split(ptr[1:], "/")
	for i, t := range toks {
		if strings.Contains(t, "~") {
			toks[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
		}
	}
	return toks
}

// FieldName writes reference tokens the way diagnostics name a field:
// members joined by ".", array indexes (all digits) in brackets:
// inputSchema.required[0], content[2].text.
func FieldName(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		if t != "" && strings.Trim(t, "0123456789") == "" {
			b.WriteString("[" + t + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}

// Escape escapes one reference token (RFC 6901 §3).
func Escape(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
}

type parser struct {
	data []byte
	i    int
	ix   *Index
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{p.i, fmt.Sprintf(format, args...)}
}

func (p *parser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(ptr string, key, depth int) error {
	if depth > maxDepth {
		return p.errorf("nested deeper than %d", maxDepth)
	}
	if p.i >= len(p.data) {
		return p.errorf("unexpected end of input")
	}
	start := p.i
	var err error
	switch c := p.data[p.i]; {
	case c == '{':
		err = p.object(ptr, depth)
	case c == '[':
		err = p.array(ptr, depth)
	case c == '"':
		_, err = p.str()
	case c == 't':
		err = p.literal("true")
	case c == 'f':
		err = p.literal("false")
	case c == 'n':
		err = p.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		err = p.number()
	default:
		return p.errorf("unexpected character %q", c)
	}
	if err != nil {
		return err
	}
	if depth <= MaxIndexDepth {
		p.ix.ptrs[ptr] = Pos{Key: key, Value: start, End: p.i}
	}
	return nil
}

// child is the pointer of a member or element of the value at ptr, at
// depth: "" past MaxIndexDepth, where nothing is indexed.
func child(ptr, token string, depth int) string {
	if depth >= MaxIndexDepth {
		return ""
	}
	return ptr + "/" + token
}

func (p *parser) object(ptr string, depth int) error {
	p.i++ // {
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return nil
	}
	for {
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return p.errorf("expected a member name")
		}
		key := p.i
		name, err := p.str()
		if err != nil {
			return err
		}
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return p.errorf("expected ':'")
		}
		p.i++
		p.space()
		if err := p.value(child(ptr, Escape(name), depth), key, depth+1); err != nil {
			return err
		}
		p.space()
		if p.i >= len(p.data) {
			return p.errorf("unexpected end of input in an object")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return nil
		default:
			return p.errorf("expected ',' or '}'")
		}
	}
}

func (p *parser) array(ptr string, depth int) error {
	p.i++ // [
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return nil
	}
	for n := 0; ; n++ {
		p.space()
		if err := p.value(child(ptr, strconv.Itoa(n), depth), -1, depth+1); err != nil {
			return err
		}
		p.space()
		if p.i >= len(p.data) {
			return p.errorf("unexpected end of input in an array")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return nil
		default:
			return p.errorf("expected ',' or ']'")
		}
	}
}

func (p *parser) literal(word string) error {
	if !strings.HasPrefix(string(p.data[p.i:min(len(p.data), p.i+len(word))]), word) {
		return p.errorf("invalid literal")
	}
	p.i += len(word)
	return nil
}

func (p *parser) number() error {
	if p.data[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.data) && p.data[p.i] >= '0' && p.data[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	first := p.i
	if n := digits(); n == 0 || (n > 1 && p.data[first] == '0') {
		return p.errorf("invalid number")
	}
	if p.i < len(p.data) && p.data[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return p.errorf("invalid number")
		}
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		p.i++
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return p.errorf("invalid number")
		}
	}
	return nil
}

// str reads a string literal at p.i and returns it decoded.
func (p *parser) str() (string, error) {
	p.i++ // opening quote
	var b []byte
	plain := p.i
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			var s string
			if b == nil {
				s = string(p.data[plain:p.i])
			} else {
				s = string(append(b, p.data[plain:p.i]...))
			}
			p.i++
			return s, nil
		case c == '\\':
			b = append(b, p.data[plain:p.i]...)
			r, err := p.escape()
			if err != nil {
				return "", err
			}
			b = utf8.AppendRune(b, r)
			plain = p.i
		case c < 0x20:
			return "", p.errorf("control character in a string")
		default:
			p.i++
		}
	}
	return "", p.errorf("unterminated string")
}

var errEscape = errors.New("invalid escape")

// escape reads one escape sequence at p.i (the backslash).
func (p *parser) escape() (rune, error) {
	if p.i+1 >= len(p.data) {
		return 0, p.errorf("%v", errEscape)
	}
	c := p.data[p.i+1]
	p.i += 2
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		r, ok := p.hex4()
		if !ok {
			return 0, p.errorf("%v", errEscape)
		}
		if utf16.IsSurrogate(r) && p.i+1 < len(p.data) && p.data[p.i] == '\\' && p.data[p.i+1] == 'u' {
			save := p.i
			p.i += 2
			if r2, ok := p.hex4(); ok {
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					return d, nil
				}
			}
			p.i = save
		}
		if utf16.IsSurrogate(r) {
			return utf8.RuneError, nil
		}
		return r, nil
	}
	return 0, p.errorf("%v", errEscape)
}

func (p *parser) hex4() (rune, bool) {
	if p.i+4 > len(p.data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.data[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(n), true
}

// LineOf is the 1-based line of byte offset off in data and the offset
// where that line starts, lines ending as in an Index ("\n", "\r\n" or a
// lone "\r"). It scans data[:off]: for one position, as an error reports.
func LineOf(data []byte, off int) (line, start int) {
	off = min(max(off, 0), len(data))
	line = 1
	for i := 0; i < off; i++ {
		switch c := data[i]; {
		case c == '\n':
			line, start = line+1, i+1
		case c == '\r' && (i+1 == len(data) || data[i+1] != '\n'):
			line, start = line+1, i+1
		}
	}
	return line, start
}

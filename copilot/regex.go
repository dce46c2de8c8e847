package copilot

import (
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// The CLI's tool_search_tool takes an ECMAScript regular expression and
// matches it case-insensitively (copilot.md §1.1). toolfind runs it as
// JavaScript does, in goja (`new RegExp(pattern, "i")`, then test), the
// engine the project runs JavaScript with; the CLI's own engine is an
// ECMAScript one in Rust, and the two agreed on every pattern of
// toolfind's probes (lookahead and lookbehind, named groups and
// backreferences, \u escapes, "a{" read as a literal, \p{L} read as
// "p{L}" without the u flag).

// MaxPattern is the longest pattern the tool's schema allows
// (copilot.md §1.1: maxLength 200).
const MaxPattern = 200

// searchBudget bounds one search's matching: a model-written pattern can
// backtrack for a very long time. The CLI has a time budget too (an abort
// message in the binary); its length is not known.
const searchBudget = 5 * time.Second

var errTimedOut = errors.New("the search ran out of time")

// matcher tests texts against one compiled pattern.
type matcher struct {
	rt   *goja.Runtime
	re   *goja.Object
	test goja.Callable
	stop *time.Timer
}

var runtimes sync.Pool // *goja.Runtime

// compilePattern compiles pattern as new RegExp(pattern, "i"). A pattern
// the engine refuses gives the reason the CLI's engine words for it
// (regexReason).
func compilePattern(pattern string) (*matcher, error) {
	rt, _ := runtimes.Get().(*goja.Runtime)
	if rt == nil {
		rt = goja.New()
	}
	ctor, _ := goja.AssertConstructor(rt.Get("RegExp"))
	re, err := ctor(nil, rt.ToValue(pattern), rt.ToValue("i"))
	if err != nil {
		runtimes.Put(rt)
		return nil, &patternError{reason: regexReason(pattern), engine: err.Error()}
	}
	test, ok := goja.AssertFunction(re.Get("test"))
	if !ok {
		runtimes.Put(rt)
		return nil, errors.New("RegExp.prototype.test is not a function")
	}
	m := &matcher{rt: rt, re: re, test: test}
	m.stop = time.AfterFunc(searchBudget, func() { rt.Interrupt(errTimedOut) })
	return m, nil
}

// match reports whether the pattern matches s.
func (m *matcher) match(s string) (bool, error) {
	v, err := m.test(m.re, m.rt.ToValue(s))
	if err != nil {
		var ie *goja.InterruptedError
		if errors.As(err, &ie) {
			return false, errTimedOut
		}
		return false, err
	}
	return v.ToBoolean(), nil
}

// release returns the runtime to the pool.
func (m *matcher) release() {
	if !m.stop.Stop() {
		return // the interrupt fired (or is firing): drop this runtime
	}
	runtimes.Put(m.rt)
}

// patternError is a pattern the engine refuses.
type patternError struct {
	reason string // as the CLI words it (regexReason)
	engine string // goja's own message
}

func (e *patternError) Error() string { return e.reason }

// regexReason words why a pattern is invalid as the CLI's engine does
// (observed: "(" Unbalanced parenthesis, "[" Unbalanced bracket, "\"
// Incomplete escape, "*" Invalid atom character, "x{2,1}" Invalid
// quantifier, "(?i)x" Invalid group modifier). Patterns that fail for
// another reason get "Invalid pattern" (toolfind's wording).
func regexReason(p string) string {
	depth, inClass := 0, false
	atomBefore := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				return "Incomplete escape"
			}
			i++
			atomBefore = true
		case inClass:
			if c == ']' {
				inClass = false
				atomBefore = true
			}
		case c == '[':
			inClass = true
		case c == '(':
			if strings.HasPrefix(p[i:], "(?") && !(strings.HasPrefix(p[i:], "(?:") || strings.HasPrefix(p[i:], "(?=") ||
				strings.HasPrefix(p[i:], "(?!") || strings.HasPrefix(p[i:], "(?<")) {
				return "Invalid group modifier"
			}
			depth++
			atomBefore = false
		case c == ')':
			if depth == 0 {
				return "Unbalanced parenthesis"
			}
			depth--
			atomBefore = true
		case c == '|':
			atomBefore = false
		case c == '*' || c == '+' || c == '?':
			if !atomBefore && !(c == '?' && i > 0 && strings.ContainsRune("*+?}", rune(p[i-1]))) {
				return "Invalid atom character"
			}
		case c == '{':
			if n, m, ok := braceQuantifier(p[i:]); ok && m >= 0 && n > m {
				return "Invalid quantifier"
			}
			atomBefore = true
		default:
			atomBefore = true
		}
	}
	switch {
	case inClass:
		return "Unbalanced bracket"
	case depth > 0:
		return "Unbalanced parenthesis"
	}
	return "Invalid pattern"
}

// braceQuantifier reads "{n}", "{n,}" or "{n,m}" at the start of s; m is
// -1 when open.
func braceQuantifier(s string) (n, m int, ok bool) {
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return 0, 0, false
	}
	body := s[1:end]
	a, b, comma := strings.Cut(body, ",")
	num := func(t string) (int, bool) {
		if t == "" {
			return 0, false
		}
		v := 0
		for _, r := range t {
			if r < '0' || r > '9' {
				return 0, false
			}
			v = v*10 + int(r-'0')
			if v > 1<<30 {
				return 0, false
			}
		}
		return v, true
	}
	n, okn := num(a)
	if !okn {
		return 0, 0, false
	}
	if !comma {
		return n, n, true
	}
	if b == "" {
		return n, -1, true
	}
	m, okm := num(b)
	return n, m, okm
}

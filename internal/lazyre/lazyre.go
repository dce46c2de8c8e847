// Package lazyre holds a regular expression that is compiled on its first
// use instead of at package initialisation.
//
// A package-level regexp.MustCompile runs in every toolfind process, for
// every command, whether or not the command ever matches that expression:
// compiling a pattern costs tens of microseconds and a few kilobytes of
// allocation, and toolfind's packages declare a dozen of them. A
// *Regexp declared at package level costs nothing until Re is called; the
// first call compiles the expression (panicking on a bad one, as
// regexp.MustCompile does) and every call returns the same
// *regexp.Regexp. It is safe for concurrent use.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// New returns expr to be compiled by regexp.MustCompile on the first call
// to Re.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// Re returns the compiled expression, compiling it on the first call.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// String returns the source text of the expression without compiling it.
func (r *Regexp) String() string { return r.expr }

// Package lazyregexp holds regular expressions that are compiled on first
// use instead of in a package initialiser.
//
// A package-level regexp.MustCompile runs at every start of app.wasm,
// before main, whether or not the page ever matches the expression; in a
// browser the first compile also makes V8 compile regexp/syntax's code on
// the page's only thread. Expressions that only a question, an answer or
// a tool use are declared with New and compiled when first matched
// (docs/startup.md).
package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use. Its methods are
// those of regexp.Regexp that tinyRAG uses; a bad pattern panics on first
// use, as regexp.MustCompile would at start (the tests use every one).
type Regexp struct {
	pattern string
	re      func() *regexp.Regexp
}

// New returns pattern, to be compiled on first use.
func New(pattern string) *Regexp {
	return &Regexp{pattern: pattern, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })}
}

// Regexp returns the compiled expression, compiling it if needed.
func (r *Regexp) Regexp() *regexp.Regexp { return r.re() }

// String returns the pattern.
func (r *Regexp) String() string { return r.pattern }

// Match is regexp.Regexp.Match.
func (r *Regexp) Match(b []byte) bool { return r.re().Match(b) }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.re().MatchString(s) }

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string { return r.re().FindString(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.re().FindStringSubmatch(s) }

// FindAllString is regexp.Regexp.FindAllString.
func (r *Regexp) FindAllString(s string, n int) []string { return r.re().FindAllString(s, n) }

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string { return r.re().ReplaceAllString(src, repl) }

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.re().ReplaceAllStringFunc(src, repl)
}

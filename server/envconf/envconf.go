// Package envconf reads tinyRAG's TINYRAG_* environment variables for
// every command alike, so `tinyrag serve` and `tinyrag ask` understand the
// same values, and a value neither can understand stops the command at
// start-up instead of being taken as "off". A switch that silently fails
// open (TINYRAG_NO_WEB=yes leaving the web tools on) is worse than a
// refusal to start.
package envconf

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// Env reads variables through a lookup function (os.Getenv, or a map in
// tests) and remembers every value it could not parse. Read what you
// need, then check Err once.
type Env struct {
	get  func(string) string
	errs []error
}

// New returns an Env that reads through getenv.
func New(getenv func(string) string) *Env { return &Env{get: getenv} }

// String returns the variable's value with surrounding space removed, or
// def when it is unset or empty.
func (e *Env) String(key, def string) string {
	if v := strings.TrimSpace(e.get(key)); v != "" {
		return v
	}
	return def
}

// Bool reads a switch. It accepts what people write in shell profiles and
// container files: 1/0, true/false, yes/no, on/off (any case). Unset or
// empty gives def; anything else is an error reported by Err, and def is
// returned meanwhile.
func (e *Env) Bool(key string, def bool) bool {
	v := strings.TrimSpace(e.get(key))
	if v == "" {
		return def
	}
	b, err := ParseBool(v)
	if err != nil {
		e.errs = append(e.errs, fmt.Errorf("%s=%q: %w", key, v, err))
		return def
	}
	return b
}

// List splits a comma- or space-separated value; unset gives nil.
func (e *Env) List(key string) []string { return SplitList(e.get(key)) }

// ListFunc reads a comma- or space-separated list and passes each item
// through parse (which checks and normalizes it); an item parse refuses is
// an error reported by Err, naming the variable, and is left out.
func (e *Env) ListFunc(key string, parse func(string) (string, error)) []string {
	var out []string
	for _, f := range SplitList(e.get(key)) {
		v, err := parse(f)
		if err != nil {
			e.errs = append(e.errs, fmt.Errorf("%s: %w", key, err))
			continue
		}
		out = append(out, v)
	}
	return out
}

// Prefixes reads a list of addresses and CIDRs (a lone address is its
// /32 or /128).
func (e *Env) Prefixes(key string) []netip.Prefix {
	v := e.get(key)
	if strings.TrimSpace(v) == "" {
		return nil
	}
	ps, err := ParsePrefixes(v)
	if err != nil {
		e.errs = append(e.errs, fmt.Errorf("%s: %w", key, err))
	}
	return ps
}

// Err reports every variable that could not be parsed, or nil.
func (e *Env) Err() error { return errors.Join(e.errs...) }

// ParseBool is Bool's parser, for flags that want the same spellings.
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "t", "true", "y", "yes", "on":
		return true, nil
	case "0", "f", "false", "n", "no", "off":
		return false, nil
	}
	return false, errors.New("want one of true/false, yes/no, on/off, 1/0")
}

// SplitList splits a comma- or space-separated list, dropping empty items.
func SplitList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
}

// ParsePrefixes parses a comma- or space-separated list of addresses and
// CIDRs. It returns what it could parse along with the first error.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range SplitList(s) {
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return out, fmt.Errorf("%q is not an address or CIDR", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

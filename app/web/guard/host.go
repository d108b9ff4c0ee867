package guard

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// ParseHost interprets the host part of a URL the way browsers and the C
// resolver do, so that "2130706433", "0x7f.1" or "0177.0.0.1" are recognised
// as 127.0.0.1 rather than passed on as names a resolver might turn into the
// same address. It returns the address when host is an IP literal in any
// spelling, ok=false for an ordinary DNS name, and an error for a host that
// looks numeric but is not a valid address (WHATWG: a host whose last label
// is a number must be an IPv4 address).
func ParseHost(host string) (addr netip.Addr, ok bool, err error) {
	if host == "" {
		return netip.Addr{}, false, errors.New("empty host")
	}
	if strings.HasPrefix(host, "[") {
		if !strings.HasSuffix(host, "]") {
			return netip.Addr{}, false, fmt.Errorf("malformed IPv6 host %q", host)
		}
		host = host[1 : len(host)-1]
	}
	if strings.Contains(host, ":") {
		if strings.Contains(host, "%") {
			return netip.Addr{}, false, fmt.Errorf("IPv6 zone in host %q is not allowed", host)
		}
		a, err := netip.ParseAddr(host)
		if err != nil {
			return netip.Addr{}, false, fmt.Errorf("malformed IPv6 host %q: %v", host, err)
		}
		return a, true, nil
	}
	name := strings.TrimSuffix(host, ".")
	labels := strings.Split(name, ".")
	if !isNumber(labels[len(labels)-1]) {
		return netip.Addr{}, false, nil
	}
	a, err := parseIPv4(labels)
	if err != nil {
		return netip.Addr{}, false, fmt.Errorf("host %q looks like an IPv4 address but is not one: %v", host, err)
	}
	return a, true, nil
}

// isNumber reports whether s is a decimal, octal (leading 0) or hex (0x)
// number in the inet_aton sense.
func isNumber(s string) bool {
	if s == "" {
		return false
	}
	if len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X") {
		for _, c := range s[2:] {
			if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
				return false
			}
		}
		return true
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseIPv4 implements the WHATWG IPv4 parser: one to four parts, each
// decimal, octal or hex, the last part filling the remaining bytes.
func parseIPv4(parts []string) (netip.Addr, error) {
	if len(parts) > 4 {
		return netip.Addr{}, errors.New("more than four parts")
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		if p == "" {
			return netip.Addr{}, errors.New("empty part")
		}
		base := 10
		digits := p
		switch {
		case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
			base, digits = 16, p[2:]
			if digits == "" {
				digits = "0"
			}
		case len(p) >= 2 && p[0] == '0':
			base, digits = 8, p[1:]
		}
		n, err := strconv.ParseUint(digits, base, 64)
		if err != nil {
			return netip.Addr{}, fmt.Errorf("part %q: %v", p, err)
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, errors.New("part out of range")
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, errors.New("last part out of range")
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v |= n << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), nil
}

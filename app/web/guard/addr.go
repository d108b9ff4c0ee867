// Package guard keeps server-side request forgery out of every fetch tinyRAG
// makes on a user's or a model's behalf: it decides which URLs and which IP
// addresses may be contacted, resolves host names itself and dials only the
// addresses it has checked, so a DNS answer that changes between the check
// and the connection (rebinding) cannot slip through.
package guard

import (
	"net/netip"
)

// Class names why an address is not an ordinary public unicast address.
// The empty Class means public.
type Class string

// The classes of non-public addresses. Loopback through SiteLocal are what an
// intranet deployment may legitimately want (see Policy.AllowPrivate);
// Unspecified, Multicast, Broadcast and Metadata are never fetched unless an
// allowlisted prefix names them explicitly.
const (
	Public      Class = ""
	Loopback    Class = "loopback"
	Private     Class = "private"
	LinkLocal   Class = "link-local"
	UniqueLocal Class = "unique-local"
	SharedCGNAT Class = "shared-address-space"
	SiteLocal   Class = "site-local"
	Reserved    Class = "reserved"
	Unspecified Class = "unspecified"
	Multicast   Class = "multicast"
	Broadcast   Class = "broadcast"
	Metadata    Class = "cloud-metadata"
)

// intranet reports whether --fetch-allow-private may open this class.
func (c Class) intranet() bool {
	switch c {
	case Loopback, Private, LinkLocal, UniqueLocal, SharedCGNAT, SiteLocal, Reserved:
		return true
	}
	return false
}

// metadataAddrs are the instance-metadata endpoints of the big clouds. They
// sit inside link-local or private ranges, but they hand out credentials, so
// allowing "private" addresses must not open them.
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"), // AWS, GCP, Azure, OpenStack, DigitalOcean
	netip.MustParseAddr("169.254.170.2"),   // AWS ECS task credentials
	netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
	netip.MustParseAddr("192.0.0.192"),     // Oracle Cloud
	netip.MustParseAddr("fd00:ec2::254"),   // AWS over IPv6
}

type prefixClass struct {
	p netip.Prefix
	c Class
}

var v4Ranges = []prefixClass{
	{netip.MustParsePrefix("0.0.0.0/8"), Unspecified},
	{netip.MustParsePrefix("10.0.0.0/8"), Private},
	{netip.MustParsePrefix("100.64.0.0/10"), SharedCGNAT},
	{netip.MustParsePrefix("127.0.0.0/8"), Loopback},
	{netip.MustParsePrefix("169.254.0.0/16"), LinkLocal},
	{netip.MustParsePrefix("172.16.0.0/12"), Private},
	{netip.MustParsePrefix("192.0.0.0/24"), Reserved},
	{netip.MustParsePrefix("192.0.2.0/24"), Reserved},
	{netip.MustParsePrefix("192.88.99.0/24"), Reserved},
	{netip.MustParsePrefix("192.168.0.0/16"), Private},
	{netip.MustParsePrefix("198.18.0.0/15"), Reserved},
	{netip.MustParsePrefix("198.51.100.0/24"), Reserved},
	{netip.MustParsePrefix("203.0.113.0/24"), Reserved},
	{netip.MustParsePrefix("224.0.0.0/4"), Multicast},
	{netip.MustParsePrefix("255.255.255.255/32"), Broadcast},
	{netip.MustParsePrefix("240.0.0.0/4"), Reserved},
}

var v6Ranges = []prefixClass{
	{netip.MustParsePrefix("::/128"), Unspecified},
	{netip.MustParsePrefix("::1/128"), Loopback},
	{netip.MustParsePrefix("100::/64"), Reserved},
	{netip.MustParsePrefix("2001:db8::/32"), Reserved},
	{netip.MustParsePrefix("fc00::/7"), UniqueLocal},
	{netip.MustParsePrefix("fe80::/10"), LinkLocal},
	{netip.MustParsePrefix("fec0::/10"), SiteLocal},
	{netip.MustParsePrefix("ff00::/8"), Multicast},
}

// IPv6 forms that carry an IPv4 address inside them. Each embedded address
// is classified as if it had been written as IPv4, because a host on the
// path may translate the packet to exactly that address.
var (
	compat4   = netip.MustParsePrefix("::/96")           // IPv4-compatible (deprecated)
	mapped4   = netip.MustParsePrefix("::ffff:0:0/96")   // IPv4-mapped
	transl4   = netip.MustParsePrefix("::ffff:0:0:0/96") // IPv4-translated (SIIT)
	nat64     = netip.MustParsePrefix("64:ff9b::/96")    // well-known NAT64
	nat64loc  = netip.MustParsePrefix("64:ff9b:1::/48")  // local-use NAT64
	sixToFour = netip.MustParsePrefix("2002::/16")       // 6to4
	teredo    = netip.MustParsePrefix("2001::/32")       // Teredo
)

// Classify says what kind of address a is. IPv6 addresses that embed an
// IPv4 address (mapped, compatible, translated, NAT64, 6to4, Teredo) take
// the class of the embedded address when that is not public.
func Classify(a netip.Addr) Class {
	a = a.WithZone("")
	for _, m := range metadataAddrs {
		if a == m {
			return Metadata
		}
	}
	if a.Is4() {
		for _, r := range v4Ranges {
			if r.p.Contains(a) {
				return r.c
			}
		}
		return Public
	}
	if !a.Is6() {
		return Reserved
	}
	if v4, ok := embedded4(a); ok {
		if c := Classify(v4); c != Public {
			return c
		}
		if compat4.Contains(a) {
			// Deprecated since 2006; nothing legitimate is reached this way.
			return Reserved
		}
	}
	for _, r := range v6Ranges {
		if r.p.Contains(a) {
			return r.c
		}
	}
	return Public
}

// embedded4 extracts the IPv4 address an IPv6 address carries, if its
// prefix says it carries one.
func embedded4(a netip.Addr) (netip.Addr, bool) {
	b := a.As16()
	last4 := func() netip.Addr { return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}) }
	switch {
	case mapped4.Contains(a), transl4.Contains(a), nat64.Contains(a), nat64loc.Contains(a):
		return last4(), true
	case compat4.Contains(a) && a != netip.IPv6Unspecified() && a != netip.IPv6Loopback():
		return last4(), true
	case sixToFour.Contains(a):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	case teredo.Contains(a):
		// The client address is stored inverted in the last 32 bits.
		return netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]}), true
	}
	return netip.Addr{}, false
}

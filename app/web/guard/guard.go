package guard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ErrBlocked is matched (errors.Is) by every refusal of the guard, so
// callers can answer "forbidden" rather than "upstream failed".
var ErrBlocked = errors.New("blocked by SSRF guard")

// BlockedError says which host and address were refused and why.
type BlockedError struct {
	Host   string
	Addr   netip.Addr // invalid when the refusal is about the URL itself
	Reason string
}

func (e *BlockedError) Error() string {
	if e.Addr.IsValid() {
		return fmt.Sprintf("refusing to fetch %s: address %s is %s", e.Host, e.Addr, e.Reason)
	}
	return fmt.Sprintf("refusing to fetch %s: %s", e.Host, e.Reason)
}

// Is makes errors.Is(err, ErrBlocked) true.
func (e *BlockedError) Is(target error) bool { return target == ErrBlocked }

// Resolver looks up the addresses of a DNS name. Tests inject one so that
// names "resolve" into hostile ranges without any DNS traffic.
type Resolver func(ctx context.Context, host string) ([]netip.Addr, error)

// DialFunc opens a connection to an "ip:port" the guard has already checked.
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// Policy is what the operator allows beyond the public internet.
type Policy struct {
	// AllowPrivate opens loopback, private, link-local, unique-local,
	// shared and reserved ranges for every host (an intranet deployment).
	// Metadata, multicast, broadcast and unspecified stay closed.
	AllowPrivate bool
	// AllowHosts lists exceptions: a host name ("wiki.corp"), a domain
	// suffix ("*.corp" or ".corp"), whose addresses may then be in any
	// intranet range; or an IP address or CIDR prefix ("10.1.0.0/16"),
	// which is allowed whatever its class, metadata included.
	AllowHosts []string
}

// Guard checks URLs and addresses against a Policy and dials only what
// it has checked. The zero value refuses every non-public address and uses
// the system resolver and dialer.
type Guard struct {
	Policy  Policy
	Resolve Resolver // nil: the system resolver
	Dial    DialFunc // nil: a net.Dialer with a 10 s connect timeout
}

// CheckURL refuses URLs that are not plain http(s), carry credentials, or
// name a host that is refused before any resolution: an IP literal in any
// spelling in a closed range, or a localhost name.
func (g *Guard) CheckURL(u *url.URL) error {
	if u == nil {
		return &BlockedError{Reason: "no URL"}
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return &BlockedError{Host: u.Host, Reason: fmt.Sprintf("scheme %q is not http or https", u.Scheme)}
	}
	if u.User != nil {
		return &BlockedError{Host: u.Host, Reason: "URLs with credentials are not fetched"}
	}
	host := u.Hostname()
	if host == "" {
		return &BlockedError{Host: u.Host, Reason: "URL has no host"}
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return &BlockedError{Host: u.Host, Reason: fmt.Sprintf("invalid port %q", p)}
		}
	}
	_, err := g.literal(host)
	return err
}

// literal checks host when it is an IP literal or a localhost name and
// returns the literal's address, if any.
func (g *Guard) literal(host string) (netip.Addr, error) {
	addr, isIP, err := ParseHost(host)
	if err != nil {
		return netip.Addr{}, &BlockedError{Host: host, Reason: err.Error()}
	}
	if isIP {
		return addr, g.CheckAddr(host, addr)
	}
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		if !g.Policy.AllowPrivate && !g.nameAllowed(name) {
			return netip.Addr{}, &BlockedError{Host: host, Reason: "localhost names are loopback"}
		}
	}
	return netip.Addr{}, nil
}

// CheckAddr decides whether addr, reached for host, may be contacted.
func (g *Guard) CheckAddr(host string, addr netip.Addr) error {
	addr = addr.WithZone("")
	c := Classify(addr)
	if c == Public {
		return nil
	}
	if g.prefixAllowed(addr) {
		return nil
	}
	if c.intranet() && (g.Policy.AllowPrivate || g.nameAllowed(host)) {
		return nil
	}
	return &BlockedError{Host: host, Addr: addr, Reason: string(c)}
}

func (g *Guard) prefixAllowed(addr netip.Addr) bool {
	for _, h := range g.Policy.AllowHosts {
		if p, err := netip.ParsePrefix(h); err == nil && p.Contains(addr.Unmap()) {
			return true
		}
		if a, err := netip.ParseAddr(h); err == nil && a.Unmap() == addr.Unmap() {
			return true
		}
	}
	return false
}

func (g *Guard) nameAllowed(host string) bool {
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	for _, h := range g.Policy.AllowHosts {
		h = strings.ToLower(strings.TrimSuffix(h, "."))
		switch {
		case h == "":
		case strings.HasPrefix(h, "*."):
			if strings.HasSuffix(name, h[1:]) {
				return true
			}
		case strings.HasPrefix(h, "."):
			if strings.HasSuffix(name, h) {
				return true
			}
		case h == name:
			return true
		}
	}
	return false
}

// Lookup resolves host (an IP literal in any spelling, or a name) and checks
// every address it yields: one refused address refuses the host, because
// which of them a connection would use is not ours to predict.
func (g *Guard) Lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	lit, err := g.literal(host)
	if err != nil {
		return nil, err
	}
	if lit.IsValid() {
		return []netip.Addr{lit}, nil
	}
	resolve := g.Resolve
	if resolve == nil {
		resolve = func(ctx context.Context, h string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", h)
		}
	}
	addrs, err := resolve(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", host, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("resolving %s: no addresses", host)
	}
	for _, a := range addrs {
		if err := g.CheckAddr(host, a); err != nil {
			return nil, err
		}
	}
	return addrs, nil
}

// DialContext resolves and checks the host of address, dials the checked
// IPs only, and checks the peer address of the connection it got once more,
// so neither a second DNS answer nor a dialer that ends up elsewhere can
// reach a refused address. Use it as http.Transport.DialContext.
func (g *Guard) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(address)
	if err != nil {
		return nil, fmt.Errorf("dial %q: %w", address, err)
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("dial %q: bad port: %w", address, err)
	}
	addrs, err := g.Lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	dial := g.Dial
	if dial == nil {
		d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
		dial = d.DialContext
	}
	var errs []error
	for _, a := range addrs {
		target := netip.AddrPortFrom(a.Unmap(), uint16(port)).String()
		conn, err := dial(ctx, network, target)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := g.checkPeer(host, conn); err != nil {
			conn.Close()
			return nil, err
		}
		return conn, nil
	}
	return nil, fmt.Errorf("dial %s: %w", host, errors.Join(errs...))
}

func (g *Guard) checkPeer(host string, conn net.Conn) error {
	ra := conn.RemoteAddr()
	if ra == nil {
		return &BlockedError{Host: host, Reason: "connection has no peer address to verify"}
	}
	ap, err := netip.ParseAddrPort(ra.String())
	if err != nil {
		return &BlockedError{Host: host, Reason: fmt.Sprintf("cannot verify peer address %q", ra.String())}
	}
	return g.CheckAddr(host, ap.Addr())
}

// Client returns an HTTP client that connects only through the guard,
// ignores proxy environment variables (a proxy would do the connecting for
// us, unchecked), follows at most maxRedirects redirects, each re-checked,
// and gives up on the whole exchange after timeout.
func (g *Guard) Client(timeout time.Duration, maxRedirects int) *http.Client {
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            g.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  timeout,
		MaxIdleConns:           32,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        30 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{
		Transport: checkedTransport{g, tr},
		Timeout:   timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return fmt.Errorf("stopped after %d redirects", maxRedirects)
			}
			return g.CheckURL(req.URL)
		},
	}
}

// checkedTransport applies CheckURL to every request, the first included,
// so a caller that forgets to check cannot send credentials or use a
// refused literal.
type checkedTransport struct {
	g    *Guard
	base http.RoundTripper
}

func (t checkedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.g.CheckURL(req.URL); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	return t.base.RoundTrip(req)
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the
// pooled connections.
func (t checkedTransport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

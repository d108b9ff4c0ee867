// Package limit keeps one client from monopolising a proxy: a token-bucket
// request rate and a cap on concurrent requests per client address, plus an
// optional cap on concurrent requests from everyone together.
package limit

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"tinyrag/server/jsonerr"
)

// Config describes the limits of one route. Zero values mean "no limit".
type Config struct {
	Name       string  // shown in errors, e.g. "/api/fetch"
	PerMinute  float64 // sustained requests per minute per client
	Burst      int     // requests a client may make at once before the rate applies
	Concurrent int     // requests in flight per client
	Global     int     // requests in flight from all clients together
	// Trusted are the reverse proxies in front of the server. A request
	// from one of them is counted against the client its X-Forwarded-For
	// names (see ClientKeyTrusting); nil trusts nobody, and the header is
	// ignored, since any client can send it.
	Trusted []netip.Prefix
}

// Limiter enforces a Config. It is safe for concurrent use.
type Limiter struct {
	cfg    Config
	now    func() time.Time
	global chan struct{}

	mu      sync.Mutex
	clients map[string]*client
	seen    int
}

type client struct {
	rl       *rate.Limiter
	active   int
	lastSeen time.Time
}

// idleAfter is how long a client's state is kept after its last request.
const idleAfter = 10 * time.Minute

// New returns a Limiter for cfg.
func New(cfg Config) *Limiter {
	l := &Limiter{cfg: cfg, now: time.Now, clients: map[string]*client{}}
	if cfg.Global > 0 {
		l.global = make(chan struct{}, cfg.Global)
	}
	return l
}

// ClientKey identifies the client of r: its IP address, with IPv6
// addresses grouped by /64, since one host usually owns a whole /64.
func ClientKey(r *http.Request) string { return ClientKeyTrusting(r, nil) }

// ClientKeyTrusting is ClientKey for a server behind the trusted reverse
// proxies: when r comes from one of them, the client is the right-most
// X-Forwarded-For address that is not itself a trusted proxy — each proxy
// appends the address it saw, so entries further left are whatever the
// client claimed and are never believed.
func ClientKeyTrusting(r *http.Request, trusted []netip.Prefix) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	a = a.Unmap()
	if isTrusted(a, trusted) {
		if c, ok := forwardedClient(r.Header.Values("X-Forwarded-For"), trusted); ok {
			a = c
		}
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// forwardedClient walks X-Forwarded-For from the right to the first
// address that is not a trusted proxy. A malformed entry where a trusted
// proxy should have written an address ends the walk without an answer.
func forwardedClient(headers []string, trusted []netip.Prefix) (netip.Addr, bool) {
	var hops []string
	for _, h := range headers {
		hops = append(hops, strings.Split(h, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := parseHop(hops[i])
		if !ok {
			return netip.Addr{}, false
		}
		if !isTrusted(a, trusted) {
			return a, true
		}
	}
	return netip.Addr{}, false
}

// parseHop reads one X-Forwarded-For entry: an address, some proxies add
// a port ("192.0.2.1:5678", "[2001:db8::1]:443") or brackets.
func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Wrap returns next behind the limits. Refusals are 429 (this client is
// over its share) or 503 (the server as a whole is busy), with Retry-After.
func (l *Limiter) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		release, status, msg, retry := l.acquire(ClientKeyTrusting(r, l.cfg.Trusted))
		if status != 0 {
			w.Header().Set("Retry-After", strconv.Itoa(retry))
			jsonerr.Write(w, status, "%s", msg)
			return
		}
		defer release()
		next.ServeHTTP(w, r)
	})
}

// acquire admits one request of key or says why not.
func (l *Limiter) acquire(key string) (release func(), status int, msg string, retryAfter int) {
	now := l.now()
	l.mu.Lock()
	l.seen++
	if l.seen%256 == 0 {
		l.sweep(now)
	}
	c := l.clients[key]
	if c == nil {
		c = &client{rl: rate.NewLimiter(l.rateLimit(), l.burst())}
		l.clients[key] = c
	}
	c.lastSeen = now
	if l.cfg.Concurrent > 0 && c.active >= l.cfg.Concurrent {
		l.mu.Unlock()
		return nil, http.StatusTooManyRequests,
			fmt.Sprintf("too many concurrent requests to %s: at most %d at a time per client", l.cfg.Name, l.cfg.Concurrent), 1
	}
	if l.cfg.PerMinute > 0 {
		res := c.rl.ReserveN(now, 1)
		if d := res.DelayFrom(now); d > 0 {
			res.CancelAt(now)
			l.mu.Unlock()
			return nil, http.StatusTooManyRequests,
				fmt.Sprintf("rate limit for %s exceeded: %g requests per minute per client", l.cfg.Name, l.cfg.PerMinute),
				int(math.Ceil(d.Seconds()))
		}
	}
	c.active++
	l.mu.Unlock()

	if l.global != nil {
		select {
		case l.global <- struct{}{}:
		default:
			l.done(c)
			return nil, http.StatusServiceUnavailable,
				fmt.Sprintf("%s is busy: %d requests in flight; try again shortly", l.cfg.Name, l.cfg.Global), 1
		}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if l.global != nil {
				<-l.global
			}
			l.done(c)
		})
	}, 0, "", 0
}

func (l *Limiter) done(c *client) {
	l.mu.Lock()
	c.active--
	c.lastSeen = l.now()
	l.mu.Unlock()
}

func (l *Limiter) rateLimit() rate.Limit {
	if l.cfg.PerMinute <= 0 {
		return rate.Inf
	}
	return rate.Limit(l.cfg.PerMinute / 60)
}

func (l *Limiter) burst() int {
	if l.cfg.Burst > 0 {
		return l.cfg.Burst
	}
	return 1
}

// sweep forgets idle clients so the map stays as small as the set of
// recent clients. Called with l.mu held.
func (l *Limiter) sweep(now time.Time) {
	for k, c := range l.clients {
		if c.active == 0 && now.Sub(c.lastSeen) > idleAfter {
			delete(l.clients, k)
		}
	}
}

// Clients reports how many clients the limiter currently remembers.
func (l *Limiter) Clients() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.clients)
}

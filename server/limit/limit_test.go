package limit

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestLimiter_RatePerClient(t *testing.T) {
	ck := &clock{time.Unix(1_000_000, 0)}
	l := New(Config{Name: "/api/fetch", PerMinute: 60, Burst: 2})
	l.now = ck.now
	steps := []struct {
		advance time.Duration
		client  string
		want    int
	}{
		{0, "a", 0},
		{0, "a", 0},
		{0, "a", http.StatusTooManyRequests}, // burst spent
		{0, "b", 0},                          // another client has its own bucket
		{time.Second, "a", 0},                // one token back after a second
		{0, "a", http.StatusTooManyRequests},
	}
	for i, s := range steps {
		ck.t = ck.t.Add(s.advance)
		release, status, msg, _ := l.acquire(s.client)
		if status != s.want {
			t.Fatalf("step %d (%s): status %d (%s), want %d", i, s.client, status, msg, s.want)
		}
		if release != nil {
			release()
		}
	}
}

func TestLimiter_Concurrency(t *testing.T) {
	l := New(Config{Name: "/api/llm", Concurrent: 2, Global: 3})
	r1, s1, _, _ := l.acquire("a")
	r2, s2, _, _ := l.acquire("a")
	_, s3, msg3, _ := l.acquire("a")
	if s1 != 0 || s2 != 0 || s3 != http.StatusTooManyRequests || !strings.Contains(msg3, "at most 2") {
		t.Fatalf("statuses %d %d %d (%s), want 0 0 429", s1, s2, s3, msg3)
	}
	r4, s4, _, _ := l.acquire("b")
	_, s5, msg5, _ := l.acquire("c")
	if s4 != 0 || s5 != http.StatusServiceUnavailable || !strings.Contains(msg5, "busy") {
		t.Fatalf("global cap: %d %d (%s), want 0 503", s4, s5, msg5)
	}
	r1()
	r1() // releasing twice must not free a second slot
	r6, s6, _, _ := l.acquire("a")
	_, s7, _, _ := l.acquire("c")
	if s6 != 0 || s7 != http.StatusServiceUnavailable {
		t.Fatalf("after one release: %d %d, want 0 503", s6, s7)
	}
	r2()
	r4()
	r6()
	if _, s, _, _ := l.acquire("c"); s != 0 {
		t.Fatalf("after all releases: %d, want 0", s)
	}
}

func TestLimiter_ForgetsIdleClients(t *testing.T) {
	ck := &clock{time.Unix(1_000_000, 0)}
	l := New(Config{PerMinute: 6000, Burst: 1000})
	l.now = ck.now
	for i := 0; i < 100; i++ {
		release, _, _, _ := l.acquire(fmt.Sprint("old", i))
		release()
	}
	ck.t = ck.t.Add(idleAfter + time.Minute)
	for i := 0; i < 300; i++ {
		release, _, _, _ := l.acquire("new")
		release()
	}
	if n := l.Clients(); n != 1 {
		t.Fatalf("%d clients remembered, want only the active one", n)
	}
}

func TestWrap_RefusalIsJSONWithRetryAfter(t *testing.T) {
	l := New(Config{Name: "/api/search", PerMinute: 1, Burst: 1})
	h := l.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	do := func() *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/api/search?q=x", nil)
		req.RemoteAddr = "192.0.2.1:5555"
		h.ServeHTTP(rec, req)
		return rec
	}
	if rec := do(); rec.Code != 200 || rec.Body.String() != "ok" {
		t.Fatalf("first: %d %q", rec.Code, rec.Body)
	}
	rec := do()
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" ||
		!strings.Contains(rec.Body.String(), `"error":"rate limit for /api/search exceeded`) {
		t.Fatalf("second: %d %q Retry-After=%q", rec.Code, rec.Body, rec.Header().Get("Retry-After"))
	}
}

func TestClientKey(t *testing.T) {
	tests := []struct{ remote, want string }{
		{"192.0.2.1:1234", "192.0.2.1"},
		{"[::ffff:192.0.2.1]:1234", "192.0.2.1"},
		{"[2001:db8:1:2:aaaa::1]:1234", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:bbbb::9]:99", "2001:db8:1:2::/64"},
		{"weird", "weird"},
	}
	for _, tt := range tests {
		r := &http.Request{RemoteAddr: tt.remote}
		if got := ClientKey(r); got != tt.want {
			t.Errorf("ClientKey(%q) = %q, want %q", tt.remote, got, tt.want)
		}
	}
}

func TestClientKeyTrusting_BelievesForwardedForOnlyFromTrustedProxies(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("10.0.0.0/8")}
	tests := []struct {
		name, remote string
		xff          []string
		want         string
	}{
		{"a direct client's header is ignored", "192.0.2.1:1234", []string{"198.51.100.7"}, "192.0.2.1"},
		{"the trusted proxy's entry names the client", "127.0.0.1:40000", []string{"198.51.100.7"}, "198.51.100.7"},
		{"what the client claimed left of it is not believed", "127.0.0.1:40000", []string{"203.0.113.9, 198.51.100.7"}, "198.51.100.7"},
		{"trusted hops are skipped", "127.0.0.1:40000", []string{"198.51.100.7, 10.1.2.3"}, "198.51.100.7"},
		{"several header lines count as one list", "127.0.0.1:40000", []string{"203.0.113.9", "198.51.100.7"}, "198.51.100.7"},
		{"an entry with a port", "127.0.0.1:40000", []string{"198.51.100.7:5678"}, "198.51.100.7"},
		{"an IPv6 client is grouped by /64", "127.0.0.1:40000", []string{"[2001:db8:1:2:aaaa::1]"}, "2001:db8:1:2::/64"},
		{"an IPv4-mapped entry", "127.0.0.1:40000", []string{"::ffff:198.51.100.7"}, "198.51.100.7"},
		{"no header: the proxy itself", "127.0.0.1:40000", nil, "127.0.0.1"},
		{"only trusted hops: the proxy itself", "127.0.0.1:40000", []string{"10.0.0.5"}, "127.0.0.1"},
		{"a malformed last entry: the proxy itself", "127.0.0.1:40000", []string{"198.51.100.7, unknown"}, "127.0.0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &http.Request{RemoteAddr: tt.remote, Header: http.Header{}}
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := ClientKeyTrusting(r, trusted); got != tt.want {
				t.Errorf("ClientKeyTrusting = %q, want %q", got, tt.want)
			}
			if got, want := ClientKey(r), ClientKeyTrusting(r, nil); got != want {
				t.Errorf("ClientKey = %q, differs from trusting nobody (%q)", got, want)
			}
		})
	}
}

func TestWrap_ClientsBehindATrustedProxyHaveTheirOwnLimits(t *testing.T) {
	behind := func(trusted []netip.Prefix) func(xff string) int {
		h := New(Config{Name: "/api/fetch", PerMinute: 1, Burst: 1, Trusted: trusted}).
			Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		return func(xff string) int {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodGet, "/api/fetch?url=x", nil)
			req.RemoteAddr = "127.0.0.1:40000"
			req.Header.Set("X-Forwarded-For", xff)
			h.ServeHTTP(rec, req)
			return rec.Code
		}
	}
	trusting := behind([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")})
	if a, b := trusting("198.51.100.7"), trusting("198.51.100.8"); a != 200 || b != 200 {
		t.Errorf("two clients behind a trusted proxy: %d, %d; want both admitted", a, b)
	}
	if c := trusting("198.51.100.7"); c != http.StatusTooManyRequests {
		t.Errorf("the first client again: %d, want 429", c)
	}
	untrusting := behind(nil)
	if a, b := untrusting("198.51.100.7"), untrusting("198.51.100.8"); a != 200 || b != http.StatusTooManyRequests {
		t.Errorf("without trust: %d, %d; want the proxy counted as one client", a, b)
	}
}

package limit

import (
	"fmt"
	"net/http"
	"net/http/httptest"
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

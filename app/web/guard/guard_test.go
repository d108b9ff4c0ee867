package guard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// publicStandIn is the "internet" address our fake resolver hands out for
// benign names; the fake dialer connects it to the loopback test server.
var publicStandIn = netip.MustParseAddr("93.184.216.34")

// world is a closed test network: a resolver and a dialer that never let a
// packet leave loopback. A dial to anything but the loopback test server or
// the public stand-in is recorded as a leak, so a broken guard fails the
// test instead of sending traffic.
type world struct {
	t      *testing.T
	server netip.AddrPort // the httptest server
	names  map[string][]netip.Addr

	mu     sync.Mutex
	leaks  []string
	dialed []string
	peer   netip.Addr // if valid, every connection claims this peer address
}

func newWorld(t *testing.T, srv *httptest.Server) *world {
	t.Helper()
	u, _ := url.Parse(srv.URL)
	return &world{
		t:      t,
		server: netip.MustParseAddrPort(u.Host),
		names: map[string][]netip.Addr{
			"public.test":   {publicStandIn},
			"private.test":  {netip.MustParseAddr("10.0.0.7")},
			"mixed.test":    {publicStandIn, netip.MustParseAddr("192.168.0.10")},
			"meta.test":     {netip.MustParseAddr("169.254.169.254")},
			"mapped.test":   {netip.MustParseAddr("::ffff:10.1.1.1")},
			"ula.test":      {netip.MustParseAddr("fd00::5")},
			"loop6.test":    {netip.MustParseAddr("::1")},
			"wiki.corp":     {netip.MustParseAddr("10.20.30.40")},
			"metawiki.corp": {netip.MustParseAddr("169.254.169.254")},
		},
	}
}

func (w *world) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, ok := w.names[host]; ok {
		return a, nil
	}
	return nil, fmt.Errorf("no such host %q", host)
}

func (w *world) dial(ctx context.Context, network, address string) (net.Conn, error) {
	w.mu.Lock()
	w.dialed = append(w.dialed, address)
	w.mu.Unlock()
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return nil, fmt.Errorf("test dialer: %q is not ip:port", address)
	}
	claimed := ap.Addr()
	switch {
	case ap == w.server:
	case ap.Addr() == publicStandIn, ap.Addr() == netip.MustParseAddr("10.20.30.40"):
		// Stand-ins for hosts that are really reached: route to loopback.
	default:
		w.mu.Lock()
		w.leaks = append(w.leaks, address)
		w.mu.Unlock()
		return nil, fmt.Errorf("test dialer: refused to leave loopback for %s", address)
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", w.server.String())
	if err != nil {
		return nil, err
	}
	if w.peer.IsValid() {
		claimed = w.peer
	}
	return peerConn{c, net.TCPAddrFromAddrPort(netip.AddrPortFrom(claimed, ap.Port()))}, nil
}

func (w *world) noLeaks() {
	w.t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.leaks) > 0 {
		w.t.Errorf("guard let dials through to refused addresses: %v", w.leaks)
	}
}

// peerConn reports the address the fake network says we reached.
type peerConn struct {
	net.Conn
	remote net.Addr
}

func (c peerConn) RemoteAddr() net.Addr { return c.remote }

func okServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "hello from ", r.Host)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	mux.HandleFunc("/chain/", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/chain/"), "%d", &n)
		if n == 0 {
			fmt.Fprint(w, "end of chain")
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/chain/%d", n-1), http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func get(c *http.Client, u string) (string, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func TestClient_HostileURLsAreRefusedWithoutTraffic(t *testing.T) {
	srv := okServer(t)
	port := newWorld(t, srv).server.Port()
	hostile := []string{
		"http://127.0.0.1:%d/",
		"http://127.1:%d/",
		"http://2130706433:%d/",
		"http://0x7f000001:%d/",
		"http://0177.0.0.1:%d/",
		"http://0x7f.0.0.1:%d/",
		"http://[::1]:%d/",
		"http://[::ffff:127.0.0.1]:%d/",
		"http://[::ffff:7f00:1]:%d/",
		"http://[0:0:0:0:0:ffff:a00:1]:%d/",
		"http://[64:ff9b::a00:1]:%d/",
		"http://[2002:a00:1::1]:%d/",
		"http://localhost:%d/",
		"http://api.localhost:%d/",
		"http://10.0.0.1:%d/",
		"http://172.16.5.4:%d/",
		"http://192.168.1.1:%d/",
		"http://100.64.1.1:%d/",
		"http://169.254.1.1:%d/",
		"http://169.254.169.254:%d/latest/meta-data/",
		"http://0xa9fea9fe:%d/",
		"http://[fd00:ec2::254]:%d/",
		"http://100.100.100.200:%d/",
		"http://[fe80::1]:%d/",
		"http://[fc00::1]:%d/",
		"http://[fd12::1]:%d/",
		"http://0.0.0.0:%d/",
		"http://0:%d/",
		"http://[::]:%d/",
		"http://224.0.0.1:%d/",
		"http://[ff02::1]:%d/",
		"http://255.255.255.255:%d/",
		"http://240.0.0.1:%d/",
		"http://private.test:%d/",
		"http://mixed.test:%d/",
		"http://meta.test:%d/",
		"http://mapped.test:%d/",
		"http://ula.test:%d/",
		"http://loop6.test:%d/",
		"http://1.2.3.4.5:%d/",
		"ftp://public.test:%d/",
		"file:///etc/passwd%.0d",
		"gopher://public.test:%d/",
		"http://user:pw@public.test:%d/",
	}
	for _, h := range hostile {
		u := fmt.Sprintf(h, port)
		t.Run(u, func(t *testing.T) {
			w := newWorld(t, srv)
			g := &Guard{Resolve: w.resolve, Dial: w.dial}
			pu, err := url.Parse(u)
			if err == nil {
				if err := g.CheckURL(pu); err == nil && pu.Scheme != "http" {
					t.Errorf("CheckURL(%s) accepted a non-http scheme", u)
				}
			}
			c := g.Client(5*time.Second, 5)
			// The client alone would reject non-http schemes itself; the
			// point here is that nothing is dialed.
			if body, err := get(c, u); err == nil {
				t.Fatalf("GET %s succeeded (%q), want refusal", u, body)
			}
			w.noLeaks()
		})
	}
}

func TestClient_RedirectIntoClosedRangeIsRefused(t *testing.T) {
	srv := okServer(t)
	targets := []string{
		"http://10.0.0.1/",
		"http://169.254.169.254/latest/meta-data/",
		"http://[::ffff:192.168.0.1]/",
		"http://2130706433/",
		"http://private.test/",
		"http://localhost/",
		"file:///etc/passwd",
	}
	for _, to := range targets {
		t.Run(to, func(t *testing.T) {
			w := newWorld(t, srv)
			g := &Guard{Resolve: w.resolve, Dial: w.dial}
			start := fmt.Sprintf("http://public.test:%d/redirect?to=%s", w.server.Port(), url.QueryEscape(to))
			_, err := get(g.Client(5*time.Second, 5), start)
			if err == nil {
				t.Fatalf("redirect to %s was followed", to)
			}
			if !errors.Is(err, ErrBlocked) && !strings.Contains(err.Error(), "unsupported protocol scheme") {
				t.Errorf("err = %v, want a guard refusal", err)
			}
			w.noLeaks()
		})
	}
}

func TestClient_RedirectLimitIsFive(t *testing.T) {
	srv := okServer(t)
	tests := []struct {
		hops   int
		wantOK bool
	}{{0, true}, {5, true}, {6, false}}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.hops), func(t *testing.T) {
			w := newWorld(t, srv)
			g := &Guard{Resolve: w.resolve, Dial: w.dial}
			body, err := get(g.Client(5*time.Second, 5), fmt.Sprintf("http://public.test:%d/chain/%d", w.server.Port(), tt.hops))
			if tt.wantOK && (err != nil || body != "end of chain") {
				t.Fatalf("%d hops: body %q err %v, want end of chain", tt.hops, body, err)
			}
			if !tt.wantOK && err == nil {
				t.Fatalf("%d hops were followed, want a refusal", tt.hops)
			}
		})
	}
}

func TestClient_AllowedURLsWork(t *testing.T) {
	srv := okServer(t)
	tests := []struct {
		name   string
		policy Policy
		host   string // %d is the test server port
	}{
		{"public name", Policy{}, "public.test:%d"},
		{"loopback with explicit prefix allowance", Policy{AllowHosts: []string{"127.0.0.1/32"}}, "127.0.0.1:%d"},
		{"loopback with allow-private", Policy{AllowPrivate: true}, "127.0.0.1:%d"},
		{"intranet name on the allowlist", Policy{AllowHosts: []string{"wiki.corp"}}, "wiki.corp:%d"},
		{"intranet domain suffix on the allowlist", Policy{AllowHosts: []string{"*.corp"}}, "wiki.corp:%d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, srv)
			g := &Guard{Policy: tt.policy, Resolve: w.resolve, Dial: w.dial}
			body, err := get(g.Client(5*time.Second, 5), "http://"+fmt.Sprintf(tt.host, w.server.Port())+"/")
			if err != nil || !strings.HasPrefix(body, "hello from") {
				t.Fatalf("body %q err %v, want the test page", body, err)
			}
			w.noLeaks()
		})
	}
}

func TestGuard_AllowancesNeverOpenMetadata(t *testing.T) {
	srv := okServer(t)
	tests := []struct {
		name   string
		policy Policy
		url    string
	}{
		{"allow-private", Policy{AllowPrivate: true}, "http://169.254.169.254/"},
		{"allow-private, mapped", Policy{AllowPrivate: true}, "http://[::ffff:169.254.169.254]/"},
		{"allowlisted name resolving to metadata", Policy{AllowHosts: []string{"metawiki.corp"}}, "http://metawiki.corp/"},
		{"allow-private, multicast", Policy{AllowPrivate: true}, "http://224.0.0.1/"},
		{"allow-private, unspecified", Policy{AllowPrivate: true}, "http://0.0.0.0/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, srv)
			g := &Guard{Policy: tt.policy, Resolve: w.resolve, Dial: w.dial}
			if _, err := get(g.Client(5*time.Second, 5), tt.url); !errors.Is(err, ErrBlocked) {
				t.Fatalf("err = %v, want ErrBlocked", err)
			}
			w.noLeaks()
		})
	}
}

func TestDial_RebindingCannotReachPrivateAddress(t *testing.T) {
	srv := okServer(t)
	w := newWorld(t, srv)
	var calls int
	var mu sync.Mutex
	// The first answer is public, every later one private: the classic
	// rebinding attack against check-then-fetch code.
	rebind := func(ctx context.Context, host string) ([]netip.Addr, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 {
			return []netip.Addr{publicStandIn}, nil
		}
		return []netip.Addr{netip.MustParseAddr("10.0.0.7")}, nil
	}
	g := &Guard{Resolve: rebind, Dial: w.dial}
	c := &http.Client{Transport: &http.Transport{DialContext: g.DialContext, DisableKeepAlives: true}}
	u := fmt.Sprintf("http://rebind.test:%d/", w.server.Port())
	if _, err := get(c, u); err != nil {
		t.Fatalf("first fetch (public answer): %v", err)
	}
	if _, err := get(c, u); !errors.Is(err, ErrBlocked) {
		t.Fatalf("second fetch (private answer): err = %v, want ErrBlocked", err)
	}
	w.noLeaks()
}

func TestDial_PeerAddressIsCheckedAfterConnect(t *testing.T) {
	srv := okServer(t)
	w := newWorld(t, srv)
	// The network delivers us somewhere else than we dialed (a transparent
	// proxy, a NAT64 box): the guard must look at where it actually landed.
	w.peer = netip.MustParseAddr("10.9.9.9")
	g := &Guard{Resolve: w.resolve, Dial: w.dial}
	_, err := get(g.Client(5*time.Second, 5), fmt.Sprintf("http://public.test:%d/", w.server.Port()))
	var be *BlockedError
	if !errors.As(err, &be) || be.Addr != w.peer {
		t.Fatalf("err = %v, want a refusal naming peer %s", err, w.peer)
	}
}

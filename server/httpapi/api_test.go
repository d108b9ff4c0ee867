package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"

	"tinyrag/app/web"
	"tinyrag/server/llmproxy"
)

// apiServer mounts the /api routes as `tinyrag serve ARGS…` would, with
// getenv as the environment, and returns the server and its log.
func apiServer(t *testing.T, env map[string]string, args []string, hook func(o *Options)) (*httptest.Server, *syncBuffer) {
	t.Helper()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	o := NewOptions(fs, func(k string) string { return env[k] })
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	// Never probe this machine's real ports from a test unless asked to.
	o.probeCandidates = []llmproxy.Candidate{}
	if hook != nil {
		hook(o)
	}
	logs := &syncBuffer{}
	mux := http.NewServeMux()
	if err := Mount(context.Background(), mux, Env{Addr: "127.0.0.1:0", Log: slog.New(slog.NewJSONHandler(logs, nil))}, o); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, logs
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type reply struct {
	status int
	body   string
	err    string
}

func call(t *testing.T, method, u string) reply {
	t.Helper()
	req, _ := http.NewRequest(method, u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, body: string(b)}
	if resp.StatusCode != 200 {
		var e struct{ Error string }
		if json.Unmarshal(b, &e) != nil || e.Error == "" {
			t.Fatalf("%s %s: status %d with body %q, want {\"error\":…}", method, u, resp.StatusCode, b)
		}
		r.err = e.Error
	}
	return r
}

// pages is the loopback web the fetch tests may reach.
func pages(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/doc", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><head><title>Tea</title></head><body><p>Green tea is steeped at 80 degrees.</p></body></html>")
	})
	mux.HandleFunc("/go", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	mux.HandleFunc("/pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		fmt.Fprint(w, "%PDF-1.7")
	})
	mux.HandleFunc("/gone", http.NotFound)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// closedNet resolves test names and dials only the loopback page server:
// "public.test" stands for an internet host (the connection goes to the
// page server but reports a public peer), everything else that reaches
// the dialer is recorded as a leak.
type closedNet struct {
	pages netip.AddrPort
	mu    sync.Mutex
	leaks []string
}

var internet = netip.MustParseAddr("93.184.216.34")

func (c *closedNet) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	switch host {
	case "public.test":
		return []netip.Addr{internet}, nil
	case "intranet.test":
		return []netip.Addr{netip.MustParseAddr("10.1.2.3")}, nil
	case "rebind.test":
		return []netip.Addr{internet, netip.MustParseAddr("169.254.169.254")}, nil
	case "v6.test":
		return []netip.Addr{netip.MustParseAddr("::ffff:192.168.1.1")}, nil
	}
	return nil, fmt.Errorf("no such host %s", host)
}

func (c *closedNet) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	ap := netip.MustParseAddrPort(addr)
	if ap.Addr() != internet && ap != c.pages {
		c.mu.Lock()
		c.leaks = append(c.leaks, addr)
		c.mu.Unlock()
		return nil, fmt.Errorf("test network: no route to %s", addr)
	}
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", c.pages.String())
	if err != nil {
		return nil, err
	}
	return reportedPeer{conn, net.TCPAddrFromAddrPort(ap)}, nil
}

type reportedPeer struct {
	net.Conn
	peer net.Addr
}

func (r reportedPeer) RemoteAddr() net.Addr { return r.peer }

func TestAPIFetch_HostileURLsAre403WithoutTraffic(t *testing.T) {
	pg := pages(t)
	cn := &closedNet{pages: netip.MustParseAddrPort(strings.TrimPrefix(pg.URL, "http://"))}
	// A rate so high that its bucket refills between any two requests: this
	// test makes many quick ones, and the limiter is tested elsewhere.
	srv, _ := apiServer(t, nil, []string{"--web-rate", "1e9"}, func(o *Options) { o.resolve, o.dial = cn.resolve, cn.dial })
	port := cn.pages.Port()
	redirect := func(to string) string {
		return fmt.Sprintf("http://public.test:%d/go?to=%s", port, url.QueryEscape(to))
	}
	hostile := []string{
		pg.URL + "/doc", // the loopback server itself, without an allowance
		fmt.Sprintf("http://2130706433:%d/doc", port),
		fmt.Sprintf("http://0x7f.1:%d/doc", port),
		fmt.Sprintf("http://017700000001:%d/doc", port),
		fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/doc", port),
		fmt.Sprintf("http://localhost:%d/doc", port),
		"http://10.0.0.1/", "http://172.20.0.1/", "http://192.168.0.1/", "http://100.64.0.1/",
		"http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://100.100.100.200/",
		"http://[fe80::1]/", "http://[fc00::1]/", "http://0.0.0.0/", "http://[::]/", "http://224.0.0.1/",
		"http://[64:ff9b::a9fe:a9fe]/", "http://[2002:c0a8:101::]/",
		"http://intranet.test/", "http://rebind.test/", "http://v6.test/",
		redirect("http://10.0.0.1/"),
		redirect("http://169.254.169.254/"),
		redirect(fmt.Sprintf("http://127.0.0.1:%d/doc", port)),
		redirect("http://intranet.test/"),
		"file:///etc/passwd", "gopher://public.test/",
	}
	for _, u := range hostile {
		for _, mode := range []string{"", "&raw=1"} {
			t.Run(u+mode, func(t *testing.T) {
				r := call(t, http.MethodGet, srv.URL+"/api/fetch?url="+url.QueryEscape(u)+mode)
				if r.status != http.StatusForbidden {
					t.Fatalf("status %d (%s), want 403", r.status, r.body)
				}
			})
		}
	}
	if len(cn.leaks) > 0 {
		t.Fatalf("dials reached refused addresses: %v", cn.leaks)
	}
	// The same closed network does let an ordinary public host through.
	if r := call(t, http.MethodGet, srv.URL+"/api/fetch?url="+url.QueryEscape(fmt.Sprintf("http://public.test:%d/doc", port))); r.status != 200 {
		t.Fatalf("public host: %d %s", r.status, r.body)
	}
}

func TestAPIFetch_AllowancesOpenOnlyWhatTheySay(t *testing.T) {
	pg := pages(t)
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want int
	}{
		{"no allowance", nil, nil, 403},
		{"--fetch-allow-host with the loopback prefix", []string{"--fetch-allow-host", "127.0.0.1/32"}, nil, 200},
		{"TINYRAG_FETCH_ALLOW_HOSTS", nil, map[string]string{"TINYRAG_FETCH_ALLOW_HOSTS": "127.0.0.0/8"}, 200},
		{"--fetch-allow-private", []string{"--fetch-allow-private"}, nil, 200},
		{"another prefix does not help", []string{"--fetch-allow-host", "10.0.0.0/8"}, nil, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := apiServer(t, tt.env, tt.args, nil)
			r := call(t, http.MethodGet, srv.URL+"/api/fetch?url="+url.QueryEscape(pg.URL+"/doc"))
			if r.status != tt.want {
				t.Fatalf("status %d (%s), want %d", r.status, r.body, tt.want)
			}
			if tt.want != 200 {
				return
			}
			var p struct{ URL, Title, ContentType, Text string }
			json.Unmarshal([]byte(r.body), &p)
			if p.URL != pg.URL+"/doc" || p.Title != "Tea" || !strings.Contains(p.Text, "Green tea is steeped at 80 degrees.") {
				t.Fatalf("page %+v", p)
			}
			if !strings.Contains(r.body, `"content_type":"text/html"`) {
				t.Fatalf("body lacks the content type: %s", r.body)
			}
		})
	}
}

func TestAPIFetch_ErrorsHaveFittingStatus(t *testing.T) {
	pg := pages(t)
	srv, _ := apiServer(t, nil, []string{"--fetch-allow-host=127.0.0.1"}, nil)
	tests := []struct {
		name, method, query string
		want                int
	}{
		{"missing url", "GET", "", 400},
		{"not a url", "GET", "url=hello", 400},
		{"not found upstream", "GET", "url=" + url.QueryEscape(pg.URL+"/gone"), 502},
		{"pdf", "GET", "url=" + url.QueryEscape(pg.URL+"/pdf"), 415},
		{"pdf raw", "GET", "raw=1&url=" + url.QueryEscape(pg.URL+"/pdf"), 200},
		{"not found upstream, raw", "GET", "raw=1&url=" + url.QueryEscape(pg.URL+"/gone"), 502},
		{"redirect target followed", "GET", "url=" + url.QueryEscape(pg.URL+"/go?to=/doc"), 200},
		{"post", "POST", "url=" + url.QueryEscape(pg.URL+"/doc"), 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r := call(t, tt.method, srv.URL+"/api/fetch?"+tt.query); r.status != tt.want {
				t.Fatalf("status %d (%s), want %d", r.status, r.body, tt.want)
			}
		})
	}
}

func TestAPIFetch_RawAnswersTheBodyAsAnInertDownload(t *testing.T) {
	pg := pages(t)
	srv, _ := apiServer(t, nil, []string{"--fetch-allow-host=127.0.0.1"}, nil)
	for _, tc := range []struct {
		path, wantType, wantBody string
	}{
		{"/pdf", "application/pdf", "%PDF-1.7"},
		// Markup especially must not be served as markup by our origin.
		{"/doc", "text/html; charset=utf-8", "<html><head><title>Tea</title>"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp, err := http.Get(srv.URL + "/api/fetch?raw=1&url=" + url.QueryEscape(pg.URL+tc.path))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			h := resp.Header
			if resp.StatusCode != 200 || !strings.HasPrefix(string(body), tc.wantBody) {
				t.Fatalf("status %d, body %q; want 200 and %q", resp.StatusCode, body, tc.wantBody)
			}
			for name, want := range map[string]string{
				"Content-Type":           "application/octet-stream",
				"Content-Disposition":    "attachment",
				"X-Content-Type-Options": "nosniff",
				"X-Tinyrag-Content-Type": tc.wantType,
				"X-Tinyrag-Url":          pg.URL + tc.path,
			} {
				if got := h.Get(name); got != want {
					t.Errorf("%s: %q, want %q", name, got, want)
				}
			}
		})
	}
}

func searx(t *testing.T, status int) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		q := r.URL.Query().Get("q")
		fmt.Fprintf(w, `{"results":[{"title":"About %s","url":"https://example.org/1","content":"first"},{"title":"More","url":"https://example.org/2","content":"second"}]}`, q)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestAPISearch(t *testing.T) {
	ok, down := searx(t, 200), searx(t, 500)
	tests := []struct {
		name    string
		backend string
		query   string
		want    int
		results int
	}{
		{"results", ok.URL, "q=tea", 200, 2},
		{"n limits", ok.URL, "q=tea&n=1", 200, 1},
		{"missing q", ok.URL, "", 400, 0},
		{"bad n", ok.URL, "q=tea&n=99", 400, 0},
		{"backend failing", down.URL, "q=tea", 502, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := apiServer(t, nil, []string{"--search-backend", "searxng", "--search-url", tt.backend}, nil)
			r := call(t, http.MethodGet, srv.URL+"/api/search?"+tt.query)
			if r.status != tt.want {
				t.Fatalf("status %d (%s), want %d", r.status, r.body, tt.want)
			}
			if tt.want != 200 {
				return
			}
			var body struct {
				Results []struct{ Title, URL, Snippet string }
			}
			json.Unmarshal([]byte(r.body), &body)
			if len(body.Results) != tt.results || body.Results[0].Title != "About tea" || body.Results[0].Snippet != "first" {
				t.Fatalf("results %+v", body.Results)
			}
		})
	}
}

func TestAPI_BadSearchConfigStopsStartup(t *testing.T) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	o := NewOptions(fs, func(string) string { return "" })
	fs.Parse([]string{"--search-backend", "searxng"})
	o.probeCandidates = []llmproxy.Candidate{}
	err := Mount(context.Background(), http.NewServeMux(), Env{}, o)
	if err == nil || !strings.Contains(err.Error(), "--searxng-url") && !strings.Contains(err.Error(), "URL") {
		t.Fatalf("err = %v, want a message naming the missing URL", err)
	}
}

func TestAPI_NoWebTurnsFetchAndSearchOff(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
	}{
		{[]string{"--no-web"}, nil},
		{nil, map[string]string{"TINYRAG_NO_WEB": "1"}},
		{nil, map[string]string{"TINYRAG_NO_WEB": "yes"}},
		{nil, map[string]string{"TINYRAG_NO_WEB": "On"}},
	} {
		srv, _ := apiServer(t, tc.env, tc.args, nil)
		for _, p := range []string{"/api/fetch?url=https%3A%2F%2Fexample.org%2F", "/api/search?q=x"} {
			if r := call(t, http.MethodGet, srv.URL+p); r.status != 403 || !strings.Contains(r.err, "disabled") {
				t.Errorf("%s: %d %q, want 403 disabled", p, r.status, r.err)
			}
		}
		r := call(t, http.MethodGet, srv.URL+"/api/config")
		if !strings.Contains(r.body, `"web":{"enabled":false}`) {
			t.Errorf("config %s does not say web is off", r.body)
		}
	}
}

func TestAPIConfig_DescribesFeaturesWithoutSecrets(t *testing.T) {
	upstream := httptest.NewServer(http.NotFoundHandler())
	defer upstream.Close()
	const key = "sk-config-secret-123456"
	srv, logs := apiServer(t, map[string]string{"TINYRAG_LLM_URL": upstream.URL + "/v1", "TINYRAG_LLM_KEY": key, "TINYRAG_BRAVE_KEY": "brave-secret-999"},
		[]string{"--search-backend", "brave", "--wikipedia-lang", "de"}, nil)
	r := call(t, http.MethodGet, srv.URL+"/api/config")
	// The browser reads it with the same type.
	cfg, err := web.LoadServerConfig(context.Background(), nil, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.LLM.Configured || cfg.LLM.Source != "env" || cfg.LLM.Path != "/api/llm" || !cfg.Web.Enabled ||
		cfg.Web.SearchBackend != "brave" || cfg.Wikipedia.Lang != "de" {
		t.Fatalf("config %+v", cfg)
	}
	for _, secret := range []string{key, "brave-secret-999", upstream.URL} {
		if strings.Contains(r.body, secret) {
			t.Errorf("/api/config reveals %q: %s", secret, r.body)
		}
		if secret != upstream.URL && strings.Contains(logs.String(), secret) {
			t.Errorf("log reveals %q", secret)
		}
	}
}

func TestAPILLM_ProbeFindsLocalServerOrSaysNone(t *testing.T) {
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"data":[{"id":"tiny"}]}`)
	}))
	defer local.Close()
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()

	t.Run("found", func(t *testing.T) {
		srv, logs := apiServer(t, nil, nil, func(o *Options) {
			o.probeCandidates = []llmproxy.Candidate{{Name: "Ollama", URL: deadURL + "/v1"}, {Name: "LM Studio", URL: local.URL + "/v1"}}
		})
		if r := call(t, http.MethodGet, srv.URL+"/api/config"); !strings.Contains(r.body, `"source":"probe: LM Studio"`) {
			t.Fatalf("config %s", r.body)
		}
		if r := call(t, http.MethodGet, srv.URL+"/api/llm/models"); r.status != 200 || !strings.Contains(r.body, "tiny") {
			t.Fatalf("models through the probed upstream: %d %s", r.status, r.body)
		}
		if !strings.Contains(logs.String(), "LM Studio") {
			t.Fatalf("log does not name the server found: %s", logs)
		}
	})
	t.Run("none", func(t *testing.T) {
		srv, logs := apiServer(t, nil, nil, func(o *Options) {
			o.probeCandidates = []llmproxy.Candidate{{Name: "Ollama", URL: deadURL + "/v1"}}
		})
		if r := call(t, http.MethodPost, srv.URL+"/api/llm/chat/completions"); r.status != 503 || !strings.Contains(r.err, "--llm-url") {
			t.Fatalf("got %d %q, want 503 naming --llm-url", r.status, r.err)
		}
		if !strings.Contains(logs.String(), "no local LLM server answered") {
			t.Fatalf("log does not say none answered: %s", logs)
		}
	})
}

func TestAPILLM_PerClientLimits(t *testing.T) {
	release := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: x\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer upstream.Close()
	srv, _ := apiServer(t, nil, []string{"--llm-url", upstream.URL, "--llm-concurrency", "1"}, nil)
	first, err := http.Post(srv.URL+"/api/llm/chat/completions", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	defer first.Body.Close()
	if r := call(t, http.MethodGet, srv.URL+"/api/llm/models"); r.status != 429 || !strings.Contains(r.err, "concurrent") {
		t.Fatalf("second request while the first streams: %d %q, want 429", r.status, r.err)
	}
	close(release)
	io.ReadAll(first.Body)

	srv2, _ := apiServer(t, nil, []string{"--fetch-allow-private", "--web-rate", "0.001"}, nil)
	var last reply
	for i := 0; i < 12; i++ { // burst of 10, then refused
		last = call(t, http.MethodGet, srv2.URL+"/api/fetch")
	}
	if last.status != 429 || !strings.Contains(last.err, "rate limit") {
		t.Fatalf("after the burst: %d %q, want 429", last.status, last.err)
	}
}

func TestAPI_LogsRequestsWithoutQueryOrKey(t *testing.T) {
	const key = "sk-log-secret-abcdef"
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "{}") }))
	defer upstream.Close()
	srv, logs := apiServer(t, map[string]string{"TINYRAG_LLM_KEY": key}, []string{"--llm-url", upstream.URL}, nil)
	call(t, http.MethodGet, srv.URL+"/api/llm/models")
	call(t, http.MethodGet, srv.URL+"/api/fetch?url="+url.QueryEscape("http://10.0.0.1/?token=hunter2"))
	call(t, http.MethodGet, srv.URL+"/api/nope")
	out := logs.String()
	for _, want := range []string{`"route":"/api/llm","method":"GET","status":200`, `"route":"/api/fetch","method":"GET","status":403`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %s:\n%s", want, out)
		}
	}
	for _, secret := range []string{key, "hunter2"} {
		if strings.Contains(out, secret) {
			t.Errorf("log contains %q:\n%s", secret, out)
		}
	}
	if r := call(t, http.MethodGet, srv.URL+"/api/nope"); r.status != 404 {
		t.Errorf("unknown API route: %d", r.status)
	}
}

func TestAPI_TrustedProxyNamesTheClientForLimitsAndLog(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"flag", nil, []string{"--trusted-proxy", "127.0.0.1"}},
		{"environment", map[string]string{"TINYRAG_TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.0/8"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, logs := apiServer(t, tc.env, append(tc.args, "--web-rate", "1"), nil)
			// The limiter runs before the handler, so a request without a
			// url (400) still counts; the burst is 10.
			ask := func(client string) int {
				req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/fetch", nil)
				req.Header.Set("X-Forwarded-For", client)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			for i := 0; i < 10; i++ {
				ask("198.51.100.7")
			}
			if got := ask("198.51.100.7"); got != http.StatusTooManyRequests {
				t.Errorf("the busy client's 11th request: %d, want 429", got)
			}
			if got := ask("198.51.100.8"); got == http.StatusTooManyRequests {
				t.Errorf("another client behind the same proxy was refused too")
			}
			if !strings.Contains(logs.String(), `"client":"198.51.100.8"`) {
				t.Errorf("the log does not name the forwarded client:\n%s", logs.String())
			}
		})
	}
}

// A switch the server cannot read must stop it: read as "off", a
// TINYRAG_NO_WEB=enabled would leave the web tools on against the
// operator's intent.
func TestAPI_UnreadableSwitchIsRefusedAtStartup(t *testing.T) {
	for _, kv := range [][2]string{
		{"TINYRAG_NO_WEB", "enabled"},
		{"TINYRAG_NO_WEB", "2"},
		{"TINYRAG_FETCH_ALLOW_PRIVATE", "sure"},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		o := NewOptions(fs, func(k string) string {
			if k == kv[0] {
				return kv[1]
			}
			return ""
		})
		o.probeCandidates = []llmproxy.Candidate{}
		err := Mount(context.Background(), http.NewServeMux(), Env{}, o)
		if err == nil || !strings.Contains(err.Error(), kv[0]) || !strings.Contains(err.Error(), kv[1]) {
			t.Errorf("%s=%s: err = %v, want a start-up error naming the variable and its value", kv[0], kv[1], err)
		}
	}
}

func TestAPI_BadTrustedProxyIsRefusedAtStartup(t *testing.T) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	NewOptions(fs, func(string) string { return "" })
	if err := fs.Parse([]string{"--trusted-proxy", "nginx.local"}); err == nil || !strings.Contains(err.Error(), "not an address or CIDR") {
		t.Errorf("flag: err = %v", err)
	}
	fs = flag.NewFlagSet("serve", flag.ContinueOnError)
	o := NewOptions(fs, func(k string) string {
		if k == "TINYRAG_TRUSTED_PROXIES" {
			return "127.0.0.1,proxy"
		}
		return ""
	})
	o.probeCandidates = []llmproxy.Candidate{}
	if err := Mount(context.Background(), http.NewServeMux(), Env{}, o); err == nil || !strings.Contains(err.Error(), "TINYRAG_TRUSTED_PROXIES") {
		t.Errorf("environment: err = %v", err)
	}
}

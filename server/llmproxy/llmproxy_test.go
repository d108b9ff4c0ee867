package llmproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const testKey = "sk-test-0123456789abcdef"

// proxyFor mounts a Proxy for upstream the way the server does.
func proxyFor(t *testing.T, upstream string, key string) *httptest.Server {
	t.Helper()
	p, err := New(Config{Upstream: upstream, Key: key, MaxBody: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/llm/", p)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestProxy_StreamsByteForByteFlushingEachChunk(t *testing.T) {
	chunks := []string{
		"data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n",
		"data: {\"choices\":[{\"delta\":{\"content\":\"lo \xe2\x82", // € cut in the middle
		"\xac\"}}]}\n\n",
		": keep-alive comment\n\n",
		"data: [DONE]\n\n",
	}
	next := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer "+testKey {
			http.Error(w, "wrong path or key", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, c := range chunks {
			io.WriteString(w, c)
			w.(http.Flusher).Flush()
			// The next chunk is sent only after the client has seen this
			// one: a proxy that buffers would deadlock the test.
			select {
			case <-next:
			case <-r.Context().Done():
				return
			}
		}
	}))
	defer upstream.Close()
	proxy := proxyFor(t, upstream.URL+"/v1", testKey)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, proxy.URL+"/api/llm/chat/completions", strings.NewReader(`{"model":"m","stream":true}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	for i, c := range chunks {
		got := make([]byte, len(c))
		if _, err := io.ReadFull(resp.Body, got); err != nil {
			t.Fatalf("chunk %d did not arrive on its own (proxy buffering?): %v", i, err)
		}
		if string(got) != c {
			t.Fatalf("chunk %d = %q, want %q", i, got, c)
		}
		next <- struct{}{}
	}
	if rest, _ := io.ReadAll(resp.Body); len(rest) != 0 {
		t.Fatalf("extra bytes after the stream: %q", rest)
	}
}

func TestProxy_ClientDisconnectCancelsUpstream(t *testing.T) {
	cancelled := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: first\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			close(cancelled)
		case <-time.After(30 * time.Second):
		}
	}))
	defer upstream.Close()
	proxy := proxyFor(t, upstream.URL, "")

	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, proxy.URL+"/api/llm/chat/completions", strings.NewReader(`{}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	first := make([]byte, len("data: first\n\n"))
	if _, err := io.ReadFull(resp.Body, first); err != nil {
		t.Fatal(err)
	}
	cancel() // the browser tab closes
	resp.Body.Close()
	select {
	case <-cancelled:
	case <-time.After(15 * time.Second):
		t.Fatal("upstream request still running after the client went away")
	}
}

func TestProxy_KeyNeverReachesClient(t *testing.T) {
	var sawClientAuth bool
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawClientAuth = sawClientAuth || strings.Contains(r.Header.Get("Authorization"), "client-token")
		got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		// A careless upstream that echoes the key in headers and body,
		// split over chunks, and in an error message.
		w.Header().Set("X-Echo-Key", got)
		w.Header().Set("Set-Cookie", "session="+got)
		if r.URL.Path == "/v1/models" {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s"}}`, got)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		half := len(got) / 2
		for _, part := range []string{"data: " + got[:half], got[half:] + "\n\n", "data: " + got + got[:3], "x\n\n"} {
			io.WriteString(w, part)
			w.(http.Flusher).Flush()
			time.Sleep(5 * time.Millisecond)
		}
	}))
	defer upstream.Close()
	proxy := proxyFor(t, upstream.URL+"/v1", testKey)

	for _, tc := range []struct{ method, path, body string }{
		{http.MethodPost, "/api/llm/chat/completions", `{"stream":true}`},
		{http.MethodGet, "/api/llm/models", ""},
	} {
		req, _ := http.NewRequest(tc.method, proxy.URL+tc.path, strings.NewReader(tc.body))
		req.Header.Set("Authorization", "Bearer client-token")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var hdr bytes.Buffer
		resp.Header.Write(&hdr)
		if strings.Contains(string(body), testKey) || strings.Contains(hdr.String(), testKey) {
			t.Errorf("%s: key leaked to the client:\n%s\n%s", tc.path, hdr.String(), body)
		}
		if !strings.Contains(string(body), redacted) {
			t.Errorf("%s: body %q does not show the redaction", tc.path, body)
		}
	}
	if sawClientAuth {
		t.Error("the client's own Authorization header was forwarded upstream")
	}
}

func TestProxy_ForwardsOnlyTheThreeRoutes(t *testing.T) {
	var hits []string
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits = append(hits, r.Method+" "+r.URL.Path)
		fmt.Fprint(w, `{"ok":true}`)
	}))
	defer upstream.Close()
	proxy := proxyFor(t, upstream.URL, "")
	tests := []struct {
		method, path string
		body         string
		want         int
		wantUpstream string
	}{
		{"POST", "/api/llm/chat/completions", "{}", 200, "POST /v1/chat/completions"},
		{"POST", "/api/llm/v1/chat/completions", "{}", 200, "POST /v1/chat/completions"},
		{"POST", "/api/llm/embeddings", "{}", 200, "POST /v1/embeddings"},
		{"GET", "/api/llm/models", "", 200, "GET /v1/models"},
		{"GET", "/api/llm/chat/completions", "", 405, ""},
		{"DELETE", "/api/llm/models", "", 405, ""},
		{"POST", "/api/llm/completions", "{}", 404, ""},
		{"POST", "/api/llm/files", "{}", 404, ""},
		{"GET", "/api/llm/models/admin", "", 404, ""},
		{"POST", "/api/llm/chat/completions/x", "{}", 404, ""},
		{"GET", "/api/llm/models/", "", 404, ""},
		{"GET", "/api/llm/", "", 404, ""},
		{"POST", "/api/llm/chat/completions", strings.Repeat("x", 2<<10), 413, ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			hits = nil
			req, _ := http.NewRequest(tt.method, proxy.URL+tt.path, strings.NewReader(tt.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d (%s), want %d", resp.StatusCode, body, tt.want)
			}
			if tt.want != 200 {
				var e struct{ Error string }
				if json.Unmarshal(body, &e) != nil || e.Error == "" {
					t.Errorf("refusal body %q is not {\"error\":…}", body)
				}
			}
			got := strings.Join(hits, ",")
			if got != tt.wantUpstream {
				t.Errorf("upstream saw %q, want %q", got, tt.wantUpstream)
			}
		})
	}
}

func TestProxy_UpstreamDownIs502(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL
	dead.Close()
	proxy := proxyFor(t, url, testKey)
	resp, err := http.Post(proxy.URL+"/api/llm/chat/completions", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), "LLM upstream unreachable") || strings.Contains(string(body), testKey) {
		t.Fatalf("status %d body %q", resp.StatusCode, body)
	}
}

func TestNew_RejectsBadUpstream(t *testing.T) {
	tests := []struct{ in, wantErr, want string }{
		{"http://127.0.0.1:11434", "", "http://127.0.0.1:11434/v1"},
		{"https://api.example.com/v1/", "", "https://api.example.com/v1"},
		{"ftp://x", "not an http(s) URL", ""},
		{"http://user:pw@h/v1", "credentials", ""},
		{"localhost:11434", "not an http(s) URL", ""},
	}
	for _, tt := range tests {
		p, err := New(Config{Upstream: tt.in})
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%q: err %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || p.Upstream() != tt.want {
			t.Errorf("%q: %v %v, want %q", tt.in, p, err, tt.want)
		}
	}
}

func TestRedactor_KeySplitAnywhere(t *testing.T) {
	key := testKey
	stream := "a" + key + "b" + key + key + "sk-" + "tail sk-test"
	want := strings.ReplaceAll(stream, key, redacted)
	for cut1 := 0; cut1 <= len(stream); cut1 += 3 {
		for cut2 := cut1; cut2 <= len(stream); cut2 += 7 {
			r := newRedactor(key)
			var out []byte
			for _, p := range []string{stream[:cut1], stream[cut1:cut2], stream[cut2:]} {
				out = append(out, r.feed([]byte(p))...)
			}
			out = append(out, r.flush()...)
			if string(out) != want {
				t.Fatalf("cuts %d,%d: %q, want %q", cut1, cut2, out, want)
			}
		}
	}
}

func TestRedactor_PassesOrdinaryChunksAtOnce(t *testing.T) {
	r := newRedactor(testKey)
	chunk := "data: {\"content\":\"hi\"}\n\n"
	if out := r.feed([]byte(chunk)); string(out) != chunk {
		t.Fatalf("held back part of an ordinary chunk: %q", out)
	}
	short := newRedactor("abc")
	if out := short.feed([]byte("abc")); string(out) != "abc" {
		t.Fatalf("a too-short key must not be scrubbed: %q", out)
	}
}

func TestCandidates_SkipOwnPort(t *testing.T) {
	tests := []struct {
		own      string
		want8080 bool
	}{
		{"127.0.0.1:8080", false},
		{"[::]:8080", false},
		{"0.0.0.0:8080", false},
		{"127.0.0.1:9090", true},
		{"192.168.1.5:8080", true},
	}
	for _, tt := range tests {
		var has bool
		for _, c := range Candidates(tt.own) {
			has = has || strings.Contains(c.URL, ":8080/")
		}
		if has != tt.want8080 {
			t.Errorf("Candidates(%q) includes 8080 = %v, want %v", tt.own, has, tt.want8080)
		}
	}
}

func TestProbe_PicksFirstAnsweringInPreferenceOrder(t *testing.T) {
	answering := func(status int) string {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/v1/models" {
				http.NotFound(w, r)
				return
			}
			w.WriteHeader(status)
		}))
		t.Cleanup(s.Close)
		return s.URL + "/v1"
	}
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL + "/v1"
	dead.Close()
	a, b, broken := answering(200), answering(200), answering(500)
	tests := []struct {
		name  string
		cands []Candidate
		want  string
	}{
		{"first dead, second answers", []Candidate{{"dead", deadURL}, {"B", b}, {"A", a}}, "B"},
		{"erroring endpoint is skipped", []Candidate{{"broken", broken}, {"A", a}}, "A"},
		{"none", []Candidate{{"dead", deadURL}, {"broken", broken}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Probe(context.Background(), nil, tt.cands, 5*time.Second)
			if tt.want == "" {
				if !errors.Is(err, ErrNoneAnswered) {
					t.Fatalf("got %v %v, want ErrNoneAnswered", got, err)
				}
				return
			}
			if err != nil || got.Name != tt.want {
				t.Fatalf("got %v %v, want %s", got, err, tt.want)
			}
		})
	}
}

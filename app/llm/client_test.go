package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
)

// skipWithoutSockets skips tests that need a listening socket: under
// GOOS=js the tests run in Node, where net.Listen is not available. The
// SSE decoding these tests also exercise is covered socket-free in
// stream_test.go.
func skipWithoutSockets(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "js" {
		t.Skip("httptest needs a listening socket, which Node's js/wasm runtime does not provide; decoding is covered by the io.Reader tests")
	}
}

// serveChunked writes body n bytes at a time, flushing after each write, so
// the client sees the stream in the pieces a real server would send.
func serveChunked(w http.ResponseWriter, body []byte, n int) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	f := w.(http.Flusher)
	for len(body) > 0 {
		k := min(n, len(body))
		w.Write(body[:k])
		f.Flush()
		body = body[k:]
	}
}

func testRequest() Request {
	return Request{Model: "m", Messages: []Message{{Role: "user", Content: "Hallo"}}}
}

func TestChatStream_FixturesOverHTTPWithFlushEveryNBytes(t *testing.T) {
	skipWithoutSockets(t)
	for _, name := range []string{"openai.sse", "ollama.sse", "llamacpp.sse", "lmstudio.sse", "vllm.sse", "openrouter_comments.sse"} {
		body := readFixture(t, name)
		for _, n := range []int{1, 3, 17, 1 << 16} {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				serveChunked(w, []byte(strings.ReplaceAll(string(body), "\n", "\r\n")), n)
			}))
			s, err := NewClient(srv.URL+"/v1").ChatStream(context.Background(), testRequest())
			if err != nil {
				t.Fatalf("%s/%d: %v", name, n, err)
			}
			got := collect(s)
			s.Close()
			srv.Close()
			if got.err != io.EOF || got.content != wantAnswer {
				t.Errorf("%s flush every %d: content %q err %v", name, n, got.content, got.err)
			}
			if strings.Contains(got.content, "greets") {
				t.Errorf("%s: reasoning leaked into content", name)
			}
		}
	}
}

func TestChatStream_SendsStreamingRequestWithAuthAndHeaders(t *testing.T) {
	skipWithoutSockets(t)
	var gotPath, gotAuth, gotExtra, gotAccept string
	var gotBody map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath, gotAuth = r.Method+" "+r.URL.Path, r.Header.Get("Authorization")
		gotExtra, gotAccept = r.Header.Get("X-Title"), r.Header.Get("Accept")
		json.NewDecoder(r.Body).Decode(&gotBody)
		serveChunked(w, readFixture(t, "openai.sse"), 1<<16)
	}))
	defer srv.Close()
	temp := 0.2
	req := testRequest()
	req.Temperature, req.MaxTokens, req.IncludeUsage = &temp, 50, true
	c := NewClient(srv.URL+"/v1/", WithAPIKey("sk-test"), WithHeader("X-Title", "tinyRAG"))
	if c.Endpoint() != srv.URL+"/v1" {
		t.Errorf("Endpoint() = %q, want the base without trailing slash", c.Endpoint())
	}
	s, err := c.ChatStream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := collect(s); got.err != io.EOF || got.usage == nil || got.usage.TotalTokens != 29 {
		t.Fatalf("stream: %+v", got)
	}
	checks := []struct{ what, got, want string }{
		{"request line", gotPath, "POST /v1/chat/completions"},
		{"authorization", gotAuth, "Bearer sk-test"},
		{"extra header", gotExtra, "tinyRAG"},
		{"accept", gotAccept, "text/event-stream"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.what, c.got, c.want)
		}
	}
	if gotBody["stream"] != true || gotBody["model"] != "m" || gotBody["max_tokens"] != float64(50) || gotBody["temperature"] != 0.2 {
		t.Errorf("body %v lacks stream/model/max_tokens/temperature", gotBody)
	}
	if so, _ := gotBody["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Errorf("body %v: stream_options.include_usage not set", gotBody)
	}
	if _, ok := gotBody["IncludeUsage"]; ok {
		t.Errorf("IncludeUsage leaked into the body: %v", gotBody)
	}
}

func TestChatStream_HTTPErrorsCarryEndpointStatusAndMessage(t *testing.T) {
	skipWithoutSockets(t)
	tests := []struct {
		name   string
		status int
		ctype  string
		body   string
		want   string
	}{
		{"openai 401", 401, "application/json", `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}`, "Incorrect API key provided."},
		{"ollama 404", 404, "application/json", `{"error":"model \"nope\" not found, try pulling it first"}`, `model "nope" not found, try pulling it first`},
		{"llama.cpp 503", 503, "application/json", `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`, "Loading model"},
		{"proxy 502 text", 502, "text/plain", "upstream connect error\n", "upstream connect error"},
	}
	for _, tt := range tests {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", tt.ctype)
			w.WriteHeader(tt.status)
			io.WriteString(w, tt.body)
		}))
		_, err := NewClient(srv.URL+"/v1").ChatStream(context.Background(), testRequest())
		srv.Close()
		var he *HTTPError
		if !errors.As(err, &he) {
			t.Fatalf("%s: err %v, want *HTTPError", tt.name, err)
		}
		if he.Status != tt.status || he.Message != tt.want || he.Endpoint != srv.URL+"/v1/chat/completions" {
			t.Errorf("%s: got %+v", tt.name, he)
		}
		for _, part := range []string{he.Endpoint, http.StatusText(tt.status), tt.want} {
			if !strings.Contains(err.Error(), part) {
				t.Errorf("%s: Error() %q lacks %q", tt.name, err, part)
			}
		}
	}
}

func TestChatStream_JSONInsteadOfStreamIsAnError(t *testing.T) {
	skipWithoutSockets(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()
	_, err := NewClient(srv.URL).ChatStream(context.Background(), testRequest())
	if err == nil || !strings.Contains(err.Error(), "instead of an event stream") {
		t.Fatalf("err %v, want a clear not-a-stream error", err)
	}
}

func TestChatStream_RejectsEmptyRequest(t *testing.T) {
	c := NewClient("http://127.0.0.1:1/v1")
	if _, err := c.ChatStream(context.Background(), Request{Messages: testRequest().Messages}); err == nil || !strings.Contains(err.Error(), "model") {
		t.Errorf("no model: %v", err)
	}
	if _, err := c.ChatStream(context.Background(), Request{Model: "m"}); err == nil || !strings.Contains(err.Error(), "messages") {
		t.Errorf("no messages: %v", err)
	}
}

// hangingServer sends one chunk and then holds the connection open until
// the test ends, like a model that stalls.
func hangingServer(t *testing.T) *httptest.Server {
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveChunked(w, []byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n"), 1<<16)
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv
}

func TestChatStream_ContextCancelUnblocksRecv(t *testing.T) {
	skipWithoutSockets(t)
	srv := hangingServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	s, err := NewClient(srv.URL).ChatStream(ctx, testRequest())
	if err != nil {
		t.Fatal(err)
	}
	if d, err := s.Recv(); err != nil || d.Content != "a" {
		t.Fatalf("first Recv: %+v %v", d, err)
	}
	errc := make(chan error, 1)
	go func() { _, err := s.Recv(); errc <- err }()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Recv after cancel: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Recv still blocked 10s after cancel")
	}
}

func TestChatStream_CloseUnblocksRecv(t *testing.T) {
	skipWithoutSockets(t)
	srv := hangingServer(t)
	s, err := NewClient(srv.URL).ChatStream(context.Background(), testRequest())
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		var err error
		for err == nil {
			_, err = s.Recv()
		}
		errc <- err
	}()
	s.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("Recv after Close: %v, want ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Recv still blocked 10s after Close")
	}
}

func TestModels_ShapesAndOllamaFallback(t *testing.T) {
	skipWithoutSockets(t)
	tests := []struct {
		name   string
		routes map[string]string // path -> JSON body; others 404
		base   string
		want   string
	}{
		{"openai list", map[string]string{"/v1/models": `{"object":"list","data":[{"id":"gpt-4o-mini","object":"model","created":1,"owned_by":"system"},{"id":"gpt-4o","object":"model"}]}`}, "/v1", "gpt-4o,gpt-4o-mini"},
		{"ollama tags at /models", map[string]string{"/v1/models": `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","size":2019393189},{"name":"qwen3:0.6b","model":"qwen3:0.6b"}]}`}, "/v1", "llama3.2:latest,qwen3:0.6b"},
		{"old ollama fallback to /api/tags", map[string]string{"/api/tags": `{"models":[{"name":"mistral:7b"}]}`}, "/v1", "mistral:7b"},
		{"empty list", map[string]string{"/api/llm/models": `{"object":"list","data":[]}`}, "/api/llm", ""},
	}
	for _, tt := range tests {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, ok := tt.routes[r.URL.Path]
			if !ok || r.Method != http.MethodGet {
				w.WriteHeader(http.StatusNotFound)
				io.WriteString(w, "404 page not found")
				return
			}
			io.WriteString(w, body)
		}))
		ids, err := NewClient(srv.URL + tt.base).Models(context.Background())
		srv.Close()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := strings.Join(ids, ","); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestModels_Errors(t *testing.T) {
	skipWithoutSockets(t)
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"unauthorized", 401, `{"error":{"message":"Invalid API key"}}`, "Invalid API key"},
		{"not json", 200, "<html>hi</html>", "not JSON"},
		{"no list", 200, `{"foo":1}`, `no "data" or "models" list`},
	}
	for _, tt := range tests {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(tt.status)
			io.WriteString(w, tt.body)
		}))
		_, err := NewClient(srv.URL).Models(context.Background())
		srv.Close()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want it to mention %q", tt.name, err, tt.want)
		}
	}
}

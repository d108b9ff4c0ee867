package search

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tinyrag/app/web"
)

const ddgPage = `<html><body>
<div class="result results_links result--ad"><a class="result__a" href="https://duckduckgo.com/y.js?ad_provider=x&u3=https%3A%2F%2Fads.example">Buy now</a>
<a class="result__snippet">An ad</a></div>
<div class="result results_links"><h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fgo.dev%2Fdoc%2F&amp;rut=abc">The <b>Go</b> Programming Language</a></h2>
<a class="result__snippet" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fgo.dev%2Fdoc%2F">Documentation for <b>Go</b>.</a></div>
<div class="result results_links"><a class="result__a" href="https://pkg.go.dev/">Go Packages</a>
<a class="result__snippet">Find &amp; use packages.</a></div>
<div class="result results_links"><a class="result__a" href="javascript:alert(1)">Evil</a></div>
</body></html>`

// backends serves each backend's wire format and records what it was asked.
func backends(t *testing.T, status int) (*httptest.Server, *http.Request) {
	var last http.Request
	mux := http.NewServeMux()
	mux.HandleFunc("/ddg/", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		last = *r
		w.WriteHeader(status)
		fmt.Fprint(w, ddgPage)
	})
	mux.HandleFunc("/searx/search", func(w http.ResponseWriter, r *http.Request) {
		last = *r
		w.WriteHeader(status)
		fmt.Fprint(w, `{"results":[{"title":"Go","url":"https://go.dev/","content":"The <em>Go</em> site"},{"title":"no url"},{"title":"Tour","url":"https://go.dev/tour","content":"Learn"}]}`)
	})
	mux.HandleFunc("/brave", func(w http.ResponseWriter, r *http.Request) {
		last = *r
		if r.Header.Get("X-Subscription-Token") != "brave-key" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.WriteHeader(status)
		fmt.Fprint(w, `{"web":{"results":[{"title":"Go","url":"https://go.dev/","description":"The <strong>Go</strong> site"}]}}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &last
}

func TestSearch_Backends(t *testing.T) {
	srv, last := backends(t, http.StatusOK)
	tests := []struct {
		name      string
		cfg       Config
		want      []web.Hit
		wantQuery func(r *http.Request) bool
	}{
		{"duckduckgo unwraps redirect links and skips ads", Config{Backend: DuckDuckGo, URL: srv.URL + "/ddg/"},
			[]web.Hit{
				{Title: "The Go Programming Language", URL: "https://go.dev/doc/", Snippet: "Documentation for Go."},
				{Title: "Go Packages", URL: "https://pkg.go.dev/", Snippet: "Find & use packages."},
			},
			func(r *http.Request) bool { return r.Method == http.MethodPost && r.PostForm.Get("q") == "golang docs" }},
		{"searxng json", Config{Backend: SearXNG, URL: srv.URL + "/searx/"},
			[]web.Hit{{Title: "Go", URL: "https://go.dev/", Snippet: "The Go site"}, {Title: "Tour", URL: "https://go.dev/tour", Snippet: "Learn"}},
			func(r *http.Request) bool {
				return r.URL.Query().Get("format") == "json" && r.URL.Query().Get("q") == "golang docs"
			}},
		{"brave api", Config{Backend: Brave, URL: srv.URL + "/brave", Key: "brave-key"},
			[]web.Hit{{Title: "Go", URL: "https://go.dev/", Snippet: "The Go site"}},
			func(r *http.Request) bool { return r.URL.Query().Get("q") == "golang docs" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			hits, err := s.Search(context.Background(), "golang docs", 5)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(hits) != fmt.Sprint(tt.want) {
				t.Errorf("hits\n %v\nwant\n %v", hits, tt.want)
			}
			if !tt.wantQuery(last) {
				t.Errorf("backend was not asked for the query properly: %s %s", last.Method, last.URL)
			}
		})
	}
}

func TestSearch_LimitsHits(t *testing.T) {
	srv, _ := backends(t, http.StatusOK)
	s, _ := New(Config{Backend: SearXNG, URL: srv.URL + "/searx"})
	hits, err := s.Search(context.Background(), "go", 1)
	if err != nil || len(hits) != 1 {
		t.Fatalf("hits %v err %v, want exactly one", hits, err)
	}
}

func TestSearch_BackendErrorsAreExplained(t *testing.T) {
	tests := []struct {
		name   string
		status int
		cfg    func(base string) Config
		want   string
	}{
		{"ddg throttling", http.StatusAccepted, func(b string) Config { return Config{URL: b + "/ddg/"} }, "rate-limiting"},
		{"searx down", http.StatusBadGateway, func(b string) Config { return Config{Backend: SearXNG, URL: b + "/searx"} }, "HTTP 502"},
		{"brave bad key", http.StatusOK, func(b string) Config { return Config{Backend: Brave, URL: b + "/brave", Key: "wrong"} }, "check the key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := backends(t, tt.status)
			s, err := New(tt.cfg(srv.URL))
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.Search(context.Background(), "go", 5)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestNew_RejectsIncompleteConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"searxng without url", Config{Backend: SearXNG}, "needs its URL"},
		{"brave without key", Config{Backend: Brave}, "API key"},
		{"unknown backend", Config{Backend: "altavista"}, "unknown search backend"},
		{"bad url", Config{Backend: SearXNG, URL: "ftp://x"}, "not an http(s) URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

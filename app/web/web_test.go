package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tinyrag/app/web"
	"tinyrag/app/web/fetch"
	"tinyrag/app/web/guard"
	"tinyrag/app/web/search"
)

// wiki is a small MediaWiki api.php: two articles, one redirect, and the
// search and extract queries the tool makes.
func wiki(t *testing.T) *httptest.Server {
	articles := map[string]string{
		"Retrieval-augmented generation": "Retrieval-augmented generation (RAG) is a technique that grants generative AI models information retrieval capabilities.",
		"Otter":                          "Otters are carnivorous mammals in the subfamily Lutrinae.",
	}
	srv := httptest.NewUnstartedServer(nil)
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.URL.Path != "/w/api.php" || q.Get("format") != "json" || q.Get("origin") != "*" {
			http.Error(w, "bad api call", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch {
		case q.Get("list") == "search":
			term := strings.ToLower(q.Get("srsearch"))
			var hits []map[string]string
			if strings.Contains(term, "rag") || strings.Contains(term, "retrieval") {
				hits = append(hits, map[string]string{"title": "Retrieval-augmented generation", "snippet": `<span class="searchmatch">Retrieval</span>-augmented`})
				hits = append(hits, map[string]string{"title": "Otter", "snippet": "unrelated"})
			}
			if term == "explode" {
				fmt.Fprint(w, `{"error":{"code":"internal_api_error","info":"boom"}}`)
				return
			}
			json.NewEncoder(w).Encode(map[string]any{"query": map[string]any{"search": hits}})
		case q.Get("prop") == "extracts|info" && q.Get("explaintext") == "1":
			title := q.Get("titles")
			if title == "RAG" {
				title = "Retrieval-augmented generation"
			}
			text, ok := articles[title]
			page := map[string]any{"title": title, "missing": !ok}
			if ok {
				page["extract"] = text
				page["fullurl"] = srv.URL + "/wiki/" + strings.ReplaceAll(title, " ", "_")
			}
			json.NewEncoder(w).Encode(map[string]any{"query": map[string]any{"pages": []any{page}}})
		default:
			http.Error(w, "unexpected query", http.StatusBadRequest)
		}
	})
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func TestWikipedia_ToolReturnsBestArticleWithSource(t *testing.T) {
	srv := wiki(t)
	tl := web.Wikipedia(web.WikiConfig{Base: srv.URL})
	if tl.Name() != web.WikipediaName {
		t.Fatalf("name %q", tl.Name())
	}
	res, err := tl.Run(context.Background(), "  what is RAG ")
	if err != nil {
		t.Fatal(err)
	}
	wantURL := srv.URL + "/wiki/Retrieval-augmented_generation"
	if res.Source != wantURL {
		t.Errorf("source %q, want %q", res.Source, wantURL)
	}
	for _, want := range []string{"Title: Retrieval-augmented generation", "URL: " + wantURL, "Other matches: Otter", "grants generative AI models"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, res.Content)
		}
	}
}

func TestWikipedia_Errors(t *testing.T) {
	srv := wiki(t)
	tests := []struct {
		name  string
		cfg   web.WikiConfig
		query string
		want  string
	}{
		{"no match", web.WikiConfig{Base: srv.URL}, "zebra crossing", "no article matching"},
		{"api error", web.WikiConfig{Base: srv.URL}, "explode", "internal_api_error"},
		{"empty query", web.WikiConfig{Base: srv.URL}, "  ", "needs a query"},
		{"server down", web.WikiConfig{Base: "http://127.0.0.1:1"}, "rag", "unreachable"},
		{"bad language", web.WikiConfig{Lang: "en/../evil"}, "rag", "not a language code"},
		{"bad base", web.WikiConfig{Base: "ftp://wiki"}, "rag", "not an http(s) origin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := web.Wikipedia(tt.cfg).Run(context.Background(), tt.query)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestWikipediaArticle_FollowsRedirectsAndReportsMissing(t *testing.T) {
	srv := wiki(t)
	cfg := web.WikiConfig{Base: srv.URL}
	title, u, text, err := web.WikipediaArticle(context.Background(), cfg, "RAG")
	if err != nil || title != "Retrieval-augmented generation" || !strings.HasSuffix(u, "/wiki/Retrieval-augmented_generation") || !strings.HasPrefix(text, "Retrieval-augmented generation (RAG)") {
		t.Fatalf("got %q %q %q %v", title, u, text, err)
	}
	if _, _, _, err := web.WikipediaArticle(context.Background(), cfg, "Nope"); err == nil || !strings.Contains(err.Error(), "no article titled") {
		t.Fatalf("missing article: err = %v", err)
	}
}

// apiServer is a tinyRAG-like /api/fetch and /api/search built from the
// real in-process fetcher and searcher, for the browser-side transports.
func apiServer(t *testing.T, f web.Fetcher, s web.Searcher) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/api/fetch", func(w http.ResponseWriter, r *http.Request) {
		p, err := f.Fetch(r.Context(), r.URL.Query().Get("url"))
		if err != nil {
			w.WriteHeader(http.StatusForbidden)
			json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
			return
		}
		json.NewEncoder(w).Encode(p)
	})
	mux.HandleFunc("/api/search", func(w http.ResponseWriter, r *http.Request) {
		hits, err := s.Search(r.Context(), r.URL.Query().Get("q"), 5)
		if err != nil {
			w.WriteHeader(http.StatusBadGateway)
			json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"results": hits})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestWikipedia_ThroughProxy(t *testing.T) {
	w := wiki(t)
	g := &guard.Guard{Policy: guard.Policy{AllowHosts: []string{"127.0.0.1/32"}}}
	api := apiServer(t, fetch.New(fetch.Options{Guard: g}), nil)
	res, err := web.Wikipedia(web.WikiConfig{Base: w.URL, Proxy: api.URL}).Run(context.Background(), "retrieval")
	if err != nil || !strings.Contains(res.Content, "grants generative AI models") {
		t.Fatalf("content %q err %v", res.Content, err)
	}
}

func TestURLFetch_ThroughProxyAndInProcess(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><head><title>Kettles</title></head><body><p>Kettles boil water.</p></body></html>")
	}))
	t.Cleanup(page.Close)
	allow := &guard.Guard{Policy: guard.Policy{AllowHosts: []string{"127.0.0.1/32"}}}
	inproc := fetch.New(fetch.Options{Guard: allow})
	api := apiServer(t, inproc, nil)
	strict := apiServer(t, fetch.New(fetch.Options{}), nil)
	tests := []struct {
		name    string
		f       web.Fetcher
		input   string
		want    string
		wantErr string
	}{
		{"in-process", inproc, page.URL, "Kettles boil water.", ""},
		{"through proxy", web.ProxyFetcher{Base: api.URL}, " " + page.URL + "\n", "Kettles boil water.", ""},
		{"proxy refusal is an error", web.ProxyFetcher{Base: strict.URL}, page.URL, "", "loopback (HTTP 403)"},
		{"in-process refusal", fetch.New(fetch.Options{}), "http://169.254.169.254/", "", "cloud-metadata"},
		{"empty input", inproc, " ", "", "needs a URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := web.URLFetch(tt.f).Run(context.Background(), tt.input)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Content, tt.want) || !strings.Contains(res.Content, "Title: Kettles") || res.Source != page.URL {
				t.Fatalf("result %+v", res)
			}
		})
	}
}

func TestWebSearch_FormatsHitsAndReportsEmpty(t *testing.T) {
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("q") == "nothing" {
			fmt.Fprint(w, `{"results":[]}`)
			return
		}
		fmt.Fprint(w, `{"results":[{"title":"Go","url":"https://go.dev/","content":"The Go site"},{"title":"Tour","url":"https://go.dev/tour","content":""}]}`)
	}))
	t.Cleanup(searx.Close)
	s, err := search.New(search.Config{Backend: search.SearXNG, URL: searx.URL})
	if err != nil {
		t.Fatal(err)
	}
	api := apiServer(t, nil, s)
	for _, sr := range []web.Searcher{s, web.ProxySearcher{Base: api.URL}} {
		t.Run(fmt.Sprintf("%T", sr), func(t *testing.T) {
			res, err := web.WebSearch(sr).Run(context.Background(), "golang")
			if err != nil {
				t.Fatal(err)
			}
			want := "1. Go\n   https://go.dev/\n   The Go site\n2. Tour\n   https://go.dev/tour\n"
			if res.Content != want {
				t.Errorf("content\n%q\nwant\n%q", res.Content, want)
			}
			if _, err := web.WebSearch(sr).Run(context.Background(), "nothing"); err == nil || !strings.Contains(err.Error(), "found nothing") {
				t.Errorf("empty result: err = %v", err)
			}
		})
	}
}

func TestProxyFetcher_ServerErrorsBecomeErrors(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"json error", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error":"rate limit exceeded"}`)
		}, "rate limit exceeded (HTTP 429)"},
		{"plain error", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "gateway trouble", http.StatusBadGateway)
		}, "HTTP 502: gateway trouble"},
		{"not json", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<html>") }, "not the expected JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			_, err := web.ProxyFetcher{Base: srv.URL}.Fetch(context.Background(), "https://example.org/")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestClip_CutsAtRunesAndSaysSo(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{strings.Repeat("ü", 30), 20, strings.Repeat("ü", 8) + "\n[truncated]"},
	}
	for _, tt := range tests {
		if got := web.Clip(tt.in, tt.n); got != tt.want {
			t.Errorf("Clip(%q,%d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestStripTags(t *testing.T) {
	got := web.StripTags(`<span class="searchmatch">Go</span> &amp; <b>you</b>&#039;re   fine`)
	if got != "Go & you're fine" {
		t.Fatalf("got %q", got)
	}
}

// Compile-time checks that the transports satisfy the interfaces.
var (
	_ web.Fetcher  = web.ProxyFetcher{}
	_ web.Fetcher  = (*fetch.Fetcher)(nil)
	_ web.Searcher = web.ProxySearcher{}
)

func TestBrowserTools_UseTheServerAndTheRightWiki(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "plain page text")
	}))
	t.Cleanup(page.Close)
	w := wiki(t)
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"results":[{"title":"Hit","url":"https://example.org/","content":"snippet"}]}`)
	}))
	t.Cleanup(searx.Close)
	s, _ := search.New(search.Config{Backend: search.SearXNG, URL: searx.URL})
	g := &guard.Guard{Policy: guard.Policy{AllowHosts: []string{"127.0.0.1/32"}}}
	api := apiServer(t, fetch.New(fetch.Options{Guard: g}), s)
	var sc web.ServerConfig
	sc.Wikipedia.Base = w.URL // not wikipedia.org: must go through the proxy
	tools := web.BrowserTools(api.URL+"/", sc, nil)
	want := map[string]string{
		web.URLFetchName:  page.URL,
		web.WebSearchName: "anything",
		web.WikipediaName: "retrieval",
	}
	expect := map[string]string{
		web.URLFetchName:  "plain page text",
		web.WebSearchName: "1. Hit",
		web.WikipediaName: "grants generative AI models",
	}
	for _, tl := range tools {
		res, err := tl.Run(context.Background(), want[tl.Name()])
		if err != nil || !strings.Contains(res.Content, expect[tl.Name()]) {
			t.Errorf("%s: %q %v", tl.Name(), res.Content, err)
		}
	}
	if len(tools) != 3 {
		t.Fatalf("%d tools", len(tools))
	}
}

func TestProxyFetcher_FetchRaw_ReadsTheBodyTypeAndFinalURL(t *testing.T) {
	const pdf = "%PDF-1.7 not really"
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/fetch" || r.URL.Query().Get("raw") != "1" {
			http.Error(w, `{"error":"wrong request"}`, http.StatusBadRequest)
			return
		}
		switch r.URL.Query().Get("url") {
		case "https://example.org/paper":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("X-Tinyrag-Content-Type", "application/pdf")
			w.Header().Set("X-Tinyrag-Url", "https://example.org/paper.pdf")
			fmt.Fprint(w, pdf)
		case "https://example.org/huge":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write(make([]byte, 18<<20))
		default:
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			fmt.Fprint(w, `{"error":"https://example.org/big is larger than 16 MiB: too large to import"}`)
		}
	}))
	t.Cleanup(api.Close)
	f := web.ProxyFetcher{Base: api.URL}

	raw, err := f.FetchRaw(context.Background(), "https://example.org/paper")
	if err != nil || string(raw.Body) != pdf || raw.ContentType != "application/pdf" || raw.URL != "https://example.org/paper.pdf" {
		t.Fatalf("FetchRaw = %q %q %q, %v", raw.URL, raw.ContentType, raw.Body, err)
	}
	for _, tc := range []struct{ url, want string }{
		{"https://example.org/big", "larger than 16 MiB"},
		{"https://example.org/huge", "too large to import"},
	} {
		if _, err := f.FetchRaw(context.Background(), tc.url); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("FetchRaw(%s) err = %v, want it to say %q", tc.url, err, tc.want)
		}
	}
}

func TestBrowserTools_WithoutAProxyTheProxiedToolsSayWhyAndWikipediaGoesDirect(t *testing.T) {
	calls := 0
	wiki := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if r.URL.Query().Get("origin") != "*" {
			t.Errorf("wiki call without origin=*: %s", r.URL)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"query":{"search":[]}}`)
	}))
	defer wiki.Close()
	var sc web.ServerConfig
	sc.Wikipedia.Base = wiki.URL
	tools := web.BrowserTools("", sc, nil)
	for _, tl := range tools[:2] {
		_, err := tl.Run(context.Background(), "https://example.org/")
		if !errors.Is(err, web.ErrNoProxy) || !strings.Contains(err.Error(), "without a tinyRAG server") {
			t.Errorf("%s: %v", tl.Name(), err)
		}
	}
	if _, err := (web.ProxyFetcher{}).FetchRaw(context.Background(), "https://example.org/a.pdf"); !errors.Is(err, web.ErrNoProxy) {
		t.Errorf("URL import: %v", err)
	}
	tools[2].Run(context.Background(), "kettle")
	if calls == 0 {
		t.Error("wikipedia did not ask the wiki directly")
	}
}

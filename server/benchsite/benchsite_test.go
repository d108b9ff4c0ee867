package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"tinyrag/app/knowledge/beir"
)

func TestPageHTML_EscapesTitleAndTextAndMarksTheBody(t *testing.T) {
	got := pageHTML(`A <b> & "c"`, `x < y & z > w`)
	for _, want := range []string{
		"<title>A &lt;b&gt; &amp; &#34;c&#34;</title>",
		"<p>x &lt; y &amp; z &gt; w</p>",
		"<main data-pagefind-body data-tinyrag-body>",
		"<nav data-pagefind-ignore data-tinyrag-ignore>",
		"<footer data-pagefind-ignore data-tinyrag-ignore>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("page lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "<b>") {
		t.Errorf("markup from the text got through:\n%s", got)
	}
}

func TestSentences_SplitAfterEndMarks(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"One. Two? Three! Four", []string{"One.", "Two?", "Three!", "Four"}},
		{"A 3.5 mg dose. Done.", []string{"A 3.5 mg dose.", "Done."}},
		{"", nil},
	}
	for _, c := range cases {
		if got := sentences(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("sentences(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestSitePages_CorpusFirstThenDrawnFromItTheSameEveryTime(t *testing.T) {
	corpus := []beir.Doc{
		{ID: "1", Title: "Alpha title", Text: "Alpha one. Alpha two."},
		{ID: "2", Title: "Beta title", Text: "Beta one. Beta two. Beta three."},
		{ID: "3", Title: "Gamma title", Text: "Gamma only."},
	}
	pages := sitePages(corpus, 30, 7)
	if len(pages) != 30 {
		t.Fatalf("%d pages, want 30", len(pages))
	}
	for i, d := range corpus {
		if pages[i].name != d.ID+".html" || pages[i].title != d.Title || pages[i].text != d.Text {
			t.Errorf("page %d is %+v, want corpus document %s", i, pages[i], d.ID)
		}
	}
	known := map[string]bool{}
	titles := map[string]bool{}
	for _, d := range corpus {
		titles[d.Title] = true
		for _, s := range sentences(d.Text) {
			known[s] = true
		}
	}
	names := map[string]bool{}
	for _, p := range pages[len(corpus):] {
		if names[p.name] {
			t.Errorf("two pages named %s", p.name)
		}
		names[p.name] = true
		if !titles[p.title] {
			t.Errorf("page %s has title %q, not a corpus title", p.name, p.title)
		}
		// Every sentence is a corpus sentence.
		rest := p.text
		for rest != "" {
			found := false
			for s := range known {
				if strings.HasPrefix(rest, s) {
					rest = strings.TrimPrefix(strings.TrimPrefix(rest, s), " ")
					found = true
					break
				}
			}
			if !found {
				t.Fatalf("page %s has text not drawn from the corpus: %q", p.name, rest)
			}
		}
	}
	if again := sitePages(corpus, 30, 7); !reflect.DeepEqual(again, pages) {
		t.Error("the same seed drew other pages")
	}
	if other := sitePages(corpus, 30, 8); reflect.DeepEqual(other, pages) {
		t.Error("another seed drew the same pages")
	}
	if few := sitePages(corpus, 2, 7); len(few) != 2 {
		t.Errorf("%d pages for n=2", len(few))
	}
}

func TestPrecompressed_ServesTheSiblingTheBrowserAccepts(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("app.js", "raw js")
	write("app.js.br", "br js")
	write("app.js.gz", "gz js")
	write("only.json", "raw json")
	write("sub/index.html", "raw page")
	write("sub/index.html.br", "br page")
	srv := httptest.NewServer(precompressed(dir))
	defer srv.Close()
	cases := []struct {
		name, path, accept       string
		body, encoding, ctPrefix string
	}{
		{"brotli when accepted", "/app.js", "gzip, deflate, br, zstd", "br js", "br", "text/javascript"},
		{"gzip when brotli is not accepted", "/app.js", "gzip", "gz js", "gzip", "text/javascript"},
		{"brotli refused by q=0", "/app.js", "br;q=0, gzip", "gz js", "gzip", "text/javascript"},
		{"the file itself when nothing is accepted", "/app.js", "identity", "raw js", "", "text/javascript"},
		{"the file itself when it has no sibling", "/only.json", "br, gzip", "raw json", "", "application/json"},
		{"a folder's index page", "/sub/", "br", "br page", "br", "text/html"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", srv.URL+c.path, nil)
			req.Header.Set("Accept-Encoding", c.accept)
			resp, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if string(body) != c.body || resp.Header.Get("Content-Encoding") != c.encoding || !strings.HasPrefix(resp.Header.Get("Content-Type"), c.ctPrefix) {
				t.Errorf("got %q, encoding %q, type %q; want %q, %q, %s…", body, resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"), c.body, c.encoding, c.ctPrefix)
			}
		})
	}
}

func TestLine_BooksBytesOneAfterAnotherAtItsRate(t *testing.T) {
	t0 := time.Unix(1000, 0)
	l := &line{bytesPerSec: 1000}
	steps := []struct {
		at   time.Duration
		n    int
		want time.Duration
	}{
		{0, 500, 500 * time.Millisecond},                        // an idle line
		{100 * time.Millisecond, 500, time.Second},              // queued behind the first
		{3 * time.Second, 1000, 4 * time.Second},                // idle again
		{3 * time.Second, 0, 4 * time.Second},                   // nothing takes no time
		{3500 * time.Millisecond, 250, 4250 * time.Millisecond}, // still queued
	}
	for i, s := range steps {
		if got := l.book(t0.Add(s.at), s.n).Sub(t0); got != s.want {
			t.Errorf("step %d: through at %s, want %s", i, got, s.want)
		}
	}
}

func TestThrottle_CountsSiteDataApartUpToAnInstant(t *testing.T) {
	t0 := time.Unix(1000, 0)
	th := &throttle{log: []sent{
		{t0, "/kb/app.wasm", 100},
		{t0.Add(time.Second), "/kb/bundles/scifact/t/ab.bin", 10},
		{t0.Add(2 * time.Second), "/kb/bundles/scifact/f/cd.json", 20},
		{t0.Add(3 * time.Second), "/pagefind/pagefind.js", 5},
	}}
	site, other := th.sentBefore(t0.Add(1500*time.Millisecond), isSiteData)
	if site != 10 || other != 100 {
		t.Errorf("site %d, other %d; want 10, 100", site, other)
	}
	if site, _ := th.sentBefore(t0.Add(time.Hour), isSiteData); site != 35 {
		t.Errorf("site %d at the end, want 35", site)
	}
}

func TestMedian_MiddleValue(t *testing.T) {
	cases := []struct {
		in   []int64
		want int64
	}{
		{nil, 0},
		{[]int64{5}, 5},
		{[]int64{9, 1, 5}, 5},
		{[]int64{4, 1, 3, 2}, 2},
	}
	for _, c := range cases {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestSummarize_LeavesFailedVisitsOutAndCountsEmptyResults(t *testing.T) {
	rs := []visitResult{
		{Ready: time.Second, Results: 3 * time.Second, Hits: 8, SiteBytes: 100, AppBytes: 10},
		{Ready: 2 * time.Second, Results: 3 * time.Second, Hits: 0, SiteBytes: 300, AppBytes: 30},
		{Ready: 3 * time.Second, Results: 4 * time.Second, Hits: 8, SiteBytes: 200, AppBytes: 20},
		{Err: "not done within 2m"},
	}
	got := summarize("tinyRAG", "a", true, rs)
	want := row{System: "tinyRAG", Variant: "a", Visits: 4, Failed: 1, NoHits: 1, Ready: 2 * time.Second, Results: 3 * time.Second,
		Gap: time.Second, SiteBytes: 200, AppBytes: 20, Errors: []string{"not done within 2m"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("summarize = %+v\nwant %+v", got, want)
	}
}

func TestThrottle_ForwardsResponsesAsSentAndLogsEveryByte(t *testing.T) {
	body := strings.Repeat("compressed bytes ", 2000)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "br")
		io.WriteString(w, body)
	}))
	defer origin.Close()
	u, _ := url.Parse(origin.URL)
	th := newThrottle(u, time.Millisecond, 1e9)
	srv := httptest.NewServer(th)
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/kb/bundles/b/t/x.bin", nil)
	req.Header.Set("Accept-Encoding", "br")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != body || resp.Header.Get("Content-Encoding") != "br" {
		t.Fatalf("the proxy changed the response: %d bytes, encoding %q", len(got), resp.Header.Get("Content-Encoding"))
	}
	site, other := th.sentBefore(time.Now(), isSiteData)
	if other != 0 || site < int64(len(body)) || site > int64(len(body))+1000 {
		t.Errorf("logged site %d, other %d; want the body's %d bytes and its headers", site, other, len(body))
	}
}

package e2e

import (
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// gzipWriter compresses what a handler writes.
type gzipWriter struct {
	http.ResponseWriter
	gz *gzip.Writer
}

func (w gzipWriter) WriteHeader(code int) {
	w.Header().Del("Content-Length")
	w.ResponseWriter.WriteHeader(code)
}

func (w gzipWriter) Write(b []byte) (int, error) {
	w.Header().Del("Content-Length")
	return w.gz.Write(b)
}

// A host may compress some kinds of file and not others: an nginx whose
// gzip_types list the app's wasm, JavaScript and JSON but not
// application/octet-stream sends a bundle's .bin files as they lie on
// disk. The app, which got app.wasm compressed, learns that from the
// first .bin file it receives (the group table, read while the app
// starts), and the page then takes every term shard from its .gz sibling,
// as the service worker does for the rest of the bundle it stores; a
// question is answered from them.
func TestStaticSite_AHostThatCompressesSomeKindsGivesTheOthersFromTheirSiblings(t *testing.T) {
	tmp := t.TempDir()
	_, bundleDir := orchardBundle(t, tmp)
	out := filepath.Join(tmp, "site")
	run(t, binPath, "static", "-o", out, "--base", "/sub/", "--bundle", bundleDir)

	var mu sync.Mutex
	sent := map[string]int{}
	files := http.StripPrefix("/sub/", http.FileServer(http.Dir(out)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/sub/") {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		sent[r.URL.Path]++
		mu.Unlock()
		switch path.Ext(r.URL.Path) {
		case ".bin", ".gz", ".br", ".png":
			files.ServeHTTP(w, r)
			return
		}
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			files.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Add("Vary", "Accept-Encoding")
		gz := gzip.NewWriter(w)
		defer gz.Close()
		files.ServeHTTP(gzipWriter{w, gz}, r)
	}))
	defer srv.Close()
	count := func(match func(p string) bool) (n int) {
		mu.Lock()
		defer mu.Unlock()
		for p, c := range sent {
			if match(p) {
				n += c
			}
		}
		return n
	}

	b := newBrowser(t, 1280, 800)
	openApp(t, b, srv.URL+"/sub/")
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	b.do(t, 10*time.Second, "search", chromedp.Click(chromedp.ID("kb-search")), chromedp.SendKeys(chromedp.ID("kb-search"), "prune apple trees"))
	waitJS(t, b, 30*time.Second, "hits from the site's bundle", `document.querySelectorAll("#kb-hits .hit:not(.hit-pending)").length > 0`)
	waitOfflineReady(t, b)
	waitJS(t, b, 60*time.Second, "the site's knowledge stored for offline use", `(window.tinyragPWA.site || {}).state === "done"`)

	// The wasm came compressed, as the host sent it: no sibling asked for.
	if n := count(func(p string) bool { return strings.HasSuffix(p, ".wasm.gz") }); n != 0 {
		t.Errorf("%d wasm siblings asked for from a host that compresses wasm", n)
	}
	// The term shards came from their siblings; a .bin file as it lies
	// on disk only until each of the page and the worker had seen one.
	shards := count(func(p string) bool { return strings.Contains(p, "/t/") && strings.HasSuffix(p, ".bin.gz") })
	raw := count(func(p string) bool { return strings.HasSuffix(p, ".bin") })
	if shards == 0 {
		t.Error("no term shard came from its .gz sibling")
	}
	if raw > 2 {
		mu.Lock()
		var names []string
		for p := range sent {
			if strings.HasSuffix(p, ".bin") {
				names = append(names, p)
			}
		}
		mu.Unlock()
		t.Errorf(".bin files sent as they lie on disk %d times, want at most 2 (the page's first and the worker's first): %v", raw, names)
	}
	// JSON (the manifest, the fragments) came compressed by the host.
	if n := count(func(p string) bool { return strings.HasSuffix(p, ".json.gz") }); n != 0 {
		t.Errorf("%d .json siblings asked for from a host that compresses JSON", n)
	}
}

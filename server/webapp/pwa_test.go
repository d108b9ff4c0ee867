package webapp

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"tinyrag/server/pwa"
)

func testPWAServer(t *testing.T, release string) http.Handler {
	t.Helper()
	return testHandler(t, Config{Release: release})
}

var workerList = regexp.MustCompile(`(?s)const ASSETS = (\[.*?\]);`)
var workerVersion = regexp.MustCompile(`const VERSION = "([0-9a-f]+)";`)

// testHandler is the app as `tinyrag serve` mounts it, with c.
func testHandler(t *testing.T, c Config) http.Handler {
	t.Helper()
	a, err := New(c, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	a.Mount(mux)
	return a.Headers(mux)
}

func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	return w
}

// The worker refuses any file whose bytes differ from its list, so every
// listed file must be served with exactly the listed bytes, every time.
func TestPWA_WorkerListsEveryServedFileWithItsExactBytes(t *testing.T) {
	h := testPWAServer(t, "")
	w := get(t, h, "/app-worker.js")
	if w.Code != 200 || w.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("worker: HTTP %d, Cache-Control %q", w.Code, w.Header().Get("Cache-Control"))
	}
	m := workerList.FindStringSubmatch(w.Body.String())
	if m == nil {
		t.Fatal("worker has no asset list")
	}
	var assets []pwa.Asset
	if err := json.Unmarshal([]byte(m[1]), &assets); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"": true, "embed.html": true, "app.js": true, "wasm_exec.js": true, "app.css": true, "manifest.webmanifest": true}
	for _, a := range assets {
		delete(want, a.Path)
		for i := 0; i < 3; i++ { // the page is rendered once, not per request
			r := get(t, h, "/"+a.Path)
			if r.Code != 200 {
				t.Fatalf("/%s: HTTP %d", a.Path, r.Code)
			}
			if got := pwa.Sum(r.Body.Bytes()); got != a.SHA256 {
				t.Fatalf("/%s is served with other bytes than the worker expects", a.Path)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("the worker does not store %v", want)
	}
}

func TestPWA_ReleaseLabelMakesANewVersion(t *testing.T) {
	version := func(release string) string {
		m := workerVersion.FindStringSubmatch(get(t, testPWAServer(t, release), "/app-worker.js").Body.String())
		if m == nil {
			t.Fatal("worker has no version")
		}
		return m[1]
	}
	a, a2, b := version("A"), version("A"), version("B")
	if a != a2 {
		t.Errorf("same build and label gave versions %s and %s", a, a2)
	}
	if a == b {
		t.Errorf("labels A and B gave the same version %s", a)
	}
	// The page's app.js carries the same version the worker names its
	// cache after.
	if js := get(t, testPWAServer(t, "A"), "/app.js").Body.String(); !regexp.MustCompile(`"GOAPP_VERSION":"` + a + `"`).MatchString(js) {
		t.Errorf("app.js does not carry version %s", a)
	}
}

func TestPWA_PageRevalidatesByVersion(t *testing.T) {
	h := testPWAServer(t, "")
	w := get(t, h, "/")
	etag := w.Header().Get("ETag")
	if etag == "" || w.Header().Get("Content-Security-Policy") == "" {
		t.Fatalf("page: ETag %q, CSP %q", etag, w.Header().Get("Content-Security-Policy"))
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("If-None-Match", etag)
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusNotModified {
		t.Errorf("revalidation: HTTP %d, want 304", w.Code)
	}
}

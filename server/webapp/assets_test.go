package webapp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func testAssets(t *testing.T) *staticAssets {
	t.Helper()
	fsys := fstest.MapFS{
		"web/app.wasm":      {Data: []byte("\x00asm raw")},
		"web/app.wasm.gz":   {Data: []byte("gzip bytes")},
		"web/app.wasm.br":   {Data: []byte("brotli bytes")},
		"web/tinyrag.css":   {Data: []byte("body{}")},
		"web/icons/a.png":   {Data: []byte("\x89PNG")},
		"web/orphan.css.gz": {Data: []byte("no original")},
	}
	s, err := loadStatic(fsys, "web")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStatic_NegotiatesPrecompressedEncoding(t *testing.T) {
	s := testAssets(t)
	tests := []struct {
		name, accept, wantEncoding, wantBody string
	}{
		{"brotli preferred when both accepted", "gzip, deflate, br", "br", "brotli bytes"},
		{"gzip when brotli not accepted", "gzip", "gzip", "gzip bytes"},
		{"identity when nothing accepted", "", "", "\x00asm raw"},
		{"q=0 excludes brotli", "br;q=0, gzip", "gzip", "gzip bytes"},
		{"wildcard means gzip", "*", "gzip", "gzip bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/web/app.wasm", nil)
			r.Header.Set("Accept-Encoding", tt.accept)
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			if w.Code != 200 {
				t.Fatalf("status %d", w.Code)
			}
			if got := w.Header().Get("Content-Encoding"); got != tt.wantEncoding {
				t.Errorf("Content-Encoding = %q, want %q", got, tt.wantEncoding)
			}
			if got := w.Body.String(); got != tt.wantBody {
				t.Errorf("body = %q, want %q", got, tt.wantBody)
			}
			if got := w.Header().Get("Content-Type"); got != "application/wasm" {
				t.Errorf("Content-Type = %q, want application/wasm", got)
			}
			if got := w.Header().Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary = %q", got)
			}
		})
	}
}

func TestStatic_CachesByETagAndVersionedURLsAreImmutable(t *testing.T) {
	s := testAssets(t)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/web/tinyrag.css", nil))
	etag := w.Header().Get("ETag")
	if etag == "" || w.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("plain URL: ETag %q Cache-Control %q, want an ETag and no-cache", etag, w.Header().Get("Cache-Control"))
	}

	r := httptest.NewRequest("GET", "/web/tinyrag.css", nil)
	r.Header.Set("If-None-Match", etag)
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusNotModified || w.Body.Len() != 0 {
		t.Fatalf("revalidation: status %d body %d bytes, want 304 and no body", w.Code, w.Body.Len())
	}

	w = httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/"+s.version+"/web/tinyrag.css", nil))
	if w.Code != 200 || !strings.Contains(w.Header().Get("Cache-Control"), "immutable") {
		t.Fatalf("versioned URL: status %d Cache-Control %q, want 200 immutable", w.Code, w.Header().Get("Cache-Control"))
	}
}

func TestStatic_MissingAssetIs404AndOrphanVariantIgnored(t *testing.T) {
	s := testAssets(t)
	for _, p := range []string{"/web/nope.js", "/web/orphan.css", "/web/orphan.css.gz"} {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", p, nil))
		if w.Code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, w.Code)
		}
	}
}

func TestStatic_VersionChangesWhenAnAssetChanges(t *testing.T) {
	a, _ := loadStatic(fstest.MapFS{"web/x.css": {Data: []byte("a")}}, "web")
	b, _ := loadStatic(fstest.MapFS{"web/x.css": {Data: []byte("b")}}, "web")
	if a.version == b.version {
		t.Fatal("version did not change with the asset's content")
	}
}

func TestStatic_UnbuiltTreeServesNothingButLoads(t *testing.T) {
	s, err := loadStatic(fstest.MapFS{"README.md": {Data: []byte("x")}}, "web")
	if err != nil {
		t.Fatalf("a missing build folder must not stop the server: %v", err)
	}
	if s.has("/web/app.wasm") {
		t.Fatal("found an app.wasm that does not exist")
	}
}

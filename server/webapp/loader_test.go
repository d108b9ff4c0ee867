package webapp

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tinyrag/app/siteconfig"
)

// app.wasm must reach the compiler as fetch() returned it, from every way
// the app is served: no JavaScript stream copies it on the main thread.
func TestLoader_HandsTheFetchResponseToTheCompiler(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	if err := writeStatic(Site{Out: dir}, fakeAssets(t), nil, siteConfig(nil, siteconfig.Config{}).Marshal()); err != nil {
		t.Fatal(err)
	}
	static, err := os.ReadFile(filepath.Join(dir, "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	served := get(t, testPWAServer(t, ""), "/app.js")
	if served.Code != 200 {
		t.Fatalf("serve: /app.js: HTTP %d", served.Code)
	}
	for name, js := range map[string]string{"serve": served.Body.String(), "static": string(static)} {
		if strings.Contains(js, "new ReadableStream") {
			t.Errorf("%s: app.js still copies app.wasm through a ReadableStream", name)
		}
		for _, want := range []string{"response.clone().body.getReader()", "return response;", `performance.mark("tinyrag:wasm")`, "instantiateStreaming(\n      fetchWithProgress("} {
			if !strings.Contains(js, want) {
				t.Errorf("%s: app.js lacks %q", name, want)
			}
		}
	}
}

// What the service worker stores is what the server sends: app.js is
// served with the rewritten bytes the worker's list was made from.
func TestLoader_ServeSendsTheRewrittenBytesWithTheVersionETag(t *testing.T) {
	h := testPWAServer(t, "")
	w := get(t, h, "/app.js")
	etag := w.Header().Get("ETag")
	if etag == "" || w.Header().Get("Cache-Control") != "no-cache" || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/javascript") {
		t.Fatalf("/app.js headers: %v", w.Header())
	}
	r := get(t, h, "/app.js")
	if r.Body.String() != w.Body.String() {
		t.Error("/app.js differs between two requests")
	}
	req := httptest.NewRequest("GET", "/app.js", nil)
	req.Header.Set("If-None-Match", etag)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 304 {
		t.Errorf("revalidation with the ETag: HTTP %d, want 304", rec.Code)
	}
}

func TestStreamLoader_RefusesAnUnknownLoader(t *testing.T) {
	for name, js := range map[string]string{
		"missing": "async function goappInitWebAssembly() {}",
		"twice":   goappFetchWithProgress + "\n" + goappFetchWithProgress,
		"edited":  strings.Replace(goappFetchWithProgress, "controller.close();", "controller.close(); ", 1),
	} {
		if _, err := streamLoader([]byte(js)); err == nil || !strings.Contains(err.Error(), "loader.go") {
			t.Errorf("%s: err = %v, want one that names loader.go", name, err)
		}
	}
	out, err := streamLoader([]byte("before\n" + goappFetchWithProgress + "\nafter"))
	if err != nil || string(out) != "before\n"+streamingFetchWithProgress+"\nafter" {
		t.Errorf("streamLoader = %q, %v", out, err)
	}
}

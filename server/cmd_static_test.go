package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"tinyrag/app/embed"
	"tinyrag/app/knowledge/bundle"
	"tinyrag/app/siteconfig"
)

func fakeAssets(t *testing.T) *staticAssets {
	t.Helper()
	a, err := loadStatic(fstest.MapFS{
		"web/app.wasm":           {Data: bytes.Repeat([]byte("wasm"), 100)},
		"web/app.wasm.gz":        {Data: []byte("gz")},
		"web/app.wasm.br":        {Data: []byte("br")},
		"web/nanogo.wasm":        {Data: []byte("nanogo")},
		"web/tinyrag.css":        {Data: []byte("body{}")},
		"web/icons/icon.svg":     {Data: []byte("<svg/>")},
		"web/icons/icon-192.png": {Data: []byte("png")},
		"web/icons/icon-512.png": {Data: []byte("png")},
		"web/nanogo-worker.js":   {Data: []byte("//")},
	}, "web")
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestStatic_WritesASiteThatAssumesNothingAboutItsBasePath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	bundleFile := filepath.Join(t.TempDir(), "docs.tinyrag")
	if err := bundleCommand(context.Background(), []string{"-o", bundleFile, "../app/knowledge/bundle/testdata/site"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	bs, err := readBundles([]string{bundleFile})
	if err != nil {
		t.Fatal(err)
	}
	o := staticOptions{out: dir, base: "/kb/", connectSrc: staticConnectSrc}
	cfg := siteConfig(bs, siteconfig.Config{LLM: &siteconfig.LLM{BaseURL: "http://127.0.0.1:11434/v1"}}).Marshal()
	if err := writeStatic(o, fakeAssets(t), bs, cfg); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "index.html.gz", "index.html.br", "app.js", "app-worker.js", "wasm_exec.js", "manifest.webmanifest",
		"web/app.wasm", "web/app.wasm.gz", "web/app.wasm.br", "web/nanogo.wasm", "web/icons/icon.svg", "bundles/docs.tinyrag", siteconfig.FileName} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	page := read(t, filepath.Join(dir, "index.html"))
	csp := strings.Index(page, `http-equiv="Content-Security-Policy"`)
	if csp < 0 || csp > strings.Index(page, "<script") {
		t.Error("the CSP <meta> is missing or comes after the scripts it must cover")
	}
	if strings.Contains(page, "frame-ancestors") {
		t.Error("frame-ancestors in a <meta> is ignored by browsers; it belongs in a header")
	}
	for _, attr := range []string{`href="/web/`, `src="/web/`, `src="/app.js"`, `href="/manifest`} {
		if strings.Contains(page, attr) {
			t.Errorf("index.html has a root-relative URL %s", attr)
		}
	}
	if !strings.Contains(page, `src="/kb/app.js"`) {
		t.Error("index.html does not load /kb/app.js")
	}
	var m struct {
		Scope    string `json:"scope"`
		StartURL string `json:"start_url"`
	}
	if err := json.Unmarshal([]byte(read(t, filepath.Join(dir, "manifest.webmanifest"))), &m); err != nil || m.Scope != "/kb/" || m.StartURL != "/kb/" {
		t.Errorf("manifest scope %q start_url %q (%v)", m.Scope, m.StartURL, err)
	}
	if js := read(t, filepath.Join(dir, "app.js")); !strings.Contains(js, `"/kb/app-worker.js"`) || !strings.Contains(js, `"/kb/web/app.wasm"`) {
		t.Error("app.js does not load its worker and wasm under /kb/")
	}
	if w := read(t, filepath.Join(dir, "app-worker.js")); strings.Contains(w, `"/web/`) || !strings.Contains(w, `"/kb/"`) {
		t.Error("the service worker caches URLs outside /kb/")
	}
	c, warns, err := siteconfig.Parse([]byte(read(t, filepath.Join(dir, siteconfig.FileName))))
	if err != nil || len(warns) > 0 || len(c.Bundles) != 1 || !strings.HasPrefix(c.Bundles[0].URL, "bundles/docs.tinyrag?v=") || c.LLM.BaseURL == "" {
		t.Errorf("config %+v %v %v", c, warns, err)
	}
}

func TestStatic_RefusesToOverwriteAFolderThatIsNotAStaticBuild(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("precious"), 0o644)
	err := writeStatic(staticOptions{out: dir, base: "/"}, fakeAssets(t), nil, siteconfig.Config{}.Marshal())
	if err == nil || read(t, filepath.Join(dir, "thesis.tex")) != "precious" {
		t.Fatalf("err %v", err)
	}
}

func TestStatic_BasePath(t *testing.T) {
	for in, want := range map[string]string{"/": "/", "": "/", "kb": "/kb/", "/kb": "/kb/", "/a/b/": "/a/b/"} {
		if got, err := normalizeBase(in); err != nil || got != want {
			t.Errorf("normalizeBase(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"https://x.test/kb/", "/kb/?x=1", "/../etc/"} {
		if _, err := normalizeBase(bad); err == nil {
			t.Errorf("normalizeBase(%q): no error", bad)
		}
	}
}

func TestStatic_RefusesADamagedBundle(t *testing.T) {
	f := filepath.Join(t.TempDir(), "bad.tinyrag")
	os.WriteFile(f, []byte("tinyrag-bundle\nxx"), 0o644)
	err := staticCommand(context.Background(), []string{"-o", t.TempDir(), "--bundle", f}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("err %v", err)
	}
}

func TestServe_PublishesBundlesAndTheSiteConfig(t *testing.T) {
	bundleFile := filepath.Join(t.TempDir(), "docs.tinyrag")
	if err := bundleCommand(context.Background(), []string{"-o", bundleFile, "../app/knowledge/bundle/testdata/site"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	if err := mountSiteConfig(mux, []string{bundleFile}, embed.Policy{}, serveEnv{Log: slog.New(slog.NewTextHandler(io.Discard, nil))}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/" + siteconfig.FileName)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	c, warns, err := siteconfig.Parse(body)
	if err != nil || len(warns) > 0 || c.Proxy != siteconfig.SameOrigin || len(c.Bundles) != 1 {
		t.Fatalf("config %s: %v %v", body, warns, err)
	}
	srcs, _ := c.Resolve(srv.URL + "/" + siteconfig.FileName)
	resp, err = http.Get(srcs[0].URL)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || bundle.Digest(data) != srcs[0].SHA256 {
		t.Fatalf("bundle: status %d, digest mismatch", resp.StatusCode)
	}
}

func TestServe_RefusesADamagedBundleAtStart(t *testing.T) {
	f := filepath.Join(t.TempDir(), "bad.tinyrag")
	os.WriteFile(f, []byte("PK\x03\x04 a zip file"), 0o644)
	err := mountSiteConfig(http.NewServeMux(), []string{f}, embed.Policy{}, serveEnv{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err == nil || !strings.Contains(err.Error(), "not a tinyRAG knowledge bundle") {
		t.Fatalf("err %v", err)
	}
}

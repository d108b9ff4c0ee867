package webapp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/bundle"
	"tinyrag/app/siteconfig"
	"tinyrag/server/bundler"
	"tinyrag/server/pwa"
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
		"web/go-worker.js":       {Data: []byte("//")},
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
	bundleDir := filepath.Join(t.TempDir(), "docs")
	if err := bundler.Command(context.Background(), []string{"-o", bundleDir, "../../app/knowledge/bundle/testdata/site"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	bs, err := readBundles([]string{bundleDir})
	if err != nil {
		t.Fatal(err)
	}
	o := Site{Out: dir, Base: "/kb/", ConnectSrc: StaticConnectSrc}
	cfg := siteConfig(bs, siteconfig.Config{LLM: &siteconfig.LLM{BaseURL: "http://127.0.0.1:11434/v1"}}).Marshal()
	if err := writeStatic(o, fakeAssets(t), bs, cfg); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "index.html.gz", "index.html.br", "app.js", "app-worker.js", "wasm_exec.js", "manifest.webmanifest",
		"web/app.wasm", "web/app.wasm.gz", "web/app.wasm.br", "web/nanogo.wasm", "web/icons/icon.svg", "bundles/docs/" + bs[0].out.ManifestName,
		"bundles/docs/" + bs[0].out.ManifestName + ".br", siteconfig.FileName} {
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
	// The manifest is server/pwa's, relative to its own URL: under /kb/
	// its scope and start URL are /kb/.
	var m struct {
		Scope    string `json:"scope"`
		StartURL string `json:"start_url"`
	}
	if err := json.Unmarshal([]byte(read(t, filepath.Join(dir, "manifest.webmanifest"))), &m); err != nil {
		t.Fatal(err)
	}
	at, _ := url.Parse("https://example.org/kb/manifest.webmanifest")
	for name, v := range map[string]string{"scope": m.Scope, "start_url": m.StartURL} {
		if u, err := at.Parse(v); err != nil || u.Path != "/kb/" {
			t.Errorf("manifest %s %q resolves to %v under /kb/, want /kb/", name, v, u)
		}
	}
	if js := read(t, filepath.Join(dir, "app.js")); !strings.Contains(js, `"/kb/app-worker.js"`) || !strings.Contains(js, `"/kb/web/app.wasm"`) {
		t.Error("app.js does not load its worker and wasm under /kb/")
	}
	w := read(t, filepath.Join(dir, "app-worker.js"))
	if !strings.Contains(w, "tinyrag:skip-waiting") || strings.Contains(w, `"path": "/`) {
		t.Error("the static site's service worker is not server/pwa's, or names absolute paths")
	}
	c, warns, err := siteconfig.Parse([]byte(read(t, filepath.Join(dir, siteconfig.FileName))))
	if err != nil || len(warns) > 0 || len(c.Bundles) != 1 || c.Bundles[0].URL != "bundles/docs/"+bs[0].out.ManifestName || c.LLM.BaseURL == "" {
		t.Errorf("config %+v %v %v", c, warns, err)
	}
}

// Built without --base, the site names every file relative to its pages,
// which sit at its base: copied into any folder it loads from there.
func TestStatic_WithoutABaseEveryURLIsRelativeSoTheSiteWorksFromAnyFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	if err := writeStatic(Site{Out: dir, ConnectSrc: StaticConnectSrc}, fakeAssets(t), nil, []byte(`{"version":1}`)); err != nil {
		t.Fatal(err)
	}
	rootRelative := regexp.MustCompile(`(?:href|src|content)="/[^"]*"`)
	for _, name := range []string{"index.html", "embed.html"} {
		page := read(t, filepath.Join(dir, name))
		if m := rootRelative.FindAllString(page, -1); len(m) > 0 {
			t.Errorf("%s has root-relative URLs: %q", name, m)
		}
		for _, want := range []string{`src="./wasm_exec.js"`, `src="./app.js"`, `src="./web/pwa.js"`, `href="./manifest.webmanifest"`, `href="./web/tinyrag.css"`,
			// app.wasm starts with the page, at the URL app.js fetches.
			`<link rel="preload" href="./web/app.wasm" as="fetch" crossorigin="anonymous">`} {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %s", name, want)
			}
		}
	}
	js := read(t, filepath.Join(dir, "app.js"))
	// The loader's progress counts decoded bytes: against app.wasm's own
	// size, not a compressed response's Content-Length.
	wasmLen := `const goappWasmContentLength = "400";`
	for _, want := range []string{`register(
        "./app-worker.js"`, `fetchWithProgress("./web/app.wasm"`, `"GOAPP_ROOT_PREFIX":"./"`, wasmLen} {
		if !strings.Contains(js, want) {
			t.Errorf("app.js lacks %s", want)
		}
	}
	// The manifest, from wherever it is served, scopes the app to its folder.
	var m struct {
		Scope    string `json:"scope"`
		StartURL string `json:"start_url"`
		Icons    []struct {
			Src string `json:"src"`
		} `json:"icons"`
	}
	if err := json.Unmarshal([]byte(read(t, filepath.Join(dir, "manifest.webmanifest"))), &m); err != nil {
		t.Fatal(err)
	}
	for _, folder := range []string{"/", "/kb/", "/any/deep/path/"} {
		at, _ := url.Parse("https://example.org" + folder + "manifest.webmanifest")
		for name, v := range map[string]string{"scope": m.Scope, "start_url": m.StartURL, "icon": m.Icons[0].Src} {
			if u, err := at.Parse(v); err != nil || !strings.HasPrefix(u.Path, folder) {
				t.Errorf("manifest %s %q resolves to %v in %s, outside the folder", name, v, u, folder)
			}
		}
	}
}

// A static host picks the Content-Type by the file's extension (nginx,
// S3 and Python's http.server send an unknown one as
// application/octet-stream): every page must end in .html, and every
// file must have an extension.
func TestStatic_EveryPageEndsInHTMLAndNoFileLacksAnExtension(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	if err := writeStatic(Site{Out: dir, ConnectSrc: StaticConnectSrc}, fakeAssets(t), nil, []byte(`{"version":1}`)); err != nil {
		t.Fatal(err)
	}
	pages := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		ext := filepath.Ext(p)
		if ext == "" {
			t.Errorf("%s has no extension: a static host sends it as application/octet-stream", rel)
		}
		if ext == ".gz" || ext == ".br" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasPrefix(http.DetectContentType(b), "text/html") {
			pages++
			if ext != ".html" {
				t.Errorf("%s is a page without the .html extension", rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages != 2 {
		t.Errorf("%d pages written, want index.html and embed.html", pages)
	}
}

// The worker refuses any file whose bytes differ from its list: the static
// build must write exactly the listed bytes, and mark the wasm loaded on
// first use as stored later.
func TestStatic_WorkerListsEveryWrittenFileWithItsExactBytes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	if err := writeStatic(Site{Out: dir, Base: "/sub/", ConnectSrc: StaticConnectSrc}, fakeAssets(t), nil, []byte(`{"version":1}`)); err != nil {
		t.Fatal(err)
	}
	m := workerList.FindStringSubmatch(read(t, filepath.Join(dir, "app-worker.js")))
	if m == nil {
		t.Fatal("worker has no asset list")
	}
	var assets []pwa.Asset
	if err := json.Unmarshal([]byte(m[1]), &assets); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"": true, "embed.html": true, "app.js": true, "wasm_exec.js": true, "app.css": true, "manifest.webmanifest": true, "web/app.wasm": true, "web/nanogo.wasm": true}
	for _, a := range assets {
		delete(want, a.Path)
		file := a.Path
		if file == "" {
			file = "index.html"
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		if err != nil {
			t.Fatalf("the worker lists %q, not written: %v", a.Path, err)
		}
		if pwa.Sum(b) != a.SHA256 {
			t.Errorf("%s is written with other bytes than the worker expects", file)
		}
		if a.Later != (a.Path == "web/nanogo.wasm") {
			t.Errorf("%s: later = %t", a.Path, a.Later)
		}
	}
	if len(want) > 0 {
		t.Errorf("the worker does not store %v", want)
	}
	if v := workerVersion.FindStringSubmatch(read(t, filepath.Join(dir, "app-worker.js"))); v == nil || !strings.Contains(read(t, filepath.Join(dir, "app.js")), `"GOAPP_VERSION":"`+v[1]+`"`) {
		t.Error("app.js and the worker do not carry the same version")
	}
}

func TestStatic_RefusesToOverwriteAFolderThatIsNotAStaticBuild(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("precious"), 0o644)
	err := writeStatic(Site{Out: dir, Base: "/"}, fakeAssets(t), nil, siteconfig.Config{}.Marshal())
	if err == nil || read(t, filepath.Join(dir, "thesis.tex")) != "precious" {
		t.Fatalf("err %v", err)
	}
}

func TestStatic_BasePath(t *testing.T) {
	for in, want := range map[string]string{"/": "/", "": "", "kb": "/kb/", "/kb": "/kb/", "/a/b/": "/a/b/"} {
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
	dir := filepath.Join(t.TempDir(), "docs")
	if err := bundler.Command(context.Background(), []string{"-o", dir, "../../app/knowledge/bundle/testdata/site"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	shards, _ := filepath.Glob(filepath.Join(dir, "t", "*.bin"))
	os.WriteFile(shards[0], []byte("altered"), 0o644)
	err := WriteSite(Site{Out: t.TempDir(), Bundles: []string{dir}}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("err %v", err)
	}
}

func TestServe_PublishesBundlesAndTheSiteConfig(t *testing.T) {
	bundleDir := filepath.Join(t.TempDir(), "docs")
	if err := bundler.Command(context.Background(), []string{"-o", bundleDir, "../../app/knowledge/bundle/testdata/site"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(testHandler(t, Config{Bundles: []string{bundleDir}}))
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
	// The browser gets every file compressed, cached for good.
	for _, u := range []string{srcs[0].URL, strings.TrimSuffix(srcs[0].URL, path.Base(srcs[0].URL)) + "t/" + "0000000000000000.bin"} {
		req, _ := http.NewRequest("GET", u, nil)
		req.Header.Set("Accept-Encoding", "br, gzip")
		resp, err = http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if strings.HasSuffix(u, "0000000000000000.bin") {
			if resp.StatusCode != http.StatusNotFound {
				t.Errorf("a file the bundle lacks: status %d", resp.StatusCode)
			}
			continue
		}
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "br" || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("manifest: status %d, encoding %q, cache %q", resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.Header.Get("Cache-Control"))
		}
	}
	ix, err := bundle.Open(context.Background(), srcs[0].URL, srcs[0].SHA256, func(ctx context.Context, u string) ([]byte, error) {
		resp, err := http.Get(u)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	})
	if err != nil {
		t.Fatal(err)
	}
	if hits, err := ix.Search(context.Background(), "prune", knowledge.SearchOptions{K: 1}); err != nil || len(hits) != 1 {
		t.Errorf("search through the server: %v, %d hits", err, len(hits))
	}
}

func TestServe_RefusesAFileOrAFolderThatIsNoBundleAtStart(t *testing.T) {
	f := filepath.Join(t.TempDir(), "old.tinyrag")
	os.WriteFile(f, []byte("tinyrag-bundle\nxx"), 0o644)
	for _, tt := range []struct{ path, want string }{
		{f, "rebuild it"},
		{t.TempDir(), "not a bundle folder"},
	} {
		_, err := New(Config{Bundles: []string{tt.path}}, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want it to say %q", tt.path, err, tt.want)
		}
	}
}

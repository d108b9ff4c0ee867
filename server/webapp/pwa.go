package webapp

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"golang.org/x/net/html"

	"tinyrag/app/pages"
	"tinyrag/server/pwa"
)

// appInfo is what the page, the manifest and the install prompt say
// about the app.
var appInfo = pwa.App{
	Name:            "tinyRAG",
	ShortName:       "tinyRAG",
	Description:     "A retrieval-augmented chat assistant that runs in your browser.",
	BackgroundColor: "#0f1117",
	ThemeColor:      "#0f1117",
	Lang:            "en",
	Icons: []pwa.Icon{
		{Src: "web/icons/icon-192.png", Sizes: "192x192", Type: "image/png"},
		{Src: "web/icons/icon-512.png", Sizes: "512x512", Type: "image/png"},
		{Src: "web/icons/icon-maskable-512.png", Sizes: "512x512", Type: "image/png", Purpose: "maskable"},
		{Src: "web/icons/icon.svg", Sizes: "any", Type: "image/svg+xml"},
	},
}

// pageScripts run in the page beside go-app's loader: the update prompt's
// link to the service worker, the composer before the wasm is ready, and
// the downloads every first search of the site's knowledge needs. All are
// deferred: they run in order right after the page is parsed, right after
// go-app's app.js has started app.wasm's download, so before any Go code.
// (An async site-prefetch.js could wait behind the page's long tasks until
// Go had started and asked for the same files itself.)
var pageScripts = []string{"/web/pwa.js defer", "/web/early-input.js defer", "/web/site-prefetch.js defer"}

// appHandler is go-app's handler with every resource local (go-app's
// defaults point icons at a public host, which breaks offline use). res
// resolves resource paths (serve: as they are; a static site: under its
// base path); head is extra raw <head> elements.
func appHandler(res app.ResourceResolver, version string, head []string) *app.Handler {
	return &app.Handler{
		Name:            appInfo.Name,
		ShortName:       appInfo.ShortName,
		Title:           "tinyRAG — chat with your documents",
		Description:     appInfo.Description,
		Lang:            appInfo.Lang,
		BackgroundColor: appInfo.BackgroundColor,
		ThemeColor:      appInfo.ThemeColor,
		LoadingLabel:    "Starting tinyRAG… {progress}%",
		Icon: app.Icon{
			Default:  "/web/icons/icon-192.png",
			Large:    "/web/icons/icon-512.png",
			Maskable: "/web/icons/icon-maskable-512.png", // full-bleed: the OS cuts its own shape
			SVG:      "/web/icons/icon.svg",
		},
		Styles:  []string{"/web/tinyrag.css"},
		Scripts: pageScripts,
		// app.wasm is most of a first visit: start it with the page, not
		// once app.js has run (a quarter of a second later at 40 ms RTT).
		// go-app's loader fetch()es it same-origin, which this matches.
		RawHeaders: append([]string{`<link rel="preload" href="` + res.Resolve("/web/app.wasm") + `" as="fetch" crossorigin="anonymous">`},
			head...),
		Resources: res,
		Version:   version,
	}
}

// generatedFiles are the files go-app makes rather than serves from
// /web/: every page of app/pages, then go-app's scripts and styles. The
// service worker stores them with the assets, so the embedded view's page
// works offline too.
func generatedFiles() []string {
	var files []string
	for _, p := range pages.All() {
		files = append(files, p.Path)
	}
	return append(files, "/app.js", "/wasm_exec.js", "/app.css")
}

// generatedType is the Content-Type of one of go-app's generated files.
func generatedType(path string) string {
	if strings.HasSuffix(path, ".css") {
		return "text/css; charset=utf-8"
	}
	return "text/javascript; charset=utf-8"
}

// isPage reports whether a generated file is an HTML page of the app.
func isPage(path string) bool {
	p, ok := pages.Find(path)
	return ok && p.Path == path
}

// loadedOnFirstUse are the assets the page fetches only when a feature is
// first used (markdown.wasm: the first answer), each megabytes of wasm. A first install of the worker leaves
// them out and stores them once the app reports it has started (see
// pwa.Asset.Later), so they do not slow a first visit.
var loadedOnFirstUse = map[string]bool{"/web/nanogo.wasm": true, "/web/importer.wasm": true, "/web/markdown.wasm": true}

// builtPWA is one version of the app as the service worker stores it: the
// page and go-app's generated files with their exact bytes, our service
// worker and manifest. `tinyrag serve` serves it; `tinyrag static` writes
// it out.
type builtPWA struct {
	version   string
	handler   *app.Handler
	pages     map[string][]byte // the prerendered pages by Path, each rendered once (see buildPWA)
	generated map[string][]byte // go-app's other files by URL path ("/app.js")
	worker    []byte
	manifest  []byte
}

// buildPWA fixes the app's version and the worker's file list. The version
// hashes every file the worker stores, so it changes whenever one does.
// go-app writes the version into app.js, which is itself stored; so the
// version is computed over files rendered with a placeholder version,
// then the final files are rendered with the real one. res resolves
// resource paths (serve: as they are; a static site: under its base path);
// finishPage, if set, edits the rendered page before it is hashed.
func buildPWA(assets *staticAssets, res app.ResourceResolver, release string, finishPage func([]byte) ([]byte, error)) (*builtPWA, error) {
	manifest, err := pwa.Manifest(appInfo)
	if err != nil {
		return nil, err
	}
	var static []pwa.Asset
	for p, f := range assets.files {
		static = append(static, pwa.Asset{Path: strings.TrimPrefix(p, "/"), SHA256: f.sum, Later: loadedOnFirstUse[p], Gzip: f.gzip != nil})
	}
	static = append(static, pwa.NewAsset("manifest.webmanifest", manifest))

	// go-app's loader shows how much of app.wasm it has handed to the
	// compiler, bytes as decoded; by the Content-Length of a compressed
	// response it would count far past 100 %.
	wasmLen := ""
	if f := assets.files["/web/app.wasm"]; f != nil {
		wasmLen = strconv.Itoa(len(f.raw))
	}
	placeholderHandler := appHandler(res, "version", nil)
	placeholderHandler.WasmContentLength = wasmLen
	placeholderFiles, placeholderPages, placeholder, err := renderGenerated(placeholderHandler, finishPage)
	if err != nil {
		return nil, err
	}
	for p, b := range placeholderPages {
		placeholderFiles[p] = b
	}
	version := pwa.Version(append(stable(placeholder, placeholderFiles), static...), release)
	h := appHandler(res, version, nil)
	h.WasmContentLength = wasmLen
	generated, pageBytes, sums, err := renderGenerated(h, finishPage)
	if err != nil {
		return nil, err
	}
	all := append(sums, static...)
	sort.Slice(all, func(i, j int) bool { return all[i].Path < all[j].Path })
	worker, err := pwa.Worker(version, all)
	if err != nil {
		return nil, err
	}
	return &builtPWA{version: version, handler: h, pages: pageBytes, generated: generated, worker: worker, manifest: manifest}, nil
}

// renderGenerated asks go-app for each generated file, as a browser
// would, and returns them, the pages' bytes apart, and their checksums.
// The pages are kept and served as rendered here: go-app writes attributes
// in map order, so each render differs in bytes, and the worker checks the
// exact bytes.
func renderGenerated(h *app.Handler, finishPage func([]byte) ([]byte, error)) (map[string][]byte, map[string][]byte, []pwa.Asset, error) {
	files, pageBytes := map[string][]byte{}, map[string][]byte{}
	var sums []pwa.Asset
	for _, p := range generatedFiles() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, p, nil))
		if w.Code != http.StatusOK {
			return nil, nil, nil, fmt.Errorf("rendering %s for the service worker: HTTP %d", p, w.Code)
		}
		body := w.Body.Bytes()
		if p == "/app.js" {
			var err error
			if body, err = streamLoader(body); err != nil {
				return nil, nil, nil, err
			}
		}
		if isPage(p) && finishPage != nil {
			var err error
			if body, err = finishPage(body); err != nil {
				return nil, nil, nil, err
			}
		}
		if isPage(p) {
			pageBytes[p] = body
		} else {
			files[p] = body
		}
		sums = append(sums, pwa.NewAsset(p, body))
	}
	return files, pageBytes, sums, nil
}

// stable replaces the pages' checksums by ones of their canonical form
// (attributes sorted), so that the version, computed from these, is the
// same for every start of the same build. files holds the generated
// files by URL path, "/" included.
func stable(assets []pwa.Asset, files map[string][]byte) []pwa.Asset {
	out := append([]pwa.Asset(nil), assets...)
	for i := range out {
		if p := "/" + out[i].Path; isPage(p) {
			out[i].SHA256 = pwa.Sum(canonicalHTML(files[p]))
		}
	}
	return out
}

// canonicalHTML writes every tag with its attributes sorted by name.
func canonicalHTML(b []byte) []byte {
	var out bytes.Buffer
	z := html.NewTokenizer(bytes.NewReader(b))
	for {
		if z.Next() == html.ErrorToken {
			return out.Bytes()
		}
		tok := z.Token()
		sort.SliceStable(tok.Attr, func(i, j int) bool { return tok.Attr[i].Key < tok.Attr[j].Key })
		out.WriteString(tok.String())
	}
}

// mount routes the page and its files; the worker and the manifest take
// precedence over go-app's own.
func (p *builtPWA) mount(mux *http.ServeMux) {
	serve := func(contentType string, body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", contentType)
			// Browsers compare the worker byte for byte on every check;
			// neither file may be served stale.
			w.Header().Set("Cache-Control", "no-cache")
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			_, _ = w.Write(body)
		}
	}
	mux.Handle("GET /app-worker.js", serve("text/javascript; charset=utf-8", p.worker))
	mux.Handle("GET /manifest.webmanifest", serve("application/manifest+json", p.manifest))
	mux.Handle("GET /manifest.json", serve("application/manifest+json", p.manifest))
	etag := `"` + p.version + `"`
	// go-app's scripts and styles as the worker hashed them (app.js is
	// rewritten: see streamLoader), revalidated by the version like go-app's
	// own handler does.
	revalidated := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("ETag", etag)
			if strings.Contains(r.Header.Get("If-None-Match"), etag) {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			h(w, r)
		}
	}
	for path, body := range p.generated {
		mux.Handle("GET "+path, revalidated(serve(generatedType(path), body)))
	}
	for _, pg := range pages.All() {
		page := serve("text/html; charset=utf-8", p.pages[pg.Path])
		if pg.Path == pages.RootPath {
			// The app's own page, revalidated by the version.
			mux.Handle("GET /{$}", revalidated(page))
		} else {
			// Every other page as hashed for the worker; the embedded
			// view's frame-ancestors come from the security headers
			// around the mux.
			mux.Handle("GET "+pg.Path, page)
		}
		// Earlier addresses: frames made for one are sent to the page
		// every host serves (the query carries the embedding page's
		// options).
		for _, old := range pg.Moved {
			to := pg.Path
			mux.HandleFunc("GET "+old, func(w http.ResponseWriter, r *http.Request) {
				u := *r.URL
				u.Path = to
				http.Redirect(w, r, u.RequestURI(), http.StatusPermanentRedirect)
			})
		}
	}
	mux.Handle("/", p.handler)
}

package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// staticHost is a plain static host (Go's file server, no headers of
// ours, no .br/.gz negotiation) serving a `tinyrag static --base /sub/`
// build under /sub/. It counts the responses that carried a file (200,
// not 304) per path, and can hold one path's requests until released.
type staticHost struct {
	URL    string
	out    string // the static build's folder
	bundle string // the bundle it ships

	mu    sync.Mutex
	full  map[string]int
	first map[string]time.Time // when each path was first asked for
	hold  map[string]chan struct{}
}

// newStaticHost builds the orchard pages into a bundle and the app with
// `tinyrag static --base /sub/` (no model preset: questions take the
// no-model path), and serves them on loopback.
func newStaticHost(t *testing.T) *staticHost {
	t.Helper()
	tmp := t.TempDir()
	_, bundleFile := orchardBundle(t, tmp)
	return serveStaticHost(t, tmp, bundleFile)
}

// serveStaticHost builds the app with the bundle in the folder bundleDir
// into tmp/site and serves it as newStaticHost does.
func serveStaticHost(t *testing.T, tmp, bundleDir string) *staticHost {
	t.Helper()
	h := &staticHost{out: filepath.Join(tmp, "site"), bundle: bundleDir, full: map[string]int{}, first: map[string]time.Time{}, hold: map[string]chan struct{}{}}
	h.deploy(t)

	files := http.StripPrefix("/sub/", http.FileServer(http.Dir(h.out)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/sub/") {
			http.NotFound(w, r)
			return
		}
		h.mu.Lock()
		gate := h.hold[r.URL.Path]
		if _, ok := h.first[r.URL.Path]; !ok {
			h.first[r.URL.Path] = time.Now()
		}
		h.mu.Unlock()
		if gate != nil {
			select {
			case <-gate:
			case <-r.Context().Done():
				return
			}
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		files.ServeHTTP(rec, r)
		if rec.status == http.StatusOK {
			h.mu.Lock()
			h.full[r.URL.Path]++
			h.mu.Unlock()
		}
	}))
	t.Cleanup(srv.Close)
	h.URL = srv.URL
	return h
}

// deploy (re)builds the site into the served folder with extra `tinyrag
// static` flags.
func (h *staticHost) deploy(t *testing.T, extra ...string) {
	t.Helper()
	run(t, binPath, append([]string{"static", "-o", h.out, "--base", "/sub/", "--bundle", h.bundle}, extra...)...)
}

// holdPath makes requests for path wait; the returned func lets them go.
func (h *staticHost) holdPath(path string) (release func()) {
	gate := make(chan struct{})
	h.mu.Lock()
	h.hold[path] = gate
	h.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			delete(h.hold, path)
			h.mu.Unlock()
			close(gate)
		})
	}
}

// firstAsked is when path was first asked for (zero: never).
func (h *staticHost) firstAsked(path string) time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.first[path]
}

// firstAskedLike is when the first path that match accepts was asked for
// (zero: none yet).
func (h *staticHost) firstAskedLike(match func(path string) bool) time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	var first time.Time
	for p, at := range h.first {
		if match(p) && (first.IsZero() || at.Before(first)) {
			first = at
		}
	}
	return first
}

// downloads is how many responses for path carried the file.
func (h *staticHost) downloads(path string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.full[path]
}

// downloadsUnder adds up downloads of the paths under prefix.
func (h *staticHost) filesUnder(prefix string) (files int, twice []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for p, c := range h.full {
		if strings.HasPrefix(p, prefix) {
			files++
			if c > 1 {
				twice = append(twice, p)
			}
		}
	}
	return files, twice
}

// The static site under a sub-path is installable, with the manifest's
// scope and start URL at the sub-path and the worker's scope there too.
func TestPWA_StaticSiteUnderASubPathIsInstallable(t *testing.T) {
	site := newStaticHost(t)
	b := newBrowser(t, 1280, 800)
	openApp(t, b, site.URL+"/sub/")
	waitWorker(t, b)
	m := checkInstallable(t, b)
	want := site.URL + "/sub/"
	if m.Scope != want || m.StartURL != want {
		t.Errorf("manifest scope %q, start_url %q; want both %q", m.Scope, m.StartURL, want)
	}
	scope := eval[string](t, b, `navigator.serviceWorker.getRegistration().then((r) => r ? r.scope : "")`)
	if scope != want {
		t.Errorf("service worker scope %q, want %q", scope, want)
	}
	// The worker is server/pwa's (it answers its version), the same as
	// the page's.
	if got, page := eval[string](t, b, controllerVersion), eval[string](t, b, `window.tinyragPWA.version`); got != page || got == "" {
		t.Errorf("worker version %q, page version %q", got, page)
	}
}

// A first visit to the static site downloads the app first: the worker
// stores nanoGo's and the importer's wasm and the site's whole bundle only
// once the app reports ready (the page itself asks for the few site files
// every first search needs while app.wasm loads: site-prefetch.js). After that one visit, with the
// network off, the app starts from the worker under /sub/, local files
// import, its site knowledge answers a question with a citation without a
// model, and a Go snippet runs in nanoGo.
func TestPWA_StaticSiteWorksOfflineAfterOneVisit(t *testing.T) {
	site := newStaticHost(t)
	b := newBrowser(t, 1280, 800)

	// The page notes when its app is ready (on the page's wall clock, as
	// the host's).
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
	  new MutationObserver((_, mo) => {
	    if (document.querySelector('#shell[data-ready="true"]')) { window.__readyAt = Date.now(); mo.disconnect(); }
	  }).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-ready"], childList: true});`}); err != nil {
		t.Fatal(err)
	}
	// The page's line is slow (DevTools throttles the page, not the
	// worker): its app.wasm arrives seconds after the worker's install has
	// fetched everything it installs, which leaves a wide window in which
	// anything stored too early would show.
	setNetwork(t, b, false, 1.25e6, 40)
	b.do(t, 90*time.Second, "app ready", chromedp.Navigate(site.URL+"/sub/"), chromedp.WaitVisible(chromedp.CSS(`#shell[data-ready="true"]:not([data-llm="unknown"])`)))
	setNetwork(t, b, false, 0, 0)
	readyAt := time.UnixMilli(int64(eval[float64](t, b, `window.__readyAt`)))
	// The worker fetched the files it stores later only after the app was
	// ready: nanoGo's, the importer's and the Markdown renderer's wasm,
	// and the bundle's list of files, which only its background download
	// reads. The page shows ready on the render after the app is: a
	// little slack for that render.
	const renderSlack = 500 * time.Millisecond
	// The host sends files as they lie on disk, so each wasm comes as
	// its .gz sibling.
	later := map[string]func(string) bool{
		"/sub/web/nanogo.wasm":   func(p string) bool { return strings.HasPrefix(p, "/sub/web/nanogo.wasm") },
		"/sub/web/importer.wasm": func(p string) bool { return strings.HasPrefix(p, "/sub/web/importer.wasm") },
		"/sub/web/markdown.wasm": func(p string) bool { return strings.HasPrefix(p, "/sub/web/markdown.wasm") },
		"the bundle's file list": func(p string) bool { return strings.HasPrefix(p, "/sub/bundles/") && strings.Contains(p, "/l/") },
	}
	for name, match := range later {
		waitFor(t, 60*time.Second, name+" asked for", func() bool { return !site.firstAskedLike(match).IsZero() })
		if at := site.firstAskedLike(match); at.Before(readyAt.Add(-renderSlack)) {
			t.Errorf("%s was asked for %v before the app showed ready", name, readyAt.Sub(at))
		}
	}
	waitOfflineReady(t, b)
	// The plain host sends a file as it lies on disk: the page's loader
	// and the worker take each wasm from its .gz sibling, a fourth of the
	// bytes. The page's preload of app.wasm began and was canceled once
	// the sibling answered; the install revalidated the page's sibling;
	// the worker asked for the later ones' siblings at once.
	for p, want := range map[string]int{
		"/sub/web/app.wasm":         1,
		"/sub/web/app.wasm.gz":      1,
		"/sub/web/nanogo.wasm.gz":   1,
		"/sub/web/importer.wasm.gz": 1,
		"/sub/web/markdown.wasm.gz": 1,
		"/sub/web/nanogo.wasm":      0,
		"/sub/web/importer.wasm":    0,
		"/sub/web/markdown.wasm":    0,
	} {
		if n := site.downloads(p); n != want {
			t.Errorf("%s downloaded %d times on the first visit, want %d", p, n, want)
		}
	}
	// The worker stored the bundle whole, each file once: what the page's
	// queries fetched it kept, the rest it fetched in the background.
	if files, twice := site.filesUnder("/sub/bundles/"); files == 0 || len(twice) > 0 {
		t.Errorf("bundle files downloaded: %d, more than once: %v", files, twice)
	}
	// Its term shards and fragments came as their .gz siblings too, from
	// the page and from the worker alike.
	site.mu.Lock()
	siblings := 0
	for p := range site.full {
		if strings.HasPrefix(p, "/sub/bundles/") && (strings.Contains(p, "/t/") || strings.Contains(p, "/f/")) {
			if !strings.HasSuffix(p, ".gz") {
				t.Errorf("%s downloaded as it lies on disk, not as its .gz sibling", p)
			}
			siblings++
		}
	}
	site.mu.Unlock()
	if siblings == 0 {
		t.Error("no term shard or fragment downloaded")
	}
	if st := eval[string](t, b, `(window.tinyragPWA.site || {}).state || ""`); st != "done" {
		t.Errorf("the site's knowledge is %q for offline use, want done", st)
	}
	v := eval[string](t, b, `window.tinyragPWA.version`)
	// nanoGo allowed, as a user does in Settings (read at start-up).
	eval[bool](t, b, `(() => {
		const s = JSON.parse(localStorage.getItem("tinyrag.settings") || "{}");
		s.allow_nanogo = true; s.theme = s.theme || "dark";
		localStorage.setItem("tinyrag.settings", JSON.stringify(s));
		return true; })()`)

	setNetwork(t, b, true, 0, 0)
	openApp(t, b, site.URL+"/sub/")
	if got := eval[string](t, b, `window.tinyragPWA.version`); got != v {
		t.Errorf("offline the page runs version %q, want %q", got, v)
	}
	if got := eval[string](t, b, `document.getElementById("shell").dataset.net`); got != "offline" {
		t.Errorf("data-net = %q with the network off, want offline", got)
	}

	// Site knowledge came from the worker's copy of tinyrag.json and the
	// bundle.
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	waitJS(t, b, 20*time.Second, "site knowledge listed offline", `(document.querySelector("#site-knowledge .site-bundle") || {innerText: ""}).innerText.includes("3 documents")`)
	waitJS(t, b, 10*time.Second, "the panel says it is stored for offline use", `!!document.querySelector('#site-knowledge [data-offline="done"]')`)

	// Local files import offline (importer.wasm from the worker).
	dir := t.TempDir()
	md, txt := filepath.Join(dir, "okapis.md"), filepath.Join(dir, "quokkas.txt")
	os.WriteFile(md, []byte("# Okapis\n\nOkapis live in the Ituri rainforest of the Congo basin.\n"), 0o644)
	os.WriteFile(txt, []byte("Quokkas live on Rottnest Island off Western Australia.\n"), 0o644)
	b.do(t, 10*time.Second, "import files offline", chromedp.SetUploadFiles(chromedp.ID("kb-files"), []string{md, txt}))
	waitJS(t, b, 60*time.Second, "both files imported offline", `(() => {
	  const titles = [...document.querySelectorAll("#doc-list .doc-title")].map((e) => e.textContent).join(" ").toLowerCase();
	  return titles.includes("okapis") && titles.includes("quokka"); })()`)
	b.screenshot(t, "pwa-static-offline-knowledge")

	// A knowledge question, answered without a model from the bundle.
	b.do(t, 5*time.Second, "back to chats", chromedp.Click(chromedp.ID("tab-chats")))
	ask(t, b, "When should I prune the apple trees?")
	waitJS(t, b, 30*time.Second, "answered from the site's bundle offline", lastAnswer+`.includes("dormant")`)
	waitJS(t, b, 5*time.Second, "the answer cites its source", `document.querySelector(".msg.assistant .citations .citation")`)
	if !eval[bool](t, b, `!![...document.querySelectorAll('.msg.assistant')].pop().querySelector('.xml-tool-card[data-tool="rag_knowledge"][data-status="done"]')`) {
		t.Error("the offline answer has no rag_knowledge card")
	}
	if !eval[bool](t, b, `[...document.querySelectorAll('.msg.assistant')].pop().innerText.includes("offline")`) {
		t.Error("the offline answer does not say it was made offline, without a model")
	}
	b.screenshot(t, "pwa-static-offline")

	// A Go snippet runs in nanoGo's sandbox, loaded from the worker's copy
	// under /sub/.
	clearInput(t, b)
	eval[bool](t, b, `(() => { const el = document.getElementById("chat-input");
		el.value = "Run this:\n`+"```go\\nfmt.Println(6 * 7)\\n```"+`";
		el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
	b.do(t, 10*time.Second, "send the snippet", chromedp.Click(chromedp.ID("chat-input")), chromedp.SendKeys(chromedp.ID("chat-input"), "\r"))
	waitJS(t, b, 60*time.Second, "snippet ran offline", lastAnswer+`.includes("42")`)
	if !eval[bool](t, b, `!![...document.querySelectorAll('.msg.assistant')].pop().querySelector('.xml-tool-card[data-tool="nanogo"][data-status="done"]')`) {
		t.Error("the offline snippet has no nanogo card")
	}
}

// A new build of the static site installs in the background and waits for
// the user's Reload, as with `tinyrag serve`; the site's stored data
// survives the switch.
func TestPWA_StaticSiteUpdateWaitsForTheUser(t *testing.T) {
	site := newStaticHost(t)
	b := newBrowser(t, 1280, 800)
	openApp(t, b, site.URL+"/sub/")
	waitWorker(t, b)
	verA := eval[string](t, b, `window.tinyragPWA.version`)

	// Build B: another policy in the page makes another version. A static
	// host revalidates by modification time: B is deployed later.
	site.deploy(t, "--csp-connect", "'self' http://127.0.0.1:*")
	later := time.Now().Add(time.Hour)
	filepath.WalkDir(site.out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, later, later)
		}
		return nil
	})
	eval[bool](t, b, `navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true)`)
	waitJS(t, b, 60*time.Second, "update prompt", `document.querySelector("#update-prompt .btn")`)
	if got := eval[string](t, b, controllerVersion); got != verA {
		t.Errorf("worker in control before the click: %q, want A's %q", got, verA)
	}
	b.do(t, 10*time.Second, "click Reload", chromedp.Click(chromedp.ID("update-reload")))
	waitJS(t, b, 60*time.Second, "page reloaded into B", `window.tinyragPWA && window.tinyragPWA.version !== `+jsString(verA))
	b.do(t, 60*time.Second, "B ready", chromedp.WaitVisible(chromedp.CSS(`#shell[data-ready="true"]:not([data-llm="unknown"])`)))
	verB := eval[string](t, b, `window.tinyragPWA.version`)
	if got := eval[string](t, b, controllerVersion); got != verB {
		t.Errorf("worker in control after the click: %q, want the page's %q", got, verB)
	}
	// The worker in /sub/ names its caches for its scope.
	waitJS(t, b, 10*time.Second, "A's cache deleted on B's activation", `(async () => (await `+versionCaches+`) === "tinyrag@/sub/-`+verB+`")()`)
	if !eval[bool](t, b, `caches.has("tinyrag@/sub/-site")`) {
		t.Error("the site's stored tinyrag.json and bundle were dropped with A's cache")
	}
}

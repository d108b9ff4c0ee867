package e2e

import (
	"context"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"tinyrag/app/knowledge/bundle"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// anywherePath is where the tests copy a static site built without
// --base: a folder it was not built for.
const anywherePath = "/any/deep/path/"

// plainHost is a static host that knows nothing of tinyRAG: Go's file
// server over one folder, with the Content-Type taken from the file's
// extension alone, as nginx, S3 and Python's http.server do (for a file
// without a known extension they send application/octet-stream, where
// Go's server alone would guess from the bytes). No headers of ours, no
// .br/.gz negotiation. It remembers every path it answered 404, and can
// go away (every connection closed unanswered, as an unreachable host).
type plainHost struct {
	*httptest.Server
	mu       sync.Mutex
	missing  []string
	requests []string
	gone     bool
	// delay, when set, says how long to hold the answer to a path.
	delay func(path string) time.Duration
}

// slow makes the host hold each answer for as long as delay says.
func (h *plainHost) slow(delay func(path string) time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.delay = delay
}

// goAway makes the host unreachable from now on. DevTools' offline mode
// covers the page, not the fetches its service worker makes; with the
// host gone, whatever the worker does not have stored fails, as offline.
func (h *plainHost) goAway() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.gone = true
}

func newPlainHost(t *testing.T, root string) *plainHost {
	t.Helper()
	h := &plainHost{}
	files := http.FileServer(http.Dir(root))
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		gone, delay := h.gone, h.delay
		h.mu.Unlock()
		if delay != nil {
			time.Sleep(delay(r.URL.Path))
		}
		if gone {
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		if !strings.HasSuffix(r.URL.Path, "/") {
			ct := mime.TypeByExtension(path.Ext(r.URL.Path))
			if ct == "" {
				ct = "application/octet-stream"
			}
			w.Header().Set("Content-Type", ct)
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		files.ServeHTTP(rec, r)
		h.mu.Lock()
		defer h.mu.Unlock()
		h.requests = append(h.requests, r.URL.Path)
		if rec.status == http.StatusNotFound {
			h.missing = append(h.missing, r.URL.Path)
		}
	}))
	t.Cleanup(h.Close)
	return h
}

// notFound lists the paths the host answered 404.
func (h *plainHost) notFound() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.missing...)
}

// outside lists the requested paths that are not under any of prefixes.
func (h *plainHost) outside(prefixes ...string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
next:
	for _, p := range h.requests {
		for _, pre := range prefixes {
			if strings.HasPrefix(p, pre) {
				continue next
			}
		}
		out = append(out, p)
	}
	return out
}

// siteAnywhere builds the orchard pages into a bundle (cited under
// /docs/), the app with `tinyrag static` and no --base (plus extra
// flags), copies the app into anywherePath and the pages into /docs/ of
// one folder, and serves that folder with a plainHost.
func siteAnywhere(t *testing.T, extra ...string) *plainHost {
	t.Helper()
	return siteInFolders(t, []string{anywherePath}, extra...)
}

// siteInFolders is siteAnywhere with a copy of the app in each of
// folders.
func siteInFolders(t *testing.T, folders []string, extra ...string) *plainHost {
	t.Helper()
	tmp := t.TempDir()
	pages, bundleFile := orchardBundle(t, tmp)
	return hostSite(t, tmp, pages, bundleFile, folders, extra...)
}

// hostSite builds the app with bundleFile by `tinyrag static` (with extra
// flags) in tmp and serves it from a plain host: a copy in each of
// folders, the pages under /docs/.
func hostSite(t *testing.T, tmp, pages, bundleFile string, folders []string, extra ...string) *plainHost {
	t.Helper()
	out := filepath.Join(tmp, "build")
	run(t, binPath, append([]string{"static", "-o", out, "--bundle", bundleFile}, extra...)...)

	root := filepath.Join(tmp, "www")
	copyTo := func(src, folder string) {
		dst := filepath.Join(root, filepath.FromSlash(folder))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
	}
	copyTo(pages, "/docs/")
	for _, f := range folders {
		copyTo(out, f)
	}
	return newPlainHost(t, root)
}

// A site built without --base and copied into a folder it knows nothing
// of, on a host that knows nothing of tinyRAG: on the first visit it
// loads, answers from its bundle through the site's model with a
// citation linking to the page where the bundle's --prefix puts it, and
// keeps its service worker and manifest in that folder; after that visit
// it starts and answers offline.
func TestStaticSite_BuiltWithoutBaseWorksFromAnyFolderOnAPlainHostAndOffline(t *testing.T) {
	llm := newScriptedLLM(t, siteScripts())
	direct := httptest.NewServer(withCORS(llm.Config.Handler))
	t.Cleanup(direct.Close)
	site := siteAnywhere(t, "--llm-url", direct.URL+"/v1")
	app := site.URL + anywherePath

	b := newBrowser(t, 1280, 800)
	openApp(t, b, app)
	if st := eval[string](t, b, `document.getElementById("shell").dataset.llm`); st != "ok" {
		t.Fatalf("model state %q: %s", st, eval[string](t, b, `(document.getElementById("llm-explain")||{}).innerText||""`))
	}
	ask(t, b, "[site] When should I prune?")
	waitJS(t, b, 30*time.Second, "answer with citation", `document.querySelector(".msg.assistant .citation") && `+lastAnswer+`.includes("late winter")`)
	if href := citationLink(t, b, ".msg.assistant .citation"); !strings.HasPrefix(href, site.URL+"/docs/pruning.html#:~:text=") {
		t.Errorf("citation links to %q, want %q at the passage", href, site.URL+"/docs/pruning.html")
	}
	b.screenshot(t, "static-anywhere-cited")

	// The page's site-prefetch.js asked for the config, the manifest and
	// the group table while app.wasm loaded, and the app took its
	// responses: each was requested once, before the app was ready.
	requested := eval[[]string](t, b, `(() => {
	  const ready = performance.getEntriesByName("tinyrag:ready")[0].startTime;
	  return performance.getEntriesByType("resource")
	    .filter((e) => /tinyrag\.json|\/bundles\/.*(manifest-|\/g\/)/.test(e.name))
	    .map((e) => new URL(e.name).pathname + (e.startTime < ready ? "" : " (after ready)"));
	})()`)
	counts := map[string]int{}
	tables := 0
	for _, r := range requested {
		counts[r]++
		if strings.Contains(r, "/g/") {
			tables++
		}
	}
	for r, n := range counts {
		if n > 1 || strings.HasSuffix(r, "(after ready)") {
			t.Errorf("site file %s requested %d times; want once, before the app was ready (all: %q)", r, n, requested)
		}
	}
	if tables != 1 || len(counts) < 3 {
		t.Errorf("requested before the first answer %q; want tinyrag.json, the manifest and the group table", requested)
	}

	// The worker and the manifest keep to the folder the site was copied
	// into.
	waitWorker(t, b)
	if scope := eval[string](t, b, `navigator.serviceWorker.getRegistration().then((r) => r ? r.scope : "")`); scope != app {
		t.Errorf("service worker scope %q, want %q", scope, app)
	}
	if m := checkInstallable(t, b); m.Scope != app || m.StartURL != app {
		t.Errorf("manifest scope %q, start_url %q; want both %q", m.Scope, m.StartURL, app)
	}
	if p := b.Problems(); len(p) > 0 {
		t.Errorf("browser reported problems:\n%v", p)
	}
	if nf := site.notFound(); len(nf) > 0 {
		t.Errorf("the host answered 404 for %q", nf)
	}
	if out := site.outside(anywherePath); len(out) > 0 {
		t.Errorf("the app requested files outside its folder: %q", out)
	}

	// Offline, the worker starts the app from its folder; the model is out
	// of reach, and the bundle answers with its citation.
	dropHTTPCache(t, b)
	setNetwork(t, b, true, 0, 0)
	site.goAway()
	openApp(t, b, app)
	if got := eval[string](t, b, `document.getElementById("shell").dataset.net`); got != "offline" {
		t.Errorf("data-net = %q with the network off, want offline", got)
	}
	ask(t, b, "When should I prune the apple trees?")
	waitJS(t, b, 30*time.Second, "answered from the bundle offline", lastAnswer+`.includes("dormant")`)
	if href := citationLink(t, b, ".msg.assistant:last-of-type .citation"); !strings.HasPrefix(href, site.URL+"/docs/pruning.html#:~:text=") {
		t.Errorf("offline citation links to %q, want %q at the passage", href, site.URL+"/docs/pruning.html")
	}
	b.screenshot(t, "static-anywhere-offline")
}

// The embed of a site built without --base, on a plain host: a host page
// of another origin frames the site's embed.html (served as HTML by its
// extension alone), the panel says ready and the host's question gets
// the site's cited answer.
func TestEmbed_StaticSiteBuiltWithoutBaseOnAPlainHostAnswersAnotherOrigin(t *testing.T) {
	llm := newScriptedLLM(t, siteScripts())
	direct := httptest.NewServer(withCORS(llm.Config.Handler))
	t.Cleanup(direct.Close)
	host := newOrigin(t)
	site := siteAnywhere(t, "--llm-url", direct.URL+"/v1", "--embed-origins", host.URL, "--embed-host-submit")
	app := strings.TrimSuffix(site.URL+anywherePath, "/")
	host.set("/", hostPage(app, "Host", ""))

	b := newBrowser(t, 1280, 800)
	reqs := watchRequests(t, b)
	openHost(t, b, host.URL+"/")
	eval[bool](t, b, recordHostMessages)
	eval[bool](t, b, `(tinyRAG.ask("[site] When should I prune?"), true)`)
	waitJS(t, b, 90*time.Second, "the host receives the answer", `window.__got.answers.length > 0`)
	got := hostMessages(t, b)
	a := got.Answers[0]
	if got.Ready != 1 || len(got.Errors) > 0 || !strings.Contains(a.Answer, "late winter") {
		t.Errorf("ready %d times, errors %q, answer %q; want ready once, no errors, the model's answer", got.Ready, got.Errors, a.Answer)
	}
	if len(a.Citations) == 0 || a.Citations[0].Title != "Winter pruning" || a.Citations[0].Source != "/docs/pruning.html" {
		t.Errorf("citations %+v, want the pruning page at /docs/pruning.html", a.Citations)
	}
	if frames := reqs.matching(app + "/embed.html?"); len(frames) != 1 {
		t.Errorf("the panel's page was requested as %q, want once, at %s/embed.html", frames, app)
	}
	if nf := site.notFound(); len(nf) > 0 {
		t.Errorf("the host answered 404 for %q", nf)
	}
	b.screenshot(t, "embed-static-anywhere")
}

// Two copies of a site on one origin, each in its own folder (two projects
// on one GitHub Pages host, two versions of a docs site): each has its own
// worker, and installing the second keeps the first's offline copy. With
// the network off, both start and answer from their bundles.
func TestStaticSite_TwoCopiesOnOneOriginKeepTheirOwnOfflineCopies(t *testing.T) {
	folders := []string{"/one/kb/", "/two/kb/"}
	site := siteInFolders(t, folders)
	b := newBrowser(t, 1280, 800)
	for _, f := range folders {
		openApp(t, b, site.URL+f)
		waitWorker(t, b)
	}
	// Each copy's page and site data are still stored (Cache Storage is
	// the origin's, shared by both workers).
	for _, f := range folders {
		for _, file := range []string{"", "web/app.wasm", "tinyrag.json"} {
			if !eval[bool](t, b, `caches.match(`+jsString(site.URL+f+file)+`, {ignoreSearch: true}).then((r) => !!r)`) {
				t.Errorf("%s%s is no longer stored after both copies installed (caches: %s)", f, file,
					eval[string](t, b, `caches.keys().then((k) => k.sort().join(" "))`))
			}
		}
	}

	dropHTTPCache(t, b)
	setNetwork(t, b, true, 0, 0)
	site.goAway()
	for _, f := range folders {
		openApp(t, b, site.URL+f)
		if scope := eval[string](t, b, `navigator.serviceWorker.controller ? navigator.serviceWorker.getRegistration().then((r) => r.scope) : ""`); scope != site.URL+f {
			t.Errorf("offline, %s is served by the worker of %q", f, scope)
		}
		ask(t, b, "When should I prune the apple trees?")
		waitJS(t, b, 30*time.Second, "answered from the bundle offline in "+f, lastAnswer+`.includes("dormant")`)
	}
}

// dropHTTPCache empties the browser's HTTP cache, so that what a page
// gets offline can only come from its service worker (a plain host's
// files are heuristically fresh there for a while).
func dropHTTPCache(t *testing.T, b *browser) {
	t.Helper()
	b.do(t, 10*time.Second, "clear the HTTP cache", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.ClearBrowserCache, cdp.Empty{})
		return err
	}))
}

// A damaged shard of a bundle fails the searches that need it with a
// message naming it, and nothing else: other searches of the same bundle,
// the visitor's own knowledge and the tools keep working.
func TestStaticSite_ADamagedShardFailsOnlyTheSearchesThatNeedIt(t *testing.T) {
	tmp := t.TempDir()
	pages, _ := orchardBundle(t, tmp)
	dir := filepath.Join(tmp, "small-shards")
	run(t, binPath, "bundle", "-o", dir, "-title", "Orchard handbook", "-prefix", "/docs/", "-shard-bytes", "64", pages)
	out := filepath.Join(tmp, "www", "kb")
	run(t, binPath, "static", "-o", out, "--bundle", dir)
	// The shard holding "dormant" is altered on the host.
	o, err := bundle.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := o.Manifest.Terms
	if m.Paged || len(m.Files) < 3 {
		t.Fatalf("the test needs several unpaged term shards, the bundle has %d", len(m.Files))
	}
	shard := ""
	for i, first := range m.First {
		if first <= "dormant" {
			shard = m.Files[i]
		}
	}
	damaged := filepath.Join(out, "bundles", "small-shards", filepath.FromSlash(shard))
	for _, f := range []string{damaged, damaged + ".gz", damaged + ".br"} {
		os.Remove(f)
	}
	if err := os.WriteFile(damaged, []byte("not what its name says"), 0o644); err != nil {
		t.Fatal(err)
	}
	site := newPlainHost(t, filepath.Join(tmp, "www"))

	b := newBrowser(t, 1280, 800)
	openApp(t, b, site.URL+"/kb/")
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	waitJS(t, b, 20*time.Second, "site knowledge ready", `!!document.querySelector('#site-knowledge [data-site="ready"]')`)
	b.do(t, 10*time.Second, "search what the damaged shard holds", chromedp.Click(chromedp.ID("kb-search")), chromedp.SendKeys(chromedp.ID("kb-search"), "dormant"))
	waitJS(t, b, 20*time.Second, "the search says what failed", `(document.getElementById("kb-search-err") || {innerText: ""}).innerText.includes("damaged")`)
	if msg := eval[string](t, b, `document.getElementById("kb-search-err").innerText`); !strings.Contains(msg, path.Base(shard)) {
		t.Errorf("the message %q does not name the damaged file %s", msg, shard)
	}
	b.screenshot(t, "static-damaged-shard")
	// Another word of the same bundle, in another shard, is found.
	other := "grafting"
	for _, f := range m.First {
		if f > "dormant" && f < "zz" {
			other = f
			break
		}
	}
	eval[bool](t, b, `(() => { const el = document.getElementById("kb-search"); el.value = "";
		el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
	b.do(t, 10*time.Second, "search another word", chromedp.SendKeys(chromedp.ID("kb-search"), other))
	waitJS(t, b, 20*time.Second, "a hit from another shard", `!!document.querySelector("#kb-hits .hit") && !document.getElementById("kb-search-err")`)
	// The app itself goes on: the calculator answers without any model.
	b.do(t, 5*time.Second, "back to chats", chromedp.Click(chromedp.ID("tab-chats")))
	ask(t, b, "What is 6 * 7?")
	waitJS(t, b, 30*time.Second, "the calculator answers", lastAnswer+`.includes("42")`)
}

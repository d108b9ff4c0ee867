package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// orchardPages is a small built site: HTML pages with navigation chrome
// around the content, as a static site generator writes them.
var orchardPages = map[string]string{
	"index.html": `<!doctype html><html lang="en"><head><title>Orchard Handbook</title></head><body>
<nav><a href="pruning.html">Pruning</a> · <a href="storage.html">Storage</a></nav>
<main><h1>Orchard Handbook</h1><p>How our cooperative grows heritage apples and pears.</p></main></body></html>`,
	"pruning.html": `<!doctype html><html lang="en"><head><title>Winter pruning</title></head><body>
<nav><a href="index.html">Home</a></nav>
<article><h1>Winter pruning</h1><p>Prune the apple trees in late winter, while the buds are still dormant. Remove crossing branches first, then thin the canopy so that light reaches the fruiting spurs.</p></article></body></html>`,
	"storage.html": `<!doctype html><html lang="en"><head><title>Storing pears</title></head><body>
<article><h1>Storing pears</h1><p>Store pears at one degree Celsius and ninety percent humidity.</p></article></body></html>`,
}

// siteScripts: the model looks the question up in the knowledge base and
// answers from it.
func siteScripts() map[string][][]step {
	return map[string][][]step{
		"": {words("Hello from the scripted model.", 5*time.Millisecond)},
		"[site]": {
			{{Text: "Let me look that up. "}, {Text: `<tool name="rag_knowledge"><query>when to prune apple trees</query></tool>`, Delay: 30 * time.Millisecond}},
			words("Prune in **late winter**, while the buds are dormant [1].", 5*time.Millisecond),
		},
	}
}

// withCORS lets pages from any origin call next, as Ollama with
// OLLAMA_ORIGINS or LM Studio with CORS enabled do.
func withCORS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" {
			w.Header().Set("Access-Control-Allow-Origin", o)
			w.Header().Set("Vary", "Origin")
		}
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
			w.Header().Set("Access-Control-Allow-Headers", r.Header.Get("Access-Control-Request-Headers"))
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// orchardBundle writes the orchard pages into tmp/docs and bundles them
// with `tinyrag bundle` into the folder tmp/orchard, cited under /docs/.
func orchardBundle(t *testing.T, tmp string, bundleArgs ...string) (pages, bundleDir string) {
	t.Helper()
	pages = filepath.Join(tmp, "docs")
	os.MkdirAll(pages, 0o755)
	for name, body := range orchardPages {
		if err := os.WriteFile(filepath.Join(pages, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bundleDir = filepath.Join(tmp, "orchard")
	run(t, binPath, append([]string{"bundle", "-o", bundleDir, "-title", "Orchard handbook", "-prefix", "/docs/"}, append(bundleArgs, pages)...)...)
	return pages, bundleDir
}

// staticSite builds a bundle from the orchard pages with `tinyrag bundle`
// and the app with `tinyrag static --base /kb/`, and serves both with Go's
// plain file server: the app under /kb/, the pages under /docs/.
func staticSite(t *testing.T, llmURL string) *httptest.Server {
	t.Helper()
	tmp := t.TempDir()
	pages, bundleFile := orchardBundle(t, tmp)
	out := filepath.Join(tmp, "site")
	run(t, binPath, "static", "-o", out, "--base", "/kb/", "--bundle", bundleFile, "--llm-url", llmURL)
	return serveStatic(t, out, pages)
}

// serveStatic is a plain static host: Go's file server, the app under
// /kb/ and (if given) pages under /docs/. It sends no CSP or other
// headers and does not use the .gz/.br siblings.
func serveStatic(t *testing.T, app, pages string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/kb/", http.StripPrefix("/kb/", http.FileServer(http.Dir(app))))
	if pages != "" {
		mux.Handle("/docs/", http.StripPrefix("/docs/", http.FileServer(http.Dir(pages))))
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// citationLink opens the citation sel picks and returns where its dialog
// links.
func citationLink(t *testing.T, b *browser, sel string) string {
	t.Helper()
	b.do(t, 5*time.Second, "open citation", chromedp.Click(chromedp.CSS(sel)))
	waitJS(t, b, 5*time.Second, "citation links to the page", `document.getElementById("cite-link")`)
	return eval[string](t, b, `document.getElementById("cite-link").href`)
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

func TestStaticSite_UnderASubPathAnswersFromTheBundleThroughADirectModel(t *testing.T) {
	llm := newScriptedLLM(t, siteScripts())
	direct := httptest.NewServer(withCORS(llm.Config.Handler))
	t.Cleanup(direct.Close)
	site := staticSite(t, direct.URL+"/v1")

	b := newBrowser(t, 1280, 800)
	openApp(t, b, site.URL+"/kb/")
	if st := eval[string](t, b, `document.getElementById("shell").dataset.llm`); st != "ok" {
		t.Fatalf("model state %q: %s", st, eval[string](t, b, `(document.getElementById("llm-explain")||{}).innerText||""`))
	}

	// Site knowledge is there on the first visit, read-only, apart from
	// the visitor's (empty) sources.
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	waitJS(t, b, 10*time.Second, "site knowledge listed", `(document.querySelector("#site-knowledge .site-bundle") || {innerText: ""}).innerText.includes("3 documents")`)
	waitJS(t, b, 10*time.Second, "site knowledge ready", `!!document.querySelector('#site-knowledge [data-site="ready"]')`)
	if txt := eval[string](t, b, `document.getElementById("site-knowledge").innerText`); !strings.Contains(txt, "Orchard handbook") || !strings.Contains(strings.ToLower(txt), "read-only") {
		t.Errorf("site knowledge panel: %q", txt)
	}
	if n := eval[int](t, b, `document.querySelectorAll("#doc-list .doc").length`); n != 0 {
		t.Errorf("site documents were listed among the visitor's own (%d)", n)
	}
	b.do(t, 10*time.Second, "search site knowledge", chromedp.Click(chromedp.ID("kb-search")), chromedp.SendKeys(chromedp.ID("kb-search"), "dormant buds"))
	waitJS(t, b, 10*time.Second, "search hit", `document.querySelector("#panel-knowledge mark")`)
	if eval[bool](t, b, `!!document.getElementById("kb-url")`) || !eval[bool](t, b, `!!document.getElementById("kb-url-off")`) {
		t.Error("URL import is offered although the site has no proxy")
	}
	eval[bool](t, b, `(document.getElementById("site-knowledge").scrollIntoView(), true)`)
	b.screenshot(t, "static-site-knowledge")

	// The question goes to the model directly (no proxy), which searches
	// the knowledge base; the citation links to the page.
	b.do(t, 5*time.Second, "back to chats", chromedp.Click(chromedp.ID("tab-chats")))
	ask(t, b, "[site] When should I prune?")
	waitJS(t, b, 20*time.Second, "answer with citation", `document.querySelector(".msg.assistant .citation") && `+lastAnswer+`.includes("late winter")`)
	// The page, opened at the passage (docs/embedding-search.md).
	if href := citationLink(t, b, ".msg.assistant .citation"); !strings.HasPrefix(href, site.URL+"/docs/pruning.html#:~:text=") {
		t.Errorf("citation links to %q, want %q at the passage", href, site.URL+"/docs/pruning.html")
	}
	if reqs := llm.Requests(); len(reqs) < 2 || reqs[0] != "[site]/0" {
		t.Errorf("model requests %v", reqs)
	}
	// Late errors (service worker install, icons) surface after mount.
	b.do(t, 10*time.Second, "service worker settles", chromedp.Sleep(1500*time.Millisecond))
	if p := b.Problems(); len(p) > 0 {
		t.Fatalf("browser reported problems:\n%v", p)
	}
	// The service worker and the manifest stay inside /kb/.
	scope := eval[string](t, b, `(async () => { const r = await navigator.serviceWorker.getRegistration(); return r ? r.scope : ""; })()`)
	if scope != site.URL+"/kb/" {
		t.Errorf("service worker scope %q, want %q", scope, site.URL+"/kb/")
	}
}

func TestStaticSite_ModelRefusingCORSIsExplainedWithTheFix(t *testing.T) {
	llm := newScriptedLLM(t, siteScripts()) // no CORS headers: browsers may not read it
	site := staticSite(t, llm.BaseURL())

	b := newBrowser(t, 1280, 800)
	openApp(t, b, site.URL+"/kb/")
	waitJS(t, b, 15*time.Second, "explanation shown", `document.getElementById("llm-explain") && document.getElementById("llm-explain").innerText.includes("CORS")`)
	txt := eval[string](t, b, `document.getElementById("llm-explain").innerText`)
	for _, want := range []string{"answered, but does not allow requests from this page", "OLLAMA_ORIGINS=" + site.URL, "Enable CORS", "llama-server"} {
		if !strings.Contains(txt, want) {
			t.Errorf("explanation lacks %q: %s", want, txt)
		}
	}
	if strings.Contains(txt, "TypeError") || strings.Contains(txt, "Failed to fetch") {
		t.Errorf("explanation shows the raw fetch error: %s", txt)
	}
	b.screenshot(t, "static-cors-explained")
	fmt.Println("explanation:", txt)

	// Settings: the endpoint (the site's preset shows as the default) and
	// an optional key, with what keeping it in the browser means.
	b.do(t, 5*time.Second, "open settings", chromedp.Click(chromedp.CSS("#llm-banner .banner-actions .btn")))
	waitJS(t, b, 5*time.Second, "key field", `document.getElementById("set-key")`)
	if ph := eval[string](t, b, `document.getElementById("set-endpoint").placeholder`); ph != llm.BaseURL() {
		t.Errorf("endpoint placeholder %q, want the site's preset %q", ph, llm.BaseURL())
	}
	if hint := eval[string](t, b, `document.getElementById("set-key").parentElement.innerText`); !strings.Contains(hint, "only in this browser") {
		t.Errorf("no warning with the key field: %q", hint)
	}
	b.screenshot(t, "static-settings-direct")
}

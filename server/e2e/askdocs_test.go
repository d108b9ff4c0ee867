package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// What a documentation site's visitors expect of the embed: search as
// they type (Ctrl-K), a page opened at the cited passage, starter
// questions, links that ask, feedback to the site, and chats with
// addresses in the full app.

// escapingPage is a page whose words are markup and script: the search
// must show them as the text they are.
const escapingPage = `<!doctype html><html lang="en"><head><title>Escaping &lt;script&gt; in templates</title></head><body>
<article><h1>Escaping</h1><p>Write &lt;script&gt;window.__pwned = 1&lt;/script&gt; in a template and the engine prints it as text, &lt;b&gt;bold&lt;/b&gt; tags included.</p></article></body></html>`

// docsSite is a documentation site on a loopback origin of its own: the
// orchard pages and the escaping page under /docs/, bundled with
// `tinyrag bundle` and cited by their full address. It returns the bundle
// file and the origin, which also serves the host pages.
func docsSite(t *testing.T) (bundleFile string, host *origin) {
	t.Helper()
	host = newOrigin(t)
	dir := filepath.Join(t.TempDir(), "docs")
	os.MkdirAll(dir, 0o755)
	pages := map[string]string{"escaping.html": escapingPage}
	for k, v := range orchardPages {
		pages[k] = v
	}
	// More pages about apples than an answer's prompt takes: what is left
	// is listed to read next.
	for _, v := range []string{"Cox", "Bramley", "Gala", "Fuji", "Jonagold"} {
		pages[strings.ToLower(v)+".html"] = `<!doctype html><html lang="en"><head><title>` + v + ` apples</title></head><body><article><h1>` + v +
			`</h1><p>` + v + ` is an apple variety for the orchard; its trees bear fruit that keeps well into winter.</p></article></body></html>`
	}
	for name, body := range pages {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		host.set("/docs/"+name, body)
	}
	bundleFile = filepath.Join(t.TempDir(), "orchard.tinyrag")
	run(t, binPath, "bundle", "-o", bundleFile, "-title", "Orchard handbook", "-prefix", host.URL+"/docs/", dir)
	return bundleFile, host
}

// docsScripts: a question marked [site] is looked up and answered with a
// citation of the first passage.
func docsScripts() map[string][][]step {
	return map[string][][]step{
		"": {words("I cannot find that in the handbook.", 5*time.Millisecond)},
		"prune": {
			{{Text: "Let me look that up. "}, {Text: `<tool name="rag_knowledge"><query>prune apple trees winter</query></tool>`, Delay: 20 * time.Millisecond}},
			words("Prune in **late winter**, while the buds are dormant [1].", 5*time.Millisecond),
		},
	}
}

// docsHost is a host page of the docs site that includes embed.js with
// attrs (data-… attributes), a field of its own to type in and a search
// box of its own.
func docsHost(appURL, attrs string) string {
	var paras strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&paras, "<p id=\"p%d\">Paragraph %d: the orchard's handbook tells how to prune, store and plant.</p>\n", i, i)
	}
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Orchard handbook</title>
<style>
  body { margin: 0; font: 17px/1.6 Georgia, serif; background: #fbfaf6; color: #222; }
  header { height: 64px; padding: 0 24px; display: flex; gap: 16px; align-items: center; background: #1f3a5f; color: #fff; font: 600 19px system-ui, sans-serif; }
  header input { margin-left: auto; padding: 6px 10px; border-radius: 8px; border: 0; font: 15px system-ui; width: 220px; }
  main { max-width: 720px; margin: 0 auto; padding: 24px; }
  @media (prefers-color-scheme: dark) { body { background: #15171b; color: #ddd; } header { background: #0c1a2c; } }
</style></head>
<body>
<header>Orchard handbook <input id="site-search" type="search" placeholder="Search the site" aria-label="Search the site"></header>
<main id="main"><p><textarea id="notes" aria-label="Notes"></textarea></p>
<p id="fact">Prune the apple trees in late winter, while the buds are still dormant.</p>
` + paras.String() + `</main>
<script src="` + appURL + `/web/embed.js" defer data-title="Ask the handbook" ` + attrs + `></script>
</body></html>`
}

// docsSetup starts the scripted model and tinyrag serve with the docs
// site's bundle, allowing the host's origin to embed it.
func docsSetup(t *testing.T, extra ...string) (app *server, host *origin, llm *scriptedLLM) {
	t.Helper()
	bundleFile, host := docsSite(t)
	llm = newScriptedLLM(t, docsScripts())
	args := append([]string{"--llm-url", llm.BaseURL(), "--llm-probe=false", "--bundle", bundleFile, "--embed-origins", host.URL}, extra...)
	return startServer(t, args...), host, llm
}

// inShadow calls fn (a function's source) with this = embed.js's closed
// shadow root, which the page's own scripts cannot reach but DevTools can.
func inShadow[T any](t *testing.T, b *browser, fn string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	depth, pierce := int64(-1), true
	doc, err := chromedp.Call(ctx, dom.GetDocument, dom.GetDocumentParams{Depth: &depth, Pierce: &pierce})
	if err != nil {
		t.Fatal(err)
	}
	var find func(n *cdp.Node) *cdp.Node
	find = func(n *cdp.Node) *cdp.Node {
		for i := 0; i+1 < len(n.Attributes); i += 2 {
			if n.Attributes[i] == "data-tinyrag-embed" && len(n.ShadowRoots) > 0 {
				return n.ShadowRoots[0]
			}
		}
		for _, c := range n.Children {
			if r := find(c); r != nil {
				return r
			}
		}
		return nil
	}
	sr := find(doc.Root)
	if sr == nil {
		t.Fatal("embed.js's shadow root is not in the page")
	}
	obj, err := chromedp.Call(ctx, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: sr.BackendNodeID})
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	res, err := chromedp.Call(ctx, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn, ObjectID: obj.Object.ObjectID, ReturnByValue: &yes, AwaitPromise: &yes,
	})
	if err != nil {
		t.Fatal(err)
	}
	return resultOf[T](t, "in the shadow root, "+fn, res.Result, res.ExceptionDetails)
}

// resultOf decodes what a DevTools evaluation returned by value, failing
// the test (saying where) on an exception or a value that is no T.
func resultOf[T any](t *testing.T, where string, r *runtime.RemoteObject, exc *runtime.ExceptionDetails) T {
	t.Helper()
	var v T
	if exc != nil {
		t.Fatalf("%s: %s %v", where, exc.Text, exc.Exception)
	}
	if err := json.Unmarshal(r.Value, &v); err != nil {
		t.Fatalf("%s: result %s: %v", where, r.Value, err)
	}
	return v
}

// waitShadow polls a condition (a function body returning a boolean, this
// the shadow root).
func waitShadow(t *testing.T, b *browser, timeout time.Duration, what, body string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !inShadow[bool](t, b, "function() { return !!(() => { "+body+" })(); }") {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s (search box: %s)", what, timeout, inShadow[string](t, b, `function() { const b = this.querySelector(".back"); return b ? b.className + " | " + b.innerText : "none"; }`))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// searchState is what the search box shows, from inside its shadow root.
type searchState struct {
	Open       bool
	Value      string
	Role       string
	Expanded   string
	ActiveDesc string
	Status     string
	StatusRole string
	Options    []struct {
		ID, Selected, Title, Snippet, Href string
		Marks                              []string
		Tags                               []string // every element inside the option
	}
}

const readSearch = `function() {
  const back = this.querySelector(".back"), q = this.querySelector("#tr-q"), st = this.querySelector("[role=status]");
  if (!back) return JSON.stringify({});
  return JSON.stringify({
    open: back.classList.contains("open"), value: q.value, role: q.getAttribute("role"), expanded: q.getAttribute("aria-expanded"),
    activeDesc: q.getAttribute("aria-activedescendant") || "", status: st.textContent, statusRole: st.getAttribute("aria-live"),
    options: [...this.querySelectorAll("#tr-list [role=option]")].map((o) => ({
      id: o.id, selected: o.getAttribute("aria-selected"),
      title: (o.querySelector(".t") || o).textContent, snippet: (o.querySelector(".s") || {}).textContent || "",
      href: (o.querySelector("a") || {}).href || "", marks: [...o.querySelectorAll("mark")].map((m) => m.textContent),
      tags: [...o.querySelectorAll("*")].map((e) => e.tagName.toLowerCase()),
    })),
  });
}`

func readSearchState(t *testing.T, b *browser) searchState {
	t.Helper()
	var s searchState
	if err := json.Unmarshal([]byte(inShadow[string](t, b, readSearch)), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// ctrlK presses Ctrl+K on the page.
func ctrlK(t *testing.T, b *browser) {
	t.Helper()
	b.do(t, 5*time.Second, "Ctrl+K", chromedp.KeyEvent("k", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
}

// typeKeys types text into whatever has the focus, key by key.
func typeKeys(t *testing.T, b *browser, text string) {
	t.Helper()
	b.do(t, 30*time.Second, "type "+text, chromedp.KeyEvent(text))
}

// clearSearch empties the search box the way a visitor does.
func clearSearch(t *testing.T, b *browser) {
	t.Helper()
	b.do(t, 5*time.Second, "select all", chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	b.do(t, 5*time.Second, "delete", chromedp.KeyEvent(kb.Backspace))
}

// currentURL is the top page's address as the browser keeps it, fragment
// directive included (a page's location hides ":~:text=").
func currentURL(t *testing.T, b *browser) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	h, err := chromedp.Call(ctx, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	return h.Entries[h.CurrentIndex].URL
}

// recordDocsMessages collects, in the host page, what the app sends it.
const recordDocsMessages = `(() => {
  const g = window.__got = { ready: 0, answers: [], feedback: [], unanswered: [], errors: [] };
  tinyRAG.on("ready", () => g.ready++);
  tinyRAG.on("answer", (m) => g.answers.push(m));
  tinyRAG.on("feedback", (m) => g.feedback.push(m));
  tinyRAG.on("unanswered", (m) => g.unanswered.push(m));
  tinyRAG.on("error", (m) => g.errors.push(m.error));
  return true;
})()`

func TestAskDocs_SearchAsYouTypeOpensThePassageAndAsksAboutIt(t *testing.T) {
	app, host, llm := docsSetup(t)
	host.set("/", docsHost(app.URL, `data-search="true"`))
	b := newBrowser(t, 1280, 800)
	reqs := watchRequests(t, b)
	openHost(t, b, host.URL+"/")
	waitFor(t, 15*time.Second, "the host page's requests finish", reqs.idle)
	if w := reqs.matching(".wasm"); len(w) > 0 {
		t.Fatalf("wasm fetched before the visitor opened anything: %q", w)
	}

	ctrlK(t, b)
	waitShadow(t, b, 5*time.Second, "Ctrl+K opens the search", `return this.querySelector(".back.open")`)
	// The search box has the focus: typing goes there, no Enter needed.
	typeKeys(t, b, "pruning")
	waitShadow(t, b, 90*time.Second, "results as the visitor types", `return [...this.querySelectorAll("#tr-list .t")].some((e) => e.textContent === "Winter pruning")`)
	if len(reqs.matching("/web/app.wasm")) == 0 {
		t.Error("the search answered without the app's wasm: where did it search?")
	}
	s := readSearchState(t, b)
	first := s.Options[0]
	if s.Role != "combobox" || s.Expanded != "true" || s.ActiveDesc != first.ID || first.Selected != "true" {
		t.Errorf("combobox %+v: want role combobox, expanded, the first option active", s)
	}
	if s.StatusRole != "polite" || !strings.Contains(s.Status, "result") {
		t.Errorf("live region %q (aria-live %q): want the number of results", s.Status, s.StatusRole)
	}
	if first.Title != "Winter pruning" || len(first.Marks) == 0 || !strings.Contains(first.Href, "/docs/pruning.html#:~:text=") {
		t.Errorf("first result %+v: want the pruning page, its matched words marked, a link at its passage", first)
	}
	last := s.Options[len(s.Options)-1]
	if last.ID != "tr-ask" || !strings.Contains(last.Title, "pruning") {
		t.Errorf("last option %+v: want Ask about the query", last)
	}
	// Arrows move the active option, round the list.
	b.do(t, 5*time.Second, "ArrowUp", chromedp.KeyEvent(kb.ArrowUp))
	if got := readSearchState(t, b).ActiveDesc; got != "tr-ask" {
		t.Errorf("ArrowUp from the first option: active %q, want the last (tr-ask)", got)
	}
	b.do(t, 5*time.Second, "ArrowDown", chromedp.KeyEvent(kb.ArrowDown))
	if got := readSearchState(t, b).ActiveDesc; got != first.ID {
		t.Errorf("ArrowDown back: active %q, want %q", got, first.ID)
	}

	// Enter opens the page at the passage, in this window.
	b.do(t, 5*time.Second, "Enter", chromedp.KeyEvent(kb.Enter))
	waitJS(t, b, 15*time.Second, "the pruning page", `location.pathname === "/docs/pruning.html"`)
	if u := currentURL(t, b); !strings.Contains(u, "#:~:text=Prune%20the%20apple%20trees") {
		t.Errorf("opened %q: want the text fragment of the passage", u)
	}

	// Back on the docs, the visitor asks instead.
	openHost(t, b, host.URL+"/")
	eval[bool](t, b, recordDocsMessages)
	ctrlK(t, b)
	waitShadow(t, b, 5*time.Second, "the search opens", `return this.querySelector(".back.open")`)
	typeKeys(t, b, "when to prune apple trees")
	waitShadow(t, b, 60*time.Second, "results", `return this.querySelector("#tr-ask") && this.querySelector("#tr-list .t")`)
	b.do(t, 5*time.Second, "to Ask", chromedp.KeyEvent(kb.ArrowUp))
	b.do(t, 5*time.Second, "Enter on Ask", chromedp.KeyEvent(kb.Enter))
	waitJS(t, b, 10*time.Second, "the panel opens", `tinyRAG.isOpen()`)
	if inShadow[bool](t, b, `function() { return this.querySelector(".back").classList.contains("open"); }`) {
		t.Error("the search is still open over the panel")
	}
	frame := embedFrame(t, b, app.URL)
	waitFor(t, 30*time.Second, "the question waits in the composer", func() bool {
		return evalInFrame[string](t, b, frame, `(document.getElementById("chat-input") || {}).value || ""`) == "when to prune apple trees"
	})
	if r := llm.Requests(); len(r) > 0 {
		t.Fatalf("asked without the visitor's send: %q", r)
	}
	b.do(t, 5*time.Second, "the visitor sends", chromedp.KeyEvent(kb.Enter))
	waitJS(t, b, 60*time.Second, "the answer", `window.__got.answers.length > 0`)
	waitFor(t, 20*time.Second, "the cited answer in the panel", func() bool {
		return evalInFrame[bool](t, b, frame, `!!document.querySelector(".msg.assistant .md a.cite-ref")`)
	})
	var ref struct{ Href, Target string }
	json.Unmarshal([]byte(evalInFrame[string](t, b, frame, `JSON.stringify((({href, target}) => ({href, target}))(document.querySelector(".msg.assistant .md a.cite-ref")))`)), &ref)
	if !strings.HasPrefix(ref.Href, host.URL+"/docs/pruning.html#:~:text=") || ref.Target != "_top" {
		t.Errorf("the citation [1] links to %q (target %q): want the pruning passage, in the window around the panel", ref.Href, ref.Target)
	}
	// The citation dialog shows the passage and links to it too.
	clickInFrame(t, b, frame, `.citations .citation`)
	waitFor(t, 10*time.Second, "the citation dialog", func() bool { return evalInFrame[bool](t, b, frame, `!!document.getElementById("cite-link")`) })
	var dlg struct{ Href, Target, Text string }
	json.Unmarshal([]byte(evalInFrame[string](t, b, frame, `JSON.stringify({href: document.getElementById("cite-link").href, target: document.getElementById("cite-link").target, text: document.querySelector(".cite-text").innerText})`)), &dlg)
	if !strings.Contains(dlg.Href, "/docs/pruning.html#:~:text=") || dlg.Target != "_top" || !strings.Contains(dlg.Text, "Prune the apple trees") {
		t.Errorf("citation dialog %+v", dlg)
	}
	// Following it opens the page at the passage in the top window.
	clickInFrame(t, b, frame, "#cite-link")
	waitJS(t, b, 15*time.Second, "the top window at the cited page", `location.pathname === "/docs/pruning.html"`)
	if u := currentURL(t, b); !strings.Contains(u, "#:~:text=") {
		t.Errorf("the citation opened %q, without the passage", u)
	}
}

// TestAskDocs_SearchFindsPrefixesAndNearMisses depends on
// knowledge.SearchOptions.AsYouType, which the lead implements in
// app/knowledge: the last word matches as a prefix while typing, and a
// misspelt word of five or more letters finds its page one edit away.
func TestAskDocs_SearchFindsPrefixesAndNearMisses(t *testing.T) {
	app, host, _ := docsSetup(t)
	host.set("/", docsHost(app.URL, `data-search="true"`))
	b := newBrowser(t, 1280, 800)
	openHost(t, b, host.URL+"/")
	b.do(t, 5*time.Second, "click the page", chromedp.MouseClickXY(600, 400))
	b.do(t, 5*time.Second, "/", chromedp.KeyEvent("/"))
	waitShadow(t, b, 5*time.Second, `"/" opens the search`, `return this.querySelector(".back.open")`)
	for _, tc := range []struct{ typed, page string }{
		{"prun", "Winter pruning"},                 // a prefix, as typed so far
		{"storing pears celcius", "Storing pears"}, // celsius, one letter off
	} {
		clearSearch(t, b)
		typeKeys(t, b, tc.typed)
		deadline := time.Now().Add(30 * time.Second)
		for {
			s := readSearchState(t, b)
			if len(s.Options) > 0 && s.Options[0].Title == tc.page && s.Value == tc.typed {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("%q: results %+v, want %q first", tc.typed, s.Options, tc.page)
				break
			}
			time.Sleep(150 * time.Millisecond)
		}
	}
}

func TestAskDocs_SearchShowsAPagesMarkupAsText(t *testing.T) {
	app, host, _ := docsSetup(t)
	host.set("/", docsHost(app.URL, `data-search="true"`))
	b := newBrowser(t, 1280, 800)
	openHost(t, b, host.URL+"/")
	eval[bool](t, b, `(tinyRAG.search("engine prints template"), true)`)
	waitShadow(t, b, 90*time.Second, "the escaping page found", `return [...this.querySelectorAll("#tr-list .t")].some((e) => e.textContent.includes("Escaping"))`)
	s := readSearchState(t, b)
	o := s.Options[0]
	if o.Title != "Escaping <script> in templates" || !strings.Contains(o.Snippet, "<script>window.__pwned = 1</script>") {
		t.Errorf("title %q, snippet %q: want the page's words, markup as text", o.Title, o.Snippet)
	}
	for _, tag := range o.Tags {
		if tag != "a" && tag != "span" && tag != "mark" {
			t.Errorf("an element <%s> in the result: only the marks may be added", tag)
		}
	}
	if eval[bool](t, b, `window.__pwned !== undefined`) {
		t.Error("the page's script ran")
	}
}

func TestAskDocs_KeysAreTheOwnersAndNeverTakenWhileTyping(t *testing.T) {
	app, host, _ := docsSetup(t)
	host.set("/", docsHost(app.URL, `data-search="true"`))
	host.set("/keys", docsHost(app.URL, `data-search="true" data-search-keys="alt+s"`))
	host.set("/input", docsHost(app.URL, `data-search-input="#site-search"`))
	b := newBrowser(t, 1280, 800)
	reqs := watchRequests(t, b)
	openHost(t, b, host.URL+"/")
	searchOpen := func() bool {
		return inShadow[bool](t, b, `function() { const b = this.querySelector(".back"); return !!b && b.classList.contains("open"); }`)
	}
	// Typing in the page's own fields: "/" and Ctrl+K stay theirs.
	for _, field := range []string{"site-search", "notes"} {
		eval[bool](t, b, `(document.getElementById("`+field+`").focus(), true)`)
		typeKeys(t, b, "a/b")
		ctrlK(t, b)
		if searchOpen() {
			t.Fatalf("typing in #%s opened the search", field)
		}
		if v := eval[string](t, b, `document.getElementById("`+field+`").value`); v != "a/b" {
			t.Errorf("#%s holds %q, want what was typed", field, v)
		}
	}
	if w := reqs.matching(".wasm"); len(w) > 0 {
		t.Errorf("wasm fetched without the search being opened: %q", w)
	}
	b.do(t, 5*time.Second, "click the page", chromedp.MouseClickXY(600, 500))
	ctrlK(t, b)
	waitFor(t, 5*time.Second, "Ctrl+K outside a field opens the search", searchOpen)
	b.do(t, 5*time.Second, "Escape", chromedp.KeyEvent(kb.Escape))
	waitFor(t, 5*time.Second, "Escape closes it", func() bool { return !searchOpen() })

	// The owner's keys replace the defaults.
	openHost(t, b, host.URL+"/keys")
	b.do(t, 5*time.Second, "click the page", chromedp.MouseClickXY(600, 500))
	b.do(t, 5*time.Second, "/", chromedp.KeyEvent("/"))
	if searchOpen() {
		t.Error(`"/" opened the search although the owner chose alt+s`)
	}
	b.do(t, 5*time.Second, "Alt+S", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierAlt)))
	waitFor(t, 5*time.Second, "Alt+S opens the search", searchOpen)

	// The site's own search box opens the search with what is typed.
	openHost(t, b, host.URL+"/input")
	b.do(t, 5*time.Second, "focus the site's search", chromedp.Focus(chromedp.ID("site-search")))
	typeKeys(t, b, "pears")
	waitFor(t, 5*time.Second, "typing in the site's search box opens the search", searchOpen)
	deadline := time.Now().Add(5 * time.Second)
	for readSearchState(t, b).Value != "pears" {
		if time.Now().After(deadline) {
			t.Fatalf("the search holds %q, the site's box %q; want what was typed", readSearchState(t, b).Value, eval[string](t, b, `document.getElementById("site-search").value`))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestAskDocs_StartersAskParamFeedbackAndUnanswered(t *testing.T) {
	app, host, llm := docsSetup(t, "--starter", "When should I prune the apple trees?", "--starter", "How are pears stored?")
	host.set("/", docsHost(app.URL, `data-ask-param="ask"`))
	b := newBrowser(t, 1280, 800)
	openHost(t, b, host.URL+"/?ask="+url.QueryEscape("When do I prune apple trees?")+"&keep=1")
	eval[bool](t, b, recordDocsMessages)
	if got := eval[string](t, b, `location.search`); got != "?keep=1" {
		t.Errorf("the host's address after asking: %q, want the ask parameter gone and the rest kept", got)
	}
	waitJS(t, b, 5*time.Second, "the link's question opens the panel", `tinyRAG.isOpen()`)
	frame := embedFrame(t, b, app.URL)
	waitFor(t, 60*time.Second, "the question waits in the composer", func() bool {
		return evalInFrame[string](t, b, frame, `(document.getElementById("chat-input") || {}).value || ""`) == "When do I prune apple trees?"
	})
	// The site's starters, not the app's own suggestions.
	if got := evalInFrame[string](t, b, frame, `[...document.querySelectorAll("#starters button")].map((b) => b.innerText).join("|")`); got != "When should I prune the apple trees?|How are pears stored?" {
		t.Errorf("starters %q", got)
	}
	if r := llm.Requests(); len(r) > 0 {
		t.Fatalf("the link asked without the visitor: %q", r)
	}
	b.do(t, 5*time.Second, "the visitor sends", chromedp.KeyEvent(kb.Enter))
	waitJS(t, b, 60*time.Second, "the answer", `window.__got.answers.length > 0`)

	// Thumbs down, a reason and a note: the host hears it.
	waitFor(t, 10*time.Second, "the rating buttons", func() bool {
		return evalInFrame[bool](t, b, frame, `!!document.querySelector(".msg.assistant .rate-down")`)
	})
	clickInFrame(t, b, frame, `.msg.assistant .rate-down`)
	waitFor(t, 10*time.Second, "the feedback form", func() bool {
		return evalInFrame[bool](t, b, frame, `!!document.querySelector(".fb-form [data-reason=incorrect]")`)
	})
	clickInFrame(t, b, frame, `.fb-form [data-reason=incorrect]`)
	waitFor(t, 5*time.Second, "the reason chosen", func() bool {
		return evalInFrame[bool](t, b, frame, `document.querySelector(".fb-form [data-reason=incorrect]").getAttribute("aria-pressed") === "true"`)
	})
	evalInFrame[bool](t, b, frame, `(() => { const n = document.querySelector(".fb-note"); n.value = "It is autumn in my hemisphere."; n.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
	time.Sleep(200 * time.Millisecond)
	clickInFrame(t, b, frame, `.fb-send`)
	waitJS(t, b, 10*time.Second, "the host hears the feedback", `window.__got.feedback.length > 0`)
	var fb struct {
		V                                    int
		Type, Rating, Reason, Note, Question string
		Answer                               string
		Citations                            []struct{ Title, Source string }
	}
	json.Unmarshal([]byte(eval[string](t, b, `JSON.stringify(window.__got.feedback[0])`)), &fb)
	if fb.V != 1 || fb.Type != "feedback" || fb.Rating != "down" || fb.Reason != "incorrect" || fb.Note != "It is autumn in my hemisphere." ||
		fb.Question != "When do I prune apple trees?" || !strings.Contains(fb.Answer, "late winter") || len(fb.Citations) == 0 {
		t.Errorf("feedback message %+v", fb)
	}
	waitFor(t, 5*time.Second, "thanks", func() bool { return evalInFrame[bool](t, b, frame, `!!document.querySelector(".fb-thanks")`) })
	if !evalInFrame[bool](t, b, frame, `document.querySelector(".rate-down").getAttribute("aria-pressed") === "true"`) {
		t.Error("the thumbs down does not show as pressed")
	}

	// A question nothing matches: the host hears it as unanswered.
	evalInFrame[bool](t, b, frame, `(() => { const i = document.getElementById("chat-input"); i.focus(); return true; })()`)
	b.do(t, 5*time.Second, "type", chromedp.KeyEvent("qwertyuiop zxcvbnm"))
	b.do(t, 5*time.Second, "send", chromedp.KeyEvent(kb.Enter))
	waitJS(t, b, 60*time.Second, "the host hears the unanswered question", `window.__got.unanswered.length > 0`)
	if q := eval[string](t, b, `window.__got.unanswered[0].question`); q != "qwertyuiop zxcvbnm" {
		t.Errorf("unanswered %q", q)
	}
	if n := eval[int](t, b, `window.__got.unanswered.length`); n != 1 {
		t.Errorf("%d unanswered messages, want 1 (the first question matched)", n)
	}
}

func TestAskDocs_SelectionAsksAboutTheSelectedText(t *testing.T) {
	app, host, _ := docsSetup(t)
	host.set("/", docsHost(app.URL, `data-selection="true"`))
	b := newBrowser(t, 1280, 800)
	openHost(t, b, host.URL+"/")
	// The visitor drags over a sentence of the page.
	var rect struct{ X, Y, R float64 }
	json.Unmarshal([]byte(eval[string](t, b, `JSON.stringify((() => { const r = document.getElementById("fact").getBoundingClientRect(); return {x: r.x, y: r.y + r.height / 2, r: r.x + Math.min(r.width, 500)}; })())`)), &rect)
	b.do(t, 5*time.Second, "select", chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, rect.X+1, rect.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, rect.R, rect.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, rect.R, rect.Y, chromedp.ButtonLeft))
	waitShadow(t, b, 5*time.Second, "the Ask about this button", `const s = this.querySelector(".sel"); return s && s.style.display === "flex"`)
	var btn struct{ X, Y float64 }
	json.Unmarshal([]byte(inShadow[string](t, b, `function() { const r = this.querySelector(".sel").getBoundingClientRect(); return JSON.stringify({x: r.x + r.width / 2, y: r.y + r.height / 2}); }`)), &btn)
	selected := eval[string](t, b, `getSelection().toString().replace(/\s+/g, " ").trim()`)
	b.do(t, 5*time.Second, "click Ask about this", chromedp.MouseClickXY(btn.X, btn.Y))
	waitJS(t, b, 5*time.Second, "the panel opens", `tinyRAG.isOpen()`)
	frame := embedFrame(t, b, app.URL)
	waitFor(t, 60*time.Second, "the selection in the composer", func() bool {
		return evalInFrame[string](t, b, frame, `(document.getElementById("chat-input") || {}).value || ""`) == `Explain this: "`+selected+`"`
	})
}

func TestAskDocs_FullAppQuestionLinkAndChatAddresses(t *testing.T) {
	app, _, llm := docsSetup(t)
	b := newBrowser(t, 1280, 800)
	openApp(t, b, app.URL+"/?q="+url.QueryEscape("When should I prune apple trees?"))
	waitJS(t, b, 10*time.Second, "the link's question in the composer", `document.getElementById("chat-input").value === "When should I prune apple trees?"`)
	if s := eval[string](t, b, `location.search`); s != "" {
		t.Errorf("the address still carries %q: a reload would ask again", s)
	}
	if r := llm.Requests(); len(r) > 0 {
		t.Fatalf("the link asked without the visitor: %q", r)
	}
	b.do(t, 5*time.Second, "send", chromedp.Click(chromedp.ID("chat-input")), chromedp.KeyEvent(kb.Enter))
	waitJS(t, b, 60*time.Second, "answered", `!document.querySelector(".answer.cursor") && document.querySelector(".msg.assistant .md a.cite-ref")`)
	waitJS(t, b, 10*time.Second, "the chat's address", `location.hash.startsWith("#chat=")`)
	first := eval[string](t, b, `location.hash`)
	if href := eval[string](t, b, `document.querySelector(".msg.assistant .md a.cite-ref").href`); !strings.Contains(href, "/docs/pruning.html#:~:text=") {
		t.Errorf("the full app's citation links to %q", href)
	}

	// A reload returns to the open chat.
	b.do(t, 30*time.Second, "reload", chromedp.Reload())
	openApp(t, b, app.URL+"/"+first)
	waitJS(t, b, 10*time.Second, "the chat again after a reload", `document.querySelectorAll(".msg.user").length === 1 && document.querySelector(".msg.user").innerText.includes("prune")`)

	// A second chat; back and forward switch between the two.
	b.do(t, 5*time.Second, "new chat", chromedp.Click(chromedp.ID("new-chat")))
	ask(t, b, "And how are pears stored?")
	waitJS(t, b, 60*time.Second, "the second chat's address", `location.hash.startsWith("#chat=") && location.hash !== `+jsString(first))
	second := eval[string](t, b, `location.hash`)
	// The new chat's entry became the second chat's when it was stored.
	eval[bool](t, b, `(history.back(), true)`)
	waitJS(t, b, 10*time.Second, "back: the first chat", `location.hash === `+jsString(first)+` && document.querySelector(".msg.user") && document.querySelector(".msg.user").innerText.includes("prune")`)
	eval[bool](t, b, `(history.forward(), true)`)
	waitJS(t, b, 10*time.Second, "forward: the second chat", `location.hash === `+jsString(second)+` && document.querySelector(".msg.user") && document.querySelector(".msg.user").innerText.includes("pears")`)

	// An address of a chat this browser does not have.
	openApp(t, b, app.URL+"/#chat=no-such-chat")
	waitJS(t, b, 10*time.Second, "a new chat and a note", `document.querySelectorAll(".msg.user").length === 0 && document.querySelector(".banner.notice") && document.querySelector(".banner.notice").innerText.includes("not in this browser")`)

	// Copy as Markdown: the open conversation with its sources.
	openApp(t, b, app.URL+"/"+first)
	waitJS(t, b, 10*time.Second, "the first chat", `document.querySelector(".msg.user") && !!document.getElementById("copy-md")`)
	md := eval[string](t, b, `(async () => { let got = ""; navigator.clipboard.writeText = async (s) => { got = s; }; document.getElementById("copy-md").click(); await new Promise((r) => setTimeout(r, 300)); return got; })()`)
	if !strings.Contains(md, "When should I prune apple trees?") || !strings.Contains(md, "late winter") || !strings.Contains(md, "/docs/pruning.html#:~:text=") {
		t.Errorf("the conversation as Markdown:\n%s", md)
	}
}

func TestAskDocs_HostSubmitLetsALinkAsk(t *testing.T) {
	app, host, llm := docsSetup(t, "--embed-host-submit")
	host.set("/", docsHost(app.URL, `data-ask-param="ask"`))
	b := newBrowser(t, 1280, 800)
	openApp(t, b, app.URL+"/?q="+url.QueryEscape("When should I prune apple trees?"))
	waitJS(t, b, 60*time.Second, "the full app asks the link's question", `document.querySelectorAll(".msg.user").length === 1 && !document.querySelector(".answer.cursor") && document.querySelector(".msg.assistant .md a.cite-ref")`)
	openHost(t, b, host.URL+"/?ask="+url.QueryEscape("When do I prune apple trees?"))
	eval[bool](t, b, recordDocsMessages)
	waitJS(t, b, 60*time.Second, "the host page's link asks", `window.__got.answers.length > 0`)
	if n := len(llm.Requests()); n < 4 {
		t.Errorf("model requests %q: want both questions asked", llm.Requests())
	}
}

// TestAskDocs_Screenshots saves the search box and the panel with a cited
// answer and its feedback form, on a desktop and a phone, light and dark
// (make screenshots).
func TestAskDocs_Screenshots(t *testing.T) {
	if os.Getenv("TINYRAG_E2E_SCREENSHOTS") == "0" {
		t.Skip("screenshots turned off")
	}
	app, host, _ := docsSetup(t, "--embed-host-submit", "--starter", "When should I prune the apple trees?", "--starter", "How are pears stored?")
	host.set("/", docsHost(app.URL, `data-search="true" data-greeting="Hi! Ask me about the orchard handbook."`))
	for _, dev := range []struct {
		name string
		w, h int
	}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
		for _, scheme := range []string{"light", "dark"} {
			t.Run(dev.name+"-"+scheme, func(t *testing.T) {
				b := newDevice(t, dev.w, dev.h)
				setScheme(t, b, scheme)
				openHost(t, b, host.URL+"/")
				eval[bool](t, b, recordDocsMessages)
				eval[bool](t, b, `(tinyRAG.search("prune apple"), true)`)
				waitShadow(t, b, 90*time.Second, "results", `return this.querySelectorAll("#tr-list [role=option]").length > 1`)
				time.Sleep(300 * time.Millisecond)
				shot(t, b, "search-"+dev.name+"-"+scheme)
				if e := inShadow[string](t, b, "function() { return "+emojiIn("this")+"; }"); e != "" {
					t.Errorf("the search box shows emoji %q, boxes where the system has no emoji font", e)
				}

				eval[bool](t, b, `(tinyRAG.open(), true)`)
				frame := embedFrame(t, b, app.URL)
				waitFor(t, 30*time.Second, "the starters", func() bool { return evalInFrame[bool](t, b, frame, `!!document.querySelector("#starters button")`) })
				shot(t, b, "panel-"+dev.name+"-"+scheme+"-starters")
				clickInFrame(t, b, frame, `#starters button`)
				waitJS(t, b, 60*time.Second, "the answer", `window.__got.answers.length > 0`)
				waitFor(t, 10*time.Second, "the rating", func() bool { return evalInFrame[bool](t, b, frame, `!!document.querySelector(".rate-down")`) })
				evalInFrame[bool](t, b, frame, `(document.querySelector(".msg.assistant").scrollIntoView({block: "start"}), true)`)
				time.Sleep(400 * time.Millisecond)
				shot(t, b, "panel-"+dev.name+"-"+scheme+"-answer")
				clickInFrame(t, b, frame, `.rate-down`)
				waitFor(t, 10*time.Second, "the feedback form", func() bool { return evalInFrame[bool](t, b, frame, `!!document.querySelector(".fb-form")`) })
				evalInFrame[bool](t, b, frame, `(document.querySelector("[data-reason=missing_sources]").click(), document.querySelector(".fb-form").scrollIntoView({block: "end"}), true)`)
				time.Sleep(400 * time.Millisecond)
				shot(t, b, "panel-"+dev.name+"-"+scheme+"-feedback")
				if e := evalInFrame[string](t, b, frame, emojiIn("document.body")); e != "" {
					t.Errorf("the panel shows emoji %q, boxes where the system has no emoji font", e)
				}
				if p := b.Problems(); len(p) > 0 {
					t.Errorf("page problems: %v", p)
				}
			})
		}
	}
}

// emojiIn is a JavaScript expression for the characters under root
// (text and aria labels) that a browser draws from an emoji font: without
// one (Chromium on a plain Debian machine) they are empty boxes. Arrows
// and symbols that have a text form are allowed; emoji-presentation
// characters and the emoji variation selector are not.
func emojiIn(root string) string {
	return `(() => { const r = ` + root + `; const t = r.textContent + " " + [...r.querySelectorAll("[aria-label],[title]")].map(e => (e.getAttribute("aria-label") || "") + (e.getAttribute("title") || "")).join(" "); return (t.match(/\p{Emoji_Presentation}|\uFE0F/gu) || []).join(""); })()`
}

// setScheme emulates the visitor's light or dark preference.
func setScheme(t *testing.T, b *browser, scheme string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	}); err != nil {
		t.Fatal(err)
	}
}

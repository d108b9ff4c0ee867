package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// appScripts are the scripted model's replies shared by the app tests,
// keyed by a marker in the question.
func appScripts() map[string][][]step {
	calc := `<tool name="calculate"><query>3 * (17 + 5) / 2</query></tool>`
	return map[string][][]step{
		"": {words("Hello! I am a scripted model running on loopback.", 10*time.Millisecond)},
		"[calc]": {
			append(words("Let me calculate that.\n\n", 20*time.Millisecond),
				// The block arrives in two parts: the parser must hold it
				// until it is complete.
				step{Text: calc[:30], Delay: 20 * time.Millisecond},
				step{Text: calc[30:] + "\n", Delay: 300 * time.Millisecond}),
			words("The result is **33**.", 15*time.Millisecond),
		},
		"[fetch]": {
			{{Text: "Let me read that page. "}, {Text: `<tool name="url_fetch"><url>{self}/slow-page</url></tool>`, Delay: 30 * time.Millisecond}, {Text: "\n", Delay: 30 * time.Millisecond}},
			words("The page says **hello** to everyone who waits.", 15*time.Millisecond),
		},
		"[fail]": {
			{{Text: `Fetching the page. <tool name="url_fetch"><url>http://127.0.0.1:9/private</url></tool>`}},
			{{Text: "The page could not be fetched, so I cannot say."}},
		},
		"[skip]": {
			{{Text: `Trying a shell. <tool name="shell"><query>ls -la</query></tool>`}},
			{{Text: "There is no shell tool, so I answer from what I know."}},
		},
		"[slow]": {words(strings.Repeat("This answer streams slowly, word by word, so it can be stopped. ", 40), 120*time.Millisecond)},
		"[xss]": {{{Text: "Here is **bold** text.\n\n<script>window.__pwned = 1</script>\n\n" +
			`<img src="x" onerror="window.__pwned = 2">` + "\n\n" +
			"[click me](javascript:window.__pwned=3)\n\n```go\nfmt.Println(\"code\")\n```\n"}}},
		"[cite]": {
			{{Text: "Let me look that up. "}, {Text: `<tool name="rag_knowledge"><query>zebra migration Serengeti</query></tool>`, Delay: 50 * time.Millisecond}},
			words("Zebras migrate across the **Serengeti** every year, following the rains [1].", 10*time.Millisecond),
		},
		"[think]": {
			{{Thinking: "The user greets me. ", Delay: 10 * time.Millisecond}, {Thinking: "I should greet back.", Delay: 10 * time.Millisecond}, {Text: "Hello there!", Delay: 10 * time.Millisecond}},
		},
	}
}

// openApp loads the app and waits until the wasm has taken over, the
// stores are open and the model check has finished.
func openApp(t testing.TB, b *browser, url string) {
	t.Helper()
	b.do(t, 60*time.Second, "app loads and becomes ready",
		chromedp.Navigate(url),
		chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")),
		chromedp.WaitVisible(chromedp.CSS(`#shell[data-ready="true"]:not([data-llm="unknown"])`)),
	)
}

// importZebra imports zebraDoc through the knowledge panel's file picker
// and waits until it is listed; the knowledge tab stays open.
func importZebra(t *testing.T, b *browser) {
	t.Helper()
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	b.do(t, 10*time.Second, "import a file", chromedp.SetUploadFiles(chromedp.ID("kb-files"), []string{zebraDoc(t)}))
	waitJS(t, b, 30*time.Second, "document listed", `document.querySelector("#doc-list .doc-title")`)
}

// ask types a question into the composer and sends it with Enter.
func ask(t *testing.T, b *browser, q string) {
	t.Helper()
	b.do(t, 10*time.Second, "ask "+q,
		chromedp.WaitVisible(chromedp.ID("chat-input")),
		chromedp.Click(chromedp.ID("chat-input")),
		chromedp.SendKeys(chromedp.ID("chat-input"), q),
		chromedp.SendKeys(chromedp.ID("chat-input"), "\r"),
	)
}

// waitJS polls a JavaScript condition until it is true.
func waitJS(t testing.TB, b *browser, timeout time.Duration, what, cond string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if eval[bool](t, b, "!!("+cond+")") {
			return
		}
		if time.Now().After(deadline) {
			html := eval[string](t, b, `(document.getElementById("messages")||document.body).innerText.slice(0, 2000)`)
			t.Fatalf("%s: not true within %s: %s\npage text:\n%s\nproblems: %v", what, timeout, cond, html, b.Problems())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// watchCards records every data-status each tool card shows, in order, in
// window.__cardHistory (tool name → statuses), so a test can tell that a
// card was running before it was done.
const watchCards = `(() => {
  window.__cardHistory = {};
  const note = () => document.querySelectorAll(".xml-tool-card").forEach(c => {
    const k = c.dataset.tool, s = c.dataset.status, h = (window.__cardHistory[k] ||= []);
    if (h[h.length - 1] !== s) h.push(s);
  });
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"]});
  return true;
})()`

func cardHistory(t *testing.T, b *browser, tool string) []string {
	t.Helper()
	raw := eval[string](t, b, fmt.Sprintf(`JSON.stringify((window.__cardHistory||{})[%q] || [])`, tool))
	var out []string
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// lastAnswer is the visible text of the latest answer.
const lastAnswer = `(() => { const a = document.querySelectorAll(".msg.assistant .answer"); return a.length ? a[a.length-1].innerText : ""; })()`

// setSelect picks an option of a <select> the way a user does: the value
// changes and a change event fires.
func setSelect(t *testing.T, b *browser, id, value string) {
	t.Helper()
	eval[bool](t, b, fmt.Sprintf(`(() => { const el = document.getElementById(%q); el.value = %q; el.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, id, value))
}

// scriptedApp is most tests' set-up: the scripted model, a tinyrag serve
// proxying to it (with extraArgs) and a 1280×800 browser on the app, ready.
func scriptedApp(t testing.TB, extraArgs ...string) (*browser, *server, *scriptedLLM) {
	t.Helper()
	llm := newScriptedLLM(t, appScripts())
	srv := startServer(t, append([]string{"--llm-url", llm.BaseURL(), "--llm-probe=false"}, extraArgs...)...)
	b := newBrowser(t, 1280, 800)
	openApp(t, b, srv.URL+"/")
	return b, srv, llm
}

// clickJS clicks the first element matching selector from script, and
// fails the test when there is none: a click that silently hits nothing
// would leave the test checking a page the user never reached.
func clickJS(t *testing.T, b *browser, selector string) {
	t.Helper()
	if !eval[bool](t, b, clickExpr(selector)) {
		t.Fatalf("clicking %s: no element matches (page problems: %v)", selector, b.Problems())
	}
}

// clickExpr is the script clickJS and clickInFrame run: it reports
// whether an element matched.
func clickExpr(selector string) string {
	return fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (el) el.click(); return !!el; })()`, selector)
}

// waitStoredChats waits until the chats the app saved in IndexedDB
// (tinyrag-chats, as JSON text s) satisfy cond: saving is asynchronous,
// so a reload right after what the page shows could find the old record.
func waitStoredChats(t *testing.T, b *browser, timeout time.Duration, what, cond string) {
	t.Helper()
	expr := `(async () => {
  const db = await new Promise((ok, fail) => { const r = indexedDB.open("tinyrag-chats"); r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
  try {
    if (!db.objectStoreNames.contains("chats")) return false;
    const all = await new Promise((ok, fail) => { const r = db.transaction("chats").objectStore("chats").getAll(); r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
    const s = JSON.stringify(all);
    return !!(` + cond + `);
  } finally { db.close(); }
})()`
	waitFor(t, timeout, what+" (stored: "+cond+")", func() bool { return eval[bool](t, b, expr) })
}

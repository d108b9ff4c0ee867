package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestChat_ToolCardGoesFromRunningToDone(t *testing.T) {
	llm := newScriptedLLM(t, appScripts())
	// The page the model asks for lives on the scripted server (loopback),
	// which /api/fetch refuses unless told otherwise.
	srv := startServer(t, "--llm-url", llm.BaseURL(), "--llm-probe=false", "--fetch-allow-host", "127.0.0.1")
	b := newBrowser(t, 1280, 800)
	openApp(t, b, srv.URL+"/")
	eval[bool](t, b, watchCards)
	ask(t, b, "[fetch] What does the slow page say?")
	waitJS(t, b, 10*time.Second, "card running", `document.querySelector('.xml-tool-card[data-tool="url_fetch"][data-status="running"]')`)
	if badge := eval[string](t, b, `document.querySelector('.xml-tool-card[data-tool="url_fetch"] .tool-status-badge').textContent`); badge != "⟳" {
		t.Errorf("running badge = %q, want ⟳", badge)
	}
	waitJS(t, b, 20*time.Second, "card done", `document.querySelector('.xml-tool-card[data-tool="url_fetch"][data-status="done"]')`)
	waitJS(t, b, 20*time.Second, "answer streamed", `!document.querySelector(".answer.cursor") && `+lastAnswer+`.includes("to everyone who waits")`)
	if h := cardHistory(t, b, "url_fetch"); !slices.Equal(h, []string{"running", "done"}) {
		t.Errorf("card statuses = %v, want [running done]", h)
	}
	if badge := eval[string](t, b, `document.querySelector('.xml-tool-card[data-tool="url_fetch"] .tool-status-badge').textContent`); badge != "✓" {
		t.Errorf("done badge = %q, want ✓", badge)
	}
}

func TestChat_StreamedAnswerWithCalculatorCard(t *testing.T) {
	b, _, llm := scriptedApp(t)
	if eval[bool](t, b, `!!document.getElementById("llm-banner")`) {
		t.Fatal("the no-model banner is shown although the model answers")
	}
	eval[bool](t, b, watchCards)

	ask(t, b, "[calc] What is 3 * (17 + 5) / 2?")
	waitJS(t, b, 20*time.Second, "calculator card done",
		`document.querySelector('.xml-tool-card[data-tool="calculate"][data-status="done"]')`)
	waitJS(t, b, 20*time.Second, "final answer streamed", `!document.querySelector(".answer.cursor") && `+lastAnswer+`.includes("The result is 33")`)

	if badge := eval[string](t, b, `document.querySelector('.xml-tool-card[data-tool="calculate"] .tool-status-badge').textContent`); badge != "✓" {
		t.Errorf("badge = %q, want ✓", badge)
	}
	if q := eval[string](t, b, `document.querySelector('.xml-tool-card[data-tool="calculate"] .tool-query').textContent`); q != "3 * (17 + 5) / 2" {
		t.Errorf("card input preview = %q", q)
	}
	// The raw XML never shows as text.
	if txt := eval[string](t, b, lastAnswer); strings.Contains(txt, "<tool") {
		t.Errorf("raw tool XML visible in the answer: %q", txt)
	}
	// The result is one click away.
	b.do(t, 5*time.Second, "expand the card", chromedp.Click(chromedp.CSS(`.xml-tool-card[data-tool="calculate"] summary`)))
	if res := eval[string](t, b, `document.querySelector('.xml-tool-card[data-tool="calculate"] .tool-result').innerText`); !strings.Contains(res, "33") {
		t.Errorf("expanded result = %q, want it to contain 33", res)
	}
	if got := llm.Requests(); !slices.Equal(got, []string{"[calc]/0", "[calc]/1"}) {
		t.Errorf("model requests = %v, want the question then one continuation", got)
	}
	// Regenerate asks the same question again and replaces the answer.
	b.do(t, 5*time.Second, "regenerate", chromedp.Click(chromedp.CSS(".regenerate")))
	waitFor(t, 20*time.Second, "the regenerated question and its continuation reach the model", func() bool { return len(llm.Requests()) >= 4 })
	if got := llm.Requests(); len(got) != 4 || got[2] != "[calc]/0" {
		t.Fatalf("model requests after regenerate = %v, want the question asked afresh", got)
	}
	waitJS(t, b, 20*time.Second, "regenerated answer", `!document.querySelector(".answer.cursor") && document.querySelectorAll(".msg.assistant").length === 1 && `+lastAnswer+`.includes("The result is 33")`)
	// The chat got its title from the question.
	if title := eval[string](t, b, `document.querySelector(".chat-item[aria-current=true]").textContent`); !strings.Contains(title, "What is 3") {
		t.Errorf("chat title = %q", title)
	}
	if p := b.Problems(); len(p) > 0 {
		t.Errorf("browser problems: %v", p)
	}
}

func TestChat_FailingToolShowsErrorAndUnknownToolShowsSkipped(t *testing.T) {
	b, _, _ := scriptedApp(t)
	tests := []struct {
		marker, tool, status, badge, detail string
	}{
		// /api/fetch refuses loopback addresses: the tool fails.
		{"[fail]", "url_fetch", "error", "✗", ""},
		{"[skip]", "shell", "skipped", "⊘", "unknown_tool"},
	}
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			ask(t, b, tc.marker+" go")
			sel := `.xml-tool-card[data-tool="` + tc.tool + `"][data-status="` + tc.status + `"]`
			waitJS(t, b, 20*time.Second, tc.tool+" card "+tc.status, `document.querySelector('`+sel+`')`)
			waitJS(t, b, 20*time.Second, "answer finished", `!document.querySelector(".answer.cursor")`)
			if badge := eval[string](t, b, `document.querySelector('`+sel+` .tool-status-badge').textContent`); badge != tc.badge {
				t.Errorf("badge = %q, want %q", badge, tc.badge)
			}
			if tc.detail != "" {
				if d := eval[string](t, b, `document.querySelector('`+sel+`').textContent`); !strings.Contains(d, tc.detail) {
					t.Errorf("card text %q lacks %q", d, tc.detail)
				}
			}
		})
	}
}

func TestChat_StopMidStreamEndsTheAnswerAndTheRequest(t *testing.T) {
	b, _, llm := scriptedApp(t)

	ask(t, b, "[slow] tell me a long story")
	waitJS(t, b, 20*time.Second, "streaming began", lastAnswer+`.length > 40`)
	b.do(t, 5*time.Second, "press stop", chromedp.Click(chromedp.ID("stop-btn")))
	waitJS(t, b, 10*time.Second, "stopped note", `document.querySelector(".msg-note.stopped")`)
	waitJS(t, b, 10*time.Second, "send button back", `document.getElementById("send-btn")`)
	n := len(eval[string](t, b, lastAnswer))
	// Once the model's server saw the stream cancelled, no more tokens
	// are on their way: an answer that grew meanwhile grew after stop.
	waitFor(t, 5*time.Second, "the model's stream cancelled upstream", func() bool { return llm.Aborted() > 0 })
	if m := len(eval[string](t, b, lastAnswer)); m != n {
		t.Errorf("answer kept growing after stop: %d → %d characters", n, m)
	}
	// The composer works again.
	ask(t, b, "hello")
	waitJS(t, b, 15*time.Second, "next answer", lastAnswer+`.includes("scripted model")`)
}

func TestChat_HostileMarkdownIsRenderedInert(t *testing.T) {
	b, _, _ := scriptedApp(t)
	ask(t, b, "[xss] show me")
	waitJS(t, b, 15*time.Second, "answer done", `!document.querySelector(".answer.cursor") && `+lastAnswer+`.includes("bold")`)
	// An injected image's onerror would run once the image settled.
	waitJS(t, b, 5*time.Second, "every image loaded or failed", `[...document.images].every((i) => i.complete)`)
	checks := []struct{ what, js string }{
		{"no script ran", `window.__pwned === undefined`},
		{"no script element in answers", `document.querySelectorAll(".answer script").length === 0`},
		{"no element with an inline handler", `[...document.querySelectorAll(".answer *")].every(e => [...e.attributes].every(a => !a.name.startsWith("on")))`},
		{"no img loaded", `document.querySelectorAll(".answer img").length === 0`},
		{"no javascript: link", `[...document.querySelectorAll(".answer a")].every(a => !a.href.startsWith("javascript:"))`},
		{"the payload shows as text", lastAnswer + `.includes("<script>")`},
		{"markdown still renders", `document.querySelector(".answer strong") && document.querySelector(".answer pre code")`},
		{"code block has a copy button", `document.querySelector(".answer .copy-code")`},
	}
	for _, c := range checks {
		if !eval[bool](t, b, "!!("+c.js+")") {
			t.Errorf("%s: %s", c.what, c.js)
		}
	}
}

func TestChat_ThinkingShownApartFromTheAnswer(t *testing.T) {
	b, _, _ := scriptedApp(t)
	ask(t, b, "[think] hi")
	waitJS(t, b, 15*time.Second, "answer done", `!document.querySelector(".answer.cursor") && `+lastAnswer+`.includes("Hello there")`)
	if got := eval[string](t, b, `document.querySelector(".thinking pre").textContent`); got != "The user greets me. I should greet back." {
		t.Errorf("thinking = %q", got)
	}
	if txt := eval[string](t, b, lastAnswer); strings.Contains(txt, "greet back") {
		t.Errorf("reasoning leaked into the answer: %q", txt)
	}
}

// zebraDoc is a document the [cite] script's rag_knowledge query finds.
func zebraDoc(t *testing.T) string {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("# Zebra migration\n\nEvery year about 300,000 zebras migrate across the Serengeti, following the rains to fresh grass.\n\n")
	for i := 0; i < 60; i++ {
		sb.WriteString("## Section\n\nWildebeest and gazelles share the plains with the zebras; predators follow the herds along the river crossings.\n\n")
	}
	p := filepath.Join(t.TempDir(), "zebras.md")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestKnowledge_ImportFileWithProgressThenAnswerCitesIt(t *testing.T) {
	b, _, _ := scriptedApp(t)

	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	eval[bool](t, b, `(() => { window.__sawProgress = false; new MutationObserver(() => { if (document.getElementById("kb-progress")) window.__sawProgress = true; }).observe(document.body, {subtree: true, childList: true}); return true; })()`)
	b.do(t, 10*time.Second, "pick a file", chromedp.SetUploadFiles(chromedp.ID("kb-files"), []string{zebraDoc(t)}))
	waitJS(t, b, 30*time.Second, "document listed", `document.querySelector("#doc-list .doc-title") && document.querySelector("#doc-list .doc-title").textContent.includes("Zebra migration")`)
	if !eval[bool](t, b, `window.__sawProgress`) {
		t.Error("no progress bar was shown during the import")
	}
	if meta := eval[string](t, b, `document.querySelector("#doc-list .doc-meta").textContent`); !strings.Contains(meta, "KB") || !strings.Contains(meta, "chunks") {
		t.Errorf("source size/date line = %q", meta)
	}
	// The search box shows highlighted hits.
	b.do(t, 5*time.Second, "search", chromedp.SendKeys(chromedp.ID("kb-search"), "serengeti"))
	waitJS(t, b, 5*time.Second, "highlighted hit", `document.querySelector("#kb-hits mark")`)

	b.do(t, 5*time.Second, "back to chats", chromedp.Click(chromedp.ID("tab-chats")))
	ask(t, b, "[cite] Where do zebras migrate?")
	waitJS(t, b, 20*time.Second, "rag card done", `document.querySelector('.xml-tool-card[data-tool="rag_knowledge"][data-status="done"]')`)
	waitJS(t, b, 20*time.Second, "citation shown", `document.querySelector(".citations .citation")`)
	b.do(t, 5*time.Second, "open citation", chromedp.Click(chromedp.CSS(".citations .citation")))
	waitJS(t, b, 5*time.Second, "citation dialog shows the chunk", `document.getElementById("citation-dialog") && document.querySelector(".cite-text").textContent.includes("Serengeti")`)
	b.do(t, 5*time.Second, "close dialog", chromedp.Click(chromedp.ID("cite-close")))
	waitJS(t, b, 5*time.Second, "dialog closed", `!document.getElementById("citation-dialog")`)
}

func TestReload_KeepsChatsSettingsAndKnowledge(t *testing.T) {
	b, srv, _ := scriptedApp(t)

	ask(t, b, "remember this conversation")
	waitJS(t, b, 15*time.Second, "answer", `!document.querySelector(".answer.cursor") && `+lastAnswer+`.includes("scripted model")`)
	b.do(t, 5*time.Second, "open settings", chromedp.Click(chromedp.ID("open-settings")))
	b.do(t, 5*time.Second, "pick Nord", chromedp.Click(chromedp.ID("theme-nord")))
	b.do(t, 5*time.Second, "close settings", chromedp.Click(chromedp.ID("settings-close")))
	importZebra(t, b)
	waitStoredChats(t, b, 10*time.Second, "the chat saved with its answer", `s.includes("remember this conversation") && s.includes("scripted model")`)

	openApp(t, b, srv.URL+"/")
	if th := eval[string](t, b, `document.documentElement.dataset.theme`); th != "nord" {
		t.Errorf("theme after reload = %q, want nord", th)
	}
	waitJS(t, b, 5*time.Second, "chat listed after reload", `[...document.querySelectorAll(".chat-item")].some(e => e.textContent.includes("remember this conversation"))`)
	b.do(t, 5*time.Second, "open the chat", chromedp.Click(chromedp.CSS(".chat-item")))
	waitJS(t, b, 5*time.Second, "answer restored", lastAnswer+`.includes("scripted model")`)
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	waitJS(t, b, 10*time.Second, "knowledge restored", `document.querySelector("#doc-list .doc-title") && document.querySelector("#doc-list .doc-title").textContent.includes("Zebra")`)

	// The first search after a reload waits on IndexedDB for chunk text;
	// every key typed meanwhile must stay in the box. A slow disk, made
	// here by holding back each transaction's completion, widens the wait.
	if !eval[bool](t, b, slowIndexedDB) {
		t.Fatal("could not slow IndexedDB down")
	}
	const q = "zebras migrate across the Serengeti following the rains"
	b.do(t, 10*time.Second, "type a search", chromedp.Click(chromedp.ID("kb-search")), chromedp.SendKeys(chromedp.ID("kb-search"), q))
	waitJS(t, b, 10*time.Second, "search hits", `document.querySelector("#kb-hits mark")`)
	if v := eval[string](t, b, `document.getElementById("kb-search").value`); v != q {
		t.Errorf("search box holds %q after typing %q", v, q)
	}
}

// slowIndexedDB delays every IndexedDB transaction's complete event by
// 400 ms, as a slow or busy disk would.
const slowIndexedDB = `(() => {
  const d = Object.getOwnPropertyDescriptor(IDBTransaction.prototype, "oncomplete");
  Object.defineProperty(IDBTransaction.prototype, "oncomplete", {
    configurable: true,
    get() { return d.get.call(this); },
    set(fn) {
      d.set.call(this, typeof fn === "function" ? function (e) { setTimeout(() => fn.call(this, e), 400); } : fn);
    },
  });
  return true;
})()`

func TestFirstRun_NoModelShowsBannerAndAnswersFromKnowledge(t *testing.T) {
	srv := startServer(t, "--llm-probe=false")
	b := newBrowser(t, 1280, 800)
	openApp(t, b, srv.URL+"/")
	waitJS(t, b, 10*time.Second, "banner", `document.getElementById("llm-banner")`)
	banner := eval[string](t, b, `document.getElementById("llm-banner").innerText`)
	for _, want := range []string{"Ollama", "LM Studio", "key"} {
		if !strings.Contains(banner, want) {
			t.Errorf("banner lacks %q: %s", want, banner)
		}
	}
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	b.do(t, 5*time.Second, "open paste", chromedp.Click(chromedp.CSS(".kb-add summary")))
	b.do(t, 5*time.Second, "paste text",
		chromedp.SendKeys(chromedp.ID("paste-title"), "Office hours"),
		chromedp.SendKeys(chromedp.ID("paste-text"), "The library is open from 9 to 17 on weekdays. On Saturdays it closes at noon."),
		chromedp.Click(chromedp.ID("paste-add")),
	)
	waitJS(t, b, 15*time.Second, "pasted doc listed", `document.querySelector("#doc-list .doc-title")`)
	b.do(t, 5*time.Second, "back to chats", chromedp.Click(chromedp.ID("tab-chats")))
	ask(t, b, "When is the library open on Saturdays?")
	waitJS(t, b, 15*time.Second, "answered from the knowledge base", lastAnswer+`.includes("closes at noon")`)
	if !eval[bool](t, b, `!!document.querySelector(".citations .citation")`) {
		t.Error("the knowledge-base answer has no citation")
	}
}

// On a window too short for the welcome and the no-model banner, the
// empty chat stays scrolled to its top, where the banner says what is
// missing: there is no answer at its end to keep in view.
func TestFirstRun_NoModelBannerIsShownFromItsTopOnAShortWindow(t *testing.T) {
	srv := startServer(t, "--llm-probe=false")
	b := newBrowser(t, 1280, 640)
	openApp(t, b, srv.URL+"/")
	waitJS(t, b, 10*time.Second, "banner", `document.getElementById("llm-banner")`)
	// The chat list and the thread are published again as the app
	// settles; each time, the thread keeps what is in view.
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	b.do(t, 5*time.Second, "back to chats", chromedp.Click(chromedp.ID("tab-chats")))
	b.do(t, 5*time.Second, "new chat", chromedp.Click(chromedp.ID("new-chat")))
	time.Sleep(time.Second)
	m := `document.getElementById("messages")`
	if !eval[bool](t, b, m+`.scrollHeight > `+m+`.clientHeight`) {
		t.Fatalf("the welcome fits the window (%d of %d px): the test shows nothing", eval[int](t, b, m+`.scrollHeight`), eval[int](t, b, m+`.clientHeight`))
	}
	b.screenshot(t, "no-model-banner-short-window")
	if top := eval[int](t, b, m+`.scrollTop`); top != 0 {
		t.Errorf("the empty chat is scrolled %d px down: the banner's top is hidden", top)
	}
}

func TestSettings_ThemeAndLanguageSwitch(t *testing.T) {
	b, _, _ := scriptedApp(t)
	b.do(t, 5*time.Second, "open settings", chromedp.Click(chromedp.ID("open-settings")))
	waitJS(t, b, 5*time.Second, "models listed", `[...document.querySelectorAll("#set-model option")].some(o => o.value === "scripted-large")`)
	b.do(t, 5*time.Second, "test connection", chromedp.Click(chromedp.ID("test-conn")))
	waitJS(t, b, 10*time.Second, "connection ok", `document.getElementById("test-result") && document.getElementById("test-result").textContent.includes("2")`)

	for _, th := range []string{"light", "dracula", "dark"} {
		b.do(t, 5*time.Second, "theme "+th, chromedp.Click(chromedp.ID("theme-"+th)))
		waitJS(t, b, 5*time.Second, "theme applied", `document.documentElement.dataset.theme === "`+th+`"`)
		bg := eval[string](t, b, `getComputedStyle(document.body).backgroundColor`)
		t.Logf("%s background %s", th, bg)
	}
	light := eval[string](t, b, `(() => { document.documentElement.dataset.theme = "light"; return getComputedStyle(document.body).backgroundColor; })()`)
	dark := eval[string](t, b, `(() => { document.documentElement.dataset.theme = "dark"; return getComputedStyle(document.body).backgroundColor; })()`)
	if light == dark {
		t.Errorf("light and dark themes have the same background %s", light)
	}

	setSelect(t, b, "set-lang", "de")
	waitJS(t, b, 5*time.Second, "German interface", `document.documentElement.lang === "de" && document.querySelector("#new-chat").textContent.includes("Neuer Chat")`)
	setSelect(t, b, "set-lang", "en")
	waitJS(t, b, 5*time.Second, "English again", `document.querySelector("#new-chat").textContent.includes("New chat")`)
}

func TestChat_DebugModeShowsRouteAndTelemetry(t *testing.T) {
	b, _, _ := scriptedApp(t)
	b.do(t, 5*time.Second, "open settings", chromedp.Click(chromedp.ID("open-settings")), chromedp.WaitReady(chromedp.ID("set-debug")))
	clickJS(t, b, "#set-debug")
	b.do(t, 5*time.Second, "close settings", chromedp.Click(chromedp.ID("settings-close")))
	ask(t, b, "[calc] please calculate 3 * (17 + 5) / 2")
	waitJS(t, b, 20*time.Second, "debug details", `!document.querySelector(".answer.cursor") && document.querySelector(".debug .route-mode")`)
	route := eval[string](t, b, `document.querySelector(".debug .route-mode").textContent`)
	if !strings.Contains(route, "_answer") {
		t.Errorf("route line = %q, want the router's mode", route)
	}
	tel := eval[string](t, b, `document.querySelector(".debug .telemetry").textContent`)
	for _, want := range []string{`"mode"`, `"tools"`, `"calculate"`, `"continuations": 1`} {
		if !strings.Contains(tel, want) {
			t.Errorf("telemetry lacks %s:\n%s", want, tel)
		}
	}
}

func TestChats_NewRenameSearchDelete(t *testing.T) {
	b, srv, _ := scriptedApp(t)
	for _, q := range []string{"first question about apples", "second question about pears"} {
		b.do(t, 5*time.Second, "new chat", chromedp.Click(chromedp.ID("new-chat")))
		ask(t, b, q)
		waitJS(t, b, 15*time.Second, "answer", `!document.querySelector(".answer.cursor") && `+lastAnswer+`.includes("scripted model")`)
	}
	items := `[...document.querySelectorAll(".chat-item")].map(e => e.textContent)`
	waitJS(t, b, 5*time.Second, "two chats, newest first", items+`.join("|") === "second question about pears|first question about apples"`)

	// Rename the apples chat.
	b.do(t, 5*time.Second, "rename", chromedp.Click(chromedp.CSS(`.chat-row:nth-child(2) .row-btn:not(.danger)`)))
	waitJS(t, b, 5*time.Second, "rename field", `document.getElementById("rename-input")`)
	eval[bool](t, b, `(() => { const el = document.getElementById("rename-input"); el.value = "Apple notes"; el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
	b.do(t, 5*time.Second, "save name", chromedp.SendKeys(chromedp.ID("rename-input"), "\r"))
	waitJS(t, b, 5*time.Second, "renamed", items+`.includes("Apple notes")`)

	// Search finds chats by their messages too.
	b.do(t, 5*time.Second, "search", chromedp.SendKeys(chromedp.ID("chat-search"), "pears"))
	waitJS(t, b, 5*time.Second, "search narrows the list", items+`.join("|") === "second question about pears"`)
	eval[bool](t, b, `(() => { const el = document.getElementById("chat-search"); el.value = ""; el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
	waitJS(t, b, 5*time.Second, "both again", items+`.length === 2`)

	// Delete the pears chat; the other survives a reload with its name.
	b.do(t, 5*time.Second, "delete", chromedp.Click(chromedp.CSS(`.chat-row:nth-child(1) .row-btn.danger`)))
	waitJS(t, b, 5*time.Second, "deleted", items+`.join("|") === "Apple notes"`)
	waitStoredChats(t, b, 5*time.Second, "the deletion and the name saved", `s.includes("Apple notes") && !s.includes("second question about pears")`)
	openApp(t, b, srv.URL+"/")
	waitJS(t, b, 5*time.Second, "after reload", items+`.join("|") === "Apple notes"`)
}

func TestKnowledge_DroppedFilesAreImported(t *testing.T) {
	b, _, _ := scriptedApp(t)
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")), chromedp.WaitReady(chromedp.ID("kb-drop")))
	// A drop as the browser delivers it: a DataTransfer holding two files.
	eval[bool](t, b, `(() => {
	  const dt = new DataTransfer();
	  dt.items.add(new File(["# Owls\n\nOwls hunt at night."], "owls.md", {type: "text/markdown"}));
	  dt.items.add(new File(["Bats sleep during the day."], "bats.txt", {type: "text/plain"}));
	  const zone = document.getElementById("kb-drop");
	  zone.dispatchEvent(new DragEvent("dragover", {bubbles: true, cancelable: true, dataTransfer: dt}));
	  zone.dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: dt}));
	  return true;
	})()`)
	waitJS(t, b, 20*time.Second, "both documents listed", `(() => { const t = [...document.querySelectorAll("#doc-list .doc-title")].map(e => e.textContent); return t.includes("Owls") && t.includes("bats.txt"); })()`)
}

func TestKnowledge_URLOfAPDFIsImportedThroughTheProxy(t *testing.T) {
	pdf, err := os.ReadFile("../../app/knowledge/importer/testdata/hello.pdf")
	if err != nil {
		t.Fatal(err)
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(pdf)
	}))
	t.Cleanup(site.Close)
	b, _, _ := scriptedApp(t, "--fetch-allow-host=127.0.0.1")
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")), chromedp.WaitReady(chromedp.ID("kb-url")))
	eval[bool](t, b, `(() => { const el = document.getElementById("kb-url"); el.value = "`+site.URL+`/paper"; el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
	b.do(t, 5*time.Second, "add the address", chromedp.Click(chromedp.ID("kb-url-add")))
	waitJS(t, b, 20*time.Second, "the PDF listed by its title",
		`[...document.querySelectorAll("#doc-list .doc-title")].some(e => e.textContent === "Hello fixture")`)
	b.do(t, 10*time.Second, "search it", chromedp.Click(chromedp.ID("kb-search")), chromedp.SendKeys(chromedp.ID("kb-search"), "hand-written"))
	waitJS(t, b, 10*time.Second, "a hit from the PDF's text", `document.querySelector("#kb-hits mark")`)
}

func TestKnowledge_DeletedSourceStaysDeletedAfterReload(t *testing.T) {
	b, srv, _ := scriptedApp(t)
	importZebra(t, b)
	titles := `[...document.querySelectorAll("#doc-list .doc-title")].map(e => e.textContent).join("|")`
	// A second document, pasted, which must survive.
	b.do(t, 5*time.Second, "open paste", chromedp.Click(chromedp.CSS("#panel-knowledge details summary")))
	eval[bool](t, b, `(() => { for (const [id, v] of [["paste-title", "Owls"], ["paste-text", "Owls hunt at night in silence."]]) { const el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event("input", {bubbles: true})); } return true; })()`)
	b.do(t, 5*time.Second, "add it", chromedp.Click(chromedp.ID("paste-add")))
	waitJS(t, b, 10*time.Second, "both listed", titles+`.split("|").length === 2`)

	b.do(t, 5*time.Second, "delete the zebra document", chromedp.Click(chromedp.CSS(`#doc-list .doc button.danger[aria-label*="Zebra"]`)))
	waitJS(t, b, 10*time.Second, "only owls listed", titles+` === "Owls"`)

	openApp(t, b, srv.URL+"/")
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	waitJS(t, b, 10*time.Second, "still only owls after reload", titles+` === "Owls"`)
	b.do(t, 10*time.Second, "search the deleted text", chromedp.Click(chromedp.ID("kb-search")), chromedp.SendKeys(chromedp.ID("kb-search"), "Serengeti zebras"))
	waitJS(t, b, 10*time.Second, "no hit from the deleted document", `!!document.querySelector("#panel-knowledge .empty-hint") && !document.querySelector("#kb-hits")`)
}

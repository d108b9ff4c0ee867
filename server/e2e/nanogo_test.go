package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// nanogoScripts make the model call nanogo: once with a program that never
// ends, once with one that prints 4.
func nanogoScripts() map[string][][]step {
	s := appScripts()
	s["[loop]"] = [][]step{
		{{Text: "Running it. "}, {Text: `<tool name="nanogo"><source>for {}</source></tool>`, Delay: 20 * time.Millisecond}},
		words("The program did not finish in time.", 10*time.Millisecond),
	}
	s["[four]"] = [][]step{
		{{Text: "Running it. "}, {Text: `<tool name="nanogo"><source>fmt.Println(2 + 2)</source></tool>`, Delay: 20 * time.Millisecond}},
		words("The program printed 4.", 10*time.Millisecond),
	}
	return s
}

// TestNanogo_InfiniteLoopTimesOutWhileThePageStaysResponsive is the browser
// check of nanoGo's timeout: a runaway snippet runs in the Web Worker, the
// chat input keeps taking keystrokes meanwhile, the card ends in ✗ with the
// timeout, and the next snippet runs in a fresh worker.
func TestNanogo_InfiniteLoopTimesOutWhileThePageStaysResponsive(t *testing.T) {
	llm := newScriptedLLM(t, nanogoScripts())
	srv := startServer(t, "--llm-url", llm.BaseURL(), "--llm-probe=false")
	b := newBrowser(t, 1280, 800)
	openApp(t, b, srv.URL+"/")
	// Allow nanoGo and shorten the tool timeout, as a user does in Settings
	// (stored in localStorage), then start the app again with them.
	eval[bool](t, b, `(() => {
		const s = JSON.parse(localStorage.getItem("tinyrag.settings") || "{}");
		s.allow_nanogo = true; s.tool_timeout_sec = 4; s.theme = s.theme || "dark";
		localStorage.setItem("tinyrag.settings", JSON.stringify(s));
		return true; })()`)
	openApp(t, b, srv.URL+"/")
	eval[bool](t, b, watchCards)

	ask(t, b, "[loop] spin forever")
	running := `.xml-tool-card[data-tool="nanogo"][data-status="running"]`
	waitJS(t, b, 20*time.Second, "nanogo card running", `document.querySelector('`+running+`')`)

	// Type while the loop spins in the worker: the page must keep up.
	// (CDP delivers Enter's character separately from its keydown, so the
	// ask above can leave a line break behind; start from an empty box.)
	clearInput(t, b)
	const typed = "still typing"
	b.do(t, 10*time.Second, "type while the loop runs",
		chromedp.Click(chromedp.ID("chat-input")),
		chromedp.SendKeys(chromedp.ID("chat-input"), typed),
	)
	if v := eval[string](t, b, `document.getElementById("chat-input").value`); v != typed {
		t.Fatalf("chat input = %q while nanogo ran, want %q", v, typed)
	}
	if !eval[bool](t, b, `!!document.querySelector('`+running+`')`) {
		t.Fatal("the card was no longer running when typing finished: the test did not overlap the loop")
	}

	// The worker's first load is not counted against the timeout, so allow
	// for it; the loop itself is ended at 4 s.
	failed := `.xml-tool-card[data-tool="nanogo"][data-status="error"]`
	waitJS(t, b, 60*time.Second, "nanogo card ends in error", `document.querySelector('`+failed+`')`)
	if badge := eval[string](t, b, `document.querySelector('`+failed+` .tool-status-badge').textContent`); badge != "✗" {
		t.Errorf("badge = %q, want ✗", badge)
	}
	if txt := eval[string](t, b, `document.querySelector('`+failed+`').textContent`); !strings.Contains(strings.ToLower(txt), "time") {
		t.Errorf("card %q does not mention the timeout", txt)
	}
	waitJS(t, b, 20*time.Second, "first answer finished", `!document.querySelector(".answer.cursor")`)

	// The next call works: a fresh worker replaces the terminated one.
	clearInput(t, b)
	ask(t, b, "[four] add")
	done := `.xml-tool-card[data-tool="nanogo"][data-status="done"]`
	waitJS(t, b, 60*time.Second, "second nanogo card done", `document.querySelector('`+done+`')`)
	if txt := eval[string](t, b, `document.querySelector('`+done+`').textContent`); !strings.Contains(txt, "4") {
		t.Errorf("done card %q lacks the program's output 4", txt)
	}
	if h := cardHistory(t, b, "nanogo"); len(h) == 0 || h[0] != "running" {
		t.Errorf("nanogo card history = %v, want it to start running", h)
	}
	if p := b.Problems(); len(p) > 0 {
		for _, m := range p {
			if !strings.Contains(m, "nanogo") && !strings.Contains(strings.ToLower(m), "terminat") {
				t.Errorf("browser problem: %s", m)
			}
		}
	}
}

// clearInput empties the composer the way typing does: value and input event.
func clearInput(t *testing.T, b *browser) {
	t.Helper()
	eval[bool](t, b, `(() => { const el = document.getElementById("chat-input"); el.value = ""; el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
}

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// holdFormatter pauses the page's request for markdown.wasm, the Markdown
// renderer app.wasm loads on first use (app/markdown/mdmodule), and
// returns a function that lets it through (ok) or fails it.
func holdFormatter(t *testing.T, b *browser) (release func(ok bool)) {
	t.Helper()
	paused := make(chan fetch.RequestID, 1)
	if err := chromedp.Listen(b.ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			select {
			case paused <- e.RequestID:
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	// The page's requests are seen here only if the service worker does
	// not answer them (it stores markdown.wasm once the app is ready).
	if _, err := chromedp.Call(b.ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/web/markdown.wasm*"}}}); err != nil {
		t.Fatalf("intercepting markdown.wasm: %v", err)
	}
	return func(ok bool) {
		t.Helper()
		var id fetch.RequestID
		select {
		case id = <-paused:
		case <-time.After(20 * time.Second):
			t.Fatal("the page never asked for markdown.wasm")
		}
		var err error
		if ok {
			_, err = chromedp.Call(b.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
		} else {
			_, err = chromedp.Call(b.ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: id, ErrorReason: network.ErrorReasonConnectionRefused})
		}
		if err != nil {
			t.Fatalf("releasing markdown.wasm: %v", err)
		}
	}
}

func TestFormatter_AnswerIsPlainTextUntilMarkdownWasmArrives(t *testing.T) {
	b, _, _ := scriptedApp(t)
	release := holdFormatter(t, b)
	ask(t, b, "[xss] show me")
	waitJS(t, b, 15*time.Second, "answer done", `!document.querySelector(".answer.cursor") && `+lastAnswer+`.includes("bold")`)
	for _, c := range []struct{ what, js string }{
		{"the answer is plain text", `document.querySelector(".answer .md.plain")`},
		{"the markup shows as written", lastAnswer + `.includes("**bold**") && ` + lastAnswer + `.includes("<script>")`},
		{"nothing of it is markup", `document.querySelectorAll(".answer .md.plain *").length === 0`},
		{"no script ran", `window.__pwned === undefined`},
		{"no note while it is still loading", `!document.querySelector(".plain-note")`},
	} {
		if !eval[bool](t, b, "!!("+c.js+")") {
			t.Errorf("before markdown.wasm: %s: %s", c.what, c.js)
		}
	}
	// Copy gives the Markdown as written while there is no renderer to
	// turn it into plain text.
	if got := copyAnswer(t, b); !strings.HasPrefix(got, "Here is **bold** text.") {
		t.Errorf("copied before markdown.wasm: %q, want the Markdown as written", got)
	}
	release(true)
	waitJS(t, b, 20*time.Second, "the answer rendered as Markdown", `document.querySelector(".answer strong") && !document.querySelector(".answer .md.plain")`)
	if !eval[bool](t, b, `window.__pwned === undefined && document.querySelectorAll(".answer script").length === 0`) {
		t.Error("rendering the answer ran its script")
	}
	// markdown.wasm's plain text: the markup dropped, the code kept.
	if got := copyAnswer(t, b); !strings.HasPrefix(got, "Here is bold text.") || !strings.Contains(got, `fmt.Println("code")`) {
		t.Errorf("copied after markdown.wasm: %q, want plain text", got)
	}
}

// copyAnswer clicks the last answer's Copy button and returns what it
// wrote to the clipboard (navigator.clipboard.writeText, caught).
func copyAnswer(t *testing.T, b *browser) string {
	t.Helper()
	eval[bool](t, b, `(() => {
	  window.__copied = undefined;
	  Object.defineProperty(navigator, "clipboard", {configurable: true, value: {writeText: (s) => { window.__copied = s; return Promise.resolve(); }}});
	  return true;
	})()`)
	b.do(t, 5*time.Second, "copy the answer", chromedp.Click(`(//button[contains(@class,"copy-answer")])[last()]`))
	waitJS(t, b, 5*time.Second, "text copied", `typeof window.__copied === "string"`)
	return eval[string](t, b, `window.__copied`)
}

func TestFormatter_AnswerStaysReadableWhenMarkdownWasmCannotLoad(t *testing.T) {
	b, _, _ := scriptedApp(t)
	release := holdFormatter(t, b)
	ask(t, b, "[calc] What is 3 * (17 + 5) / 2?")
	release(false)
	waitJS(t, b, 20*time.Second, "answer done", `!document.querySelector(".answer.cursor") && `+lastAnswer+`.includes("The result is **33**")`)
	waitJS(t, b, 10*time.Second, "the note says why", `document.querySelector(".plain-note")`)
	note := eval[string](t, b, `document.querySelector(".plain-note").textContent + " | " + document.querySelector(".plain-note").title`)
	for _, want := range []string{"plain text", "markdown.wasm"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q does not say %q", note, want)
		}
	}
	b.screenshot(t, "formatter-unavailable")
	if txt := eval[string](t, b, lastAnswer); strings.Contains(txt, "<tool") {
		t.Errorf("the tool block's XML shows in the plain answer: %q", txt)
	}
}

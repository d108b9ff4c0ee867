package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestKeyboard_AskCiteAndSwitchPanelsWithoutAMouse walks the main flows with
// the keyboard alone: the composer has the focus on load, Enter sends, Tab
// reaches the citation and the knowledge tab, Enter opens them, Escape
// closes the citation dialog and the focus goes back where it was.
func TestKeyboard_AskCiteAndSwitchPanelsWithoutAMouse(t *testing.T) {
	b, _, _ := scriptedApp(t)
	importZebra(t, b)
	// Back to the chat, by keyboard: the Chats tab is focusable and Enter
	// activates it.
	focusByTab(t, b, "tab-chats")
	b.do(t, 5*time.Second, "open chats", chromedp.KeyEvent(kb.Enter))
	focusByTab(t, b, "chat-input")

	b.do(t, 10*time.Second, "type and send", chromedp.KeyEvent("[cite] where do zebras go?"), chromedp.KeyEvent(kb.Enter))
	waitJS(t, b, 20*time.Second, "cited answer", `document.querySelector(".citations .citation") && !document.querySelector(".answer.cursor")`)

	focusByTab(t, b, "", ".citations .citation")
	b.do(t, 5*time.Second, "open the citation", chromedp.KeyEvent(kb.Enter))
	waitJS(t, b, 5*time.Second, "citation dialog open", `document.getElementById("citation-dialog")`)
	b.do(t, 5*time.Second, "close it", chromedp.KeyEvent(kb.Escape))
	waitJS(t, b, 5*time.Second, "citation dialog closed", `!document.getElementById("citation-dialog")`)
	waitJS(t, b, 5*time.Second, "focus back on the citation", `document.activeElement && document.activeElement.matches(".citations .citation")`)

	focusByTab(t, b, "tab-knowledge")
	b.do(t, 5*time.Second, "open knowledge", chromedp.KeyEvent(kb.Enter))
	waitJS(t, b, 5*time.Second, "knowledge panel shown", `document.getElementById("panel-knowledge") && document.querySelector("#doc-list .doc-title")`)
}

// focusByTab presses Tab until the element with id (or, if id is empty,
// the first element matching css) has the focus, failing after 60 presses.
func focusByTab(t *testing.T, b *browser, id string, css ...string) {
	t.Helper()
	cond := `document.activeElement && document.activeElement.id === "` + id + `"`
	if id == "" {
		cond = `document.activeElement && document.activeElement.matches(` + jsQuote(css[0]) + `)`
	}
	for i := 0; i < 60; i++ {
		if eval[bool](t, b, cond) {
			return
		}
		b.do(t, 5*time.Second, "press Tab", chromedp.KeyEvent(kb.Tab))
	}
	t.Fatalf("Tab never reached %s%s; focus is on %s", id, strings.Join(css, ""),
		eval[string](t, b, `document.activeElement ? document.activeElement.outerHTML.slice(0, 200) : "nothing"`))
}

func jsQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

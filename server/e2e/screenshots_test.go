package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestScreenshots_MainScreens writes PNGs of the chat, knowledge and
// settings screens at desktop and phone width, in the dark and light
// themes, into the git-ignored screenshots folder (make screenshots).
func TestScreenshots_MainScreens(t *testing.T) {
	b, _, _ := scriptedApp(t)

	// Content worth looking at: a document, a calculation, a cited answer.
	importZebra(t, b)
	b.do(t, 5*time.Second, "back to chats", chromedp.Click(chromedp.ID("tab-chats")))
	ask(t, b, "[calc] What is 3 * (17 + 5) / 2?")
	waitJS(t, b, 20*time.Second, "calc answer", `!document.querySelector(".answer.cursor") && `+lastAnswer+`.includes("33")`)
	ask(t, b, "[cite] Where do zebras migrate?")
	waitJS(t, b, 20*time.Second, "cited answer", `!document.querySelector(".answer.cursor") && document.querySelector(".citations .citation")`)

	click := func(id string) {
		clickJS(t, b, "#"+id)
		time.Sleep(250 * time.Millisecond)
	}
	navOpen := func(open bool) {
		if eval[bool](t, b, `document.getElementById("shell").classList.contains("nav-open")`) != open {
			clickJS(t, b, ".menu-btn")
		}
		time.Sleep(300 * time.Millisecond)
	}
	sizes := []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 800}, {"phone", 390, 844}}
	for _, theme := range []string{"dark", "light"} {
		b.do(t, 10*time.Second, "resize", chromedp.EmulateViewport(1280, 800))
		click("open-settings")
		click("theme-" + theme)
		click("settings-close")
		waitJS(t, b, 5*time.Second, "theme", `document.documentElement.dataset.theme === "`+theme+`"`)
		for _, sz := range sizes {
			b.do(t, 10*time.Second, "resize", chromedp.EmulateViewport(sz.w, sz.h))
			time.Sleep(300 * time.Millisecond)
			phone := sz.name == "phone"

			// Settings are closed here: by the theme's click above, or at
			// the end of the previous size.
			if phone {
				navOpen(false)
			}
			click("tab-chats")
			eval[bool](t, b, `(() => { const m = document.getElementById("messages"); m.scrollTop = m.scrollHeight; const i = document.getElementById("chat-input"); i.value = ""; i.style.height = "auto"; i.blur(); return true; })()`)
			time.Sleep(200 * time.Millisecond)
			b.screenshot(t, fmt.Sprintf("chat-%s-%s", sz.name, theme))

			if phone {
				navOpen(true)
			}
			click("tab-knowledge")
			eval[bool](t, b, `(() => { const el = document.getElementById("kb-search"); el.value = "serengeti zebras"; el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
			waitJS(t, b, 5*time.Second, "hits", `document.querySelector("#kb-hits mark")`)
			b.screenshot(t, fmt.Sprintf("knowledge-%s-%s", sz.name, theme))
			eval[bool](t, b, `(() => { const el = document.getElementById("kb-search"); el.value = ""; el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
			click("tab-chats")

			click("open-settings")
			if phone {
				navOpen(false)
			}
			waitJS(t, b, 5*time.Second, "settings shown", `document.getElementById("settings")`)
			b.screenshot(t, fmt.Sprintf("settings-%s-%s", sz.name, theme))
			click("settings-close")
		}
	}
	if p := b.Problems(); len(p) > 0 {
		t.Errorf("browser problems: %v", p)
	}
}

package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestApp_MountsWithFocusableChatInputAndNoConsoleErrors(t *testing.T) {
	srv := startServer(t)
	b := newBrowser(t, 1280, 800)

	b.do(t, 10*time.Second, "app mounts with a chat input",
		chromedp.Navigate(srv.URL+"/"),
		// The prerendered page already has the input; wait for the wasm to
		// take over (go-app removes its loader) so this checks the real app.
		chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")),
		chromedp.WaitVisible(chromedp.ID("chat-input")),
		chromedp.Focus(chromedp.ID("chat-input")),
	)
	if active := eval[string](t, b, `document.activeElement ? document.activeElement.id : ""`); active != "chat-input" {
		t.Fatalf("focused element = %q, want the chat input", active)
	}
	// Late errors (service worker install, icons) surface after mount.
	b.do(t, 10*time.Second, "service worker settles", chromedp.Sleep(1500*time.Millisecond))
	if p := b.Problems(); len(p) > 0 {
		t.Fatalf("browser reported problems:\n%v", p)
	}
	b.screenshot(t, "mount-desktop")
}

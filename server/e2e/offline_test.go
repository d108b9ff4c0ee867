package e2e

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestOffline_AppStartsFromTheServiceWorkerWhenTheServerIsGone checks the
// PWA promise: once loaded, the app starts again with no server at all,
// answering from the browser's own knowledge base.
func TestOffline_AppStartsFromTheServiceWorkerWhenTheServerIsGone(t *testing.T) {
	b, srv, _ := scriptedApp(t)
	importZebra(t, b)
	// go-app's service worker caches the app shell at install.
	waitJS(t, b, 30*time.Second, "service worker active and caching",
		`navigator.serviceWorker && navigator.serviceWorker.controller !== null`)
	waitJS(t, b, 30*time.Second, "app shell cached", `(async () => (await caches.keys()).length > 0)()`)

	// The server goes away.
	if err := srv.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	srv.cmd.Process.Wait()
	if _, err := (&http.Client{Timeout: time.Second}).Get(srv.URL + "/healthz"); err == nil {
		t.Fatal("the server still answers; the offline check would prove nothing")
	}

	openApp(t, b, srv.URL+"/")
	if llmState := eval[string](t, b, `document.getElementById("shell").dataset.llm`); llmState != "down" {
		t.Errorf("data-llm = %q with no server, want down", llmState)
	}
	// The browser is online; the server is what is missing, and the app
	// says so instead of showing model set-up steps.
	if net := eval[string](t, b, `document.getElementById("shell").dataset.net`); net != "server-down" {
		t.Errorf("data-net = %q with no server, want server-down", net)
	}
	if banner := eval[string](t, b, `document.getElementById("llm-banner").innerText`); !strings.Contains(banner, "server cannot be reached") || strings.Contains(banner, "ollama") {
		t.Errorf("banner with no server: %q", banner)
	}
	b.screenshot(t, "pwa-server-down")
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	waitJS(t, b, 10*time.Second, "knowledge still there offline",
		`document.querySelector("#doc-list .doc-title") && document.querySelector("#doc-list .doc-title").textContent.includes("Zebra")`)
	clearInput(t, b)
	ask(t, b, "Where do zebras migrate?")
	waitJS(t, b, 20*time.Second, "answered from the knowledge base offline", lastAnswer+`.includes("Serengeti")`)
}

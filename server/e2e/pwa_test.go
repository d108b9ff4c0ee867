package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// After one online visit the app starts with the network off, answers
// from the knowledge base with a citation, has nanoGo's sandbox at hand,
// says "offline" in words (not model set-up steps, not a fetch error),
// and recovers by itself when the network is back.
func TestPWA_WorksOfflineAfterOneVisitAndRecoversByItself(t *testing.T) {
	b, srv, _ := scriptedApp(t)
	importZebra(t, b)
	waitWorker(t, b)
	// nanoGo allowed, as a user does in Settings (stored in localStorage).
	eval[bool](t, b, `(() => {
		const s = JSON.parse(localStorage.getItem("tinyrag.settings") || "{}");
		s.allow_nanogo = true; s.theme = s.theme || "dark";
		localStorage.setItem("tinyrag.settings", JSON.stringify(s));
		return true; })()`)

	setNetwork(t, b, true, 0, 0)
	openApp(t, b, srv.URL+"/")
	if got := eval[string](t, b, `document.getElementById("shell").dataset.net`); got != "offline" {
		t.Errorf("data-net = %q with the network off, want offline", got)
	}
	if got := eval[string](t, b, `document.getElementById("shell").dataset.llm`); got != "down" {
		t.Errorf("data-llm = %q with the network off, want down", got)
	}
	page := eval[string](t, b, `document.querySelector(".main").innerText`)
	for _, bad := range []string{"No language model is connected", "ollama serve", "fetch()", "Failed to fetch"} {
		if strings.Contains(page, bad) {
			t.Errorf("offline page shows %q:\n%s", bad, page)
		}
	}
	for _, want := range []string{"You are offline", "reconnects by itself"} {
		if !strings.Contains(page, want) {
			t.Errorf("offline page does not say %q:\n%s", want, page)
		}
	}
	if pill := eval[string](t, b, `document.querySelector(".model-pill").innerText`); !strings.Contains(pill, "Offline") {
		t.Errorf("model status = %q, want it to say Offline", pill)
	}
	b.screenshot(t, "pwa-offline")

	// nanoGo's sandbox (bootstrap, wasm_exec.js, nanogo.wasm) starts from
	// the cache: it was stored at install, before anyone used it.
	got := eval[string](t, b, `new Promise((resolve) => {
	  const w = new Worker("/web/go-worker.js?wasm=nanogo.wasm");
	  w.onmessage = (e) => { resolve(e.data.type + " " + (e.data.message || "")); w.terminate(); };
	  w.onerror = (e) => resolve("error " + e.message);
	  setTimeout(() => resolve("timeout"), 30000);
	})`)
	if !strings.HasPrefix(got, "ready") {
		t.Errorf("nanoGo sandbox offline: %q, want ready", got)
	}

	// A local file imports offline too.
	okapi := filepath.Join(t.TempDir(), "okapis.md")
	if err := os.WriteFile(okapi, []byte("# Okapis\n\nOkapis live in the Ituri rainforest of the Congo basin.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	b.do(t, 10*time.Second, "import a file offline", chromedp.SetUploadFiles(chromedp.ID("kb-files"), []string{okapi}))
	waitJS(t, b, 30*time.Second, "file imported offline",
		`[...document.querySelectorAll("#doc-list .doc-title")].some((e) => e.textContent.includes("Okapis"))`)

	clearInput(t, b)
	ask(t, b, "Where do zebras migrate?")
	waitJS(t, b, 20*time.Second, "answered from the knowledge base offline", lastAnswer+`.includes("Serengeti")`)
	waitJS(t, b, 5*time.Second, "answer cites its source", `document.querySelector(".msg.assistant .citations .citation")`)
	if !eval[bool](t, b, `!![...document.querySelectorAll('.msg.assistant')].pop().querySelector('.xml-tool-card[data-tool="rag_knowledge"][data-status="done"]')`) {
		t.Error("the answer from the knowledge base has no rag_knowledge card")
	}

	// The calculator and nanoGo answer without a model, with their cards.
	clearInput(t, b)
	ask(t, b, "3 * (17 + 5) / 2")
	waitJS(t, b, 20*time.Second, "calculated offline", lastAnswer+`.includes("= 33")`)
	if !eval[bool](t, b, `!![...document.querySelectorAll('.msg.assistant')].pop().querySelector('.xml-tool-card[data-tool="calculate"][data-status="done"]')`) {
		t.Error("the offline calculation has no calculate card")
	}
	clearInput(t, b)
	eval[bool](t, b, `(() => { const el = document.getElementById("chat-input");
		el.value = "Run this:\n`+"```go\\nfmt.Println(6 * 7)\\n```"+`";
		el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
	b.do(t, 10*time.Second, "send the snippet", chromedp.Click(chromedp.ID("chat-input")), chromedp.SendKeys(chromedp.ID("chat-input"), "\r"))
	waitJS(t, b, 60*time.Second, "snippet ran offline", lastAnswer+`.includes("42")`)
	if !eval[bool](t, b, `!![...document.querySelectorAll('.msg.assistant')].pop().querySelector('.xml-tool-card[data-tool="nanogo"][data-status="done"]')`) {
		t.Error("the offline snippet has no nanogo card")
	}
	b.screenshot(t, "pwa-offline-answers")

	// The network comes back: no click, the model is found again.
	setNetwork(t, b, false, 0, 0)
	waitJS(t, b, 20*time.Second, "model status recovers by itself",
		`document.getElementById("shell").dataset.llm === "ok" && document.getElementById("shell").dataset.net === "online"`)
	if eval[bool](t, b, `!!document.querySelector("#llm-banner")`) {
		t.Error("the offline banner stays after the network came back")
	}

	// The network drops while the app runs: it notices without a reload.
	setNetwork(t, b, true, 0, 0)
	waitJS(t, b, 20*time.Second, "offline noticed while running",
		`document.getElementById("shell").dataset.net === "offline" && document.querySelector(".model-pill").innerText.includes("Offline")`)
	setNetwork(t, b, false, 0, 0)
	waitJS(t, b, 20*time.Second, "and back again", `document.getElementById("shell").dataset.llm === "ok"`)
}

// A question typed and sent while app.wasm is still downloading (slow
// network) is kept, shown as waiting, and answered once the app is ready.
func TestPWA_QuestionSentBeforeTheAppIsReadyIsAnswered(t *testing.T) {
	llm := newScriptedLLM(t, appScripts())
	srv := startServer(t, "--llm-url", llm.BaseURL(), "--llm-probe=false")
	b := newBrowser(t, 1280, 800)
	// About 10 Mbit/s: app.wasm takes seconds to arrive.
	setNetwork(t, b, false, 1_250_000, 40)
	b.do(t, 30*time.Second, "prerendered page", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.ID("chat-input")))
	if eval[bool](t, b, `!!document.querySelector('#shell[data-ready="true"]')`) {
		t.Fatal("the app was ready before anything was typed; the test would prove nothing")
	}
	const q = "[calc] What is 3 * (17 + 5) / 2?"
	// The composer is there to be clicked, not hidden under the loader.
	if !eval[bool](t, b, `(() => { const r = document.getElementById("chat-input").getBoundingClientRect();
	  return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2).id === "chat-input"; })()`) {
		t.Fatal("the composer is covered while the app starts: a user could not type")
	}
	b.do(t, 10*time.Second, "type and send before ready",
		chromedp.Click(chromedp.ID("chat-input")),
		chromedp.SendKeys(chromedp.ID("chat-input"), q),
		chromedp.SendKeys(chromedp.ID("chat-input"), "\r"),
	)
	if eval[bool](t, b, `!!document.querySelector('#shell[data-ready="true"]')`) {
		t.Fatal("the app became ready while typing; the test would prove nothing")
	}
	hint := eval[string](t, b, `document.querySelector(".composer-hint").innerText`)
	if !strings.Contains(hint, "will be sent as soon as tinyRAG is ready") {
		t.Errorf("while starting, the composer says %q; want that the question waits", hint)
	}
	b.screenshot(t, "pwa-early-input")

	waitJS(t, b, 90*time.Second, "the early question is answered", lastAnswer+`.includes("33")`)
	if got := eval[string](t, b, `document.querySelector(".msg.user .bubble").innerText`); got != q {
		t.Errorf("question shown as %q, want %q", got, q)
	}
	if n := eval[int](t, b, `document.querySelectorAll(".msg.user").length`); n != 1 {
		t.Errorf("%d questions in the chat, want 1 (sent once)", n)
	}
}

// A new version installs in the background and waits: the page keeps
// running its version until the user clicks Reload, then runs the new one.
// A version whose wasm cannot be downloaded whole never replaces the
// working one and is never offered.
func TestPWA_UpdateWaitsForTheUserAndABrokenDownloadNeverReplacesTheWorkingVersion(t *testing.T) {
	llm := newScriptedLLM(t, appScripts())
	args := []string{"--llm-url", llm.BaseURL(), "--llm-probe=false"}
	f := newFront(t)
	a := f.deploy(t, nil, "A", args...)
	verA := workerVersionOf(t, a.URL)
	b := newBrowser(t, 1280, 800)
	// A slow line, so the page's download of app.wasm and the worker's
	// install overlap as on a real first visit.
	setNetwork(t, b, false, 2_500_000, 20)
	openApp(t, b, f.URL+"/")
	waitWorker(t, b)
	setNetwork(t, b, false, 0, 0)
	if got := eval[string](t, b, `window.tinyragPWA.version`); got != verA {
		t.Fatalf("page version %q, want A's %q", got, verA)
	}
	// The first install waited for the page's own download of app.wasm
	// and revalidated it, instead of downloading it a second time.
	if n := f.fullDownloads("/web/app.wasm"); n != 1 {
		t.Errorf("app.wasm was downloaded %d times on the first visit, want 1", n)
	}

	bsrv := f.deploy(t, a, "B", args...)
	verB := workerVersionOf(t, bsrv.URL)
	if verA == verB {
		t.Fatal("A and B have the same version")
	}
	// The browser's periodic check (pwa.js also runs it on online and on
	// visibility) finds B; B installs in the background.
	eval[bool](t, b, `navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true)`)
	waitJS(t, b, 60*time.Second, "update prompt", `document.querySelector("#update-prompt .btn")`)
	if got := eval[string](t, b, `document.getElementById("update-prompt").innerText`); !strings.Contains(got, "A new version is ready") {
		t.Errorf("prompt says %q", got)
	}
	b.screenshot(t, "pwa-update-prompt")

	// Until the click, the page and its worker are still A.
	clearInput(t, b)
	ask(t, b, "[calc] 3 * (17 + 5) / 2")
	waitJS(t, b, 20*time.Second, "A still answers", lastAnswer+`.includes("33")`)
	if got := eval[string](t, b, controllerVersion); got != verA {
		t.Errorf("worker in control before the click: %q, want A's %q", got, verA)
	}
	if got := cacheNames(t, b); got != joinSorted("tinyrag-"+verA, "tinyrag-"+verB) {
		t.Errorf("caches before the click: %s, want A's and B's", got)
	}

	// A half-typed message survives the switch.
	clearInput(t, b)
	b.do(t, 10*time.Second, "type a draft", chromedp.SendKeys(chromedp.ID("chat-input"), "half-typed draft"))
	b.do(t, 10*time.Second, "click Reload", chromedp.Click(chromedp.ID("update-reload")))
	waitJS(t, b, 60*time.Second, "page reloaded into B", `window.tinyragPWA && window.tinyragPWA.version === `+jsString(verB))
	b.do(t, 60*time.Second, "B ready", chromedp.WaitVisible(chromedp.CSS(`#shell[data-ready="true"]:not([data-llm="unknown"])`)))
	if got := eval[string](t, b, controllerVersion); got != verB {
		t.Errorf("worker in control after the click: %q, want B's %q", got, verB)
	}
	waitJS(t, b, 10*time.Second, "the draft is back in the composer", `document.getElementById("chat-input").value === "half-typed draft"`)
	waitJS(t, b, 10*time.Second, "A's cache deleted on B's activation", `(async () => (await `+versionCaches+`) === "tinyrag-`+verB+`")()`)
	if eval[bool](t, b, `!!document.querySelector("#update-prompt .btn")`) {
		t.Error("the prompt is still shown after the reload")
	}

	// C's wasm fails to download: a server error, then a cut-short file.
	c := f.deploy(t, bsrv, "C", args...)
	verC := workerVersionOf(t, c.URL)
	for _, how := range []string{"500", "truncate"} {
		t.Run("wasm "+how, func(t *testing.T) {
			f.breakPath("/web/app.wasm", how)
			state := eval[string](t, b, `new Promise((resolve) => {
			  navigator.serviceWorker.getRegistration().then((r) => {
			    r.addEventListener("updatefound", () => {
			      const w = r.installing;
			      w.addEventListener("statechange", () => {
			        if (w.state === "redundant" || w.state === "installed") resolve(w.state);
			      });
			    }, {once: true});
			    r.update().catch((e) => resolve("update failed: " + e));
			  });
			  setTimeout(() => resolve("timeout"), 60000);
			})`)
			if state != "redundant" {
				t.Fatalf("C with a broken wasm: install ended %q, want redundant", state)
			}
			if eval[bool](t, b, `!!document.querySelector("#update-prompt .btn")`) {
				t.Error("a broken version is offered")
			}
			if got := cacheNames(t, b); got != "tinyrag-"+verB {
				t.Errorf("caches: %s, want only B's (C's half download removed)", got)
			}
		})
	}
	f.breakPath("/web/app.wasm", "")
	// B still works: reload, ask.
	openApp(t, b, f.URL+"/")
	if got := eval[string](t, b, `window.tinyragPWA.version`); got != verB {
		t.Errorf("after the failed updates the page runs %q, want B's %q (C is %q)", got, verB, verC)
	}
	clearInput(t, b)
	ask(t, b, "[calc] 3 * (17 + 5) / 2")
	waitJS(t, b, 20*time.Second, "B still answers", lastAnswer+`.includes("33")`)
}

// The app is installable: Chromium finds nothing missing.
func TestPWA_InstallableWithoutErrors(t *testing.T) {
	b, _, _ := scriptedApp(t)
	waitWorker(t, b)
	checkInstallable(t, b)
}

func joinSorted(a, b string) string {
	if a > b {
		a, b = b, a
	}
	return a + "," + b
}

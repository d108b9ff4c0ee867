//go:build !js

// Package browsertest proves the nanoGo Web Worker in a real Chromium: the
// worker bootstrap (assets/go-worker.js), the worker wasm (wasm/nanogo)
// and nanogo.WorkerRunner compiled into a test page (./page).
package browsertest

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tinyrag/app/internal/wasmtest"
)

const indexHTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>nanoGo worker test</title>
<script src="/wasm_exec.js"></script>
<script>
const go = new Go();
WebAssembly.instantiateStreaming(fetch("/page.wasm"), go.importObject).then(r => go.run(r.instance));
</script></head>
<body><input id="chat" autofocus></body></html>`

// result mirrors what page/main.go resolves nanogoRun's promise with.
type result struct {
	Content string `json:"content"`
	Error   string `json:"error"`
	Timeout bool   `json:"timeout"`
}

func TestWorkerRunner_InfiniteLoopLeavesThePageResponsiveAndTheNextCallWorks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two wasm binaries and starts Chromium")
	}
	dir := t.TempDir()
	root := wasmtest.ModuleRoot(t)
	wasmtest.Build(t, filepath.Join(dir, "nanogo.wasm"), "./wasm/nanogo")
	wasmtest.Build(t, filepath.Join(dir, "page.wasm"), "./app/nanogo/browsertest/page")

	mux := http.NewServeMux()
	serveFile := func(route, path, ctype string) {
		mux.HandleFunc(route, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			http.ServeFile(w, r, path)
		})
	}
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(indexHTML))
	})
	serveFile("/wasm_exec.js", wasmtest.WasmExec(t), "text/javascript")
	serveFile("/web/go-worker.js", filepath.Join(root, "assets", "go-worker.js"), "text/javascript")
	serveFile("/web/nanogo.wasm", filepath.Join(dir, "nanogo.wasm"), "application/wasm")
	serveFile("/page.wasm", filepath.Join(dir, "page.wasm"), "application/wasm")
	srv := httptest.NewServer(mux) // listens on 127.0.0.1 only
	defer srv.Close()

	ctx := wasmtest.Browser(t, 3*time.Minute)

	const limit = "4s"
	run := func(src string) result {
		t.Helper()
		r, err := chromedp.Run(ctx, chromedp.Evaluate[result](`nanogoRun(`+jsString(src)+`)`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("nanogoRun(%q): %v", src, err)
		}
		return r
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/?timeout="+limit),
		chromedp.Poll[chromedp.Void](`window.pageReady === true`, chromedp.WithPollingTimeout(time.Minute)),
	); err != nil {
		t.Fatalf("loading the test page: %v", err)
	}

	// First use loads the worker and its wasm.
	t0 := time.Now()
	if r := run("fmt.Println(2 + 2)"); r.Content != "4\n" || r.Error != "" {
		t.Fatalf("warm-up run = %+v, want 4", r)
	}

	t.Logf("first call, including loading the worker, took %s", time.Since(t0))
	// Start a busy loop (not awaited), then type while it runs.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](
		`window.loop = nanogoRun("fmt.Println(\"counting\")\nn := 0\nfor { n++ }"); window.loop.then(r => window.loopResult = r); true`)); err != nil {
		t.Fatal(err)
	}
	const typed = "still typing"
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("chat")),
		chromedp.SendKeys(chromedp.ID("chat"), typed),
	); err != nil {
		t.Fatal(err)
	}
	value, err := chromedp.Run(ctx, chromedp.Value(chromedp.ID("chat")))
	if err != nil {
		t.Fatal(err)
	}
	finishedWhileTyping, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.loopResult !== undefined`))
	if err != nil {
		t.Fatal(err)
	}
	if value != typed {
		t.Errorf("chat input holds %q while the loop runs, want %q", value, typed)
	}
	if finishedWhileTyping {
		t.Errorf("the loop had already ended when the typing was done: the page was blocked, or typing took longer than %s", limit)
	}

	loop, err := chromedp.Run(ctx, chromedp.Evaluate[result](`window.loop`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if !loop.Timeout || !strings.Contains(loop.Error, "did not finish within "+limit) {
		t.Errorf("loop result = %+v, want the timeout error", loop)
	}
	// What it printed before its worker was terminated is kept.
	if loop.Content != "counting\n" {
		t.Errorf("loop output = %q, want what it printed before the loop", loop.Content)
	}

	// The terminated worker is replaced for the next call.
	if r := run("fmt.Println(strings.ToUpper(\"again\"))"); r.Content != "AGAIN\n" || r.Error != "" {
		t.Errorf("run after the timeout = %+v, want AGAIN", r)
	}
	// A panic in a goroutine ends the worker's Go program; the error says
	// why and the next call gets a new worker.
	if r := run("fmt.Println(\"started\")\ngo func() { panic(\"in the background\") }()\nselect {}"); !strings.Contains(r.Error, "panic: in the background") || !strings.HasPrefix(r.Content, "started\n") {
		t.Errorf("goroutine panic = %+v, want the panic message and what was printed before", r)
	}
	// Refusals come back as errors without killing the worker.
	if r := run("import \"os\"\nos.Exit(1)"); !strings.Contains(r.Error, `import "os" is not allowed`) {
		t.Errorf("forbidden import = %+v, want a refusal", r)
	}
}

func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

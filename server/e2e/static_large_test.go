package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A large site's figure shards, which every first query reads, are too
// many to share the line with app.wasm, and too many to wait for until
// the app is ready: the page's site-prefetch.js asks for them once
// app.wasm has arrived, while the app compiles and starts, and the app
// takes them from there. Each is requested once, after app.wasm's last
// byte and before the app is ready, and the first search finds its hits.
func TestStaticSite_ALargeSitesFiguresArriveWhileTheAppStarts(t *testing.T) {
	tmp := t.TempDir()
	notes := filepath.Join(tmp, "docs")
	if err := os.MkdirAll(notes, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		body := fmt.Sprintf(`<!doctype html><html lang="en"><head><title>Orchard note %d</title></head><body><main><h1>Note %d</h1><p>Row %d of the orchard was mulched and watered in week %d.</p></main></body></html>`, i, i, i, i+10)
		if err := os.WriteFile(filepath.Join(notes, fmt.Sprintf("note-%d.html", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The orchard pages join the notes. One document per figure shard:
	// more shards than a small bundle has (app/knowledge/bundle,
	// Index.Small), on a site small enough for a test.
	pages, bundleDir := orchardBundle(t, tmp, "-figures-per", "1")
	site := hostSite(t, tmp, pages, bundleDir, []string{anywherePath})

	b := newBrowser(t, 1280, 800)
	openApp(t, b, site.URL+anywherePath)
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	b.do(t, 10*time.Second, "search", chromedp.Click(chromedp.ID("kb-search")), chromedp.SendKeys(chromedp.ID("kb-search"), "prune"))
	waitJS(t, b, 20*time.Second, "search hits", `document.querySelector("#kb-hits .hit")`)

	type request struct {
		Path  string
		Start float64
	}
	timing := eval[struct {
		WasmEnd  float64
		WasmMark float64
		Ready    float64
		Requests []request
	}](t, b, `(() => {
	  const wasm = performance.getEntriesByType("resource").find((e) => e.name.endsWith("/web/app.wasm"));
	  return {
	    wasmEnd: wasm ? wasm.responseEnd : -1,
	    wasmMark: (performance.getEntriesByName("tinyrag:wasm")[0] || {startTime: -1}).startTime,
	    ready: performance.getEntriesByName("tinyrag:ready")[0].startTime,
	    requests: performance.getEntriesByType("resource").filter((e) => /\/bundles\/.*\/g\//.test(e.name))
	      .map((e) => ({path: new URL(e.name).pathname, start: e.startTime})),
	  };
	})()`)
	if timing.WasmEnd < 0 {
		t.Fatal("no resource timing for app.wasm")
	}
	// The loader says when app.wasm is in (server/webapp/loader.go), and
	// the page's script starts the shards on that.
	first := -1.0
	for _, r := range timing.Requests {
		if first < 0 || r.Start < first {
			first = r.Start
		}
	}
	t.Logf("app.wasm's last byte %.0f ms, tinyrag:wasm %.0f ms, figure shards from %.0f ms, ready %.0f ms", timing.WasmEnd, timing.WasmMark, first, timing.Ready)
	if timing.WasmMark < timing.WasmEnd-1 {
		t.Errorf("the loader's tinyrag:wasm mark at %.0f ms; want one once app.wasm's last byte is in (%.0f ms)", timing.WasmMark, timing.WasmEnd)
	}
	if len(timing.Requests) < 9 {
		t.Fatalf("%d figure shards requested, want every one of more than 8: %+v", len(timing.Requests), timing.Requests)
	}
	seen := map[string]bool{}
	for _, r := range timing.Requests {
		if seen[r.Path] {
			t.Errorf("%s requested twice", r.Path)
		}
		seen[r.Path] = true
		if r.Start < timing.WasmEnd || r.Start > timing.Ready {
			t.Errorf("%s requested at %.0f ms; want after app.wasm's last byte (%.0f ms) and before ready (%.0f ms)", r.Path, r.Start, timing.WasmEnd, timing.Ready)
		}
	}
	if hit := eval[string](t, b, `document.querySelector("#kb-hits .hit").textContent`); !strings.Contains(strings.ToLower(hit), "prun") {
		t.Errorf("first hit %q, want the pruning page", hit)
	}
}

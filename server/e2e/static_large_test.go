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

// A large site's fragment names are read by the query, not by the visit:
// the first search fetches the name shards of the hits it shows, after
// the app is ready, and never the others. The loader marks when app.wasm
// has arrived (server/webapp/loader.go), which is when the page's
// site-prefetch.js starts a large site's map pages.
func TestStaticSite_ALargeSitesQueryReadsOnlyItsHitsNames(t *testing.T) {
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
	// The orchard pages join the notes. One document per name shard:
	// more shards than a small bundle has (app/knowledge/bundle,
	// Index.Small), on a site small enough for a test.
	pages, bundleDir := orchardBundle(t, tmp, "-names-per", "1")
	shards, err := filepath.Glob(filepath.Join(bundleDir, "n", "*.bin"))
	if err != nil || len(shards) < 9 {
		t.Fatalf("the test bundle has %d name shards (%v), want more than a small bundle's 8", len(shards), err)
	}
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
		Hits     int
		Requests []request
	}](t, b, `(() => {
	  const wasm = performance.getEntriesByType("resource").find((e) => e.name.endsWith("/web/app.wasm"));
	  return {
	    wasmEnd: wasm ? wasm.responseEnd : -1,
	    wasmMark: (performance.getEntriesByName("tinyrag:wasm")[0] || {startTime: -1}).startTime,
	    ready: performance.getEntriesByName("tinyrag:ready")[0].startTime,
	    hits: document.querySelectorAll("#kb-hits .hit").length,
	    requests: performance.getEntriesByType("resource").filter((e) => /\/bundles\/.*\/n\//.test(e.name))
	      .map((e) => ({path: new URL(e.name).pathname, start: e.startTime})),
	  };
	})()`)
	if timing.WasmEnd < 0 {
		t.Fatal("no resource timing for app.wasm")
	}
	t.Logf("app.wasm's last byte %.0f ms, tinyrag:wasm %.0f ms, ready %.0f ms, %d hits, name shards %+v", timing.WasmEnd, timing.WasmMark, timing.Ready, timing.Hits, timing.Requests)
	if timing.WasmMark < timing.WasmEnd-1 {
		t.Errorf("the loader's tinyrag:wasm mark at %.0f ms; want one once app.wasm's last byte is in (%.0f ms)", timing.WasmMark, timing.WasmEnd)
	}
	if len(timing.Requests) == 0 || len(timing.Requests) > timing.Hits+10 || len(timing.Requests) >= len(shards) {
		t.Errorf("%d name shards requested for %d hits (feedback reads up to ten more documents), of %d; want those of the hits only", len(timing.Requests), timing.Hits, len(shards))
	}
	seen := map[string]bool{}
	for _, r := range timing.Requests {
		if seen[r.Path] {
			t.Errorf("%s requested twice", r.Path)
		}
		seen[r.Path] = true
		if r.Start < timing.Ready {
			t.Errorf("%s requested at %.0f ms, before the app was ready (%.0f ms): a large site's names wait for a query", r.Path, r.Start, timing.Ready)
		}
	}
	if hit := eval[string](t, b, `document.querySelector("#kb-hits .hit").textContent`); !strings.Contains(strings.ToLower(hit), "prun") {
		t.Errorf("first hit %q, want the pruning page", hit)
	}
}

package e2e

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A query reads the shards of its words and its hits' fragments, nothing
// else: the group table that names every fragment (app/knowledge/bundle,
// fragments.go) was read once while the app started — the page's
// site-prefetch.js asks for it with the manifest — so the hits' fragments
// are asked for as soon as the query has ranked, without a round of
// requests for their names. The loader marks when app.wasm has arrived
// (server/webapp/loader.go), which is when site-prefetch.js starts a
// large site's term map pages.
func TestStaticSite_AQueryReadsOnlyItsWordsShardsAndItsHitsFragments(t *testing.T) {
	tmp := t.TempDir()
	writeNotes(t, filepath.Join(tmp, "docs"), 12)
	pages, bundleDir := orchardBundle(t, tmp) // the orchard pages join the notes
	site := hostSite(t, tmp, pages, bundleDir, []string{anywherePath})

	b := newBrowser(t, 1280, 800)
	openApp(t, b, site.URL+anywherePath)
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	b.do(t, 10*time.Second, "search", chromedp.Click(chromedp.ID("kb-search")), chromedp.SendKeys(chromedp.ID("kb-search"), "prune"))
	// Hits are drawn as their texts arrive: the search is done once none
	// is pending.
	waitJS(t, b, 20*time.Second, "search hits", `!!document.querySelector("#kb-hits .hit") && !document.querySelector("#kb-hits .hit-pending")`)

	type request struct {
		Path  string
		Kind  string // the bundle's folder: t/, f/, g/, …
		Start float64
	}
	timing := eval[struct {
		WasmEnd  float64
		WasmMark float64
		Ready    float64
		Hits     int
		Requests []request
	}](t, b, `(() => {
	  // The plain host sends app.wasm as it lies on disk: the loader takes
	  // its .gz sibling (server/webapp/loader.go).
	  const wasm = performance.getEntriesByType("resource").filter((e) => /\/web\/app\.wasm(\.gz)?$/.test(e.name)).pop();
	  return {
	    wasmEnd: wasm ? wasm.responseEnd : -1,
	    wasmMark: (performance.getEntriesByName("tinyrag:wasm")[0] || {startTime: -1}).startTime,
	    ready: performance.getEntriesByName("tinyrag:ready")[0].startTime,
	    hits: document.querySelectorAll("#kb-hits .hit").length,
	    requests: performance.getEntriesByType("resource").filter((e) => /\/bundles\/[^/]+\/[a-z]\//.test(e.name))
	      .map((e) => ({path: new URL(e.name).pathname, kind: new URL(e.name).pathname.match(/\/bundles\/[^/]+\/([a-z]\/)/)[1], start: e.startTime})),
	  };
	})()`)
	if timing.WasmEnd < 0 {
		t.Fatal("no resource timing for app.wasm")
	}
	t.Logf("app.wasm's last byte %.0f ms, tinyrag:wasm %.0f ms, ready %.0f ms, %d hits, bundle files %+v", timing.WasmEnd, timing.WasmMark, timing.Ready, timing.Hits, timing.Requests)
	if timing.WasmMark < timing.WasmEnd-1 {
		t.Errorf("the loader's tinyrag:wasm mark at %.0f ms; want one once app.wasm's last byte is in (%.0f ms)", timing.WasmMark, timing.WasmEnd)
	}
	seen := map[string]bool{}
	kinds := map[string]int{}
	for _, r := range timing.Requests {
		if seen[r.Path] {
			t.Errorf("%s requested twice", r.Path)
		}
		seen[r.Path] = true
		kinds[r.Kind]++
		switch r.Kind {
		case "g/":
			if r.Start > timing.Ready {
				t.Errorf("the group table %s requested at %.0f ms, after the app was ready (%.0f ms)", r.Path, r.Start, timing.Ready)
			}
		case "t/", "f/", "x/", "s/": // the query's words (typed letter by letter: their prefixes too) and its hits
		default:
			t.Errorf("%s requested: a query reads its words' shards and its hits' fragments only", r.Path)
		}
	}
	if kinds["g/"] != 1 || kinds["t/"] == 0 || kinds["f/"] == 0 || kinds["f/"] > timing.Hits+10 {
		t.Errorf("bundle files requested by kind %v for %d hits; want the group table once, term shards, and the fragments of the hits (feedback reads up to ten more)", kinds, timing.Hits)
	}
	if hit := eval[string](t, b, `document.querySelector("#kb-hits .hit").textContent`); !strings.Contains(strings.ToLower(hit), "prun") {
		t.Errorf("first hit %q, want the pruning page", hit)
	}
}

// notePage is orchard note i, whose row was word (mulched, pruned, …).
func notePage(i int, word string) string {
	return fmt.Sprintf(`<!doctype html><html lang="en"><head><title>Orchard note %d</title></head><body><main><h1>Note %d</h1><p>Row %d of the orchard was %s and watered in week %d.</p></main></body></html>`, i, i, i, word, i%50)
}

// notePath is orchard note i's file in dir.
func notePath(dir string, i int) string { return filepath.Join(dir, fmt.Sprintf("note-%03d.html", i)) }

// writeNotes writes n orchard notes, mulched, into the folder dir.
func writeNotes(t *testing.T, dir string, n int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := os.WriteFile(notePath(dir, i), []byte(notePage(i, "mulched")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A site's hits are drawn as their texts arrive: with some hits'
// fragments held back, the others are shown in their final places and
// the held ones as rows that wait for them; once they come, the list is
// the whole answer, none waiting.
func TestStaticSite_HitsAreDrawnAsTheirTextsArrive(t *testing.T) {
	tmp := t.TempDir()
	writeNotes(t, filepath.Join(tmp, "docs"), 12)
	pages, bundleDir := orchardBundle(t, tmp)
	site := hostSite(t, tmp, pages, bundleDir, []string{anywherePath})
	site.slow(oddFragmentsLate)

	b := newBrowser(t, 1280, 800)
	openApp(t, b, site.URL+anywherePath)
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	// The query comes whole, as pasted: typed letter by letter, each
	// prefix's search would fetch (and hold) fragments of its own. It has
	// more words than feedback expands (rank.Feedback.MaxQueryTerms),
	// which reads its top documents' texts before the hits are known.
	b.do(t, 10*time.Second, "the search box", chromedp.WaitVisible(chromedp.ID("kb-search")))
	eval[bool](t, b, `(() => { const el = document.getElementById("kb-search"); el.value = "orchard row mulched watered week";
		el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
	waitJS(t, b, 20*time.Second, "hits shown while others wait", `!!document.querySelector("#kb-hits .hit") && !!document.querySelector("#kb-hits .hit-pending")`)
	b.screenshot(t, "kb-hits-arriving")
	if busy := eval[string](t, b, `document.querySelector("#kb-hits .hit-pending").getAttribute("aria-busy")`); busy != "true" {
		t.Errorf("a waiting row says aria-busy=%q, want true", busy)
	}
	waitJS(t, b, 20*time.Second, "every hit shown", `!!document.querySelector("#kb-hits .hit") && !document.querySelector("#kb-hits .hit-pending")`)
	if n := eval[int](t, b, `document.querySelectorAll("#kb-hits .hit").length`); n < 4 {
		t.Errorf("%d hits in the end, want the notes'", n)
	}
}

// The embed's search box on a host page of another origin shows a site's
// pages as their texts arrive, as the knowledge panel does: the pages
// whose fragments came are listed in their final places, the others as
// rows that wait for them; once they come, the list is whole and its
// count is said.
func TestEmbed_SearchShowsPagesAsTheirTextsArrive(t *testing.T) {
	tmp := t.TempDir()
	writeNotes(t, filepath.Join(tmp, "docs"), 12)
	pages, bundleDir := orchardBundle(t, tmp)
	host := newOrigin(t)
	site := hostSite(t, tmp, pages, bundleDir, []string{anywherePath}, "--embed-origins", host.URL)
	site.slow(oddFragmentsLate)
	host.set("/", docsHost(strings.TrimSuffix(site.URL+anywherePath, "/"), `data-search="true"`))

	b := newBrowser(t, 1280, 800)
	openHost(t, b, host.URL+"/")
	ctrlK(t, b)
	waitShadow(t, b, 5*time.Second, "Ctrl+K opens the search", `return this.querySelector(".back.open")`)
	// The query comes whole, as pasted: typed key by key, each prefix's
	// search would fetch (and hold) fragments of its own.
	inShadow[bool](t, b, `function() { const q = this.querySelector("#tr-q"); q.value = "orchard row mulched watered week";
		q.dispatchEvent(new Event("input")); return true; }`)
	waitShadow(t, b, 90*time.Second, "pages shown while others wait",
		`return this.querySelector("#tr-list li.pending") && this.querySelector("#tr-list li:not(.pending):not(.ask) .t")`)
	b.screenshot(t, "embed-search-arriving")
	if busy := inShadow[string](t, b, `function() { return this.querySelector("#tr-list li.pending").getAttribute("aria-busy"); }`); busy != "true" {
		t.Errorf("a waiting row says aria-busy=%q, want true", busy)
	}
	if st := readSearchState(t, b); strings.Contains(st.Status, "result") {
		t.Errorf("the count %q is said while pages still load", st.Status)
	}
	waitShadow(t, b, 30*time.Second, "every page shown",
		`return this.querySelector("#tr-list li:not(.ask) .t") && !this.querySelector("#tr-list li.pending")`)
	st := readSearchState(t, b)
	pagesShown := 0
	for _, o := range st.Options {
		if strings.HasPrefix(o.Title, "Orchard note") && strings.Contains(o.Href, "#:~:text=") {
			pagesShown++
		}
	}
	if pagesShown < 4 || !strings.Contains(st.Status, "result") {
		t.Errorf("%d notes listed with links at their passages, status %q; want the notes and their count", pagesShown, st.Status)
	}
}

// oddFragmentsLate holds the fragments of odd-numbered documents for 3 s
// (plainHost.slow); the notes are numbered in a row, so a query's hits
// hold both kinds.
func oddFragmentsLate(p string) time.Duration {
	// The plain host sends files as they lie on disk, so the app asks
	// for each fragment's .gz sibling.
	if n, ok := strings.CutSuffix(strings.TrimSuffix(path.Base(p), ".gz"), ".json"); ok && strings.Contains(p, "/f/") && n != "" && (n[len(n)-1]-'0')%2 == 1 {
		return 3 * time.Second
	}
	return 0
}

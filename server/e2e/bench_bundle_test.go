package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tinyrag/app/knowledge/bundle"
	"tinyrag/server/compress"
)

// TestBenchBundle_SciFactBundleIsSearchableOnTheFirstVisit measures the
// bundle target (a site's bundle searchable within 1 s of the app's start on
// a first visit): SciFact (5,183 documents) shipped as a bundle with a
// static site — its size raw, gzip and brotli, and how long a first visit
// takes from app start until the bundle is searchable — next to importing
// the same corpus in the browser. A measurement, not a pass/fail timing:
// it runs only with TINYRAG_BENCH_SCIFACT=<dir> (make bench-bundle).
func TestBenchBundle_SciFactBundleIsSearchableOnTheFirstVisit(t *testing.T) {
	set, ins, backup := scifactCorpus(t)
	var buf bytes.Buffer
	buildStart := time.Now()
	if _, err := bundle.Build(context.Background(), &buf, ins, bundle.Options{Title: "SciFact"}); err != nil {
		t.Fatal(err)
	}
	buildTook := time.Since(buildStart)
	gz, br, err := compress.Bytes(buf.Bytes(), compress.DefaultBrotli)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	bundleFile := filepath.Join(tmp, "scifact.tinyrag")
	if err := os.WriteFile(bundleFile, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	llm := newScriptedLLM(t, siteScripts())
	out := filepath.Join(tmp, "site")
	run(t, binPath, "static", "-o", out, "--base", "/kb/", "--bundle", bundleFile, "--llm-url", llm.BaseURL())
	site := serveStatic(t, out, "")

	query := set.Queries[0].Text
	words := strings.Fields(query)
	search := words[0] + " " + words[1]

	// First visit: a fresh browser profile, nothing cached.
	b := newBrowser(t, 1280, 800)
	navStart := time.Now()
	openApp(t, b, site.URL+"/kb/")
	pageMs := time.Since(navStart).Milliseconds()
	appMs := eval[int](t, b, `+document.getElementById("shell").dataset.loadMs`)
	fetchMs := eval[int](t, b, `+document.getElementById("shell").dataset.siteFetchMs`)
	openMs := eval[int](t, b, `+document.getElementById("shell").dataset.siteOpenMs`)
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	b.do(t, 10*time.Second, "search", chromedp.Click(chromedp.ID("kb-search")), chromedp.SendKeys(chromedp.ID("kb-search"), search))
	waitJS(t, b, 10*time.Second, "search hits in the bundle", `document.querySelector("#panel-knowledge mark")`)

	// The same corpus imported in the browser, as a visitor would without
	// a bundle (the backup file skips only the file parsing).
	b2 := newBrowser(t, 1280, 800)
	openApp(t, b2, site.URL+"/kb/")
	b2.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	b2.do(t, 5*time.Second, "open backup", chromedp.Click(chromedp.CSS("#kb-backup-section summary")))
	importStart := time.Now()
	b2.do(t, 10*time.Second, "import SciFact", chromedp.SetUploadFiles(chromedp.ID("kb-backup"), []string{backup}))
	want := fmt.Sprintf("(%d)", len(set.Corpus))
	waitJS(t, b2, 5*time.Minute, "all documents imported",
		`[...document.querySelectorAll("#panel-knowledge .side-section-title")].some(e => e.textContent.includes("`+want+`")) && !document.getElementById("kb-progress")`)
	importMs := time.Since(importStart).Milliseconds()

	mb := func(n int) float64 { return float64(n) / 1e6 }
	line := fmt.Sprintf("bundle_docs=%d bundle_raw_mb=%.2f bundle_gzip_mb=%.2f bundle_brotli_mb=%.2f bundle_build_ms=%d first_visit_searchable_ms=%d (bundle download %d, open %d) first_visit_page_to_ready_ms=%d browser_import_ms=%d",
		len(set.Corpus), mb(buf.Len()), mb(len(gz)), mb(len(br)), buildTook.Milliseconds(), appMs, fetchMs, openMs, pageMs, importMs)
	fmt.Println(line)
	t.Log(line)
}

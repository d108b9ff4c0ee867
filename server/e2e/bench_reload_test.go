package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/beir"
)

// BenchmarkReload_SciFactKnowledgeBaseIsSearchableAfterReload measures the
// reload target (searchable within 1 s of start): a SciFact-sized
// knowledge base (5,183 documents) imported in the browser, then the page
// reloaded — how long until it is searchable again. It is a measurement,
// not a pass/fail timing: make bench-reload runs it once (-benchtime=1x)
// on the SciFact folder in TINYRAG_BENCH_SCIFACT, and it prints one line.
func BenchmarkReload_SciFactKnowledgeBaseIsSearchableAfterReload(bm *testing.B) {
	var t testing.TB = bm
	set, _, backup := scifactCorpus(t)

	b, srv, _ := scriptedApp(t)
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	b.do(t, 5*time.Second, "open backup", chromedp.Click(chromedp.CSS("#kb-backup-section summary")))
	start := time.Now()
	b.do(t, 10*time.Second, "import SciFact", chromedp.SetUploadFiles(chromedp.ID("kb-backup"), []string{backup}))
	want := fmt.Sprintf("(%d)", len(set.Corpus))
	waitJS(t, b, 5*time.Minute, "all documents listed",
		`[...document.querySelectorAll("#panel-knowledge .side-section-title")].some(e => e.textContent.includes("`+want+`")) && !document.getElementById("kb-progress")`)
	importTook := time.Since(start)

	query := set.Queries[0].Text
	reloadStart := time.Now()
	openApp(t, b, srv.URL+"/")
	pageMs := time.Since(reloadStart).Milliseconds()
	appMs := eval[int](t, b, `+document.getElementById("shell").dataset.loadMs`)
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	b.do(t, 10*time.Second, "search", chromedp.Click(chromedp.ID("kb-search")),
		chromedp.SendKeys(chromedp.ID("kb-search"), strings.Fields(query)[0]+" "+strings.Fields(query)[1]))
	waitJS(t, b, 10*time.Second, "search hits after reload", `document.querySelector("#panel-knowledge mark")`)

	line := fmt.Sprintf("browser_import_docs_per_s=%.0f reload_searchable_ms=%d reload_page_to_ready_ms=%d docs=%d",
		float64(len(set.Corpus))/importTook.Seconds(), appMs, pageMs, len(set.Corpus))
	fmt.Println(line)
	t.Log(line)
}

// scifactCorpus reads SciFact from TINYRAG_BENCH_SCIFACT (a benchmark
// without it fails saying so) and writes it as a knowledge backup file,
// which the benchmark imports in the browser as a user would, through the knowledge
// panel (made by the same knowledge code, so only file parsing is skipped).
func scifactCorpus(t testing.TB) (beir.Set, []knowledge.Input, string) {
	t.Helper()
	dir := os.Getenv("TINYRAG_BENCH_SCIFACT")
	if dir == "" {
		t.Fatal("set TINYRAG_BENCH_SCIFACT to the SciFact folder (make bench-reload does)")
	}
	set, err := beir.LoadDir(dir)
	if err != nil {
		t.Fatalf("reading SciFact from %s: %v", dir, err)
	}
	ins := make([]knowledge.Input, len(set.Corpus))
	for i, d := range set.Corpus {
		ins[i] = knowledge.Input{Title: d.Title, Source: "scifact/" + d.ID, Type: "text", Text: d.Text}
	}
	kb, err := knowledge.New(knowledge.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer kb.Close()
	if _, err := kb.AddBatch(context.Background(), ins, nil); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(t.TempDir(), "scifact.tinyrag.gz")
	f, err := os.Create(backup)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := kb.Export(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	return set, ins, backup
}

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"tinyrag/app/knowledge"
)

// allowDownloads makes the browser save downloads into dir.
func allowDownloads(t *testing.T, b *browser, dir string) {
	t.Helper()
	_, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir,
	})
	if err != nil {
		t.Fatalf("allowing downloads: %v", err)
	}
}

// waitFile waits for one complete file in dir (Chromium writes
// .crdownload first).
func waitFile(t *testing.T, dir string, timeout time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".crdownload") {
				return filepath.Join(dir, e.Name())
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no download appeared in %s within %s", dir, timeout)
	return ""
}

func TestKnowledge_BackupExportsOneFileThatAnotherBrowserImports(t *testing.T) {
	llm := newScriptedLLM(t, appScripts())
	srv := startServer(t, "--llm-url", llm.BaseURL(), "--llm-probe=false")

	// First browser: import a document, export the knowledge base.
	b := newBrowser(t, 1280, 800)
	downloads := t.TempDir()
	allowDownloads(t, b, downloads)
	openApp(t, b, srv.URL+"/")
	importZebra(t, b)
	b.do(t, 5*time.Second, "open backup", chromedp.Click(chromedp.CSS("#kb-backup-section summary")))
	// The button is enabled once the import has ended and the section has
	// re-rendered with the document; a click before that does nothing.
	waitJS(t, b, 20*time.Second, "export enabled", `document.querySelector("#kb-export") && !document.querySelector("#kb-export").disabled`)
	b.do(t, 5*time.Second, "export", chromedp.Click(chromedp.ID("kb-export")))
	file := waitFile(t, downloads, 20*time.Second)
	if !strings.HasSuffix(file, ".tinyrag.gz") {
		t.Errorf("download named %s, want a .tinyrag.gz file", filepath.Base(file))
	}

	// The file is a real export: the native knowledge code reads it back.
	kb, err := knowledge.New(knowledge.Config{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := kb.Import(context.Background(), f, nil)
	f.Close()
	if err != nil || len(docs) != 1 || !strings.Contains(docs[0].Title, "Zebra") {
		t.Fatalf("native import of the browser's export: %d docs, err %v; want the zebra document", len(docs), err)
	}

	// Second browser, empty profile: a damaged file is refused and changes
	// nothing; the real file brings the document back, searchable.
	b2 := newBrowser(t, 1280, 800)
	openApp(t, b2, srv.URL+"/")
	b2.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	b2.do(t, 5*time.Second, "open backup", chromedp.Click(chromedp.CSS("#kb-backup-section summary")))
	junk := filepath.Join(t.TempDir(), "junk.tinyrag.gz")
	os.WriteFile(junk, []byte("this is not a knowledge export"), 0o644)
	b2.do(t, 10*time.Second, "import a damaged backup", chromedp.SetUploadFiles(chromedp.ID("kb-backup"), []string{junk}))
	waitJS(t, b2, 20*time.Second, "damaged file refused with a message", `document.querySelector("#panel-knowledge .form-error")`)
	if n := eval[int](t, b2, `document.querySelectorAll("#doc-list .doc-title").length`); n != 0 {
		t.Fatalf("a damaged backup added %d documents", n)
	}
	b2.do(t, 10*time.Second, "import the backup", chromedp.SetUploadFiles(chromedp.ID("kb-backup"), []string{file}))
	waitJS(t, b2, 30*time.Second, "document restored from the backup",
		`document.querySelector("#doc-list .doc-title") && document.querySelector("#doc-list .doc-title").textContent.includes("Zebra")`)
	b2.do(t, 10*time.Second, "search the restored knowledge",
		chromedp.Click(chromedp.ID("kb-search")), chromedp.SendKeys(chromedp.ID("kb-search"), "serengeti"))
	waitJS(t, b2, 10*time.Second, "search hit with highlight", `document.querySelector("#panel-knowledge mark")`)
}

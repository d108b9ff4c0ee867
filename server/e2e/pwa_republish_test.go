package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A returning visitor of a republished site, whose owner edited one page,
// stores the new bundle for offline use by fetching only the files whose
// names changed (app/knowledge/bundle: an edited page keeps its place in
// the index, so the fragments of its group of 64 and the term shards that
// list it change, and the rest keep their names).
func TestPWA_ARepublishedSiteIsStoredAgainOnlyWhereItChanged(t *testing.T) {
	tmp := t.TempDir()
	pages := filepath.Join(tmp, "docs")
	writeNotes(t, pages, 200)
	bundleDir := filepath.Join(tmp, "orchard")
	build := func() map[string]bool {
		run(t, binPath, "bundle", "-o", bundleDir, "-title", "Orchard notes", "-prefix", "/docs/", pages)
		files := map[string]bool{}
		filepath.WalkDir(bundleDir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".br") && !strings.HasSuffix(p, ".gz") {
				rel, _ := filepath.Rel(bundleDir, p)
				files[filepath.ToSlash(rel)] = true
			}
			return err
		})
		return files
	}
	before := build()
	site := serveStaticHost(t, tmp, bundleDir)

	b := newBrowser(t, 1280, 800)
	openApp(t, b, site.URL+"/sub/")
	waitWorker(t, b)
	stored := map[string]int{}
	site.mu.Lock()
	for p, n := range site.full {
		stored[p] = n
	}
	site.mu.Unlock()

	// One word of one page, as long as the one it replaces.
	if err := os.WriteFile(notePath(pages, 123), []byte(notePage(123, "pruned ")), 0o644); err != nil {
		t.Fatal(err)
	}
	after := build()
	site.deploy(t)
	var changed []string
	for f := range after {
		if !before[f] {
			changed = append(changed, f)
		}
	}
	if len(changed) == 0 || len(changed) > len(after)/2 {
		t.Fatalf("the edit changed %d of %d bundle files; the test needs an edit that changes some and keeps most", len(changed), len(after))
	}

	openApp(t, b, site.URL+"/sub/")
	waitOfflineReady(t, b)
	site.mu.Lock()
	defer site.mu.Unlock()
	fetched := 0
	for p, n := range site.full {
		_, rel, ok := strings.Cut(p, "/sub/bundles/")
		if !ok || n == stored[p] {
			continue
		}
		_, rel, _ = strings.Cut(rel, "/") // the bundle's folder
		// The plain host sends files as they lie on disk: the worker
		// takes a bundle file from its .gz sibling.
		rel = strings.TrimSuffix(rel, ".gz")
		fetched++
		switch {
		case !after[rel]:
			t.Errorf("%s fetched after the republish: not a file of the new bundle", p)
		case before[rel]:
			t.Errorf("%s fetched again after the republish, though its name did not change (%d times in all)", p, n)
		case n > 1:
			t.Errorf("%s fetched %d times", p, n)
		}
	}
	if fetched != len(changed) {
		t.Errorf("after the republish the visitor fetched %d bundle files; %d of the new bundle's %d files changed", fetched, len(changed), len(after))
	}
	t.Logf("republished: %d of %d bundle files changed and were fetched again", len(changed), len(after))
}

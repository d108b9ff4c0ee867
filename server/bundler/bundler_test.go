package bundler

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/bundle"
)

// dirFetch reads a bundle's files from its folder, as a browser would
// from a host.
func dirFetch(dir string) bundle.Fetch {
	return func(_ context.Context, name string) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	}
}

func TestBundleCommand_WritesABundleFolderTheAppCanOpen(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	var stdout, stderr bytes.Buffer
	err := Command(context.Background(), []string{"-o", out, "-prefix", "docs/", "../../app/knowledge/bundle/testdata/site"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v (stderr %s)", err, stderr.String())
	}
	o, err := bundle.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "3 documents") || !strings.Contains(stdout.String(), o.SHA256) || !strings.Contains(stdout.String(), o.ManifestName) {
		t.Errorf("stdout = %q", stdout.String())
	}
	for name := range o.Files {
		if _, err := os.Stat(filepath.Join(out, name+".br")); err != nil && !strings.HasSuffix(name, ".bin") {
			t.Errorf("%s has no .br sibling", name)
		}
	}
	ix, err := bundle.Open(context.Background(), o.ManifestName, o.SHA256, dirFetch(out))
	if err != nil {
		t.Fatal(err)
	}
	if ix.Manifest().Title != "site" {
		t.Errorf("title %q, want the folder's name", ix.Manifest().Title)
	}
	hits, err := ix.Search(context.Background(), "prune", knowledge.SearchOptions{K: 1})
	if err != nil || len(hits) == 0 || hits[0].Source != "docs/guide/pruning.html" {
		t.Fatalf("hits %+v, err %v", hits, err)
	}
	// Written again over itself: the earlier bundle is replaced.
	if err := Command(context.Background(), []string{"-o", out, "../../app/knowledge/bundle/testdata/site"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatalf("over an earlier bundle: %v", err)
	}
}

func TestBundleCommand_RefusesToReplaceAFolderThatIsNoBundle(t *testing.T) {
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644)
	err := Command(context.Background(), []string{"-o", out, "../../app/knowledge/bundle/testdata/site"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "holds no earlier bundle") {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "notes.txt")); err != nil {
		t.Error("the folder's own file is gone")
	}
}

func TestBundleCommand_NeedsAnOutputAndAPath(t *testing.T) {
	for _, args := range [][]string{{"../app"}, {"-o", "x"}} {
		if err := Command(context.Background(), args, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// Bundled again into the folder of its earlier build, a site's pages keep
// their numbers and a new page comes after them, even one whose path
// sorts first.
func TestBundleCommand_KeepsTheEarlierBundlesPageOrder(t *testing.T) {
	pages := t.TempDir()
	for _, name := range []string{"b.html", "c.html", "d.html"} {
		os.WriteFile(filepath.Join(pages, name), []byte("<html><head><title>"+name+"</title></head><body><main><p>Quinces and "+name+" in the orchard.</p></main></body></html>"), 0o644)
	}
	out := filepath.Join(t.TempDir(), "kb")
	build := func() []string {
		t.Helper()
		var stderr bytes.Buffer
		if err := Command(context.Background(), []string{"-o", out, pages}, &bytes.Buffer{}, &stderr); err != nil {
			t.Fatalf("%v (stderr %s)", err, stderr.String())
		}
		srcs, err := bundle.Sources(out)
		if err != nil {
			t.Fatal(err)
		}
		return srcs
	}
	if got := build(); strings.Join(got, " ") != "b.html c.html d.html" {
		t.Fatalf("first build's order %v", got)
	}
	os.WriteFile(filepath.Join(pages, "a.html"), []byte("<html><head><title>A</title></head><body><main><p>Quince jelly.</p></main></body></html>"), 0o644)
	if got := build(); strings.Join(got, " ") != "b.html c.html d.html a.html" {
		t.Errorf("after a page was added the order is %v, want the earlier pages first", got)
	}
	// Into a fresh folder, with -previous naming the earlier build.
	fresh := filepath.Join(t.TempDir(), "kb")
	os.WriteFile(filepath.Join(pages, "0.html"), []byte("<html><head><title>0</title></head><body><main><p>Quince paste.</p></main></body></html>"), 0o644)
	if err := Command(context.Background(), []string{"-o", fresh, "-previous", out, pages}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if got, err := bundle.Sources(fresh); err != nil || strings.Join(got, " ") != "b.html c.html d.html a.html 0.html" {
		t.Errorf("with -previous the order is %v (%v), want the earlier build's pages first", got, err)
	}
	if err := Command(context.Background(), []string{"-o", fresh, "-previous", t.TempDir(), pages}, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Error("-previous naming a folder that holds no bundle: no error")
	}
}

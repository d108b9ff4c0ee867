package publish

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tinyrag/app/knowledge/importer"
)

var ctx = context.Background()

func TestInputs_NamesPagesByTheirURLRelativeToTheSite(t *testing.T) {
	ins, _, err := Inputs(ctx, []string{"../testdata/site"}, "docs/")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, in := range ins {
		got[in.Source] = in.Title
	}
	want := map[string]string{"docs/index.html": "Orchard Handbook", "docs/guide/pruning.html": "Winter pruning", "docs/guide/notes.md": "Storage notes"}
	for src, title := range want {
		if got[src] != title {
			t.Errorf("source %q: title %q, want %q (all: %v)", src, got[src], title, got)
		}
	}
	for _, in := range ins {
		if strings.Contains(in.Text, "cooperative</footer>") || strings.Contains(in.Text, "<p>") {
			t.Errorf("%s: text keeps markup: %q", in.Source, in.Text)
		}
	}
}

func TestInputs_FileGivenDirectlyIsNamedByItsBaseName(t *testing.T) {
	ins, _, err := Inputs(ctx, []string{"../testdata/site/guide/pruning.html"}, "")
	if err != nil || len(ins) != 1 || ins[0].Source != "pruning.html" {
		t.Fatalf("ins = %+v, err %v", ins, err)
	}
}

func TestInputs_MissingPathIsAnError(t *testing.T) {
	if _, _, err := Inputs(ctx, []string{"../testdata/nope"}, ""); err == nil {
		t.Fatal("no error for a missing path")
	}
}

func TestInputs_ASiteOfMoreFilesThanABrowserImportTakesIsRead(t *testing.T) {
	dir := t.TempDir()
	n := importer.DefaultMaxFiles + 1
	for i := 0; i < n; i++ {
		page := fmt.Sprintf("<!doctype html><title>Page %d</title><main><p>Text of page %d.</p></main>", i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%05d.html", i)), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ins, _, err := Inputs(ctx, []string{dir}, "")
	if err != nil || len(ins) != n {
		t.Fatalf("%d inputs of %d pages, err %v", len(ins), n, err)
	}
}

package publish

import (
	"context"
	"strings"
	"testing"
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

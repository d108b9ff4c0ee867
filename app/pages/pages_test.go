package pages

import (
	"strings"
	"testing"
)

func TestAt_FindsThePageUnderItsBaseOnly(t *testing.T) {
	for _, c := range []struct {
		path, base string
		want       string // the page's Path, "" for none
	}{
		{"/", "/", RootPath},
		{"/index.html", "/", RootPath},
		{"/embed.html", "/", EmbedPath},
		{"/docs/kb/embed.html", "/docs/kb/", EmbedPath},
		{"/docs/kb/", "/docs/kb/", RootPath},
		{"/embed.html", "/docs/kb/", ""},
		{"/docs/kbembed.html", "/docs/kb/", ""},
		{"/nothing.html", "/", ""},
	} {
		p, ok := At(c.path, c.base)
		if ok != (c.want != "") || p.Path != c.want {
			t.Errorf("At(%q, %q) = %q, %v; want %q", c.path, c.base, p.Path, ok, c.want)
		}
	}
}

func TestTable_EveryPageHasAFileAndOneEmbedView(t *testing.T) {
	embeds := 0
	for _, p := range All() {
		if p.Path != RootPath && !strings.HasSuffix(p.Path, ".html") {
			t.Errorf("page %s: a page other than / must end in .html for static hosts", p.Path)
		}
		if p.File == "" || strings.HasPrefix(p.File, "/") {
			t.Errorf("page %s: file %q, want a path relative to the base", p.Path, p.File)
		}
		if p.Embed {
			embeds++
		}
	}
	if embeds != 1 {
		t.Errorf("%d embed views, want exactly one", embeds)
	}
}

package ui

import (
	"net/url"
	"testing"
)

func TestBasePath_FindsTheFolderOfTheAppsPages(t *testing.T) {
	for _, c := range []struct{ name, page, prefix, want string }{
		{"serve", "http://h/", "/", "/"},
		{"serve, embedded view", "http://h/embed.html?theme=dark", "/", "/"},
		{"built for its base", "http://h/docs/kb/", "/docs/kb/", "/docs/kb/"},
		{"built for its base, embedded view", "http://h/docs/kb/embed.html", "/docs/kb/", "/docs/kb/"},
		{"relative, copied into a deep folder", "http://h/any/deep/path/", "./", "/any/deep/path/"},
		{"relative, embedded view", "http://h/any/deep/path/embed.html#x", "./", "/any/deep/path/"},
		{"relative, index.html named", "http://h/any/index.html", "./", "/any/"},
		{"relative, at the root", "http://h/", "./", "/"},
		{"no prefix is relative", "http://h/a/b/", "", "/a/b/"},
	} {
		page, err := url.Parse(c.page)
		if err != nil {
			t.Fatal(err)
		}
		if got := BasePath(page, c.prefix); got != c.want {
			t.Errorf("%s: BasePath(%s, %q) = %q, want %q", c.name, c.page, c.prefix, got, c.want)
		}
	}
}

func TestIsEmbedPage_MatchesTheEmbedPageUnderTheBaseOnly(t *testing.T) {
	for _, c := range []struct {
		path, base string
		want       bool
	}{
		{"/embed.html", "/", true},
		{"/any/deep/path/embed.html", "/any/deep/path/", true},
		{"/any/deep/path/", "/any/deep/path/", false},
		{"/any/deep/path/index.html", "/any/deep/path/", false},
		{"/embed.html", "/any/", false},
		{"/other/embed.html", "/any/", false},
		{"/embed", "/", false},
	} {
		if got := IsEmbedPage(c.path, c.base); got != c.want {
			t.Errorf("IsEmbedPage(%q, %q) = %v, want %v", c.path, c.base, got, c.want)
		}
	}
}

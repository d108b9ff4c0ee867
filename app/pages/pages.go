// Package pages is the table of the app's pages: every HTML page the app
// has, at which path, in which file of a static site, and whether it is the
// embedded view. The browser's router (app/ui), the wasm entry (wasm/app),
// `tinyrag serve` and `tinyrag static` (server/webapp) all read this one
// table, so a page is added by one entry here. It imports no UI and no
// syscall/js, so the server reads it natively.
package pages

import "strings"

// Page is one HTML page of the app. go-app prerenders it; the server
// serves it and lists it for the service worker; a static build writes it.
type Page struct {
	// Path is the page's URL path under the app's base, as the router
	// matches it: "/" or "/embed.html". A page other than "/" ends in
	// .html, so that every static host, which picks the Content-Type by
	// extension, serves it as HTML.
	Path string
	// File is where a static site holds it, relative to the base.
	File string
	// Embed marks the compact view another page embeds (embed.js frames
	// it): it runs over stores of its own, named for the embedding page,
	// and its frame-ancestors are the embedding origins.
	Embed bool
	// Aliases are further paths the router sends to this page: a host or
	// a visitor naming index.html rather than its folder.
	Aliases []string
	// Moved are earlier addresses of the page, which `tinyrag serve`
	// redirects to Path (keeping the query).
	Moved []string
}

// The paths code names one page by.
const (
	// RootPath is the full app.
	RootPath = "/"
	// IndexPath is the full app when a host or a visitor names the file
	// rather than its folder.
	IndexPath = "/index.html"
	// EmbedPath is the compact view's page; `tinyrag serve` serves the
	// same URL a static host does, so embed.js frames one URL everywhere.
	EmbedPath = "/embed.html"
)

// table is every page, the full app first.
var table = []Page{
	{Path: RootPath, File: "index.html", Aliases: []string{IndexPath}},
	{Path: EmbedPath, File: "embed.html", Embed: true, Moved: []string{"/embed"}},
}

// All returns the app's pages, the full app first.
func All() []Page {
	out := make([]Page, len(table))
	copy(out, table)
	return out
}

// Find returns the page at path (its Path or one of its Aliases).
func Find(path string) (Page, bool) {
	for _, p := range table {
		if p.Path == path {
			return p, true
		}
		for _, a := range p.Aliases {
			if a == path {
				return p, true
			}
		}
	}
	return Page{}, false
}

// At returns the page at the URL path of an app based at base (a folder
// path ending in "/", as ui.BasePath finds it).
func At(path, base string) (Page, bool) {
	rel, ok := strings.CutPrefix(path, strings.TrimSuffix(base, "/"))
	if !ok || !strings.HasPrefix(rel, "/") {
		return Page{}, false
	}
	return Find(rel)
}

package ui

import (
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/embed"
	"tinyrag/app/pages"
)

// Pages are what drives each of the app's pages in the browser. The
// server's prerender has none of it and shows the empty pages.
type Pages struct {
	// App drives the full app (/).
	App *Controller
	// Embed drives the compact view another page embeds (embed.html): a
	// controller of its own, over stores of its own.
	Embed *Controller
	// EmbedOpts are the embedding page's choices (the frame's URL).
	EmbedOpts EmbedOptions
	// EmbedHost is Embed's Observer, passing answers to the host page.
	EmbedHost *EmbedHost
	// EmbedListen starts the bridge to the host page (app/embed.Listen).
	EmbedListen func(embed.Chat) (*embed.Bridge, error)
	// EmbedRefused says why the embedded view must not run here.
	EmbedRefused string
	// EmbedOrigin is the page that embeds the view ("" when none does).
	EmbedOrigin string
}

// EmbedPath is the compact view's page, under the app's base path
// (app/pages).
const EmbedPath = pages.EmbedPath

// IndexPath is the full app's page when a host or a visitor names the
// file rather than its folder.
const IndexPath = pages.IndexPath

// Routes registers the app's pages for the server, which prerenders them
// without a controller and needs the same routes to tell app paths from
// unknown ones.
func Routes() { RoutesFor(Pages{}) }

// RoutesFor registers every page of the table in app/pages, driven by p:
// the embed view gets the compact view, every other page the full app.
func RoutesFor(p Pages) {
	full := func() app.Composer { return &App{Ctrl: p.App} }
	compact := func() app.Composer {
		return &EmbedView{Ctrl: p.Embed, Opts: p.EmbedOpts, Host: p.EmbedHost, Listen: p.EmbedListen, Refused: p.EmbedRefused, HostOrigin: p.EmbedOrigin}
	}
	for _, pg := range pages.All() {
		c := full
		if pg.Embed {
			c = compact
		}
		for _, path := range append([]string{pg.Path}, pg.Aliases...) {
			app.Route(path, c)
		}
	}
}

// BasePath is the app's base path in the browser: the folder that holds
// its index.html, embed.html, tinyrag.json and web/. prefix is go-app's
// GOAPP_ROOT_PREFIX, the base the page was built for: "/" from `tinyrag
// serve`, the --base of a static build, or "./" for a static build that
// works from any folder. A relative prefix is resolved against the page's
// own URL (the page is one of the files at the base), so a site copied
// into /any/deep/path/ finds its files there.
func BasePath(page *url.URL, prefix string) string {
	ref, err := url.Parse(prefix)
	if err != nil || prefix == "" {
		ref = &url.URL{Path: "./"}
	}
	p := page.ResolveReference(ref).Path
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return p
}

// IsEmbedPage reports whether the page at path is the embedded view of
// the app based at base (BasePath).
func IsEmbedPage(path, base string) bool {
	pg, ok := pages.At(path, base)
	return ok && pg.Embed
}

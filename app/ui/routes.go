package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/embed"
)

// Pages are what drives each of the app's pages in the browser. The
// server's prerender has none of it and shows the empty pages.
type Pages struct {
	// App drives the full app (/).
	App *Controller
	// Embed drives the compact view another page embeds (/embed): a
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

// EmbedPath is the compact view's route, under the app's base path.
const EmbedPath = "/embed"

// Routes registers the app's pages for the server, which prerenders them
// without a controller and needs the same routes to tell app paths from
// unknown ones.
func Routes() { RoutesFor(Pages{}) }

// RoutesFor registers the app's pages driven by p.
func RoutesFor(p Pages) {
	app.Route("/", func() app.Composer { return &App{Ctrl: p.App} })
	app.Route(EmbedPath, func() app.Composer {
		return &EmbedView{Ctrl: p.Embed, Opts: p.EmbedOpts, Host: p.EmbedHost, Listen: p.EmbedListen, Refused: p.EmbedRefused, HostOrigin: p.EmbedOrigin}
	})
}

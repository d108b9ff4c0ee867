package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Routes registers the app's pages with go-app. The browser entry point and
// the server both call it: the server needs the same routes to prerender
// the page and to tell app paths from unknown ones.
func Routes() {
	app.Route("/", func() app.Composer { return &Shell{} })
}

package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Routes registers the app's pages for the server, which prerenders them
// without a controller and needs the same routes to tell app paths from
// unknown ones.
func Routes() { RoutesFor(nil) }

// RoutesFor registers the app's pages driven by ctrl (the browser entry
// point's controller).
func RoutesFor(ctrl *Controller) {
	app.Route("/", func() app.Composer { return &App{Ctrl: ctrl} })
}

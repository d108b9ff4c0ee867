package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// BrowserOnline reports navigator.onLine; outside a browser it is true.
func BrowserOnline() bool {
	if app.IsServer {
		return true
	}
	nav := app.Window().Get("navigator")
	return !nav.Truthy() || nav.Get("onLine").Bool()
}

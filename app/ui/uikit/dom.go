package uikit

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// The helpers below touch the page. go-app's JS values are no-ops outside
// the browser, so they are safe to call from code the server prerenders,
// but they only do something in the browser.

// CopyText puts text on the clipboard.
func CopyText(text string) {
	cb := app.Window().Get("navigator").Get("clipboard")
	if cb.Truthy() {
		cb.Call("writeText", text)
	}
}

// FocusByID moves keyboard focus to an element.
func FocusByID(id string) {
	el := app.Window().GetElementByID(id)
	if el.Truthy() {
		el.Call("focus")
	}
}

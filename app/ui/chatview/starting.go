package chatview

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// takeEarlyInput takes what was typed into the prerendered composer before
// the wasm started (assets/web/early-input.js kept it): the text, whether
// the user already sent it, and whether the composer had the focus.
func takeEarlyInput() (text string, queued, focused bool) {
	if app.IsServer {
		return "", false, false
	}
	early := app.Window().Get("tinyragEarlyInput")
	if !early.Truthy() {
		return "", false, false
	}
	got := early.Call("take")
	if t := got.Get("text"); t.Truthy() {
		text = t.String()
	}
	return text, got.Get("queued").Bool() && text != "", got.Get("focused").Bool()
}

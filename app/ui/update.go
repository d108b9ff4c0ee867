package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/ui/i18n"
)

// UpdatePrompt offers a new version of the app once the service worker
// has installed all of it (assets/web/pwa.js tells). The page keeps
// running its own version until the user clicks Reload: the worker then
// takes over and the page reloads once into the new version.
type UpdatePrompt struct {
	app.Compo

	Lang string

	ready    bool
	onUpdate app.Func
}

// OnMount subscribes to the page script's update signal.
func (u *UpdatePrompt) OnMount(ctx app.Context) {
	if app.IsServer {
		return
	}
	pwa := app.Window().Get("tinyragPWA")
	if !pwa.Truthy() {
		return
	}
	u.onUpdate = app.FuncOf(func(app.Value, []app.Value) any {
		ctx.Dispatch(func(app.Context) { u.ready = true })
		return nil
	})
	pwa.Call("onUpdate", u.onUpdate)
}

// Render implements app.Composer.
func (u *UpdatePrompt) Render() app.UI {
	if !u.ready {
		return app.Span().ID("update-prompt").Hidden(true)
	}
	return app.Div().Class("update-prompt").ID("update-prompt").Attr("role", "status").Body(
		app.Span().Text(i18n.T(u.Lang, "update_ready")),
		app.Button().Class("btn primary").ID("update-reload").Type("button").Text(i18n.T(u.Lang, "update_reload")).
			OnClick(func(ctx app.Context, e app.Event) {
				ctx.JSSrc().Set("disabled", true)
				app.Window().Get("tinyragPWA").Call("apply")
			}),
	)
}

package uikit

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/ui/i18n"
)

// MenuButton opens and closes the sidebar on a narrow screen.
type MenuButton struct {
	app.Compo
	Lang string

	view View
}

// OnMount observes the view, for whether the sidebar is open.
func (m *MenuButton) OnMount(ctx app.Context) { ctx.ObserveState(StateView, &m.view) }

// Render implements app.Composer.
func (m *MenuButton) Render() app.UI {
	return app.Button().Class("icon-btn menu-btn").Type("button").Aria("label", i18n.T(m.Lang, "open_menu")).
		Aria("expanded", m.view.NavOpen).Body(Icon("menu")).
		OnClick(func(ctx app.Context, e app.Event) { SetView(ctx, func(v *View) { v.NavOpen = !v.NavOpen }) })
}

package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/ui/chatview"
	"tinyrag/app/ui/i18n"
	"tinyrag/app/ui/kbview"
	"tinyrag/app/ui/uikit"
)

// Sidebar holds the chats and the knowledge base, a tab each, and the way
// to the settings.
type Sidebar struct {
	app.Compo
	Ctrl *Controller
	Lang string

	tab  string // "chats" (also "") or "knowledge"
	view uikit.View
}

// OnMount observes the view, for the settings button's state.
func (s *Sidebar) OnMount(ctx app.Context) { ctx.ObserveState(uikit.StateView, &s.view) }

// Render implements app.Composer.
func (s *Sidebar) Render() app.UI {
	l := s.Lang
	tab := s.tab
	if tab == "" {
		tab = "chats"
	}
	tabButton := func(id, label string) app.UI {
		return app.Button().Class("side-tab").Type("button").
			Aria("selected", tab == id).Aria("controls", "panel-"+id).Attr("role", "tab").ID("tab-" + id).
			Text(label).
			OnClick(func(ctx app.Context, e app.Event) { s.tab = id })
	}
	var panel app.UI
	if tab == "knowledge" {
		panel = &kbview.KnowledgePanel{Ctrl: s.Ctrl, Lang: l}
	} else {
		panel = &ChatListView{Ctrl: s.Ctrl, Lang: l}
	}
	settingsOpen := s.view.Page == uikit.PageSettings
	return app.Aside().Class("sidebar").Aria("label", i18n.T(l, "chats")+" / "+i18n.T(l, "knowledge")).Body(
		app.Div().Class("brand").Body(
			app.Img().Src("/web/icons/icon.svg").Alt(""),
			app.Span().Text("tinyRAG"),
			app.Small().Text("local-first"),
		),
		app.Button().Class("new-chat").Type("button").ID("new-chat").Body(
			uikit.Icon("plus"),
			app.Span().Text(i18n.T(l, "new_chat")),
		).OnClick(func(ctx app.Context, e app.Event) {
			if s.Ctrl == nil {
				return
			}
			s.Ctrl.Chat.NewChat()
			uikit.SetView(ctx, func(v *uikit.View) { v.Page, v.NavOpen = uikit.PageChat, false })
			chatview.SetDraft(ctx, "")
		}),
		app.Div().Class("side-tabs").Attr("role", "tablist").Body(
			tabButton("chats", i18n.T(l, "chats")),
			tabButton("knowledge", i18n.T(l, "knowledge")),
		),
		panel,
		app.Div().Class("side-footer").Body(
			app.Button().Class("icon-btn").ID("open-settings").Type("button").
				Aria("pressed", settingsOpen).
				Body(uikit.Icon("settings"), app.Span().Text(i18n.T(l, "settings"))).
				OnClick(func(ctx app.Context, e app.Event) {
					uikit.SetView(ctx, func(v *uikit.View) {
						// Read now: go-app keeps the first render's handler.
						open := v.Page == uikit.PageSettings
						v.Page, v.NavOpen = uikit.PageSettings, false
						if open {
							v.Page = uikit.PageChat
						}
					})
				}),
			app.Span().Class("side-footer-status").Body(&ModelPill{Lang: l}),
		),
	)
}

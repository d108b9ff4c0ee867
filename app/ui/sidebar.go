package ui

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
)

func (s *Shell) renderSidebar() app.UI {
	l := s.lang()
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
		panel = s.renderKnowledge()
	} else {
		panel = s.renderChatList()
	}
	return app.Aside().Class("sidebar").Aria("label", T(l, "chats")+" / "+T(l, "knowledge")).Body(
		app.Div().Class("brand").Body(
			app.Img().Src("/web/icons/icon.svg").Alt(""),
			app.Span().Text("tinyRAG"),
			app.Small().Text("local-first"),
		),
		app.Button().Class("new-chat").Type("button").ID("new-chat").Body(
			app.Span().Aria("hidden", true).Text("+"),
			app.Span().Text(T(l, "new_chat")),
		).OnClick(s.onNewChat),
		app.Div().Class("side-tabs").Attr("role", "tablist").Body(
			tabButton("chats", T(l, "chats")),
			tabButton("knowledge", T(l, "knowledge")),
		),
		panel,
		app.Div().Class("side-footer").Body(
			app.Button().Class("icon-btn").ID("open-settings").Type("button").
				Aria("pressed", s.view == viewSettings).
				Body(app.Span().Aria("hidden", true).Text("⚙"), app.Span().Text(T(l, "settings"))).
				OnClick(func(ctx app.Context, e app.Event) {
					if s.view == viewSettings {
						s.view = viewChat
					} else {
						s.view = viewSettings
					}
					s.navOpen = false
				}),
			app.Span().Class("side-footer-status").Body(s.renderLLMDot()),
		),
	)
}

func (s *Shell) onNewChat(ctx app.Context, e app.Event) {
	if s.rt == nil {
		return
	}
	s.stopAnswer()
	s.chat = s.rt.History.New()
	s.view, s.navOpen, s.draft = viewChat, false, ""
	ctx.Defer(func(app.Context) { focusByID(InputID) })
}

func (s *Shell) renderChatList() app.UI {
	l := s.lang()
	var list []*chats.Chat
	if s.rt != nil {
		list = s.rt.History.List(s.chatQuery)
	}
	var body []app.UI
	for _, c := range list {
		body = append(body, s.renderChatItem(c))
	}
	empty := T(l, "no_chats")
	if s.chatQuery != "" {
		empty = T(l, "no_chat_match")
	}
	return app.Div().Class("side-panel").Attr("role", "tabpanel").ID("panel-chats").Aria("labelledby", "tab-chats").Body(
		app.Input().Type("search").Class("side-search").ID("chat-search").
			Placeholder(T(l, "search_chats")).Aria("label", T(l, "search_chats")).
			Value(s.chatQuery).
			OnInput(func(ctx app.Context, e app.Event) { s.chatQuery = ctx.JSSrc().Get("value").String() }),
		app.Div().Class("side-section-title").Text(T(l, "recent")),
		app.If(len(list) == 0, func() app.UI { return app.P().Class("empty-hint").Text(empty) }),
		app.Ul().Class("chat-list").Aria("label", T(l, "chats")).Body(body...),
	)
}

func (s *Shell) renderChatItem(c *chats.Chat) app.UI {
	l := s.lang()
	id := c.ID
	current := s.chat != nil && s.chat.ID == id
	if s.renaming == id {
		return app.Li().Class("chat-row").Body(
			app.Div().Class("rename-form").Body(
				app.Input().Class("rename-input").ID("rename-input").Value(s.renameTo).
					Aria("label", T(l, "rename")).AutoFocus(true).
					OnInput(func(ctx app.Context, e app.Event) { s.renameTo = ctx.JSSrc().Get("value").String() }).
					OnKeyDown(func(ctx app.Context, e app.Event) {
						switch e.Get("key").String() {
						case "Escape":
							s.renaming = ""
						case "Enter":
							s.renameTo = ctx.JSSrc().Get("value").String()
							s.rename(id)
						}
					}, app.EventScope(id)),
				app.Button().Class("icon-btn").Type("button").Aria("label", T(l, "save")).Text("✓").
					OnClick(func(ctx app.Context, e app.Event) { s.rename(id) }, app.EventScope(id)),
			),
		)
	}
	return app.Li().Class("chat-row").Body(
		app.Button().Class("chat-item").Type("button").Aria("current", current).Title(c.Title).
			Text(c.Title).
			OnClick(func(ctx app.Context, e app.Event) {
				s.stopAnswer()
				s.chat, s.view, s.navOpen = c, viewChat, false
				ctx.Defer(func(app.Context) { stickToBottom(true) })
			}, app.EventScope(id)),
		app.Button().Class("row-btn").Type("button").Aria("label", T(l, "rename")+": "+c.Title).Title(T(l, "rename")).Text("✎").
			OnClick(func(ctx app.Context, e app.Event) { s.renaming, s.renameTo = id, c.Title }, app.EventScope(id)),
		app.Button().Class("row-btn danger").Type("button").Aria("label", T(l, "delete")+": "+c.Title).Title(T(l, "delete")).Text("🗑").
			OnClick(func(ctx app.Context, e app.Event) {
				if current {
					s.stopAnswer()
				}
				if err := s.rt.History.Delete(context.Background(), id); err != nil {
					s.notice = err.Error()
					return
				}
				if current {
					s.chat = s.rt.History.New()
				}
			}, app.EventScope(id, current)),
	)
}

func (s *Shell) renderLLMDot() app.UI {
	l := s.lang()
	cls, label := "dot", T(l, "no_model")
	if !s.ready {
		label = T(l, "starting")
	}
	switch s.llm {
	case llmOK:
		cls += " ok"
		label = s.settings.Model
		if label == "" {
			label = T(l, "model_auto")
			if len(s.models) > 0 {
				label = s.models[0]
			}
		}
	case llmDown:
		cls += " err"
		label = T(l, "offline_mode")
		switch s.net {
		case netOffline:
			label = T(l, "offline")
		case netServerDown:
			label = T(l, "offline_server")
		}
	}
	return app.Span().Class("model-pill").Attr("role", "status").Body(
		app.Span().Class(cls).Aria("hidden", true),
		app.Span().Class("model-name").Text(label),
	)
}

// rename gives chat id the title being typed.
func (s *Shell) rename(id string) {
	if err := s.rt.History.Rename(context.Background(), id, s.renameTo); err != nil {
		s.notice = err.Error()
		return
	}
	s.renaming = ""
}

// Package ui is tinyRAG's browser user interface: go-app components, one
// file per concept. Components hold only view state; the engine, knowledge
// base and storage they drive live in their own packages.
package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// InputID is the DOM id of the chat input; tests and keyboard shortcuts
// rely on it.
const InputID = "chat-input"

// Shell is the root component: the sidebar with chats and knowledge, and the
// conversation with its composer.
type Shell struct {
	app.Compo

	tab     string // "chats" or "knowledge"
	navOpen bool
	draft   string
}

// Render implements app.Composer.
func (s *Shell) Render() app.UI {
	cls := "shell"
	if s.navOpen {
		cls += " nav-open"
	}
	return app.Div().Class(cls).Body(
		s.renderSidebar(),
		app.Main().Class("main").Aria("label", "Conversation").Body(
			s.renderTopbar(),
			app.Div().Class("messages").ID("messages").Body(
				s.renderWelcome(),
			),
			s.renderComposer(),
		),
	)
}

func (s *Shell) renderSidebar() app.UI {
	tab := s.tab
	if tab == "" {
		tab = "chats"
	}
	tabButton := func(id, label string) app.UI {
		return app.Button().Class("side-tab").Type("button").
			Aria("selected", tab == id).Attr("role", "tab").ID("tab-"+id).
			Text(label).
			OnClick(func(ctx app.Context, e app.Event) { s.tab = id })
	}
	var panel app.UI
	if tab == "knowledge" {
		panel = app.Div().Class("side-panel").Attr("role", "tabpanel").ID("panel-knowledge").Body(
			app.Div().Class("side-section-title").Text("Sources"),
			app.P().Class("empty-hint").Text("No documents yet. Import files, folders, a URL or a Wikipedia article to chat with them."),
		)
	} else {
		panel = app.Div().Class("side-panel").Attr("role", "tabpanel").ID("panel-chats").Body(
			app.Div().Class("side-section-title").Text("Recent"),
			app.P().Class("empty-hint").Text("Your conversations appear here. They stay in this browser."),
		)
	}
	return app.Aside().Class("sidebar").Aria("label", "Chats and knowledge").Body(
		app.Div().Class("brand").Body(
			app.Img().Src("/web/icons/icon.svg").Alt(""),
			app.Span().Text("tinyRAG"),
			app.Small().Text("local-first"),
		),
		app.Button().Class("new-chat").Type("button").Body(
			app.Span().Aria("hidden", true).Text("+"),
			app.Span().Text("New chat"),
		),
		app.Div().Class("side-tabs").Attr("role", "tablist").Body(
			tabButton("chats", "Chats"),
			tabButton("knowledge", "Knowledge"),
		),
		panel,
		app.Div().Class("side-footer").Body(
			app.Button().Class("icon-btn").Type("button").Aria("label", "Settings").Text("⚙ Settings"),
		),
	)
}

func (s *Shell) renderTopbar() app.UI {
	return app.Header().Class("topbar").Body(
		app.Button().Class("icon-btn menu-btn").Type("button").Aria("label", "Open menu").Text("☰").
			OnClick(func(ctx app.Context, e app.Event) { s.navOpen = !s.navOpen }),
		app.H1().Text("New chat"),
		app.Span().Class("model-pill").Body(
			app.Span().Class("dot"),
			app.Span().Text("No model selected"),
		),
	)
}

func (s *Shell) renderWelcome() app.UI {
	suggestion := func(title, sub string) app.UI {
		return app.Button().Class("suggestion").Type("button").Body(
			app.Strong().Text(title),
			app.Span().Text(sub),
		).OnClick(func(ctx app.Context, e app.Event) { s.draft = title + " " + sub })
	}
	return app.Div().Class("welcome").Body(
		app.Img().Src("/web/icons/icon.svg").Alt(""),
		app.H2().Text("Ask your documents anything"),
		app.P().Text("tinyRAG searches your knowledge base right here in the browser, calls tools when it needs them, and cites its sources."),
		app.Div().Class("suggestions").Body(
			suggestion("Summarize", "the documents I imported"),
			suggestion("Calculate", "3 * (17 + 5) / 2"),
			suggestion("Look up", "Retrieval-augmented generation on Wikipedia"),
			suggestion("Compare", "two sources in my knowledge base"),
		),
	)
}

func (s *Shell) renderComposer() app.UI {
	return app.Div().Class("composer-wrap").Body(
		app.Form().Class("composer").Attr("role", "search").Aria("label", "Ask a question").
			OnSubmit(func(ctx app.Context, e app.Event) { e.PreventDefault() }).
			Body(
				app.Label().For(InputID).Class("sr-only").Text("Message"),
				app.Textarea().ID(InputID).Rows(1).
					Placeholder("Ask anything — Enter to send, Shift+Enter for a new line").
					Text(s.draft).
					OnInput(func(ctx app.Context, e app.Event) {
						s.draft = ctx.JSSrc().Get("value").String()
					}),
				app.Button().Class("send-btn").Type("submit").Aria("label", "Send").
					Disabled(strings.TrimSpace(s.draft) == "").Text("➤"),
			),
		app.P().Class("composer-hint").Text("Answers can be wrong. Your documents never leave this browser."),
	)
}

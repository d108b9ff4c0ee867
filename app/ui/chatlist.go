package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
	"tinyrag/app/ui/chatview"
	"tinyrag/app/ui/i18n"
	"tinyrag/app/ui/uikit"
)

// ChatListView is the searchable list of chats, with rename and delete.
type ChatListView struct {
	app.Compo
	Ctrl *Controller
	Lang string

	list     control.ChatList
	query    string
	renaming string // id of the chat being renamed
	renameTo string
	err      string // why the last rename was refused
}

// OnMount observes the chat list.
func (c *ChatListView) OnMount(ctx app.Context) { ctx.ObserveState(control.StateChats, &c.list) }

// Render implements app.Composer.
func (c *ChatListView) Render() app.UI {
	l := c.Lang
	items := c.list.Items
	if c.query != "" {
		// Search looks into the messages, which only the controller has.
		items = c.Ctrl.Chat.Chats(c.query)
	}
	var rows []app.UI
	for _, it := range items {
		rows = append(rows, c.renderItem(it))
	}
	empty := i18n.T(l, "no_chats")
	if c.query != "" {
		empty = i18n.T(l, "no_chat_match")
	}
	return app.Div().Class("side-panel").Attr("role", "tabpanel").ID("panel-chats").Aria("labelledby", "tab-chats").Body(
		app.Input().Type("search").Class("side-search").ID("chat-search").
			Placeholder(i18n.T(l, "search_chats")).Aria("label", i18n.T(l, "search_chats")).
			Value(c.query).
			OnInput(func(ctx app.Context, e app.Event) { c.query = ctx.JSSrc().Get("value").String() }),
		app.Div().Class("side-section-title").Text(i18n.T(l, "recent")),
		app.If(c.err != "", func() app.UI { return app.P().Class("form-error").Attr("role", "alert").Text(c.err) }),
		app.If(len(items) == 0, func() app.UI { return app.P().Class("empty-hint").Text(empty) }),
		app.Ul().Class("chat-list").Aria("label", i18n.T(l, "chats")).Body(rows...),
	)
}

func (c *ChatListView) renderItem(it control.ChatItem) app.UI {
	l := c.Lang
	id := it.ID
	current := c.list.Current == id
	if c.renaming == id {
		return app.Li().Class("chat-row").Body(
			app.Div().Class("rename-form").Body(
				app.Input().Class("rename-input").ID("rename-input").Value(c.renameTo).
					Aria("label", i18n.T(l, "rename")).AutoFocus(true).
					OnInput(func(ctx app.Context, e app.Event) { c.renameTo = ctx.JSSrc().Get("value").String() }).
					OnKeyDown(func(ctx app.Context, e app.Event) {
						switch e.Get("key").String() {
						case "Escape":
							c.renaming = ""
						case "Enter":
							c.renameTo = ctx.JSSrc().Get("value").String()
							c.rename(id)
						}
					}, app.EventScope(id)),
				app.Button().Class("icon-btn").Type("button").Aria("label", i18n.T(l, "save")).Body(uikit.Icon("check")).
					OnClick(func(ctx app.Context, e app.Event) { c.rename(id) }, app.EventScope(id)),
			),
		)
	}
	return app.Li().Class("chat-row").Body(
		app.Button().Class("chat-item").Type("button").Aria("current", current).Title(it.Title).
			Text(it.Title).
			OnClick(func(ctx app.Context, e app.Event) {
				c.Ctrl.Chat.OpenChat(id)
				uikit.SetView(ctx, func(v *uikit.View) { v.Page, v.NavOpen = uikit.PageChat, false })
				ctx.Defer(func(app.Context) { chatview.StickToBottom(true) })
			}, app.EventScope(id)),
		app.Button().Class("row-btn").Type("button").Aria("label", i18n.T(l, "rename")+": "+it.Title).Title(i18n.T(l, "rename")).Body(uikit.Icon("edit")).
			OnClick(func(ctx app.Context, e app.Event) { c.renaming, c.renameTo, c.err = id, it.Title, "" }, app.EventScope(id, it.Title)),
		app.Button().Class("row-btn danger").Type("button").Aria("label", i18n.T(l, "delete")+": "+it.Title).Title(i18n.T(l, "delete")).Body(uikit.Icon("trash")).
			OnClick(func(ctx app.Context, e app.Event) { c.Ctrl.Chat.DeleteChat(id) }, app.EventScope(id)),
	)
}

// rename gives chat id the title being typed; the store is written in
// the background.
func (c *ChatListView) rename(id string) {
	if err := c.Ctrl.Chat.RenameChat(id, c.renameTo); err != nil {
		c.err = err.Error()
		return
	}
	c.renaming, c.err = "", ""
}

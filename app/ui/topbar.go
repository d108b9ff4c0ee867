package ui

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/control"
	"tinyrag/app/ui/chatview"
	"tinyrag/app/ui/i18n"
	"tinyrag/app/ui/uikit"
)

// Topbar is the conversation's header: the menu button, the chat's title
// and the model.
type Topbar struct {
	app.Compo
	Ctrl  *Controller
	Lang  string
	Title bool // show the open chat's title (else only the menu and model)

	thread control.Thread
	copied bool
}

// OnMount observes the open chat, for its title.
func (t *Topbar) OnMount(ctx app.Context) {
	if t.Title {
		ctx.ObserveState(control.StateThread, &t.thread)
	}
}

// Render implements app.Composer.
func (t *Topbar) Render() app.UI {
	title := i18n.T(t.Lang, "new_chat")
	if t.thread.Title != "" {
		title = t.thread.Title
	}
	label := i18n.T(t.Lang, "copy_md")
	if t.copied {
		label = i18n.T(t.Lang, "copied_md")
	}
	return app.Header().Class("topbar").Body(
		&uikit.MenuButton{Lang: t.Lang},
		app.H1().Text(title),
		app.If(t.Ctrl != nil && len(t.thread.Messages) > 0 && !t.thread.Busy, func() app.UI {
			// The conversation as Markdown, with its sources, related
			// pages and ratings: the full app's export of a chat.
			return app.Button().Class("icon-btn copy-md").ID("copy-md").Type("button").Aria("label", label).Title(label).
				Body(uikit.Icon("clipboard"), app.Span().Class("copy-md-label").Text(label)).
				OnClick(func(ctx app.Context, e app.Event) {
					uikit.CopyText(chatMarkdown(t.Ctrl, t.Lang))
					t.copied = true
					ctx.After(1500*time.Millisecond, func(app.Context) { t.copied = false })
				})
		}),
		&ModelPill{Lang: t.Lang},
	)
}

// chatMarkdown is the open conversation as Markdown, in the interface's
// language, with links to the cited passages and related pages.
func chatMarkdown(ctrl *Controller, lang string) string {
	ch := ctrl.Chat.Open()
	if ch == nil {
		return ""
	}
	reasons := map[string]string{}
	for _, r := range chats.Reasons {
		reasons[r] = i18n.T(lang, "reason_"+r)
	}
	return ch.Markdown(chats.MarkdownOptions{
		You: i18n.T(lang, "you"), Assistant: i18n.T(lang, "assistant"), Sources: i18n.T(lang, "sources"),
		Related: i18n.T(lang, "related"), Feedback: i18n.T(lang, "feedback"), NoMatch: i18n.T(lang, "no_match"),
		Reasons: reasons,
		Answer:  chatview.AnswerText,
		Link:    ctrl.Site.PassageLink,
	})
}

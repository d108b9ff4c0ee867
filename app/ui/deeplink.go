package ui

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
	"tinyrag/app/embed"
	"tinyrag/app/ui/chatview"
	"tinyrag/app/ui/uikit"
)

// linkQuestion is the question a link carries in ?q= ("" for none, or one
// over the protocol's bound): a site links to its assistant with a
// question already in it.
func linkQuestion(q url.Values) string {
	s := strings.TrimSpace(q.Get("q"))
	if utf8.RuneCountInString(s) > embed.MaxQuestionRunes {
		return ""
	}
	return s
}

// askFromLink puts in a question that came with the page's address, by
// the host-submit rule: a link from anywhere must not spend the visitor's
// model or ask in their name, so the question waits in the composer for
// them to send — unless the site's owner turned host submit on
// (tinyrag.json "embed": {"host_submit": true}).
//
// Whether host submit is on is known once the site's config was read,
// which may come after the app is ready: the decision waits off the UI
// goroutine.
func askFromLink(ctx app.Context, ctrl *Controller, q string) {
	ctx.Async(func() {
		submit := uikit.SiteOf(ctrl).HostSubmitOnceKnown()
		ctx.Dispatch(func(ctx app.Context) {
			if submit && ctrl.Chat.Ask(q) != control.AskRefused {
				ctx.Defer(func(app.Context) { chatview.StickToBottom(true) })
				return
			}
			chatview.SetDraft(ctx, q)
		})
	})
}

package chatview

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/control"
	"tinyrag/app/ui/i18n"
	"tinyrag/app/ui/uikit"
)

// RatingView is an answer's thumbs up and down. Up is kept at once; down
// opens a short form — what was wrong (chats.Reasons) and an optional
// note — that is kept when sent. A rating stays with the chat, and an
// embedding page hears it (the form says which page).
type RatingView struct {
	app.Compo
	Ctrl     *control.Controller
	Lang     string
	ChatID   string
	Index    int
	Feedback *chats.Feedback
	// Note says who hears the rating.
	Note string

	open   bool
	reason string
	note   string
	err    string
	sent   bool
}

// rate keeps f for the answer and closes the form, or shows why not.
func (r *RatingView) rate(f chats.Feedback) {
	if err := r.Ctrl.Chat.SetFeedback(r.ChatID, r.Index, f); err != nil {
		r.err = err.Error()
		return
	}
	r.open, r.sent, r.err = false, true, ""
}

// Render implements app.Composer.
func (r *RatingView) Render() app.UI {
	l := r.Lang
	up := r.Feedback != nil && r.Feedback.Rating == chats.RatingUp
	down := r.Feedback != nil && r.Feedback.Rating == chats.RatingDown
	formID := fmt.Sprintf("fb-form-%d", r.Index)
	parts := []app.UI{
		app.Button().Class("icon-btn rate-up").Type("button").Aria("pressed", up).
			Aria("label", i18n.T(l, "rate_up")).Title(i18n.T(l, "rate_up")).Body(uikit.Icon("thumbs-up")).
			OnClick(func(ctx app.Context, e app.Event) { r.rate(chats.Feedback{Rating: chats.RatingUp}) }, app.EventScope(r.ChatID, r.Index)),
		app.Button().Class("icon-btn rate-down").Type("button").Aria("pressed", down).Aria("expanded", r.open).Aria("controls", formID).
			Aria("label", i18n.T(l, "rate_down")).Title(i18n.T(l, "rate_down")).Body(uikit.Icon("thumbs-down")).
			OnClick(func(ctx app.Context, e app.Event) {
				r.open, r.err = !r.open, ""
				if r.open {
					ctx.Defer(func(app.Context) { focusFirst("#" + formID + " .fb-reason") })
				}
			}, app.EventScope(r.ChatID, r.Index)),
	}
	if r.sent && !r.open && r.Feedback != nil {
		parts = append(parts, app.Span().Class("fb-thanks").Attr("role", "status").Text(i18n.T(l, "fb_thanks")))
	}
	if r.open {
		parts = append(parts, r.renderForm(formID))
	}
	return app.Div().Class("rating").Body(parts...)
}

// renderForm is what a thumbs down asks: a reason and a note.
func (r *RatingView) renderForm(id string) app.UI {
	l := r.Lang
	reasons := make([]app.UI, len(chats.Reasons))
	for i, reason := range chats.Reasons {
		reasons[i] = app.Button().Class("fb-reason").Type("button").Attr("data-reason", reason).
			Aria("pressed", r.reason == reason).Text(i18n.T(l, "reason_"+reason)).
			OnClick(func(ctx app.Context, e app.Event) {
				if r.reason == reason {
					r.reason = ""
				} else {
					r.reason = reason
				}
			}, app.EventScope(r.ChatID, r.Index, reason))
	}
	return app.Div().Class("fb-form").ID(id).Attr("role", "group").Aria("labelledby", id+"-what").
		OnKeyDown(func(ctx app.Context, e app.Event) {
			if e.Get("key").String() == "Escape" {
				r.open = false
			}
		}, app.EventScope(r.ChatID, r.Index)).Body(
		app.P().Class("fb-what").ID(id+"-what").Text(i18n.T(l, "fb_what")),
		app.Div().Class("fb-reasons").Body(reasons...),
		app.Textarea().Class("fb-note field-input").Rows(2).MaxLength(chats.MaxNoteRunes).
			Aria("label", i18n.T(l, "fb_note")).Placeholder(i18n.T(l, "fb_note")).Text(r.note).
			OnInput(func(ctx app.Context, e app.Event) { r.note = ctx.JSSrc().Get("value").String() }, app.EventScope(r.ChatID, r.Index)),
		app.If(r.err != "", func() app.UI { return app.P().Class("form-error").Attr("role", "alert").Text(r.err) }),
		app.Div().Class("fb-actions").Body(
			app.Button().Class("btn small primary fb-send").Type("button").Text(i18n.T(l, "fb_send")).
				OnClick(func(ctx app.Context, e app.Event) {
					r.rate(chats.Feedback{Rating: chats.RatingDown, Reason: r.reason, Note: r.note})
				}, app.EventScope(r.ChatID, r.Index)),
			app.Button().Class("btn small fb-cancel").Type("button").Text(i18n.T(l, "cancel")).
				OnClick(func(ctx app.Context, e app.Event) { r.open = false }, app.EventScope(r.ChatID, r.Index)),
			app.Span().Class("fb-privacy").Text(r.Note),
		),
	)
}

// focusFirst moves the focus to the first element matching selector.
func focusFirst(selector string) {
	if el := app.Window().Get("document").Call("querySelector", selector); el.Truthy() {
		el.Call("focus")
	}
}

package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func (s *Shell) renderComposer() app.UI {
	l := s.lang()
	var btn app.UI
	if s.busy {
		btn = app.Button().Class("send-btn stop").ID("stop-btn").Type("button").Aria("label", T(l, "stop")).Title(T(l, "stop")).
			Text("■").OnClick(func(ctx app.Context, e app.Event) { s.stopAnswer() })
	} else {
		btn = app.Button().Class("send-btn").ID("send-btn").Type("button").Aria("label", T(l, "send")).Title(T(l, "send")).
			Disabled(strings.TrimSpace(s.draft) == "" || s.sendWhenReady).Text("➤").
			OnClick(func(ctx app.Context, e app.Event) { s.send(ctx) })
	}
	return app.Div().Class("composer-wrap").Body(
		// No <form>: go-app runs handlers after the browser's default
		// action, so a submit could not be prevented in time.
		app.Div().Class("composer").Attr("role", "group").Aria("label", T(l, "message")).
			Body(
				app.Label().For(InputID).Class("sr-only").Text(T(l, "message")),
				app.Span().Class("sr-only").ID("keys-hint").Text(T(l, "keys_hint")),
				app.Textarea().ID(InputID).Rows(1).
					Placeholder(T(l, "placeholder")).Title(T(l, "keys_hint")).Aria("describedby", "keys-hint").
					Text(s.draft).
					OnInput(func(ctx app.Context, e app.Event) {
						s.draft = ctx.JSSrc().Get("value").String()
						autoGrow(ctx.JSSrc())
					}).
					OnKeyDown(func(ctx app.Context, e app.Event) {
						// Enter sends, Shift+Enter is a new line; never
						// send in the middle of an IME composition.
						if e.Get("key").String() != "Enter" || e.Get("shiftKey").Bool() || e.Get("isComposing").Bool() {
							return
						}
						e.PreventDefault()
						s.draft = ctx.JSSrc().Get("value").String()
						s.send(ctx)
					}),
				btn,
			),
		s.composerHint(),
	)
}

// autoGrow fits the textarea's height to its text, up to the CSS maximum.
func autoGrow(el app.Value) {
	el.Get("style").Set("height", "auto")
	el.Get("style").Set("height", sprintf("%dpx", el.Get("scrollHeight").Int()))
}

package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// takeEarlyInput adopts what was typed into the prerendered composer
// before the wasm started (assets/web/early-input.js kept it): the draft,
// and whether the user already sent it. A sent question waits in
// s.sendWhenReady until the app is ready and the model check is done.
func (s *Shell) takeEarlyInput() {
	early := app.Window().Get("tinyragEarlyInput")
	if !early.Truthy() {
		return
	}
	got := early.Call("take")
	if text := got.Get("text"); text.Truthy() && s.draft == "" {
		s.draft = text.String()
	}
	if got.Get("queued").Bool() && s.draft != "" {
		s.sendWhenReady = true
	}
	if got.Get("focused").Bool() {
		// The app's composer replaced the one being typed in.
		s.ctx.Defer(func(app.Context) { focusByID(InputID) })
	}
}

// sendQueued sends a question held while the app was starting.
func (s *Shell) sendQueued(ctx app.Context) {
	if !s.sendWhenReady || !s.ready {
		return
	}
	s.sendWhenReady = false
	s.send(ctx)
}

// composerHint is the line under the composer: while starting it says so,
// and that a sent question waits.
func (s *Shell) composerHint() app.UI {
	l := s.lang()
	switch {
	case s.sendWhenReady:
		return app.P().Class("composer-hint early-queued").ID("composer-hint").Attr("role", "status").Text(T(l, "starting_queued"))
	case !s.ready:
		return app.P().Class("composer-hint").ID("composer-hint").Text(T(l, "starting"))
	}
	return app.P().Class("composer-hint").ID("composer-hint").Text(T(l, "hint"))
}

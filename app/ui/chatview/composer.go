package chatview

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
	"tinyrag/app/markdown/mdmodule"
	"tinyrag/app/ui/i18n"
	"tinyrag/app/ui/uikit"
)

// InputID is the DOM id of the chat input; tests and keyboard shortcuts
// rely on it.
const InputID = "chat-input"

// stateDraft is the view state other components set for the composer
// (Draft).
const stateDraft = "tinyrag/draft"

// Draft is text another component puts into the composer (a suggestion,
// code to run); N tells two equal drafts apart.
type Draft struct {
	Text string
	N    int
}

// SetDraft replaces the composer's text and gives it the focus.
func SetDraft(ctx app.Context, text string) {
	var d Draft
	ctx.GetState(stateDraft, &d)
	ctx.SetState(stateDraft, Draft{Text: text, N: d.N + 1})
}

// Composer is where a question is typed and sent, or its answer stopped.
// Below it, one line says what leaves the browser when one asks.
type Composer struct {
	app.Compo
	Ctrl *control.Controller
	Lang string
	// Note is said after the privacy line (the embedded view names the
	// page that hears its answers).
	Note string

	draft  string
	status control.Status
	busy   bool
	model  control.ModelState
	pushed Draft
	// queued: this composer's question waits for the app to be ready;
	// its text stays until it is asked.
	queued bool
}

// OnMount observes whether the app is ready, whether an answer streams,
// where the model is, and drafts from other components.
//
// It also adopts what was typed into the prerendered composer before the
// wasm started (assets/web/early-input.js kept it), and sends it if the
// user already had: nothing typed while the app starts is lost.
func (c *Composer) OnMount(ctx app.Context) {
	ctx.ObserveState(control.StateStatus, &c.status).OnChange(func() {
		if c.queued && !c.status.Queued {
			c.queued = false
			c.clear(ctx)
		}
	})
	ctx.ObserveState(control.StateModel, &c.model)
	ctx.ObserveState(control.StateBusy, &c.busy).OnChange(func() {
		if !c.busy {
			ctx.Defer(func(app.Context) { StickToBottom(false); uikit.FocusByID(InputID) })
		}
	})
	ctx.ObserveState(stateDraft, &c.pushed).OnChange(func() {
		c.draft = c.pushed.Text
		ctx.Defer(func(app.Context) { uikit.FocusByID(InputID) })
	})
	if text, queued, focused := takeEarlyInput(); text != "" {
		c.draft = text
		if queued {
			c.send(ctx)
		}
		if focused {
			// The app's composer replaced the one being typed in.
			ctx.Defer(func(app.Context) { uikit.FocusByID(InputID) })
		}
	}
}

// send asks the draft as a question.
func (c *Composer) send(ctx app.Context) {
	if c.Ctrl == nil || c.queued {
		return
	}
	switch c.Ctrl.Chat.Ask(c.draft) {
	case control.AskSent:
		c.clear(ctx)
	case control.AskQueued:
		c.queued = true
	}
}

// clear empties the composer after its question went into the thread.
func (c *Composer) clear(ctx app.Context) {
	c.draft = ""
	if el := app.Window().GetElementByID(InputID); el.Truthy() {
		el.Set("value", "")
		el.Get("style").Set("height", "auto")
	}
	ctx.Defer(func(app.Context) { StickToBottom(true) })
}

// Render implements app.Composer.
func (c *Composer) Render() app.UI {
	l := c.Lang
	var btn app.UI
	if c.busy {
		btn = app.Button().Class("send-btn stop").ID("stop-btn").Type("button").Aria("label", i18n.T(l, "stop")).Title(i18n.T(l, "stop")).
			Body(uikit.Icon("stop")).OnClick(func(ctx app.Context, e app.Event) { c.Ctrl.Chat.Stop() })
	} else {
		btn = app.Button().Class("send-btn").ID("send-btn").Type("button").Aria("label", i18n.T(l, "send")).Title(i18n.T(l, "send")).
			Disabled(strings.TrimSpace(c.draft) == "" || c.queued).Body(uikit.Icon("send")).
			OnClick(func(ctx app.Context, e app.Event) { c.send(ctx) })
	}
	input := app.Textarea().ID(InputID).Rows(1).
		Placeholder(i18n.T(l, "placeholder")).Title(i18n.T(l, "keys_hint")).Aria("describedby", "keys-hint").
		Text(c.draft).
		OnInput(func(ctx app.Context, e app.Event) {
			// A question is on its way: its answer will want the
			// Markdown renderer.
			mdmodule.Page.Load()
			c.draft = ctx.JSSrc().Get("value").String()
			autoGrow(ctx.JSSrc())
		}).
		OnKeyDown(func(ctx app.Context, e app.Event) {
			// Enter sends, Shift+Enter is a new line; never
			// send in the middle of an IME composition.
			if e.Get("key").String() != "Enter" || e.Get("shiftKey").Bool() || e.Get("isComposing").Bool() {
				return
			}
			e.PreventDefault()
			c.draft = ctx.JSSrc().Get("value").String()
			c.send(ctx)
		})
	if c.queued {
		// A false readonly attribute would still make it read-only.
		input = input.ReadOnly(true)
	}
	return app.Div().Class("composer-wrap").ID("composer-wrap").Body(
		// No <form>: go-app runs handlers after the browser's default
		// action, so a submit could not be prevented in time.
		app.Div().Class("composer").Attr("role", "group").Aria("label", i18n.T(l, "message")).
			Body(
				app.Label().For(InputID).Class("sr-only").Text(i18n.T(l, "message")),
				app.Span().Class("sr-only").ID("keys-hint").Text(i18n.T(l, "keys_hint")),
				input,
				btn,
			),
		c.renderHint(),
	)
}

// renderHint is the line under the composer: while the app starts it
// says so, and that a sent question waits; then what leaves the browser.
func (c *Composer) renderHint() app.UI {
	l := c.Lang
	switch {
	case c.queued:
		return app.P().Class("composer-hint early-queued").ID("privacy-hint").Attr("role", "status").Text(i18n.T(l, "starting_queued"))
	case !c.status.Ready:
		return app.P().Class("composer-hint").ID("privacy-hint").Text(i18n.T(l, "starting") + " " + PrivacyHint(l, c.model))
	}
	hint := PrivacyHint(l, c.model)
	if c.Note != "" {
		hint += " " + c.Note
	}
	return app.P().Class("composer-hint").ID("privacy-hint").Text(hint)
}

// PrivacyHint says what leaves the browser when one asks, and where it
// goes: the model named by m.
func PrivacyHint(lang string, m control.ModelState) string {
	switch m.Status {
	case control.LLMDown:
		return i18n.T(lang, "hint_offline")
	case control.LLMOK:
	default:
		// Not checked yet: where the model is, is not known.
		return i18n.T(lang, "hint_any")
	}
	where := i18n.T(lang, "where_local")
	switch {
	case m.Host != "" && m.Proxy:
		where = fmt.Sprintf(i18n.T(lang, "where_proxy_host"), m.Host)
	case m.Host != "":
		where = fmt.Sprintf(i18n.T(lang, "where_host"), m.Host)
	case m.Proxy:
		where = i18n.T(lang, "where_proxy")
	}
	return fmt.Sprintf(i18n.T(lang, "hint"), where)
}

// autoGrow fits the textarea's height to its text, up to the CSS maximum.
func autoGrow(el app.Value) {
	el.Get("style").Set("height", "auto")
	el.Get("style").Set("height", fmt.Sprintf("%dpx", el.Get("scrollHeight").Int()))
}

// Package chatview is the conversation, in components that both of the
// app's views compose — the full app and the embedded one: the thread with
// its notices, welcome and messages, an answer's rating, the composer, and
// the citation dialog. What they show comes from the controller's chat and
// model states (app/control), translated as they render.
package chatview

import (
	"maps"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
	"tinyrag/app/markdown/mdmodule"
	"tinyrag/app/ui/i18n"
	"tinyrag/app/ui/uikit"
)

// StateFormatting is the go-app state holding the Markdown renderer's
// mdmodule.State: the thread draws its answers again when it changes, as
// plain text turns into rendered Markdown once markdown.wasm has loaded.
const StateFormatting = "tinyrag/formatting"

// ThreadView is the conversation: notices, the welcome or the messages.
// It keeps which tool cards the user opened, per message, so they stay
// open while the answer streams (each token replaces the answer's HTML).
type ThreadView struct {
	app.Compo
	Ctrl     *control.Controller
	Lang     string
	Debug    bool
	AllowRun bool
	// Banner shows the no-model banner and the store notices; a compact
	// view leaves them to its host page.
	Banner bool
	// Greeting, when set, stands in for the welcome screen: the compact
	// view greets a visitor in the site owner's words.
	Greeting string
	// Starters, when set, are the welcome screen's questions (an
	// embedding page's choice); nil: the site's (tinyrag.json), or else
	// the app's own suggestions.
	Starters []string
	// LinkTarget is where links to sources open: "_top" in the embedded
	// view (the site's page, in the window around it), "_blank" else.
	LinkTarget string
	// FeedbackNote says who hears a rating (the embedding page, or
	// nobody but this browser).
	FeedbackNote string

	thread     control.Thread
	status     control.Status
	model      control.ModelState
	formatting mdmodule.State

	expanded map[int]map[string]bool // message index → call id → open
	openFor  string                  // the chat expanded belongs to
	toggle   app.Func
}

// OnMount observes the conversation, the notices and the model's state,
// and listens for tool cards being opened or closed.
func (t *ThreadView) OnMount(ctx app.Context) {
	ctx.ObserveState(control.StateThread, &t.thread).OnChange(func() {
		ctx.Defer(func(app.Context) { StickToBottom(false) })
	})
	ctx.ObserveState(control.StateStatus, &t.status)
	ctx.ObserveState(control.StateModel, &t.model)
	ctx.ObserveState(StateFormatting, &t.formatting)
	// A click on a card's summary is seen as it happens: the toggle
	// event that follows is queued, and a token arriving meanwhile
	// replaces the card, so the event would fire on a detached element.
	// "toggle" itself (it does not bubble, hence capturing listeners)
	// covers the other ways a card opens.
	t.toggle = app.FuncOf(func(this app.Value, args []app.Value) any {
		e := args[0]
		d := e.Get("target")
		if !d.Truthy() || d.Get("closest").IsUndefined() {
			return nil
		}
		click := e.Get("type").String() == "click"
		if click {
			s := d.Call("closest", "summary")
			if !s.Truthy() {
				return nil
			}
			d = s.Get("parentElement")
		}
		card, msg := d.Call("closest", ".xml-tool-card"), d.Call("closest", "[data-msg]")
		if !card.Truthy() || !msg.Truthy() || !d.Get("parentElement").Call("isSameNode", card).Bool() {
			return nil
		}
		id := card.Get("dataset").Get("callId")
		i, err := strconv.Atoi(msg.Get("dataset").Get("msg").String())
		if !id.Truthy() || err != nil {
			return nil
		}
		open := d.Get("open").Bool()
		if click {
			open = !open // the click's default action has yet to run
		}
		call := id.String()
		ctx.Dispatch(func(app.Context) { t.setExpanded(i, call, open) })
		return nil
	})
	doc := app.Window().Get("document")
	doc.Call("addEventListener", "toggle", t.toggle, true)
	doc.Call("addEventListener", "click", t.toggle, true)
}

// OnDismount stops listening.
func (t *ThreadView) OnDismount() {
	if t.toggle != nil {
		doc := app.Window().Get("document")
		doc.Call("removeEventListener", "toggle", t.toggle, true)
		doc.Call("removeEventListener", "click", t.toggle, true)
		t.toggle.Release()
		t.toggle = nil
	}
}

// setExpanded records that the card of call id in message i was opened
// or closed. The message gets a new map, so it sees the change.
func (t *ThreadView) setExpanded(i int, id string, open bool) {
	t.forChat()
	if t.expanded[i][id] == open {
		return
	}
	m := maps.Clone(t.expanded[i])
	if m == nil {
		m = map[string]bool{}
	}
	m[id] = open
	t.expanded[i] = m
}

// forChat forgets the open cards of another chat.
func (t *ThreadView) forChat() {
	if t.expanded == nil || t.openFor != t.thread.ChatID {
		t.expanded, t.openFor = map[int]map[string]bool{}, t.thread.ChatID
	}
}

// Render implements app.Composer.
func (t *ThreadView) Render() app.UI {
	l := t.Lang
	var body []app.UI
	if t.Banner {
		if t.status.Ready && t.model.Status == control.LLMDown {
			body = append(body, &ModelBanner{Ctrl: t.Ctrl, Lang: l, Err: modelErrText(l, t.model), Net: t.model.Net, Static: !uikit.SiteOf(t.Ctrl).WebImports()})
		}
		if t.status.LoadErr != "" {
			body = append(body, app.Div().Class("banner").Attr("role", "alert").Text(i18n.T(l, "storage_temporary")+" ("+t.status.LoadErr+")"))
		}
		if t.status.Notice != "" {
			body = append(body, app.Div().Class("banner notice").Attr("role", "alert").Body(
				app.Span().Text(t.status.Notice),
				app.Button().Class("icon-btn").Type("button").Aria("label", i18n.T(l, "close")).Body(uikit.Icon("close")).
					OnClick(func(ctx app.Context, e app.Event) { t.Ctrl.DismissNotice() }),
			))
		}
	}
	switch {
	case len(t.thread.Messages) == 0 && t.Greeting != "":
		body = append(body, app.Div().Class("thread").ID("thread").Body(
			app.Article().Class("msg assistant greeting").Aria("label", i18n.T(l, "assistant")).Body(
				app.Div().Class("avatar").Body(uikit.Icon("spark")),
				app.Div().Class("bubble").Body(
					app.P().ID("greeting").Text(t.Greeting),
					t.renderStarters(t.starters()),
				),
			)))
	case len(t.thread.Messages) == 0:
		body = append(body, &Welcome{Lang: l, Starters: t.starters(), Ask: t.ask})
	default:
		t.forChat()
		msgs := make([]app.UI, 0, len(t.thread.Messages))
		last := len(t.thread.Messages) - 1
		for i, m := range t.thread.Messages {
			msgs = append(msgs, &MessageView{
				Ctrl: t.Ctrl, Lang: l, Debug: t.Debug, AllowRun: t.AllowRun,
				ChatID: t.thread.ChatID, Index: i, Msg: m,
				CanRegenerate: i == last && !t.thread.Busy, Expanded: t.expanded[i],
				LinkTarget: t.LinkTarget, FeedbackNote: t.FeedbackNote, Formatting: t.formatting,
			})
		}
		body = append(body, app.Div().Class("thread").Attr("role", "log").Aria("live", "polite").
			Aria("busy", t.thread.Busy).Aria("label", i18n.T(l, "conversation")).ID("thread").
			OnClick(t.onClick).Body(msgs...))
	}
	return app.Div().Class("messages").ID("messages").Body(body...)
}

// starters are the welcome screen's questions: the page's, else the
// site's.
func (t *ThreadView) starters() []string {
	if t.Starters != nil {
		return t.Starters
	}
	return uikit.SiteOf(t.Ctrl).Starters()
}

// ask asks a starter question: the visitor chose it, so it is sent.
func (t *ThreadView) ask(ctx app.Context, q string) {
	if t.Ctrl.Chat.Ask(q) != control.AskRefused {
		ctx.Defer(func(app.Context) { StickToBottom(true) })
	}
}

// renderStarters lists starter questions as buttons that ask them.
func (t *ThreadView) renderStarters(qs []string) app.UI {
	if len(qs) == 0 {
		return nil
	}
	items := make([]app.UI, len(qs))
	for i, q := range qs {
		items[i] = app.Li().Body(app.Button().Class("starter").Type("button").Text(q).
			OnClick(func(ctx app.Context, e app.Event) { t.ask(ctx, q) }, app.EventScope(q)))
	}
	return app.Ul().Class("starters").ID("starters").Aria("label", i18n.T(t.Lang, "starters")).Body(items...)
}

// onClick serves the buttons inside rendered Markdown (copy code, run
// code), which are plain HTML without handlers of their own.
func (t *ThreadView) onClick(ctx app.Context, e app.Event) {
	target := e.Get("target")
	if !target.Truthy() || target.Get("closest").IsUndefined() {
		return
	}
	if btn := target.Call("closest", ".copy-code"); btn.Truthy() {
		code := btn.Get("parentElement").Call("querySelector", "code")
		if code.Truthy() {
			uikit.CopyText(code.Get("textContent").String())
			btn.Set("textContent", i18n.T(t.Lang, "copied"))
		}
		return
	}
	if btn := target.Call("closest", ".run-code"); btn.Truthy() && !t.thread.Busy {
		code := btn.Get("parentElement").Call("querySelector", "code")
		if code.Truthy() {
			SetDraft(ctx, "Run this Go code with nanogo:\n\n```go\n"+code.Get("textContent").String()+"```")
		}
	}
}

// Welcome is the empty conversation: what the app does, and questions to
// start with — the site's starters when it has some, else the app's own
// suggestions.
type Welcome struct {
	app.Compo
	Lang     string
	Starters []string
	// Ask asks a starter question.
	Ask func(ctx app.Context, q string)
}

// Render implements app.Composer.
func (w *Welcome) Render() app.UI {
	l := w.Lang
	if len(w.Starters) > 0 {
		items := make([]app.UI, len(w.Starters))
		for i, q := range w.Starters {
			items[i] = app.Li().Body(app.Button().Class("suggestion starter").Type("button").Body(
				uikit.Icon("chat"), app.Span().Text(q),
			).OnClick(func(ctx app.Context, e app.Event) { w.Ask(ctx, q) }, app.EventScope(q)))
		}
		return app.Div().Class("welcome").Body(
			app.Img().Src("/web/icons/icon.svg").Alt(""),
			app.H2().Text(i18n.T(l, "welcome_title")),
			app.P().Text(i18n.T(l, "welcome_text")),
			app.Ul().Class("suggestions starters").ID("starters").Aria("label", i18n.T(l, "starters")).Body(items...),
		)
	}
	suggestion := func(key string) app.UI {
		parts := strings.SplitN(i18n.T(l, key), "|", 2)
		text := parts[0] + " " + parts[1]
		return app.Button().Class("suggestion").Type("button").Body(
			app.Strong().Text(parts[0]),
			app.Span().Text(parts[1]),
		).OnClick(func(ctx app.Context, e app.Event) { SetDraft(ctx, text) }, app.EventScope(l, key))
	}
	return app.Div().Class("welcome").Body(
		app.Img().Src("/web/icons/icon.svg").Alt(""),
		app.H2().Text(i18n.T(l, "welcome_title")),
		app.P().Text(i18n.T(l, "welcome_text")),
		app.Div().Class("suggestions").Body(
			suggestion("s_summarize"), suggestion("s_calc"), suggestion("s_wiki"), suggestion("s_compare"),
		),
	)
}

// ModelBanner says no model is connected, how to connect one, and offers
// to check again; when the network or this app's server is what is gone,
// it says that instead of set-up steps.
type ModelBanner struct {
	app.Compo
	Ctrl *control.Controller
	Lang string
	Err  string
	Net  control.NetState
	// Static: there is no tinyRAG server (a static site), so the server's
	// set-up steps do not apply.
	Static bool
}

// Render implements app.Composer.
func (b *ModelBanner) Render() app.UI {
	l := b.Lang
	if b.Net == control.NetOffline || b.Net == control.NetServerDown {
		title, text := "offline_title", "offline_text"
		if b.Net == control.NetServerDown {
			title, text = "server_down_title", "server_down_text"
		}
		return app.Section().Class("banner offline").ID("llm-banner").Attr("role", "status").
			Attr("data-net", string(b.Net)).Aria("labelledby", "llm-banner-title").Body(
			app.Strong().ID("llm-banner-title").Text(i18n.T(l, title)),
			app.P().Text(i18n.T(l, text)),
		)
	}
	item := func(key string) app.UI { return app.Li().Body(inlineCode(i18n.T(l, key))...) }
	return app.Section().Class("banner").ID("llm-banner").Attr("role", "status").Aria("labelledby", "llm-banner-title").Body(
		app.Strong().ID("llm-banner-title").Text(i18n.T(l, "banner_title")),
		app.P().Text(i18n.T(l, "banner_text")),
		app.If(!b.Static, func() app.UI {
			return app.Ul().Body(item("banner_ollama"), item("banner_lmstudio"), item("banner_key"))
		}).Else(func() app.UI {
			return app.P().Text(i18n.T(l, "banner_static"))
		}),
		app.Div().Class("banner-actions").Body(
			app.Span().Class("banner-err").ID("llm-explain").Text(b.Err),
			app.Button().Class("btn").Type("button").Text(i18n.T(l, "settings")).
				OnClick(func(ctx app.Context, e app.Event) {
					uikit.SetView(ctx, func(v *uikit.View) { v.Page = uikit.PageSettings })
				}),
			app.Button().Class("btn").Type("button").Text(i18n.T(l, "retry")).
				OnClick(func(ctx app.Context, e app.Event) { b.Ctrl.Model.CheckModel() }),
		),
	)
}

// inlineCode renders `code` spans of a plain interface string.
func inlineCode(s string) []app.UI {
	var out []app.UI
	for i, part := range strings.Split(s, "`") {
		if i%2 == 1 {
			out = append(out, app.Code().Text(part))
		} else if part != "" {
			out = append(out, app.Text(part))
		}
	}
	return out
}

// modelErrText says why the model cannot be reached.
func modelErrText(lang string, m control.ModelState) string {
	if m.ErrKey != "" {
		return i18n.T(lang, m.ErrKey)
	}
	return m.Err
}

// StickToBottom scrolls the message list to the end when the reader was
// already near it, so a streaming answer stays in view without yanking a
// reader who scrolled up.
func StickToBottom(force bool) {
	el := app.Window().GetElementByID("messages")
	if !el.Truthy() {
		return
	}
	// An empty chat's welcome is read from the top, where the notices say
	// what is missing (no model, say): there is no answer to keep in view,
	// and on a short window its end would hide their beginning.
	if el.Call("querySelector", ".welcome").Truthy() {
		return
	}
	gap := el.Get("scrollHeight").Int() - el.Get("scrollTop").Int() - el.Get("clientHeight").Int()
	if force || gap < 160 {
		el.Set("scrollTop", el.Get("scrollHeight").Int())
	}
}

package ui

import (
	"encoding/json"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
	"tinyrag/app/embed"
	"tinyrag/app/siteconfig"
	"tinyrag/app/ui/chatview"
	"tinyrag/app/ui/i18n"
	"tinyrag/app/ui/uikit"
)

// EmbedOptions are what the embedding page chose for its panel (the data
// attributes of assets/embed.js, passed on in the frame's URL).
type EmbedOptions struct {
	Greeting string // the first words the visitor sees; "" a default
	Theme    string // "light" or "dark"; "" follows the settings
	Lang     string // "en" or "de"; "" follows the settings
	// Bundles limits the site's bundles searched to these (their URLs as
	// tinyrag.json lists them, or their file names); empty: all.
	Bundles []string
	// Starters are the page's starter questions (embed.js data-starters),
	// in place of the site's; nil: the site's.
	Starters []string
	// Question came with the address (?q=): it is put in once the app is
	// ready, by the host-submit rule.
	Question string
}

// maxGreetingRunes bounds the greeting a URL can set.
const maxGreetingRunes = 500

// ParseEmbedOptions reads the options from the frame URL's query. Values
// it does not know are ignored: a page cannot set anything else this way.
func ParseEmbedOptions(q url.Values) EmbedOptions {
	o := EmbedOptions{Greeting: strings.TrimSpace(q.Get("greeting"))}
	if utf8.RuneCountInString(o.Greeting) > maxGreetingRunes {
		o.Greeting = string([]rune(o.Greeting)[:maxGreetingRunes]) + "…"
	}
	switch t := q.Get("theme"); t {
	case "light", "dark":
		o.Theme = t
	}
	switch l := q.Get("lang"); l {
	case "en", "de":
		o.Lang = l
	}
	for _, b := range strings.Split(q.Get("bundles"), ",") {
		if b = strings.TrimSpace(b); b != "" {
			o.Bundles = append(o.Bundles, b)
		}
	}
	o.Starters = parseStarters(q.Get("starters"))
	o.Question = linkQuestion(q)
	return o
}

// parseStarters reads the page's starter questions: a JSON array of
// strings (what embed.js sends), kept within tinyrag.json's bounds. A
// value that is no such array is ignored: the site's starters show.
func parseStarters(v string) []string {
	if v == "" {
		return nil
	}
	var raw []string
	if err := json.Unmarshal([]byte(v), &raw); err != nil {
		return nil
	}
	kept, _ := siteconfig.CheckStartersLoose(raw)
	return kept
}

// EmbedView is the compact view another page embeds (embed.html): one
// conversation, its composer, citations and tool cards — the same
// components as the full app around a controller of its own, without the
// sidebar, the settings or the chat list. The panel's title bar and close
// button belong to the embedding page's launcher (assets/embed.js).
type EmbedView struct {
	app.Compo
	Ctrl *Controller
	// Opts are the page's choices; the browser entry point reads them
	// from the frame's URL.
	Opts EmbedOptions
	// Host passes answers on to the embedding page; the controller has
	// it as its Observer.
	Host *EmbedHost
	// Listen starts the bridge to the embedding page for chat (the
	// browser entry point gives app/embed's Listen); nil or an error (the
	// view opened as a page of its own): no host to talk to.
	Listen func(chat embed.Chat) (*embed.Bridge, error)
	// HostOrigin is the embedding page's origin, which hears the answers
	// (the visitor is told so under the composer).
	HostOrigin string
	// Refused says why the view must not run here (the page around it is
	// not allowed to embed it); the view then shows that, opens no
	// storage and talks to nobody.
	Refused string

	settings control.Settings
	status   control.Status
	model    control.ModelState
	thread   control.Thread

	listening bool
	bridge    *embed.Bridge
}

// OnMount starts the controller and observes what the frame shows.
func (e *EmbedView) OnMount(ctx app.Context) {
	if app.IsServer || e.Ctrl == nil || e.Refused != "" {
		e.adjust(&e.settings)
		if !app.IsServer {
			applyTheme(e.settings)
		}
		return
	}
	startRoot(ctx, e.Ctrl, &e.settings, e.adjust)
	ctx.ObserveState(control.StateStatus, &e.status).OnChange(func() {
		signalReady(e.status)
		if e.status.Ready && e.Opts.Question != "" {
			q := e.Opts.Question
			e.Opts.Question = ""
			askFromLink(ctx, e.Ctrl, q)
		}
		if e.status.Ready {
			// Listening says "ready" to the host, which then sends what it
			// queued: only once the stores are open can they be served.
			e.listen(ctx)
		}
	})
	ctx.ObserveState(control.StateModel, &e.model)
	ctx.ObserveState(control.StateThread, &e.thread).OnChange(func() {
		if e.bridge != nil {
			// The host hears how tall the conversation wants to be.
			b := e.bridge
			ctx.Defer(func(app.Context) { b.Resize(contentHeight()) })
		}
	})
	guardDialogEscape()
}

// listen starts the bridge to the embedding page, once.
func (e *EmbedView) listen(ctx app.Context) {
	if e.listening || e.Listen == nil || e.Host == nil {
		return
	}
	e.listening = true
	b, err := e.Listen(hostChat{ctrl: e.Ctrl, ctx: ctx})
	if err != nil {
		app.Log("tinyRAG embed: " + err.Error())
		return
	}
	e.Host.attach(b)
	e.bridge = b
}

// contentHeight is the height the conversation and the composer want, in
// CSS pixels.
func contentHeight() int {
	doc := app.Window().Get("document")
	h := 0
	for _, id := range []string{"thread", "composer-wrap"} {
		if el := doc.Call("getElementById", id); el.Truthy() {
			h += el.Get("scrollHeight").Int()
		}
	}
	return h
}

// dialogEscape is installed once: Escape in an open citation dialog (or a
// feedback form) closes the dialog (the form), not the embedding page's
// panel. go-app's handlers run after
// the event, too late to mark it; a native listener marks it in time for
// the bridge, which leaves marked keys alone.
var dialogEscape app.Func

func guardDialogEscape() {
	if dialogEscape != nil {
		return
	}
	dialogEscape = app.FuncOf(func(this app.Value, args []app.Value) any {
		ev := args[0]
		if ev.Get("key").String() != "Escape" {
			return nil
		}
		inForm := false
		if t := ev.Get("target"); t.Truthy() && !t.Get("closest").IsUndefined() {
			inForm = t.Call("closest", ".fb-form").Truthy()
		}
		if inForm || app.Window().GetElementByID("citation-dialog").Truthy() {
			ev.Call("preventDefault")
		}
		return nil
	})
	app.Window().Get("document").Call("addEventListener", "keydown", dialogEscape, true)
}

// adjust lets the page's theme and language win over the settings
// (which, in an embed, nobody edits).
func (e *EmbedView) adjust(s *control.Settings) {
	if e.Opts.Theme != "" {
		s.Theme = e.Opts.Theme
	}
	if e.Opts.Lang != "" {
		s.Lang = e.Opts.Lang
	}
}

// hostNote tells the visitor that the embedding page hears the answers.
func (e *EmbedView) hostNote(lang string) string {
	if e.HostOrigin == "" {
		return ""
	}
	return sprintf(i18n.T(lang, "embed_note"), e.HostOrigin)
}

// feedbackNote tells the visitor who hears a rating.
func (e *EmbedView) feedbackNote(lang string) string {
	if e.HostOrigin == "" {
		return i18n.T(lang, "fb_local")
	}
	return sprintf(i18n.T(lang, "fb_host"), e.HostOrigin)
}

// Render implements app.Composer.
func (e *EmbedView) Render() app.UI {
	shown := e.settings
	e.adjust(&shown)
	l := shown.Lang
	greeting := e.Opts.Greeting
	if greeting == "" {
		greeting = i18n.T(l, "embed_greeting")
	}
	llm := e.model.Status
	if llm == "" {
		llm = control.LLMUnknown
	}
	if e.Refused != "" {
		return app.Div().Class("shell embed").ID("shell").Attr("data-refused", true).Body(
			app.Main().Class("main").Body(
				app.Section().Class("banner").ID("embed-refused").Attr("role", "alert").Body(
					app.Strong().Text(i18n.T(l, "embed_refused")),
					app.P().Text(sentence(e.Refused)),
				),
			),
		)
	}
	return app.Div().Class("shell embed").ID("shell").Attr("data-ready", sprintf("%t", e.status.Ready)).
		Attr("data-llm", llm).Attr("data-net", string(e.model.Net)).Body(
		app.Main().Class("main").Aria("label", i18n.T(l, "conversation")).Body(
			app.If(len(e.thread.Messages) > 0 && !e.thread.Busy, func() app.UI {
				return app.Div().Class("embed-bar").Body(
					app.Button().Class("btn small").ID("embed-new").Type("button").Body(uikit.Icon("plus"), app.Span().Text(i18n.T(l, "new_conversation"))).
						OnClick(func(ctx app.Context, _ app.Event) {
							e.Ctrl.Chat.NewChat()
							ctx.Defer(func(app.Context) { uikit.FocusByID(chatview.InputID) })
						}),
				)
			}),
			&chatview.ThreadView{Ctrl: e.Ctrl, Lang: l, AllowRun: canRunGo(e.Ctrl, e.settings), Greeting: greeting,
				Starters: e.Opts.Starters, LinkTarget: "_top", FeedbackNote: e.feedbackNote(l)},
			&chatview.Composer{Ctrl: e.Ctrl, Lang: l, Note: e.hostNote(l)},
		),
		&chatview.CitationDialog{Ctrl: e.Ctrl, Lang: l, LinkTarget: "_top"},
	)
}

// sentence starts s with a capital letter and ends it with a full stop:
// error strings are written for wrapping, the view shows one alone.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

package ui

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
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
	return o
}

// EmbedView is the compact view another page embeds (/embed): one
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
	// OnStart runs once the view is mounted in the browser (the entry
	// point starts the host-page bridge there).
	OnStart func()

	settings Settings
	status   Status
	model    ModelState
}

// OnMount starts the controller and observes what the frame shows.
func (e *EmbedView) OnMount(ctx app.Context) {
	if app.IsServer || e.Ctrl == nil {
		return
	}
	startRoot(ctx, e.Ctrl, &e.settings)
	e.applyOptions()
	ctx.ObserveState(stateSettings, &e.settings).OnChange(e.applyOptions)
	ctx.ObserveState(stateStatus, &e.status)
	ctx.ObserveState(stateModel, &e.model)
	if e.OnStart != nil {
		e.OnStart()
	}
}

// applyOptions lets the page's theme and language win over the settings
// (which, in an embed, nobody edits).
func (e *EmbedView) applyOptions() {
	s := e.settings
	if e.Opts.Theme != "" {
		s.Theme = e.Opts.Theme
	}
	if e.Opts.Lang != "" {
		s.Lang = e.Opts.Lang
	}
	e.settings = s
	applyTheme(s)
}

// Render implements app.Composer.
func (e *EmbedView) Render() app.UI {
	l := e.settings.Lang
	if e.Opts.Lang != "" {
		l = e.Opts.Lang
	}
	greeting := e.Opts.Greeting
	if greeting == "" {
		greeting = T(l, "embed_greeting")
	}
	llm := e.model.Status
	if llm == "" {
		llm = llmUnknown
	}
	return app.Div().Class("shell embed").ID("shell").Attr("data-ready", sprintf("%t", e.status.Ready)).
		Attr("data-llm", llm).Attr("data-net", string(e.model.Net)).Body(
		app.Main().Class("main").Aria("label", T(l, "conversation")).Body(
			&ThreadView{Ctrl: e.Ctrl, Lang: l, AllowRun: e.Ctrl.CanRunGo(e.settings), Greeting: greeting},
			&Composer{Ctrl: e.Ctrl, Lang: l},
		),
		&CitationDialog{Ctrl: e.Ctrl, Lang: l},
	)
}

package ui

import (
	"context"
	"errors"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/tool"
)

// netState says why the model cannot be reached when the cause is the
// network, so the app can say so in words instead of showing model set-up
// steps or a raw fetch error.
type netState int

const (
	netOnline     netState = iota
	netOffline             // the browser has no network (navigator.onLine is false)
	netServerDown          // the browser is online, this app's server does not answer
)

// recheckEvery is how often the app looks for the network or the server
// while either is gone; the browser's online event is quicker when it comes.
const recheckEvery = 15 * time.Second

// browserOnline reports navigator.onLine; outside a browser it is true.
func browserOnline() bool {
	if app.IsServer {
		return true
	}
	nav := app.Window().Get("navigator")
	return !nav.Truthy() || nav.Get("onLine").Bool()
}

// classifyNet tells the network's part in a failed model check from
// navigator.onLine and the error of asking this app's server.
func classifyNet(online bool, serverErr error) netState {
	switch {
	case !online:
		return netOffline
	case serverErr != nil && unreachable(serverErr):
		return netServerDown
	}
	return netOnline
}

// netWatch holds the listeners for the browser's online and offline events.
var netWatch app.Func

// watchNetwork re-checks the model whenever the browser goes online or
// offline, so the app comes back by itself without a Retry click.
func (s *Shell) watchNetwork(ctx app.Context) {
	if netWatch != nil {
		return
	}
	netWatch = app.FuncOf(func(app.Value, []app.Value) any {
		ctx.Async(func() { s.checkLLM(ctx) })
		return nil
	})
	app.Window().Call("addEventListener", "online", netWatch)
	app.Window().Call("addEventListener", "offline", netWatch)
}

// scheduleRecheck looks again after recheckEvery while the network or the
// server is gone (the server coming back fires no browser event).
func (s *Shell) scheduleRecheck(ctx app.Context) {
	if s.net == netOnline || s.llm != llmDown || s.recheckPending {
		return
	}
	s.recheckPending = true
	ctx.After(recheckEvery, func(ctx app.Context) {
		s.recheckPending = false
		if s.net != netOnline && s.llm == llmDown {
			ctx.Async(func() { s.checkLLM(ctx) })
		}
	})
}

func (s *Shell) renderOfflineBanner() app.UI {
	l := s.lang()
	title, text := "offline_title", "offline_text"
	if s.net == netServerDown {
		title, text = "server_down_title", "server_down_text"
	}
	return app.Section().Class("banner offline").ID("llm-banner").Attr("role", "status").
		Attr("data-net", s.netName()).Aria("labelledby", "llm-banner-title").Body(
		app.Strong().ID("llm-banner-title").Text(T(l, title)),
		app.P().Text(T(l, text)),
	)
}

// netName is the state as tests and styles see it (data-net).
func (s *Shell) netName() string {
	return [...]string{"online", "offline", "server-down"}[s.net]
}

// offlineAware makes a tool that needs the network say "offline" in words
// when the browser has none, instead of a fetch error.
func offlineAware(t tool.Tool, online func() bool, lang string) tool.Tool {
	return tool.Func{
		ToolName: t.Name(), Elem: t.Element(), Desc: t.Description(),
		Fn: func(ctx context.Context, input string) (tool.Result, error) {
			if online != nil && !online() {
				return tool.Result{}, errors.New(T(lang, "tool_offline"))
			}
			return t.Run(ctx, input)
		},
	}
}

// offlineImportErr words a failed web import as what it is when the
// browser has no network, instead of a fetch error.
func offlineImportErr(lang string, err error) error {
	if err != nil && !browserOnline() && unreachable(err) {
		return errors.New(T(lang, "import_offline"))
	}
	return err
}

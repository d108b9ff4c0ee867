package ui

import (
	"context"
	"errors"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/tool"
)

// netState says why the model cannot be reached when the cause is the
// network, so the app can say so in words instead of showing model set-up
// steps or a raw fetch error. Its value is what tests and styles see
// (data-net).
type netState string

const (
	netOnline     netState = "online"
	netOffline    netState = "offline"     // the browser has no network (navigator.onLine is false)
	netServerDown netState = "server-down" // the browser is online, this app's server does not answer
)

// BrowserOnline reports navigator.onLine; outside a browser it is true.
func BrowserOnline() bool {
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
func offlineImportErr(lang string, online bool, err error) error {
	if err != nil && !online && unreachable(err) {
		return errors.New(T(lang, "import_offline"))
	}
	return err
}

package control

import (
	"context"
	"errors"

	"tinyrag/app/tool"
)

// NetState says why the model cannot be reached when the cause is the
// network, so the app can say so in words instead of showing model set-up
// steps or a raw fetch error. Its value is what tests and styles see
// (data-net).
type NetState string

// The network's part in a model that cannot be reached.
const (
	NetOnline     NetState = "online"
	NetOffline    NetState = "offline"     // the browser has no network (navigator.onLine is false)
	NetServerDown NetState = "server-down" // the browser is online, this app's server does not answer
)

// classifyNet tells the network's part in a failed model check from
// navigator.onLine and the error of asking this app's server.
func classifyNet(online bool, serverErr error) NetState {
	switch {
	case !online:
		return NetOffline
	case serverErr != nil && unreachable(serverErr):
		return NetServerDown
	}
	return NetOnline
}

// offlineAware makes a tool that needs the network say "offline" in words
// when the browser has none, instead of a fetch error. The words go to the
// model and into the answer's tool card, in the interface's language.
func offlineAware(t tool.Tool, online func() bool, lang string) tool.Tool {
	return tool.Func{
		ToolName: t.Name(), Elem: t.Element(), Desc: t.Description(),
		Fn: func(ctx context.Context, input string) (tool.Result, error) {
			if online != nil && !online() {
				return tool.Result{}, errors.New(answerText(lang, textToolOffline))
			}
			return t.Run(ctx, input)
		},
	}
}

// errImportOffline is a web import that failed for want of a network;
// KnowledgeState.Offline tells the view so.
var errImportOffline = errors.New("offline: web pages and Wikipedia articles can be imported when the network is back")

// offlineImportErr tells a failed web import for what it is when the
// browser has no network, instead of a fetch error.
func offlineImportErr(online bool, err error) error {
	if err != nil && !online && unreachable(err) {
		return errImportOffline
	}
	return err
}

package ui

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
	"tinyrag/app/markdown/mdmodule"
	"tinyrag/app/ui/chatview"
	"tinyrag/app/ui/i18n"
	"tinyrag/app/ui/settingsview"
	"tinyrag/app/ui/uikit"
)

// App is the full app: the sidebar with chats and knowledge, and the
// conversation with its composer, or the settings. It is a composition
// of the components; another view (the embedded one) is another
// composition of them around the same controller.
type App struct {
	app.Compo
	Ctrl *Controller

	status   control.Status
	model    control.ModelState
	settings control.Settings
	view     uikit.View
	chats    control.ChatList
}

// OnMount starts the controller and observes what the frame shows. It
// runs in the browser only: the server's prerender shows the empty app.
func (a *App) OnMount(ctx app.Context) {
	if app.IsServer || a.Ctrl == nil {
		return
	}
	startRoot(ctx, a.Ctrl, &a.settings, nil)
	ctx.ObserveState(control.StateStatus, &a.status).OnChange(func() {
		signalReady(a.status)
		if a.status.Ready {
			routeStart(ctx, a.Ctrl)
		}
	})
	ctx.ObserveState(control.StateModel, &a.model)
	ctx.ObserveState(uikit.StateView, &a.view)
	// The open chat's address (chatroute.go).
	ctx.ObserveState(control.StateChats, &a.chats).OnChange(func() { routeFollow(a.chats) })
}

// startRoot is what every root does on mount: the settings' theme and
// language on <html>, Enter without a stray newline, and the controller
// publishing to this page.
//
// adjust, if not nil, changes the settings as the root shows them (the
// embedded view's theme and language come from its host page).
func startRoot(ctx app.Context, ctrl *Controller, settings *control.Settings, adjust func(*control.Settings)) {
	apply := func() {
		if adjust != nil {
			adjust(settings)
		}
		applyTheme(*settings)
	}
	*settings = ctrl.Model.Settings()
	apply()
	ctx.ObserveState(control.StateSettings, settings).OnChange(apply)
	preventEnterNewline()
	watchPage(ctrl)
	// Answers are drawn again once the Markdown renderer is loaded (or
	// could not be): see chatview.StateFormatting.
	mdmodule.Page.OnChange(func(s mdmodule.State) { ctx.SetState(chatview.StateFormatting, s) })
	ctrl.Start(statePublisher{ctx})
}

// signalReady tells the page's PWA script (assets/web/pwa.js) that the app
// has started, so the service worker stores the files it left for later
// and the site's data only now: before, they would share the line with
// app.wasm.
func signalReady(st control.Status) {
	if !st.Ready || app.IsServer {
		return
	}
	if pwa := app.Window().Get("tinyragPWA"); pwa.Truthy() {
		pwa.Call("appReady")
	}
}

// siteCheckEvery is how often, at most, coming back to the tab checks
// whether the site published new bundles.
const siteCheckEvery = time.Minute

// pageWatch holds the page listeners, installed once: the browser going
// online or offline checks the model again, so the app comes back by
// itself without a Retry click; the tab becoming visible again looks for
// new site bundles.
var pageWatch struct{ net, visible app.Func }

func watchPage(ctrl *Controller) {
	if pageWatch.net != nil {
		return
	}
	pageWatch.net = app.FuncOf(func(app.Value, []app.Value) any {
		ctrl.Model.CheckModel()
		return nil
	})
	app.Window().Call("addEventListener", "online", pageWatch.net)
	app.Window().Call("addEventListener", "offline", pageWatch.net)
	last := time.Now()
	pageWatch.visible = app.FuncOf(func(app.Value, []app.Value) any {
		if app.Window().Get("document").Get("visibilityState").String() != "visible" || time.Since(last) < siteCheckEvery {
			return nil
		}
		last = time.Now()
		ctrl.RefreshSite()
		return nil
	})
	app.Window().Get("document").Call("addEventListener", "visibilitychange", pageWatch.visible)
}

// statePublisher publishes the controller's states through go-app.
type statePublisher struct{ ctx app.Context }

func (p statePublisher) Publish(state string, v any) { p.ctx.SetState(state, v) }

// Render implements app.Composer.
func (a *App) Render() app.UI {
	l := a.settings.Lang
	cls := "shell"
	if a.view.NavOpen {
		cls += " nav-open"
	}
	var main app.UI
	if a.view.Page == uikit.PageSettings {
		main = &settingsview.Page{Ctrl: a.Ctrl}
	} else {
		main = app.Main().Class("main").Aria("label", i18n.T(l, "conversation")).Body(
			&Topbar{Ctrl: a.Ctrl, Lang: l, Title: true},
			&chatview.ThreadView{Ctrl: a.Ctrl, Lang: l, Debug: a.settings.Debug, AllowRun: canRunGo(a.Ctrl, a.settings), Banner: true},
			&chatview.Composer{Ctrl: a.Ctrl, Lang: l},
		)
	}
	// data-ready and data-llm let tests (and styles) see the app's state.
	llm := a.model.Status
	if llm == "" {
		llm = control.LLMUnknown
	}
	return app.Div().Class(cls).ID("shell").Attr("data-ready", sprintf("%t", a.status.Ready)).Attr("data-llm", llm).
		Attr("data-load-ms", sprintf("%d", a.status.LoadMs)).Attr("data-net", string(a.model.Net)).
		Body(
			&Sidebar{Ctrl: a.Ctrl, Lang: l},
			app.Div().Class("scrim").OnClick(func(ctx app.Context, e app.Event) { uikit.SetView(ctx, func(v *uikit.View) { v.NavOpen = false }) }),
			main,
			&UpdatePrompt{Lang: l}, // above every view, settings too
			&chatview.CitationDialog{Ctrl: a.Ctrl, Lang: l},
		)
}

// enterGuard is installed once: go-app runs its event handlers after the
// browser's default action, so the composer's OnKeyDown cannot stop Enter
// from inserting a newline. A native listener runs synchronously and can.
var enterGuard app.Func

// preventEnterNewline makes Enter (without Shift, outside an IME
// composition) in the chat input send only, leaving no stray line break.
func preventEnterNewline() {
	if enterGuard != nil {
		return
	}
	enterGuard = app.FuncOf(func(this app.Value, args []app.Value) any {
		e := args[0]
		if e.Get("key").String() == "Enter" && !e.Get("shiftKey").Bool() && !e.Get("isComposing").Bool() &&
			e.Get("target").Get("id").String() == chatview.InputID {
			e.Call("preventDefault")
		}
		return nil
	})
	app.Window().Get("document").Call("addEventListener", "keydown", enterGuard, true)
}

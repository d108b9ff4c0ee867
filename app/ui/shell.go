// Package ui is tinyRAG's browser user interface: go-app components, one
// file per concept. Components hold only view state; the engine, knowledge
// base and storage they drive live in their own packages, reached through
// a Runtime.
package ui

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/knowledge"
	"tinyrag/app/llm/reach"
	"tinyrag/app/siteconfig"
	"tinyrag/app/web"
)

// InputID is the DOM id of the chat input; tests and keyboard shortcuts
// rely on it.
const InputID = "chat-input"

// Views of the main area.
const (
	viewChat     = "chat"
	viewSettings = "settings"
)

// llmState is what the app knows about reaching the model.
type llmState int

const (
	llmUnknown llmState = iota
	llmOK
	llmDown
)

// Shell is the root component: the sidebar with chats and knowledge, and
// the conversation with its composer, or the settings.
type Shell struct {
	app.Compo

	rt       *Runtime
	settings Settings
	ready    bool // runtime loaded (browser only)
	loadErr  string
	loadMs   int64 // how long opening the stores and the knowledge base took

	view    string
	tab     string // "chats" or "knowledge"
	navOpen bool
	draft   string

	chat      *chats.Chat
	chatQuery string
	renaming  string // id of the chat being renamed
	renameTo  string

	llm       llmState
	llmErr    string
	models    []string
	testing   bool
	testMsg   string
	testOK    bool
	busy      bool
	cancel    context.CancelFunc
	citation  *chats.Citation
	citeFrom  app.Value // the control that opened the citation, focused again on close
	copiedIdx int       // message index whose answer was just copied, -1 none
	notice    string

	// net is the network's part when the model is down (online.go);
	// recheckPending: a re-check of network and model is scheduled.
	net            netState
	recheckPending bool
	// sendWhenReady: a question was sent before the app was ready; it
	// goes out once the model check is done (starting.go).
	sendWhenReady bool

	kn knowledgeView

	// ctx is the Shell's own context. Long work dispatches through it:
	// a handler's context belongs to the element clicked, and go-app drops
	// dispatches to elements that are gone (a button replaced by another).
	ctx app.Context
}

// OnMount loads settings, chats and the knowledge base, and checks the LLM.
// It runs in the browser only: the server's prerender shows the empty app.
func (s *Shell) OnMount(ctx app.Context) {
	if app.IsServer {
		return
	}
	s.copiedIdx = -1
	s.ctx = ctx
	var st Settings
	if err := ctx.LocalStorage().Get(SettingsKey, &st); err != nil || st.Theme == "" {
		st = DefaultSettings()
	}
	s.settings = st.Normalized()
	applyTheme(s.settings)
	preventEnterNewline()
	s.takeEarlyInput()
	s.watchNetwork(ctx)
	origin := app.Window().URL()
	origin.Path, origin.RawQuery, origin.Fragment = "", "", ""
	// tinyrag.json sits next to index.html, under the site's base path.
	configURL := origin.String() + strings.TrimRight(app.Getenv("GOAPP_ROOT_PREFIX"), "/") + "/" + siteconfig.FileName
	s.watchSite(configURL)
	started := time.Now()
	ctx.Async(func() {
		rt, warn, siteWarns := openRuntime(context.Background(), origin.String(), configURL)
		for _, w := range siteWarns {
			app.Log("tinyRAG site knowledge: " + w)
		}
		ctx.Dispatch(func(ctx app.Context) {
			s.loadMs = time.Since(started).Milliseconds()
			s.rt = rt
			s.ready = true
			s.loadErr = warn
			s.kn.siteErrs = siteWarns
			s.chat = rt.History.New()
			s.kn.refresh(rt)
		})
		s.checkLLM(ctx)
	})
}

// openRuntime opens the stores and the site's knowledge; a store that
// cannot be opened is replaced by memory and reported, so the app still
// works for this visit, and so is a site bundle that cannot be loaded.
func openRuntime(ctx context.Context, origin, configURL string) (*Runtime, string, []string) {
	// The chat history and the knowledge base open side by side: both wait
	// mostly on IndexedDB, so the app is ready when the slower one is.
	var h *chats.History
	var chatWarn string
	chatsDone := make(chan struct{})
	go func() {
		defer close(chatsDone)
		var cs chats.Store = chats.NewMemStore()
		if OpenChatStore != nil {
			if st, err := OpenChatStore(ctx); err == nil {
				cs = st
			} else {
				chatWarn = err.Error()
			}
		}
		h = chats.NewHistory(cs, nil)
		if err := h.Load(ctx); err != nil {
			chatWarn = err.Error()
		}
	}()
	// The site's bundles load beside the stores: the app is ready, with
	// site knowledge searchable, when the slowest of the three is.
	rt := &Runtime{Origin: origin}
	var siteWarns []string
	siteDone := make(chan struct{})
	go func() {
		defer close(siteDone)
		siteWarns = rt.loadSite(ctx, configURL)
	}()

	warn := ""
	cfg := knowledge.Config{}
	if OpenKnowledgeStore != nil {
		if st, err := OpenKnowledgeStore(ctx); err == nil {
			cfg.Store = st
		} else {
			warn = err.Error()
		}
	}
	kb, err := knowledge.Open(ctx, cfg)
	if err != nil {
		warn = err.Error()
		cfg.Store = nil
		kb, _ = knowledge.New(cfg)
	}
	<-chatsDone
	<-siteDone
	if warn == "" {
		warn = chatWarn
	}
	rt.KB, rt.History, rt.Online = kb, h, browserOnline
	return rt, warn, siteWarns
}

// checkLLM lists the endpoint's models: success means a model is
// reachable; failure switches to answers from the knowledge base. It runs
// off the UI goroutine.
func (s *Shell) checkLLM(ctx app.Context) {
	var st Settings
	var rt *Runtime
	done := make(chan struct{})
	ctx.Dispatch(func(app.Context) { st, rt = s.settings, s.rt; close(done) })
	<-done
	if rt == nil {
		return
	}
	c, cancel := context.WithTimeout(context.Background(), 6*time.Second)
	defer cancel()
	var models []string
	var sc web.ServerConfig
	var err, serverErr error
	proxy, base := rt.Proxy(), rt.LLMBase(st)
	if proxy != "" {
		// The server says whether its proxy has a model behind it; asking
		// the proxy when it has none would only log a failed request.
		if sc, err = web.LoadServerConfig(c, rt.HTTP, proxy); err == nil {
			ctx.Dispatch(func(app.Context) { rt.Server = &sc })
		}
		serverErr = err
	}
	switch {
	case base == "":
		err = errors.New(T(st.Lang, "no_endpoint"))
	case err == nil && proxy != "" && base == proxy+"/api/llm" && !sc.LLM.Configured:
		err = errors.New("this server has no language model configured (start it with --llm-url, or run Ollama or LM Studio locally)")
	default:
		if models, err = rt.Chatter(st).Models(c); err != nil {
			err = errors.New(reach.Explain(c, rt.Origin, base, err).String())
		}
	}
	online := browserOnline()
	ctx.Dispatch(func(ctx app.Context) {
		s.testing = false
		defer s.sendQueued(ctx)
		if err != nil {
			s.llm, s.llmErr, s.models = llmDown, err.Error(), nil
			s.net = classifyNet(online, serverErr)
			s.testOK, s.testMsg = false, err.Error()
			s.scheduleRecheck(ctx)
			return
		}
		s.llm, s.llmErr, s.models, s.net = llmOK, "", models, netOnline
		s.testOK, s.testMsg = true, sprintf(T(s.settings.Lang, "conn_ok"), len(models))
	})
}

// saveSettings normalizes, applies and persists the settings.
func (s *Shell) saveSettings(ctx app.Context) {
	s.settings = s.settings.Normalized()
	applyTheme(s.settings)
	if err := ctx.LocalStorage().Set(SettingsKey, s.settings); err != nil {
		s.notice = "settings could not be saved: " + err.Error()
	}
}

func (s *Shell) lang() string { return s.settings.Lang }

// Render implements app.Composer.
func (s *Shell) Render() app.UI {
	cls := "shell"
	if s.navOpen {
		cls += " nav-open"
	}
	var main app.UI
	if s.view == viewSettings {
		main = s.renderSettings()
	} else {
		main = app.Main().Class("main").Aria("label", T(s.lang(), "conversation")).Body(
			s.renderTopbar(),
			s.renderMessages(),
			s.renderComposer(),
		)
	}
	// data-ready and data-llm let tests (and styles) see the app's state.
	return app.Div().Class(cls).ID("shell").Attr("data-ready", sprintf("%t", s.ready)).Attr("data-llm", [...]string{"unknown", "ok", "down"}[s.llm]).
		Attr("data-load-ms", sprintf("%d", s.loadMs)).Attr("data-net", s.netName()).
		Attr("data-site-fetch-ms", s.siteMs(func(rt *Runtime) time.Duration { return rt.SiteFetch })).
		Attr("data-site-open-ms", s.siteMs(func(rt *Runtime) time.Duration { return rt.SiteOpen })).Body(
		s.renderSidebar(),
		app.Div().Class("scrim").OnClick(func(ctx app.Context, e app.Event) { s.navOpen = false }),
		main,
		&UpdatePrompt{Lang: s.lang()}, // above every view, settings too
		app.If(s.citation != nil, func() app.UI { return s.renderCitation() }),
	)
}

func (s *Shell) siteMs(f func(*Runtime) time.Duration) string {
	if s.rt == nil {
		return "0"
	}
	return sprintf("%d", f(s.rt).Milliseconds())
}

// siteCheckEvery is how often, at most, coming back to the tab checks
// whether the site published new bundles.
const siteCheckEvery = time.Minute

// siteWatch is installed once: when the tab becomes visible again, the
// site config is read again and changed bundles are swapped, so a visitor
// who keeps the app open gets what the site publishes.
var siteWatch app.Func

func (s *Shell) watchSite(configURL string) {
	if siteWatch != nil {
		return
	}
	last := time.Now()
	siteWatch = app.FuncOf(func(this app.Value, args []app.Value) any {
		if app.Window().Get("document").Get("visibilityState").String() != "visible" || time.Since(last) < siteCheckEvery || s.rt == nil {
			return nil
		}
		last = time.Now()
		rt, ctx := s.rt, s.ctx
		ctx.Async(func() {
			warns := rt.refreshSite(context.Background(), configURL)
			for _, w := range warns {
				app.Log("tinyRAG site knowledge: " + w)
			}
			ctx.Dispatch(func(app.Context) { s.kn.siteErrs = warns })
		})
		return nil
	})
	app.Window().Get("document").Call("addEventListener", "visibilitychange", siteWatch)
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
			e.Get("target").Get("id").String() == InputID {
			e.Call("preventDefault")
		}
		return nil
	})
	app.Window().Get("document").Call("addEventListener", "keydown", enterGuard, true)
}

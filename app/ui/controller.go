package ui

import (
	"context"
	"errors"
	"net"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"tinyrag/app/chats"
	"tinyrag/app/engine"
	"tinyrag/app/httpdo"
	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/site"
	"tinyrag/app/llm"
	"tinyrag/app/llm/reach"
	"tinyrag/app/markdown"
	"tinyrag/app/nanogo"
	"tinyrag/app/web"
)

// Publisher hands a state to the components observing it. In the browser
// it is go-app's Context.SetState; it may be called from any goroutine.
type Publisher interface {
	Publish(state string, v any)
}

// Prefs keeps the settings across visits (localStorage in the browser).
type Prefs interface {
	// Load returns the saved settings; ok is false when there are none.
	Load() (s Settings, ok bool)
	Save(s Settings) error
}

// Deps is everything the controller reaches outside itself. The browser
// entry point fills it; tests fill it with memory stores and a scripted
// model.
type Deps struct {
	// Origin is the page's origin (http://host:port); the proxies live
	// under it.
	Origin string
	// HTTP makes every request (nil: fetch() in the browser,
	// net/http's natively).
	HTTP httpdo.Doer
	// ConfigURL is the site's tinyrag.json, next to index.html; "" for
	// none. It is read at start beside the stores.
	ConfigURL string
	// Bundles limits the site's bundles to these (URLs or file names);
	// empty: all that tinyrag.json lists.
	Bundles []string
	// Online reports whether the browser has a network (nil: always);
	// without one, failures are told as "offline", not as set-up steps.
	Online func() bool
	// Log writes a line to the developer console (nil: nowhere).
	Log func(string)
	// Mark records that a step of the start-up was reached (a User Timing
	// mark in the browser, which make bench-cold reads); nil: nowhere.
	Mark func(name string)
	// Observer hears each answer's engine events and its end (the
	// embedded view passes them on to the host page); nil: nobody.
	Observer Observer
	// ResumeWithin, if positive, opens the latest chat at start when it
	// changed within that long, instead of a new one: a visitor moving
	// from page to page of a site keeps the embedded conversation.
	ResumeWithin time.Duration
	// OpenChats opens the chat store; nil or an error keeps chats in
	// memory for this visit.
	OpenChats func(context.Context) (chats.Store, error)
	// OpenKnowledge opens the knowledge base's store; nil keeps it in
	// memory, an error too (and says so).
	OpenKnowledge func(context.Context) (knowledge.Store, error)
	// NanoGo runs nanoGo snippets; nil leaves the tool out.
	NanoGo nanogo.Runner
	// Prefs keeps the settings; nil keeps them for this visit only.
	Prefs Prefs
	// Chatter builds the model client for the settings; nil uses the
	// OpenAI-compatible client over HTTP. Tests script the model here.
	Chatter func(Settings) llm.Chatter
	// Models lists the endpoint's models; nil asks the endpoint over HTTP.
	Models func(context.Context, Settings) ([]string, error)
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Observer hears what the controller's answers do. Its methods are called
// on the controller's goroutines, never under its lock, in order.
type Observer interface {
	// Event is one engine event of the answer being streamed.
	Event(ev engine.Event)
	// Answered is a finished answer (stopped, failed or complete) to
	// question, with its citations.
	Answered(question string, m chats.Message)
	// Feedback is the visitor's rating (m.Feedback) of an answer to
	// question.
	Feedback(question string, m chats.Message)
}

// Controller is the one place that touches the chat history, the
// knowledge base and the engine, and the only one that starts goroutines.
// Components call its methods from the UI goroutine; none of them waits
// on storage or the network: the work runs on the controller's own
// goroutines and its outcome arrives as published state.
//
// mu guards everything below it, including every chat's messages (the
// engine's events are applied under it). Store writes never happen under
// mu: the chat store is wrapped in a queue that copies the chat at once
// and writes the copies in order on a goroutine of its own.
type Controller struct {
	deps Deps
	now  func() time.Time

	pubMu sync.Mutex // held while publishing, so states arrive in order
	pub   Publisher

	wg sync.WaitGroup // every goroutine the controller started

	mu       sync.Mutex
	started  bool
	rt       *Runtime
	settings Settings
	status   Status
	model    ModelState
	server   *web.ServerConfig

	hist    *chats.History
	writes  *writeQueue
	chat    *chats.Chat     // the open conversation
	deleted map[string]bool // chats deleted while their answer ran

	busy      bool
	cancel    context.CancelFunc
	askSeq    int
	threadDue bool // a throttled thread publication is scheduled
	// siteRefreshed is when a missing bundle file last made the site's
	// config be read again (siteGone).
	siteRefreshed time.Time
	// queued is a question sent before the app was ready (the stores
	// open, the model checked); it is asked then.
	queued    string
	kn        KnowledgeState
	search    SearchState
	searchSeq int
	// searchWant is the query last asked for (c.search holds the last
	// one answered); searchMissedSite says that answer came before the
	// site's bundles were open (the search gave up waiting for them).
	searchWant       string
	searchMissedSite bool
	// pageContext is what the embedding page said about itself
	// (SetContext); it goes into every question's system prompt.
	pageContext string

	checkingLM     bool
	checkAgain     bool // a check was asked for while one ran
	recheckPending bool // a re-check of network and model is scheduled
}

// NewController returns a controller over deps; Start opens its stores.
func NewController(deps Deps) *Controller {
	c := &Controller{deps: deps, now: deps.Now, deleted: map[string]bool{}}
	if c.now == nil {
		c.now = time.Now
	}
	c.settings = DefaultSettings().Normalized()
	if deps.Prefs != nil {
		if s, ok := deps.Prefs.Load(); ok {
			c.settings = s.Normalized()
		}
	}
	c.model = ModelState{Status: llmUnknown, Net: netOnline}
	c.chat = &chats.Chat{}
	return c
}

// Open begins opening the stores and the knowledge base, before anything
// publishes: the browser entry point calls it before the UI's first render,
// so IndexedDB's work overlaps that render (docs/startup.md). Start does
// it too when it was not called; calling it again does nothing.
func (c *Controller) Open() {
	c.mu.Lock()
	if c.started {
		c.mu.Unlock()
		return
	}
	c.started = true
	c.mu.Unlock()
	c.begin()
}

// Start publishes the first states to pub, opens the stores and the
// knowledge base off the caller's goroutine (unless Open did already) and
// then checks the model. Calling it again only changes where states go (a
// remounted root).
func (c *Controller) Start(pub Publisher) {
	c.pubMu.Lock()
	c.pub = pub
	c.pubMu.Unlock()
	c.mu.Lock()
	if c.started {
		c.unlock(stateStatus, stateSettings, stateModel, stateChats, stateThread, stateBusy, stateKnowledge, stateSearch)
		return
	}
	c.started = true
	c.unlock(stateStatus, stateSettings, stateModel)
	c.begin()
}

// begin opens the stores on a goroutine of the controller's, marks the
// app ready when they are, and then checks the model.
func (c *Controller) begin() {
	started := c.now()
	c.goAsync(func() {
		c.mark("tinyrag:open")
		rt, hist, warn := c.open(context.Background())
		c.mu.Lock()
		c.rt, c.hist = rt, hist
		c.chat = hist.New()
		if list := hist.List(""); c.deps.ResumeWithin > 0 && len(list) > 0 && c.now().Sub(list[0].Updated) < c.deps.ResumeWithin {
			c.chat = list[0]
		}
		c.status.Ready, c.status.LoadErr = true, warn
		c.status.LoadMs = c.now().Sub(started).Milliseconds()
		c.model.Host, c.model.Proxy = modelHost(rt, c.settings)
		c.kn.SiteLoading = c.deps.ConfigURL != ""
		c.refreshDocsLocked()
		c.unlock(stateStatus, stateChats, stateThread, stateBusy, stateKnowledge, stateModel)
		c.mark("tinyrag:ready")
		// What the first answer needs and the first screen does not is
		// prepared once the ready screen had its turn to render (the
		// controller's goroutines share the page's one thread with the
		// UI's).
		c.goAsync(func() {
			time.Sleep(warmAfter)
			markdown.Warm()
		})
		c.loadSite(rt)
	})
}

// warmAfter is how long after ready the controller prepares the first
// answer's rendering (markdown.Warm): long enough for the browser to paint
// the ready screen and send the model check's requests.
const warmAfter = 100 * time.Millisecond

// mark records a start-up step (Deps.Mark).
func (c *Controller) mark(name string) {
	if c.deps.Mark != nil {
		c.deps.Mark(name)
	}
}

// loadSite reads the site's config, then checks the model (the config may
// name it), then opens the site's bundles and loads what their queries
// all read. The app is ready before any of it: its own stores, the
// composer and the tools do not wait for the site.
func (c *Controller) loadSite(rt *Runtime) {
	ctx := context.Background()
	var srcs []site.Source
	var warns []string
	if c.deps.ConfigURL != "" {
		srcs, warns = rt.loadSiteConfig(ctx, c.deps.ConfigURL)
	}
	rt.readSiteConfig()
	c.mu.Lock()
	c.model.Host, c.model.Proxy = modelHost(rt, c.settings)
	c.kn.SiteErrs = warns
	c.unlock(stateModel, stateKnowledge)
	c.CheckModel()
	if len(srcs) > 0 {
		warns = append(warns, rt.syncBundles(ctx, srcs)...)
	}
	rt.OpenedSite()
	c.logAll("tinyRAG site knowledge: ", warns)
	c.mu.Lock()
	c.kn.SiteLoading = false
	c.kn.SiteErrs = warns
	c.refreshDocsLocked()
	c.unlock(stateKnowledge)
	c.mark("tinyrag:site")
	// A query answered while the bundles were still opening is answered
	// again, with them.
	c.mu.Lock()
	missed := c.searchMissedSite
	c.mu.Unlock()
	if len(srcs) > 0 && missed {
		c.searchAgain()
	}
	// A failure here shows again, with the query, when one needs it.
	c.logAll("tinyRAG site knowledge: ", rt.prefetchSite(ctx))
}

// Wait blocks until every goroutine the controller started has ended
// (tests use it; the app never needs to).
func (c *Controller) Wait() { c.wg.Wait() }

func (c *Controller) goAsync(f func()) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		f()
	}()
}

// logAll writes each message with prefix to the console.
func (c *Controller) logAll(prefix string, msgs []string) {
	if c.deps.Log == nil {
		return
	}
	for _, m := range msgs {
		c.deps.Log(prefix + m)
	}
}

// open opens the chat store and the knowledge base side by side (both
// wait mostly on IndexedDB); a store that cannot be opened is replaced by
// memory and reported: the app still works for this visit. The site's
// knowledge comes later (loadSite).
func (c *Controller) open(ctx context.Context) (*Runtime, *chats.History, string) {
	var hist *chats.History
	var chatWarn string
	chatsDone := make(chan struct{})
	c.goAsync(func() {
		defer close(chatsDone)
		var cs chats.Store = chats.NewMemStore()
		if c.deps.OpenChats != nil {
			if st, err := c.deps.OpenChats(ctx); err == nil {
				cs = st
			} else {
				chatWarn = err.Error()
			}
		}
		c.writes = &writeQueue{store: cs, c: c}
		hist = chats.NewHistory(c.writes, c.now)
		if err := hist.Load(ctx); err != nil {
			chatWarn = err.Error()
		}
		c.mark("tinyrag:chats")
	})

	rt := &Runtime{NanoGo: c.deps.NanoGo, Origin: c.deps.Origin, HTTP: c.deps.HTTP, Online: c.deps.Online,
		Bundles: c.deps.Bundles, Site: &site.Knowledge{}, SiteGone: c.siteGone,
		siteOpened: make(chan struct{}), siteRead: make(chan struct{})}
	warn := ""
	cfg := knowledge.Config{}
	if c.deps.OpenKnowledge != nil {
		if st, err := c.deps.OpenKnowledge(ctx); err == nil {
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
	c.mark("tinyrag:knowledge")
	<-chatsDone
	if warn == "" {
		warn = chatWarn
	}
	rt.KB = kb
	return rt, hist, warn
}

// unlock releases mu and publishes the named states as they were at that
// moment. Publishing keeps pubMu, taken before mu is released, so two
// goroutines' publications of one state arrive in the order of their
// changes: an older snapshot never overwrites a newer one.
func (c *Controller) unlock(states ...string) {
	vals := make([]any, len(states))
	for i, s := range states {
		vals[i] = c.snapshotLocked(s)
	}
	c.pubMu.Lock()
	c.mu.Unlock()
	defer c.pubMu.Unlock()
	if c.pub == nil {
		return
	}
	for i, s := range states {
		c.pub.Publish(s, vals[i])
	}
}

// snapshotLocked copies one state out of the controller.
func (c *Controller) snapshotLocked(state string) any {
	switch state {
	case stateStatus:
		return c.status
	case stateSettings:
		s := c.settings
		s.Personas = slices.Clone(s.Personas)
		return s
	case stateModel:
		m := c.model
		m.Models = slices.Clone(m.Models)
		return m
	case stateChats:
		var l ChatList
		if c.hist != nil {
			for _, ch := range c.hist.List("") {
				l.Items = append(l.Items, ChatItem{ID: ch.ID, Title: ch.Title})
			}
		}
		l.Current = c.chat.ID
		return l
	case stateThread:
		t := Thread{ChatID: c.chat.ID, Title: c.chat.Title, Busy: c.busy}
		t.Messages = make([]chats.Message, len(c.chat.Messages))
		for i, m := range c.chat.Messages {
			t.Messages[i] = copyMessage(m)
		}
		return t
	case stateKnowledge:
		k := c.kn
		k.Docs = slices.Clone(k.Docs)
		return k
	case stateBusy:
		return c.busy
	case stateSearch:
		s := c.search
		s.Hits = slices.Clone(s.Hits)
		return s
	}
	panic("ui: unknown state " + state)
}

// copyMessage copies the exported part of a message: what a view shows.
func copyMessage(m *chats.Message) chats.Message {
	v := chats.Message{Role: m.Role, Time: m.Time, Content: m.Content, Answer: m.Answer, Thinking: m.Thinking,
		Route: m.Route, Telemetry: m.Telemetry, Error: m.Error, Streaming: m.Streaming, Stopped: m.Stopped, Offline: m.Offline}
	v.Cards = slices.Clone(m.Cards)
	v.Citations = slices.Clone(m.Citations)
	v.Related, v.NoMatch = slices.Clone(m.Related), m.NoMatch
	if m.Feedback != nil {
		f := *m.Feedback
		v.Feedback = &f
	}
	return v
}

// Settings returns the current settings.
func (c *Controller) Settings() Settings {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snapshotLocked(stateSettings).(Settings)
}

// SetSettings normalizes, keeps and saves s. A changed endpoint is
// checked again at once.
func (c *Controller) SetSettings(s Settings) {
	s = s.Normalized()
	s.Personas = slices.Clone(s.Personas)
	c.mu.Lock()
	recheck := s.Endpoint != c.settings.Endpoint || s.APIKey != c.settings.APIKey
	c.settings = s
	if c.rt != nil {
		c.model.Host, c.model.Proxy = modelHost(c.rt, s)
	}
	if c.deps.Prefs != nil {
		if err := c.deps.Prefs.Save(s); err != nil {
			c.status.Notice = "settings could not be saved: " + err.Error()
		}
	}
	c.unlock(stateSettings, stateModel, stateStatus)
	if recheck {
		c.CheckModel()
	}
}

// DismissNotice clears the notice.
func (c *Controller) DismissNotice() {
	c.mu.Lock()
	c.status.Notice = ""
	c.unlock(stateStatus)
}

// noticeErr shows err as the notice.
func (c *Controller) noticeErr(err error) {
	c.mu.Lock()
	c.status.Notice = err.Error()
	c.unlock(stateStatus)
}

// CheckModel asks the endpoint for its models: success means a model is
// reachable; failure switches to answers made in the browser (app/nomodel)
// and tells why — the network, this app's server, or the model itself.
// The settings' "Test connection" is the same check. A question sent
// while the app was starting is asked once the check is done.
func (c *Controller) CheckModel() {
	c.mu.Lock()
	if c.rt == nil {
		c.mu.Unlock()
		return
	}
	if c.checkingLM {
		c.checkAgain = true
		c.mu.Unlock()
		return
	}
	c.checkingLM = true
	c.model.Testing, c.model.TestMsg = true, ""
	st, rt := c.settings, c.rt
	c.unlock(stateModel)
	c.goAsync(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 6*time.Second)
		defer cancel()
		var models []string
		var sc *web.ServerConfig
		var err, serverErr error
		proxy, base := rt.Proxy(), rt.LLMBase(st)
		if proxy != "" {
			// The server says whether its proxy has a model behind it;
			// asking the proxy when it has none would only log a failed
			// request.
			var got web.ServerConfig
			if got, err = web.LoadServerConfig(ctx, rt.HTTP, proxy); err == nil {
				sc = &got
			}
			serverErr = err
		}
		switch {
		case base == "":
			err = errors.New(T(st.Lang, "no_endpoint"))
		case sc != nil && base == proxy+"/api/llm" && !sc.LLM.Configured:
			err = errors.New("this server has no language model configured (start it with --llm-url, or run Ollama or LM Studio locally)")
		default:
			if models, err = c.listModels(ctx, rt, st); err != nil && reach.IsFetchFailure(err) {
				err = errors.New(reach.Explain(ctx, rt.Origin, base, err).String())
			}
		}
		online := c.online()
		c.mu.Lock()
		c.checkingLM = false
		if sc != nil {
			c.server = sc
			c.rt.Server = sc
		}
		c.model.Testing = false
		if err != nil {
			c.model.Status, c.model.Err, c.model.Models = llmDown, err.Error(), nil
			c.model.Net = classifyNet(online, serverErr)
			c.model.TestOK, c.model.TestMsg = false, err.Error()
			c.scheduleRecheckLocked()
		} else {
			c.model.Status, c.model.Err, c.model.Models, c.model.Net = llmOK, "", models, netOnline
			c.model.TestOK, c.model.TestMsg = true, sprintf(T(c.settings.Lang, "conn_ok"), len(models))
		}
		again := c.checkAgain
		c.checkAgain = false
		if q := c.queued; q != "" && !c.busy {
			c.queued, c.status.Queued = "", false
			c.askLocked(q)
			c.unlock(stateModel, stateStatus, stateThread, stateBusy)
		} else {
			c.unlock(stateModel, stateStatus)
		}
		if again {
			c.CheckModel()
		}
	})
}

// online reports whether the browser has a network.
func (c *Controller) online() bool {
	return c.deps.Online == nil || c.deps.Online()
}

// recheckEvery is how often the app looks for the network or the server
// while either is gone; the browser's online event is quicker when it
// comes, but a server coming back fires none.
const recheckEvery = 15 * time.Second

// scheduleRecheckLocked checks again after recheckEvery while the network
// or the server is gone.
func (c *Controller) scheduleRecheckLocked() {
	if c.model.Net == netOnline || c.recheckPending {
		return
	}
	c.recheckPending = true
	time.AfterFunc(recheckEvery, func() {
		c.mu.Lock()
		c.recheckPending = false
		due := c.model.Net != netOnline && c.model.Status == llmDown
		c.mu.Unlock()
		if due {
			c.CheckModel()
		}
	})
}

// siteGone reads the site's config again when a bundle's file is gone
// from the host, at most once a minute: the site was republished.
func (c *Controller) siteGone() {
	c.mu.Lock()
	due := c.now().Sub(c.siteRefreshed) > time.Minute
	if due {
		c.siteRefreshed = c.now()
	}
	c.mu.Unlock()
	if due {
		c.RefreshSite()
	}
}

// RefreshSite reads the site's config again and swaps the bundles that
// changed, so a visitor who keeps the app open gets what the site
// publishes (the page calls it when the tab becomes visible again).
func (c *Controller) RefreshSite() {
	c.mu.Lock()
	rt := c.rt
	c.mu.Unlock()
	if rt == nil || c.deps.ConfigURL == "" {
		return
	}
	c.goAsync(func() {
		ctx := context.Background()
		srcs, warns := rt.loadSiteConfig(ctx, c.deps.ConfigURL)
		if rt.SiteConfig() != nil {
			warns = append(warns, rt.syncBundles(ctx, srcs)...)
		}
		c.logAll("tinyRAG site knowledge: ", warns)
		c.mu.Lock()
		c.kn.SiteErrs = warns
		c.refreshDocsLocked()
		c.unlock(stateKnowledge)
	})
}

func (c *Controller) listModels(ctx context.Context, rt *Runtime, s Settings) ([]string, error) {
	if c.deps.Models != nil {
		return c.deps.Models(ctx, s)
	}
	return rt.Chatter(s).Models(ctx)
}

// chatter is the model client for s.
func (c *Controller) chatter(rt *Runtime, s Settings) llm.Chatter {
	if c.deps.Chatter != nil {
		return c.deps.Chatter(s)
	}
	return rt.Chatter(s)
}

// modelHost tells where the model endpoint for s is: its host when that is
// not this machine, and whether it is a tinyRAG server's proxy.
func modelHost(rt *Runtime, s Settings) (host string, proxy bool) {
	base := rt.LLMBase(s)
	proxy = base != "" && base == rt.Proxy()+"/api/llm"
	u, err := url.Parse(base)
	if err != nil || u.Hostname() == "" {
		return "", proxy
	}
	h := u.Hostname()
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return "", proxy
	}
	if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
		return "", proxy
	}
	return u.Host, proxy
}

// EndpointPlaceholder shows what an empty endpoint means on this site:
// the endpoint the app then uses.
func (c *Controller) EndpointPlaceholder() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rt == nil {
		return "/api/llm"
	}
	if b := c.rt.LLMBase(Settings{}); b != "" {
		return b
	}
	return "http://127.0.0.1:11434/v1"
}

// EndpointHint is the text key saying what an empty endpoint means here:
// the server's proxy, the site's preset, or nothing at all on a static
// site without either.
func (c *Controller) EndpointHint() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	rt := c.rt
	switch {
	case rt == nil || (rt.Proxy() != "" && (rt.SiteConfig() == nil || rt.SiteConfig().LLM == nil)):
		return "endpoint_hint"
	case rt.SiteConfig() != nil && rt.SiteConfig().LLM != nil:
		return "endpoint_hint_preset"
	}
	return "endpoint_hint_direct"
}

// CanRunGo reports whether nanoGo runs with settings s: allowed there and
// a runner at hand.
func (c *Controller) CanRunGo(s Settings) bool {
	return c != nil && s.AllowNanoGo && c.deps.NanoGo != nil
}

package control

import (
	"context"
	"slices"
	"sync"
	"time"

	"tinyrag/app/chats"
	"tinyrag/app/control/kbinput"
	"tinyrag/app/engine"
	"tinyrag/app/httpdo"
	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/importrun"
	"tinyrag/app/knowledge/site"
	"tinyrag/app/llm"
	"tinyrag/app/nanogo"
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
	// Importer reads imported files and fetched pages into inputs: an
	// *importrun.Runner, whose worker script the browser entry point puts
	// under the site's base path; nil: a runner of the controller's own
	// with importrun's defaults.
	Importer kbinput.Importer
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
// Views call its parts' methods from the UI goroutine; none of them waits
// on storage or the network: the work runs on the parts' own goroutines
// and its outcome arrives as published state.
//
// It is made of three parts, each with its own lock and its own states —
// Chat (the conversations and the answers), Knowledge (the knowledge base,
// its imports and its search) and Model (the settings and the model's
// reachability) — and Site, which answers questions about the site's
// knowledge and links without state of its own. The Controller opens the
// stores, keeps the app's status and ties the parts together.
//
// A part may take another's lock only in this order: Chat, then Knowledge
// or Model, then the status; none calls back into one earlier in it while
// holding its own.
type Controller struct {
	c *core

	// Chat, Knowledge, Model and Site are the parts; views call them.
	Chat      *Chat
	Knowledge *Knowledge
	Model     *Model
	Site      *Site

	mu      sync.Mutex
	started bool
	status  Status
	// siteRefreshed is when a missing bundle file last made the site's
	// config be read again (siteGone).
	siteRefreshed time.Time
}

// NewController returns a controller over deps; Start opens its stores.
func NewController(deps Deps) *Controller {
	c := &core{deps: deps, now: deps.Now}
	if c.now == nil {
		c.now = time.Now
	}
	if c.deps.Importer == nil {
		c.deps.Importer = &importrun.Runner{}
	}
	ctl := &Controller{c: c}
	ctl.Model = newModel(c, ctl)
	ctl.Site = &Site{c: c}
	ctl.Knowledge = &Knowledge{c: c, model: ctl.Model}
	ctl.Chat = newChat(c, ctl)
	return ctl
}

// Open begins opening the stores and the knowledge base, before anything
// publishes: the browser entry point calls it before the UI's first render,
// so IndexedDB's work overlaps that render (docs/startup.md). Start does
// it too when it was not called; calling it again does nothing.
func (ctl *Controller) Open() {
	ctl.mu.Lock()
	if ctl.started {
		ctl.mu.Unlock()
		return
	}
	ctl.started = true
	ctl.mu.Unlock()
	ctl.begin()
}

// Start publishes the first states to pub, opens the stores and the
// knowledge base off the caller's goroutine (unless Open did already) and
// then checks the model. Calling it again only changes where states go (a
// remounted root).
func (ctl *Controller) Start(pub Publisher) {
	ctl.c.pubMu.Lock()
	ctl.c.pub = pub
	ctl.c.pubMu.Unlock()
	ctl.mu.Lock()
	again := ctl.started
	ctl.started = true
	ctl.mu.Unlock()
	ctl.Model.republish(again)
	if again {
		ctl.Chat.republish()
		ctl.Knowledge.republish()
	}
	ctl.mu.Lock()
	ctl.unlock()
	if !again {
		ctl.begin()
	}
}

// begin opens the stores on a goroutine of the controller's, marks the
// app ready when they are, and then checks the model. The site's
// knowledge opens beside the stores (openSite).
func (ctl *Controller) begin() {
	c := ctl.c
	started := c.now()
	rt := &Runtime{NanoGo: c.deps.NanoGo, Origin: c.deps.Origin, HTTP: c.deps.HTTP, Online: c.deps.Online,
		Bundles: c.deps.Bundles, Site: siteKnowledge(c.deps.HTTP), SiteGone: ctl.siteGone, siteOpened: make(chan struct{}),
		siteRead: make(chan struct{})}
	opening := ctl.openSite(rt)
	c.goAsync(func() {
		c.mark("tinyrag:open")
		hist, warn := ctl.open(context.Background(), rt)
		c.rt.Store(rt)
		ctl.Model.hostChanged()
		ctl.Chat.opened(hist)
		ctl.Knowledge.siteLoaded(c.deps.ConfigURL != "", nil)
		ctl.mu.Lock()
		ctl.status.Ready, ctl.status.LoadErr = true, warn
		ctl.status.LoadMs = c.now().Sub(started).Milliseconds()
		ctl.unlock()
		c.mark("tinyrag:ready")
		ctl.siteReady(rt, opening)
	})
}

// unlock releases mu and publishes the status.
func (ctl *Controller) unlock() {
	ctl.c.publish(&ctl.mu, func(string) any { return ctl.status }, StateStatus)
}

// Wait blocks until every goroutine the controller started has ended
// (tests use it; the app never needs to).
func (ctl *Controller) Wait() { ctl.c.wg.Wait() }

// DismissNotice clears the notice.
func (ctl *Controller) DismissNotice() { ctl.ShowNotice("") }

// ShowNotice shows text as the notice ("": none).
func (ctl *Controller) ShowNotice(text string) {
	ctl.mu.Lock()
	ctl.status.Notice = text
	ctl.unlock()
}

// setQueued says whether a question sent while starting waits.
func (ctl *Controller) setQueued(q bool) {
	ctl.mu.Lock()
	ctl.status.Queued = q
	ctl.unlock()
}

// siteOpening is the site's knowledge as openSite opens it: bundles and
// readErrs are set before the runtime's siteRead is closed, openErrs
// before its siteOpened.
type siteOpening struct {
	started  chan struct{} // closed once the app is ready
	bundles  bool          // the config names bundles
	readErrs []string      // what went wrong reading the config
	openErrs []string      // what went wrong opening the bundles
}

// openSite reads the site's config, opens the bundles it names and loads
// what every query of theirs reads, on a goroutine of its own that starts
// with the stores' opening. For a small site it is network and a little
// decoding: the page's site-prefetch.js has usually fetched all of it
// while app.wasm loaded, and the stores leave the page's thread idle
// while IndexedDB answers. A large bundle's preload waits for the app to
// be ready (prefetchSite). The app's readiness does not wait for any of
// it; siteReady tells the user how it went.
func (ctl *Controller) openSite(rt *Runtime) *siteOpening {
	c := ctl.c
	o := &siteOpening{started: make(chan struct{})}
	c.goAsync(func() {
		ctx := context.Background()
		var srcs []site.Source
		if c.deps.ConfigURL != "" {
			srcs, o.readErrs = rt.loadSiteConfig(ctx, c.deps.ConfigURL)
		}
		o.bundles = len(srcs) > 0
		rt.readSiteConfig()
		c.mark("tinyrag:config")
		if len(srcs) > 0 {
			o.openErrs = rt.syncBundles(ctx, srcs)
		}
		rt.OpenedSite()
		c.mark("tinyrag:site")
		// A failure here shows again, with the query, when one needs it.
		c.logAll("tinyRAG site knowledge: ", rt.prefetchSite(ctx, o.started))
		c.mark("tinyrag:preloaded")
	})
	return o
}

// siteReady follows the site's opening once the app is ready: it checks
// the model once the config is read (the config may name it) and says in
// the knowledge panel how the site's knowledge opened. A query answered
// while the bundles were still opening is answered again, with them.
func (ctl *Controller) siteReady(rt *Runtime, o *siteOpening) {
	c := ctl.c
	close(o.started)
	<-rt.siteRead
	ctl.Model.hostChanged()
	ctl.Knowledge.siteLoaded(c.deps.ConfigURL != "", o.readErrs)
	ctl.Model.CheckModel()
	<-rt.siteOpened
	warns := append(slices.Clip(o.readErrs), o.openErrs...)
	c.logAll("tinyRAG site knowledge: ", warns)
	if missed := ctl.Knowledge.siteLoaded(false, warns); missed && o.bundles {
		ctl.Knowledge.searchAgain()
	}
}

// open opens the chat store and the knowledge base side by side (both
// wait mostly on IndexedDB) into rt; a store that cannot be opened is
// replaced by memory and reported: the app still works for this visit.
func (ctl *Controller) open(ctx context.Context, rt *Runtime) (*chats.History, string) {
	c := ctl.c
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
		// Writes are queued, so the history never waits on the store; a
		// failed one is shown as the notice.
		q := chats.NewQueue(cs, c.goAsync, func(err error) { ctl.ShowNotice(err.Error()) })
		hist = chats.NewHistory(q, c.now)
		if err := hist.Load(ctx); err != nil {
			chatWarn = err.Error()
		}
		c.mark("tinyrag:chats")
	})

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
	return hist, warn
}

// siteGone reads the site's config again when a bundle's file is gone
// from the host, at most once a minute: the site was republished.
func (ctl *Controller) siteGone() {
	ctl.mu.Lock()
	due := ctl.c.now().Sub(ctl.siteRefreshed) > time.Minute
	if due {
		ctl.siteRefreshed = ctl.c.now()
	}
	ctl.mu.Unlock()
	if due {
		ctl.RefreshSite()
	}
}

// RefreshSite reads the site's config again and swaps the bundles that
// changed, so a visitor who keeps the app open gets what the site
// publishes (the page calls it when the tab becomes visible again).
func (ctl *Controller) RefreshSite() {
	c := ctl.c
	rt := c.runtime()
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
		ctl.Knowledge.siteRefreshed(warns)
	})
}

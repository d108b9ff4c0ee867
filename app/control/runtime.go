package control

import (
	"sync"
	"sync/atomic"

	"tinyrag/app/chats"
	"tinyrag/app/engine"
	"tinyrag/app/httpdo"
	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/ragtool"
	"tinyrag/app/knowledge/site"
	"tinyrag/app/llm"
	"tinyrag/app/nanogo"
	"tinyrag/app/siteconfig"
	"tinyrag/app/tool"
	"tinyrag/app/tools"
	"tinyrag/app/web"
)

// Runtime is what an answer is made with: the knowledge base, the tools
// and how to build an engine from the settings. The controller owns it;
// it is plain Go, so its logic is tested natively.
type Runtime struct {
	KB *knowledge.KB
	// NanoGo runs nanoGo snippets (a Web Worker in the browser); nil
	// leaves the nanogo tool out, whatever the setting says.
	NanoGo nanogo.Runner
	// Origin is the page's origin (http://host:port); the proxies live
	// under it.
	Origin string
	// HTTP makes the app's requests (nil: fetch() in the browser,
	// net/http's natively).
	HTTP httpdo.Doer
	// Server is what the server's /api/config said it offers; nil until
	// it answered (the web tools then assume the defaults).
	Server *web.ServerConfig
	// Site is the site's read-only knowledge (bundles), searched with KB.
	Site *site.Knowledge
	// siteCfg is the site's tinyrag.json (SiteConfig); it arrives while
	// the app starts or after, so it is read and written atomically.
	siteCfg atomic.Pointer[siteconfig.Config]
	// siteOpened is closed once the site's config was read and its
	// bundles opened (or found absent); searches wait for it (OpenedSite).
	siteOpened chan struct{}
	siteOnce   sync.Once
	// siteRead is closed once the site's config was read (or found
	// absent): what depends on the site owner's choices waits for it
	// (SiteConfigRead).
	siteRead     chan struct{}
	siteReadOnce sync.Once
	// SiteGone is called when a file of a bundle is gone from the host:
	// the site published new knowledge, and the config is read again.
	SiteGone func()
	// Bundles, when set, limits the site's bundles to these (URLs,
	// manifest file names or bundle folder names): an embedding page may
	// offer only some of them.
	Bundles []string
	// Online reports whether the browser has a network (nil: always);
	// without one the web tools say "offline" instead of failing to fetch.
	Online func() bool
}

// Registry returns the tools the settings allow, over the runtime's
// knowledge base and proxies.
func (rt *Runtime) Registry(s Settings) *tool.Registry { return rt.registry(s, &ragtool.Numbering{}) }

// registry is Registry with rag_knowledge numbering its passages by num.
func (rt *Runtime) registry(s Settings, num *ragtool.Numbering) *tool.Registry {
	sc := web.ServerConfig{}
	sc.Web.Enabled = true
	if rt.Server != nil {
		sc = *rt.Server
	}
	if sc.Wikipedia.Base == "" {
		sc.Wikipedia.Lang = rt.wikiConfig(s).Lang
	}
	o := tools.Options{Numbering: num, NanoGo: rt.NanoGo, AllowNanoGo: s.AllowNanoGo}
	for _, t := range web.BrowserTools(rt.Proxy(), sc, rt.HTTP) {
		o.Web = append(o.Web, offlineAware(t, rt.Online, s.Lang))
	}
	if !sc.Web.Enabled || rt.Proxy() == "" {
		// The server turned the web off (--no-web): the tools would
		// only fail.
		o.Off = append(o.Off, web.URLFetchName, web.WebSearchName)
	}
	if s.NoWebSearch {
		o.Off = append(o.Off, web.WebSearchName)
	}
	if rt.KB != nil || len(rt.Site.Bundles()) > 0 {
		o.Knowledge = rt.Retriever()
	}
	return tools.Registry(o)
}

func (rt *Runtime) wikiConfig(s Settings) web.WikiConfig {
	lang := "en"
	if s.AnswerLang == "German" || (s.AnswerLang == "" && s.Lang == "de") {
		lang = "de"
	}
	return web.WikiConfig{Lang: lang, Client: rt.HTTP}
}

// Chatter is the LLM client for the settings.
func (rt *Runtime) Chatter(s Settings) *llm.Client {
	var opts []llm.Option
	if rt.HTTP != nil {
		opts = append(opts, llm.WithHTTPClient(rt.HTTP))
	}
	if s.APIKey != "" {
		opts = append(opts, llm.WithAPIKey(s.APIKey))
	}
	return llm.NewClient(rt.LLMBase(s), opts...)
}

// Answering is what one answer is made with: the tools, the knowledge its
// prompt is retrieved from, and the numbering they share, so a passage the
// model cites as [n] is the answer's n-th citation.
type Answering struct {
	Reg *tool.Registry
	// KB is the prompt's retriever; nil when there is no knowledge.
	KB  tool.Retriever
	Num *ragtool.Numbering
}

// ForAnswer returns what one answer with settings s is made with. prompt
// says whether the passages retrieved into the prompt count as sources: a
// model reads them, the no-model stand-in (app/nomodel) does not — its
// answer is made only of what its tools returned.
func (rt *Runtime) ForAnswer(s Settings, prompt bool) Answering {
	a := Answering{Num: &ragtool.Numbering{}}
	a.Reg = rt.registry(s, a.Num)
	if rt.KB != nil || len(rt.Site.Bundles()) > 0 {
		a.KB = rt.Retriever()
		if prompt {
			a.KB = a.Num.Retriever(a.KB)
		}
	}
	return a
}

// EngineFor builds the engine for one answer made with a. Building one
// per question is cheap and picks up changed settings.
func (rt *Runtime) EngineFor(s Settings, chat llm.Chatter, a Answering) *engine.Engine {
	return engine.New(s.EngineConfig(), chat, a.Reg, a.KB)
}

// Citations lists the passages the answer was given, in the order of the
// numbers it cites them by: Citations()[n-1] is [n].
func (a Answering) Citations() []chats.Citation {
	var out []chats.Citation
	for _, p := range a.Num.Passages() {
		out = append(out, citation(p))
	}
	return out
}

// Request builds the engine request for a question in a chat: the earlier
// turns (questions and tool-free answers) are the history.
func Request(s Settings, c *chats.Chat, question string) engine.Request {
	var hist []llm.Message
	for _, m := range c.Messages {
		switch {
		case m.Role == chats.RoleUser:
			hist = append(hist, llm.Message{Role: "user", Content: m.Content})
		case m.Role == chats.RoleAssistant && !m.Streaming && !m.Offline && m.Answer != "":
			hist = append(hist, llm.Message{Role: "assistant", Content: m.Answer})
		}
	}
	// The question itself is the last user message already added to the
	// chat; the engine appends it again.
	if n := len(hist); n > 0 && hist[n-1].Role == "user" && hist[n-1].Content == question {
		hist = hist[:n-1]
	}
	return engine.Request{Question: question, History: hist, Model: s.Model, Persona: s.PersonaPrompt(), AnswerLanguage: s.AnswerLang}
}

func citation(p tool.Passage) chats.Citation {
	return chats.Citation{Title: p.Title, Source: p.Source, ChunkID: p.ChunkID, Text: p.Text, Site: p.Site}
}

// CitationOfHit is a search hit as a citation.
func CitationOfHit(h knowledge.Hit) chats.Citation {
	return chats.Citation{Title: h.Title, Source: h.Source, ChunkID: h.ChunkID, Text: h.Text, Site: h.Site}
}

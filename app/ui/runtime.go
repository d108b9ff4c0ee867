package ui

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"tinyrag/app/calc"
	"tinyrag/app/chats"
	"tinyrag/app/engine"
	"tinyrag/app/knowledge"
	"tinyrag/app/llm"
	"tinyrag/app/nanogo"
	"tinyrag/app/tool"
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
	// HTTP makes every request the app sends (nil: http.DefaultClient,
	// fetch() in the browser). It is the only client: tools, model,
	// imports and the server's configuration all go through it.
	HTTP *http.Client
	// Server is what the server's /api/config said it offers; nil until
	// it answered (the web tools then assume the defaults).
	Server *web.ServerConfig
}

// Registry returns the tools the settings allow, over the runtime's
// knowledge base and proxies.
func (rt *Runtime) Registry(s Settings) *tool.Registry {
	sc := web.ServerConfig{}
	sc.Web.Enabled = true
	if rt.Server != nil {
		sc = *rt.Server
	}
	if sc.Wikipedia.Base == "" {
		sc.Wikipedia.Lang = rt.wikiConfig(s).Lang
	}
	reg := tool.NewRegistry(calc.Tool())
	for _, t := range web.BrowserTools(rt.Origin, sc, rt.HTTP) {
		reg.Register(t)
	}
	if !sc.Web.Enabled {
		// The server turned the web off (--no-web): the tools would
		// only fail.
		for _, n := range []string{web.URLFetchName, web.WebSearchName} {
			reg.SetEnabled(n, false)
		}
	}
	if rt.KB != nil {
		reg.Register(knowledge.NewTool(rt.KB))
	}
	if rt.NanoGo != nil {
		reg.Register(nanogo.Tool(rt.NanoGo))
	}
	reg.SetEnabled("nanogo", s.AllowNanoGo)
	if s.NoWebSearch {
		reg.SetEnabled(web.WebSearchName, false)
	}
	return reg
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
	return llm.NewClient(s.LLMBase(rt.Origin), opts...)
}

// Engine builds an engine for one question with the current settings.
// Building one per question is cheap and picks up changed settings.
func (rt *Runtime) Engine(s Settings, chat llm.Chatter) *engine.Engine {
	var kb tool.Retriever
	if rt.KB != nil {
		kb = rt.KB
	}
	return engine.New(s.EngineConfig(), chat, rt.Registry(s), kb)
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

// offlinePassages is how many passages an answer without a model shows.
const offlinePassages = 3

// OfflineAnswer answers from the knowledge base alone, for when no LLM is
// reachable: the top passages as quoted Markdown, and their citations.
func (rt *Runtime) OfflineAnswer(ctx context.Context, lang, question string) (string, []chats.Citation, error) {
	if rt.KB == nil || len(rt.KB.Documents()) == 0 {
		return T(lang, "offline_none"), nil, nil
	}
	ps, err := rt.KB.Retrieve(ctx, question, offlinePassages)
	if err != nil && err != knowledge.ErrEmptyQuery {
		return "", nil, fmt.Errorf("searching the knowledge base: %w", err)
	}
	if len(ps) == 0 {
		return T(lang, "offline_none"), nil, nil
	}
	var b strings.Builder
	b.WriteString(T(lang, "offline_answer"))
	b.WriteString("\n\n")
	cites := make([]chats.Citation, 0, len(ps))
	for i, p := range ps {
		fmt.Fprintf(&b, "**[%d] %s**\n\n", i+1, mdEscape(p.Title))
		for _, line := range strings.Split(strings.TrimSpace(clip(p.Text, 700)), "\n") {
			b.WriteString("> ")
			b.WriteString(line)
			b.WriteString("\n")
		}
		b.WriteString("\n")
		cites = append(cites, citation(p))
	}
	return b.String(), cites, nil
}

// Citations lists the passages an answer drew on: those retrieved into
// the prompt (the same query gives the same passages) and those every
// rag_knowledge call returned, each chunk once.
func (rt *Runtime) Citations(ctx context.Context, question string, m *chats.Message) []chats.Citation {
	if rt.KB == nil {
		return nil
	}
	var out []chats.Citation
	seen := map[string]bool{}
	add := func(q string, k int) {
		ps, err := rt.KB.Retrieve(ctx, q, k)
		if err != nil {
			return
		}
		for _, p := range ps {
			if !seen[p.ChunkID] {
				seen[p.ChunkID] = true
				out = append(out, citation(p))
			}
		}
	}
	if m.Telemetry != nil && m.Telemetry.Retrieved > 0 {
		add(question, m.Telemetry.Retrieved)
	}
	for _, c := range m.Cards {
		if c.Tool == "rag_knowledge" && c.Status == chats.StatusDone {
			add(c.Input, knowledge.ToolPassages)
		}
	}
	return out
}

func citation(p tool.Passage) chats.Citation {
	return chats.Citation{Title: p.Title, Source: p.Source, ChunkID: p.ChunkID, Text: p.Text}
}

// mdEscape keeps a title from being read as Markdown.
func mdEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `_`, `\_`, "`", "\\`", `[`, `\[`, `]`, `\]`, `<`, `\<`, `#`, `\#`)
	return r.Replace(s)
}

// clip cuts s to about n bytes at a word boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := s[:n]
	for len(cut) > 0 && !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	if i := strings.LastIndexAny(cut, " \n"); i > n/2 {
		cut = cut[:i]
	}
	return cut + " …"
}

func citationOfHit(h knowledge.Hit) chats.Citation {
	return chats.Citation{Title: h.Title, Source: h.Source, ChunkID: h.ChunkID, Text: h.Text}
}

package ui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/control"
	"tinyrag/app/control/kbinput"
	"tinyrag/app/control/sitefile"
	"tinyrag/app/embed"
	"tinyrag/app/engine"
	"tinyrag/app/knowledge"
	"tinyrag/app/siteconfig"
	"tinyrag/app/ui/chatview"
	"tinyrag/app/ui/uikit"
)

// EmbedHost passes the embedded view's answers on to the page that embeds
// it: it is the view controller's Observer, and the bridge to the host
// (app/embed) is attached once the view is mounted. Before that, and when
// nobody embeds the view, it tells nobody.
type EmbedHost struct {
	mu sync.Mutex
	b  *embed.Bridge
}

func (h *EmbedHost) attach(b *embed.Bridge) {
	h.mu.Lock()
	h.b = b
	h.mu.Unlock()
}

func (h *EmbedHost) bridge() *embed.Bridge {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.b
}

// Event implements Observer: the bridge passes on the events a host
// receives (tool_start, tool_result, tool_skipped, done).
func (h *EmbedHost) Event(ev engine.Event) {
	if b := h.bridge(); b != nil {
		b.Event(ev)
	}
}

// Answered implements Observer: a finished answer goes to the host with
// the passages it cites, and a question nothing matched goes as
// unanswered too.
func (h *EmbedHost) Answered(q string, m chats.Message) {
	b := h.bridge()
	if b == nil {
		return
	}
	b.Answer(chatview.AnswerText(&m), embedCitations(m.Citations))
	if m.NoMatch {
		b.Unanswered(q)
	}
}

// Feedback implements Observer: the visitor's rating goes to the host
// with the question, the answer and its citations.
func (h *EmbedHost) Feedback(q string, m chats.Message) {
	b := h.bridge()
	if b == nil || m.Feedback == nil {
		return
	}
	b.Feedback(embed.Feedback{Rating: m.Feedback.Rating, Reason: m.Feedback.Reason, Note: m.Feedback.Note,
		Question: q, Answer: chatview.AnswerText(&m), Citations: embedCitations(m.Citations)})
}

// embedCitations are citations as the protocol carries them.
func embedCitations(cs []chats.Citation) []embed.Citation {
	out := make([]embed.Citation, len(cs))
	for i, c := range cs {
		out[i] = embed.Citation{Title: c.Title, Source: c.Source, Chunk: c.ChunkID, Text: c.Text}
	}
	return out
}

// hostChat is the embedded view's controller as the host page may drive
// it: ask (into the composer unless the site allows host submit), add
// documents to this embedding's own knowledge base, set the page context.
// Nothing in it reads chats or the knowledge base.
type hostChat struct {
	ctrl *Controller
	ctx  app.Context // the view's, to put a question into the composer
}

// Ask implements embed.Chat.
func (h hostChat) Ask(q string, submit bool) error {
	if !submit {
		// The visitor sends it, or not: a host cannot ask in their name.
		h.ctx.Dispatch(func(ctx app.Context) { chatview.SetDraft(ctx, q) })
		return nil
	}
	if h.ctrl.Chat.Ask(q) == control.AskRefused {
		return errors.New("an answer is still being written; ask again when it is done")
	}
	return nil
}

// AddDocuments implements embed.Chat.
func (h hostChat) AddDocuments(docs []embed.Document) error {
	ins := make([]knowledge.Input, len(docs))
	for i, d := range docs {
		src := d.URL
		if src == "" {
			src = "host:" + d.Title
		}
		ins[i] = knowledge.Input{Title: d.Title, Source: src, Type: "text", Text: d.Text}
	}
	// The bridge hands over one message at a time: waiting here makes an
	// ask that follows find the documents.
	return h.ctrl.Knowledge.ImportDocuments(context.Background(), ins)
}

// SetContext implements embed.Chat.
func (h hostChat) SetContext(text string) { h.ctrl.Chat.SetContext(text) }

// searchTimeout bounds one search for the host's search box.
const searchTimeout = 10 * time.Second

// Search implements embed.Chat: the pages for the host's search box, each
// linked at its passage, with the matched words of its excerpt apart;
// partial hears them while some pages' texts are still loading.
func (h hostChat) Search(q string, partial func([]embed.SearchResult)) ([]embed.SearchResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), searchTimeout)
	defer cancel()
	var progress func([]knowledge.Hit)
	if partial != nil {
		progress = func(hits []knowledge.Hit) { partial(h.results(hits)) }
	}
	hits, err := uikit.SiteOf(h.ctrl).SearchSite(ctx, q, embed.MaxResults, progress)
	if err != nil {
		return nil, err
	}
	return h.results(hits), nil
}

// results are hits as the host's search box lists them; a hit whose text
// is still loading is a pending result.
func (h hostChat) results(hits []knowledge.Hit) []embed.SearchResult {
	out := make([]embed.SearchResult, len(hits))
	for i, hit := range hits {
		if hit.Pending {
			out[i] = embed.SearchResult{Pending: true}
			continue
		}
		out[i] = embed.SearchResult{Title: hit.Title, Source: hit.Source,
			URL: uikit.SiteOf(h.ctrl).PassageLink(control.CitationOfHit(hit)), Snippet: snippet(hit)}
	}
	return out
}

// snippetRunes bounds an excerpt without marked words.
const snippetRunes = 200

// snippet is a hit's excerpt as plain text in pieces, the odd ones the
// matched words: the knowledge base's fragments are HTML, escaped with
// <mark> added, and a host must never be handed markup.
func snippet(h knowledge.Hit) []string {
	if len(h.Fragments) == 0 {
		return []string{kbinput.Clip(strings.Join(strings.Fields(h.Text), " "), snippetRunes)}
	}
	src := strings.Join(h.Fragments, " … ")
	var out []string
	for {
		i := strings.Index(src, "<mark>")
		if i < 0 {
			break
		}
		j := strings.Index(src[i:], "</mark>")
		if j < 0 {
			break
		}
		out = append(out, unescape.Replace(src[:i]), unescape.Replace(src[i+len("<mark>"):i+j]))
		src = src[i+j+len("</mark>"):]
	}
	return append(out, unescape.Replace(src))
}

// unescape undoes html.EscapeString, which is all the knowledge base's
// fragments are escaped with. (html.UnescapeString would link its table
// of every named entity into app.wasm: about 270 KB.)
var unescape = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&#39;", "'", "&#34;", `"`, "&amp;", "&")

// LoadEmbedPolicy reads which pages may embed the app from the site's
// tinyrag.json. A site without one allows only its own pages.
func LoadEmbedPolicy(ctx context.Context, configURL string) (embed.Policy, error) {
	data, status, err := sitefile.Config(ctx, nil, configURL)
	if status == 404 {
		return embed.Policy{}, nil
	}
	if err != nil {
		return embed.Policy{}, errors.New("the site's embedding settings could not be read: " + err.Error())
	}
	cfg, _, err := siteconfig.Parse(data)
	if err != nil {
		return embed.Policy{}, errors.New("the site's embedding settings are unusable: " + err.Error())
	}
	return cfg.EmbedPolicy(), nil
}

package ui

import (
	"context"
	"errors"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/embed"
	"tinyrag/app/engine"
	"tinyrag/app/knowledge"
	"tinyrag/app/siteconfig"
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
// the passages it cites.
func (h *EmbedHost) Answered(_ string, m chats.Message) {
	b := h.bridge()
	if b == nil {
		return
	}
	cites := make([]embed.Citation, len(m.Citations))
	for i, c := range m.Citations {
		cites[i] = embed.Citation{Title: c.Title, Source: c.Source, Chunk: c.ChunkID, Text: c.Text}
	}
	b.Answer(answerText(&m), cites)
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
		h.ctx.Dispatch(func(ctx app.Context) { setDraft(ctx, q) })
		return nil
	}
	if h.ctrl.Ask(q) == AskRefused {
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
	return h.ctrl.ImportDocuments(context.Background(), ins)
}

// SetContext implements embed.Chat.
func (h hostChat) SetContext(text string) { h.ctrl.SetContext(text) }

// LoadEmbedPolicy reads which pages may embed the app from the site's
// tinyrag.json. A site without one allows only its own pages.
func LoadEmbedPolicy(ctx context.Context, configURL string) (embed.Policy, error) {
	data, status, err := siteGet(ctx, nil, configURL, maxConfigBytes)
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

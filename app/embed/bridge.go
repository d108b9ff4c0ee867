package embed

import (
	"encoding/json"
	"errors"
	"sync"
	"unicode/utf8"

	"tinyrag/app/engine"
)

// Chat is what the embedded view does on the host page's behalf; the
// view's controller implements it.
type Chat interface {
	// Ask puts a question to the conversation. submit false: the
	// question goes into the composer and waits for the visitor to send
	// it (the site did not allow host submit).
	Ask(question string, submit bool) error
	// AddDocuments imports texts into this embedding's knowledge base
	// and returns once they are searchable (or failed). The bridge hands
	// the host's messages over one at a time, in order, so an ask that
	// follows an add_documents is answered with those documents.
	AddDocuments(docs []Document) error
	// SetContext sets (or, with "", clears) text about the host page
	// that the next questions are asked with.
	SetContext(context string)
	// Search searches the site's knowledge for a query being typed into
	// the host's search box and returns the best pages (at most
	// MaxResults); an empty query has none. It reads only the site's
	// knowledge and the documents the host added, never the visitor's
	// chats. While some pages' texts are still loading it may hand what
	// it has to partial, those still loading marked Pending, in their
	// final places; every call to partial returns before Search does.
	Search(query string, partial func([]SearchResult)) ([]SearchResult, error)
}

// Bridge is the app's end of the protocol with the one page that embeds
// it. It decides what to hear and what to say; the browser glue
// (bridge_js.go) only carries messages.
type Bridge struct {
	origin     string
	hostSubmit bool
	chat       Chat
	post       func(data []byte, targetOrigin string)

	mu     sync.Mutex // the controller reports from its own goroutines
	height int
	stop   func() // set by the browser glue
}

// NewBridge returns the bridge to the page at embedder (from
// Frame.Embedder: checked against the policy). post sends a message to the
// parent window, addressed to targetOrigin only.
func NewBridge(embedder string, p Policy, chat Chat, post func(data []byte, targetOrigin string)) (*Bridge, error) {
	if embedder == "" {
		return nil, errors.New("embed: the app is not embedded, there is no page to talk to")
	}
	return &Bridge{origin: embedder, hostSubmit: p.HostSubmit, chat: chat, post: post}, nil
}

// Origin is the embedding page's origin, the only one heard and answered.
func (b *Bridge) Origin() string { return b.origin }

// Receive handles one message event: origin as the browser reports it,
// fromParent whether its source is the window that embeds the app. Any
// other sender, even on an allowed origin (a sibling frame, a popup), is
// ignored without a reply; it reports whether the message was heard. A
// malformed message or one the chat refuses gets an error reply.
func (b *Bridge) Receive(origin string, fromParent bool, data []byte) bool {
	if !fromParent || origin != b.origin {
		return false
	}
	m, err := Decode(data)
	if err == nil {
		switch m.Type {
		case TypeAsk:
			err = b.chat.Ask(m.Question, b.hostSubmit)
		case TypeAddDocuments:
			err = b.chat.AddDocuments(m.Documents)
		case TypeSetContext:
			b.chat.SetContext(m.Context)
		case TypeSearch:
			// A page's row is drawn as its text arrives: a large site's
			// results come in waves of requests.
			partial := func(rs []SearchResult) {
				b.send(Message{Type: TypePartialResults, Query: m.Query, Results: boundResults(rs)})
			}
			var rs []SearchResult
			if rs, err = b.chat.Search(m.Query, partial); err == nil {
				b.send(Message{Type: TypeResults, Query: m.Query, Results: boundResults(rs)})
			}
		}
	}
	if err != nil {
		b.send(Message{Type: TypeError, Error: err.Error()})
	}
	return true
}

// Ready tells the host that the app takes messages now; embed.js holds
// the host's messages until then.
func (b *Bridge) Ready() { b.send(Message{Type: TypeReady}) }

// Answer sends a finished answer with the passages it cites.
func (b *Bridge) Answer(answer string, citations []Citation) {
	b.send(Message{Type: TypeAnswer, Answer: answer, Citations: citations})
}

// hostEvents are the engine events a host receives: what the tools did
// and the end. Tokens, thinking and routing stay inside the app.
var hostEvents = map[string]bool{
	engine.EventToolStart: true, engine.EventToolResult: true, engine.EventToolSkipped: true, engine.EventDone: true,
}

// Event forwards an engine event to the host, if it is one a host
// receives, without the app's own telemetry.
func (b *Bridge) Event(e engine.Event) {
	if !hostEvents[e.Event] {
		return
	}
	e.Telemetry = nil
	b.send(Message{Type: TypeEvent, Event: &e})
}

// Resize reports the height the content wants, in CSS pixels; repeats
// and non-positive heights are not sent.
func (b *Bridge) Resize(height int) {
	b.mu.Lock()
	same := height <= 0 || height == b.height
	if !same {
		b.height = height
	}
	b.mu.Unlock()
	if same {
		return
	}
	b.send(Message{Type: TypeResize, Height: height})
}

// Feedback sends a visitor's rating of an answer, within the limits: the
// site keeps it in its own analytics (tinyRAG collects nothing).
func (b *Bridge) Feedback(f Feedback) {
	cites := f.Citations
	if len(cites) > MaxCitations {
		cites = cites[:MaxCitations]
	}
	out := make([]Citation, len(cites))
	for i, c := range cites {
		c.Text = clipRunes(c.Text, MaxCitationRunes)
		out[i] = c
	}
	b.send(Message{Type: TypeFeedback, Rating: f.Rating, Reason: f.Reason, Note: clipRunes(f.Note, MaxNoteRunes),
		Question: clipRunes(f.Question, MaxQuestionRunes), Answer: clipRunes(f.Answer, MaxAnswerRunes), Citations: out})
}

// Unanswered tells the host that nothing in the knowledge base matched a
// question: a hole in the site's documentation.
func (b *Bridge) Unanswered(question string) {
	b.send(Message{Type: TypeUnanswered, Question: clipRunes(question, MaxQuestionRunes)})
}

// boundResults keeps a search's results within the limits.
func boundResults(rs []SearchResult) []SearchResult {
	if len(rs) > MaxResults {
		rs = rs[:MaxResults]
	}
	out := make([]SearchResult, len(rs))
	for i, r := range rs {
		if len(r.Snippet) > maxSnippetPieces {
			r.Snippet = r.Snippet[:maxSnippetPieces]
		}
		out[i] = r
	}
	return out
}

// clipRunes cuts s to at most n characters, marking a cut with "…".
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// Close asks the host to close the panel (the visitor pressed Escape).
func (b *Bridge) Close() { b.send(Message{Type: TypeClose}) }

// Stop ends listening (browser glue); messages after it are ignored.
func (b *Bridge) Stop() {
	if b.stop != nil {
		b.stop()
		b.stop = nil
	}
}

func (b *Bridge) send(m Message) {
	m.V = Version
	data, err := json.Marshal(m)
	if err != nil {
		// Only an unmarshalable event could get here; say so rather than
		// leave the host waiting.
		data, _ = json.Marshal(Message{V: Version, Type: TypeError, Error: "cannot encode a " + m.Type + " message: " + err.Error()})
	}
	b.post(data, b.origin)
}

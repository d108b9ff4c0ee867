package chats

import (
	"strings"
	"time"

	"tinyrag/app/engine"
	"tinyrag/app/engine/telemetry"
	"tinyrag/app/protocol"
)

// Card statuses, as the protocol's data-status attribute spells them.
const (
	StatusRunning = "running"
	StatusDone    = "done"
	StatusError   = "error"
	StatusSkipped = "skipped"
)

// Message is one question or answer. An answer is built from engine events
// by Apply; everything needed to show it again after a reload is exported.
type Message struct {
	Role string    `json:"role"`
	Time time.Time `json:"time"`
	// Content is the question, or the answer's visible text as streamed,
	// raw tool blocks included (the cards cover them by byte range).
	Content string `json:"content"`
	// Answer is the final answer without tool blocks, for history and copy.
	Answer    string            `json:"answer,omitempty"`
	Thinking  string            `json:"thinking,omitempty"`
	Cards     []Card            `json:"cards,omitempty"`
	Citations []Citation        `json:"citations,omitempty"`
	Route     *Route            `json:"route,omitempty"`
	Telemetry *telemetry.Record `json:"telemetry,omitempty"`
	Error     string            `json:"error,omitempty"`
	// Streaming is true while events still arrive.
	Streaming bool `json:"streaming,omitempty"`
	// Stopped is set when the user stopped the answer (or the page went
	// away while it streamed).
	Stopped bool `json:"stopped,omitempty"`
	// Offline marks an answer made of knowledge-base passages because no
	// LLM was reachable.
	Offline bool `json:"offline,omitempty"`
	// Related are pages that match the question but that the answer did
	// not cite, found when it ended (no model call: the index's own).
	Related []Related `json:"related,omitempty"`
	// NoMatch marks an answer to a question nothing in the knowledge base
	// matched: a hole in the site's documentation, for its owner.
	NoMatch bool `json:"no_match,omitempty"`
	// Feedback is the visitor's rating of the answer, if they gave one.
	Feedback *Feedback `json:"feedback,omitempty"`

	parser   *protocol.XMLParseState
	assigned int            // cards matched with their engine event so far
	pending  []engine.Event // tool events that arrived before their block
}

// Card is the live status of one tool block in an answer.
type Card struct {
	// Start and End are the block's byte range in Message.Content.
	Start  int    `json:"start"`
	End    int    `json:"end"`
	ID     string `json:"id,omitempty"`
	Tool   string `json:"tool"`
	Input  string `json:"input"`
	Status string `json:"status"`
	Result string `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
	Source string `json:"source,omitempty"`
}

// Citation is one knowledge-base passage an answer drew on.
type Citation struct {
	Title   string `json:"title"`
	Source  string `json:"source"`
	ChunkID string `json:"chunk_id"`
	Text    string `json:"text"`
	// Site says the passage comes from the site's knowledge: Source is
	// the address of a page of the site.
	Site bool `json:"site,omitempty"`
}

// Route is the router's decision, shown in debug mode.
type Route struct {
	Mode   string   `json:"mode"`
	Reason string   `json:"reason"`
	Hints  []string `json:"hints,omitempty"`
}

// Apply folds one engine event into the answer. Tool events are matched to
// tool blocks by order: the engine reports the calls of a reply in stream
// order, right after their block was streamed, and this message parses the
// same visible text with the same parser, so the k-th block found here is
// the k-th call reported there.
func (m *Message) Apply(ev engine.Event) {
	switch ev.Event {
	case engine.EventRoute:
		m.Route = &Route{Mode: ev.Mode, Reason: ev.Reason, Hints: ev.Hints}
	case engine.EventThinking:
		m.Thinking += ev.Text
	case engine.EventToken:
		m.addText(ev.Text)
	case engine.EventToolStart, engine.EventToolSkipped, engine.EventToolResult:
		if !m.applyTool(ev) {
			m.pending = append(m.pending, ev)
		}
	case engine.EventDone:
		m.finish(ev)
	}
}

func (m *Message) addText(s string) {
	if m.parser == nil {
		m.parser = protocol.NewXMLParseState()
		// Text already there (none in practice) was parsed by nobody:
		// offsets below are relative to the whole content, so feed it.
		if m.Content != "" {
			m.parser.Feed(m.Content)
		}
	}
	m.Content += s
	_, calls := m.parser.Feed(s)
	for _, c := range calls {
		m.Cards = append(m.Cards, Card{Start: int(c.Start), End: int(c.End), Tool: c.Name, Input: c.Input, Status: StatusRunning})
	}
	if len(calls) > 0 && len(m.pending) > 0 {
		waiting := m.pending
		m.pending = nil
		for _, ev := range waiting {
			if !m.applyTool(ev) {
				m.pending = append(m.pending, ev)
			}
		}
	}
}

// applyTool updates the card of a tool event; false means its block has
// not been seen yet.
func (m *Message) applyTool(ev engine.Event) bool {
	i := m.cardByID(ev.ID)
	if i < 0 {
		if ev.Event == engine.EventToolResult || m.assigned >= len(m.Cards) {
			return false
		}
		i = m.assigned
		m.assigned++
		m.Cards[i].ID = ev.ID
	}
	c := &m.Cards[i]
	if ev.Tool != "" {
		c.Tool = ev.Tool
	}
	switch ev.Event {
	case engine.EventToolStart:
		c.Status = StatusRunning
	case engine.EventToolSkipped:
		c.Status, c.Error = StatusSkipped, ev.Reason
	case engine.EventToolResult:
		c.Source = ev.Source
		if ev.Error != "" {
			c.Status, c.Error = StatusError, ev.Error
		} else {
			c.Status, c.Result = StatusDone, ev.Result
		}
	}
	return true
}

func (m *Message) cardByID(id string) int {
	if id == "" {
		return -1
	}
	for i := range m.Cards {
		if m.Cards[i].ID == id {
			return i
		}
	}
	return -1
}

func (m *Message) finish(ev engine.Event) {
	if m.parser != nil {
		// Content already holds every byte; flushing only ends the parse.
		m.parser.Flush()
		m.parser = nil
	}
	m.Streaming = false
	m.Answer = ev.Answer
	if m.Answer == "" && ev.Error == "" {
		m.Answer = strings.TrimSpace(m.Content)
	}
	m.Error = ev.Error
	m.Telemetry = ev.Telemetry
	m.Settle("")
}

// Settle ends an answer that will get no more events: a block that never
// got its call event is marked as not run, so no card spins forever.
func (m *Message) Settle(reason string) {
	m.Streaming = false
	m.pending = nil
	for i := range m.Cards {
		if m.Cards[i].Status == StatusRunning {
			m.Cards[i].Status = StatusError
			if m.Cards[i].Error == "" {
				m.Cards[i].Error = firstNonEmpty(reason, "not run: the answer ended first")
			}
		}
	}
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

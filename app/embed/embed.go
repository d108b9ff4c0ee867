// Package embed is the app's side of the host-page API: the versioned
// messages a page that embeds tinyRAG (through assets/embed.js) and the
// embedded app exchange over postMessage, and the policy that decides
// which pages may talk to it at all.
//
// The rules that keep a visitor's tinyRAG theirs: the app accepts messages
// only from origins the site owner configured, answers only to that exact
// origin (never "*"), ignores everything else without a reply, and a host
// cannot submit a question on the visitor's behalf unless the site owner
// turned that on — its question waits in the composer for the visitor to
// send. Nothing in the protocol reads chats or the knowledge base.
package embed

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"tinyrag/app/chats"
	"tinyrag/app/engine"
)

// Version is the protocol version, the "v" of every message.
const Version = 1

// Message types from the host page to the app.
const (
	TypeAsk          = "ask"           // question
	TypeAddDocuments = "add_documents" // documents
	TypeSetContext   = "set_context"   // context
	TypeSearch       = "search"        // query: search the site's knowledge as the visitor types
)

// Message types from the app to the host page.
const (
	TypeReady  = "ready"  // the app can take messages
	TypeAnswer = "answer" // answer, citations
	TypeEvent  = "event"  // event: an engine event (tool_start, tool_result, tool_skipped, done)
	TypeResize = "resize" // height: the content's height in CSS pixels
	TypeClose  = "close"  // the visitor pressed Escape in the app
	TypeError  = "error"  // error: a message was refused, and why
	// TypeResults answers a search: query, results.
	TypeResults = "results"
	// TypePartialResults is a search's results while some are still
	// loading (their texts on their way): query, results, each still
	// loading marked pending (its title and source empty, nothing else),
	// in its final place. The search's results message follows and
	// replaces it.
	TypePartialResults = "partial_results"
	// TypeFeedback is a visitor's rating of an answer: rating, reason,
	// note, question, answer, citations.
	TypeFeedback = "feedback"
	// TypeUnanswered is a question nothing in the knowledge base matched:
	// question.
	TypeUnanswered = "unanswered"
)

// Limits on what a host may send; beyond them a message is refused whole.
const (
	MaxQuestionRunes = 4096
	MaxContextRunes  = 8000
	MaxDocuments     = 50
	MaxDocumentBytes = 1 << 20
	MaxMessageBytes  = 8 << 20
	MaxQueryRunes    = 500
)

// Limits on what the app sends: a search's results, and what a feedback
// message carries of the answer it rates (a host stores them; an answer
// has no bound of its own).
const (
	MaxResults       = 10
	MaxAnswerRunes   = 20000
	MaxCitations     = 20
	MaxCitationRunes = 1000
	MaxNoteRunes     = chats.MaxNoteRunes
	maxSnippetPieces = 40
)

// Document is a text the host adds to the visitor's knowledge base.
type Document struct {
	Title string `json:"title"`
	Text  string `json:"text"`
	URL   string `json:"url,omitempty"`
}

// Citation is one passage an answer drew on.
type Citation struct {
	Title  string `json:"title"`
	Source string `json:"source"`
	Chunk  string `json:"chunk"`
	Text   string `json:"text,omitempty"`
}

// SearchResult is one page a search found, for the host's search box.
type SearchResult struct {
	Title string `json:"title"`
	// Source is the page's name in the knowledge base.
	Source string `json:"source"`
	// URL opens the page at the passage that matched (a text fragment);
	// absent when the document is no web page.
	URL string `json:"url,omitempty"`
	// Snippet is the passage's best excerpt as plain text, in pieces:
	// the even ones as they are, the odd ones the words that matched, to
	// be marked. Never markup: a host shows each piece as text.
	Snippet []string `json:"snippet,omitempty"`
	// Pending marks, in a partial_results message, a page whose text is
	// still loading: its other fields are empty.
	Pending bool `json:"pending,omitempty"`
}

// Feedback is a visitor's rating of an answer, as the host receives it.
type Feedback struct {
	Rating    string     // chats.RatingUp or chats.RatingDown
	Reason    string     // one of chats.Reasons, or ""
	Note      string     // what the visitor wrote, or ""
	Question  string     // the question answered
	Answer    string     // the answer, without tool blocks
	Citations []Citation // the passages it cited
}

// Message is every message of the protocol; Type says which fields count.
type Message struct {
	V         int            `json:"v"`
	Type      string         `json:"type"`
	Question  string         `json:"question,omitempty"`
	Documents []Document     `json:"documents,omitempty"`
	Context   string         `json:"context,omitempty"`
	Answer    string         `json:"answer,omitempty"`
	Citations []Citation     `json:"citations,omitempty"`
	Event     *engine.Event  `json:"event,omitempty"`
	Height    int            `json:"height,omitempty"`
	Error     string         `json:"error,omitempty"`
	Query     string         `json:"query,omitempty"`
	Results   []SearchResult `json:"results,omitempty"`
	Rating    string         `json:"rating,omitempty"`
	Reason    string         `json:"reason,omitempty"`
	Note      string         `json:"note,omitempty"`
}

// Decode reads a message from a host page and checks it against the
// protocol: version, a known host type, the fields that type needs, and
// the limits. The error says what is wrong, for the error reply.
func Decode(data []byte) (Message, error) {
	if len(data) > MaxMessageBytes {
		return Message{}, fmt.Errorf("message is %d bytes, the limit is %d", len(data), MaxMessageBytes)
	}
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		return Message{}, fmt.Errorf("message is not a JSON object of the protocol: %w", err)
	}
	if m.V != Version {
		return Message{}, fmt.Errorf("protocol version %d is not supported; this app speaks version %d", m.V, Version)
	}
	switch m.Type {
	case TypeAsk:
		m.Question = strings.TrimSpace(m.Question)
		if m.Question == "" {
			return Message{}, errors.New("ask: the question is empty")
		}
		if n := utf8.RuneCountInString(m.Question); n > MaxQuestionRunes {
			return Message{}, fmt.Errorf("ask: the question is %d characters, the limit is %d", n, MaxQuestionRunes)
		}
	case TypeAddDocuments:
		if len(m.Documents) == 0 {
			return Message{}, errors.New("add_documents: no documents")
		}
		if len(m.Documents) > MaxDocuments {
			return Message{}, fmt.Errorf("add_documents: %d documents, the limit is %d per message", len(m.Documents), MaxDocuments)
		}
		for i, d := range m.Documents {
			if strings.TrimSpace(d.Text) == "" {
				return Message{}, fmt.Errorf("add_documents: document %d has no text", i+1)
			}
			if len(d.Text) > MaxDocumentBytes {
				return Message{}, fmt.Errorf("add_documents: document %d is %d bytes, the limit is %d", i+1, len(d.Text), MaxDocumentBytes)
			}
			if d.URL != "" {
				u, err := url.Parse(d.URL)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
					return Message{}, fmt.Errorf("add_documents: document %d: the url must be http or https", i+1)
				}
			}
		}
	case TypeSetContext:
		if n := utf8.RuneCountInString(m.Context); n > MaxContextRunes {
			return Message{}, fmt.Errorf("set_context: the context is %d characters, the limit is %d", n, MaxContextRunes)
		}
	case TypeSearch:
		// An empty query is a cleared search box: it gets no results.
		m.Query = strings.TrimSpace(m.Query)
		if n := utf8.RuneCountInString(m.Query); n > MaxQueryRunes {
			return Message{}, fmt.Errorf("search: the query is %d characters, the limit is %d", n, MaxQueryRunes)
		}
	case "":
		return Message{}, errors.New("message has no type")
	default:
		return Message{}, fmt.Errorf("unknown message type %q", m.Type)
	}
	return m, nil
}

// Policy is what the site owner allows embedding pages to do.
type Policy struct {
	// Origins are the pages (scheme://host[:port]) that may embed the app
	// and talk to it. Empty: none may.
	Origins []string `json:"origins,omitempty"`
	// HostSubmit lets a host's ask message send the question at once;
	// off, the question waits in the composer for the visitor.
	HostSubmit bool `json:"host_submit,omitempty"`
}

// NormalizeOrigin returns s as a browser writes an origin
// (scheme://host[:port], lower case, default port dropped), or an error for
// anything that is not an http(s) origin — a path, a wildcard, "null".
func NormalizeOrigin(s string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.Contains(u.Host, "*") {
		return "", fmt.Errorf("%q is not an origin (want scheme://host[:port], like https://docs.example.org)", s)
	}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return u.Scheme + "://" + host, nil
}

// Check normalizes the policy's origins, refusing any that is not one.
func (p Policy) Check() (Policy, error) {
	out := p
	out.Origins = nil
	for _, o := range p.Origins {
		n, err := NormalizeOrigin(o)
		if err != nil {
			return Policy{}, fmt.Errorf("embed origins: %w", err)
		}
		out.Origins = append(out.Origins, n)
	}
	return out, nil
}

// Allows reports whether a message from origin (as the browser reports
// it on the message event) is to be read. Only an exact match counts.
func (p Policy) Allows(origin string) bool {
	for _, o := range p.Origins {
		if o == origin {
			return true
		}
	}
	return false
}

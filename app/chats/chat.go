// Package chats is the chat history: conversations made of questions and
// streamed answers, built from the engine's events, searchable, and kept in
// a Store (IndexedDB in the browser, memory in tests and the CLI).
package chats

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Chat is one conversation.
type Chat struct {
	ID       string     `json:"id"`
	Title    string     `json:"title"`
	Created  time.Time  `json:"created"`
	Updated  time.Time  `json:"updated"`
	Messages []*Message `json:"messages"`
	// Renamed is set once the user chose the title, so it is no longer
	// derived from the first question.
	Renamed bool `json:"renamed,omitempty"`
}

// Roles of a Message.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// titleRunes bounds a title derived from a question: long enough to tell
// chats apart in the sidebar, short enough to fit on one line.
const titleRunes = 60

// AutoTitle derives a chat title from its first question: the first line,
// whitespace collapsed, cut at a word boundary.
func AutoTitle(question string) string {
	line := strings.TrimSpace(question)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = strings.Join(strings.Fields(line), " ")
	if utf8.RuneCountInString(line) <= titleRunes {
		return line
	}
	r := []rune(line)[:titleRunes]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > titleRunes/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

// AddQuestion appends a user question and an empty assistant answer that
// the engine's events will fill, and returns that answer.
func (c *Chat) AddQuestion(q string, now time.Time) *Message {
	if !c.Renamed && len(c.Messages) == 0 {
		c.Title = AutoTitle(q)
	}
	c.Messages = append(c.Messages,
		&Message{Role: RoleUser, Content: q, Time: now},
		&Message{Role: RoleAssistant, Time: now, Streaming: true})
	c.Updated = now
	return c.Messages[len(c.Messages)-1]
}

// LastQuestion returns the latest user question and its index, or -1.
func (c *Chat) LastQuestion() (string, int) {
	for i := len(c.Messages) - 1; i >= 0; i-- {
		if c.Messages[i].Role == RoleUser {
			return c.Messages[i].Content, i
		}
	}
	return "", -1
}

// Truncate drops the messages from index i on; regenerate uses it to ask
// the last question again.
func (c *Chat) Truncate(i int) {
	if i >= 0 && i < len(c.Messages) {
		c.Messages = c.Messages[:i]
	}
}

// Matches reports whether the chat's title or any message contains every
// word of the query, case-insensitively. An empty query matches everything.
func (c *Chat) Matches(query string) bool {
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return true
	}
	var b strings.Builder
	b.WriteString(strings.ToLower(c.Title))
	for _, m := range c.Messages {
		b.WriteByte('\n')
		b.WriteString(strings.ToLower(m.Content))
	}
	hay := b.String()
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

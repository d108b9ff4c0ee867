package control

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"tinyrag/app/chats"
)

// Chat is the controller's part that holds the conversations: the chat
// history, the open chat and the answer streaming into it. It publishes
// StateChats, StateThread and StateBusy.
//
// mu guards everything below it, including every chat's messages (the
// engine's events are applied under it). Store writes never happen under
// mu: the chat store is wrapped in a queue that copies the chat at once
// and writes the copies in order on a goroutine of its own.
type Chat struct {
	c   *core
	ctl *Controller

	mu      sync.Mutex
	hist    *chats.History
	chat    *chats.Chat     // the open conversation
	deleted map[string]bool // chats deleted while their answer ran

	busy      bool
	cancel    context.CancelFunc
	askSeq    int
	threadDue bool // a throttled thread publication is scheduled
	// queued is a question sent before the app was ready (the stores
	// open, the model checked); it is asked then.
	queued string
	// pageContext is what the embedding page said about itself
	// (SetContext); it goes into every question's system prompt.
	pageContext string
}

func newChat(c *core, ctl *Controller) *Chat {
	return &Chat{c: c, ctl: ctl, deleted: map[string]bool{}, chat: &chats.Chat{}}
}

// unlock releases mu and publishes the named states as they were.
func (ch *Chat) unlock(states ...string) { ch.c.publish(&ch.mu, ch.snapshotLocked, states...) }

func (ch *Chat) snapshotLocked(state string) any {
	switch state {
	case StateChats:
		var l ChatList
		if ch.hist != nil {
			for _, it := range ch.hist.List("") {
				l.Items = append(l.Items, ChatItem{ID: it.ID, Title: it.Title})
			}
		}
		l.Current = ch.chat.ID
		return l
	case StateThread:
		t := Thread{ChatID: ch.chat.ID, Title: ch.chat.Title, Busy: ch.busy}
		t.Messages = make([]chats.Message, len(ch.chat.Messages))
		for i, m := range ch.chat.Messages {
			t.Messages[i] = copyMessage(m)
		}
		return t
	case StateBusy:
		return ch.busy
	}
	panic("control: the chat part has no state " + state)
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

// republish publishes the chat list, the thread and whether an answer
// streams again (a root mounted again).
func (ch *Chat) republish() {
	ch.mu.Lock()
	ch.unlock(StateChats, StateThread, StateBusy)
}

// opened takes the loaded history and opens a new chat, or the latest one
// when Deps.ResumeWithin says so.
func (ch *Chat) opened(hist *chats.History) {
	ch.mu.Lock()
	ch.hist = hist
	ch.chat = hist.New()
	if list := hist.List(""); ch.c.deps.ResumeWithin > 0 && len(list) > 0 && ch.c.now().Sub(list[0].Updated) < ch.c.deps.ResumeWithin {
		ch.chat = list[0]
	}
	ch.unlock(StateChats, StateThread, StateBusy)
}

// List is the chat list as last published.
func (ch *Chat) List() ChatList {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.snapshotLocked(StateChats).(ChatList)
}

// NewChat stops the answer being streamed and opens an empty chat.
func (ch *Chat) NewChat() {
	ch.mu.Lock()
	if ch.hist == nil {
		ch.mu.Unlock()
		return
	}
	ch.stopLocked()
	ch.chat = ch.hist.New()
	ch.unlock(StateChats, StateThread)
}

// OpenChat stops the answer being streamed and opens chat id; false when
// there is no such chat (nothing changes then).
func (ch *Chat) OpenChat(id string) bool {
	ch.mu.Lock()
	if ch.hist == nil {
		ch.mu.Unlock()
		return false
	}
	it := ch.hist.Get(id)
	if it == nil {
		ch.mu.Unlock()
		return false
	}
	if it != ch.chat {
		ch.stopLocked()
	}
	ch.chat = it
	ch.unlock(StateChats, StateThread)
	return true
}

// Chats lists the chats whose title or messages contain every word of
// query, newest first.
func (ch *Chat) Chats(query string) []ChatItem {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	if ch.hist == nil {
		return nil
	}
	var out []ChatItem
	for _, it := range ch.hist.List(query) {
		out = append(out, ChatItem{ID: it.ID, Title: it.Title})
	}
	return out
}

// RenameChat gives chat id a title of the user's choosing. The error is
// about the title (empty) or an unknown chat; a failed write shows as the
// notice once the store answers.
func (ch *Chat) RenameChat(id, title string) error {
	ch.mu.Lock()
	if ch.hist == nil {
		ch.mu.Unlock()
		return nil
	}
	if err := ch.hist.Rename(context.Background(), id, title); err != nil {
		ch.mu.Unlock()
		return err
	}
	ch.unlock(StateChats, StateThread)
	return nil
}

// DeleteChat removes chat id; deleting the open chat stops its answer
// and opens an empty one.
func (ch *Chat) DeleteChat(id string) {
	ch.mu.Lock()
	if ch.hist == nil {
		ch.mu.Unlock()
		return
	}
	if ch.chat.ID == id {
		ch.stopLocked()
		ch.chat = ch.hist.New()
	}
	// An answer still running for it must not store it again.
	ch.deleted[id] = true
	if err := ch.hist.Delete(context.Background(), id); err != nil {
		ch.ctl.ShowNotice(err.Error())
	}
	ch.unlock(StateChats, StateThread)
}

// saveLocked stores chat unless it was deleted meanwhile.
func (ch *Chat) saveLocked(chat *chats.Chat) {
	if ch.deleted[chat.ID] {
		return
	}
	if err := ch.hist.Save(context.Background(), chat); err != nil {
		ch.ctl.ShowNotice(err.Error())
	}
}

// SetFeedback keeps the visitor's rating of the answer at index of chat
// chatID with it, and tells the observer (an embedding page hears it).
// Rating again replaces the earlier rating.
func (ch *Chat) SetFeedback(chatID string, index int, f chats.Feedback) error {
	f, err := f.Check()
	if err != nil {
		return err
	}
	f.Time = ch.c.now()
	ch.mu.Lock()
	it := ch.chat
	if it.ID != chatID && ch.hist != nil {
		it = ch.hist.Get(chatID)
	}
	if it == nil || it.ID != chatID || index < 1 || index >= len(it.Messages) ||
		it.Messages[index].Role != chats.RoleAssistant || it.Messages[index].Streaming {
		ch.mu.Unlock()
		return errors.New("feedback: there is no finished answer to rate there")
	}
	m := it.Messages[index]
	m.Feedback = &f
	q := ""
	if prev := it.Messages[index-1]; prev.Role == chats.RoleUser {
		q = prev.Content
	}
	ch.saveLocked(it)
	cp := copyMessage(m)
	ch.unlock(StateThread)
	if ch.c.deps.Observer != nil {
		ch.c.deps.Observer.Feedback(q, cp)
	}
	return nil
}

// Open is a copy of the open conversation (an answer may still be
// written into the chat itself); nil if it cannot be copied.
func (ch *Chat) Open() *chats.Chat {
	ch.mu.Lock()
	b, err := chats.Encode(ch.chat)
	ch.mu.Unlock()
	if err != nil {
		return nil
	}
	cp, err := chats.Decode(b)
	if err != nil {
		return nil
	}
	return cp
}

// SetContext sets what the embedding page says about itself (its title,
// what the visitor is looking at): it goes into the system prompt of every
// question from now on. Blank clears it.
func (ch *Chat) SetContext(text string) {
	ch.mu.Lock()
	ch.pageContext = strings.TrimSpace(text)
	ch.mu.Unlock()
}

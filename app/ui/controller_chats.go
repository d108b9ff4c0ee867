package ui

import (
	"context"
	"sync"

	"tinyrag/app/chats"
)

// NewChat stops the answer being streamed and opens an empty chat.
func (c *Controller) NewChat() {
	c.mu.Lock()
	if c.hist == nil {
		c.mu.Unlock()
		return
	}
	c.stopLocked()
	c.chat = c.hist.New()
	c.unlock(stateChats, stateThread)
}

// OpenChat stops the answer being streamed and opens chat id; false when
// there is no such chat (nothing changes then).
func (c *Controller) OpenChat(id string) bool {
	c.mu.Lock()
	if c.hist == nil {
		c.mu.Unlock()
		return false
	}
	ch := c.hist.Get(id)
	if ch == nil {
		c.mu.Unlock()
		return false
	}
	if ch != c.chat {
		c.stopLocked()
	}
	c.chat = ch
	c.unlock(stateChats, stateThread)
	return true
}

// chatList is the chat list as last published.
func (c *Controller) chatList() ChatList {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snapshotLocked(stateChats).(ChatList)
}

// ShowNotice shows text as the notice.
func (c *Controller) ShowNotice(text string) {
	c.mu.Lock()
	c.status.Notice = text
	c.unlock(stateStatus)
}

// Chats lists the chats whose title or messages contain every word of
// query, newest first.
func (c *Controller) Chats(query string) []ChatItem {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hist == nil {
		return nil
	}
	var out []ChatItem
	for _, ch := range c.hist.List(query) {
		out = append(out, ChatItem{ID: ch.ID, Title: ch.Title})
	}
	return out
}

// RenameChat gives chat id a title of the user's choosing. The error is
// about the title (empty) or an unknown chat; a failed write shows as the
// notice once the store answers.
func (c *Controller) RenameChat(id, title string) error {
	c.mu.Lock()
	if c.hist == nil {
		c.mu.Unlock()
		return nil
	}
	if err := c.hist.Rename(context.Background(), id, title); err != nil {
		c.mu.Unlock()
		return err
	}
	c.unlock(stateChats, stateThread)
	return nil
}

// DeleteChat removes chat id; deleting the open chat stops its answer
// and opens an empty one.
func (c *Controller) DeleteChat(id string) {
	c.mu.Lock()
	if c.hist == nil {
		c.mu.Unlock()
		return
	}
	if c.chat.ID == id {
		c.stopLocked()
		c.chat = c.hist.New()
	}
	// An answer still running for it must not store it again.
	c.deleted[id] = true
	if err := c.hist.Delete(context.Background(), id); err != nil {
		c.status.Notice = err.Error()
	}
	c.unlock(stateChats, stateThread, stateStatus)
}

// saveLocked stores chat unless it was deleted meanwhile.
func (c *Controller) saveLocked(chat *chats.Chat) {
	if c.deleted[chat.ID] {
		return
	}
	if err := c.hist.Save(context.Background(), chat); err != nil {
		c.status.Notice = err.Error()
	}
}

// writeQueue is the chat store as the history sees it: Put and Delete
// take their copy at once and return, and one goroutine writes them to
// the real store in the order they were made. So the history's methods
// never wait on IndexedDB (they run under the controller's lock), a chat
// is never encoded while an answer is written into it, and a rename or
// delete made while an earlier save is in flight lands after it.
type writeQueue struct {
	store chats.Store
	c     *Controller

	mu      sync.Mutex
	ops     []func(context.Context) error
	running bool
}

// All implements chats.Store: it reads the real store (once, at load).
func (q *writeQueue) All(ctx context.Context) ([]*chats.Chat, error) { return q.store.All(ctx) }

// Put implements chats.Store with a copy of ch written later.
func (q *writeQueue) Put(ctx context.Context, ch *chats.Chat) error {
	if ch.ID == "" {
		return chats.ErrNoID
	}
	b, err := chats.Encode(ch)
	if err != nil {
		return err
	}
	q.push(func(ctx context.Context) error {
		cp, err := chats.Decode(b)
		if err != nil {
			return err
		}
		return q.store.Put(ctx, cp)
	})
	return nil
}

// Delete implements chats.Store; the delete is written after every
// earlier write.
func (q *writeQueue) Delete(ctx context.Context, id string) error {
	q.push(func(ctx context.Context) error { return q.store.Delete(ctx, id) })
	return nil
}

func (q *writeQueue) push(op func(context.Context) error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.ops = append(q.ops, op)
	if !q.running {
		q.running = true
		q.c.goAsync(q.drain)
	}
}

// drain writes until the queue is empty; a failed write is shown as the
// notice and the next one is still tried.
func (q *writeQueue) drain() {
	for {
		q.mu.Lock()
		if len(q.ops) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		op := q.ops[0]
		q.ops = q.ops[1:]
		q.mu.Unlock()
		if err := op(context.Background()); err != nil {
			q.c.noticeErr(err)
		}
	}
}

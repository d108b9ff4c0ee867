package chats

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"
)

// History is the list of chats in memory, written through to a Store.
// It is meant for one goroutine (the UI's).
type History struct {
	store Store
	chats []*Chat
	now   func() time.Time
}

// NewHistory returns an empty history over store; call Load to read it.
// now may be nil (time.Now).
func NewHistory(store Store, now func() time.Time) *History {
	if now == nil {
		now = time.Now
	}
	return &History{store: store, now: now}
}

// Load reads every stored chat.
func (h *History) Load(ctx context.Context) error {
	cs, err := h.store.All(ctx)
	if err != nil {
		return fmt.Errorf("loading chats: %w", err)
	}
	h.chats = cs
	h.sort()
	return nil
}

// List returns the chats matching query (see Chat.Matches), most recently
// updated first.
func (h *History) List(query string) []*Chat {
	var out []*Chat
	for _, c := range h.chats {
		if c.Matches(query) {
			out = append(out, c)
		}
	}
	return out
}

// Get finds a chat by id.
func (h *History) Get(id string) *Chat {
	for _, c := range h.chats {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// New makes an empty chat. It is stored only once it has a message, so
// opening and leaving "New chat" leaves no empty entries behind.
func (h *History) New() *Chat {
	now := h.now()
	return &Chat{ID: newID(now), Created: now, Updated: now}
}

// Save stores a chat and moves it to the top of the list.
func (h *History) Save(ctx context.Context, c *Chat) error {
	if len(c.Messages) == 0 {
		return nil
	}
	if h.Get(c.ID) == nil {
		h.chats = append(h.chats, c)
	}
	h.sort()
	if err := h.store.Put(ctx, c); err != nil {
		return fmt.Errorf("saving chat %q: %w", c.Title, err)
	}
	return nil
}

// ErrEmptyTitle is returned when a chat is renamed to nothing.
var ErrEmptyTitle = errors.New("a chat needs a title")

// Rename gives a chat a title of the user's choosing.
func (h *History) Rename(ctx context.Context, id, title string) error {
	title = strings.Join(strings.Fields(title), " ")
	if title == "" {
		return ErrEmptyTitle
	}
	c := h.Get(id)
	if c == nil {
		return fmt.Errorf("renaming chat %s: no such chat", id)
	}
	c.Title, c.Renamed = title, true
	return h.store.Put(ctx, c)
}

// Delete removes a chat from the list and the store.
func (h *History) Delete(ctx context.Context, id string) error {
	if err := h.store.Delete(ctx, id); err != nil {
		return fmt.Errorf("deleting chat %s: %w", id, err)
	}
	for i, c := range h.chats {
		if c.ID == id {
			h.chats = append(h.chats[:i], h.chats[i+1:]...)
			break
		}
	}
	return nil
}

func (h *History) sort() {
	sort.SliceStable(h.chats, func(i, j int) bool { return h.chats[i].Updated.After(h.chats[j].Updated) })
}

// newID is time-ordered (so ids sort like creation) with random bits, as
// two tabs may create chats in the same millisecond. The bits need to be
// unlikely to repeat, not secret: math/rand/v2's generator, seeded by the
// runtime, spares the app's start crypto/rand's first use (a chat is made
// before the app is ready).
func newID(now time.Time) string {
	return fmt.Sprintf("c%013d-%08x", now.UnixMilli(), rand.Uint32())
}

package chats

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// Store keeps chats across reloads. Put writes a whole chat (chats are
// small; writing them whole keeps a chat consistent after a crash).
type Store interface {
	// All returns every stored chat, in no particular order.
	All(ctx context.Context) ([]*Chat, error)
	// Put creates or replaces a chat.
	Put(ctx context.Context, c *Chat) error
	// Delete removes a chat; an unknown id is no error.
	Delete(ctx context.Context, id string) error
}

// ErrNoID is returned for a chat without an id: it could never be found
// again.
var ErrNoID = errors.New("chats: chat has no id")

// MemStore is a Store in memory. It stores encoded copies, so a stored chat
// cannot change behind the store's back, and encoding problems surface here
// as they would in a real store.
type MemStore struct {
	mu    sync.Mutex
	chats map[string][]byte
}

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore { return &MemStore{chats: map[string][]byte{}} }

// All implements Store.
func (s *MemStore) All(ctx context.Context) ([]*Chat, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Chat, 0, len(s.chats))
	for id, b := range s.chats {
		c, err := Decode(b)
		if err != nil {
			return nil, fmt.Errorf("chats: stored chat %s: %w", id, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// Put implements Store.
func (s *MemStore) Put(ctx context.Context, c *Chat) error {
	if c.ID == "" {
		return ErrNoID
	}
	b, err := Encode(c)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chats[c.ID] = b
	return nil
}

// Delete implements Store.
func (s *MemStore) Delete(ctx context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.chats, id)
	return nil
}

// Encode is the stored form of a chat.
func Encode(c *Chat) ([]byte, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("chats: encoding chat %s: %w", c.ID, err)
	}
	return b, nil
}

// Decode reads a stored chat. An answer that was still streaming when it
// was stored (the page closed mid-answer) comes back stopped, not spinning.
func Decode(b []byte) (*Chat, error) {
	var c Chat
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, err
	}
	if c.ID == "" {
		return nil, ErrNoID
	}
	for _, m := range c.Messages {
		if m == nil {
			continue
		}
		if m.Streaming {
			m.Stopped = true
			m.Settle("interrupted: the page was closed while it ran")
		}
	}
	c.Messages = compact(c.Messages)
	return &c, nil
}

func compact(ms []*Message) []*Message {
	out := ms[:0]
	for _, m := range ms {
		if m != nil {
			out = append(out, m)
		}
	}
	return out
}

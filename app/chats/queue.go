package chats

import (
	"context"
	"sync"
)

// Queue is a Store whose writes return at once: Put and Delete take their
// copy when they are called, and one goroutine writes them to the store
// beneath in the order they were made. So a History over it never waits on
// IndexedDB (the app calls it under its controller's lock), a chat is
// never encoded while an answer is written into it, and a rename or delete
// made while an earlier save is in flight lands after it.
type Queue struct {
	store  Store
	start  func(func())
	failed func(error)

	mu      sync.Mutex
	ops     []func(context.Context) error
	running bool
}

// NewQueue returns a Queue writing to store. start runs the writer on a
// new goroutine (one the caller can wait for); failed hears each write
// that failed, after which the next one is still tried.
func NewQueue(store Store, start func(func()), failed func(error)) *Queue {
	return &Queue{store: store, start: start, failed: failed}
}

// All implements Store: it reads the store beneath (once, at load).
func (q *Queue) All(ctx context.Context) ([]*Chat, error) { return q.store.All(ctx) }

// Put implements Store with a copy of c written later.
func (q *Queue) Put(ctx context.Context, c *Chat) error {
	if c.ID == "" {
		return ErrNoID
	}
	b, err := Encode(c)
	if err != nil {
		return err
	}
	q.push(func(ctx context.Context) error {
		cp, err := Decode(b)
		if err != nil {
			return err
		}
		return q.store.Put(ctx, cp)
	})
	return nil
}

// Delete implements Store; the delete is written after every earlier
// write.
func (q *Queue) Delete(ctx context.Context, id string) error {
	q.push(func(ctx context.Context) error { return q.store.Delete(ctx, id) })
	return nil
}

func (q *Queue) push(op func(context.Context) error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.ops = append(q.ops, op)
	if !q.running {
		q.running = true
		q.start(q.drain)
	}
}

// drain writes until the queue is empty.
func (q *Queue) drain() {
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
			q.failed(err)
		}
	}
}

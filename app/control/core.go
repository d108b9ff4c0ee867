package control

import (
	"sync"
	"sync/atomic"
	"time"
)

// core is what the controller's parts share: their dependencies, the
// clock, where states go, the goroutines they started and, once the stores
// are open, the runtime. It holds no state of the parts': each keeps its
// own under its own lock.
type core struct {
	deps Deps
	now  func() time.Time

	pubMu sync.Mutex // held while publishing, so states arrive in order
	pub   Publisher

	wg sync.WaitGroup // every goroutine the parts started

	// rt is nil until the stores are open (Controller.begin), then never
	// changes.
	rt atomic.Pointer[Runtime]
}

// runtime is the runtime, nil while the stores are opening.
func (c *core) runtime() *Runtime { return c.rt.Load() }

// publish releases mu, held by the caller, and hands the states named to
// the publisher with the values snap made of them under mu. It takes pubMu
// before mu is released, so two goroutines' publications of one state
// arrive in the order of their changes: an older snapshot never
// overwrites a newer one. Each state has one owner, whose lock is mu.
func (c *core) publish(mu *sync.Mutex, snap func(string) any, states ...string) {
	vals := make([]any, len(states))
	for i, s := range states {
		vals[i] = snap(s)
	}
	c.pubMu.Lock()
	mu.Unlock()
	defer c.pubMu.Unlock()
	if c.pub == nil {
		return
	}
	for i, s := range states {
		c.pub.Publish(s, vals[i])
	}
}

// goAsync runs f on a goroutine that Controller.Wait waits for.
func (c *core) goAsync(f func()) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		f()
	}()
}

// mark records a start-up step (Deps.Mark).
func (c *core) mark(name string) {
	if c.deps.Mark != nil {
		c.deps.Mark(name)
	}
}

// logAll writes each message with prefix to the console.
func (c *core) logAll(prefix string, msgs []string) {
	if c.deps.Log == nil {
		return
	}
	for _, m := range msgs {
		c.deps.Log(prefix + m)
	}
}

// online reports whether the browser has a network.
func (c *core) online() bool {
	return c.deps.Online == nil || c.deps.Online()
}

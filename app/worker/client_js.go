//go:build js && wasm

package worker

import (
	"context"
	"fmt"
	"sync"
	"syscall/js"
	"time"
)

// Client talks to one Web Worker running a Go wasm program through
// assets/go-worker.js. The worker (and its wasm, often megabytes) is
// started on first use and kept for the next call; one that crashed,
// overran or was given up on with Call.StopOnCancel is terminated, and
// the next call starts a fresh one. Calls are served one at a time:
// waiting blocks only the calling goroutine, which in Go wasm yields to
// the browser. Use it as a pointer; the zero value with Script set works.
type Client struct {
	// Script is the bootstrap's URL, naming the program:
	// go-worker.js?wasm=…[&exec=…].
	Script string
	// Name says in errors what runs in the worker ("the importer").
	Name string
	// LoadTimeout bounds starting the worker and loading its wasm (one
	// minute if zero); it is not counted against a call's Limit.
	LoadTimeout time.Duration

	once sync.Once
	turn chan struct{} // holds a token while a call owns the worker
	w    *conn
	seq  int
}

// Call is one request to the worker's program.
type Call struct {
	// Msg is the message posted; Do sets its "id". The program answers
	// with {type: "result", id} and may send other messages with the id
	// before (OnMessage).
	Msg js.Value
	// Transfer lists the ArrayBuffers handed over with Msg (postMessage's
	// transfer list).
	Transfer []any
	// Limit, when positive, terminates the worker if no result came
	// within it (ErrOverran).
	Limit time.Duration
	// StopOnCancel terminates the worker when ctx ends during the call;
	// otherwise the worker is kept and the call's late result skipped.
	StopOnCancel bool
	// OnMessage gets the call's messages other than its result (nanoGo's
	// output as it is printed). It runs in the worker's event handler.
	OnMessage func(data js.Value)
}

// Do posts call.Msg and returns the program's result message. Errors:
// ctx's cause while waiting for the worker or during the call, ErrOverran,
// an *Exit for a program that ended, and what went wrong starting it.
func (c *Client) Do(ctx context.Context, call Call) (js.Value, error) {
	c.once.Do(func() { c.turn = make(chan struct{}, 1) })
	select {
	case c.turn <- struct{}{}:
	case <-ctx.Done():
		return js.Undefined(), fmt.Errorf("waiting for %s: %w", c.Name, context.Cause(ctx))
	}
	defer func() { <-c.turn }()

	w, err := c.start(ctx)
	if err != nil {
		return js.Undefined(), err
	}
	c.seq++
	id := c.seq
	w.expect(id, call.OnMessage)
	defer w.expect(0, nil)
	call.Msg.Set("id", id)
	w.js.Call("postMessage", call.Msg, call.Transfer)

	var limit <-chan time.Time
	if call.Limit > 0 {
		t := time.NewTimer(call.Limit)
		defer t.Stop()
		limit = t.C
	}
	for {
		select {
		case res := <-w.results:
			if res.Get("id").Int() != id {
				continue // the late result of a call given up on
			}
			return res, nil
		case err := <-w.failed:
			c.Stop()
			return js.Undefined(), err
		case <-limit:
			c.Stop()
			return js.Undefined(), ErrOverran
		case <-ctx.Done():
			if call.StopOnCancel {
				c.Stop()
			}
			return js.Undefined(), context.Cause(ctx)
		}
	}
}

// Stop terminates the live worker, if any; the next call starts a new one.
// Callers serve it from within a call (an unreadable result), or when they
// are done with the worker.
func (c *Client) Stop() {
	if c.w != nil {
		c.w.terminate()
		c.w = nil
	}
}

// start returns the live worker, creating one and waiting until its
// program runs if there is none.
func (c *Client) start(ctx context.Context) (*conn, error) {
	if c.w == nil {
		w, err := c.newConn()
		if err != nil {
			return nil, err
		}
		c.w = w
	}
	load := c.LoadTimeout
	if load <= 0 {
		load = time.Minute
	}
	timer := time.NewTimer(load)
	defer timer.Stop()
	w := c.w
	select {
	case <-w.ready:
		return w, nil
	case err := <-w.failed:
		c.Stop()
		return nil, err
	case <-timer.C:
		c.Stop()
		return nil, fmt.Errorf("%s did not start within %s", c.Name, load)
	case <-ctx.Done():
		// Keep a loading worker: the next call can use it.
		return nil, fmt.Errorf("waiting for %s to load: %w", c.Name, context.Cause(ctx))
	}
}

// conn is one live Web Worker and the channels its messages arrive on.
type conn struct {
	js      js.Value
	ready   chan struct{}
	results chan js.Value
	failed  chan error
	funcs   []js.Func
	isReady bool
	stopped bool

	mu    sync.Mutex
	id    int            // the call being served, 0 for none
	onMsg func(js.Value) // its OnMessage
}

// expect routes the messages of call id to onMsg.
func (w *conn) expect(id int, onMsg func(js.Value)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.id, w.onMsg = id, onMsg
}

// deliver hands a message of call id to its OnMessage, if it is the call
// being served.
func (w *conn) deliver(id int, data js.Value) {
	w.mu.Lock()
	f := w.onMsg
	if w.id != id {
		f = nil
	}
	w.mu.Unlock()
	if f != nil {
		f(data)
	}
}

func (c *Client) newConn() (w *conn, err error) {
	ctor := js.Global().Get("Worker")
	if ctor.Type() != js.TypeFunction {
		return nil, fmt.Errorf("this browser has no Web Workers; %s cannot run", c.Name)
	}
	url := c.Script
	defer func() {
		// new Worker throws synchronously for a malformed or cross-origin URL.
		if p := recover(); p != nil {
			err = fmt.Errorf("cannot start %s (%s): %v", c.Name, url, p)
		}
	}()
	w = &conn{
		ready:   make(chan struct{}),
		results: make(chan js.Value, 4),
		failed:  make(chan error, 1),
	}
	w.js = ctor.New(url)
	onMessage := js.FuncOf(func(this js.Value, args []js.Value) any {
		data := args[0].Get("data")
		switch typ := data.Get("type").String(); typ {
		case "ready":
			if !w.isReady {
				w.isReady = true
				close(w.ready)
			}
		case "result":
			select {
			case w.results <- data:
			default: // nobody waits for it any more
			}
		case "exit", "error":
			log := ""
			if l := data.Get("log"); l.Type() == js.TypeString {
				log = l.String()
			}
			w.fail(&Exit{Message: data.Get("message").String(), Log: log})
		default:
			if id := data.Get("id"); id.Type() == js.TypeNumber {
				w.deliver(id.Int(), data)
			}
		}
		return nil
	})
	onError := js.FuncOf(func(this js.Value, args []js.Value) any {
		msg := "the worker script failed to load or threw"
		if len(args) > 0 && args[0].Get("message").Type() == js.TypeString {
			msg = args[0].Get("message").String()
		}
		w.fail(fmt.Errorf("%s (%s) failed: %s", c.Name, url, msg))
		return nil
	})
	w.funcs = []js.Func{onMessage, onError}
	w.js.Set("onmessage", onMessage)
	w.js.Set("onerror", onError)
	return w, nil
}

func (w *conn) fail(err error) {
	select {
	case w.failed <- err:
	default:
	}
}

func (w *conn) terminate() {
	if w.stopped {
		return
	}
	w.stopped = true
	w.js.Call("terminate")
	w.js.Set("onmessage", js.Null())
	w.js.Set("onerror", js.Null())
	for _, f := range w.funcs {
		f.Release()
	}
}

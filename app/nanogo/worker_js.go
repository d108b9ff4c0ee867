//go:build js && wasm

package nanogo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall/js"
	"time"
)

// DefaultWorkerScript is where the app serves assets/nanogo-worker.js.
const DefaultWorkerScript = "/web/nanogo-worker.js"

// workerGrace is how long past its time limit a program may take to report
// before the worker is terminated. Blocked programs are stopped by the
// sandbox itself at the limit and keep their output; a busy loop never
// yields to the sandbox's timer in wasm, so for it the terminate is what
// ends the run.
const workerGrace = 500 * time.Millisecond

// WorkerRunner runs snippets in a dedicated Web Worker holding nanogo.wasm.
// The worker (and its multi-megabyte wasm) is started on first use only.
// A program that overruns Timeout gets the worker terminated, keeping what
// it printed until then, and the next call starts a fresh one. Waiting for the worker blocks only the calling
// goroutine, which in Go wasm yields to the browser, so the page stays
// responsive. Calls are served one at a time. Use it as a pointer.
type WorkerRunner struct {
	// ScriptURL is the worker bootstrap (DefaultWorkerScript if empty).
	ScriptURL string
	// Timeout bounds one program's run time (DefaultTimeout if zero).
	Timeout time.Duration
	// LoadTimeout bounds starting the worker and loading its wasm
	// (one minute if zero); it is not counted against Timeout.
	LoadTimeout time.Duration
	// MaxOutput bounds stdout+stderr in bytes (DefaultMaxOutput if zero).
	MaxOutput int

	once sync.Once
	turn chan struct{} // holds a token while a call owns the worker
	w    *worker
	seq  int
}

// worker is one live Web Worker and the channels its messages arrive on.
type worker struct {
	js      js.Value
	ready   chan struct{}
	results chan workerMsg
	failed  chan error
	funcs   []js.Func
	isReady bool
	stopped bool

	mu      sync.Mutex
	printed printed // what the current run printed so far
}

// printed is what a run printed, from the worker's "output" messages: all
// that is left of a program terminated at its time limit.
type printed struct {
	id             int
	stdout, stderr []byte
	cut            bool
}

// startRun starts collecting output for run id.
func (w *worker) startRun(id int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.printed = printed{id: id}
}

// output adds what run id printed.
func (w *worker) output(id int, stderr bool, data []byte, cut bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := &w.printed
	if p.id != id {
		return
	}
	if stderr {
		p.stderr = append(p.stderr, data...)
	} else {
		p.stdout = append(p.stdout, data...)
	}
	p.cut = p.cut || cut
}

// partial is the output run id printed before it was stopped.
func (w *worker) partial(id int) Output {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := w.printed
	if p.id != id {
		return Output{}
	}
	return Output{
		Stdout:    strings.ToValidUTF8(string(p.stdout), ""),
		Stderr:    strings.ToValidUTF8(string(p.stderr), ""),
		Truncated: p.cut,
	}
}

type workerMsg struct {
	id     int
	output string
}

// Run implements Runner.
func (r *WorkerRunner) Run(ctx context.Context, src string) (Output, error) {
	r.once.Do(func() { r.turn = make(chan struct{}, 1) })
	select {
	case r.turn <- struct{}{}:
	case <-ctx.Done():
		return Output{}, fmt.Errorf("nanogo: waiting for the sandbox worker: %w", context.Cause(ctx))
	}
	defer func() { <-r.turn }()

	if len(src) > DefaultMaxSource {
		return Output{}, fmt.Errorf("nanogo: the source is %d bytes, more than the %d-byte limit", len(src), DefaultMaxSource)
	}
	w, err := r.start(ctx)
	if err != nil {
		return Output{}, err
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	r.seq++
	id := r.seq
	msg := js.Global().Get("Object").New()
	msg.Set("type", "run")
	msg.Set("id", id)
	msg.Set("source", src)
	msg.Set("timeoutMs", timeout.Milliseconds())
	msg.Set("maxOutput", r.MaxOutput)
	w.startRun(id)
	w.js.Call("postMessage", msg)

	timer := time.NewTimer(timeout + workerGrace)
	defer timer.Stop()
	for {
		select {
		case m := <-w.results:
			if m.id != id {
				continue // a late answer for a call that was given up on
			}
			var out Output
			if err := json.Unmarshal([]byte(m.output), &out); err != nil {
				r.discard()
				return Output{}, fmt.Errorf("nanogo: the sandbox worker sent an unreadable result: %w", err)
			}
			if out.TimedOut {
				return out, fmt.Errorf("nanogo: %s: %w", out.Error, ErrTimeout)
			}
			return out, nil
		case err := <-w.failed:
			return r.stopped(w, id, err)
		case <-timer.C:
			return r.stopped(w, id, fmt.Errorf("nanogo: the program did not finish within %s; its worker was terminated: %w", timeout, ErrTimeout))
		case <-ctx.Done():
			return r.stopped(w, id, fmt.Errorf("nanogo: the run was abandoned: %w", context.Cause(ctx)))
		}
	}
}

// stopped ends run id, whose worker crashed, overran or was given up on:
// the worker is terminated, and what the program printed until then is
// kept — often it says how far a runaway loop got.
func (r *WorkerRunner) stopped(w *worker, id int, err error) (Output, error) {
	out := w.partial(id)
	r.discard()
	out.Error, out.TimedOut = err.Error(), errors.Is(err, ErrTimeout)
	return out, err
}

// start returns the live worker, creating one and waiting until its wasm
// runs if there is none.
func (r *WorkerRunner) start(ctx context.Context) (*worker, error) {
	if r.w == nil {
		w, err := newWorker(r.scriptURL())
		if err != nil {
			return nil, err
		}
		r.w = w
	}
	load := r.LoadTimeout
	if load <= 0 {
		load = time.Minute
	}
	timer := time.NewTimer(load)
	defer timer.Stop()
	w := r.w
	select {
	case <-w.ready:
		return w, nil
	case err := <-w.failed:
		r.discard()
		return nil, err
	case <-timer.C:
		r.discard()
		return nil, fmt.Errorf("nanogo: the sandbox worker did not start within %s", load)
	case <-ctx.Done():
		// Keep a loading worker: the next call can use it.
		return nil, fmt.Errorf("nanogo: waiting for the sandbox worker to load: %w", context.Cause(ctx))
	}
}

func (r *WorkerRunner) scriptURL() string {
	if r.ScriptURL == "" {
		return DefaultWorkerScript
	}
	return r.ScriptURL
}

// discard terminates the current worker; the next call starts a new one.
func (r *WorkerRunner) discard() {
	if r.w != nil {
		r.w.terminate()
		r.w = nil
	}
}

func newWorker(url string) (w *worker, err error) {
	ctor := js.Global().Get("Worker")
	if ctor.Type() != js.TypeFunction {
		return nil, errors.New("nanogo: this browser has no Web Workers; the Go sandbox cannot run")
	}
	defer func() {
		// new Worker throws synchronously for a malformed or cross-origin URL.
		if p := recover(); p != nil {
			err = fmt.Errorf("nanogo: cannot start the sandbox worker %s: %v", url, p)
		}
	}()
	w = &worker{
		ready:   make(chan struct{}),
		results: make(chan workerMsg, 4),
		failed:  make(chan error, 1),
	}
	w.js = ctor.New(url)
	onMessage := js.FuncOf(func(this js.Value, args []js.Value) any {
		data := args[0].Get("data")
		switch data.Get("type").String() {
		case "ready":
			if !w.isReady {
				w.isReady = true
				close(w.ready)
			}
		case "output":
			d := data.Get("data")
			b := make([]byte, d.Get("length").Int())
			js.CopyBytesToGo(b, d)
			w.output(data.Get("id").Int(), data.Get("stderr").Bool(), b, data.Get("cut").Bool())
		case "result":
			select {
			case w.results <- workerMsg{id: data.Get("id").Int(), output: data.Get("output").String()}:
			default: // nobody waits for it any more
			}
		case "exit", "error":
			log := ""
			if l := data.Get("log"); l.Type() == js.TypeString {
				log = l.String()
			}
			w.fail(workerError(data.Get("message").String(), log))
		}
		return nil
	})
	onError := js.FuncOf(func(this js.Value, args []js.Value) any {
		msg := "the worker script failed to load or threw"
		if len(args) > 0 && args[0].Get("message").Type() == js.TypeString {
			msg = args[0].Get("message").String()
		}
		w.fail(fmt.Errorf("nanogo: the sandbox worker %s failed: %s", url, msg))
		return nil
	})
	w.funcs = []js.Func{onMessage, onError}
	w.js.Set("onmessage", onMessage)
	w.js.Set("onerror", onError)
	return w, nil
}

func (w *worker) fail(err error) {
	select {
	case w.failed <- err:
	default:
	}
}

func (w *worker) terminate() {
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

// workerError explains a worker that stopped. A panic in a goroutine the
// program started cannot be recovered by the interpreter and ends the
// worker's Go program; its message is in the console log the bootstrap
// forwards.
func workerError(msg, log string) error {
	if i := strings.Index(log, "panic: "); i >= 0 {
		line := log[i:]
		if j := strings.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		return fmt.Errorf("nanogo: the program crashed: %s", line)
	}
	if log = strings.TrimSpace(log); log != "" {
		lines := strings.Split(log, "\n")
		msg += ": " + strings.Join(lines[max(0, len(lines)-3):], " | ")
	}
	return fmt.Errorf("nanogo: the sandbox worker stopped: %s", msg)
}

//go:build js && wasm

package importrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"syscall/js"
	"time"

	"tinyrag/app/knowledge"
)

// WorkerScript is where the app serves assets/importer-worker.js; tests
// point it elsewhere.
var WorkerScript = "/web/importer-worker.js"

// loadTimeout bounds starting the worker and loading importer.wasm.
const loadTimeout = time.Minute

// turn serializes imports: the worker's Go runs one at a time anyway, and
// one caller at a time keeps the message handling simple.
var turn = make(chan struct{}, 1)

// live is the started worker, kept for the next import; nil until the
// first one, and again after a crash.
var live *worker

var seq int

func run(ctx context.Context, r request) (knowledge.Input, error) {
	select {
	case turn <- struct{}{}:
	case <-ctx.Done():
		return knowledge.Input{}, ctx.Err()
	}
	defer func() { <-turn }()
	w, err := start(ctx)
	if err != nil {
		return knowledge.Input{}, err
	}
	seq++
	id := seq
	data := js.Global().Get("Uint8Array").New(len(r.data))
	js.CopyBytesToJS(data, r.data)
	msg := js.Global().Get("Object").New()
	msg.Set("type", "import")
	msg.Set("id", id)
	msg.Set("name", r.name)
	msg.Set("url", r.url)
	msg.Set("contentType", r.contentType)
	msg.Set("data", data)
	w.js.Call("postMessage", msg, []any{data.Get("buffer")})
	for {
		select {
		case res := <-w.results:
			if res.id != id {
				continue // the answer to an import given up on
			}
			if res.err != "" {
				return knowledge.Input{}, errors.New(res.err)
			}
			var in knowledge.Input
			if err := json.Unmarshal([]byte(res.doc), &in); err != nil {
				return knowledge.Input{}, fmt.Errorf("the importer sent an unreadable result: %w", err)
			}
			return in, nil
		case err := <-w.failed:
			discard()
			return knowledge.Input{}, err
		case <-ctx.Done():
			// The import may still be running; the worker stays for
			// the next one, which skips this answer.
			return knowledge.Input{}, ctx.Err()
		}
	}
}

type result struct {
	id       int
	doc, err string
}

// worker is the live Web Worker and the channels its messages arrive on.
type worker struct {
	js      js.Value
	ready   chan struct{}
	results chan result
	failed  chan error
	funcs   []js.Func
}

// start returns the live worker, starting one and waiting until its wasm
// runs if there is none.
func start(ctx context.Context) (*worker, error) {
	if live == nil {
		w, err := newWorker(WorkerScript)
		if err != nil {
			return nil, err
		}
		live = w
	}
	w := live
	timer := time.NewTimer(loadTimeout)
	defer timer.Stop()
	select {
	case <-w.ready:
		return w, nil
	case err := <-w.failed:
		discard()
		return nil, err
	case <-timer.C:
		discard()
		return nil, fmt.Errorf("the importer did not start within %s", loadTimeout)
	case <-ctx.Done():
		return nil, ctx.Err() // keep it loading for the next call
	}
}

func newWorker(url string) (w *worker, err error) {
	ctor := js.Global().Get("Worker")
	if ctor.Type() != js.TypeFunction {
		return nil, errors.New("this browser has no Web Workers, which importing files needs")
	}
	defer func() {
		// new Worker throws synchronously for a malformed or cross-origin URL.
		if p := recover(); p != nil {
			err = fmt.Errorf("cannot start the importer %s: %v", url, p)
		}
	}()
	w = &worker{ready: make(chan struct{}), results: make(chan result, 4), failed: make(chan error, 1)}
	w.js = ctor.New(url)
	isReady := false
	onMessage := js.FuncOf(func(this js.Value, args []js.Value) any {
		data := args[0].Get("data")
		switch data.Get("type").String() {
		case "ready":
			if !isReady {
				isReady = true
				close(w.ready)
			}
		case "result":
			res := result{id: data.Get("id").Int()}
			if e := data.Get("error"); e.Type() == js.TypeString {
				res.err = e.String()
			} else {
				res.doc = data.Get("doc").String()
			}
			select {
			case w.results <- res:
			default: // nobody waits for it any more
			}
		case "exit", "error":
			log := ""
			if l := data.Get("log"); l.Type() == js.TypeString {
				log = l.String()
			}
			w.fail(crashError(data.Get("message").String(), log))
		}
		return nil
	})
	onError := js.FuncOf(func(this js.Value, args []js.Value) any {
		msg := "the worker script failed to load or threw"
		if len(args) > 0 && args[0].Get("message").Type() == js.TypeString {
			msg = args[0].Get("message").String()
		}
		w.fail(fmt.Errorf("the importer %s failed: %s", url, msg))
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

// discard terminates the live worker; the next import starts a new one.
func discard() {
	if live == nil {
		return
	}
	w := live
	live = nil
	w.js.Call("terminate")
	w.js.Set("onmessage", js.Null())
	w.js.Set("onerror", js.Null())
	for _, f := range w.funcs {
		f.Release()
	}
}

// crashError explains a worker that stopped: a panic's first line if the
// log has one.
func crashError(msg, log string) error {
	if i := strings.Index(log, "panic: "); i >= 0 {
		line := log[i:]
		if j := strings.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		return fmt.Errorf("the importer crashed: %s", line)
	}
	return fmt.Errorf("the importer stopped: %s", msg)
}

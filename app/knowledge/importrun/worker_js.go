//go:build js && wasm

package importrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"tinyrag/app/knowledge"
	"tinyrag/app/worker"
)

// DefaultScript is where the app serves assets/go-worker.js, naming
// importer.wasm beside it.
const DefaultScript = "/web/go-worker.js?wasm=importer.wasm"

// Runner runs the importers in a Web Worker holding importer.wasm (an
// app/worker.Client), started on the first import and kept for the next.
// Imports are served one at a time: the worker's Go runs one at a time
// anyway. An import given up on leaves the worker running (it ends on its
// own); one that crashed it gets a fresh worker next time. Use it as a
// pointer.
type Runner struct {
	// Script is the worker bootstrap (DefaultScript if empty).
	Script string

	once sync.Once
	w    *worker.Client
}

func (r *Runner) run(ctx context.Context, req request) (knowledge.Input, error) {
	r.once.Do(func() {
		script := r.Script
		if script == "" {
			script = DefaultScript
		}
		r.w = &worker.Client{Script: script, Name: "the importer"}
	})
	data := js.Global().Get("Uint8Array").New(len(req.data))
	js.CopyBytesToJS(data, req.data)
	msg := js.Global().Get("Object").New()
	msg.Set("type", "import")
	msg.Set("name", req.name)
	msg.Set("url", req.url)
	msg.Set("contentType", req.contentType)
	msg.Set("data", data)
	res, err := r.w.Do(ctx, worker.Call{Msg: msg, Transfer: []any{data.Get("buffer")}})
	var exit *worker.Exit
	switch {
	case errors.As(err, &exit):
		if line := exit.Panic(); line != "" {
			return knowledge.Input{}, fmt.Errorf("the importer crashed: %s", line)
		}
		return knowledge.Input{}, fmt.Errorf("the importer stopped: %s", exit.Message)
	case err != nil:
		return knowledge.Input{}, err
	}
	if e := res.Get("error"); e.Type() == js.TypeString {
		return knowledge.Input{}, errors.New(e.String())
	}
	var in knowledge.Input
	if err := json.Unmarshal([]byte(res.Get("doc").String()), &in); err != nil {
		return knowledge.Input{}, fmt.Errorf("the importer sent an unreadable result: %w", err)
	}
	return in, nil
}

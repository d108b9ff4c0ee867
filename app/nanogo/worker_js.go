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

	"tinyrag/app/worker"
)

// DefaultWorkerScript is where the app serves assets/go-worker.js, naming
// nanogo.wasm beside it.
const DefaultWorkerScript = "/web/go-worker.js?wasm=nanogo.wasm"

// workerGrace is how long past its time limit a program may take to report
// before the worker is terminated. Blocked programs are stopped by the
// sandbox itself at the limit and keep their output; a busy loop never
// yields to the sandbox's timer in wasm, so for it the terminate is what
// ends the run.
const workerGrace = 500 * time.Millisecond

// WorkerRunner runs snippets in a dedicated Web Worker holding nanogo.wasm
// (an app/worker.Client). The worker is started on first use only. A
// program that overruns Timeout gets the worker terminated, keeping what
// it printed until then, and the next call starts a fresh one. Calls are
// served one at a time. Use it as a pointer.
type WorkerRunner struct {
	// Script is the worker bootstrap (DefaultWorkerScript if empty).
	Script string
	// Timeout bounds one program's run time (DefaultTimeout if zero).
	Timeout time.Duration
	// LoadTimeout bounds starting the worker and loading its wasm
	// (one minute if zero); it is not counted against Timeout.
	LoadTimeout time.Duration
	// MaxOutput bounds stdout+stderr in bytes (DefaultMaxOutput if zero).
	MaxOutput int

	once sync.Once
	w    *worker.Client
}

// printed is what a run printed, from the worker's "output" messages: all
// that is left of a program terminated at its time limit.
type printed struct {
	mu             sync.Mutex
	stdout, stderr []byte
	cut            bool
}

// add records one "output" message.
func (p *printed) add(data js.Value) {
	d := data.Get("data")
	b := make([]byte, d.Get("length").Int())
	js.CopyBytesToGo(b, d)
	p.mu.Lock()
	defer p.mu.Unlock()
	if data.Get("stderr").Bool() {
		p.stderr = append(p.stderr, b...)
	} else {
		p.stdout = append(p.stdout, b...)
	}
	p.cut = p.cut || data.Get("cut").Bool()
}

// output is what was printed so far.
func (p *printed) output() Output {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Output{
		Stdout:    strings.ToValidUTF8(string(p.stdout), ""),
		Stderr:    strings.ToValidUTF8(string(p.stderr), ""),
		Truncated: p.cut,
	}
}

// Run implements Runner.
func (r *WorkerRunner) Run(ctx context.Context, src string) (Output, error) {
	r.once.Do(func() {
		script := r.Script
		if script == "" {
			script = DefaultWorkerScript
		}
		r.w = &worker.Client{Script: script, Name: "the sandbox worker", LoadTimeout: r.LoadTimeout}
	})
	if len(src) > DefaultMaxSource {
		return Output{}, fmt.Errorf("nanogo: the source is %d bytes, more than the %d-byte limit", len(src), DefaultMaxSource)
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	msg := js.Global().Get("Object").New()
	msg.Set("type", "run")
	msg.Set("source", src)
	msg.Set("timeoutMs", timeout.Milliseconds())
	msg.Set("maxOutput", r.MaxOutput)
	var p printed
	res, err := r.w.Do(ctx, worker.Call{
		Msg:          msg,
		Limit:        timeout + workerGrace,
		StopOnCancel: true,
		OnMessage: func(data js.Value) {
			if data.Get("type").String() == "output" {
				p.add(data)
			}
		},
	})
	if err != nil {
		return r.stopped(&p, runError(ctx, err, timeout))
	}
	var out Output
	if err := json.Unmarshal([]byte(res.Get("output").String()), &out); err != nil {
		r.w.Stop()
		return Output{}, fmt.Errorf("nanogo: the sandbox worker sent an unreadable result: %w", err)
	}
	if out.TimedOut {
		return out, fmt.Errorf("nanogo: %s: %w", out.Error, ErrTimeout)
	}
	return out, nil
}

// stopped ends a run whose worker crashed, overran or was given up on:
// what the program printed until then is kept — often it says how far a
// runaway loop got.
func (r *WorkerRunner) stopped(p *printed, err error) (Output, error) {
	out := p.output()
	out.Error, out.TimedOut = err.Error(), errors.Is(err, ErrTimeout)
	return out, err
}

// runError says why a run ended without a result.
func runError(ctx context.Context, err error, timeout time.Duration) error {
	var exit *worker.Exit
	switch {
	case errors.Is(err, worker.ErrOverran):
		return fmt.Errorf("nanogo: the program did not finish within %s; its worker was terminated: %w", timeout, ErrTimeout)
	case errors.As(err, &exit):
		// A panic in a goroutine the program started cannot be recovered
		// by the interpreter and ends the worker's Go program.
		if line := exit.Panic(); line != "" {
			return fmt.Errorf("nanogo: the program crashed: %s", line)
		}
		msg := exit.Message
		if tail := exit.Tail(3); tail != "" {
			msg += ": " + tail
		}
		return fmt.Errorf("nanogo: the sandbox worker stopped: %s", msg)
	case ctx.Err() != nil && err == context.Cause(ctx): // given up on during the run
		return fmt.Errorf("nanogo: the run was abandoned: %w", err)
	}
	return fmt.Errorf("nanogo: %w", err)
}

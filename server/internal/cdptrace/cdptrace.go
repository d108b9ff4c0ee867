// Package cdptrace records a Chromium performance trace through the
// DevTools protocol's Tracing domain, as DevTools' Performance panel
// does, for the benchmarks that look inside a page load (bench-cold in
// server/e2e, server/benchsite with -trace).
package cdptrace

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// Categories are DevTools' Performance panel's, plus V8's wasm
// compilation and its sampling profiler, whose frames name app.wasm's
// functions by index: wasm-function[N] is function N of
// bin/app-names.wasm (make size-packages).
var Categories = []string{
	"devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute",
	"disabled-by-default-v8.compile", "v8.wasm", "disabled-by-default-v8.wasm.detailed",
	"blink.user_timing", "loading", "toplevel", "__metadata", "disabled-by-default-v8.cpu_profiler",
}

// Recorder collects one trace of a browser.
type Recorder struct {
	ctx  context.Context
	mu   sync.Mutex
	evs  []json.RawMessage
	done chan struct{}
}

// Start starts recording the browser of ctx (a chromedp context).
func Start(ctx context.Context) (*Recorder, error) {
	r := &Recorder{ctx: ctx, done: make(chan struct{})}
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			r.mu.Lock()
			for _, v := range e.Value {
				r.evs = append(r.evs, json.RawMessage(v))
			}
			r.mu.Unlock()
		case *tracing.EventTracingComplete:
			close(r.done)
		}
	}); err != nil {
		return nil, err
	}
	if _, err := chromedp.Call(ctx, tracing.Start, tracing.StartParams{
		TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig:  &tracing.TraceConfig{IncludedCategories: Categories},
	}); err != nil {
		return nil, fmt.Errorf("starting the trace: %w", err)
	}
	return r, nil
}

// Stop ends the trace, writes it to file in Chrome's JSON trace format
// (which DevTools' Performance panel and Perfetto open) and returns its
// events.
func (r *Recorder) Stop(file string) ([]json.RawMessage, error) {
	if _, err := chromedp.Call(r.ctx, tracing.End, struct{}{}); err != nil {
		return nil, fmt.Errorf("ending the trace: %w", err)
	}
	select {
	case <-r.done:
	case <-time.After(30 * time.Second):
		return nil, fmt.Errorf("the trace did not complete within 30 s")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out, err := json.Marshal(map[string]any{"traceEvents": r.evs})
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return nil, err
	}
	return r.evs, os.WriteFile(file, out, 0o644)
}

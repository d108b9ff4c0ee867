package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// traceRecorder collects a Chromium performance trace (the Tracing
// domain, as DevTools' Performance panel records it) for bench-cold's
// start-up profile.
type traceRecorder struct {
	b    *browser
	mu   sync.Mutex
	evs  []json.RawMessage
	done chan struct{}
}

// traceCategories are DevTools' Performance panel's, plus V8's wasm
// compilation and its sampling profiler (whose frames name app.wasm's
// functions by index: wasm-function[N] is function N of
// bin/app-names.wasm, make size-packages).
var traceCategories = []string{
	"devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute",
	"disabled-by-default-v8.compile", "v8.wasm", "disabled-by-default-v8.wasm.detailed",
	"blink.user_timing", "loading", "toplevel", "__metadata", "disabled-by-default-v8.cpu_profiler",
}

func startTrace(t testing.TB, b *browser) *traceRecorder {
	t.Helper()
	r := &traceRecorder{b: b, done: make(chan struct{})}
	if err := chromedp.Listen(b.ctx, func(ev any) {
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
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, tracing.Start, tracing.StartParams{
		TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig:  &tracing.TraceConfig{IncludedCategories: traceCategories},
	}); err != nil {
		t.Fatalf("starting the trace: %v", err)
	}
	return r
}

// stop ends the trace, writes it to file (Chrome's JSON trace format, which
// DevTools' Performance panel and Perfetto open) and logs its summary.
func (r *traceRecorder) stop(t testing.TB, file string) {
	t.Helper()
	if _, err := chromedp.Call(r.b.ctx, tracing.End, struct{}{}); err != nil {
		t.Fatalf("ending the trace: %v", err)
	}
	select {
	case <-r.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the trace did not complete within 30 s")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out, err := json.Marshal(map[string]any{"traceEvents": r.evs})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("trace written to %s\n%s", file, summarizeTrace(r.evs))
}

// traceEvent is the part of a Chrome trace event the summary reads.
type traceEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`  // µs
	Dur  float64         `json:"dur"` // µs
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// summarizeTrace says where the renderer's main thread spent its time
// between navigation and the end of the trace (top-level tasks' children
// summed by name, so "where each 100 ms goes" is readable without opening
// the trace), and how long V8 spent compiling wasm on any thread.
func summarizeTrace(raw []json.RawMessage) string {
	var evs []traceEvent
	mains := map[[2]int]bool{}
	for _, m := range raw {
		var e traceEvent
		if json.Unmarshal(m, &e) != nil {
			continue
		}
		if e.Ph == "M" && e.Name == "thread_name" && strings.Contains(string(e.Args), `"CrRendererMain"`) {
			mains[[2]int{e.Pid, e.Tid}] = true
		}
		if e.Ph == "X" {
			evs = append(evs, e)
		}
	}
	sort.Slice(evs, func(i, j int) bool { return evs[i].Ts < evs[j].Ts })
	// On the main thread, the children of RunTask (the event loop's tasks)
	// name the work; nested children are already inside their parents.
	byName := map[string]float64{}
	wasm := map[string]float64{}
	var busy float64
	var openEnd float64 // end of the current top-level task
	var childEnd float64
	for _, e := range evs {
		if strings.Contains(strings.ToLower(e.Name), "wasm") {
			wasm[e.Name] += e.Dur
		}
		if !mains[[2]int{e.Pid, e.Tid}] {
			continue
		}
		switch {
		case e.Ts >= openEnd:
			openEnd, childEnd = e.Ts+e.Dur, e.Ts
			busy += e.Dur
			if e.Name != "RunTask" && e.Name != "ThreadControllerImpl::RunTask" {
				byName[e.Name] += e.Dur
				childEnd = openEnd
			}
		case e.Ts >= childEnd:
			byName[e.Name] += e.Dur
			childEnd = e.Ts + e.Dur
		}
	}
	var s strings.Builder
	fmt.Fprintf(&s, "renderer main thread busy %.0f ms; by task (ms):\n", busy/1e3)
	writeTop(&s, byName, 15)
	s.WriteString("wasm events on all threads (ms, nested events counted in each):\n")
	writeTop(&s, wasm, 10)
	return s.String()
}

func writeTop(s *strings.Builder, m map[string]float64, n int) {
	var names []string
	for k := range m {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return m[names[i]] > m[names[j]] })
	for i, k := range names {
		if i == n {
			break
		}
		fmt.Fprintf(s, "  %8.1f  %s\n", m[k]/1e3, k)
	}
}

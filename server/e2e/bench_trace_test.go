package e2e

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"tinyrag/server/internal/cdptrace"
)

// traceRecorder records bench-cold's start-up profile (cdptrace).
type traceRecorder struct{ rec *cdptrace.Recorder }

// startTrace starts recording b's browser.
func startTrace(t testing.TB, b *browser) *traceRecorder {
	t.Helper()
	rec, err := cdptrace.Start(b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return &traceRecorder{rec}
}

// stop ends the trace, writes it to file and logs its summary.
func (r *traceRecorder) stop(t testing.TB, file string) {
	t.Helper()
	evs, err := r.rec.Stop(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("trace written to %s\n%s", file, summarizeTrace(evs))
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

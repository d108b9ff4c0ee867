package e2e

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"tinyrag/server/internal/loadavg"
)

// BenchmarkCold_FirstVisit measures a first visit: a fresh browser profile,
// the network throttled through the DevTools protocol (10 Mbit/s, 40 ms),
// and the app loaded from the server — the case a static-site visitor or an
// embed user meets — once on this machine's CPU and once with the CPU slowed
// 4× (DevTools' mid-range phone). It is a measurement, not a pass/fail
// timing (make bench-cold runs it once, -benchtime=1x; it makes its own
// runs, not b.N of them) and prints a table of medians, with the
// machine's load average before and after, since a busy machine slows
// every figure.
//
// Per run, in the page's own clock (milliseconds after navigation): when
// app.wasm's last byte arrived (resource timing), when the composer became
// visible, when the shell reported data-ready="true", and the time between
// the last byte and ready — the start-up work a faster network cannot
// shorten. Bytes: what the page transferred until ready (DevTools: every
// response's encoded length, dedicated workers included) and all bytes the
// server sent through a counting proxy (this includes the service worker's
// install-time downloads, which page throttling does not slow down). Then a
// small knowledge set is loaded (see coldKnowledge) and the time from typing
// a query in the knowledge panel to the first highlighted hit.
//
// TINYRAG_BENCH_RUNS sets the runs per row (5); TINYRAG_BENCH_TRACE=1 logs
// each run's resource timings and the app's own marks (main started,
// stores open, ready: see coldMarkNames); TINYRAG_BENCH_PROFILE=DIR writes
// a Chromium performance trace of each row's first run into DIR and logs
// where the main thread's time went.
func BenchmarkCold_FirstVisit(b *testing.B) {
	var t testing.TB = b
	runs := 5
	if n, err := fmt.Sscan(os.Getenv("TINYRAG_BENCH_RUNS"), &runs); n != 1 || err != nil || runs < 1 {
		runs = 5
	}
	llm := newScriptedLLM(t, appScripts())
	srv := startServer(t, "--llm-url", llm.BaseURL(), "--llm-probe=false")
	docs := coldKnowledgeFiles(t)
	loadBefore := loadavg.String()

	type setting struct {
		name string
		mbit float64
		cpu  float64 // slowdown factor, 1: this machine's
	}
	var rows, marks []string
	for _, st := range []setting{{"10 Mbit/s, 40 ms RTT", 10, 1}, {"10 Mbit/s, 40 ms RTT, CPU 4× slower", 10, 4}} {
		var res []coldRun
		for i := 0; i < runs; i++ {
			trace := ""
			if dir := os.Getenv("TINYRAG_BENCH_PROFILE"); dir != "" && i == 0 {
				trace = filepath.Join(dir, fmt.Sprintf("cold-cpu%gx.json", st.cpu))
			}
			r := coldVisit(t, srv, st.mbit, st.cpu, docs, trace)
			t.Logf("%s run %d: %+v", st.name, i+1, r)
			res = append(res, r)
		}
		m := medianRun(res)
		rows = append(rows, fmt.Sprintf("| %s | %.2f MB | %.2f s | %.2f s | %.2f s | %.2f s | %.2f MB | %.2f MB | %.2f s (%.2f MB) | %d ms |",
			st.name, mb(m.wasmBytes), m.wasmEnd.Seconds(), m.composer.Seconds(), m.ready.Seconds(), m.afterWasm.Seconds(),
			mb(m.pageBytes), mb(m.wireBytes), m.load.Seconds(), mb(m.loadBytes), m.search.Milliseconds()))
		var cells []string
		for _, name := range coldMarkNames {
			cells = append(cells, fmt.Sprintf("%d ms", medianMark(res, name).Milliseconds()))
		}
		marks = append(marks, "| "+st.name+" | "+strings.Join(cells, " | ")+" |")
	}
	table := "| network | app.wasm (transfer) | app.wasm last byte | composer visible | app ready | ready − last byte | page bytes to ready | server bytes to ready | knowledge set loaded (server bytes) | first search result |\n" +
		"| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n" + strings.Join(rows, "\n")
	marksTable := "| app's marks after navigation | " + strings.Join(coldMarkNames, " | ") + " |\n|" + strings.Repeat(" --- |", len(coldMarkNames)+1) + "\n" + strings.Join(marks, "\n")
	fmt.Printf("bench-cold: median of %d runs each, fresh profile per run; load average %s before, %s after\n%s\n%s\n", runs, loadBefore, loadavg.String(), table, marksTable)
	t.Log("\n" + table + "\n" + marksTable)
}

// coldRun is one first visit's figures.
type coldRun struct {
	wasmBytes            int64         // app.wasm's transfer size
	pageBytes, wireBytes int64         // until ready
	wasmEnd              time.Duration // app.wasm's last byte, after navigation
	composer, ready      time.Duration // after navigation
	afterWasm            time.Duration // ready − app.wasm's last byte
	load                 time.Duration // loading the knowledge set
	loadBytes            int64         // server bytes that took
	search               time.Duration // typing the query to the first hit
	marks                map[string]time.Duration
}

func mb(n int64) float64 { return float64(n) / 1e6 }

// median is the middle of v (v is sorted in place).
func median(v []int64) int64 {
	sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
	return v[len(v)/2]
}

// medianRun takes each figure's median on its own.
func medianRun(rs []coldRun) coldRun {
	med := func(f func(coldRun) int64) int64 {
		v := make([]int64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		return median(v)
	}
	d := func(f func(coldRun) time.Duration) time.Duration {
		return time.Duration(med(func(r coldRun) int64 { return int64(f(r)) }))
	}
	return coldRun{
		wasmBytes: med(func(r coldRun) int64 { return r.wasmBytes }),
		pageBytes: med(func(r coldRun) int64 { return r.pageBytes }),
		wireBytes: med(func(r coldRun) int64 { return r.wireBytes }),
		wasmEnd:   d(func(r coldRun) time.Duration { return r.wasmEnd }),
		composer:  d(func(r coldRun) time.Duration { return r.composer }),
		ready:     d(func(r coldRun) time.Duration { return r.ready }),
		afterWasm: d(func(r coldRun) time.Duration { return r.afterWasm }),
		load:      d(func(r coldRun) time.Duration { return r.load }),
		loadBytes: med(func(r coldRun) int64 { return r.loadBytes }),
		search:    d(func(r coldRun) time.Duration { return r.search }),
	}
}

// coldMarkNames are the User Timing marks the app sets while it starts
// (wasm/app/main.go and the controller's Deps.Mark), in order; a mark the
// app did not set counts as 0.
var coldMarkNames = []string{"tinyrag:main", "tinyrag:routes", "tinyrag:open", "tinyrag:chats", "tinyrag:knowledge", "tinyrag:site", "tinyrag:ready"}

// medianMark is the median time of one mark over the runs.
func medianMark(rs []coldRun, name string) time.Duration {
	v := make([]int64, len(rs))
	for i, r := range rs {
		v[i] = int64(r.marks[name])
	}
	return time.Duration(median(v))
}

// coldMarks records, in the page, when things first happen, in
// milliseconds after navigation (performance.now()): polling from Go would
// add its own interval to every figure. It must cost the page next to
// nothing, or it measures itself: ready is seen by a MutationObserver
// that asks only for data-ready changes; the composer's visibility, which
// needs style and layout, is checked once a frame (where the browser
// computes them anyway), from the app's first render on, since the
// prerendered page shows a composer before app.wasm runs; the search's
// first hit is watched only once watchSearch starts it.
const coldMarks = `(() => {
  const marks = window.__cold = {};
  const seen = (el) => el && el.checkVisibility && el.checkVisibility();
  const ready = () => {
    const shell = document.getElementById("shell");
    if (!marks.ready && shell && shell.dataset.ready === "true") marks.ready = performance.now();
  };
  new MutationObserver(ready).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-ready"]});
  const frame = () => {
    ready();
    if (!marks.composer && performance.getEntriesByName("tinyrag:routes").length &&
        seen(document.getElementById("chat-input")) && !seen(document.getElementById("app-wasm-loader"))) {
      marks.composer = performance.now();
    }
    if (!marks.composer || !marks.ready) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  marks.watchSearch = () => {
    marks.searchStart = performance.now();
    const hit = () => {
      if (!marks.firstHit && document.querySelector("#panel-knowledge mark")) marks.firstHit = performance.now();
    };
    new MutationObserver(hit).observe(document, {subtree: true, childList: true, characterData: true});
  };
})();`

// coldWasm reads app.wasm's resource timing: its last byte in ms after
// navigation and its transfer size.
const coldWasm = `(() => {
  const e = performance.getEntriesByType("resource").find((e) => new URL(e.name).pathname.endsWith("/app.wasm"));
  return e ? [e.responseEnd, e.transferSize] : [0, 0];
})()`

func coldVisit(t testing.TB, srv *server, mbit, cpu float64, docs []string, traceFile string) coldRun {
	t.Helper()
	proxy := newCountingProxy(t, strings.TrimPrefix(srv.URL, "http://"))
	b := newBrowser(t, 1280, 800)
	// Each run's browser stops with it: a finished run's page, left open
	// until the benchmark ends, would share the CPU with the next runs.
	defer b.close()
	var pageBytes atomic.Int64
	if err := chromedp.Listen(b.ctx, func(ev any) {
		if e, ok := ev.(*network.EventLoadingFinished); ok {
			pageBytes.Add(int64(e.EncodedDataLength))
		}
	}); err != nil {
		t.Fatal(err)
	}
	bps := mbit * 1e6 / 8
	if _, err := chromedp.Call(b.ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Latency: 40, DownloadThroughput: bps, UploadThroughput: bps}},
	}); err != nil {
		t.Fatalf("throttling the network: %v", err)
	}
	if cpu > 1 {
		if _, err := chromedp.Call(b.ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: cpu}); err != nil {
			t.Fatalf("slowing the CPU: %v", err)
		}
	}
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: coldMarks}); err != nil {
		t.Fatal(err)
	}
	var trace *traceRecorder
	if traceFile != "" {
		trace = startTrace(t, b)
	}
	b.do(t, 2*time.Minute, "first visit until ready",
		chromedp.Navigate(proxy.url+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#shell[data-ready="true"]`)),
	)
	var r coldRun
	ms := func(name string) time.Duration {
		return time.Duration(eval[float64](t, b, "window.__cold."+name+" || 0") * float64(time.Millisecond))
	}
	r.composer, r.ready = ms("composer"), ms("ready")
	w := eval[[]float64](t, b, coldWasm)
	r.wasmEnd, r.wasmBytes = time.Duration(w[0]*float64(time.Millisecond)), int64(w[1])
	r.afterWasm = r.ready - r.wasmEnd
	r.marks = map[string]time.Duration{}
	for name, at := range eval[map[string]float64](t, b, `Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name, m.startTime]))`) {
		r.marks[name] = time.Duration(at * float64(time.Millisecond))
	}
	// Server bytes up to the moment the page marked ready, not up to when
	// Go saw it: the service worker's requests are not throttled, and what
	// it fetches once the app is ready arrives within that polling lag.
	readyAt := eval[float64](t, b, "performance.timeOrigin + window.__cold.ready")
	r.pageBytes, r.wireBytes = pageBytes.Load(), proxy.sentBy(time.Unix(0, int64(readyAt*1e6)))
	if os.Getenv("TINYRAG_BENCH_TRACE") == "1" {
		t.Logf("resources and marks:\n%s", eval[string](t, b, `performance.getEntries().map(e => [e.entryType, e.name.replace(location.origin, ""), Math.round(e.startTime), Math.round(e.responseStart||0), Math.round(e.responseEnd||e.duration||0), e.transferSize||""].join(" ")).join("\n")`))
	}
	if trace != nil {
		trace.stop(t, traceFile)
	}

	// The importer worker's requests are not the page's in DevTools, so
	// the knowledge step's bytes are counted at the proxy.
	start, before := time.Now(), proxy.sent.Load()
	coldKnowledge(t, b, docs)
	r.load, r.loadBytes = time.Since(start), proxy.sent.Load()-before

	eval[bool](t, b, `(window.__cold.watchSearch(), true)`)
	b.do(t, 10*time.Second, "search", chromedp.Click(chromedp.ID("kb-search")), chromedp.SendKeys(chromedp.ID("kb-search"), "lighthouse keeper"))
	waitJS(t, b, 20*time.Second, "first search hit", `window.__cold.firstHit`)
	r.search = ms("firstHit") - ms("searchStart")
	return r
}

// coldKnowledgeFiles writes the small knowledge set: eight short Markdown
// notes, one of them about what the benchmark searches for.
func coldKnowledgeFiles(t testing.TB) []string {
	t.Helper()
	dir := t.TempDir()
	topics := []string{"kettles", "bicycles", "tides", "orchards", "printing presses", "glaciers", "violins", "lighthouses"}
	var out []string
	for i, topic := range topics {
		var s strings.Builder
		fmt.Fprintf(&s, "# Notes on %s\n\n", topic)
		for p := 0; p < 12; p++ {
			fmt.Fprintf(&s, "Paragraph %d about %s: how %s are made, kept and repaired, and who depends on them day to day.\n\n", p+1, topic, topic)
		}
		if topic == "lighthouses" {
			s.WriteString("## The keeper\n\nA lighthouse keeper trimmed the wick, wound the clockwork and logged every passing ship.\n")
		}
		p := filepath.Join(dir, fmt.Sprintf("%02d-%s.md", i, strings.ReplaceAll(topic, " ", "-")))
		if err := os.WriteFile(p, []byte(s.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// coldKnowledge loads the knowledge set the way a first visitor would
// today: importing files through the knowledge panel (which loads the
// importer worker). It is its own step so a prebuilt bundle can replace it.
func coldKnowledge(t testing.TB, b *browser, files []string) {
	t.Helper()
	b.do(t, 5*time.Second, "open knowledge tab", chromedp.Click(chromedp.ID("tab-knowledge")))
	b.do(t, 10*time.Second, "import files", chromedp.SetUploadFiles(chromedp.ID("kb-files"), files))
	waitJS(t, b, 2*time.Minute, "all files listed",
		fmt.Sprintf(`document.querySelectorAll("#doc-list .doc-title").length >= %d && !document.getElementById("kb-progress")`, len(files)))
}

// countingProxy forwards loopback TCP to the server and counts what the
// server sends, whoever asked (page, workers, service worker), with when.
type countingProxy struct {
	url  string
	sent atomic.Int64

	mu       sync.Mutex
	timeline []sentAt
}

// sentAt is the proxy's running total after one write.
type sentAt struct {
	at    time.Time
	total int64
}

// sentBy is what the server had sent by the instant at.
func (p *countingProxy) sentBy(at time.Time) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	var n int64
	for _, s := range p.timeline {
		if s.at.After(at) {
			break
		}
		n = s.total
	}
	return n
}

func newCountingProxy(t testing.TB, target string) *countingProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &countingProxy{url: "http://" + ln.Addr().String()}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				s, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer s.Close()
				go func() { io.Copy(s, c); s.(*net.TCPConn).CloseWrite() }()
				io.Copy(countingWriter{c, p}, s)
			}()
		}
	}()
	return p
}

// countingWriter counts as it writes, so the count is current while
// connections stay open (keep-alive).
type countingWriter struct {
	w io.Writer
	p *countingProxy
}

func (c countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.p.mu.Lock()
	c.p.timeline = append(c.p.timeline, sentAt{time.Now(), c.p.sent.Add(int64(n))})
	c.p.mu.Unlock()
	return n, err
}

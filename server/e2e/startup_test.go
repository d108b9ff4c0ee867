package e2e

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// wasmLoad is what one page load did with app.wasm: the network's requests
// for it and V8's wasm trace events (category v8.wasm).
type wasmLoad struct {
	mu       sync.Mutex
	page     float64                           // the page's request, seconds
	requests []*network.EventRequestWillBeSent // app.wasm
	siblings []*network.EventRequestWillBeSent // app.wasm.gz
	mime     map[network.RequestID]string
	finished map[network.RequestID]float64 // seconds
	canceled map[network.RequestID]bool
	received map[network.RequestID]int64 // bytes over the line
	events   []traceEvent
	complete chan struct{}
}

// watchLoaderLabel records every text go-app's loading label shows, in
// window.__loaderLabels.
const watchLoaderLabel = `(() => {
  window.__loaderLabels = [];
  new MutationObserver(() => {
    const l = document.getElementById("app-wasm-loader-label");
    const s = l && l.innerText;
    if (s && window.__loaderLabels[window.__loaderLabels.length - 1] !== s) window.__loaderLabels.push(s);
  }).observe(document, {subtree: true, childList: true, characterData: true});
})()`

var percent = regexp.MustCompile(`(\d+)%`)

// traceWasmLoad loads url in b, on a line throttled to bytesPerSec, until
// the app is ready, recording the page's requests and V8's wasm trace
// events.
func traceWasmLoad(t *testing.T, b *browser, url string, bytesPerSec float64) *wasmLoad {
	t.Helper()
	l := &wasmLoad{mime: map[network.RequestID]string{}, finished: map[network.RequestID]float64{}, canceled: map[network.RequestID]bool{},
		received: map[network.RequestID]int64{}, complete: make(chan struct{})}
	ctx, stop := context.WithCancel(b.ctx)
	defer stop()
	if err := chromedp.Listen(ctx, func(ev any) {
		l.mu.Lock()
		defer l.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			if e.Type == network.ResourceTypeDocument && l.page == 0 {
				l.page = float64(e.Timestamp)
			}
			if strings.HasSuffix(e.Request.URL, "/web/app.wasm") {
				l.requests = append(l.requests, e)
			}
			if strings.HasSuffix(e.Request.URL, "/web/app.wasm.gz") {
				l.siblings = append(l.siblings, e)
			}
		case *network.EventResponseReceived:
			l.mime[e.RequestID] = e.Response.MimeType
		case *network.EventDataReceived:
			l.received[e.RequestID] += e.EncodedDataLength
		case *network.EventLoadingFinished:
			l.finished[e.RequestID] = float64(e.Timestamp)
		case *network.EventLoadingFailed:
			l.canceled[e.RequestID] = e.Canceled
		case *tracing.EventDataCollected:
			for _, v := range e.Value {
				var te traceEvent
				if json.Unmarshal(v, &te) == nil && strings.HasPrefix(te.Name, "wasm.") {
					l.events = append(l.events, te)
				}
			}
		case *tracing.EventTracingComplete:
			close(l.complete)
		}
	}); err != nil {
		t.Fatal(err)
	}
	setNetwork(t, b, false, bytesPerSec, 0)
	b.do(t, 10*time.Second, "start tracing", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.Start, tracing.StartParams{
			TransferMode: tracing.StartTransferModeReportEvents,
			TraceConfig:  &tracing.TraceConfig{IncludedCategories: []string{"v8.wasm"}},
		})
		return err
	}))
	openApp(t, b, url)
	b.do(t, 10*time.Second, "end tracing", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.End, cdp.Empty{})
		return err
	}))
	select {
	case <-l.complete:
	case <-time.After(30 * time.Second):
		t.Fatal("the trace did not complete within 30s")
	}
	return l
}

// On `tinyrag serve` and on a plain static host alike, app.wasm is
// requested by the page's <link rel=preload> as the HTML is parsed (one
// request: go-app's app.js takes the preloaded response instead of
// fetching again), is served as application/wasm, and V8 compiles it while
// it streams: its bytes reach WebAssembly's streaming compiler
// (instantiateStreaming) in several parts, the first before the download
// has finished. A plain host sends app.wasm as it lies on disk (no
// Content-Encoding): the loader then takes its .gz sibling, a fourth of
// the bytes, and cancels the preload's download once the sibling answers
// (server/webapp/loader.go); the sibling, inflated in the page, streams
// into the compiler the same way. The line is throttled so that the download takes a
// second or more, as on a first visit over a real network: on loopback the
// preload can finish before app.js even runs, and then there is nothing
// left to overlap.
func TestStartup_WasmIsPreloadedWithThePageAndCompiledWhileItStreams(t *testing.T) {
	for _, tc := range []struct {
		name string
		url  func(t *testing.T) string
		line float64 // bytes per second: about 1.5 s for the bytes sent
		// sibling: the host sends app.wasm as it is, so the loader takes
		// app.wasm.gz instead
		sibling bool
	}{
		// brotli, 2 MB
		{"serve", func(t *testing.T) string { return startServer(t, "--llm-probe=false").URL + "/" }, 2 << 20, false},
		// gzip, 3 MB: a plain host sends app.wasm as it is (12 MB)
		{"static site on a plain host", func(t *testing.T) string { return siteAnywhere(t).URL + anywherePath }, 2 << 20, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url(t)
			b := newBrowser(t, 1280, 800)
			if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: watchLoaderLabel}); err != nil {
				t.Fatal(err)
			}
			l := traceWasmLoad(t, b, url, tc.line)
			// The loader's label counts app.wasm's bytes as they arrive
			// (a clone of the response the compiler reads).
			labels := eval[[]string](t, b, `window.__loaderLabels || []`)
			var between bool
			for _, s := range labels {
				m := percent.FindStringSubmatch(s)
				if m == nil {
					continue
				}
				if n, _ := strconv.Atoi(m[1]); n > 100 {
					t.Errorf("the loader's label shows %q: past 100 %%", s)
				} else if n > 0 && n < 100 {
					between = true
				}
			}
			if !between {
				t.Errorf("the loader's label never showed progress between 0 and 100 %%: %q", labels)
			}
			l.mu.Lock()
			defer l.mu.Unlock()

			if len(l.requests) != 1 {
				t.Fatalf("app.wasm requested %d times, want once (the preload, taken over by app.js)", len(l.requests))
			}
			req := l.requests[0]
			if req.Initiator == nil || req.Initiator.Type != network.InitiatorTypeParser {
				t.Errorf("app.wasm requested by %+v, want the parser (the page's preload), not a script", req.Initiator)
			}
			if m := l.mime[req.RequestID]; m != "application/wasm" {
				t.Errorf("app.wasm served as %q, want application/wasm (streaming compilation needs it)", m)
			}
			done := l.finished[req.RequestID]
			if tc.sibling {
				if len(l.siblings) != 1 {
					t.Fatalf("app.wasm.gz requested %d times, want once", len(l.siblings))
				}
				if done != 0 || !l.canceled[req.RequestID] {
					t.Errorf("the plain app.wasm was not canceled (finished at %.3f, canceled %v)", done, l.canceled[req.RequestID])
				}
				if n := l.received[req.RequestID]; n > 4<<20 {
					t.Errorf("%d bytes of the plain app.wasm came over the line before it was canceled", n)
				}
				gz := l.siblings[0].RequestID
				t.Logf("plain app.wasm: %d bytes before it was canceled; app.wasm.gz: %d bytes", l.received[req.RequestID], l.received[gz])
				req, done = l.siblings[0], l.finished[gz]
			} else if len(l.siblings) != 0 {
				t.Errorf("app.wasm.gz requested from a host that compresses")
			}
			if done == 0 {
				t.Fatal("app.wasm's download never finished")
			}

			var streaming, finish int
			var parts []traceEvent
			for _, e := range l.events {
				switch e.Name {
				case "wasm.StartStreamingCompilation":
					streaming++
				case "wasm.OnBytesReceived":
					parts = append(parts, e)
				case "wasm.FinishStreaming":
					finish++
				}
			}
			if streaming != 1 || finish != 1 {
				t.Fatalf("streaming compilations started %d, finished %d; want one each (trace: %d wasm events)", streaming, finish, len(l.events))
			}
			if len(parts) < 2 {
				t.Fatalf("V8 received the module in %d parts, want it while it streams", len(parts))
			}
			if first := parts[0].Ts / 1e6; first >= done {
				t.Errorf("V8 received its first bytes %.0f ms after the download finished, want them before", (first-done)*1000)
			}
			t.Logf("app.wasm requested %.0f ms after the page, downloaded %.0f ms later; V8 compiled it in %d parts, the first %.0f ms before the download ended",
				(float64(req.Timestamp)-l.page)*1000, (done-float64(req.Timestamp))*1000, len(parts), (done-parts[0].Ts/1e6)*1000)
		})
	}
}

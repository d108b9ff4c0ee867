package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"tinyrag/server/internal/cdptrace"
)

// variant is how a visit meets the slow network.
type variant int

const (
	// devtools throttles the page's requests through the DevTools
	// protocol, with the service worker script blocked (DevTools does
	// not throttle a worker's requests).
	devtools variant = iota
	// proxied sends everything through the throttling proxy, the
	// service worker allowed: its background downloads share the line.
	proxied
)

func (v variant) String() string {
	if v == devtools {
		return "a: DevTools, no worker"
	}
	return "b: proxy, worker"
}

// net is the network the visits emulate.
const (
	netBitsPerSec = 10e6
	netLatency    = 40 * time.Millisecond
)

// visitResult is one first visit's figures. Times are from navigation
// (the page's time origin).
type visitResult struct {
	Ready, Results time.Duration
	Hits           int
	First          string // the first result's title
	// SiteBytes and AppBytes arrived before the first results (before
	// ready when the visit makes no query): site data (the bundle's
	// files, or Pagefind's) and the rest.
	SiteBytes, AppBytes int64
	Err                 string
	// Trace lists the site-data requests the page made itself (the
	// site config too), from its resource timing: path, start and end
	// in ms after navigation. A worker's requests are not in it.
	Trace string
}

// visitSpec says what one visit does.
type visitSpec struct {
	url     string // the page to open
	query   string // what the visit searches for ("" for none); the Pagefind page reads it from url
	tinyRAG bool   // the tinyRAG app (else the Pagefind search page)
	variant variant
	proxy   *throttle // variant proxied: the proxy url points at
	chrome  string
	timeout time.Duration
	trace   string // a file for the visit's performance trace ("": none)
}

// isSiteData reports whether a URL path is site data: a tinyRAG bundle's
// file or anything Pagefind loads.
func isSiteData(p string) bool {
	return strings.Contains(p, "/bundles/") || strings.HasPrefix(p, "/pagefind/")
}

// tinyRAGMarks runs in the app's page from its first script on and
// records, in milliseconds after navigation, when the app is ready and
// when the first results show; as soon as the app is ready it opens the
// knowledge tab and puts the query into the search box at once (as a
// paste would), so that what it measures is the whole query's search.
const tinyRAGMarks = `(() => {
  const bench = window.__bench = {};
  const query = %s;
  let asked = false;
  const check = () => {
    const now = performance.now();
    const shell = document.getElementById("shell");
    if (!bench.ready && shell && shell.dataset.ready === "true") { bench.ready = now; performance.mark("bench:ready"); }
    if (!bench.ready || !query) return;
    if (!asked) {
      const box = document.getElementById("kb-search");
      if (!box) {
        const tab = document.getElementById("tab-knowledge");
        if (tab && !bench.tab) { bench.tab = now; tab.click(); }
        return;
      }
      asked = true;
      bench.asked = performance.now();
      performance.mark("bench:asked");
      box.value = query;
      box.dispatchEvent(new Event("input", {bubbles: true}));
      return;
    }
    if (bench.results) return;
    const hits = document.querySelectorAll("#kb-hits .hit");
    if (hits.length) {
      bench.results = now;
      performance.mark("bench:results");
      bench.hits = hits.length;
      bench.first = (hits[0].querySelector("strong") || hits[0]).textContent;
      return;
    }
    const panel = document.getElementById("panel-knowledge");
    const err = panel && panel.querySelector(".form-error");
    if (err && !bench.error) bench.error = err.textContent;
    const none = panel && [...panel.querySelectorAll(".empty-hint")].find((e) => e.previousElementSibling && e.previousElementSibling.id === "kb-search");
    if (none && !bench.noHits) bench.noHits = now;
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();`

// traceJS lists the page's site-data requests from its resource timing,
// then the app's own marks (tinyrag:…, app/control) and when the visit
// asked its query: where the time between ready and results goes.
const traceJS = `performance.getEntriesByType("resource")
  .filter((e) => /\/bundles\/|tinyrag\.json|\/pagefind\/|\/app\.wasm$/.test(e.name))
  .map((e) => new URL(e.name).pathname.replace(/^.*\/bundles\/[^/]+\//, "").replace(/^.*\/(pagefind|tinyrag)/, "$1").slice(0, 14) + " " + Math.round(e.startTime) + "-" + Math.round(e.responseEnd))
  .concat(performance.getEntriesByType("mark").filter((m) => m.name.startsWith("tinyrag:"))
    .map((m) => "mark " + m.name.slice(8) + " " + Math.round(m.startTime)))
  .concat(window.__bench && window.__bench.tab ? ["tab " + Math.round(window.__bench.tab)] : [])
  .concat(window.__bench && window.__bench.asked ? ["asked " + Math.round(window.__bench.asked)] : [])
  .join(", ")`

// benchState is window.__bench as the page left it.
type benchState struct {
	Ready   float64 `json:"ready"`
	Results float64 `json:"results"`
	NoHits  float64 `json:"noHits"`
	Hits    int     `json:"hits"`
	First   string  `json:"first"`
	Error   string  `json:"error"`
	Origin  float64 `json:"origin"` // performance.timeOrigin, ms since the epoch
}

// finished is the JavaScript that reports whether a visit is done.
func finished(query string) string {
	if query == "" {
		return `!!(window.__bench && window.__bench.ready)`
	}
	return `!!(window.__bench && (window.__bench.results || window.__bench.error))`
}

// visit opens spec.url in a fresh headless Chromium (an empty profile) and
// measures it.
func visit(parent context.Context, spec visitSpec) (visitResult, error) {
	ctx, done, err := startChromium(parent, spec.chrome)
	if err != nil {
		return visitResult{}, err
	}
	defer done()

	log := &netLog{urls: map[string]string{}}
	if err := chromedp.Listen(ctx, log.listener("page")); err != nil {
		return visitResult{}, err
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		return visitResult{}, err
	}
	if spec.variant == devtools {
		if err := throttleTarget(ctx); err != nil {
			return visitResult{}, err
		}
		if spec.tinyRAG {
			u, _ := url.Parse(spec.url)
			worker := u.Scheme + "://" + u.Host + strings.TrimSuffix(u.Path, "/") + "/app-worker.js"
			if _, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{
				URLPatterns: []*network.BlockPattern{{URLPattern: worker, Block: true}},
			}); err != nil {
				return visitResult{}, fmt.Errorf("blocking the service worker: %w", err)
			}
		}
		if _, err := chromedp.Call(ctx, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true}); err != nil {
			return visitResult{}, err
		}
		// A dedicated worker's requests are neither throttled nor
		// reported by the page's DevTools session (Pagefind searches in
		// one): each worker is held at its start until it is throttled
		// and listened to as well.
		if err := throttleWorkers(ctx, log); err != nil {
			return visitResult{}, err
		}
	}
	if spec.tinyRAG {
		q, _ := json.Marshal(spec.query)
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(tinyRAGMarks, q)}); err != nil {
			return visitResult{}, err
		}
	}
	if spec.proxy != nil {
		spec.proxy.reset()
	}

	if spec.trace != "" {
		rec, err := cdptrace.Start(ctx)
		if err != nil {
			return visitResult{}, err
		}
		defer func() {
			if _, err := rec.Stop(spec.trace); err != nil {
				fmt.Fprintf(os.Stderr, "bench-site: trace %s: %v\n", spec.trace, err)
			}
		}()
	}
	tctx, tcancel := context.WithTimeout(ctx, spec.timeout)
	defer tcancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(spec.url)); err != nil {
		if parent.Err() != nil {
			return visitResult{}, parent.Err()
		}
		return visitResult{Err: fmt.Sprintf("opening %s: %v (%s)", spec.url, err, strings.Join(log.failures(), "; "))}, nil
	}
	var st benchState
	for {
		done, err := chromedp.Run(tctx, chromedp.Evaluate[bool](finished(spec.query)))
		if err == nil && done {
			break
		}
		if tctx.Err() != nil {
			b, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.__bench || {})`))
			return visitResult{Err: fmt.Sprintf("not done within %s (page state %s; %s)", spec.timeout, b, strings.Join(log.failures(), "; "))}, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	st, err = chromedp.Run(ctx, chromedp.Evaluate[benchState](`({...window.__bench, origin: performance.timeOrigin})`))
	if err != nil {
		return visitResult{}, err
	}
	ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	r := visitResult{Ready: ms(st.Ready), Results: ms(st.Results), Hits: st.Hits, First: st.First, Err: st.Error}
	r.Trace, _ = chromedp.Run(ctx, chromedp.Evaluate[string](traceJS))
	until := st.Ready
	if spec.query != "" {
		until = st.Results
	}
	if r.Err == "" && spec.query != "" && st.Results == 0 {
		r.Err = "no results"
	}
	cutoff := (st.Origin + until) / 1000 // s since the epoch

	// Requests that finish within a few milliseconds of the mark may
	// still be on their way to us.
	time.Sleep(200 * time.Millisecond)
	if spec.proxy != nil {
		r.SiteBytes, r.AppBytes = spec.proxy.sentBefore(time.UnixMicro(int64(cutoff*1e6)), isSiteData)
		return r, nil
	}
	site, app, err := log.before(cutoff, isSiteData)
	if err != nil {
		return r, err
	}
	r.SiteBytes, r.AppBytes = site, app
	return r, nil
}

// startChromium starts a headless Chromium with an empty profile (the
// e2e harness's flags) on about:blank; done stops it and removes the
// profile.
func startChromium(parent context.Context, chrome string) (ctx context.Context, done func(), err error) {
	profile, err := os.MkdirTemp("", "bench-site-profile-")
	if err != nil {
		return nil, nil, err
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(parent,
		chromedp.ExecPath(chrome),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 800),
	)
	ctx, cancel := chromedp.NewContext(actx)
	done = func() {
		cancel()
		cancelAlloc()
		os.RemoveAll(profile)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		done()
		return nil, nil, fmt.Errorf("starting Chromium (%s): %w", chrome, err)
	}
	return ctx, done, nil
}

// throttleTarget applies the slow network to a target's requests.
func throttleTarget(ctx context.Context) error {
	bps := netBitsPerSec / 8
	if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Latency: float64(netLatency.Milliseconds()), DownloadThroughput: bps, UploadThroughput: bps}},
	}); err != nil {
		return fmt.Errorf("throttling the network: %w", err)
	}
	return nil
}

// throttleWorkers has the page's new targets wait at their start; each
// dedicated worker is then throttled and its requests logged before it
// runs. Every target is let run even if that fails.
func throttleWorkers(ctx context.Context, log *netLog) error {
	attached := make(chan *target.EventAttachedToTarget, 64)
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*target.EventAttachedToTarget); ok {
			select {
			case attached <- e:
			case <-ctx.Done():
			}
		}
	}); err != nil {
		return err
	}
	go func() {
		for {
			var e *target.EventAttachedToTarget
			select {
			case e = <-attached:
			case <-ctx.Done():
				return
			}
			go holdWorker(ctx, e, log)
		}
	}()
	// Only dedicated workers are held: an iframe or another page would
	// need more than this to be let go.
	flatten := true
	_, err := chromedp.Call(ctx, target.SetAutoAttach, target.SetAutoAttachParams{
		AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: &flatten,
		Filter: target.Filter{{Type: "worker"}, {Exclude: true}},
	})
	return err
}

// holdWorker throttles and listens to a worker waiting at its start, then
// lets it run.
func holdWorker(ctx context.Context, e *target.EventAttachedToTarget, log *netLog) {
	// The first call starts the session, which lasts as long as the
	// context it gets: the visit's.
	wctx, _ := chromedp.NewContext(ctx, chromedp.WithTargetID(e.TargetInfo.TargetID), chromedp.WithListener(log.listener(string(e.TargetInfo.TargetID))))
	if _, err := chromedp.Call(wctx, network.Enable, network.EnableParams{}); err != nil {
		log.fail("worker " + e.TargetInfo.URL + ": " + err.Error())
	} else if err := throttleTarget(wctx); err != nil {
		log.fail("worker " + e.TargetInfo.URL + ": " + err.Error())
	}
	if _, err := chromedp.Call(wctx, runtime.RunIfWaitingForDebugger, cdp.Empty{}); err != nil {
		log.fail("starting worker " + e.TargetInfo.URL + ": " + err.Error())
	}
}

// netLog is what DevTools reported of a visit's requests, from the page
// and its workers: their URLs, when each finished and its encoded length
// (headers included). The first request pairs DevTools' monotonic clock
// with the wall clock.
type netLog struct {
	mu       sync.Mutex
	urls     map[string]string // session + request id → URL
	finishes []finish
	monoAt   float64 // a request's monotonic timestamp, s
	wallAt   float64 // and its wall time, s since the epoch
	problems []string
}

type finish struct {
	key   string
	at    float64 // monotonic, s
	bytes float64
}

// listener records the network events of one session.
func (l *netLog) listener(session string) func(ev any) {
	return func(ev any) {
		l.mu.Lock()
		defer l.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			l.urls[session+"/"+string(e.RequestID)] = e.Request.URL
			if l.wallAt == 0 {
				l.monoAt, l.wallAt = e.Timestamp.Float64(), e.WallTime.Float64()
			}
		case *network.EventLoadingFinished:
			l.finishes = append(l.finishes, finish{session + "/" + string(e.RequestID), e.Timestamp.Float64(), e.EncodedDataLength})
		case *network.EventLoadingFailed:
			if !e.Canceled && e.BlockedReason == "" {
				l.problems = append(l.problems, fmt.Sprintf("load failed: %s %s", l.urls[session+"/"+string(e.RequestID)], e.ErrorText))
			}
		}
	}
}

func (l *netLog) fail(msg string) {
	l.mu.Lock()
	l.problems = append(l.problems, msg)
	l.mu.Unlock()
}

func (l *netLog) failures() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.problems...)
}

// before adds up the bytes of the requests that finished by cutoff (s
// since the epoch), split by whether site(path) holds.
func (l *netLog) before(cutoff float64, site func(string) bool) (siteBytes, other int64, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wallAt == 0 {
		return 0, 0, errors.New("DevTools reported no request")
	}
	for _, f := range l.finishes {
		if l.wallAt+(f.at-l.monoAt) > cutoff {
			continue
		}
		u, err := url.Parse(l.urls[f.key])
		if err != nil {
			continue
		}
		if site(u.Path) {
			siteBytes += int64(f.bytes)
		} else {
			other += int64(f.bytes)
		}
	}
	return siteBytes, other, nil
}

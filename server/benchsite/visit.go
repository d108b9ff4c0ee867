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

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
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
    if (!bench.ready && shell && shell.dataset.ready === "true") bench.ready = now;
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
      box.value = query;
      box.dispatchEvent(new Event("input", {bubbles: true}));
      return;
    }
    if (bench.results) return;
    const hits = document.querySelectorAll("#kb-hits .hit");
    if (hits.length) {
      bench.results = now;
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
	profile, err := os.MkdirTemp("", "bench-site-profile-")
	if err != nil {
		return visitResult{}, err
	}
	defer os.RemoveAll(profile)
	actx, cancelAlloc := chromedp.NewExecAllocator(parent,
		chromedp.ExecPath(spec.chrome),
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
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		return visitResult{}, fmt.Errorf("starting Chromium (%s): %w", spec.chrome, err)
	}

	// The page's requests as DevTools sees them: their URLs, when each
	// finished and its encoded length (headers included). The document
	// request pairs DevTools' monotonic clock with the wall clock.
	var (
		mu       sync.Mutex
		urls     = map[network.RequestID]string{}
		finishes []*network.EventLoadingFinished
		monoAt   float64 // a request's monotonic timestamp, s
		wallAt   float64 // and its wall time, s since the epoch
		problems []string
	)
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			urls[e.RequestID] = e.Request.URL
			if wallAt == 0 {
				monoAt, wallAt = e.Timestamp.Float64(), e.WallTime.Float64()
			}
		case *network.EventLoadingFinished:
			finishes = append(finishes, e)
		case *network.EventLoadingFailed:
			if !e.Canceled && e.BlockedReason == "" {
				problems = append(problems, fmt.Sprintf("load failed: %s %s", urls[e.RequestID], e.ErrorText))
			}
		}
	}); err != nil {
		return visitResult{}, err
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		return visitResult{}, err
	}
	if spec.variant == devtools {
		bps := netBitsPerSec / 8
		if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Latency: float64(netLatency.Milliseconds()), DownloadThroughput: bps, UploadThroughput: bps}},
		}); err != nil {
			return visitResult{}, fmt.Errorf("throttling the network: %w", err)
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

	tctx, tcancel := context.WithTimeout(ctx, spec.timeout)
	defer tcancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(spec.url)); err != nil {
		return visitResult{}, fmt.Errorf("opening %s: %w", spec.url, err)
	}
	var st benchState
	for {
		done, err := chromedp.Run(tctx, chromedp.Evaluate[bool](finished(spec.query)))
		if err == nil && done {
			break
		}
		if tctx.Err() != nil {
			b, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.__bench || {})`))
			mu.Lock()
			defer mu.Unlock()
			return visitResult{Err: fmt.Sprintf("not done within %s (page state %s; %s)", spec.timeout, b, strings.Join(problems, "; "))}, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	st, err = chromedp.Run(ctx, chromedp.Evaluate[benchState](`({...window.__bench, origin: performance.timeOrigin})`))
	if err != nil {
		return visitResult{}, err
	}
	ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	r := visitResult{Ready: ms(st.Ready), Results: ms(st.Results), Hits: st.Hits, First: st.First, Err: st.Error}
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
	mu.Lock()
	defer mu.Unlock()
	if wallAt == 0 {
		return r, errors.New("DevTools reported no request")
	}
	for _, f := range finishes {
		if wallAt+(f.Timestamp.Float64()-monoAt) > cutoff {
			continue
		}
		u, err := url.Parse(urls[f.RequestID])
		if err != nil {
			continue
		}
		if isSiteData(u.Path) {
			r.SiteBytes += int64(f.EncodedDataLength)
		} else {
			r.AppBytes += int64(f.EncodedDataLength)
		}
	}
	return r, nil
}

package e2e

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// setNetwork switches the browser's network through the DevTools
// protocol: off, throttled to bytesPerSec (0: unthrottled), or on again.
// It covers the page, its service worker, and navigator.onLine (which
// fires the page's online and offline events).
func setNetwork(t *testing.T, b *browser, offline bool, bytesPerSec, latencyMs float64) {
	t.Helper()
	down := bytesPerSec
	if down == 0 {
		down = -1
	}
	b.do(t, 10*time.Second, "network conditions", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			EmulateOfflineServiceWorker: &offline,
			MatchedNetworkConditions: []*network.Conditions{{
				Offline: offline, Latency: latencyMs, DownloadThroughput: down, UploadThroughput: -1,
			}},
		}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, network.OverrideNetworkState, network.OverrideNetworkStateParams{
			Offline: offline, Latency: latencyMs, DownloadThroughput: down, UploadThroughput: -1,
		})
		return err
	}))
}

// waitWorker waits until a service worker controls the page, its
// version's cache exists, and everything kept for offline use is stored
// (what a first install leaves for after the app is ready included).
func waitWorker(t *testing.T, b *browser) {
	t.Helper()
	waitJS(t, b, 60*time.Second, "service worker in control", `navigator.serviceWorker.controller !== null`)
	waitJS(t, b, 30*time.Second, "version cache present",
		`(async () => (await caches.keys()).includes(await `+versionCache+`))()`)
	waitOfflineReady(t, b)
}

// waitOfflineReady waits until pwa.js reports that the worker stored
// everything kept for offline use, failing with what it says is missing.
func waitOfflineReady(t *testing.T, b *browser) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !eval[bool](t, b, `window.tinyragPWA.offlineReady`) {
		if time.Now().After(deadline) {
			t.Fatalf("not everything stored for offline use within 60s: %q", eval[string](t, b, `window.tinyragPWA.offlineError`))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkInstallable fails the test for every installability error Chromium
// reports and every manifest error, and returns the manifest as Chromium
// processed it (URLs resolved).
func checkInstallable(t *testing.T, b *browser) *page.WebAppManifest {
	t.Helper()
	var errs []*page.InstallabilityError
	b.do(t, 20*time.Second, "installability", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := cdp.Call(ctx, tg, page.GetInstallabilityErrors, cdp.Empty{})
		errs = res.InstallabilityErrors
		return err
	}))
	for _, e := range errs {
		t.Errorf("installability error: %s %v", e.ErrorID, e.ErrorArguments)
	}
	var m *page.GetAppManifestResult
	b.do(t, 20*time.Second, "manifest", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := cdp.Call(ctx, tg, page.GetAppManifest, page.GetAppManifestParams{})
		m = &res
		return err
	}))
	for _, e := range m.Errors {
		t.Errorf("manifest error: %+v", *e)
	}
	if m.Manifest == nil {
		t.Fatalf("no processed manifest (at %q)", m.URL)
	}
	return m.Manifest
}

// versionCaches lists the page origin's Cache Storage without the site
// data's caches (kept across versions): the caches of app versions.
const versionCaches = `(async () => (await caches.keys()).filter((k) => !k.endsWith("-site")).sort().join(","))()`

// cachePrefix is, in the page, how the worker in charge names its caches:
// for its scope (server/pwa/worker.js), "tinyrag-" at the origin's root,
// "tinyrag@/sub/-" in /sub/.
const cachePrefix = `(async () => {
  const p = new URL((await navigator.serviceWorker.getRegistration()).scope).pathname;
  return p === "/" ? "tinyrag-" : "tinyrag@" + p + "-"; })()`

// versionCache is, in the page, the name of its version's cache.
const versionCache = `(async () => (await ` + cachePrefix + `) + window.tinyragPWA.version)()`

// cacheNames lists the app versions' caches (versionCaches).
func cacheNames(t *testing.T, b *browser) string {
	t.Helper()
	return eval[string](t, b, versionCaches)
}

// workerVersionOf reads the version from the worker script a server serves.
func workerVersionOf(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "/app-worker.js")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`const VERSION = "([0-9a-f]+)";`).FindSubmatch(body)
	if m == nil {
		t.Fatalf("no version in %s/app-worker.js", base)
	}
	return string(m[1])
}

// controllerVersion asks the worker in control of the page its version.
const controllerVersion = `new Promise((resolve) => {
  const ch = new MessageChannel();
  ch.port1.onmessage = (e) => resolve(e.data.version);
  navigator.serviceWorker.controller.postMessage({type: "tinyrag:version"}, [ch.port2]);
  setTimeout(() => resolve("no answer"), 5000);
})`

// front is a fixed address in front of changing tinyrag servers: a
// browser's service worker belongs to one origin, so "deploying" a new
// version means a new server behind the same origin. It can also break
// one path's downloads, as a flaky network or a half-finished deploy does.
type front struct {
	URL string
	srv *http.Server

	mu      sync.Mutex
	backend *url.URL
	fault   map[string]string // path → "500" or "truncate"
	full    map[string]int    // path → responses with a body (200), not 304
}

// fullDownloads counts the responses for path that carried the file.
func (f *front) fullDownloads(path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.full[path]
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func newFront(t *testing.T) *front {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &front{URL: "http://" + ln.Addr().String(), fault: map[string]string{}, full: map[string]int{}}
	f.srv = &http.Server{Handler: http.HandlerFunc(f.serve)}
	go f.srv.Serve(ln)
	t.Cleanup(func() { f.srv.Close() })
	return f
}

// use sends all traffic to the server at base from now on.
func (f *front) use(base string) {
	u, _ := url.Parse(base)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.backend = u
}

// breakPath makes downloads of path fail ("500") or arrive cut in half
// with a matching Content-Length ("truncate"); "" heals it.
func (f *front) breakPath(path, how string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if how == "" {
		delete(f.fault, path)
	} else {
		f.fault[path] = how
	}
}

func (f *front) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	backend, fault := f.backend, f.fault[r.URL.Path]
	f.mu.Unlock()
	if backend == nil {
		http.Error(w, "no server deployed", http.StatusBadGateway)
		return
	}
	switch fault {
	case "500":
		http.Error(w, "deploy broken", http.StatusInternalServerError)
		return
	case "truncate":
		req, _ := http.NewRequest(r.Method, backend.String()+r.URL.RequestURI(), nil)
		resp, err := http.DefaultTransport.RoundTrip(req) // identity encoding: the cut is in the real bytes
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		half := body[:len(body)/2]
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.Header().Set("Content-Length", strconv.Itoa(len(half)))
		w.Write(half)
		return
	}
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	httputil.NewSingleHostReverseProxy(backend).ServeHTTP(rec, r)
	if rec.status == http.StatusOK {
		f.mu.Lock()
		f.full[r.URL.Path]++
		f.mu.Unlock()
	}
}

// deploy starts a tinyrag server with the release label and puts it
// behind the front, stopping the previous one.
func (f *front) deploy(t *testing.T, prev *server, release string, extraArgs ...string) *server {
	t.Helper()
	if prev != nil {
		stopServer(t, prev)
	}
	s := startServer(t, append([]string{"--release", release}, extraArgs...)...)
	f.use(s.URL)
	return s
}

// stopServer stops a server started by startServer and waits for it.
func stopServer(t *testing.T, s *server) {
	t.Helper()
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	s.cmd.Process.Wait()
}

func jsString(s string) string { return fmt.Sprintf("%q", s) }

package main

import (
	"mime"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// precompressed serves root as Go's http.FileServer does, and answers a
// request for X with X.br (or X.gz) when the browser accepts that encoding
// and the sibling file exists, as a host configured for precompressed
// files does. It knows nothing of what the files are.
func precompressed(root string) http.Handler {
	files := http.FileServer(http.Dir(root))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := path.Clean("/" + r.URL.Path)
		if strings.HasSuffix(r.URL.Path, "/") {
			name = path.Join(name, "index.html")
		}
		accept := r.Header.Get("Accept-Encoding")
		for _, enc := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if !acceptsEncoding(accept, enc.token) {
				continue
			}
			f, err := os.Open(filepath.Join(root, filepath.FromSlash(name)+enc.ext))
			if err != nil {
				continue
			}
			fi, err := f.Stat()
			if err != nil || fi.IsDir() {
				f.Close()
				continue
			}
			ct := mime.TypeByExtension(path.Ext(name))
			if ct == "" {
				ct = "application/octet-stream"
			}
			w.Header().Set("Content-Type", ct)
			w.Header().Set("Content-Encoding", enc.token)
			w.Header().Add("Vary", "Accept-Encoding")
			http.ServeContent(w, r, name, fi.ModTime(), f)
			f.Close()
			return
		}
		files.ServeHTTP(w, r)
	})
}

// acceptsEncoding reports whether an Accept-Encoding header allows token
// (a q=0 refuses it).
func acceptsEncoding(header, token string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), token) {
			continue
		}
		params = strings.ReplaceAll(params, " ", "")
		return params != "q=0" && params != "q=0.0" && params != "q=0.00" && params != "q=0.000"
	}
	return false
}

// line is one shared network link: bytes go through it one after
// another at its rate, whichever connection sends them, so a service
// worker's background download and the page's requests compete as they
// would on a visitor's line.
type line struct {
	mu          sync.Mutex
	bytesPerSec float64
	free        time.Time // when the bytes booked so far have gone through
}

// book reserves the line for n bytes from now on (or from when it is
// next free) and returns when they will have gone through.
func (l *line) book(now time.Time, n int) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	start := l.free
	if start.Before(now) {
		start = now
	}
	l.free = start.Add(time.Duration(float64(n) / l.bytesPerSec * float64(time.Second)))
	return l.free
}

// sent is one write the throttling proxy made to the browser.
type sent struct {
	at   time.Time
	path string
	n    int64
}

// throttle is a reverse proxy on loopback that makes a slow network of
// the local file server: each response starts latency after its request
// and its bytes (headers and body) go through one shared line. It logs
// every write, so what arrived before a moment can be counted.
type throttle struct {
	proxy   *httputil.ReverseProxy
	latency time.Duration
	line    *line
	chunk   int

	mu  sync.Mutex
	log []sent
}

func newThrottle(target *url.URL, latency time.Duration, bitsPerSec float64) *throttle {
	t := &throttle{latency: latency, line: &line{bytesPerSec: bitsPerSec / 8}, chunk: 4 << 10}
	t.proxy = httputil.NewSingleHostReverseProxy(target)
	// Responses pass through as the server sent them (compressed), and
	// every write is flushed: the pacing is the proxy's, not a buffer's.
	t.proxy.FlushInterval = -1
	t.proxy.Transport = &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		DisableCompression:  true,
		MaxIdleConnsPerHost: 32,
	}
	return t
}

func (t *throttle) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	time.Sleep(t.latency)
	t.proxy.ServeHTTP(&pacedWriter{ResponseWriter: w, t: t, path: r.URL.Path}, r)
}

// reset forgets what was logged (a new visit begins).
func (t *throttle) reset() {
	t.mu.Lock()
	t.log = nil
	t.mu.Unlock()
}

// sentBefore adds up the bytes written by the instant at, split by
// whether site(path) holds.
func (t *throttle) sentBefore(at time.Time, site func(string) bool) (siteBytes, other int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.log {
		if s.at.After(at) {
			continue
		}
		if site(s.path) {
			siteBytes += s.n
		} else {
			other += s.n
		}
	}
	return siteBytes, other
}

// sentBetween adds up, by path, the bytes written after from and by to.
func (t *throttle) sentBetween(from, to time.Time) map[string]int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]int64{}
	for _, s := range t.log {
		if s.at.After(from) && !s.at.After(to) {
			out[s.path] += s.n
		}
	}
	return out
}

// pass sends n bytes through the line and logs them once they are
// through.
func (t *throttle) pass(p string, n int) {
	until := t.line.book(time.Now(), n)
	if d := time.Until(until); d > 0 {
		time.Sleep(d)
	}
	t.mu.Lock()
	t.log = append(t.log, sent{at: time.Now(), path: p, n: int64(n)})
	t.mu.Unlock()
}

// pacedWriter sends a response through the throttle's line.
type pacedWriter struct {
	http.ResponseWriter
	t           *throttle
	path        string
	wroteHeader bool
}

// headerBytes estimates the status line and headers as HTTP/1.1 sends
// them.
func headerBytes(h http.Header) int {
	n := len("HTTP/1.1 200 OK\r\n\r\n")
	for k, vs := range h {
		for _, v := range vs {
			n += len(k) + len(": \r\n") + len(v)
		}
	}
	return n
}

func (w *pacedWriter) WriteHeader(code int) {
	if !w.wroteHeader {
		w.wroteHeader = true
		w.t.pass(w.path, headerBytes(w.Header()))
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *pacedWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	written := 0
	for len(b) > 0 {
		n := min(len(b), w.t.chunk)
		w.t.pass(w.path, n)
		m, err := w.ResponseWriter.Write(b[:n])
		written += m
		if err != nil {
			return written, err
		}
		if f, ok := w.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
		b = b[n:]
	}
	return written, nil
}

// Flush lets the reverse proxy flush through the wrapper.
func (w *pacedWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

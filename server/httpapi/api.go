// Package httpapi is the server's /api: the LLM pass-through, the guarded
// URL fetch, web search, and /api/config, which tells the app what this
// server offers. Its Options are the flags and TINYRAG_* variables of
// `tinyrag serve` that configure it; cmd/tinyrag parses them and hands
// them to the server, which mounts the routes with Mount.
package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"tinyrag/app/web"
	"tinyrag/app/web/fetch"
	"tinyrag/app/web/guard"
	"tinyrag/app/web/search"
	"tinyrag/server/envconf"
	"tinyrag/server/jsonerr"
	"tinyrag/server/limit"
	"tinyrag/server/llmproxy"
)

// Options are the flags of `tinyrag serve` that configure the /api
// proxies. Every flag has an environment variable, for containers.
type Options struct {
	llmURL     string
	llmKeyFile string
	llmProbe   bool

	noWeb             bool
	fetchAllowPrivate bool
	fetchAllowHosts   []string
	fetchTimeout      time.Duration
	fetchMaxBytes     int64
	fetchMaxFileBytes int64
	trustedProxies    []netip.Prefix
	envErr            error // TINYRAG_* values that could not be parsed

	searchBackend string
	searchURL     string
	braveKeyFile  string

	wikiURL  string
	wikiLang string

	llmRate, webRate               float64
	llmConcurrency, webConcurrency int
	llmGlobal, webGlobal           int

	// Not flags: what tests inject so that no packet leaves loopback.
	getenv          func(string) string
	resolve         guard.Resolver
	dial            guard.DialFunc
	probeCandidates []llmproxy.Candidate
}

// Env is what the API learns about the running server.
type Env struct {
	Addr string       // the address tinyRAG listens on (the LLM probe skips it)
	Log  *slog.Logger // structured request and event log
}

// NewOptions registers the /api flags on fs, with defaults from the
// environment read through getenv, and returns the options they fill
// when fs is parsed. The flags stay with the options they set, so the
// API's tests drive them as `tinyrag serve` does.
func NewOptions(fs *flag.FlagSet, getenv func(string) string) *Options {
	o := &Options{getenv: getenv}
	env := envconf.New(getenv)
	fs.StringVar(&o.llmURL, "llm-url", env.String("TINYRAG_LLM_URL", ""),
		"OpenAI-compatible LLM base URL to proxy at /api/llm/ (env TINYRAG_LLM_URL); empty: probe local servers")
	fs.StringVar(&o.llmKeyFile, "llm-key-file", "",
		"file holding the LLM API key, added by the server and never sent to the browser (or env TINYRAG_LLM_KEY)")
	fs.BoolVar(&o.llmProbe, "llm-probe", true, "without --llm-url, look for Ollama, LM Studio or llama.cpp on this machine at startup")
	fs.BoolVar(&o.noWeb, "no-web", env.Bool("TINYRAG_NO_WEB", false), "turn off /api/fetch and /api/search and the web tools (env TINYRAG_NO_WEB)")
	fs.BoolVar(&o.fetchAllowPrivate, "fetch-allow-private", env.Bool("TINYRAG_FETCH_ALLOW_PRIVATE", false),
		"let /api/fetch reach loopback, private and link-local addresses (intranet use; env TINYRAG_FETCH_ALLOW_PRIVATE)")
	o.fetchAllowHosts = env.List("TINYRAG_FETCH_ALLOW_HOSTS")
	fs.Func("fetch-allow-host", "host, *.domain or CIDR that /api/fetch may reach even if private (repeatable, comma-separated; env TINYRAG_FETCH_ALLOW_HOSTS)",
		func(s string) error {
			o.fetchAllowHosts = append(o.fetchAllowHosts, envconf.SplitList(s)...)
			return nil
		})
	o.trustedProxies = env.Prefixes("TINYRAG_TRUSTED_PROXIES")
	fs.Func("trusted-proxy", "address or CIDR of a reverse proxy in front of the server (repeatable, comma-separated; env TINYRAG_TRUSTED_PROXIES): its X-Forwarded-For then names the client for the per-client limits and the log",
		func(s string) error {
			ps, err := envconf.ParsePrefixes(s)
			o.trustedProxies = append(o.trustedProxies, ps...)
			return err
		})
	fs.DurationVar(&o.fetchTimeout, "fetch-timeout", 20*time.Second, "time limit of one /api/fetch, redirects included")
	fs.Int64Var(&o.fetchMaxBytes, "fetch-max-bytes", 4<<20, "bytes of a fetched page that are read")
	fs.Int64Var(&o.fetchMaxFileBytes, "fetch-max-file-bytes", 16<<20, "largest file /api/fetch?raw=1 hands over for import (PDF, CSV, …); larger ones are refused, not cut")
	fs.StringVar(&o.searchBackend, "search-backend", env.String("TINYRAG_SEARCH_BACKEND", search.DuckDuckGo),
		"web search backend: duckduckgo, searxng or brave (env TINYRAG_SEARCH_BACKEND)")
	fs.StringVar(&o.searchURL, "search-url", env.String("TINYRAG_SEARCH_URL", ""),
		"the SearXNG instance URL, or another endpoint for duckduckgo/brave (env TINYRAG_SEARCH_URL)")
	fs.StringVar(&o.braveKeyFile, "brave-key-file", "", "file holding the Brave Search API key (or env TINYRAG_BRAVE_KEY)")
	fs.StringVar(&o.wikiURL, "wikipedia-url", env.String("TINYRAG_WIKIPEDIA_URL", ""),
		"MediaWiki origin for the wikipedia tool; empty: https://LANG.wikipedia.org (env TINYRAG_WIKIPEDIA_URL)")
	fs.StringVar(&o.wikiLang, "wikipedia-lang", env.String("TINYRAG_WIKIPEDIA_LANG", "en"), "Wikipedia language edition (env TINYRAG_WIKIPEDIA_LANG)")
	fs.Float64Var(&o.llmRate, "llm-rate", 120, "LLM requests per minute per client")
	fs.IntVar(&o.llmConcurrency, "llm-concurrency", 8, "LLM requests in flight per client")
	fs.IntVar(&o.llmGlobal, "llm-max-streams", 256, "LLM requests in flight in total")
	fs.Float64Var(&o.webRate, "web-rate", 60, "fetch and search requests per minute per client (each)")
	fs.IntVar(&o.webConcurrency, "web-concurrency", 4, "fetch and search requests in flight per client (each)")
	fs.IntVar(&o.webGlobal, "web-max-inflight", 64, "fetch and search requests in flight in total (each)")
	// Reported when the server mounts the API, before it serves anything.
	o.envErr = env.Err()
	return o
}

// secret reads a key from file (trimmed) or, without a file, from the
// environment variable env.
func secret(getenv func(string) string, file, env string) (string, error) {
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("reading key file: %w", err)
		}
		k := strings.TrimSpace(string(b))
		if k == "" {
			return "", fmt.Errorf("key file %s is empty", file)
		}
		return k, nil
	}
	return strings.TrimSpace(getenv(env)), nil
}

// Mount adds /api/llm/, /api/fetch, /api/search and /api/config to mux.
func Mount(ctx context.Context, mux *http.ServeMux, env Env, o *Options) error {
	logger := env.Log
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if o.envErr != nil {
		return fmt.Errorf("environment: %w", o.envErr)
	}
	var cfg web.ServerConfig
	cfg.LLM.Path = "/api/llm"
	cfg.Wikipedia.Base, cfg.Wikipedia.Lang = o.wikiURL, o.wikiLang

	llmHandler, source, err := llmRoute(ctx, env, o, logger)
	if err != nil {
		return err
	}
	cfg.LLM.Configured, cfg.LLM.Source = source != "", source
	llmLim := limit.New(limit.Config{Name: "/api/llm", PerMinute: o.llmRate, Burst: 20, Concurrent: o.llmConcurrency, Global: o.llmGlobal, Trusted: o.trustedProxies})
	mux.Handle("/api/llm/", logRequests(logger, o.trustedProxies, "/api/llm", llmLim.Wrap(llmHandler)))

	fetchH, searchH := http.Handler(webDisabled()), http.Handler(webDisabled())
	if !o.noWeb {
		cfg.Web.Enabled = true
		key, err := secret(o.getenv, o.braveKeyFile, "TINYRAG_BRAVE_KEY")
		if err != nil {
			return fmt.Errorf("--brave-key-file: %w", err)
		}
		s, err := search.New(search.Config{Backend: o.searchBackend, URL: o.searchURL, Key: key})
		if err != nil {
			return fmt.Errorf("web search: %w", err)
		}
		cfg.Web.SearchBackend = strings.ToLower(o.searchBackend)
		f := fetch.New(fetch.Options{
			Guard:       &guard.Guard{Policy: guard.Policy{AllowPrivate: o.fetchAllowPrivate, AllowHosts: o.fetchAllowHosts}, Resolve: o.resolve, Dial: o.dial},
			Timeout:     o.fetchTimeout,
			MaxBytes:    o.fetchMaxBytes,
			MaxRawBytes: o.fetchMaxFileBytes,
		})
		fl := limit.New(limit.Config{Name: "/api/fetch", PerMinute: o.webRate, Burst: 10, Concurrent: o.webConcurrency, Global: o.webGlobal, Trusted: o.trustedProxies})
		sl := limit.New(limit.Config{Name: "/api/search", PerMinute: o.webRate, Burst: 10, Concurrent: o.webConcurrency, Global: o.webGlobal, Trusted: o.trustedProxies})
		fetchH, searchH = fl.Wrap(fetchHandler(f)), sl.Wrap(searchHandler(s))
		if o.fetchAllowPrivate || len(o.fetchAllowHosts) > 0 {
			logger.Warn("fetch may reach private addresses", "allow_private", o.fetchAllowPrivate, "allow_hosts", o.fetchAllowHosts)
		}
	}
	mux.Handle("/api/fetch", logRequests(logger, o.trustedProxies, "/api/fetch", fetchH))
	mux.Handle("/api/search", logRequests(logger, o.trustedProxies, "/api/search", searchH))

	body, _ := json.Marshal(cfg)
	mux.Handle("/api/config", logRequests(logger, o.trustedProxies, "/api/config", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			jsonerr.Write(w, http.StatusMethodNotAllowed, "/api/config wants GET")
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(body)
	})))
	// Anything else under /api/ is a JSON 404, not the app's HTML page.
	mux.Handle("/api/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		jsonerr.Write(w, http.StatusNotFound, "no API route %s", r.URL.Path)
	}))
	return nil
}

// llmRoute builds the /api/llm/ handler: the proxy to the configured or
// probed upstream, or a clear 503 when there is none.
func llmRoute(ctx context.Context, env Env, o *Options, logger *slog.Logger) (http.Handler, string, error) {
	key, err := secret(o.getenv, o.llmKeyFile, "TINYRAG_LLM_KEY")
	if err != nil {
		return nil, "", fmt.Errorf("--llm-key-file: %w", err)
	}
	upstream, source := o.llmURL, ""
	switch {
	case upstream != "" && upstream == o.getenv("TINYRAG_LLM_URL"):
		source = "env"
	case upstream != "":
		source = "flag"
	case o.llmProbe:
		cands := o.probeCandidates
		if cands == nil {
			cands = llmproxy.Candidates(env.Addr)
		}
		c, err := llmproxy.Probe(ctx, nil, cands, 2*time.Second)
		if err != nil {
			logger.Warn("no LLM configured and no local LLM server answered; /api/llm is off until one is configured with --llm-url",
				"probed", candidateNames(cands))
		} else {
			logger.Info("using local LLM server found by probing", "server", c.Name, "url", c.URL)
			upstream, source = c.URL, "probe: "+c.Name
		}
	}
	if upstream == "" {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			jsonerr.Write(w, http.StatusServiceUnavailable, "no LLM is configured on this server: start it with --llm-url or TINYRAG_LLM_URL, or set an endpoint in the app's settings")
		}), "", nil
	}
	p, err := llmproxy.New(llmproxy.Config{Upstream: upstream, Key: key, Log: logger})
	if err != nil {
		return nil, "", fmt.Errorf("--llm-url: %w", err)
	}
	if source == "flag" || source == "env" {
		logger.Info("proxying LLM requests", "upstream", p.Upstream(), "with_key", key != "")
	}
	return p, source, nil
}

func candidateNames(cs []llmproxy.Candidate) string {
	var n []string
	for _, c := range cs {
		n = append(n, c.Name+" ("+c.URL+")")
	}
	return strings.Join(n, ", ")
}

func webDisabled() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		jsonerr.Write(w, http.StatusForbidden, "web tools are disabled on this server (--no-web)")
	}
}

// pageFetcher is what /api/fetch needs: a page's readable text, or a
// file's bytes as they came.
type pageFetcher interface {
	web.Fetcher
	web.RawFetcher
}

// fetchHandler serves GET /api/fetch?url=…: the page's readable text as a
// web.Page. With raw=1 it answers the body itself, for the browser's
// knowledge importer (PDF, CSV, …): as an inert download
// (application/octet-stream, attachment, nosniff, a CSP that allows
// nothing), with the upstream type and final URL in X-Tinyrag-Content-Type
// and X-Tinyrag-Url, so no fetched byte is ever interpreted by our origin.
func fetchHandler(f pageFetcher) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u, ok := getParam(w, r, "/api/fetch", "url", "https://…", 8192)
		if !ok {
			return
		}
		fail := func(err error) {
			if r.Context().Err() != nil {
				return // the client left
			}
			jsonerr.Write(w, fetchStatus(err), "%v", err)
		}
		if r.URL.Query().Get("raw") == "1" {
			res, err := f.FetchRaw(r.Context(), u)
			if err != nil {
				fail(err)
				return
			}
			h := w.Header()
			h.Set("Content-Type", "application/octet-stream")
			h.Set("Content-Disposition", "attachment")
			// Set here too, not only by the app's handler around us.
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
			h.Set("X-Tinyrag-Content-Type", clipHeader(res.ContentType))
			h.Set("X-Tinyrag-Url", clipHeader(res.URL))
			h.Set("Content-Length", strconv.Itoa(len(res.Body)))
			w.Write(res.Body)
			return
		}
		page, err := f.Fetch(r.Context(), u)
		if err != nil {
			fail(err)
			return
		}
		writeJSON(w, page)
	}
}

// clipHeader bounds a header value taken from an upstream answer.
func clipHeader(v string) string {
	const max = 2048
	if len(v) > max {
		return v[:max]
	}
	return v
}

// getParam checks that r is a GET and reads its one required, bounded
// query parameter, answering the client itself when either is wrong.
func getParam(w http.ResponseWriter, r *http.Request, route, name, example string, max int) (string, bool) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		jsonerr.Write(w, http.StatusMethodNotAllowed, "%s wants GET", route)
		return "", false
	}
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" {
		jsonerr.Write(w, http.StatusBadRequest, "missing %s parameter: %s?%s=%s", name, route, name, example)
		return "", false
	}
	if len(v) > max {
		jsonerr.Write(w, http.StatusBadRequest, "%s longer than %d bytes", name, max)
		return "", false
	}
	return v, true
}

// fetchStatus maps a fetch failure to the status the browser sees.
func fetchStatus(err error) int {
	var se *fetch.StatusError
	switch {
	case errors.Is(err, guard.ErrBlocked):
		return http.StatusForbidden
	case errors.Is(err, fetch.ErrBadURL):
		return http.StatusBadRequest
	case errors.Is(err, fetch.ErrUnsupported):
		return http.StatusUnsupportedMediaType
	case errors.Is(err, web.ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, fetch.ErrTimeout):
		return http.StatusGatewayTimeout
	case errors.As(err, &se):
		return http.StatusBadGateway
	}
	return http.StatusBadGateway
}

// searchHandler serves GET /api/search?q=…&n=…: {"results":[web.Hit…]}.
func searchHandler(s web.Searcher) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q, ok := getParam(w, r, "/api/search", "q", "…", 512)
		if !ok {
			return
		}
		n := web.SearchResults
		if s := r.URL.Query().Get("n"); s != "" {
			v, err := strconv.Atoi(s)
			if err != nil || v < 1 || v > 20 {
				jsonerr.Write(w, http.StatusBadRequest, "n must be a number from 1 to 20")
				return
			}
			n = v
		}
		hits, err := s.Search(r.Context(), q, n)
		if err != nil {
			if r.Context().Err() != nil {
				return
			}
			jsonerr.Write(w, http.StatusBadGateway, "%v", err)
			return
		}
		if hits == nil {
			hits = []web.Hit{}
		}
		writeJSON(w, struct {
			Results []web.Hit `json:"results"`
		}{hits})
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(v)
}

// logRequests writes one structured line per request: route, method,
// status, size, duration, client. Never the query string (it may carry a
// token in a fetched URL) nor any header.
func logRequests(logger *slog.Logger, trusted []netip.Prefix, route string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = 499 // client went away before an answer
		}
		logger.Info("api request", "route", route, "method", r.Method, "status", rec.status,
			"bytes", rec.bytes, "ms", time.Since(start).Milliseconds(), "client", limit.ClientKeyTrusting(r, trusted))
	})
}

// statusRecorder remembers the status and size of a reply. Unwrap lets
// http.ResponseController reach the real writer's Flush.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(p []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(p)
	s.bytes += int64(n)
	return n, err
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

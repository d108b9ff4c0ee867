// Package llmproxy forwards the browser's LLM calls to the one configured
// OpenAI-compatible upstream. It is deliberately not a general proxy: only
// chat/completions, embeddings and models are forwarded, the API key is
// added here and never travels to the browser, and the reply streams
// through chunk by chunk so tokens appear as the model produces them.
package llmproxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"tinyrag/server/jsonerr"
)

// routes are the upstream paths the proxy forwards, with their method.
var routes = map[string]string{
	"chat/completions": http.MethodPost,
	"embeddings":       http.MethodPost,
	"models":           http.MethodGet,
}

// Config configures a Proxy.
type Config struct {
	// Upstream is the OpenAI-compatible base URL, e.g.
	// "http://127.0.0.1:11434/v1". A URL without a path gets "/v1".
	Upstream string
	// Key is sent upstream as "Authorization: Bearer …" when set.
	Key string
	// Prefix is stripped from request paths [/api/llm/].
	Prefix string
	// MaxBody bounds request bodies [4 MiB].
	MaxBody int64
	// Client talks to the upstream [a transport without an overall
	// timeout: a stream lasts as long as the model writes].
	Client *http.Client
	// Log receives one line per upstream failure; never the key.
	Log *slog.Logger
}

// Proxy is the /api/llm/ handler.
type Proxy struct {
	base    *url.URL
	key     string
	prefix  string
	maxBody int64
	client  *http.Client
	log     *slog.Logger
}

// NormalizeURL checks an upstream base URL and gives a path-less one the
// conventional /v1.
func NormalizeURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("LLM URL %q: %w", raw, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("LLM URL %q is not an http(s) URL", raw)
	}
	if u.User != nil {
		return nil, fmt.Errorf("LLM URL must not carry credentials; use the key file or TINYRAG_LLM_KEY")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if u.Path == "" {
		u.Path = "/v1"
	}
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// New returns a Proxy for cfg.
func New(cfg Config) (*Proxy, error) {
	base, err := NormalizeURL(cfg.Upstream)
	if err != nil {
		return nil, err
	}
	p := &Proxy{base: base, key: cfg.Key, prefix: cfg.Prefix, maxBody: cfg.MaxBody, client: cfg.Client, log: cfg.Log}
	if p.prefix == "" {
		p.prefix = "/api/llm/"
	}
	if p.maxBody <= 0 {
		p.maxBody = 4 << 20
	}
	if p.client == nil {
		p.client = &http.Client{Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          256,
			MaxIdleConnsPerHost:   256,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: 5 * time.Minute, // a cold model may take long to load
		}}
	}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	return p, nil
}

// Upstream is the base URL requests go to (for logs and status pages; it
// never contains the key).
func (p *Proxy) Upstream() string { return p.base.String() }

// ServeHTTP implements http.Handler.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, p.prefix)
	rest = strings.TrimPrefix(rest, "v1/") // clients configured with …/api/llm/v1
	method, ok := routes[rest]
	if !ok || rest != strings.Trim(rest, "/") {
		jsonerr.Write(w, http.StatusNotFound, "the LLM proxy forwards only chat/completions, embeddings and models, not %q", rest)
		return
	}
	if r.Method != method {
		w.Header().Set("Allow", method)
		jsonerr.Write(w, http.StatusMethodNotAllowed, "%s wants %s, not %s", rest, method, r.Method)
		return
	}
	var body []byte
	if method == http.MethodPost {
		var err error
		body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, p.maxBody))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				jsonerr.Write(w, http.StatusRequestEntityTooLarge, "request body larger than %d bytes", p.maxBody)
				return
			}
			jsonerr.Write(w, http.StatusBadRequest, "reading request body: %v", err)
			return
		}
	}
	target := *p.base
	target.Path = p.base.Path + "/" + rest
	// The client's context: when the browser goes away, the upstream
	// request is cancelled and the model stops generating for nobody.
	req, err := http.NewRequestWithContext(r.Context(), method, target.String(), bytes.NewReader(body))
	if err != nil {
		jsonerr.Write(w, http.StatusInternalServerError, "building upstream request: %v", err)
		return
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	if a := r.Header.Get("Accept"); a != "" {
		req.Header.Set("Accept", a)
	}
	if p.key != "" {
		req.Header.Set("Authorization", "Bearer "+p.key)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		if r.Context().Err() != nil {
			return // the client left; nobody to answer
		}
		p.log.Warn("llm upstream unreachable", "upstream", p.base.Host, "route", rest, "error", p.redactString(err.Error()))
		jsonerr.Write(w, http.StatusBadGateway, "LLM upstream unreachable: %s", p.redactString(errSummary(err)))
		return
	}
	defer resp.Body.Close()

	h := w.Header()
	for _, k := range []string{"Content-Type", "Cache-Control", "Retry-After"} {
		if v := resp.Header.Get(k); v != "" {
			h.Set(k, v)
		}
	}
	h.Set("X-Accel-Buffering", "no") // tell nginx & co. not to buffer the stream
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// Error bodies are small; read one whole so the key can be scrubbed
		// even when an upstream quotes it back ("Incorrect API key: sk-…").
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		p.log.Warn("llm upstream error", "upstream", p.base.Host, "route", rest, "status", resp.StatusCode)
		w.WriteHeader(resp.StatusCode)
		w.Write([]byte(p.redactString(string(b))))
		return
	}
	w.WriteHeader(resp.StatusCode)
	p.stream(w, resp.Body)
}

// stream copies body to w, flushing after every read so each upstream
// chunk reaches the browser as soon as it arrived.
func (p *Proxy) stream(w http.ResponseWriter, body io.Reader) {
	rc := http.NewResponseController(w)
	red := newRedactor(p.key)
	buf := make([]byte, 32<<10)
	for {
		n, err := body.Read(buf)
		if n > 0 {
			if out := red.feed(buf[:n]); len(out) > 0 {
				if _, werr := w.Write(out); werr != nil {
					return
				}
			}
			if ferr := rc.Flush(); ferr != nil && !errors.Is(ferr, http.ErrNotSupported) {
				return
			}
		}
		if err != nil {
			if tail := red.flush(); len(tail) > 0 {
				w.Write(tail)
				rc.Flush()
			}
			if !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
				p.log.Warn("llm stream cut", "upstream", p.base.Host, "error", p.redactString(err.Error()))
			}
			return
		}
	}
}

func (p *Proxy) redactString(s string) string {
	if len(p.key) < minKeyLen {
		return s
	}
	return strings.ReplaceAll(s, p.key, redacted)
}

// errSummary keeps a transport error readable without repeating the full
// upstream URL.
func errSummary(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"tinyrag/app/httpdo"
)

// maxProxyReply bounds what we read from our own server's /api replies; the
// server bounds the text itself, this only protects against a wrong Base.
const maxProxyReply = 8 << 20

// ErrNoProxy is what url_fetch, websearch and URL imports answer on a
// site without a tinyRAG server: a browser may not read other sites'
// pages itself.
var ErrNoProxy = errors.New("off on this site: it runs without a tinyRAG server, and a browser may not read other websites' pages directly (they do not allow it, CORS). Wikipedia still works; the site owner can name a tinyRAG server as proxy in tinyrag.json")

// ProxyFetcher fetches through the tinyRAG server's /api/fetch — the way
// the browser reaches pages that do not allow CORS.
type ProxyFetcher struct {
	// Base is the server's origin, e.g. "http://127.0.0.1:8080" (in the
	// browser: the page's own origin); "" means there is none (ErrNoProxy).
	Base   string
	Client httpdo.Doer // nil: httpdo's default (fetch() in the browser)
}

// Fetch implements Fetcher.
func (p ProxyFetcher) Fetch(ctx context.Context, rawURL string) (Page, error) {
	if p.Base == "" {
		return Page{}, fmt.Errorf("url_fetch is %w", ErrNoProxy)
	}
	var page Page
	err := proxyGet(ctx, p.Client, p.Base+"/api/fetch?url="+url.QueryEscape(rawURL), &page)
	if err != nil {
		return Page{}, fmt.Errorf("fetching %s: %w", rawURL, err)
	}
	return page, nil
}

// maxRawReply bounds a raw body read from our own server: its fetch bound
// (16 MiB by default) and a little room.
const maxRawReply = 17 << 20

// FetchRaw implements RawFetcher through /api/fetch?raw=1.
func (p ProxyFetcher) FetchRaw(ctx context.Context, rawURL string) (Raw, error) {
	if p.Base == "" {
		return Raw{}, fmt.Errorf("importing a URL is %w", ErrNoProxy)
	}
	h, body, err := proxyDo(ctx, p.Client, p.Base+"/api/fetch?raw=1&url="+url.QueryEscape(rawURL), "*/*", maxRawReply)
	if err != nil {
		return Raw{}, fmt.Errorf("fetching %s: %w", rawURL, err)
	}
	final := h.Get("X-Tinyrag-Url")
	if final == "" {
		final = rawURL
	}
	return Raw{URL: final, ContentType: h.Get("X-Tinyrag-Content-Type"), Body: body}, nil
}

// ProxySearcher searches through the tinyRAG server's /api/search.
type ProxySearcher struct {
	Base   string      // the server's origin, as for ProxyFetcher ("": none)
	Client httpdo.Doer // nil: httpdo's default
}

// Search implements Searcher.
func (p ProxySearcher) Search(ctx context.Context, query string, n int) ([]Hit, error) {
	if p.Base == "" {
		return nil, fmt.Errorf("websearch is %w", ErrNoProxy)
	}
	var reply struct {
		Results []Hit `json:"results"`
	}
	u := p.Base + "/api/search?q=" + url.QueryEscape(query) + "&n=" + strconv.Itoa(n)
	if err := proxyGet(ctx, p.Client, u, &reply); err != nil {
		return nil, fmt.Errorf("web search for %q: %w", query, err)
	}
	if len(reply.Results) > n {
		reply.Results = reply.Results[:n]
	}
	return reply.Results, nil
}

// proxyGet GETs a tinyRAG /api URL and decodes its JSON reply, turning the
// server's {"error":…} replies into Go errors.
func proxyGet(ctx context.Context, c httpdo.Doer, u string, out any) error {
	_, body, err := proxyDo(ctx, c, u, "application/json", maxProxyReply)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("server reply is not the expected JSON: %w", err)
	}
	return nil
}

// proxyDo GETs a tinyRAG /api URL and returns the headers and body of a 200
// reply, at most max bytes of it (more is ErrTooLarge); any other status
// becomes the server's error.
func proxyDo(ctx context.Context, c httpdo.Doer, u, accept string, max int64) (httpdo.Header, []byte, error) {
	req, err := httpdo.NewRequest(ctx, "GET", u, nil)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept", accept)
	resp, err := httpdo.Or(c).Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("tinyRAG server unreachable: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, nil, fmt.Errorf("reading server reply: %w", err)
	}
	if resp.StatusCode != 200 {
		return nil, nil, replyError(resp.StatusCode, body)
	}
	if int64(len(body)) > max {
		return nil, nil, fmt.Errorf("server reply larger than %d MiB: %w", max>>20, ErrTooLarge)
	}
	return resp.Header, body, nil
}

// replyError turns a non-200 reply of the tinyRAG server, normally
// {"error":…}, into an error.
func replyError(status int, body []byte) error {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		return fmt.Errorf("%s (HTTP %d)", e.Error, status)
	}
	return fmt.Errorf("server answered HTTP %d: %s", status, Clip(strings.TrimSpace(string(body)), 200))
}

package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// maxProxyReply bounds what we read from our own server's /api replies; the
// server bounds the text itself, this only protects against a wrong Base.
const maxProxyReply = 8 << 20

// ProxyFetcher fetches through the tinyRAG server's /api/fetch — the way
// the browser reaches pages that do not allow CORS.
type ProxyFetcher struct {
	// Base is the server's origin, e.g. "http://127.0.0.1:8080" (in the
	// browser: the page's own origin).
	Base   string
	Client *http.Client // nil: http.DefaultClient (fetch() under wasm)
}

// Fetch implements Fetcher.
func (p ProxyFetcher) Fetch(ctx context.Context, rawURL string) (Page, error) {
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
	c := p.Client
	if c == nil {
		c = http.DefaultClient
	}
	fail := func(err error) (Raw, error) { return Raw{}, fmt.Errorf("fetching %s: %w", rawURL, err) }
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.Base+"/api/fetch?raw=1&url="+url.QueryEscape(rawURL), nil)
	if err != nil {
		return fail(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return fail(fmt.Errorf("tinyRAG server unreachable: %w", err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRawReply+1))
	if err != nil {
		return fail(fmt.Errorf("reading server reply: %w", err))
	}
	if resp.StatusCode != http.StatusOK {
		return fail(replyError(resp.StatusCode, body))
	}
	if len(body) > maxRawReply {
		return fail(fmt.Errorf("larger than %d MiB: %w", maxRawReply>>20, ErrTooLarge))
	}
	final := resp.Header.Get("X-Tinyrag-Url")
	if final == "" {
		final = rawURL
	}
	return Raw{URL: final, ContentType: resp.Header.Get("X-Tinyrag-Content-Type"), Body: body}, nil
}

// ProxySearcher searches through the tinyRAG server's /api/search.
type ProxySearcher struct {
	Base   string       // the server's origin, as for ProxyFetcher
	Client *http.Client // nil: http.DefaultClient
}

// Search implements Searcher.
func (p ProxySearcher) Search(ctx context.Context, query string, n int) ([]Hit, error) {
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
func proxyGet(ctx context.Context, c *http.Client, u string, out any) error {
	if c == nil {
		c = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("tinyRAG server unreachable: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxProxyReply))
	if err != nil {
		return fmt.Errorf("reading server reply: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return replyError(resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("server reply is not the expected JSON: %w", err)
	}
	return nil
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

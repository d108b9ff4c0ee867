// Package search runs web searches against the backends tinyRAG supports:
// a self-hosted SearXNG (JSON API), DuckDuckGo's HTML page (no key, the
// default) and the Brave Search API (key). Each backend is a web.Searcher.
// Backend URLs come from the operator, never from the user or the model,
// so they are not put through the SSRF guard (SearXNG often runs on
// localhost).
package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/html"

	"tinyrag/app/web"
)

// Backend names, as given to --search-backend.
const (
	DuckDuckGo = "duckduckgo"
	SearXNG    = "searxng"
	Brave      = "brave"
)

// Default endpoints of the public backends.
const (
	DefaultDuckDuckGoURL = "https://html.duckduckgo.com/html/"
	DefaultBraveURL      = "https://api.search.brave.com/res/v1/web/search"
)

// maxReply bounds one backend reply.
const maxReply = 4 << 20

// Config chooses and configures a backend.
type Config struct {
	Backend string       // DuckDuckGo (default), SearXNG or Brave
	URL     string       // SearXNG: its base URL (required); others: endpoint override
	Key     string       // Brave: the subscription token (required)
	Client  *http.Client // nil: a client with a 15 s timeout
}

// New returns the Searcher cfg describes, or an error saying what is
// missing.
func New(cfg Config) (web.Searcher, error) {
	c := cfg.Client
	if c == nil {
		c = &http.Client{Timeout: 15 * time.Second}
	}
	switch strings.ToLower(strings.TrimSpace(cfg.Backend)) {
	case "", DuckDuckGo:
		u := cfg.URL
		if u == "" {
			u = DefaultDuckDuckGoURL
		}
		if err := checkURL(u); err != nil {
			return nil, fmt.Errorf("duckduckgo URL: %w", err)
		}
		return &DDG{URL: u, Client: c}, nil
	case SearXNG:
		if cfg.URL == "" {
			return nil, errors.New("the searxng backend needs its URL (--searxng-url)")
		}
		if err := checkURL(cfg.URL); err != nil {
			return nil, fmt.Errorf("searxng URL: %w", err)
		}
		return &Searx{Base: strings.TrimRight(cfg.URL, "/"), Client: c}, nil
	case Brave:
		if cfg.Key == "" {
			return nil, errors.New("the brave backend needs an API key (--brave-key-file or TINYRAG_BRAVE_KEY)")
		}
		u := cfg.URL
		if u == "" {
			u = DefaultBraveURL
		}
		if err := checkURL(u); err != nil {
			return nil, fmt.Errorf("brave URL: %w", err)
		}
		return &BraveAPI{URL: u, Key: cfg.Key, Client: c}, nil
	}
	return nil, fmt.Errorf("unknown search backend %q (want %s, %s or %s)", cfg.Backend, DuckDuckGo, SearXNG, Brave)
}

func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL", s)
	}
	return nil
}

// do sends req and returns the bounded body of a 200 answer.
func do(c *http.Client, req *http.Request, who string) ([]byte, error) {
	req.Header.Set("User-Agent", "Mozilla/5.0 (compatible; tinyRAG/1)")
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s unreachable: %w", who, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxReply))
	if err != nil {
		return nil, fmt.Errorf("%s: reading reply: %w", who, err)
	}
	switch {
	case resp.StatusCode == http.StatusOK:
		return body, nil
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusAccepted:
		// DuckDuckGo answers 202 with a challenge page when it throttles.
		return nil, fmt.Errorf("%s is rate-limiting us (HTTP %d); try again later", who, resp.StatusCode)
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, fmt.Errorf("%s refused the request (HTTP %d): check the key or instance settings", who, resp.StatusCode)
	}
	return nil, fmt.Errorf("%s answered HTTP %d", who, resp.StatusCode)
}

func limit(hits []web.Hit, n int) []web.Hit {
	if n > 0 && len(hits) > n {
		return hits[:n]
	}
	return hits
}

// Searx queries a SearXNG instance's JSON API (the instance must have
// "json" among its enabled formats).
type Searx struct {
	Base   string
	Client *http.Client
}

// Search implements web.Searcher.
func (s *Searx) Search(ctx context.Context, q string, n int) ([]web.Hit, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.Base+"/search?format=json&q="+url.QueryEscape(q), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	body, err := do(s.Client, req, "SearXNG")
	if err != nil {
		return nil, err
	}
	var r struct {
		Results []struct {
			Title   string `json:"title"`
			URL     string `json:"url"`
			Content string `json:"content"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("SearXNG reply is not JSON (is the json format enabled?): %w", err)
	}
	var hits []web.Hit
	for _, x := range r.Results {
		if x.URL == "" {
			continue
		}
		hits = append(hits, web.Hit{Title: web.StripTags(x.Title), URL: x.URL, Snippet: web.StripTags(x.Content)})
	}
	return limit(hits, n), nil
}

// BraveAPI queries the Brave Search web API.
type BraveAPI struct {
	URL    string
	Key    string
	Client *http.Client
}

// Search implements web.Searcher.
func (b *BraveAPI) Search(ctx context.Context, q string, n int) ([]web.Hit, error) {
	count := n
	if count <= 0 || count > 20 {
		count = 20
	}
	u := b.URL + "?q=" + url.QueryEscape(q) + "&count=" + strconv.Itoa(count)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Subscription-Token", b.Key)
	body, err := do(b.Client, req, "Brave Search")
	if err != nil {
		return nil, err
	}
	var r struct {
		Web struct {
			Results []struct {
				Title       string `json:"title"`
				URL         string `json:"url"`
				Description string `json:"description"`
			} `json:"results"`
		} `json:"web"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("Brave Search reply is not the expected JSON: %w", err)
	}
	var hits []web.Hit
	for _, x := range r.Web.Results {
		hits = append(hits, web.Hit{Title: web.StripTags(x.Title), URL: x.URL, Snippet: web.StripTags(x.Description)})
	}
	return limit(hits, n), nil
}

// DDG scrapes DuckDuckGo's JavaScript-free HTML results page.
type DDG struct {
	URL    string
	Client *http.Client
}

// Search implements web.Searcher.
func (d *DDG) Search(ctx context.Context, q string, n int) ([]web.Hit, error) {
	form := url.Values{"q": {q}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	body, err := do(d.Client, req, "DuckDuckGo")
	if err != nil {
		return nil, err
	}
	doc, err := html.Parse(strings.NewReader(string(body)))
	if err != nil {
		return nil, fmt.Errorf("DuckDuckGo reply is not HTML: %w", err)
	}
	return limit(parseDDG(doc), n), nil
}

// parseDDG collects result__a links (title, URL) and the result__snippet
// that follows each; ads (result--ad) are skipped.
func parseDDG(doc *html.Node) []web.Hit {
	var hits []web.Hit
	var walk func(n *html.Node, ad bool)
	walk = func(n *html.Node, ad bool) {
		if n.Type == html.ElementNode {
			cls := " " + attr(n, "class") + " "
			if strings.Contains(cls, " result--ad ") {
				ad = true
			}
			switch {
			case strings.Contains(cls, " result__a ") && !ad:
				if u := ddgTarget(attr(n, "href")); u != "" {
					hits = append(hits, web.Hit{Title: text(n), URL: u})
				}
				return
			case strings.Contains(cls, " result__snippet ") && !ad:
				if len(hits) > 0 && hits[len(hits)-1].Snippet == "" {
					hits[len(hits)-1].Snippet = text(n)
				}
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, ad)
		}
	}
	walk(doc, false)
	return hits
}

// ddgTarget unwraps DuckDuckGo's redirect links (/l/?uddg=<target>) and
// drops its ad links.
func ddgTarget(href string) string {
	if strings.HasPrefix(href, "//") {
		href = "https:" + href
	}
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if strings.HasSuffix(u.Hostname(), "duckduckgo.com") || u.Host == "" {
		if t := u.Query().Get("uddg"); t != "" {
			href = t
			if u, err = url.Parse(t); err != nil {
				return ""
			}
		} else {
			return ""
		}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return ""
	}
	return href
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// Package web holds the three tools that reach the web — url_fetch,
// websearch and wikipedia — and the transports they use from the browser
// (the tinyRAG server's /api proxies). The in-process transports the native
// CLI and the server itself use live in the subpackages fetch and search,
// behind the SSRF guard in guard; this package stays free of them so the
// wasm build does not carry them.
package web

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"tinyrag/app/tool"
)

// The protocol names of the web tools; --no-web and the app setting turn
// exactly these off.
const (
	URLFetchName  = "url_fetch"
	WebSearchName = "websearch"
	WikipediaName = "wikipedia"
)

// ToolNames lists the web tools, for switching them off together.
var ToolNames = []string{URLFetchName, WebSearchName, WikipediaName}

// MaxResultRunes bounds the text one web tool hands to the engine. The
// engine trims evidence further; this keeps a huge page from being carried
// around at all.
const MaxResultRunes = 8000

// Page is one fetched URL reduced to plain text. It is also the JSON body
// of the server's /api/fetch.
type Page struct {
	URL         string `json:"url"` // final URL, after redirects
	Title       string `json:"title"`
	ContentType string `json:"content_type"`
	Text        string `json:"text"`
	Truncated   bool   `json:"truncated"`
}

// Fetcher fetches a URL and returns its readable text.
type Fetcher interface {
	Fetch(ctx context.Context, rawURL string) (Page, error)
}

// Raw is a fetched resource as it came, for importing a file by URL: the
// knowledge importer reads its format (PDF, CSV, HTML, …) itself.
type Raw struct {
	URL         string // final URL, after redirects
	ContentType string // as the server sent it, or sniffed
	Body        []byte
}

// RawFetcher fetches a URL's body as it is. A body over the fetcher's
// bound is an error (ErrTooLarge), never cut: a cut PDF or ZIP is useless.
type RawFetcher interface {
	FetchRaw(ctx context.Context, rawURL string) (Raw, error)
}

// ErrTooLarge is a raw body over the fetcher's bound.
var ErrTooLarge = errors.New("too large to import")

// Hit is one web search result; a list of them is the JSON body of the
// server's /api/search ({"results":[…]}).
type Hit struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
}

// Searcher runs a web search and returns at most n hits.
type Searcher interface {
	Search(ctx context.Context, query string, n int) ([]Hit, error)
}

// URLFetch is the url_fetch tool: it returns the readable plain text of one
// http(s) page, headed by its title and final URL.
func URLFetch(f Fetcher) tool.Tool {
	return tool.Func{
		ToolName: URLFetchName,
		Elem:     tool.URL,
		Desc:     "fetch one http(s) web page and return its readable plain text",
		Fn: func(ctx context.Context, input string) (tool.Result, error) {
			u := strings.TrimSpace(input)
			if u == "" {
				return tool.Result{}, fmt.Errorf("url_fetch needs a URL")
			}
			p, err := f.Fetch(ctx, u)
			if err != nil {
				return tool.Result{}, err
			}
			var b strings.Builder
			if p.Title != "" {
				fmt.Fprintf(&b, "Title: %s\n", p.Title)
			}
			fmt.Fprintf(&b, "URL: %s\n\n", p.URL)
			b.WriteString(p.Text)
			if p.Truncated {
				b.WriteString("\n[page truncated]")
			}
			return tool.Result{Content: Clip(b.String(), MaxResultRunes), Source: p.URL}, nil
		},
	}
}

// SearchResults is how many hits websearch asks for.
const SearchResults = 5

// WebSearch is the websearch tool: a numbered list of titles, URLs and
// snippets.
func WebSearch(s Searcher) tool.Tool {
	return tool.Func{
		ToolName: WebSearchName,
		Elem:     tool.Query,
		Desc:     "search the web; returns titles, URLs and snippets of the top results",
		Fn: func(ctx context.Context, input string) (tool.Result, error) {
			q := strings.TrimSpace(input)
			if q == "" {
				return tool.Result{}, fmt.Errorf("websearch needs a query")
			}
			hits, err := s.Search(ctx, q, SearchResults)
			if err != nil {
				return tool.Result{}, err
			}
			if len(hits) == 0 {
				return tool.Result{}, fmt.Errorf("web search found nothing for %q", q)
			}
			return tool.Result{Content: Clip(FormatHits(hits), MaxResultRunes), Source: "websearch: " + q}, nil
		},
	}
}

// FormatHits renders hits as the numbered plain-text list the model sees.
func FormatHits(hits []Hit) string {
	var b strings.Builder
	for i, h := range hits {
		fmt.Fprintf(&b, "%d. %s\n   %s\n", i+1, h.Title, h.URL)
		if h.Snippet != "" {
			fmt.Fprintf(&b, "   %s\n", h.Snippet)
		}
	}
	return b.String()
}

// Clip cuts s to at most n runes, saying so when it cuts.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	const mark = "\n[truncated]"
	keep := n - utf8.RuneCountInString(mark)
	if keep < 0 {
		keep = 0
	}
	i := 0
	for j := range s {
		if i == keep {
			return s[:j] + mark
		}
		i++
	}
	return s + mark
}

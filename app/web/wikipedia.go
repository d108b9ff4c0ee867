package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"runtime"
	"strings"
	"unicode"

	"tinyrag/app/httpdo"
	"tinyrag/app/internal/lazyregexp"
	"tinyrag/app/tool"
)

// WikiConfig says which MediaWiki to ask and how to reach it.
type WikiConfig struct {
	// Base is the wiki's origin, e.g. "https://de.wikipedia.org" or an
	// intranet MediaWiki; empty means https://{Lang}.wikipedia.org.
	Base string
	// Lang is the Wikipedia language edition; empty means "en".
	Lang string
	// Client makes the requests (nil: httpdo's default, which is fetch()
	// in the browser — Wikipedia allows CORS with origin=*).
	Client httpdo.Doer
	// Proxy, when set, is the tinyRAG server origin whose /api/fetch is used
	// instead of asking the wiki directly: for wikis without CORS.
	Proxy string
	// Results is how many search hits are listed besides the article
	// (default 3).
	Results int
}

// maxWikiReply bounds one MediaWiki API reply (a long article's extract is
// a few hundred KiB).
const maxWikiReply = 4 << 20

var langRe = lazyregexp.New(`^[a-z]{2,3}(-[a-z0-9]{2,8})*$`)

// apiURL is the wiki's api.php endpoint.
func (c WikiConfig) apiURL() (string, error) {
	base := strings.TrimRight(c.Base, "/")
	if base == "" {
		lang := strings.ToLower(strings.TrimSpace(c.Lang))
		if lang == "" {
			lang = "en"
		}
		if !langRe.MatchString(lang) {
			return "", fmt.Errorf("wikipedia: %q is not a language code", c.Lang)
		}
		base = "https://" + lang + ".wikipedia.org"
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("wikipedia: base URL %q is not an http(s) origin", c.Base)
	}
	return base + "/w/api.php", nil
}

// call GETs one api.php query, with the parameters every call shares.
func (c WikiConfig) call(ctx context.Context, params url.Values, out any) error {
	api, err := c.apiURL()
	if err != nil {
		return err
	}
	params.Set("format", "json")
	params.Set("formatversion", "2")
	params.Set("origin", "*")
	u := api + "?" + params.Encode()
	var body []byte
	if c.Proxy != "" {
		page, err := ProxyFetcher{Base: c.Proxy, Client: c.Client}.Fetch(ctx, u)
		if err != nil {
			return err
		}
		if page.Truncated {
			return errors.New("wikipedia: reply too large for the proxy")
		}
		body = []byte(page.Text)
	} else {
		body, err = c.get(ctx, u)
		if err != nil {
			return err
		}
	}
	var apiErr struct {
		Error *struct {
			Code string `json:"code"`
			Info string `json:"info"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &apiErr) == nil && apiErr.Error != nil {
		return fmt.Errorf("wikipedia API error %s: %s", apiErr.Error.Code, apiErr.Error.Info)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("wikipedia: reply is not the expected JSON: %w", err)
	}
	return nil
}

func (c WikiConfig) get(ctx context.Context, u string) ([]byte, error) {
	req, err := httpdo.NewRequest(ctx, "GET", u, nil)
	if err != nil {
		return nil, err
	}
	if runtime.GOOS != "js" {
		// Wikimedia asks API clients to identify themselves; browsers
		// forbid setting this header, so only the native build does.
		req.Header.Set("User-Agent", "tinyRAG/1 (self-hosted retrieval assistant)")
	}
	resp, err := httpdo.Or(c.Client).Do(req)
	if err != nil {
		return nil, fmt.Errorf("wikipedia unreachable: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("wikipedia answered HTTP %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxWikiReply+1))
	if err != nil {
		return nil, fmt.Errorf("wikipedia: reading reply: %w", err)
	}
	if len(body) > maxWikiReply {
		return nil, fmt.Errorf("wikipedia: reply larger than %d bytes", maxWikiReply)
	}
	return body, nil
}

// wikiHit is one search hit.
type wikiHit struct {
	Title   string `json:"title"`
	Snippet string `json:"snippet"`
}

func (c WikiConfig) search(ctx context.Context, q string, n int) ([]wikiHit, error) {
	var r struct {
		Query struct {
			Search []wikiHit `json:"search"`
		} `json:"query"`
	}
	p := url.Values{}
	p.Set("action", "query")
	p.Set("list", "search")
	p.Set("srsearch", q)
	p.Set("srlimit", fmt.Sprint(n))
	p.Set("srprop", "snippet")
	if err := c.call(ctx, p, &r); err != nil {
		return nil, err
	}
	for i := range r.Query.Search {
		r.Query.Search[i].Snippet = StripTags(r.Query.Search[i].Snippet)
	}
	return r.Query.Search, nil
}

// WikipediaArticle fetches one article's plain text by title (following
// redirects): what the knowledge importer stores.
func WikipediaArticle(ctx context.Context, cfg WikiConfig, title string) (gotTitle, pageURL, text string, err error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return "", "", "", errors.New("wikipedia: empty article title")
	}
	var r struct {
		Query struct {
			Pages []struct {
				Title   string `json:"title"`
				Extract string `json:"extract"`
				FullURL string `json:"fullurl"`
				Missing bool   `json:"missing"`
				Invalid bool   `json:"invalid"`
			} `json:"pages"`
		} `json:"query"`
	}
	p := url.Values{}
	p.Set("action", "query")
	p.Set("prop", "extracts|info")
	p.Set("inprop", "url")
	p.Set("explaintext", "1")
	p.Set("redirects", "1")
	p.Set("titles", title)
	if err := cfg.call(ctx, p, &r); err != nil {
		return "", "", "", err
	}
	if len(r.Query.Pages) == 0 || r.Query.Pages[0].Missing || r.Query.Pages[0].Invalid {
		return "", "", "", fmt.Errorf("wikipedia has no article titled %q", title)
	}
	pg := r.Query.Pages[0]
	if pg.FullURL == "" {
		api, _ := cfg.apiURL()
		pg.FullURL = strings.TrimSuffix(api, "/w/api.php") + "/wiki/" + url.PathEscape(strings.ReplaceAll(pg.Title, " ", "_"))
	}
	if strings.TrimSpace(pg.Extract) == "" {
		return "", "", "", fmt.Errorf("wikipedia article %q has no text", pg.Title)
	}
	return pg.Title, pg.FullURL, pg.Extract, nil
}

// Wikipedia is the wikipedia tool: it searches the wiki, returns the plain
// text of the best match and names the other matches.
func Wikipedia(cfg WikiConfig) tool.Tool {
	return tool.Func{
		ToolName: WikipediaName,
		Elem:     tool.Query,
		Desc:     "search Wikipedia and return the plain text of the best-matching article",
		Fn: func(ctx context.Context, input string) (tool.Result, error) {
			q := strings.TrimSpace(input)
			if q == "" {
				return tool.Result{}, errors.New("wikipedia needs a query")
			}
			n := cfg.Results
			if n <= 0 {
				n = 3
			}
			hits, err := cfg.search(ctx, q, n)
			if err != nil {
				return tool.Result{}, err
			}
			if len(hits) == 0 {
				return tool.Result{}, fmt.Errorf("wikipedia has no article matching %q", q)
			}
			title, u, text, err := WikipediaArticle(ctx, cfg, hits[0].Title)
			if err != nil {
				return tool.Result{}, err
			}
			var b strings.Builder
			fmt.Fprintf(&b, "Title: %s\nURL: %s\n", title, u)
			if len(hits) > 1 {
				var others []string
				for _, h := range hits[1:] {
					others = append(others, h.Title)
				}
				fmt.Fprintf(&b, "Other matches: %s\n", strings.Join(others, "; "))
			}
			b.WriteString("\n")
			b.WriteString(text)
			return tool.Result{Content: Clip(b.String(), MaxResultRunes), Source: u}, nil
		},
	}
}

var tagRe = lazyregexp.New(`<[^>]*>`)

// StripTags removes markup from a search snippet, unescapes the common
// entities and collapses white space.
func StripTags(s string) string {
	s = tagRe.ReplaceAllString(s, "")
	s = strings.NewReplacer("&quot;", `"`, "&#39;", "'", "&#039;", "'", "&lt;", "<", "&gt;", ">", "&nbsp;", " ", "&amp;", "&").Replace(s)
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

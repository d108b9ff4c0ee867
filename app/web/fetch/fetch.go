// Package fetch fetches one URL through the SSRF guard and reduces it to
// readable plain text: the engine of the server's /api/fetch and of the
// native CLI's url_fetch.
package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"
	"codeberg.org/readeck/go-readability/v2/render"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"

	"tinyrag/app/web"
	"tinyrag/app/web/guard"
)

// Errors a caller maps to answers (the server to HTTP statuses). A refused
// address matches guard.ErrBlocked.
var (
	ErrBadURL      = errors.New("not a valid http(s) URL")
	ErrUnsupported = errors.New("unsupported content type")
	ErrTimeout     = errors.New("timed out")
)

// StatusError is a non-2xx answer from the fetched server.
type StatusError struct {
	URL  string
	Code int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s answered HTTP %d %s", e.URL, e.Code, http.StatusText(e.Code))
}

// Options bound a Fetcher. Zero fields take the defaults in brackets.
type Options struct {
	Guard        *guard.Guard  // [refuse every non-public address]
	Timeout      time.Duration // whole exchange [20 s]
	MaxRedirects int           // [5]
	MaxBytes     int64         // body bytes read [4 MiB]; more is cut and marked truncated
	MaxRawBytes  int64         // body bytes FetchRaw accepts [16 MiB]; more is ErrTooLarge
	MaxText      int           // runes of text returned [100,000]
	UserAgent    string        // [tinyRAG/1]
}

// Fetcher is the guarded, bounded fetcher. It implements web.Fetcher.
type Fetcher struct {
	opt    Options
	client *http.Client
}

// New returns a Fetcher with o's bounds.
func New(o Options) *Fetcher {
	if o.Guard == nil {
		o.Guard = &guard.Guard{}
	}
	if o.Timeout <= 0 {
		o.Timeout = 20 * time.Second
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = 5
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 4 << 20
	}
	if o.MaxRawBytes <= 0 {
		o.MaxRawBytes = 16 << 20
	}
	if o.MaxText <= 0 {
		o.MaxText = 100_000
	}
	if o.UserAgent == "" {
		o.UserAgent = "tinyRAG/1 (+retrieval assistant; fetches one page on request)"
	}
	return &Fetcher{opt: o, client: o.Guard.Client(o.Timeout, o.MaxRedirects)}
}

// Fetch implements web.Fetcher.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) (web.Page, error) {
	final, ct, body, truncated, err := f.get(ctx, rawURL, f.opt.MaxBytes,
		"text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.1")
	if err != nil {
		return web.Page{}, err
	}
	page, err := Extract(final, ct, body)
	if err != nil {
		return web.Page{}, err
	}
	page.Truncated = page.Truncated || truncated
	if utf8.RuneCountInString(page.Text) > f.opt.MaxText {
		page.Text = web.Clip(page.Text, f.opt.MaxText)
		page.Truncated = true
	}
	return page, nil
}

// FetchRaw implements web.RawFetcher: the body as it came, up to
// Options.MaxRawBytes, under the same guard, timeout and redirect bounds
// as Fetch.
func (f *Fetcher) FetchRaw(ctx context.Context, rawURL string) (web.Raw, error) {
	final, ct, body, truncated, err := f.get(ctx, rawURL, f.opt.MaxRawBytes, "*/*")
	if err != nil {
		return web.Raw{}, err
	}
	if truncated {
		return web.Raw{}, fmt.Errorf("%s is larger than %d MiB: %w", final.Redacted(), f.opt.MaxRawBytes>>20, web.ErrTooLarge)
	}
	return web.Raw{URL: final.String(), ContentType: ct, Body: body}, nil
}

// get fetches rawURL and reads at most max bytes of a 2xx body; truncated
// says there was more. The content type is sniffed when the server sends
// none.
func (f *Fetcher) get(ctx context.Context, rawURL string, max int64, accept string) (final *url.URL, ct string, body []byte, truncated bool, err error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || u.Scheme == "" || (u.Host == "" && (u.Scheme == "http" || u.Scheme == "https")) {
		return nil, "", nil, false, fmt.Errorf("%q: %w", rawURL, ErrBadURL)
	}
	// Other schemes (file:, gopher:, …) are a policy refusal, not a typo.
	if err := f.opt.Guard.CheckURL(u); err != nil {
		return nil, "", nil, false, err
	}
	u.Fragment = ""
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", nil, false, fmt.Errorf("%q: %w", rawURL, ErrBadURL)
	}
	req.Header.Set("User-Agent", f.opt.UserAgent)
	req.Header.Set("Accept", accept)
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, "", nil, false, classify(u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, "", nil, false, &StatusError{URL: resp.Request.URL.String(), Code: resp.StatusCode}
	}
	body, err = io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, "", nil, false, classify(u, err)
	}
	if truncated = int64(len(body)) > max; truncated {
		body = body[:max]
	}
	ct = resp.Header.Get("Content-Type")
	if ct == "" {
		ct = http.DetectContentType(body)
	}
	return resp.Request.URL, ct, body, truncated, nil
}

// classify wraps transport errors so the guard's refusals and timeouts stay
// recognisable through url.Error.
func classify(u *url.URL, err error) error {
	if errors.Is(err, guard.ErrBlocked) {
		var be *guard.BlockedError
		if errors.As(err, &be) {
			return be
		}
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		return fmt.Errorf("fetching %s: %w", u.Redacted(), ErrTimeout)
	}
	return fmt.Errorf("fetching %s: %w", u.Redacted(), err)
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// Extract turns a body of the given content type into a Page: HTML through
// the readability extractor, other text as it is (decoded to UTF-8).
func Extract(pageURL *url.URL, contentType string, body []byte) (web.Page, error) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(strings.Split(contentType, ";")[0]))
	}
	page := web.Page{URL: pageURL.String(), ContentType: mt}
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		r = bytes.NewReader(body)
	}
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		doc, err := html.Parse(r)
		if err != nil {
			return web.Page{}, fmt.Errorf("parsing HTML of %s: %w", pageURL.Redacted(), err)
		}
		page.Title, page.Text = readable(doc, pageURL)
	case strings.HasPrefix(mt, "text/") || mt == "application/json" || mt == "application/xml" ||
		strings.HasSuffix(mt, "+json") || strings.HasSuffix(mt, "+xml"):
		b, err := io.ReadAll(r)
		if err != nil {
			return web.Page{}, fmt.Errorf("decoding %s: %w", pageURL.Redacted(), err)
		}
		page.Text = strings.ToValidUTF8(string(b), "\uFFFD")
	default:
		return web.Page{}, fmt.Errorf("%s is %s: %w (only HTML and text are read)", pageURL.Redacted(), mt, ErrUnsupported)
	}
	return page, nil
}

// readable extracts the main text of a page with the readability
// algorithm, falling back to all visible text of the body for pages it
// cannot make sense of (link lists, tiny pages).
func readable(doc *html.Node, pageURL *url.URL) (title, text string) {
	title = docTitle(doc)
	if art, err := readability.FromDocument(doc, pageURL); err == nil && art.Node != nil {
		if t := strings.TrimSpace(art.Title()); t != "" {
			title = t
		}
		text = tidy(render.InnerText(art.Node))
	}
	if len(text) < 200 {
		// Readability keeps only what it scores as the article; on pages
		// without one that can be almost nothing.
		if fb := tidy(visibleText(doc)); len(fb) > len(text) {
			text = fb
		}
	}
	return title, text
}

func docTitle(n *html.Node) string {
	if n.Type == html.ElementNode && n.Data == "title" && n.FirstChild != nil {
		return strings.Join(strings.Fields(n.FirstChild.Data), " ")
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if t := docTitle(c); t != "" {
			return t
		}
	}
	return ""
}

// visibleText renders the body without scripts, styles and templates.
func visibleText(doc *html.Node) string {
	var drop []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script", "style", "noscript", "template", "head", "svg":
				drop = append(drop, n)
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, n := range drop {
		if n.Parent != nil {
			n.Parent.RemoveChild(n)
		}
	}
	return render.InnerText(doc)
}

// tidy trims lines and keeps at most one blank line between paragraphs.
func tidy(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	var b strings.Builder
	blank := 0
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			blank++
			continue
		}
		if b.Len() > 0 {
			if blank > 0 {
				b.WriteString("\n\n")
			} else {
				b.WriteString("\n")
			}
		}
		blank = 0
		b.WriteString(l)
	}
	return b.String()
}

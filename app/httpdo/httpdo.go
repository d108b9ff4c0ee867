// Package httpdo is how tinyRAG's client code sends HTTP requests: through
// a Doer, which natively is an *http.Client (NetHTTP) and in the browser is
// a small client over the page's fetch() (Fetch).
//
// The request and response are this package's own small types, not
// net/http's, so that app.wasm does not import net/http at all: importing
// it runs the initialisers of Go's TLS stack and keeps its public-key
// cryptography, certificate parsing and math/big in the binary — about
// 0.3 MB of brotli for requests the browser makes itself (docs/startup.md).
// Callers are written once and tested natively against httptest servers.
package httpdo

import (
	"context"
	"fmt"
	"io"
	"net/textproto"
	"net/url"
	"strings"
)

// Doer sends one HTTP request and returns the response, as
// (*http.Client).Do does: a non-2xx status is a response, not an error; the
// caller closes the body; cancelling the request's context ends the request
// and any read of the body still in progress.
type Doer interface {
	Do(req *Request) (*Response, error)
}

// Or returns d, or Default when d is nil.
func Or(d Doer) Doer {
	if d != nil {
		return d
	}
	return Default
}

// Header is a request's or response's header, with net/http's semantics
// (canonical keys: Get("content-type") reads "Content-Type").
type Header = textproto.MIMEHeader

// Request is an HTTP request: what net/http's Request carries that a
// browser's fetch() can send.
type Request struct {
	Method string
	URL    *url.URL
	Header Header
	Body   io.Reader // nil: none
	ctx    context.Context
}

// NewRequest builds a request with a context; url may be relative to the
// page ("/api/llm"), which fetch() resolves and a native client refuses.
func NewRequest(ctx context.Context, method, rawURL string, body io.Reader) (*Request, error) {
	if ctx == nil {
		return nil, fmt.Errorf("httpdo: nil context for %s %s", method, rawURL)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if method == "" {
		method = "GET"
	}
	return &Request{Method: strings.ToUpper(method), URL: u, Header: Header{}, Body: body, ctx: ctx}, nil
}

// Context is the request's context.
func (r *Request) Context() context.Context {
	if r.ctx == nil {
		return context.Background()
	}
	return r.ctx
}

// Response is an HTTP response.
type Response struct {
	StatusCode int
	Status     string // "200 OK"
	Header     Header
	Body       io.ReadCloser // never nil; the caller closes it
	// URL is where the response came from: the request's URL, or where
	// redirects led.
	URL *url.URL
}

// status is the Status line for code: the code and its reason phrase.
func status(code int, text string) string {
	if text == "" {
		text = StatusText(code)
	}
	return strings.TrimSpace(fmt.Sprintf("%d %s", code, text))
}

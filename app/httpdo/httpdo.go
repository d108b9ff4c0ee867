// Package httpdo is how tinyRAG's client code sends HTTP requests: through
// a Doer, which natively is an *http.Client and in the browser is a small
// client over the page's fetch().
//
// Why not net/http in the browser too: its Client works over fetch() in
// js/wasm, but its Transport keeps a path to Go's own HTTP/1, HTTP/2 and TLS
// stack (taken when fetch is missing), so calling it links all of that —
// about 3 MB of code — into app.wasm for requests the browser makes anyway.
// The request and response types stay net/http's, so callers are written
// once and tested natively.
package httpdo

import "net/http"

// Doer sends one HTTP request and returns the response, as
// (*http.Client).Do does: a non-2xx status is a response, not an error; the
// caller closes the body; cancelling the request's context ends the request
// and any read of the body still in progress.
type Doer interface {
	Do(req *http.Request) (*http.Response, error)
}

// Or returns d, or Default when d is nil.
func Or(d Doer) Doer {
	if d != nil {
		return d
	}
	return Default
}

//go:build !tinyrag_browser

package httpdo

import (
	"io"
	"net/http"
)

// NetHTTP sends requests with a net/http client: the native default, and
// what tests give the code under test (an httptest server's Client; Node's
// js/wasm tests reach their in-process servers only through it). The
// browser build (-tags tinyrag_browser, make wasm) leaves it out, and with
// it net/http.
type NetHTTP struct {
	Client *http.Client // nil: http.DefaultClient
}

// Do implements Doer.
func (n NetHTTP) Do(req *Request) (*Response, error) {
	c := n.Client
	if c == nil {
		c = http.DefaultClient
	}
	var body io.Reader
	if req.Body != nil {
		body = req.Body
	}
	hreq, err := http.NewRequestWithContext(req.Context(), req.Method, req.URL.String(), body)
	if err != nil {
		return nil, err
	}
	for k, vs := range req.Header {
		hreq.Header[k] = append([]string(nil), vs...)
	}
	resp, err := c.Do(hreq)
	if err != nil {
		return nil, err
	}
	return &Response{
		StatusCode: resp.StatusCode,
		Status:     resp.Status,
		Header:     Header(resp.Header),
		Body:       resp.Body,
		URL:        resp.Request.URL,
	}, nil
}

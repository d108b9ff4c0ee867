//go:build js && wasm

package httpdo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sync"
	"syscall/js"

	"tinyrag/app/internal/jspromise"
)

// Default is the client used where none is given: fetch() in the
// browser. Tests that run in Node, whose js/wasm port has an in-process
// network for httptest but whose fetch() cannot reach it, set it to
// NetHTTP.
var Default Doer = Fetch{}

// Fetch sends requests with the browser's fetch(). Response bodies are read
// from the response's ReadableStream as they arrive, so an event stream is
// seen chunk by chunk; cancelling the request's context aborts the request
// (an AbortController), also while its body is being read.
//
// Like every browser request it follows redirects by itself, sends cookies
// only to the page's own origin, and cannot set headers the browser forbids
// (User-Agent, …).
type Fetch struct{}

// Do implements Doer.
func (Fetch) Do(req *Request) (*Response, error) {
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		closeBody(req)
		return nil, err
	}
	opt := js.Global().Get("Object").New()
	opt.Set("method", req.Method)
	headers := js.Global().Get("Headers").New()
	for k, vs := range req.Header {
		for _, v := range vs {
			headers.Call("append", k, v)
		}
	}
	opt.Set("headers", headers)
	if req.Body != nil {
		// fetch() streams request bodies only over HTTP/2 with an opt-in;
		// ours are small JSON documents.
		b, err := io.ReadAll(req.Body)
		closeBody(req)
		if err != nil {
			return nil, fmt.Errorf("reading the request body: %w", err)
		}
		if len(b) > 0 {
			buf := js.Global().Get("Uint8Array").New(len(b))
			js.CopyBytesToJS(buf, b)
			opt.Set("body", buf)
		}
	}
	ac := js.Global().Get("AbortController").New()
	opt.Set("signal", ac.Get("signal"))
	// From here on the context aborts the request, its body included; the
	// body's Close releases this.
	stop := context.AfterFunc(ctx, func() { ac.Call("abort") })

	res, err := jspromise.Await(js.Global().Call("fetch", req.URL.String(), opt))
	if err != nil {
		stop()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("fetch %s: %w", req.URL.Redacted(), err)
	}
	code := res.Get("status").Int()
	resp := &Response{
		Status:     status(code, res.Get("statusText").String()),
		StatusCode: code,
		Header:     Header{},
		URL:        req.URL,
	}
	if res.Get("redirected").Bool() {
		// As net/http does: the response names the URL that answered,
		// after redirects.
		if u, err := url.Parse(res.Get("url").String()); err == nil {
			resp.URL = u
		}
	}
	it := res.Get("headers").Call("entries")
	for {
		n := it.Call("next")
		if n.Get("done").Bool() {
			break
		}
		kv := n.Get("value")
		resp.Header.Add(kv.Index(0).String(), kv.Index(1).String())
	}
	if enc := resp.Header.Get("Content-Encoding"); enc != "" {
		// The browser has decoded the body already; its length is not
		// the header's.
		resp.Header.Del("Content-Encoding")
		resp.Header.Del("Content-Length")
	}
	body := &streamBody{ctx: ctx, stop: stop}
	if b := res.Get("body"); !b.IsNull() && !b.IsUndefined() {
		body.reader = b.Call("getReader")
	} else {
		body.err = io.EOF // a 204, a HEAD reply: no body at all
	}
	resp.Body = body
	return resp, nil
}

func closeBody(req *Request) {
	if c, ok := req.Body.(io.Closer); ok {
		c.Close()
	}
}

// streamBody reads a fetch() response's ReadableStream.
type streamBody struct {
	ctx     context.Context
	stop    func() bool
	reader  js.Value
	pending []byte
	err     error // sticky
	once    sync.Once
}

func (b *streamBody) Read(p []byte) (int, error) {
	for len(b.pending) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		chunk, err := jspromise.ReadChunk(b.reader)
		switch {
		case err == io.EOF:
			b.err = io.EOF
		case err != nil && b.ctx.Err() != nil:
			b.err = fmt.Errorf("reading the reply: %w", b.ctx.Err())
		case err != nil:
			b.err = fmt.Errorf("reading the reply: %w", err)
		default:
			b.pending = chunk
		}
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

// Close cancels the rest of the body; a Read blocked on it returns.
func (b *streamBody) Close() error {
	b.once.Do(func() {
		b.stop()
		if b.err == nil {
			b.err = errors.New("reading the reply: body closed")
		}
		if !b.reader.IsUndefined() {
			b.reader.Call("cancel")
		}
	})
	return nil
}

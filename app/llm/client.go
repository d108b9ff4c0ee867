package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"tinyrag/app/httpdo"
)

// Client talks to one OpenAI-compatible endpoint. It is safe for concurrent
// use. The zero value is not usable; call NewClient.
type Client struct {
	base    string
	hc      httpdo.Doer
	apiKey  string
	headers httpdo.Header
}

// Option configures a Client.
type Option func(*Client)

// WithAPIKey sends "Authorization: Bearer key". Local servers (Ollama,
// llama.cpp, LM Studio) need none; through the tinyRAG proxy the key stays
// on the server, so the browser app leaves it empty.
func WithAPIKey(key string) Option { return func(c *Client) { c.apiKey = key } }

// WithHTTPClient replaces the default client (net/http's natively,
// fetch() in the browser). An *http.Client's Timeout, if any, covers the
// whole streamed reply, so long answers need none: cancel the context instead.
func WithHTTPClient(hc httpdo.Doer) Option {
	return func(c *Client) {
		if hc != nil {
			c.hc = hc
		}
	}
}

// WithHeader adds a header to every request, e.g. an OpenRouter
// "HTTP-Referer" or an Azure "api-key".
func WithHeader(k, v string) Option { return func(c *Client) { c.headers.Add(k, v) } }

// NewClient returns a client for baseURL, the part before /chat/completions:
// "http://127.0.0.1:11434/v1" (Ollama), "https://api.openai.com/v1", or the
// relative "/api/llm", which works in the browser (fetch resolves it against
// the page) but not natively. A trailing slash is ignored.
func NewClient(baseURL string, opts ...Option) *Client {
	c := &Client{
		base:    strings.TrimRight(strings.TrimSpace(baseURL), "/"),
		hc:      httpdo.Or(nil),
		headers: httpdo.Header{},
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Endpoint returns the base URL the client was made for.
func (c *Client) Endpoint() string { return c.base }

// wireRequest is what goes over the wire: the caller's Request plus the
// fields that make the reply a stream with a final usage chunk.
type wireRequest struct {
	Request
	Stream        bool           `json:"stream"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 64 << 10

// ChatStream POSTs req to {base}/chat/completions with stream:true and
// returns the reply as a Stream once the server answered 2xx. A non-2xx
// answer is an *HTTPError. Cancelling ctx closes the connection; a Recv
// blocked on it then returns an error wrapping ctx.Err().
//
// Recv returns io.EOF only for a complete reply: after "data: [DONE]", or
// when the connection closes after a finish_reason (some servers and
// proxies drop [DONE]; the finish_reason is the model's own word that the
// reply is whole). A connection that closes before either yields an error
// wrapping ErrStreamEnded; an error the server sends inside the stream is a
// *StreamError; an SSE line over MaxLineBytes is ErrLineTooLong. Chunks
// that carry nothing (the role-only first chunk) are skipped, and thinking
// text (reasoning_content or reasoning) arrives in Delta.Reasoning only.
func (c *Client) ChatStream(ctx context.Context, req Request) (Stream, error) {
	if req.Model == "" {
		return nil, errors.New("llm: request has no model")
	}
	if len(req.Messages) == 0 {
		return nil, errors.New("llm: request has no messages")
	}
	w := wireRequest{Request: req, Stream: true}
	if req.IncludeUsage {
		w.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	body, err := json.Marshal(w)
	if err != nil {
		return nil, fmt.Errorf("llm: encoding request: %w", err)
	}
	endpoint := c.base + "/chat/completions"
	hreq, err := httpdo.NewRequest(ctx, "POST", endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("llm: bad endpoint %q: %w", endpoint, err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	c.decorate(hreq)
	resp, err := c.hc.Do(hreq)
	if err != nil {
		return nil, fmt.Errorf("llm: POST %s: %w", endpoint, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, readHTTPError(endpoint, resp)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		if mediaType(ct) == "application/json" {
			// A server that ignored stream:true answered with one JSON
			// object; reading it as SSE would silently yield nothing.
			b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
			resp.Body.Close()
			if msg, typ, code, ok := parseErrorJSON(b); ok {
				return nil, &StreamError{Endpoint: endpoint, Message: clip(msg), Type: typ, Code: code}
			}
			return nil, fmt.Errorf("llm: %s answered with JSON instead of an event stream (does it support stream:true?): %s", endpoint, clip(string(b)))
		}
	}
	s := newSSEStream(endpoint, resp.Body)
	s.stop = context.AfterFunc(ctx, func() { resp.Body.Close() })
	s.ctxErr = ctx.Err
	return s, nil
}

// mediaType is a Content-Type's media type, lower-cased and without its
// parameters ("Application/JSON; charset=utf-8" is "application/json"): all
// the client asks of mime.ParseMediaType, whose package would bring its
// tables of file types into app.wasm.
func mediaType(contentType string) string {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

func (c *Client) decorate(r *httpdo.Request) {
	for k, vs := range c.headers {
		for _, v := range vs {
			r.Header.Add(k, v)
		}
	}
	if c.apiKey != "" {
		r.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
}

func readHTTPError(endpoint string, resp *httpdo.Response) error {
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	msg := errorMessage(b)
	if msg == "" && err != nil {
		msg = "reading error body: " + err.Error()
	}
	return &HTTPError{Endpoint: endpoint, Status: resp.StatusCode, Message: msg}
}

// Models lists the model ids the server offers, sorted. It GETs
// {base}/models and understands both the OpenAI shape ({"data":[{"id":…}]})
// and Ollama's native /api/tags shape ({"models":[{"name":…}]}). If
// {base}/models is not found and base ends in /v1, it retries at
// {base without /v1}/api/tags, which old Ollama versions need.
func (c *Client) Models(ctx context.Context) ([]string, error) {
	endpoint := c.base + "/models"
	ids, err := c.getModels(ctx, endpoint)
	var he *HTTPError
	if errors.As(err, &he) && he.Status == 404 && strings.HasSuffix(c.base, "/v1") {
		if alt, err2 := c.getModels(ctx, strings.TrimSuffix(c.base, "/v1")+"/api/tags"); err2 == nil {
			return alt, nil
		}
	}
	return ids, err
}

type modelList struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
	Models []struct {
		Name  string `json:"name"`
		Model string `json:"model"`
	} `json:"models"`
}

// maxModelsBody bounds the model list; OpenRouter's is about 1 MiB.
const maxModelsBody = 8 << 20

func (c *Client) getModels(ctx context.Context, endpoint string) ([]string, error) {
	hreq, err := httpdo.NewRequest(ctx, "GET", endpoint, nil)
	if err != nil {
		return nil, fmt.Errorf("llm: bad endpoint %q: %w", endpoint, err)
	}
	hreq.Header.Set("Accept", "application/json")
	c.decorate(hreq)
	resp, err := c.hc.Do(hreq)
	if err != nil {
		return nil, fmt.Errorf("llm: GET %s: %w", endpoint, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, readHTTPError(endpoint, resp)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxModelsBody+1))
	if err != nil {
		return nil, fmt.Errorf("llm: GET %s: reading model list: %w", endpoint, err)
	}
	if len(b) > maxModelsBody {
		return nil, fmt.Errorf("llm: GET %s: model list larger than %d bytes", endpoint, maxModelsBody)
	}
	var ml modelList
	if err := json.Unmarshal(b, &ml); err != nil {
		return nil, fmt.Errorf("llm: GET %s: model list is not JSON (%v): %s", endpoint, err, clip(string(b)))
	}
	seen := map[string]bool{}
	var ids []string
	add := func(id string) {
		if id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for _, m := range ml.Data {
		add(m.ID)
	}
	for _, m := range ml.Models {
		if m.Name != "" {
			add(m.Name)
		} else {
			add(m.Model)
		}
	}
	if ids == nil && ml.Data == nil && ml.Models == nil {
		return nil, fmt.Errorf("llm: GET %s: no \"data\" or \"models\" list in the answer: %s", endpoint, clip(string(b)))
	}
	sort.Strings(ids)
	return ids, nil
}

package llm

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
)

// chunk is one chat.completion.chunk as the supported servers send it.
// Fields nobody needs (id, created, logprobs, llama.cpp's timings) are left
// out so that their shapes can change without breaking us.
type chunk struct {
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content string `json:"content"`
			// ReasoningContent is DeepSeek/vLLM/llama.cpp/LM Studio's
			// field; Reasoning is Ollama's, OpenRouter's and newer
			// vLLM/LM Studio's. Some servers send both with equal text.
			ReasoningContent string `json:"reasoning_content"`
			Reasoning        string `json:"reasoning"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *Usage `json:"usage"`

	// Error shapes a server may send instead of a chunk, decoded in the
	// same pass: {"error":…} (OpenAI, Ollama, newer vLLM) and
	// {"object":"error","message":…} (older vLLM).
	Error  json.RawMessage `json:"error"`
	Object string          `json:"object"`
}

// sseStream implements Stream over an SSE body.
//
// Completeness rule: a stream is complete when it sent "[DONE]", or when it
// sent a finish_reason and then closed. The second case is accepted because
// some servers and proxies drop the [DONE] sentinel, yet a finish_reason is
// the model's own statement that the reply is whole. A stream that closes
// with neither is reported as ErrStreamEnded, never as io.EOF.
type sseStream struct {
	endpoint string
	body     io.ReadCloser
	dec      *sseDecoder
	// stop undoes the context watcher that closes body on cancel.
	stop func() bool
	// ctxErr reports why the request context ended, if it did, so a read
	// error caused by cancellation is reported as the cancellation.
	ctxErr func() error

	closeOnce sync.Once
	closed    atomic.Bool // set by Close, which may run during a blocked Recv
	mu        sync.Mutex
	err       error // sticky: once Recv fails or ends, it keeps doing so
	finished  bool  // a finish_reason was seen
	chunks    int
}

func newSSEStream(endpoint string, body io.ReadCloser) *sseStream {
	return &sseStream{
		endpoint: endpoint,
		body:     body,
		dec:      newSSEDecoder(body),
		ctxErr:   func() error { return nil },
	}
}

// Recv returns the next non-empty delta. Chunks that carry nothing (the
// role-only first chunk, keep-alive events) are skipped.
func (s *sseStream) Recv() (Delta, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if s.err != nil {
			return Delta{}, s.err
		}
		if s.closedByUser() {
			s.err = ErrClosed
			return Delta{}, s.err
		}
		d, ok, err := s.next()
		if err != nil {
			s.err = err
			s.release()
			return Delta{}, err
		}
		if ok {
			return d, nil
		}
	}
}

// next reads one event. ok is false for an event that carried no delta.
func (s *sseStream) next() (d Delta, ok bool, err error) {
	ev, err := s.dec.Next()
	if err == io.EOF {
		if s.finished {
			return Delta{}, false, io.EOF
		}
		if cerr := s.ctxErr(); cerr != nil {
			return Delta{}, false, fmt.Errorf("llm: %s: stream cancelled: %w", s.endpoint, cerr)
		}
		return Delta{}, false, fmt.Errorf("%w: %s: connection closed after %d chunks without [DONE] or finish_reason", ErrStreamEnded, s.endpoint, s.chunks)
	}
	if err != nil {
		if s.closedByUser() {
			return Delta{}, false, ErrClosed
		}
		if cerr := s.ctxErr(); cerr != nil {
			return Delta{}, false, fmt.Errorf("llm: %s: stream cancelled: %w", s.endpoint, cerr)
		}
		return Delta{}, false, fmt.Errorf("llm: %s: reading stream after %d chunks: %w", s.endpoint, s.chunks, err)
	}
	if ev.Error != "" {
		return Delta{}, false, s.streamError([]byte(ev.Error))
	}
	data := strings.TrimSpace(ev.Data)
	if data == "[DONE]" {
		return Delta{}, false, io.EOF
	}
	if data == "" {
		return Delta{}, false, nil
	}
	if ev.Name == "error" {
		return Delta{}, false, s.streamError([]byte(data))
	}
	var c chunk
	if err := json.Unmarshal([]byte(data), &c); err != nil {
		if ev.Unterminated && s.finished {
			// Cut inside the usage chunk or [DONE]: the reply itself is
			// whole (see the completeness rule on sseStream).
			return Delta{}, false, io.EOF
		}
		if ev.Unterminated {
			return Delta{}, false, fmt.Errorf("%w: %s: connection closed inside an event after %d chunks", ErrStreamEnded, s.endpoint, s.chunks)
		}
		return Delta{}, false, fmt.Errorf("llm: %s: chunk %d is not valid JSON (%v): %s", s.endpoint, s.chunks+1, err, clip(data))
	}
	if (len(c.Error) > 0 && string(c.Error) != "null") || c.Object == "error" {
		return Delta{}, false, s.streamError([]byte(data))
	}
	s.chunks++
	d.Usage = c.Usage
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue // we ask for one choice; ignore any others
		}
		d.Content += ch.Delta.Content
		if ch.Delta.ReasoningContent != "" {
			d.Reasoning += ch.Delta.ReasoningContent
		} else {
			d.Reasoning += ch.Delta.Reasoning
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			d.FinishReason = *ch.FinishReason
			s.finished = true
		}
	}
	ok = d.Content != "" || d.Reasoning != "" || d.FinishReason != "" || d.Usage != nil
	return d, ok, nil
}

func (s *sseStream) streamError(b []byte) error {
	msg, typ, code, ok := parseErrorJSON(b)
	if !ok {
		// llama.cpp's "error:" field holds the bare error object.
		var o errorObject
		if json.Unmarshal(b, &o) == nil && o.Message != "" {
			msg, typ, code = o.Message, o.Type, rawScalar(o.Code)
		} else {
			msg = string(b)
		}
	}
	return &StreamError{Endpoint: s.endpoint, Message: clip(msg), Type: typ, Code: code}
}

func (s *sseStream) closedByUser() bool { return s.closed.Load() }

// release closes the body once the stream is over so the connection is
// returned promptly even if the caller forgets Close.
func (s *sseStream) release() {
	s.closeOnce.Do(func() {
		if s.stop != nil {
			s.stop()
		}
		s.body.Close()
	})
}

// Close releases the connection. Recv then returns ErrClosed unless the
// stream had already ended. Close may be called concurrently with Recv (to
// stop a reply from another goroutine) and more than once.
func (s *sseStream) Close() error {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		if s.stop != nil {
			s.stop()
		}
		s.body.Close()
	})
	return nil
}

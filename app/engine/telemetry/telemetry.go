// Package telemetry defines the per-request record of the answer engine: one
// plain value, filled in as the request runs and handed out with the done
// event, so the UI's debug view, the CLI's --json output and an embedder all
// see the same numbers without any global collector.
package telemetry

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// Outcomes of a tool invocation.
const (
	OutcomeOK      = "ok"
	OutcomeError   = "error"
	OutcomeTimeout = "timeout"
	OutcomeSkipped = "skipped"
)

// ToolCall is one tool block the model wrote and what became of it.
type ToolCall struct {
	ID          string  `json:"id"`
	Tool        string  `json:"tool"`
	Element     string  `json:"element"`
	Query       string  `json:"query"`
	Round       int     `json:"round"`
	Outcome     string  `json:"outcome"`          // ok, error, timeout, skipped
	Reason      string  `json:"reason,omitempty"` // why it was skipped
	Error       string  `json:"error,omitempty"`
	ResultBytes int     `json:"result_bytes"`
	StartMS     float64 `json:"start_ms"` // since the request started
	DurationMS  float64 `json:"duration_ms"`
}

// Record is everything measured about one request.
type Record struct {
	RequestID        string     `json:"request_id"`
	Mode             string     `json:"mode"`
	Started          time.Time  `json:"started"`
	Retrieved        int        `json:"retrieved"` // passages put into the prompt
	RetrievalError   string     `json:"retrieval_error,omitempty"`
	TokensStreamed   int        `json:"tokens_streamed"`
	VisibleChars     int        `json:"visible_chars"`
	ThinkingChars    int        `json:"thinking_chars"`
	XMLBlocks        int        `json:"xml_blocks"`
	ParseErrors      int        `json:"parse_errors"`
	Tools            []ToolCall `json:"tools"`
	Continuations    int        `json:"continuations"`
	FallbackReason   string     `json:"fallback_reason"`
	PromptTokens     int        `json:"prompt_tokens,omitempty"` // as reported by the server
	CompletionTokens int        `json:"completion_tokens,omitempty"`
	FirstTokenMS     float64    `json:"first_token_ms"`
	TotalMS          float64    `json:"total_ms"`
	Error            string     `json:"error,omitempty"`
}

// New starts a record with a fresh request id.
func New(now time.Time) Record {
	return Record{RequestID: NewRequestID(), Started: now, Tools: []ToolCall{}}
}

// Since is the time from the start of the request in milliseconds.
func (r *Record) Since(t time.Time) float64 { return MS(t.Sub(r.Started)) }

// MS converts a duration to fractional milliseconds for JSON.
func MS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// NewRequestID returns 16 random hex digits. crypto/rand works both natively
// and in the browser, so ids never collide across tabs.
func NewRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails on supported platforms (Go 1.24+)
	return hex.EncodeToString(b[:])
}

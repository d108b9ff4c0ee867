// Package llm talks to OpenAI-compatible chat endpoints (OpenAI, Ollama,
// llama.cpp server, LM Studio, vLLM, the tinyRAG server's /api/llm proxy).
package llm

import "context"

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is a chat completion request. The client always streams.
type Request struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature *float64  `json:"temperature,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	// IncludeUsage asks for a final usage chunk (stream_options.include_usage).
	// Off by default because a few older servers reject unknown fields.
	IncludeUsage bool `json:"-"`
}

// Usage is the token accounting some servers send in a final chunk.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Delta is one streamed piece of the reply. Content is answer text;
// Reasoning is "thinking" text (reasoning_content / reasoning) that must never
// be mixed into the answer. A delta may carry only Usage, or FinishReason.
type Delta struct {
	Content      string
	Reasoning    string
	FinishReason string
	Usage        *Usage
}

// Stream yields the deltas of one reply. Recv returns io.EOF after the last
// delta of a complete stream, and a descriptive error for a stream that was
// cut or reported an error. Close releases the connection early.
type Stream interface {
	Recv() (Delta, error)
	Close() error
}

// Chatter starts streamed chat completions. *Client implements it; tests and
// the no-LLM fallback provide their own.
type Chatter interface {
	ChatStream(ctx context.Context, req Request) (Stream, error)
}

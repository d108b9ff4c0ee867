package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"tinyrag/app/httpdo"
)

// ErrStreamEnded is wrapped by the error Recv returns when the connection
// closed before the server said the reply was complete (no [DONE] and no
// finish_reason): the answer is truncated and must not be taken as whole.
var ErrStreamEnded = errors.New("llm: stream ended early")

// ErrClosed is returned by Recv after Close.
var ErrClosed = errors.New("llm: stream closed")

// HTTPError is a non-2xx answer from the LLM server.
type HTTPError struct {
	// Endpoint is the URL that was requested.
	Endpoint string
	// Status is the HTTP status code.
	Status int
	// Message is the server's own explanation, taken from a JSON error body
	// when there is one, otherwise the (trimmed) body text.
	Message string
}

// Error names the endpoint, the status and what the server said.
func (e *HTTPError) Error() string {
	status := fmt.Sprintf("HTTP %d", e.Status)
	if t := httpdo.StatusText(e.Status); t != "" {
		status += " " + t
	}
	if e.Message == "" {
		return fmt.Sprintf("llm: %s: %s", e.Endpoint, status)
	}
	return fmt.Sprintf("llm: %s: %s: %s", e.Endpoint, status, e.Message)
}

// StreamError is an error the server reported inside a 200 stream, e.g. a
// context overflow or a model crash after the first tokens.
type StreamError struct {
	// Endpoint is the URL that was requested.
	Endpoint string
	// Message is the server's explanation.
	Message string
	// Type and Code are the server's classification, when it gave one.
	Type, Code string
}

// Error names the endpoint and what the server said.
func (e *StreamError) Error() string {
	var extra []string
	if e.Type != "" {
		extra = append(extra, "type "+e.Type)
	}
	if e.Code != "" {
		extra = append(extra, "code "+e.Code)
	}
	msg := e.Message
	if msg == "" {
		msg = "unspecified error"
	}
	if len(extra) > 0 {
		msg += " (" + strings.Join(extra, ", ") + ")"
	}
	return fmt.Sprintf("llm: %s: server reported an error mid-stream: %s", e.Endpoint, msg)
}

// errorBody is the union of the error shapes the supported servers send:
// OpenAI/LM Studio/llama.cpp/vLLM {"error":{"message":…}}, Ollama
// {"error":"…"}, older vLLM {"object":"error","message":…}, FastAPI
// {"detail":…}.
type errorBody struct {
	Error   json.RawMessage `json:"error"`
	Object  string          `json:"object"`
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
	Detail  json.RawMessage `json:"detail"`
}

type errorObject struct {
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
}

// parseErrorJSON extracts message, type and code from a JSON error payload.
// ok is false when the payload is not one of the known error shapes.
func parseErrorJSON(b []byte) (msg, typ, code string, ok bool) {
	var eb errorBody
	if json.Unmarshal(b, &eb) != nil {
		return "", "", "", false
	}
	if len(eb.Error) > 0 && string(eb.Error) != "null" {
		var s string
		if json.Unmarshal(eb.Error, &s) == nil {
			return s, "", "", true
		}
		var o errorObject
		if json.Unmarshal(eb.Error, &o) == nil {
			if o.Message == "" {
				o.Message = string(eb.Error)
			}
			return o.Message, o.Type, rawScalar(o.Code), true
		}
		return string(eb.Error), "", "", true
	}
	if eb.Object == "error" {
		return eb.Message, eb.Type, rawScalar(eb.Code), true
	}
	if len(eb.Detail) > 0 && string(eb.Detail) != "null" {
		var s string
		if json.Unmarshal(eb.Detail, &s) == nil {
			return s, "", "", true
		}
		return string(eb.Detail), "", "", true
	}
	return "", "", "", false
}

// rawScalar renders a JSON code that may be a number or a string.
func rawScalar(r json.RawMessage) string {
	if len(r) == 0 || string(r) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(r, &s) == nil {
		return s
	}
	return string(r)
}

// maxMessageRunes keeps an HTML error page from a misconfigured proxy from
// flooding logs and the UI.
const maxMessageRunes = 500

// errorMessage turns an error response body into a one-line message.
func errorMessage(body []byte) string {
	if msg, _, _, ok := parseErrorJSON(body); ok {
		return clip(msg)
	}
	return clip(strings.Join(strings.Fields(string(body)), " "))
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= maxMessageRunes {
		return s
	}
	r := []rune(s)
	return string(r[:maxMessageRunes]) + "…"
}

package engine

import (
	"encoding/json"

	"tinyrag/app/engine/telemetry"
)

// Event kinds, the "event" field of every Event.
const (
	EventRoute       = "route"
	EventToken       = "token"
	EventThinking    = "thinking"
	EventToolStart   = "tool_start"
	EventToolResult  = "tool_result"
	EventToolSkipped = "tool_skipped"
	EventDone        = "done"
)

// Reasons of a tool_skipped event (docs/protocol.md).
const (
	SkipDuplicate        = "duplicate"
	SkipMaxToolsPerRound = "max_tools_per_round"
	SkipMaxToolsTotal    = "max_tools_total"
	SkipDisabled         = "disabled"
	SkipUnknownTool      = "unknown_tool"
)

// FallbackMaxContinuations is the done event's fallback_reason when the
// continuation cap ended the loop while the model still had tool results to
// read.
const FallbackMaxContinuations = "max_continuations_reached"

// Event is one step of an answer, as the UI, the CLI and embedders see it.
// Which fields are meaningful depends on Event; MarshalJSON writes exactly
// the fields of that kind (so `"error":""` is present on every tool_result
// and never on a token), while decoding uses the field tags.
type Event struct {
	Event string `json:"event"`

	// route
	Mode  string   `json:"mode,omitempty"`
	Hints []string `json:"hints,omitempty"`
	// route and tool_skipped
	Reason string `json:"reason,omitempty"`

	// token and thinking
	Text string `json:"text,omitempty"`

	// tool_start, tool_result, tool_skipped
	ID    string `json:"id,omitempty"`
	Tool  string `json:"tool,omitempty"`
	Query string `json:"query,omitempty"`
	// tool_result
	Source      string `json:"source,omitempty"`
	ResultBytes int    `json:"result_bytes,omitempty"`
	Result      string `json:"result,omitempty"` // the tool's text, cut to Config.ResultRunes

	// done
	Answer         string            `json:"answer,omitempty"`
	Continuations  int               `json:"continuations,omitempty"`
	FallbackReason string            `json:"fallback_reason,omitempty"`
	Telemetry      *telemetry.Record `json:"telemetry,omitempty"`
	Error          string            `json:"error,omitempty"` // tool_result and done
}

// MarshalJSON writes the fields of the event's kind, in the order of docs/protocol.md.
func (e Event) MarshalJSON() ([]byte, error) {
	switch e.Event {
	case EventRoute:
		hints := e.Hints
		if hints == nil {
			hints = []string{}
		}
		return json.Marshal(struct {
			Event  string   `json:"event"`
			Mode   string   `json:"mode"`
			Reason string   `json:"reason"`
			Hints  []string `json:"hints"`
		}{e.Event, e.Mode, e.Reason, hints})
	case EventToken, EventThinking:
		return json.Marshal(struct {
			Event string `json:"event"`
			Text  string `json:"text"`
		}{e.Event, e.Text})
	case EventToolStart:
		return json.Marshal(struct {
			Event string `json:"event"`
			ID    string `json:"id"`
			Tool  string `json:"tool"`
			Query string `json:"query"`
		}{e.Event, e.ID, e.Tool, e.Query})
	case EventToolResult:
		return json.Marshal(struct {
			Event       string `json:"event"`
			ID          string `json:"id"`
			Tool        string `json:"tool"`
			Query       string `json:"query"`
			Source      string `json:"source"`
			Error       string `json:"error"`
			ResultBytes int    `json:"result_bytes"`
			Result      string `json:"result"`
		}{e.Event, e.ID, e.Tool, e.Query, e.Source, e.Error, e.ResultBytes, e.Result})
	case EventToolSkipped:
		return json.Marshal(struct {
			Event  string `json:"event"`
			ID     string `json:"id"`
			Tool   string `json:"tool"`
			Query  string `json:"query"`
			Reason string `json:"reason"`
		}{e.Event, e.ID, e.Tool, e.Query, e.Reason})
	case EventDone:
		return json.Marshal(struct {
			Event          string            `json:"event"`
			Answer         string            `json:"answer"`
			Continuations  int               `json:"continuations"`
			FallbackReason string            `json:"fallback_reason"`
			Error          string            `json:"error"`
			Telemetry      *telemetry.Record `json:"telemetry,omitempty"`
		}{e.Event, e.Answer, e.Continuations, e.FallbackReason, e.Error, e.Telemetry})
	}
	type plain Event // no methods: avoids recursing into MarshalJSON
	return json.Marshal(plain(e))
}

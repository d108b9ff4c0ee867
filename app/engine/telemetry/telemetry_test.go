package telemetry

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestNewRequestID_IsUniqueHex(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		id := NewRequestID()
		if len(id) != 16 || strings.Trim(id, "0123456789abcdef") != "" || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
	}
}

func TestRecord_JSONNamesTheFields(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := New(start)
	r.Mode = "agentic_answer"
	r.Tools = append(r.Tools, ToolCall{ID: "call-1", Tool: "calculate", Outcome: OutcomeOK, DurationMS: r.Since(start.Add(1500 * time.Microsecond))})
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"request_id":"` + r.RequestID, `"mode":"agentic_answer"`, `"tools":[{"id":"call-1"`, `"duration_ms":1.5`, `"fallback_reason":""`, `"continuations":0`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON %s lacks %s", b, want)
		}
	}
	if empty, _ := json.Marshal(New(start)); !strings.Contains(string(empty), `"tools":[]`) {
		t.Errorf("a new record must list no tools as [], got %s", empty)
	}
}

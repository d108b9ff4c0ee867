package chats

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"tinyrag/app/calc"
	"tinyrag/app/engine"
	"tinyrag/app/llm"
	"tinyrag/app/tool"
)

// scriptLLM replies to round n with the n-th script entry, cut into
// chunks of the given size so tool blocks arrive split across deltas.
type scriptLLM struct {
	rounds []string
	chunk  int
	n      int
}

func (s *scriptLLM) ChatStream(ctx context.Context, req llm.Request) (llm.Stream, error) {
	if s.n >= len(s.rounds) {
		return nil, errors.New("script exhausted")
	}
	text := s.rounds[s.n]
	s.n++
	var parts []string
	for len(text) > 0 {
		k := min(s.chunk, len(text))
		parts = append(parts, text[:k])
		text = text[k:]
	}
	return &scriptStream{parts: parts}, nil
}

type scriptStream struct{ parts []string }

func (s *scriptStream) Recv() (llm.Delta, error) {
	if len(s.parts) == 0 {
		return llm.Delta{}, io.EOF
	}
	p := s.parts[0]
	s.parts = s.parts[1:]
	return llm.Delta{Content: p}, nil
}
func (s *scriptStream) Close() error { return nil }

func failingTool() tool.Tool {
	return tool.Func{ToolName: "url_fetch", Elem: tool.URL, Desc: "fails",
		Fn: func(ctx context.Context, in string) (tool.Result, error) {
			return tool.Result{}, errors.New("host refused the connection")
		}}
}

func TestApply_CardsFollowEngineEventsByBlockOrder(t *testing.T) {
	calcBlock := `<tool name="calculate"><query>3 * (17 + 5) / 2</query></tool>`
	failBlock := `<tool name="url_fetch"><url>https://example.invalid/</url></tool>`
	unknownBlock := `<tool name="shell"><query>ls</query></tool>`
	tests := []struct {
		name       string
		rounds     []string
		chunk      int
		wantStatus []string
		wantResult []string // substring of Result (done) or Error (error/skipped)
		wantAnswer string
	}{
		{
			name:       "calculator done",
			rounds:     []string{"Let me compute.\n\n" + calcBlock + "\n", "It is **33**."},
			chunk:      7,
			wantStatus: []string{StatusDone},
			wantResult: []string{"33"},
			wantAnswer: "It is **33**.",
		},
		{
			name:       "failing tool shows error",
			rounds:     []string{"Fetching. " + failBlock, "The page could not be fetched."},
			chunk:      3,
			wantStatus: []string{StatusError},
			wantResult: []string{"refused"},
			wantAnswer: "could not be fetched",
		},
		{
			name:       "unknown tool is skipped and a duplicate too",
			rounds:     []string{unknownBlock + " and " + calcBlock + calcBlock, "Done: 33."},
			chunk:      1000,
			wantStatus: []string{StatusSkipped, StatusDone, StatusSkipped},
			wantResult: []string{engine.SkipUnknownTool, "33", engine.SkipDuplicate},
			wantAnswer: "Done: 33.",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := tool.NewRegistry(calc.Tool(), failingTool())
			eng := engine.New(engine.DefaultConfig(), &scriptLLM{rounds: tc.rounds, chunk: tc.chunk}, reg, nil)
			m := &Message{Role: RoleAssistant, Streaming: true}
			if _, err := eng.Ask(context.Background(), engine.Request{Question: "q"}, m.Apply); err != nil {
				t.Fatalf("Ask: %v", err)
			}
			if m.Streaming {
				t.Error("still streaming after done")
			}
			if len(m.Cards) != len(tc.wantStatus) {
				t.Fatalf("got %d cards %+v, want %d", len(m.Cards), m.Cards, len(tc.wantStatus))
			}
			for i, c := range m.Cards {
				raw := m.Content[c.Start:c.End]
				if !strings.HasPrefix(raw, "<tool ") || !strings.HasSuffix(raw, "</tool>") {
					t.Errorf("card %d covers %q, not a tool block", i, raw)
				}
				if c.Status != tc.wantStatus[i] {
					t.Errorf("card %d (%s) status %q, want %q (error %q)", i, c.Tool, c.Status, tc.wantStatus[i], c.Error)
				}
				got := c.Result
				if c.Status != StatusDone {
					got = c.Error
				}
				if !strings.Contains(got, tc.wantResult[i]) {
					t.Errorf("card %d result/error %q, want it to contain %q", i, got, tc.wantResult[i])
				}
				if c.ID == "" {
					t.Errorf("card %d has no call id", i)
				}
			}
			if !strings.Contains(m.Answer, tc.wantAnswer) {
				t.Errorf("answer %q, want it to contain %q", m.Answer, tc.wantAnswer)
			}
			if m.Telemetry == nil || m.Route == nil {
				t.Errorf("telemetry %v / route %v missing", m.Telemetry, m.Route)
			}
		})
	}
}

func TestApply_ToolEventBeforeItsBlockWaitsForTheBlock(t *testing.T) {
	m := &Message{Streaming: true}
	m.Apply(engine.Event{Event: engine.EventToolStart, ID: "call-1", Tool: "calculate", Query: "1+1"})
	m.Apply(engine.Event{Event: engine.EventToken, Text: `x <tool name="calculate"><query>1+1</query></tool>`})
	m.Apply(engine.Event{Event: engine.EventToolResult, ID: "call-1", Tool: "calculate", Result: "2"})
	if len(m.Cards) != 1 || m.Cards[0].ID != "call-1" || m.Cards[0].Status != StatusDone || m.Cards[0].Result != "2" {
		t.Fatalf("cards = %+v, want one done card call-1 with result 2", m.Cards)
	}
}

func TestSettle_RunningCardNeverSpinsForever(t *testing.T) {
	m := &Message{Streaming: true}
	m.Apply(engine.Event{Event: engine.EventToken, Text: `<tool name="calculate"><query>1+1</query></tool>`})
	m.Settle("stopped")
	if m.Streaming || m.Cards[0].Status != StatusError || m.Cards[0].Error != "stopped" {
		t.Fatalf("after Settle: streaming=%v card=%+v", m.Streaming, m.Cards[0])
	}
}

func TestApply_ThinkingAndBlockInCodeFenceStayText(t *testing.T) {
	m := &Message{Streaming: true}
	m.Apply(engine.Event{Event: engine.EventThinking, Text: "hmm "})
	m.Apply(engine.Event{Event: engine.EventThinking, Text: "ok"})
	m.Apply(engine.Event{Event: engine.EventToken, Text: "```\n<tool name=\"calculate\"><query>1</query></tool>\n```\n"})
	m.Apply(engine.Event{Event: engine.EventDone, Answer: "x"})
	if m.Thinking != "hmm ok" {
		t.Errorf("thinking = %q", m.Thinking)
	}
	if len(m.Cards) != 0 {
		t.Errorf("a block inside a code fence became a card: %+v", m.Cards)
	}
}

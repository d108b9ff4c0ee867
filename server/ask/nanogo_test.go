package ask

import (
	"strings"
	"testing"
)

func TestAskJSON_NanogoRunsSnippetInChildProcessWhenAllowed(t *testing.T) {
	s, srv := newScriptedLLM(t, 7,
		`Let me run it. <tool name="nanogo"><source>fmt.Println(2 + 2)</source></tool>`,
		`The program printed 4.`,
	)
	evs, stderr, err := runAskJSON(t, s, srv, "--allow-nanogo", "--no-web", "what is 2+2 in Go?")
	if err != nil {
		t.Fatalf("ask: %v\nstderr: %s", err, stderr)
	}
	res := filter(evs, "tool_result")
	if len(res) != 1 || res[0].Tool != "nanogo" || res[0].Error != "" {
		t.Fatalf("tool_result = %+v, want one successful nanogo result", res)
	}
	reqs := s.requests()
	if len(reqs) < 2 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "4") {
		t.Fatalf("the continuation round did not carry the program's output")
	}
}

func TestAskJSON_NanogoInfiniteLoopEndsAtTheToolTimeout(t *testing.T) {
	s, srv := newScriptedLLM(t, 8,
		`<tool name="nanogo"><source>for {}</source></tool>`,
		`It timed out.`,
	)
	evs, stderr, err := runAskJSON(t, s, srv, "--allow-nanogo", "--no-web", "--tool-timeout", "3s", "loop forever")
	if err != nil {
		t.Fatalf("ask: %v\nstderr: %s", err, stderr)
	}
	res := filter(evs, "tool_result")
	if len(res) != 1 || res[0].Error == "" {
		t.Fatalf("tool_result = %+v, want one nanogo result with a timeout error", res)
	}
	if !strings.Contains(strings.ToLower(res[0].Error), "time") {
		t.Errorf("error %q does not say it timed out", res[0].Error)
	}
}

func TestAskJSON_NanogoIsSkippedAsDisabledWithoutTheFlag(t *testing.T) {
	s, srv := newScriptedLLM(t, 9,
		`<tool name="nanogo"><source>fmt.Println(1)</source></tool>`,
		`ok`,
	)
	evs, _, err := runAskJSON(t, s, srv, "--no-web", "run it")
	if err != nil {
		t.Fatal(err)
	}
	sk := filter(evs, "tool_skipped")
	if len(sk) != 1 || sk[0].Reason != "disabled" {
		t.Fatalf("tool_skipped = %+v, want one with reason disabled", sk)
	}
	if len(filter(evs, "tool_start")) != 0 {
		t.Fatal("a disabled nanogo call started")
	}
}

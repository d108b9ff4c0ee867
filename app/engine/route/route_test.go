package route

import (
	"reflect"
	"testing"
)

var allTools = []string{"calculate", "rag_knowledge", "url_fetch", "websearch", "wikipedia", "nanogo"}

func TestDecide_ModesFollowTheRules(t *testing.T) {
	tests := []struct {
		name  string
		in    Input
		mode  Mode
		hints []string
	}{
		{"arithmetic is agentic", Input{Question: "What is 17 * 23?", Tools: allTools}, Agentic, []string{"17 * 23"}},
		{"factorial is agentic", Input{Question: "how big is 30!", Tools: allTools}, Agentic, []string{"30!"}},
		{"calculate word", Input{Question: "Please calculate the VAT.", Tools: allTools}, Agentic, []string{"calculate"}},
		{"url is agentic", Input{Question: "Summarize https://example.com/a?b=1 please", Tools: allTools}, Agentic, []string{"https://example.com/a?b=1"}},
		{"web words", Input{Question: "What are the latest Go news?", Tools: allTools}, Agentic, []string{"latest", "news"}},
		{"german web word", Input{Question: "Was gibt es heute Neues?", Tools: allTools}, Agentic, []string{"heute"}},
		{"wikipedia", Input{Question: "Look up Alan Turing on Wikipedia.", Tools: allTools}, Agentic, []string{"wikipedia"}},
		{"hint for disabled tool is ignored", Input{Question: "Run this go code: fmt.Println(1)", Tools: []string{"calculate"}}, Direct, []string{}},
		{"hint for disabled tool falls back to knowledge", Input{Question: "What are the latest news?", HasKnowledge: true, Tools: []string{"calculate"}}, Retrieval, []string{}},
		{"small talk stays direct with knowledge", Input{Question: "Hello!", HasKnowledge: true, Tools: allTools}, Direct, []string{"hello"}},
		{"knowledge words", Input{Question: "What does our return policy say?", HasKnowledge: true, Tools: allTools}, Retrieval, []string{"policy", "our"}},
		{"knowledge without words", Input{Question: "Who founded the company?", HasKnowledge: true}, Retrieval, []string{}},
		{"nothing", Input{Question: "Write a haiku about rain."}, Direct, []string{}},
		{"year is not arithmetic", Input{Question: "What happened in 1989?", Tools: allTools}, Direct, []string{}},
		{"date ranges are arithmetic-looking but need digits on both sides", Input{Question: "pages 3- and more", Tools: allTools}, Direct, []string{}},
		{"an ISO date is not arithmetic", Input{Question: "What is planned for 2026-12-02?", HasKnowledge: true, Tools: allTools}, Retrieval, []string{}},
		{"a slashed date is not arithmetic", Input{Question: "Who signed on 12/02/2026?", HasKnowledge: true, Tools: allTools}, Retrieval, []string{}},
		{"a difference of years still is", Input{Question: "How long is 2026-1989?", Tools: allTools}, Agentic, []string{"2026-1989"}},
		{"a sum beside a date still is", Input{Question: "On 2026-12-02 we paid 12 + 30", Tools: allTools}, Agentic, []string{"12 + 30"}},
	}
	for _, tt := range tests {
		got := Decide(tt.in)
		if got.Mode != tt.mode || !reflect.DeepEqual(got.Hints, tt.hints) || got.Reason == "" {
			t.Errorf("%s: Decide = %+v, want mode %s hints %q", tt.name, got, tt.mode, tt.hints)
		}
	}
}

func TestDecide_IsDeterministic(t *testing.T) {
	in := Input{Question: "calculate 2+2 and search the web for today's news about https://go.dev", HasKnowledge: true, Tools: allTools}
	first := Decide(in)
	for i := 0; i < 50; i++ {
		if got := Decide(in); !reflect.DeepEqual(got, first) {
			t.Fatalf("run %d: %+v, first %+v", i, got, first)
		}
	}
	if first.Reason != "the question hints at tools: calculate, url_fetch, websearch" {
		t.Fatalf("reason %q", first.Reason)
	}
}

func TestDecision_RetrieveUnlessDirect(t *testing.T) {
	for m, want := range map[Mode]bool{Direct: false, Retrieval: true, Agentic: true} {
		if got := (Decision{Mode: m}).Retrieve(); got != want {
			t.Errorf("%s: Retrieve = %v", m, got)
		}
	}
}

package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"tinyrag/app/engine/evidence"
	"tinyrag/app/llm"
	"tinyrag/app/protocol"
	"tinyrag/app/tool"
)

// upper is a real, tiny tool: it upper-cases its query.
func upper(name string) tool.Tool {
	return tool.Func{ToolName: name, Elem: tool.Query, Desc: "upper-cases text",
		Fn: func(ctx context.Context, in string) (tool.Result, error) {
			return tool.Result{Content: strings.ToUpper(in), Source: name + ":" + in}, nil
		}}
}

// failing always fails with the given message.
func failing(name, msg string) tool.Tool {
	return tool.Func{ToolName: name, Elem: tool.Query, Desc: "fails",
		Fn: func(ctx context.Context, in string) (tool.Result, error) { return tool.Result{}, errors.New(msg) }}
}

func block(name, elem, input string) string {
	return fmt.Sprintf(`<tool name="%s"><%s>%s</%s></tool>`, name, elem, input, elem)
}

// recorder collects events and checks they all come from one goroutine
// one after another (emit is never called concurrently).
type recorder struct {
	mu     sync.Mutex
	busy   bool
	events []Event
	t      *testing.T
}

func (r *recorder) emit(e Event) {
	r.mu.Lock()
	if r.busy {
		r.t.Error("emit called concurrently")
	}
	r.busy = true
	r.mu.Unlock()
	r.events = append(r.events, e)
	r.mu.Lock()
	r.busy = false
	r.mu.Unlock()
}

func (r *recorder) kinds() []string {
	var out []string
	for _, e := range r.events {
		if e.Event == EventToken && len(out) > 0 && out[len(out)-1] == EventToken {
			continue // runs of tokens count once
		}
		out = append(out, e.Event)
	}
	return out
}

func (r *recorder) of(kind string) []Event {
	var out []Event
	for _, e := range r.events {
		if e.Event == kind {
			out = append(out, e)
		}
	}
	return out
}

func (r *recorder) tokens() string {
	var b strings.Builder
	for _, e := range r.of(EventToken) {
		b.WriteString(e.Text)
	}
	return b.String()
}

func ask(t *testing.T, cfg Config, chat llm.Chatter, reg *tool.Registry, q string) (*recorder, Result, error) {
	t.Helper()
	rec := &recorder{t: t}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // hang guard only
	defer cancel()
	res, err := New(cfg, chat, reg, nil).Ask(ctx, Request{Question: q, Model: "m"}, rec.emit)
	return rec, res, err
}

func TestAsk_OneToolRoundThenContinuationWithEvidence(t *testing.T) {
	reply1 := "Let me look. " + block("upper", "query", "hello world") + " One moment."
	for _, n := range []int{1, 3, 7, 1000} {
		chat := &scriptedChat{rounds: [][]step{chunked(reply1, n), text("It is HELLO WORLD.")}}
		rec, res, err := ask(t, DefaultConfig(), chat, tool.NewRegistry(upper("upper")), "shout hello world")
		if err != nil {
			t.Fatal(err)
		}
		// Tokens interleave with tool events as the tool happens to finish;
		// what is fixed: route first, tool_start right after the text that
		// completed its block, tool_result after it, done last.
		var kinds []string
		shown, blockEnd := 0, strings.Index(reply1, "</tool>")+len("</tool>")
		for _, e := range rec.events {
			switch e.Event {
			case EventToken:
				shown += len(e.Text)
			case EventToolStart:
				if shown < blockEnd {
					t.Fatalf("chunk %d: tool_start before its block was shown", n)
				}
				kinds = append(kinds, e.Event)
			default:
				kinds = append(kinds, e.Event)
			}
		}
		if want := "route,tool_start,tool_result,done"; strings.Join(kinds, ",") != want {
			t.Fatalf("chunk %d: events %v, want %s", n, kinds, want)
		}
		if rec.tokens() != reply1+ParagraphBreak+"It is HELLO WORLD." {
			t.Fatalf("chunk %d: tokens %q", n, rec.tokens())
		}
		st := rec.of(EventToolStart)[0]
		tr := rec.of(EventToolResult)[0]
		if st.ID != "call-1" || st.Tool != "upper" || st.Query != "hello world" ||
			tr.ID != "call-1" || tr.Result != "HELLO WORLD" || tr.ResultBytes != 11 || tr.Source != "upper:hello world" || tr.Error != "" {
			t.Fatalf("chunk %d: start %+v result %+v", n, st, tr)
		}
		reqs := chat.requests()
		if len(reqs) != 2 {
			t.Fatalf("%d model calls, want 2", len(reqs))
		}
		msgs := reqs[1].Messages
		last := msgs[len(msgs)-1]
		if msgs[len(msgs)-2].Role != "assistant" || msgs[len(msgs)-2].Content != reply1 {
			t.Fatalf("continuation lacks the assistant's text: %+v", msgs[len(msgs)-2])
		}
		if last.Role != "user" || !strings.HasPrefix(last.Content, evidence.Header) ||
			!strings.Contains(last.Content, "BEGIN UNTRUSTED TOOL RESULT id=call-1 tool=upper") ||
			!strings.Contains(last.Content, "HELLO WORLD") {
			t.Fatalf("continuation lacks the evidence packet:\n%s", last.Content)
		}
		if res.Answer != "Let me look.  One moment.\n\nIt is HELLO WORLD." || res.Continuations != 1 || res.FallbackReason != "" {
			t.Fatalf("result %+v", res)
		}
		done := rec.of(EventDone)[0]
		if done.Answer != res.Answer || done.Telemetry == nil || done.Telemetry.Continuations != 1 || len(done.Telemetry.Tools) != 1 {
			t.Fatalf("done %+v", done)
		}
	}
}

func TestAsk_ToolStartsBeforeTheStreamEnds(t *testing.T) {
	started := make(chan struct{})
	slowStart := tool.Func{ToolName: "probe", Elem: tool.Query, Desc: "signals its start",
		Fn: func(ctx context.Context, in string) (tool.Result, error) {
			close(started)
			return tool.Result{Content: "probed " + in}, nil
		}}
	// The reply cannot go on until the tool has started: if the engine
	// waited for the end of the stream to run tools, this would deadlock
	// and fail on the hang guard's deadline.
	chat := &scriptedChat{rounds: [][]step{
		{{content: block("probe", "query", "x")}, {wait: started}, {content: " and more text"}},
		text("done"),
	}}
	rec, _, err := ask(t, DefaultConfig(), chat, tool.NewRegistry(slowStart), "q")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.of(EventToolResult)) != 1 {
		t.Fatalf("events %v", rec.kinds())
	}
}

func TestAsk_ResultsCollectedInCallOrder(t *testing.T) {
	fastReported := make(chan struct{})
	slow := tool.Func{ToolName: "slow", Elem: tool.Query, Desc: "finishes after fast was reported",
		Fn: func(ctx context.Context, in string) (tool.Result, error) {
			select {
			case <-fastReported:
			case <-ctx.Done():
				return tool.Result{}, ctx.Err()
			}
			return tool.Result{Content: "slow " + in}, nil
		}}
	fast := tool.Func{ToolName: "fast", Elem: tool.Query, Desc: "finishes first",
		Fn: func(ctx context.Context, in string) (tool.Result, error) {
			return tool.Result{Content: "fast " + in}, nil
		}}
	chat := &scriptedChat{rounds: [][]step{text(block("slow", "query", "a"), block("fast", "query", "b")), text("ok")}}
	var results []string
	emit := func(e Event) {
		if e.Event == EventToolResult {
			results = append(results, e.Tool)
			if e.Tool == "fast" {
				close(fastReported)
			}
		}
	}
	_, err := New(DefaultConfig(), chat, tool.NewRegistry(slow, fast), nil).Ask(context.Background(), Request{Question: "q"}, emit)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(results) != "[fast slow]" {
		t.Fatalf("tool_result events should come as tools finish: %v", results)
	}
	packet := chat.requests()[1].Messages[3].Content
	if a, b := strings.Index(packet, "id=call-1 tool=slow"), strings.Index(packet, "id=call-2 tool=fast"); a < 0 || b < 0 || a > b {
		t.Fatalf("evidence must be in call order:\n%s", packet)
	}
}

// TestSafety_SkippedCalls covers the safety rows "Duplicate calls are
// skipped", "Max calls per request", "Max calls per round" and the rule (docs/protocol.md)
// that unknown or disabled tools are skipped and reported, never run.
func TestSafety_SkippedCalls(t *testing.T) {
	reg := tool.NewRegistry(upper("upper"), upper("other"), upper("off"))
	reg.SetEnabled("off", false)
	tests := []struct {
		name    string
		cfg     func(*Config)
		reply   string
		ran     []string // queries that ran
		skipped []string // reasons, in order
	}{
		{"unknown tool is skipped", nil, block("nope", "query", "a"), nil, []string{SkipUnknownTool}},
		{"disabled tool is skipped", nil, block("off", "query", "a"), nil, []string{SkipDisabled}},
		{"duplicate calls are skipped (name case, whitespace runs)", nil,
			block("upper", "query", "a  b") + block("UPPER", "query", " a b ") + block("upper", "query", "a\n\tb"),
			[]string{"a  b"}, []string{SkipDuplicate, SkipDuplicate}},
		{"same input for another tool is no duplicate", nil,
			block("upper", "query", "a") + block("other", "query", "a"), []string{"a", "a"}, nil},
		{"max calls per round", nil,
			block("upper", "query", "1") + block("upper", "query", "2") + block("upper", "query", "3") + block("upper", "query", "4"),
			[]string{"1", "2", "3"}, []string{SkipMaxToolsPerRound}},
		{"max calls per request", func(c *Config) { c.MaxToolsTotal = 2 },
			block("upper", "query", "1") + block("upper", "query", "2") + block("upper", "query", "3"),
			[]string{"1", "2"}, []string{SkipMaxToolsTotal}},
		{"skipped calls do not use up the caps", func(c *Config) { c.MaxToolsPerRound = 1 },
			block("nope", "query", "1") + block("off", "query", "2") + block("upper", "query", "3"),
			[]string{"3"}, []string{SkipUnknownTool, SkipDisabled}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			chat := &scriptedChat{rounds: [][]step{chunked(tt.reply, 5), text("fine")}}
			rec, _, err := ask(t, cfg, chat, reg, "q")
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			var ran, skipped []string
			for _, e := range rec.of(EventToolStart) {
				ran = append(ran, e.Query)
			}
			for _, e := range rec.of(EventToolSkipped) {
				skipped = append(skipped, e.Reason)
			}
			if fmt.Sprint(ran) != fmt.Sprint(tt.ran) || fmt.Sprint(skipped) != fmt.Sprint(tt.skipped) {
				t.Errorf("%s: ran %q skipped %q, want %q %q", tt.name, ran, skipped, tt.ran, tt.skipped)
			}
			if rec.tokens() != tt.reply+ParagraphBreak+"fine" && len(tt.ran) > 0 {
				t.Errorf("%s: visible text changed: %q", tt.name, rec.tokens())
			}
		})
	}
}

func TestAsk_EachRoundIsItsOwnParagraph(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rounds [][]step
		tokens string
		answer string
	}{
		{"text then continuation",
			[][]step{text("One moment" + block("upper", "query", "x")), text("The answer is X.")},
			"One moment" + block("upper", "query", "x") + "\n\nThe answer is X.", "One moment\n\nThe answer is X."},
		{"a round that only calls a tool still separates",
			[][]step{text(block("upper", "query", "x")), text("Then" + block("upper", "query", "y")), text("Done.")},
			block("upper", "query", "x") + "\n\nThen" + block("upper", "query", "y") + "\n\nDone.", "Then\n\nDone."},
		{"one round, no break", [][]step{text("Just this.")}, "Just this.", "Just this."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, res, err := ask(t, DefaultConfig(), &scriptedChat{rounds: tc.rounds}, tool.NewRegistry(upper("upper")), "q")
			if err != nil {
				t.Fatal(err)
			}
			if got := rec.tokens(); got != tc.tokens {
				t.Errorf("tokens %q, want %q", got, tc.tokens)
			}
			if res.Answer != tc.answer {
				t.Errorf("answer %q, want %q", res.Answer, tc.answer)
			}
		})
	}
}

func TestSafety_MaxCallsPerRequestCountsAcrossRounds(t *testing.T) {
	cfg := DefaultConfig() // 5 total, 3 per round
	chat := &scriptedChat{rounds: [][]step{
		text(block("upper", "query", "1"), block("upper", "query", "2"), block("upper", "query", "3")),
		text(block("upper", "query", "1"), block("upper", "query", "4"), block("upper", "query", "5"), block("upper", "query", "6")),
		text("final"),
	}}
	rec, res, err := ask(t, cfg, chat, tool.NewRegistry(upper("upper")), "q")
	if err != nil {
		t.Fatal(err)
	}
	var skipped []string
	for _, e := range rec.of(EventToolSkipped) {
		skipped = append(skipped, e.ID+":"+e.Reason)
	}
	if fmt.Sprint(skipped) != "[call-4:duplicate call-7:max_tools_total]" || len(rec.of(EventToolStart)) != 5 {
		t.Fatalf("skipped %v, %d started", skipped, len(rec.of(EventToolStart)))
	}
	packet := chat.requests()[2].Messages[5].Content
	if !strings.Contains(packet, `call-7 upper "6": max_tools_total`) {
		t.Fatalf("the packet should name the skipped call:\n%s", packet)
	}
	if res.Continuations != 2 || res.Answer != "final" {
		t.Fatalf("result %+v", res)
	}
}

func TestSafety_MaxContinuationRounds(t *testing.T) {
	for _, max := range []int{0, 1, 3} {
		var rounds [][]step
		for i := 0; i <= max+2; i++ {
			rounds = append(rounds, text(fmt.Sprintf("round %d ", i), block("upper", "query", fmt.Sprint("q", i))))
		}
		cfg := DefaultConfig()
		cfg.MaxContinuations = max
		cfg.MaxToolsTotal = 100
		chat := &scriptedChat{rounds: rounds}
		_, res, err := ask(t, cfg, chat, tool.NewRegistry(upper("upper")), "q")
		if err != nil {
			t.Fatal(err)
		}
		if n := len(chat.requests()); n != max+1 || res.Continuations != max || res.FallbackReason != FallbackMaxContinuations {
			t.Fatalf("max %d: %d model calls, result %+v", max, n, res)
		}
	}
}

func TestAsk_NoFallbackWhenTheModelStopsCallingTools(t *testing.T) {
	chat := &scriptedChat{rounds: [][]step{text(block("upper", "query", "a")), text("answer")}}
	cfg := DefaultConfig()
	cfg.MaxContinuations = 1
	_, res, err := ask(t, cfg, chat, tool.NewRegistry(upper("upper")), "q")
	if err != nil || res.FallbackReason != "" || res.Continuations != 1 {
		t.Fatalf("res %+v err %v", res, err)
	}
}

func TestAsk_ElementMismatchIsAnErrorResult(t *testing.T) {
	chat := &scriptedChat{rounds: [][]step{text(block("upper", "url", "http://a.test")), text("sorry")}}
	rec, _, err := ask(t, DefaultConfig(), chat, tool.NewRegistry(upper("upper")), "q")
	if err != nil {
		t.Fatal(err)
	}
	r := rec.of(EventToolResult)
	if len(r) != 1 || r[0].Error != "upper takes <query>, got <url>" {
		t.Fatalf("results %+v", r)
	}
	if !strings.Contains(chat.requests()[1].Messages[3].Content, "error: upper takes <query>, got <url>") {
		t.Fatal("the mismatch is not reported to the model")
	}
}

func TestAsk_FailedToolReportedVerbatim(t *testing.T) {
	chat := &scriptedChat{rounds: [][]step{text(block("websearch", "query", "x")), text("It failed.")}}
	reg := tool.NewRegistry(failing("websearch", "search backend answered 502 Bad Gateway"))
	rec, _, err := ask(t, DefaultConfig(), chat, reg, "q")
	if err != nil {
		t.Fatal(err)
	}
	if r := rec.of(EventToolResult); r[0].Error != "search backend answered 502 Bad Gateway" {
		t.Fatalf("result %+v", r[0])
	}
	p := chat.requests()[1].Messages[3].Content
	if !strings.Contains(p, "error: search backend answered 502 Bad Gateway") || !strings.Contains(p, "do not invent") {
		t.Fatalf("packet:\n%s", p)
	}
	if tel := rec.of(EventDone)[0].Telemetry; tel.Tools[0].Outcome != "error" {
		t.Fatalf("telemetry %+v", tel.Tools)
	}
}

func TestSafety_PerToolTimeoutAbandonsAToolThatIgnoresItsContext(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	stuck := tool.Func{ToolName: "stuck", Elem: tool.Query, Desc: "never returns on time",
		Fn: func(ctx context.Context, in string) (tool.Result, error) {
			<-release // ignores ctx on purpose
			return tool.Result{Content: "late"}, nil
		}}
	cfg := DefaultConfig()
	cfg.ToolTimeout = 20 * time.Millisecond
	chat := &scriptedChat{rounds: [][]step{text(block("stuck", "query", "x")), text("It timed out.")}}
	rec, _, err := ask(t, cfg, chat, tool.NewRegistry(stuck), "q")
	if err != nil {
		t.Fatal(err)
	}
	r := rec.of(EventToolResult)
	if len(r) != 1 || r[0].Error != "stuck timed out after 20ms" {
		t.Fatalf("results %+v", r)
	}
	if tel := rec.of(EventDone)[0].Telemetry; tel.Tools[0].Outcome != "timeout" {
		t.Fatalf("telemetry %+v", tel.Tools)
	}
}

func TestAsk_ToolPanicBecomesAnError(t *testing.T) {
	boom := tool.Func{ToolName: "boom", Elem: tool.Query, Desc: "panics",
		Fn: func(ctx context.Context, in string) (tool.Result, error) { panic("kaboom") }}
	chat := &scriptedChat{rounds: [][]step{text(block("boom", "query", "x")), text("ok")}}
	rec, _, err := ask(t, DefaultConfig(), chat, tool.NewRegistry(boom), "q")
	if err != nil {
		t.Fatal(err)
	}
	if r := rec.of(EventToolResult); !strings.Contains(r[0].Error, "boom crashed: kaboom") {
		t.Fatalf("result %+v", r[0])
	}
}

func TestAsk_CancelStopsTheStreamAndEveryRunningTool(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stopped sync.WaitGroup
	stopped.Add(2)
	waiter := tool.Func{ToolName: "wait", Elem: tool.Query, Desc: "runs until cancelled",
		Fn: func(ctx context.Context, in string) (tool.Result, error) {
			<-ctx.Done()
			stopped.Done()
			return tool.Result{}, ctx.Err()
		}}
	never := make(chan struct{})
	chat := &scriptedChat{rounds: [][]step{{
		{content: block("wait", "query", "1") + block("wait", "query", "2")},
		{wait: never},
	}}}
	var events []Event
	emit := func(e Event) {
		events = append(events, e)
		if e.Event == EventToolStart && e.Query == "2" {
			cancel()
		}
	}
	res, err := New(DefaultConfig(), chat, tool.NewRegistry(waiter), nil).Ask(ctx, Request{Question: "q"}, emit)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	stopped.Wait() // both tools saw the cancellation (a hang here fails the test run)
	if chat.closed != 1 {
		t.Fatalf("stream closed %d times, want 1", chat.closed)
	}
	last := events[len(events)-1]
	if last.Event != EventDone || !strings.Contains(last.Error, "context canceled") || res.Telemetry.Error == "" {
		t.Fatalf("last event %+v", last)
	}
	if n := len(chat.requests()); n != 1 {
		t.Fatalf("%d model calls after cancel", n)
	}
	results := 0
	for _, e := range events {
		if e.Event == EventToolResult {
			results++
		}
	}
	if results != 2 {
		t.Fatalf("every started tool must get a tool_result, got %d", results)
	}
}

func TestAsk_LLMFailureEndsWithAnError(t *testing.T) {
	tests := []struct {
		name   string
		chat   *scriptedChat
		answer string
	}{
		{"cannot connect", &scriptedChat{openErr: errors.New("llm: POST http://127.0.0.1:1/v1/chat/completions: connection refused")}, ""},
		{"cut mid-stream", &scriptedChat{rounds: [][]step{{{content: "Partial "}, {content: "answer"}, {err: errors.New("llm: stream ended without [DONE]")}}}}, "Partial answer"},
	}
	for _, tt := range tests {
		rec, res, err := ask(t, DefaultConfig(), tt.chat, nil, "q")
		if err == nil {
			t.Fatalf("%s: no error", tt.name)
		}
		done := rec.of(EventDone)
		if len(done) != 1 || done[0].Error != err.Error() || res.Answer != tt.answer {
			t.Fatalf("%s: done %+v res %+v", tt.name, done, res)
		}
	}
}

func TestSafety_PartialInvalidNestedAndFencedBlocksNeverRunAndStayVisible(t *testing.T) {
	calls := 0
	counting := tool.Func{ToolName: "upper", Elem: tool.Query, Desc: "counts",
		Fn: func(ctx context.Context, in string) (tool.Result, error) {
			calls++
			return tool.Result{Content: in}, nil
		}}
	reply := "Example:\n```\n" + block("upper", "query", "fenced") + "\n```\n" +
		"Inline `" + block("upper", "query", "span") + "`.\n" +
		`<tool name=""><query>noname</query></tool>` + "\n" +
		`<tool name="upper"><query><tool name="upper"><query>nested</query></tool></query></tool>` + "\n" +
		`<tool name="upper"><query>partial</query>`
	for _, n := range []int{1, 4, 9, len(reply)} {
		calls = 0
		chat := &scriptedChat{rounds: [][]step{chunked(reply, n)}}
		rec, res, err := ask(t, DefaultConfig(), chat, tool.NewRegistry(counting), "q")
		if err != nil {
			t.Fatal(err)
		}
		if calls != 0 || len(rec.of(EventToolStart)) != 0 || len(chat.requests()) != 1 {
			t.Fatalf("chunk %d: %d tools ran", n, calls)
		}
		if rec.tokens() != reply || res.Answer != strings.TrimSpace(reply) {
			t.Fatalf("chunk %d: visible %q", n, rec.tokens())
		}
		if tel := res.Telemetry; tel.XMLBlocks != 3 || tel.ParseErrors != 3 {
			t.Fatalf("chunk %d: telemetry blocks %d errors %d", n, tel.XMLBlocks, tel.ParseErrors)
		}
	}
}

func TestAsk_ThinkingIsAnEventNotAnswer(t *testing.T) {
	chat := &scriptedChat{rounds: [][]step{{{reasoning: "hmm, "}, {reasoning: "let me think"}, {content: "Four."}, {usage: &llm.Usage{PromptTokens: 10, CompletionTokens: 3}}}}}
	rec, res, err := ask(t, DefaultConfig(), chat, nil, "2+2?")
	if err != nil {
		t.Fatal(err)
	}
	th := rec.of(EventThinking)
	if len(th) != 2 || th[0].Text+th[1].Text != "hmm, let me think" || res.Answer != "Four." {
		t.Fatalf("thinking %+v answer %q", th, res.Answer)
	}
	if res.Telemetry.ThinkingChars != 17 || res.Telemetry.PromptTokens != 10 || res.Telemetry.CompletionTokens != 3 || res.Telemetry.TokensStreamed != 1 {
		t.Fatalf("telemetry %+v", res.Telemetry)
	}
}

// kb is a real, minimal retriever over fixed passages: it returns those
// containing any word of the query.
type kb []tool.Passage

func (k kb) Retrieve(ctx context.Context, q string, n int) ([]tool.Passage, error) {
	var out []tool.Passage
	for _, p := range k {
		for _, w := range strings.Fields(strings.ToLower(q)) {
			if strings.Contains(strings.ToLower(p.Text), strings.Trim(w, "?")) {
				out = append(out, p)
				break
			}
		}
	}
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}

func TestAsk_RetrievedContextGoesIntoTheSystemPromptWithCitations(t *testing.T) {
	k := kb{{DocID: "d1", Title: "Returns", Source: "policy.md", Text: "Refunds within 30 days."}}
	tests := []struct {
		q       string
		context bool
		mode    string
	}{
		{"What about refunds?", true, "retrieval_answer"},
		{"Hello", false, "direct_answer"},
	}
	for _, tt := range tests {
		chat := &scriptedChat{rounds: [][]step{text("ok")}}
		var events []Event
		_, err := New(DefaultConfig(), chat, tool.NewRegistry(upper("upper")), k).Ask(context.Background(), Request{Question: tt.q, Persona: "Be brief.", AnswerLanguage: "German"}, func(e Event) { events = append(events, e) })
		if err != nil {
			t.Fatal(err)
		}
		sys := chat.requests()[0].Messages[0]
		has := strings.Contains(sys.Content, "[1] Returns — policy.md\nRefunds within 30 days.")
		if sys.Role != "system" || has != tt.context || events[0].Mode != tt.mode {
			t.Fatalf("%q: context %v mode %s:\n%s", tt.q, has, events[0].Mode, sys.Content)
		}
		for _, want := range []string{"Be brief.", "Answer in German.", `<tool name="upper"><query>…</query></tool>`, "Never put a tool block inside a code fence"} {
			if !strings.Contains(sys.Content, want) {
				t.Fatalf("system prompt lacks %q", want)
			}
		}
	}
}

func TestAsk_HistoryPrecedesTheQuestion(t *testing.T) {
	chat := &scriptedChat{rounds: [][]step{text("ok")}}
	hist := []llm.Message{{Role: "user", Content: "earlier"}, {Role: "assistant", Content: "reply"}}
	_, err := New(DefaultConfig(), chat, nil, nil).Ask(context.Background(), Request{Question: "now", History: hist, Model: "mx"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := chat.requests()[0]
	if r.Model != "mx" || len(r.Messages) != 4 || r.Messages[1].Content != "earlier" || r.Messages[3].Content != "now" {
		t.Fatalf("request %+v", r)
	}
	if !strings.Contains(r.Messages[0].Content, "No tools are available") {
		t.Fatal("without tools the prompt must not describe the protocol")
	}
}

func TestEvent_JSONHasExactlyTheFieldsOfItsKind(t *testing.T) {
	tests := []struct {
		ev   Event
		keys string
	}{
		{Event{Event: EventRoute, Mode: "direct_answer", Reason: "r"}, "event,hints,mode,reason"},
		{Event{Event: EventToken, Text: ""}, "event,text"},
		{Event{Event: EventThinking, Text: "t"}, "event,text"},
		{Event{Event: EventToolStart, ID: "call-1", Tool: "t", Query: "q", Source: "ignored"}, "event,id,query,tool"},
		{Event{Event: EventToolResult, ID: "call-1"}, "error,event,id,query,result,result_bytes,source,tool"},
		{Event{Event: EventToolSkipped, ID: "call-1", Reason: "duplicate"}, "event,id,query,reason,tool"},
		{Event{Event: EventDone}, "answer,continuations,error,event,fallback_reason"},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.ev)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if strings.Join(keys, ",") != tt.keys {
			t.Errorf("%s: keys %v, want %s (%s)", tt.ev.Event, keys, tt.keys, b)
		}
		var back Event
		if err := json.Unmarshal(b, &back); err != nil || back.Event != tt.ev.Event || back.ID != tt.ev.ID {
			t.Errorf("%s: does not decode back: %+v %v", tt.ev.Event, back, err)
		}
	}
}

func mustCall(t *testing.T, b string) protocol.Call {
	t.Helper()
	c, err := protocol.CheckBlock(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCanonicalKey_IgnoresNameCaseAndWhitespaceRuns(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{block("Calculate", "query", "1 +  2"), block("calculate", "query", " 1 + 2"), true},
		{block("calculate", "query", "1+2"), block("calculate", "query", "1 + 2"), false},
		{block("websearch", "query", "go"), block("wikipedia", "query", "go"), false},
	}
	for _, tt := range tests {
		ca := mustCall(t, tt.a)
		cb := mustCall(t, tt.b)
		if got := CanonicalKey(ca) == CanonicalKey(cb); got != tt.same {
			t.Errorf("%s vs %s: same=%v", tt.a, tt.b, got)
		}
	}
}

func TestDefaultConfig_MatchesTheSafetyTable(t *testing.T) {
	c := DefaultConfig()
	if c.MaxToolsTotal != 5 || c.MaxToolsPerRound != 3 || c.MaxContinuations != 3 || c.ToolTimeout != 30*time.Second ||
		c.ResultRunes != 6000 || c.EvidenceRunes != 18000 {
		t.Fatalf("defaults %+v", c)
	}
	if got := New(Config{}, nil, nil, nil).Config(); got.ToolTimeout != 30*time.Second || got.ResultRunes != 6000 || got.MaxContinuations != 0 {
		t.Fatalf("zero config: %+v (timeouts and budgets default, caps are literal)", got)
	}
}

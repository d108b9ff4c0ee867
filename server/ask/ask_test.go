package ask

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"tinyrag/app/engine"
	"tinyrag/app/llm"
)

// pause in a scripted reply makes the server stop streaming there until
// the gate opens; it is never sent.
const pause = "⏸"

// scriptedLLM is an OpenAI-compatible server on loopback that streams
// scripted replies, one per chat request, cut into random deltas and
// written in random fragments (so SSE lines arrive split anywhere), in the
// wire styles of real servers.
type scriptedLLM struct {
	t       *testing.T
	replies []string
	seed    uint64
	gate    chan struct{} // closed by the test to let a paused reply go on

	mu   sync.Mutex
	reqs []llm.Request
	auth []string
	// failWith, when set, is the status and body of every chat request.
	failStatus int
	failBody   string
	cutAfter   int    // >0: drop the connection after this many content deltas, without [DONE]
	midError   string // sent as an {"error":…} event after the first content delta
}

func newScriptedLLM(t *testing.T, seed uint64, replies ...string) (*scriptedLLM, *httptest.Server) {
	s := &scriptedLLM{t: t, replies: replies, seed: seed, gate: make(chan struct{})}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

func (s *scriptedLLM) requests() []llm.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]llm.Request(nil), s.reqs...)
}

func (s *scriptedLLM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/v1/models":
		fmt.Fprint(w, `{"object":"list","data":[{"id":"scripted-model","object":"model"},{"id":"zz-other"}]}`)
		return
	case "/v1/chat/completions":
	default:
		http.NotFound(w, r)
		return
	}
	var req llm.Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, 400)
		return
	}
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, req)
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	s.mu.Unlock()
	if s.failStatus != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(s.failStatus)
		fmt.Fprint(w, s.failBody)
		return
	}
	if n >= len(s.replies) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(500)
		fmt.Fprintf(w, `{"error":{"message":"no reply scripted for request %d"}}`, n+1)
		return
	}
	rng := rand.New(rand.NewPCG(s.seed, uint64(n)))
	// Wire style varies with the seed: "data:" with or without a space,
	// LF or CRLF, keep-alive comments, a usage chunk with empty choices.
	nl := "\n"
	if rng.IntN(2) == 0 {
		nl = "\r\n"
	}
	prefix := "data: "
	if rng.IntN(2) == 0 {
		prefix = "data:"
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fl := w.(http.Flusher)
	send := func(payload string) {
		ev := prefix + payload + nl + nl
		for len(ev) > 0 {
			k := 1 + rng.IntN(min(len(ev), 40))
			if _, err := writeString(w, ev[:k]); err != nil {
				return
			}
			fl.Flush()
			ev = ev[k:]
		}
	}
	chunk := func(delta map[string]any, finish any) string {
		b, _ := json.Marshal(map[string]any{"id": "c", "object": "chat.completion.chunk", "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		return string(b)
	}
	writeString(w, ": keep-alive"+nl+nl)
	send(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	parts := strings.Split(s.replies[n], pause)
	deltas := 0
	for i, part := range parts {
		if i > 0 {
			select {
			case <-s.gate:
			case <-r.Context().Done():
				return
			case <-time.After(time.Minute): // hang guard only; the test then fails on event order
			}
		}
		for len(part) > 0 {
			k := 1 + rng.IntN(min(len(part), 12))
			for k < len(part) && !utf8.RuneStart(part[k]) {
				k++ // JSON cannot carry half a rune
			}
			send(chunk(map[string]any{"content": part[:k]}, nil))
			part = part[k:]
			deltas++
			if s.midError != "" {
				send(`{"error":{"message":"` + s.midError + `","type":"server_error"}}`)
				return
			}
			if s.cutAfter > 0 && deltas >= s.cutAfter {
				return // connection closes without finish_reason or [DONE]
			}
		}
	}
	send(chunk(map[string]any{}, "stop"))
	send(`{"id":"c","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`)
	send("[DONE]")
}

func writeString(w http.ResponseWriter, s string) (int, error) { return w.Write([]byte(s)) }

// eventWriter collects --json output and opens the server's gate when a
// tool_result line appears, so a paused reply goes on only after a tool
// has finished: proof that tools run while the reply is still streaming.
type eventWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	gate   chan struct{}
	opened bool
}

func (w *eventWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if !w.opened && w.gate != nil && bytes.Contains(w.buf.Bytes(), []byte(`"event":"tool_result"`)) {
		close(w.gate)
		w.opened = true
	}
	return len(p), nil
}

func (w *eventWriter) events(t *testing.T) []engine.Event {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []engine.Event
	sc := bufio.NewScanner(bytes.NewReader(w.buf.Bytes()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e engine.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("not one JSON object per line: %q: %v", sc.Text(), err)
		}
		out = append(out, e)
	}
	return out
}

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// runAskJSON runs `tinyrag ask --json` in-process against srv.
func runAskJSON(t *testing.T, s *scriptedLLM, srv *httptest.Server, args ...string) ([]engine.Event, string, error) {
	t.Helper()
	out := &eventWriter{gate: s.gate}
	var errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // hang guard only
	defer cancel()
	all := append([]string{"--json", "--llm", srv.URL + "/v1", "--model", "m"}, args...)
	// The web tools' settings come from the test's environment
	// (t.Setenv), as they would from a shell.
	err := Command(ctx, all, out, &errOut, os.Getenv)
	return out.events(t), errOut.String(), err
}

func filter(evs []engine.Event, kind string) []engine.Event {
	var out []engine.Event
	for _, e := range evs {
		if e.Event == kind {
			out = append(out, e)
		}
	}
	return out
}

func tokens(evs []engine.Event) string {
	var b strings.Builder
	for _, e := range filter(evs, engine.EventToken) {
		b.WriteString(e.Text)
	}
	return b.String()
}

func index(evs []engine.Event, pred func(engine.Event) bool) int {
	for i, e := range evs {
		if pred(e) {
			return i
		}
	}
	return -1
}

func TestAskJSON_ToolRunsWhileTheReplyStreamsAndEvidenceComesBack(t *testing.T) {
	reply1 := "Let me compute. <tool name=\"calculate\"><query>3 * (17 + 5) / 2</query></tool>" + pause + " Still streaming…"
	reply2 := "The result is 33."
	for seed := uint64(1); seed <= 6; seed++ {
		s, srv := newScriptedLLM(t, seed, reply1, reply2)
		evs, _, err := runAskJSON(t, s, srv, "What is 3 * (17 + 5) / 2?")
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if evs[0].Event != engine.EventRoute || evs[0].Mode != "agentic_answer" {
			t.Fatalf("seed %d: first event %+v", seed, evs[0])
		}
		start := index(evs, func(e engine.Event) bool { return e.Event == engine.EventToolStart })
		result := index(evs, func(e engine.Event) bool { return e.Event == engine.EventToolResult })
		// The first token carrying text from after the pause.
		before, seen := len(reply1[:strings.Index(reply1, pause)]), 0
		later := index(evs, func(e engine.Event) bool {
			if e.Event != engine.EventToken {
				return false
			}
			seen += len(e.Text)
			return seen > before
		})
		if start < 0 || result < start || later < result {
			t.Fatalf("seed %d: tool_start %d, tool_result %d, text after the block %d: the tool must finish before the stream ends", seed, start, result, later)
		}
		r := evs[result]
		if r.ID != "call-1" || r.Tool != "calculate" || r.Query != "3 * (17 + 5) / 2" || r.Source != "calculator" || r.Error != "" || !strings.Contains(r.Result, "= 33") || r.ResultBytes != len(r.Result) {
			t.Fatalf("seed %d: tool_result %+v", seed, r)
		}
		if got, want := tokens(evs), strings.Replace(reply1, pause, "", 1)+engine.ParagraphBreak+reply2; got != want {
			t.Fatalf("seed %d: tokens %q, want %q", seed, got, want)
		}
		reqs := s.requests()
		if len(reqs) != 2 {
			t.Fatalf("seed %d: %d chat requests", seed, len(reqs))
		}
		ev := reqs[1].Messages[len(reqs[1].Messages)-1].Content
		if !strings.Contains(ev, "BEGIN UNTRUSTED TOOL RESULT id=call-1 tool=calculate sha256=") || !strings.Contains(ev, "= 33") || !strings.Contains(ev, "END UNTRUSTED TOOL RESULT id=call-1") {
			t.Fatalf("seed %d: continuation lacks evidence:\n%s", seed, ev)
		}
		done := evs[len(evs)-1]
		if done.Event != engine.EventDone || done.Answer != "Let me compute.  Still streaming…\n\nThe result is 33." || done.Continuations != 1 || done.Error != "" || done.Telemetry == nil {
			t.Fatalf("seed %d: done %+v", seed, done)
		}
	}
}

func TestAskJSON_DedupeAndCapsGiveSkipReasons(t *testing.T) {
	calc := func(q string) string { return `<tool name="calculate"><query>` + q + `</query></tool>` }
	reply1 := "Working. " + calc("1 + 1") + ` <tool name="CALCULATE"><query> 1 +  1 </query></tool>` +
		`<tool name="no_such_tool"><query>x</query></tool>` + calc("2+2") + calc("3+3") + calc("4+4")
	reply2 := calc("5+5") + calc("6+6")
	for seed := uint64(1); seed <= 4; seed++ {
		s, srv := newScriptedLLM(t, seed, reply1, reply2, "Done.")
		evs, _, err := runAskJSON(t, s, srv, "--max-tools-total", "4", "--max-tools-per-round", "3", "add things up")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range evs {
			switch e.Event {
			case engine.EventToolStart:
				got = append(got, e.ID+" run "+e.Query)
			case engine.EventToolSkipped:
				got = append(got, e.ID+" "+e.Reason)
			}
		}
		want := []string{"call-1 run 1 + 1", "call-2 duplicate", "call-3 unknown_tool", "call-4 run 2+2", "call-5 run 3+3",
			"call-6 max_tools_per_round", "call-7 run 5+5", "call-8 max_tools_total"}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Fatalf("seed %d:\n got %q\nwant %q", seed, got, want)
		}
		if len(filter(evs, engine.EventToolResult)) != 4 {
			t.Fatalf("seed %d: every started tool needs one tool_result", seed)
		}
	}
}

func TestAskJSON_LoopStopsAtMaxContinuations(t *testing.T) {
	var replies []string
	for i := 0; i < 6; i++ {
		replies = append(replies, fmt.Sprintf(`Step %d <tool name="calculate"><query>%d * 7</query></tool>`, i, i+1))
	}
	s, srv := newScriptedLLM(t, 9, replies...)
	evs, _, err := runAskJSON(t, s, srv, "--max-continuations", "2", "--max-tools-total", "10", "keep going")
	if err != nil {
		t.Fatal(err)
	}
	done := evs[len(evs)-1]
	if n := len(s.requests()); n != 3 || done.Continuations != 2 || done.FallbackReason != "max_continuations_reached" {
		t.Fatalf("%d requests, done %+v", n, done)
	}
	last := s.requests()[2].Messages
	if !strings.Contains(last[len(last)-1].Content, "2 * 7 = 14") || !strings.Contains(last[len(last)-3].Content, "1 * 7 = 7") {
		t.Fatal("each continuation must carry the evidence of the round before")
	}
}

func TestAskJSON_InvalidNestedFencedAndPartialBlocksNeverRun(t *testing.T) {
	reply := "Here is how to call it:\n```xml\n<tool name=\"calculate\"><query>1+1</query></tool>\n```\n" +
		"or inline `<tool name=\"calculate\"><query>2+2</query></tool>`; " +
		"<tool name=\"\"><query>3+3</query></tool> " +
		"<tool name=\"calculate\"><query>4+4</query><query>5+5</query></tool> " +
		"<tool name=\"calculate\"><query><tool name=\"calculate\"><query>6+6</query></tool></query></tool> " +
		"and a cut one: <tool name=\"calculate\"><query>7+7</query>"
	for seed := uint64(1); seed <= 5; seed++ {
		s, srv := newScriptedLLM(t, seed, reply)
		evs, _, err := runAskJSON(t, s, srv, "explain the syntax")
		if err != nil {
			t.Fatal(err)
		}
		if n := len(filter(evs, engine.EventToolStart)) + len(filter(evs, engine.EventToolSkipped)); n != 0 {
			t.Fatalf("seed %d: %d calls from blocks that must never run", seed, n)
		}
		if tokens(evs) != reply || len(s.requests()) != 1 {
			t.Fatalf("seed %d: visible %q", seed, tokens(evs))
		}
		if tel := evs[len(evs)-1].Telemetry; tel.ParseErrors != 4 {
			t.Fatalf("seed %d: parse errors %d, want 4", seed, tel.ParseErrors)
		}
	}
}

func TestAsk_TextModeStreamsTheAnswerAndReportsToolsOnStderr(t *testing.T) {
	s, srv := newScriptedLLM(t, 3, `Sure. <tool name="calculate"><query>2^10</query></tool>`, "It is 1024.")
	var out, errOut bytes.Buffer
	err := Command(context.Background(), []string{"--llm", srv.URL + "/v1", "What is 2^10?"}, &out, &errOut, env("TINYRAG_MODEL", "m"))
	if err != nil {
		t.Fatal(err)
	}
	// The tool block is reported on stderr, not printed into the answer.
	// The continuation is a paragraph of its own.
	if got := out.String(); got != "Sure. \n\nIt is 1024.\n" {
		t.Fatalf("stdout %q", got)
	}
	if e := errOut.String(); !strings.Contains(e, "⟳ call-1 calculate: 2^10") || !strings.Contains(e, "✓ call-1 calculate:") {
		t.Fatalf("stderr %q", e)
	}
	_ = s
}

func TestAsk_TextModePrintsToolBlocksThatAreNotCallsAsTheyAre(t *testing.T) {
	// A block in a code span is text, not a call, and a cut one never
	// completes: both stay in the answer, as in the app.
	reply := "Use `<tool name=\"calculate\"><query>1+1</query></tool>` like this. " +
		"<tool name=\"calculate\"><query>2+2</query></tool>Done, and a cut one: <tool name=\"calculate\"><query>3"
	_, srv := newScriptedLLM(t, 3, reply, "Four.")
	var out bytes.Buffer
	err := Command(context.Background(), []string{"--llm", srv.URL + "/v1", "add"}, &out, &bytes.Buffer{}, env("TINYRAG_MODEL", "m"))
	if err != nil {
		t.Fatal(err)
	}
	want := "Use `<tool name=\"calculate\"><query>1+1</query></tool>` like this. Done, and a cut one: <tool name=\"calculate\"><query>3\n\nFour.\n"
	if got := out.String(); got != want {
		t.Fatalf("stdout %q\nwant   %q", got, want)
	}
}

func TestAsk_EnvironmentSetsEndpointModelAndKey(t *testing.T) {
	s, srv := newScriptedLLM(t, 1, "Hi.", "Hi again.")
	var out bytes.Buffer
	err := Command(context.Background(), []string{"hello"}, &out, &bytes.Buffer{},
		env("TINYRAG_LLM_URL", srv.URL+"/v1", "TINYRAG_MODEL", "env-model", "TINYRAG_LLM_KEY", "sk-test"))
	if err != nil {
		t.Fatal(err)
	}
	if r := s.requests(); r[0].Model != "env-model" || s.auth[0] != "Bearer sk-test" {
		t.Fatalf("model %q auth %q", r[0].Model, s.auth[0])
	}
	// Without a model the first one the endpoint lists is used.
	err = Command(context.Background(), []string{"--llm", srv.URL + "/v1", "hello"}, &out, &bytes.Buffer{}, env())
	if err != nil {
		t.Fatal(err)
	}
	if r := s.requests(); r[1].Model != "scripted-model" || s.auth[1] != "" {
		t.Fatalf("model %q auth %q", r[1].Model, s.auth[1])
	}
}

func TestAsk_LLMFailureNamesTheEndpointAndTheCause(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL + "/v1"
	down.Close() // nothing listens there any more: connection refused

	tests := []struct {
		name  string
		setup func(s *scriptedLLM)
		url   func(srv *httptest.Server) string
		cause string
	}{
		{"http error with JSON body", func(s *scriptedLLM) {
			s.failStatus, s.failBody = 401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`
		}, nil, "Incorrect API key provided"},
		{"http 500", func(s *scriptedLLM) {
			s.failStatus, s.failBody = 500, `{"error":{"message":"model not loaded"}}`
		}, nil, "model not loaded"},
		{"error object mid-stream", func(s *scriptedLLM) { s.midError = "out of memory" }, nil, "out of memory"},
		{"stream cut without [DONE]", func(s *scriptedLLM) { s.cutAfter = 2 }, nil, "without [DONE]"},
		{"connection refused", nil, func(*httptest.Server) string { return downURL }, "connect"},
	}
	for _, tt := range tests {
		s, srv := newScriptedLLM(t, 2, "A long answer that will not arrive in full.")
		if tt.setup != nil {
			tt.setup(s)
		}
		base := srv.URL + "/v1"
		if tt.url != nil {
			base = tt.url(srv)
		}
		var out bytes.Buffer
		err := Command(context.Background(), []string{"--json", "--llm", base, "--model", "m", "hi"}, &out, &bytes.Buffer{}, env())
		if err == nil {
			t.Fatalf("%s: no error", tt.name)
		}
		if !strings.Contains(err.Error(), base) || !strings.Contains(err.Error(), tt.cause) {
			t.Fatalf("%s: error %q should name %s and %q", tt.name, err, base, tt.cause)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		var done engine.Event
		if json.Unmarshal([]byte(lines[len(lines)-1]), &done); done.Event != engine.EventDone || done.Error == "" {
			t.Fatalf("%s: last line %q", tt.name, lines[len(lines)-1])
		}
	}
}

func TestAsk_BadCommandLinesAreRefused(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--model", "m"}, "no question"},
		{[]string{"--max-tools-total", "-1", "q"}, "must not be negative"},
		{[]string{"--tool-timeout", "0s", "q"}, "--tool-timeout must be positive"},
		{[]string{"--llm", "ftp://x", "q"}, "http:// or https://"},
		{[]string{"--no-such-flag", "q"}, "not defined"},
		{[]string{"--kb", "testdata/ask/does-not-exist", "--model", "m", "--llm", "http://127.0.0.1:9/v1", "q"}, "--kb testdata/ask/does-not-exist"},
	}
	for _, tt := range tests {
		err := Command(context.Background(), tt.args, &bytes.Buffer{}, &bytes.Buffer{}, env())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err %v, want %q", tt.args, err, tt.want)
		}
	}
}

func TestAsk_FlagsAfterTheQuestionCount(t *testing.T) {
	o, err := parseAskFlags([]string{"how", "much", "--max-continuations", "1", "is", "it?", "--json", "--kb", "a", "--kb", "b", "--allow-nanogo", "--no-web"}, &bytes.Buffer{}, env())
	if err != nil {
		t.Fatal(err)
	}
	if o.question != "how much is it?" || o.cfg.MaxContinuations != 1 || !o.json || len(o.kb) != 2 || !o.allowNanogo || !o.noWeb || o.llmURL != defaultLLMURL {
		t.Fatalf("options %+v", o)
	}
}

func TestAsk_KnowledgeBaseGivesContextAndTheRagTool(t *testing.T) {
	s, srv := newScriptedLLM(t, 4, "Within 30 days [1].")
	evs, stderr, err := runAskJSON(t, s, srv, "--kb", "testdata/ask/kb", "What is the return policy for refunds?")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if evs[0].Mode != "retrieval_answer" {
		t.Fatalf("route %+v", evs[0])
	}
	sys := s.requests()[0].Messages[0].Content
	if !strings.Contains(sys, "[1] ") || !strings.Contains(sys, "within 30 days of delivery") || !strings.Contains(sys, `<tool name="rag_knowledge">`) {
		t.Fatalf("system prompt lacks the knowledge context or tool:\n%s", sys)
	}
	if !strings.Contains(stderr, "2 documents indexed") {
		t.Fatalf("stderr %q", stderr)
	}
}

// TestSafety_AskExposesNoSQLShellOrGenericHTTPTool checks the protocol's
// rows "SQL exposed to model: never", "Generic HTTP tool: not exposed",
// "Shell commands: disabled" and "nanoGo execution: disabled unless
// allow_nanogo", plus --no-web, on the registry `tinyrag ask` builds.
func TestSafety_AskExposesNoSQLShellOrGenericHTTPTool(t *testing.T) {
	for _, o := range []askOptions{{}, {allowNanogo: true}, {noWeb: true}} {
		o.stderr = &bytes.Buffer{}
		reg, _, err := askRegistry(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if _, on := reg.Lookup("calculate"); !on {
			t.Fatal("calculate must be offered")
		}
		for _, tl := range reg.Enabled() {
			name := strings.ToLower(tl.Name())
			for _, bad := range []string{"sql", "shell", "exec", "bash", "http"} {
				if strings.Contains(name, bad) {
					t.Errorf("tool %q is exposed to the model", tl.Name())
				}
			}
		}
		if _, on := reg.Lookup("nanogo"); on && !o.allowNanogo {
			t.Error("nanogo is enabled without --allow-nanogo")
		}
		if o.noWeb {
			for _, n := range []string{"url_fetch", "websearch", "wikipedia"} {
				if _, on := reg.Lookup(n); on {
					t.Errorf("%s is enabled with --no-web", n)
				}
			}
		}
	}
}

// Package engine is tinyRAG's answer loop (docs/protocol.md): route the question,
// retrieve context, stream the model's reply through the XML tool parser,
// run tool blocks as soon as they complete (while the reply keeps
// streaming), and feed the results back as untrusted evidence in
// continuation rounds until the model stops calling tools or a cap is hit.
// It is pure Go: the browser app, the CLI and tests drive the same code.
package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"tinyrag/app/engine/evidence"
	"tinyrag/app/engine/route"
	"tinyrag/app/engine/telemetry"
	"tinyrag/app/llm"
	"tinyrag/app/protocol"
	"tinyrag/app/tool"
)

// Config holds the caps of one request. Start from DefaultConfig: the three
// caps are taken literally (MaxContinuations 0 means tools run but no
// follow-up round; MaxToolsTotal 0 means no tool ever runs), while a zero
// timeout, budget or K means "the default", as zero is no useful value there.
type Config struct {
	MaxToolsTotal    int           // tool runs per request
	MaxToolsPerRound int           // tool runs per model reply
	MaxContinuations int           // follow-up rounds after tool results
	ToolTimeout      time.Duration // per tool run
	ResultRunes      int           // one result in the evidence packet and in tool_result
	EvidenceRunes    int           // the whole evidence packet
	RetrieveK        int           // passages retrieved for the system prompt
}

// DefaultConfig returns the documented defaults (docs/protocol.md).
func DefaultConfig() Config {
	return Config{
		MaxToolsTotal:    5,
		MaxToolsPerRound: 3,
		MaxContinuations: 3,
		ToolTimeout:      30 * time.Second,
		ResultRunes:      6000,
		EvidenceRunes:    18000,
		RetrieveK:        5,
	}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	c.MaxToolsTotal = max(c.MaxToolsTotal, 0)
	c.MaxToolsPerRound = max(c.MaxToolsPerRound, 0)
	c.MaxContinuations = max(c.MaxContinuations, 0)
	if c.ToolTimeout <= 0 {
		c.ToolTimeout = d.ToolTimeout
	}
	if c.ResultRunes <= 0 {
		c.ResultRunes = d.ResultRunes
	}
	if c.EvidenceRunes <= 0 {
		c.EvidenceRunes = d.EvidenceRunes
	}
	if c.RetrieveK <= 0 {
		c.RetrieveK = d.RetrieveK
	}
	return c
}

// Request is one question.
type Request struct {
	Question       string
	History        []llm.Message // earlier turns, oldest first, without system messages
	Model          string
	Persona        string // extra system prompt
	AnswerLanguage string // e.g. "German"; empty lets the model follow the user
}

// Result is the outcome of Ask, the same as the done event.
type Result struct {
	Answer         string // visible answer of all rounds, valid tool blocks removed
	Continuations  int
	FallbackReason string
	Telemetry      telemetry.Record
}

// Engine answers questions. It holds no per-request state, so one Engine
// may serve concurrent requests.
type Engine struct {
	cfg   Config
	chat  llm.Chatter
	tools *tool.Registry
	kb    tool.Retriever
	now   func() time.Time
}

// New returns an engine. tools may be nil (no tools), kb may be nil (no
// knowledge base).
func New(cfg Config, chat llm.Chatter, tools *tool.Registry, kb tool.Retriever) *Engine {
	if tools == nil {
		tools = tool.NewRegistry()
	}
	return &Engine{cfg: cfg.withDefaults(), chat: chat, tools: tools, kb: kb, now: time.Now}
}

// Config returns the effective configuration.
func (e *Engine) Config() Config { return e.cfg }

// Ask answers one question. emit receives every event in order, from the
// calling goroutine, ending with exactly one done event; it may be nil. The
// error is the one reported in the done event (an LLM failure or the
// context's error); the Result then holds what was answered so far.
func (e *Engine) Ask(ctx context.Context, req Request, emit func(Event)) (Result, error) {
	if emit == nil {
		emit = func(Event) {}
	}
	r := &run{e: e, req: req, emit: emit, seen: map[string]bool{}, rec: telemetry.New(e.now())}
	err := r.ask(ctx)
	r.rec.TotalMS = r.rec.Since(e.now())
	if err != nil {
		r.rec.Error = err.Error()
	}
	res := Result{
		Answer:         joinAnswer(r.answer),
		Continuations:  r.rec.Continuations,
		FallbackReason: r.rec.FallbackReason,
		Telemetry:      r.rec,
	}
	rec := r.rec
	emit(Event{Event: EventDone, Answer: res.Answer, Continuations: res.Continuations,
		FallbackReason: res.FallbackReason, Error: rec.Error, Telemetry: &rec})
	return res, err
}

// run is the state of one request.
type run struct {
	e      *Engine
	req    Request
	emit   func(Event)
	rec    telemetry.Record
	seen   map[string]bool // canonical keys of calls that ran
	ran    int             // tool runs so far
	nextID int
	answer []string // per round, tool blocks removed
	shown  bool     // some visible text was emitted, in any round
}

func (r *run) ask(ctx context.Context) error {
	e := r.e
	enabled := e.tools.Enabled()
	names := make([]string, len(enabled))
	for i, t := range enabled {
		names[i] = t.Name()
	}
	dec := route.Decide(route.Input{Question: r.req.Question, HasKnowledge: e.kb != nil, Tools: names})
	r.rec.Mode = string(dec.Mode)
	r.emit(Event{Event: EventRoute, Mode: string(dec.Mode), Reason: dec.Reason, Hints: dec.Hints})

	var passages []tool.Passage
	if dec.Retrieve() && e.kb != nil {
		ps, err := e.kb.Retrieve(ctx, r.req.Question, e.cfg.RetrieveK)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// Retrieval failing is no reason to refuse an answer: the model
			// can still use tools or say it does not know.
			r.rec.RetrievalError = err.Error()
		}
		passages = ps
		r.rec.Retrieved = len(ps)
	}

	msgs := make([]llm.Message, 0, len(r.req.History)+2)
	msgs = append(msgs, llm.Message{Role: "system", Content: systemPrompt(e.cfg, r.req, passages, e.tools)})
	msgs = append(msgs, r.req.History...)
	msgs = append(msgs, llm.Message{Role: "user", Content: r.req.Question})

	for round := 0; ; round++ {
		out, err := r.round(ctx, round, msgs)
		r.answer = append(r.answer, out.answer)
		if err != nil {
			return err
		}
		if len(out.items) == 0 {
			return nil
		}
		if round >= e.cfg.MaxContinuations {
			r.rec.FallbackReason = FallbackMaxContinuations
			return nil
		}
		packet := evidence.Packet(out.items, out.notes, evidence.Budget{PerResult: e.cfg.ResultRunes, Total: e.cfg.EvidenceRunes})
		msgs = append(msgs,
			llm.Message{Role: "assistant", Content: out.text},
			llm.Message{Role: "user", Content: packet})
		r.rec.Continuations++
	}
}

// roundOut is what one model reply produced.
type roundOut struct {
	text   string          // everything the model wrote, tool blocks included
	answer string          // text without valid tool blocks
	items  []evidence.Item // results of the tools that ran, in call order
	notes  []string        // calls that were skipped
}

// job is one tool call started in a round.
type job struct {
	id      string
	call    protocol.Call
	tool    tool.Tool
	started time.Time
	telIdx  int
	done    bool
	res     tool.Result
	err     error
	timeout bool
}

type jobDone struct {
	idx     int
	res     tool.Result
	err     error
	timeout bool
}

type delta struct {
	d   llm.Delta
	err error
}

func (r *run) round(ctx context.Context, round int, msgs []llm.Message) (roundOut, error) {
	var out roundOut
	stream, err := r.e.chat.ChatStream(ctx, llm.Request{Model: r.req.Model, Messages: msgs})
	if err != nil {
		return out, err
	}
	rctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		// Stop the reader and every tool still running, and wait for their
		// goroutines so nothing outlives the request.
		cancel()
		stream.Close()
		wg.Wait()
	}()

	deltas := make(chan delta)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			d, err := stream.Recv()
			select {
			case deltas <- delta{d, err}:
			case <-rctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()

	var (
		parser   protocol.XMLParseState
		text     strings.Builder
		calls    []protocol.Call
		jobs     []*job
		running  int
		perRound int
		results  = make(chan jobDone)
	)
	roundShown := false
	show := func(vis string) {
		if vis == "" {
			return
		}
		if r.rec.FirstTokenMS == 0 {
			r.rec.FirstTokenMS = r.rec.Since(r.e.now())
		}
		// A continuation is a new paragraph, not a continuation of the
		// last sentence: the model starts each reply from nothing, so
		// "…one moment" and "The answer is 4." would otherwise run together
		// in everything that renders the token stream.
		if !roundShown && r.shown {
			r.emit(Event{Event: EventToken, Text: ParagraphBreak})
		}
		roundShown, r.shown = true, true
		text.WriteString(vis)
		r.rec.VisibleChars += utf8.RuneCountInString(vis)
		r.emit(Event{Event: EventToken, Text: vis})
	}
	finish := func(d jobDone) {
		j := jobs[d.idx]
		j.done, j.res, j.err, j.timeout = true, d.res, d.err, d.timeout
		running--
		r.finished(j)
	}
	dispatch := func(c protocol.Call) {
		calls = append(calls, c)
		j, reason := r.admit(c, round, &perRound)
		if j == nil {
			out.notes = append(out.notes, fmt.Sprintf("%s %s %q: %s", r.lastID(), c.Name, clipRunes(c.Input, 200), reason))
			return
		}
		idx := len(jobs)
		jobs = append(jobs, j)
		running++
		if string(j.tool.Element()) != c.Element {
			// The block is well formed but not what this tool takes: an
			// error result the model can correct, not a silent skip.
			finish(jobDone{idx: idx, err: fmt.Errorf("%s takes <%s>, got <%s>", j.tool.Name(), j.tool.Element(), c.Element)})
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := r.e.runTool(rctx, j)
			d.idx = idx
			select {
			case results <- d:
			case <-rctx.Done():
			}
		}()
	}

	streamDone := false
	for !streamDone || running > 0 {
		var in <-chan delta
		if !streamDone {
			in = deltas
		}
		select {
		case <-ctx.Done():
			r.stats(&parser)
			r.abandon(jobs, ctx.Err())
			return r.roundResult(out, text.String(), calls, jobs), ctx.Err()
		case d := <-results:
			finish(d)
		case m := <-in:
			if m.err != nil {
				streamDone = true
				show(parser.Flush())
				if m.err != io.EOF {
					r.stats(&parser)
					r.abandon(jobs, m.err)
					return r.roundResult(out, text.String(), calls, jobs), m.err
				}
				continue
			}
			if m.d.Usage != nil {
				r.rec.PromptTokens += m.d.Usage.PromptTokens
				r.rec.CompletionTokens += m.d.Usage.CompletionTokens
			}
			if m.d.Reasoning != "" {
				r.rec.ThinkingChars += utf8.RuneCountInString(m.d.Reasoning)
				r.emit(Event{Event: EventThinking, Text: m.d.Reasoning})
			}
			if m.d.Content == "" {
				continue
			}
			r.rec.TokensStreamed++
			vis, cs := parser.Feed(m.d.Content)
			show(vis)
			for _, c := range cs {
				dispatch(c)
			}
		}
	}
	r.stats(&parser)
	return r.roundResult(out, text.String(), calls, jobs), nil
}

// admit applies, in order, the registry, the dedupe key and the caps to a
// call. It returns the job to run, or nil and the skip reason (already
// emitted as tool_skipped).
func (r *run) admit(c protocol.Call, round int, perRound *int) (*job, string) {
	r.nextID++
	id := fmt.Sprintf("call-%d", r.nextID)
	t, enabled := r.e.tools.Lookup(c.Name)
	key := CanonicalKey(c)
	reason := ""
	switch {
	case t == nil:
		reason = SkipUnknownTool
	case !enabled:
		reason = SkipDisabled
	case r.seen[key]:
		reason = SkipDuplicate
	case r.ran >= r.e.cfg.MaxToolsTotal:
		reason = SkipMaxToolsTotal
	case *perRound >= r.e.cfg.MaxToolsPerRound:
		reason = SkipMaxToolsPerRound
	}
	name := c.Name
	if t != nil {
		name = t.Name()
	}
	if reason != "" {
		r.rec.Tools = append(r.rec.Tools, telemetry.ToolCall{ID: id, Tool: name, Element: c.Element, Query: c.Input,
			Round: round, Outcome: telemetry.OutcomeSkipped, Reason: reason, StartMS: r.rec.Since(r.e.now())})
		r.emit(Event{Event: EventToolSkipped, ID: id, Tool: name, Query: c.Input, Reason: reason})
		return nil, reason
	}
	r.seen[key] = true
	r.ran++
	*perRound++
	now := r.e.now()
	r.rec.Tools = append(r.rec.Tools, telemetry.ToolCall{ID: id, Tool: name, Element: c.Element, Query: c.Input,
		Round: round, StartMS: r.rec.Since(now)})
	r.emit(Event{Event: EventToolStart, ID: id, Tool: name, Query: c.Input})
	return &job{id: id, call: c, tool: t, started: now, telIdx: len(r.rec.Tools) - 1}, ""
}

// abandon reports every tool still running as failed with the cause that
// ends the request, so each tool_start the UI saw gets its tool_result.
func (r *run) abandon(jobs []*job, cause error) {
	for _, j := range jobs {
		if !j.done {
			j.done, j.err = true, fmt.Errorf("%s cancelled: %w", j.tool.Name(), cause)
			r.finished(j)
		}
	}
}

func (r *run) lastID() string { return fmt.Sprintf("call-%d", r.nextID) }

// finished records and emits a tool's outcome.
func (r *run) finished(j *job) {
	tc := &r.rec.Tools[j.telIdx]
	tc.DurationMS = telemetry.MS(r.e.now().Sub(j.started))
	tc.ResultBytes = len(j.res.Content)
	ev := Event{Event: EventToolResult, ID: j.id, Tool: j.tool.Name(), Query: j.call.Input}
	switch {
	case j.err != nil:
		tc.Outcome, tc.Error = telemetry.OutcomeError, j.err.Error()
		if j.timeout {
			tc.Outcome = telemetry.OutcomeTimeout
		}
		ev.Error = j.err.Error()
	default:
		tc.Outcome = telemetry.OutcomeOK
		ev.Source = j.res.Source
		ev.ResultBytes = len(j.res.Content)
		ev.Result = evidence.Truncate(j.res.Content, r.e.cfg.ResultRunes)
	}
	r.emit(ev)
}

// runTool runs one tool under the per-tool timeout. A tool that ignores its
// context is abandoned at the deadline rather than waited for, so one bad
// tool cannot hang the answer; a panic becomes an error result.
func (e *Engine) runTool(ctx context.Context, j *job) jobDone {
	tctx, cancel := context.WithTimeout(ctx, e.cfg.ToolTimeout)
	defer cancel()
	ch := make(chan jobDone, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- jobDone{err: fmt.Errorf("%s crashed: %v", j.tool.Name(), p)}
			}
		}()
		res, err := j.tool.Run(tctx, j.call.Input)
		ch <- jobDone{res: res, err: err}
	}()
	var d jobDone
	select {
	case d = <-ch:
	case <-tctx.Done():
	}
	if tctx.Err() != nil && ctx.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded) {
		// Whatever the tool returned after its deadline, the call timed out.
		return jobDone{err: fmt.Errorf("%s timed out after %s", j.tool.Name(), e.cfg.ToolTimeout), timeout: true}
	}
	if d.err == nil && ctx.Err() != nil {
		d.err = fmt.Errorf("%s cancelled: %w", j.tool.Name(), ctx.Err())
	}
	return d
}

// roundResult collects the round's results in call order.
func (r *run) roundResult(out roundOut, text string, calls []protocol.Call, jobs []*job) roundOut {
	out.text = text
	out.answer = stripBlocks(text, calls)
	for _, j := range jobs {
		if !j.done {
			continue
		}
		it := evidence.Item{ID: j.id, Tool: j.tool.Name(), Query: j.call.Input, Source: j.res.Source, Content: j.res.Content}
		if j.err != nil {
			it.Err = j.err.Error()
		}
		out.items = append(out.items, it)
	}
	return out
}

func (r *run) stats(p *protocol.XMLParseState) {
	st := p.Stats()
	r.rec.XMLBlocks += st.Blocks
	r.rec.ParseErrors += st.ParseErrors
}

// CanonicalKey is the dedupe key of a call: tool names are matched without
// regard to case, and runs of whitespace in the input do not make a new call.
func CanonicalKey(c protocol.Call) string {
	return strings.ToLower(strings.TrimSpace(c.Name)) + "\x00" + c.Element + "\x00" + strings.Join(strings.Fields(c.Input), " ")
}

// stripBlocks removes the byte ranges of valid tool blocks from a round's
// text. Offsets are relative to the round, whose parser started at zero.
func stripBlocks(text string, calls []protocol.Call) string {
	var b strings.Builder
	last := int64(0)
	for _, c := range calls {
		if c.Start < last || c.End > int64(len(text)) {
			continue
		}
		b.WriteString(text[last:c.Start])
		last = c.End
	}
	b.WriteString(text[last:])
	return b.String()
}

// joinAnswer puts the rounds' answers together, one paragraph break between
// rounds.
// ParagraphBreak is the token the engine emits between the visible text
// of two rounds; the final answer joins rounds with it as well.
const ParagraphBreak = "\n\n"

func joinAnswer(parts []string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ParagraphBreak)
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return evidence.Truncate(s, n) + "…"
}

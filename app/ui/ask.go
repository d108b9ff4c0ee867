package ui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/engine"
	"tinyrag/app/llm"
	"tinyrag/app/llm/reach"
	"tinyrag/app/markdown"
	"tinyrag/app/nomodel"
)

// renderEvery bounds how often a streaming answer is re-rendered: tokens
// arriving faster are applied together, which keeps the single wasm thread
// free for the stream and the page responsive.
const renderEvery = 50 * time.Millisecond

// send asks the draft as a question.
func (s *Shell) send(ctx app.Context) {
	q := strings.TrimSpace(s.draft)
	if q == "" || s.busy {
		return
	}
	if s.rt == nil || s.llm == llmUnknown {
		// Still starting: hold the question, and say so (starting.go).
		s.sendWhenReady = true
		return
	}
	s.draft = ""
	if el := app.Window().GetElementByID(InputID); el.Truthy() {
		el.Set("value", "")
		el.Get("style").Set("height", "auto")
	}
	s.ask(ctx, q)
}

// stopAnswer cancels the answer being streamed, and with it its tools.
func (s *Shell) stopAnswer() {
	if s.cancel != nil {
		s.cancel()
	}
}

// onRegenerate asks the last question again, replacing its answer.
func (s *Shell) onRegenerate(ctx app.Context, e app.Event) {
	if s.busy || s.chat == nil {
		return
	}
	q, i := s.chat.LastQuestion()
	if i < 0 {
		return
	}
	s.chat.Truncate(i)
	s.ask(ctx, q)
}

// ask adds the question to the current chat and streams its answer.
func (s *Shell) ask(_ app.Context, q string) {
	ctx := s.ctx
	chat := s.chat
	msg := chat.AddQuestion(q, time.Now())
	st := s.settings
	if st.Model == "" && len(s.models) > 0 {
		// "Server default": the endpoint's first model; OpenAI-style
		// servers insist on a model name.
		st.Model = s.models[0]
	}
	rt := s.rt
	offline := s.llm == llmDown
	req := Request(st, chat, q)
	actx, cancel := context.WithCancel(context.Background())
	s.busy, s.cancel = true, cancel
	ctx.Defer(func(app.Context) { stickToBottom(true) })

	// Without a model the same engine answers with the stand-in of
	// app/nomodel: the calculator, nanoGo or the knowledge base, with the
	// same events and cards.
	why := ""
	switch s.net {
	case netOffline:
		why = T(st.Lang, "offline_title")
	case netServerDown:
		why = T(st.Lang, "server_down_title")
	}

	msg.Offline = offline
	ctx.Async(func() {
		defer cancel()
		var chatter llm.Chatter = rt.Chatter(st)
		if offline {
			chatter = nomodel.Chatter{Tools: rt.Registry(st), Lang: st.Lang, Why: why}
		}
		buf, err := s.stream(ctx, actx, rt, st, chatter, req, msg)
		if err != nil && !offline && actx.Err() == nil && unreachable(err) && !buf.showedText() {
			// The model went away before it said anything: answer without
			// it instead of leaving the question unanswered.
			why := err.Error()
			if reach.IsFetchFailure(err) {
				why = reach.Explain(actx, rt.Origin, rt.LLMBase(st), err).String()
			}
			done := make(chan struct{})
			ctx.Dispatch(func(app.Context) {
				s.llm, s.llmErr = llmDown, why
				*msg = chats.Message{Role: msg.Role, Time: msg.Time, Streaming: true, Offline: true}
				close(done)
			})
			<-done
			offline = true
			buf, err = s.stream(ctx, actx, rt, st, nomodel.Chatter{Tools: rt.Registry(st), Lang: st.Lang}, req, msg)
		}
		stopped := actx.Err() != nil
		var cites []chats.Citation
		if err == nil {
			cites = rt.Citations(actx, q, msg)
		}
		ctx.Dispatch(func(ctx app.Context) {
			buf.applyTo(msg)
			msg.Citations = cites
			msg.Offline = offline
			if stopped {
				msg.Stopped = true
				msg.Error = ""
				msg.Settle(T(st.Lang, "stopped"))
				if msg.Answer == "" {
					msg.Answer = markdown.StripToolBlocks(msg.Content, mdCards(msg))
				}
			}
			msg.Streaming = false
			s.finishAsk(ctx, chat)
		})
	})
}

// stream runs the engine with chatter and feeds its events into msg on the
// UI goroutine; it returns once every event so far has been applied.
func (s *Shell) stream(ctx app.Context, actx context.Context, rt *Runtime, st Settings, chatter llm.Chatter, req engine.Request, msg *chats.Message) (*eventBuffer, error) {
	buf := &eventBuffer{}
	emit := func(ev engine.Event) {
		if buf.add(ev) {
			ctx.After(renderEvery, func(ctx app.Context) {
				buf.applyTo(msg)
				stickToBottom(false)
			})
		}
	}
	_, err := rt.Engine(st, chatter).Ask(actx, req, emit)
	// Apply pending events so telemetry and cards are known.
	done := make(chan struct{})
	ctx.Dispatch(func(app.Context) { buf.applyTo(msg); close(done) })
	<-done
	return buf, err
}

// finishAsk ends an answer: it stores the chat and frees the composer.
func (s *Shell) finishAsk(ctx app.Context, chat *chats.Chat) {
	s.busy, s.cancel = false, nil
	chat.Updated = time.Now()
	c := chat
	ctx.Async(func() {
		if err := s.rt.History.Save(context.Background(), c); err != nil {
			ctx.Dispatch(func(app.Context) { s.notice = err.Error() })
		}
		ctx.Dispatch(func(app.Context) {})
	})
	ctx.Defer(func(app.Context) { stickToBottom(false); focusByID(InputID) })
}

// unreachable tells a connection failure (no model there) from an answer
// the model refused or broke off.
func unreachable(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	msg := strings.ToLower(err.Error())
	for _, w := range []string{"failed to fetch", "connection refused", "no such host", "networkerror", "502", "503", "504", "dial", "unreachable"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// eventBuffer collects engine events between two renders.
type eventBuffer struct {
	mu        sync.Mutex
	evs       []engine.Event
	scheduled bool
	text      bool // a token with visible text was added
}

// showedText reports whether the answer has shown any text yet.
func (b *eventBuffer) showedText() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.text
}

// add queues an event and reports whether a render must be scheduled.
func (b *eventBuffer) add(ev engine.Event) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.evs = append(b.evs, ev)
	if ev.Event == engine.EventToken && strings.TrimSpace(ev.Text) != "" {
		b.text = true
	}
	if b.scheduled {
		return false
	}
	b.scheduled = true
	return true
}

// applyTo folds the queued events into msg (on the UI goroutine).
func (b *eventBuffer) applyTo(m *chats.Message) {
	b.mu.Lock()
	evs := b.evs
	b.evs, b.scheduled = nil, false
	b.mu.Unlock()
	for _, ev := range evs {
		m.Apply(ev)
	}
}

// onThreadClick serves the buttons inside rendered Markdown (copy code,
// run code), which are plain HTML without handlers of their own.
func (s *Shell) onThreadClick(ctx app.Context, e app.Event) {
	target := e.Get("target")
	if !target.Truthy() || target.Get("closest").IsUndefined() {
		return
	}
	if btn := target.Call("closest", ".copy-code"); btn.Truthy() {
		code := btn.Get("parentElement").Call("querySelector", "code")
		if code.Truthy() {
			copyText(code.Get("textContent").String())
			btn.Set("textContent", T(s.lang(), "copied"))
		}
		return
	}
	if btn := target.Call("closest", ".run-code"); btn.Truthy() && !s.busy {
		code := btn.Get("parentElement").Call("querySelector", "code")
		if code.Truthy() {
			s.draft = "Run this Go code with nanogo:\n\n```go\n" + code.Get("textContent").String() + "```"
			focusByID(InputID)
		}
	}
}

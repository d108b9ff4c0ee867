package ui

import (
	"context"
	"errors"
	"strings"
	"time"

	"tinyrag/app/chats"
	"tinyrag/app/engine"
	"tinyrag/app/llm"
	"tinyrag/app/llm/reach"
	"tinyrag/app/markdown"
	"tinyrag/app/nomodel"
)

// renderEvery bounds how often a streaming answer is published: tokens
// arriving faster are shown together, which keeps the single wasm thread
// free for the stream and the page responsive.
const renderEvery = 50 * time.Millisecond

// AskResult says what became of a question handed to Ask.
type AskResult int

const (
	// AskRefused: blank, or an answer is still streaming; nothing changed.
	AskRefused AskResult = iota
	// AskSent: the question is in the thread and its answer streams.
	AskSent
	// AskQueued: the app is still starting (the stores opening, the model
	// being checked); the question is asked as soon as it is ready, and
	// Status.Queued says so meanwhile.
	AskQueued
)

// Ask asks q in the open chat and streams its answer.
func (c *Controller) Ask(q string) AskResult {
	q = strings.TrimSpace(q)
	c.mu.Lock()
	switch {
	case q == "" || c.busy || c.queued != "":
		c.mu.Unlock()
		return AskRefused
	case c.rt == nil || c.model.Status == llmUnknown:
		// Still starting: hold the question; CheckModel asks it.
		c.queued, c.status.Queued = q, true
		c.unlock(stateStatus)
		return AskQueued
	}
	c.askLocked(q)
	c.unlock(stateThread, stateBusy)
	return AskSent
}

// Regenerate asks the open chat's last question again, replacing its
// answer.
func (c *Controller) Regenerate() bool {
	c.mu.Lock()
	if c.busy || c.rt == nil {
		c.mu.Unlock()
		return false
	}
	q, i := c.chat.LastQuestion()
	if i < 0 {
		c.mu.Unlock()
		return false
	}
	c.chat.Truncate(i)
	c.askLocked(q)
	c.unlock(stateThread, stateBusy)
	return true
}

// Stop cancels the answer being streamed, and with it its tools. The
// answer ends as stopped once the engine has returned.
func (c *Controller) Stop() {
	c.mu.Lock()
	c.stopLocked()
	c.mu.Unlock()
}

func (c *Controller) stopLocked() {
	if c.cancel != nil {
		c.cancel()
	}
}

// answerJob is one question being answered.
type answerJob struct {
	seq  int
	rt   *Runtime
	st   Settings
	chat *chats.Chat
	msg  *chats.Message
	q    string
}

func (c *Controller) askLocked(q string) {
	j := answerJob{rt: c.rt, st: c.settings, chat: c.chat, q: q}
	j.msg = c.chat.AddQuestion(q, c.now())
	if j.st.Model == "" && len(c.model.Models) > 0 {
		// "Server default": the endpoint's first model; OpenAI-style
		// servers insist on a model name.
		j.st.Model = c.model.Models[0]
	}
	// Without a model the same engine answers with the stand-in of
	// app/nomodel: the calculator, nanoGo or the knowledge base, with the
	// same events and cards.
	offline := c.model.Status == llmDown
	why := ""
	switch c.model.Net {
	case netOffline:
		why = T(j.st.Lang, "offline_title")
	case netServerDown:
		why = T(j.st.Lang, "server_down_title")
	}
	j.msg.Offline = offline
	req := Request(j.st, j.chat, q)
	if c.pageContext != "" {
		req.Persona = strings.TrimSpace(req.Persona + "\n\n" + T(j.st.Lang, "page_context") + "\n" + c.pageContext)
	}
	actx, cancel := context.WithCancel(context.Background())
	c.askSeq++
	j.seq = c.askSeq
	c.busy, c.cancel = true, cancel
	c.goAsync(func() {
		defer cancel()
		c.answer(actx, j, req, offline, why)
	})
}

// answer runs the engine for j, with the model or, offline, with the
// stand-in. When the model turns out unreachable before it said anything,
// the stand-in answers instead of leaving the question unanswered.
func (c *Controller) answer(actx context.Context, j answerJob, req engine.Request, offline bool, why string) {
	a := j.rt.ForAnswer(j.st, !offline)
	var chatter llm.Chatter
	if offline {
		chatter = nomodel.Chatter{Tools: a.Reg, Lang: j.st.Lang, Why: why}
	} else {
		chatter = c.chatter(j.rt, j.st)
	}
	shown, err := c.stream(actx, j, req, chatter, a)
	if err != nil && !offline && actx.Err() == nil && unreachable(err) && !shown {
		why := err.Error()
		if reach.IsFetchFailure(err) {
			why = reach.Explain(actx, j.rt.Origin, j.rt.LLMBase(j.st), err).String()
		}
		c.mu.Lock()
		c.model.Status, c.model.Err = llmDown, why
		*j.msg = chats.Message{Role: j.msg.Role, Time: j.msg.Time, Streaming: true, Offline: true}
		c.unlock(stateModel, stateThread)
		offline = true
		a = j.rt.ForAnswer(j.st, false)
		_, err = c.stream(actx, j, req, nomodel.Chatter{Tools: a.Reg, Lang: j.st.Lang}, a)
	}
	stopped := actx.Err() != nil
	var cites []chats.Citation
	if err == nil {
		cites = a.Citations()
	}
	// What to read next, and whether anything matched at all: the index's
	// own search, no second model call (visitors pay for their own).
	var rel []chats.Related
	noMatch := false
	if !stopped {
		rel, noMatch = c.related(j.rt, j.q, cites)
		c.mu.Lock()
		noMatch = noMatch && knowledgeQuestion(j.msg)
		c.mu.Unlock()
	}
	c.mu.Lock()
	m := j.msg
	m.Citations = cites
	m.Related, m.NoMatch = rel, noMatch
	m.Offline = offline
	if stopped {
		m.Stopped = true
		m.Error = ""
		m.Settle(T(j.st.Lang, "stopped"))
		if m.Answer == "" {
			m.Answer = markdown.StripToolBlocks(m.Content, mdCards(m))
		}
	}
	m.Streaming = false
	c.finishLocked(j)
}

// stream runs the engine with chatter, applying its events to j's message
// under the lock as they come; the thread is published at most every
// renderEvery. It reports whether the answer showed any text.
func (c *Controller) stream(actx context.Context, j answerJob, req engine.Request, chatter llm.Chatter, a Answering) (shown bool, err error) {
	emit := func(ev engine.Event) {
		c.mu.Lock()
		j.msg.Apply(ev)
		if ev.Event == engine.EventToken && strings.TrimSpace(ev.Text) != "" {
			shown = true
		}
		c.mu.Unlock()
		if c.deps.Observer != nil {
			c.deps.Observer.Event(ev)
		}
		c.threadChanged()
	}
	_, err = j.rt.EngineFor(j.st, chatter, a).Ask(actx, req, emit)
	c.mu.Lock()
	defer c.mu.Unlock()
	return shown, err
}

// finishLocked ends j: the chat is stored (unless deleted meanwhile) and
// the composer freed. It releases the lock.
func (c *Controller) finishLocked(j answerJob) {
	if j.seq == c.askSeq {
		c.busy, c.cancel = false, nil
	}
	j.chat.Updated = c.now()
	c.saveLocked(j.chat)
	m := copyMessage(j.msg)
	c.unlock(stateThread, stateBusy, stateChats, stateStatus)
	if c.deps.Observer != nil {
		c.deps.Observer.Answered(j.q, m)
	}
}

// SetContext sets what the embedding page says about itself (its title,
// what the visitor is looking at): it goes into the system prompt of every
// question from now on. Blank clears it.
func (c *Controller) SetContext(text string) {
	c.mu.Lock()
	c.pageContext = strings.TrimSpace(text)
	c.mu.Unlock()
}

// threadChanged publishes the thread renderEvery from now, once for all
// the changes made until then.
func (c *Controller) threadChanged() {
	c.mu.Lock()
	if c.threadDue {
		c.mu.Unlock()
		return
	}
	c.threadDue = true
	c.mu.Unlock()
	c.goAsync(func() {
		time.Sleep(renderEvery)
		c.mu.Lock()
		c.threadDue = false
		c.unlock(stateThread)
	})
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

// mdCards turns the message's cards into the renderer's.
func mdCards(m *chats.Message) []markdown.Card {
	out := make([]markdown.Card, len(m.Cards))
	for i, c := range m.Cards {
		out[i] = markdown.Card{Start: c.Start, End: c.End, ID: c.ID, Tool: c.Tool, Input: c.Input,
			Status: c.Status, Result: c.Result, Error: c.Error}
	}
	return out
}

package ui

import (
	"context"
	"errors"
	"strings"
	"time"

	"tinyrag/app/chats"
	"tinyrag/app/engine"
	"tinyrag/app/markdown"
)

// renderEvery bounds how often a streaming answer is published: tokens
// arriving faster are shown together, which keeps the single wasm thread
// free for the stream and the page responsive.
const renderEvery = 50 * time.Millisecond

// Ask asks q in the open chat and streams its answer. It reports false
// (and does nothing) when q is blank, an answer is still streaming or the
// stores are not open yet.
func (c *Controller) Ask(q string) bool {
	q = strings.TrimSpace(q)
	c.mu.Lock()
	if q == "" || c.busy || c.rt == nil {
		c.mu.Unlock()
		return false
	}
	c.askLocked(q)
	c.unlock(stateThread, stateBusy)
	return true
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
	offline := c.model.Status == llmDown
	req := Request(j.st, j.chat, q)
	actx, cancel := context.WithCancel(context.Background())
	c.askSeq++
	j.seq = c.askSeq
	c.busy, c.cancel = true, cancel
	c.goAsync(func() {
		defer cancel()
		if offline {
			c.answerOffline(actx, j, "")
			return
		}
		c.answer(actx, j, req)
	})
}

// answer runs the engine for j. Events are applied to the message under
// the lock as they come; the thread is published at most every
// renderEvery.
func (c *Controller) answer(actx context.Context, j answerJob, req engine.Request) {
	emit := func(ev engine.Event) {
		c.mu.Lock()
		j.msg.Apply(ev)
		c.mu.Unlock()
		c.threadChanged()
	}
	_, err := j.rt.Engine(j.st, c.chatter(j.rt, j.st)).Ask(actx, req, emit)
	stopped := actx.Err() != nil
	var cites []chats.Citation
	if err == nil {
		c.mu.Lock()
		m := copyMessage(j.msg)
		c.mu.Unlock()
		cites = j.rt.Citations(actx, j.q, &m)
	}
	c.mu.Lock()
	if err != nil && !stopped && j.msg.Content == "" && unreachable(err) {
		// The model went away: answer from the knowledge base instead
		// of leaving the question unanswered.
		c.model.Status, c.model.Err = llmDown, err.Error()
		c.unlock(stateModel)
		c.answerOffline(actx, j, err.Error())
		return
	}
	m := j.msg
	m.Citations = cites
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

// answerOffline fills j's message with knowledge-base passages.
func (c *Controller) answerOffline(actx context.Context, j answerJob, cause string) {
	content, cites, err := j.rt.OfflineAnswer(actx, j.st.Lang, j.q)
	c.mu.Lock()
	m := j.msg
	m.Content, m.Citations, m.Offline = content, cites, true
	m.Answer = content
	m.Cards = nil
	m.Error = cause
	if err != nil {
		m.Error = err.Error()
	}
	m.Settle("")
	c.finishLocked(j)
}

// finishLocked ends j: the chat is stored (unless deleted meanwhile) and
// the composer freed. It releases the lock.
func (c *Controller) finishLocked(j answerJob) {
	if j.seq == c.askSeq {
		c.busy, c.cancel = false, nil
	}
	j.chat.Updated = c.now()
	c.saveLocked(j.chat)
	c.unlock(stateThread, stateBusy, stateChats, stateStatus)
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

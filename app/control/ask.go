package control

import (
	"context"
	"errors"
	"strings"
	"time"

	"tinyrag/app/chats"
	"tinyrag/app/engine"
	"tinyrag/app/llm"
	"tinyrag/app/llm/reach"
	"tinyrag/app/markdown/answer"
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
func (ch *Chat) Ask(q string) AskResult {
	q = strings.TrimSpace(q)
	ch.mu.Lock()
	// Chat's lock, then Model's: a check that ends meanwhile finds the
	// question queued (askQueued) or has ended before it was asked.
	ms, rt := ch.ctl.Model.State(), ch.c.runtime()
	switch {
	case q == "" || ch.busy || ch.queued != "":
		ch.mu.Unlock()
		return AskRefused
	case rt == nil || ms.Status == LLMUnknown:
		// Still starting: hold the question; the model check asks it.
		ch.queued = q
		ch.ctl.setQueued(true)
		ch.mu.Unlock()
		return AskQueued
	}
	ch.askLocked(rt, ms, q)
	ch.unlock(StateThread, StateBusy)
	return AskSent
}

// askQueued asks the question sent while the app was starting, if there
// is one; the model check calls it when it ends.
func (ch *Chat) askQueued() {
	ch.mu.Lock()
	q, rt := ch.queued, ch.c.runtime()
	if q == "" || ch.busy || rt == nil {
		ch.mu.Unlock()
		return
	}
	ch.queued = ""
	ch.ctl.setQueued(false)
	ch.askLocked(rt, ch.ctl.Model.State(), q)
	ch.unlock(StateThread, StateBusy)
}

// Regenerate asks the open chat's last question again, replacing its
// answer.
func (ch *Chat) Regenerate() bool {
	ch.mu.Lock()
	rt := ch.c.runtime()
	if ch.busy || rt == nil {
		ch.mu.Unlock()
		return false
	}
	q, i := ch.chat.LastQuestion()
	if i < 0 {
		ch.mu.Unlock()
		return false
	}
	ch.chat.Truncate(i)
	ch.askLocked(rt, ch.ctl.Model.State(), q)
	ch.unlock(StateThread, StateBusy)
	return true
}

// Stop cancels the answer being streamed, and with it its tools. The
// answer ends as stopped once the engine has returned.
func (ch *Chat) Stop() {
	ch.mu.Lock()
	ch.stopLocked()
	ch.mu.Unlock()
}

func (ch *Chat) stopLocked() {
	if ch.cancel != nil {
		ch.cancel()
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

// askLocked adds q to the open chat and starts its answer, made with rt
// and the model as ms describes it.
func (ch *Chat) askLocked(rt *Runtime, ms ModelState, q string) {
	j := answerJob{rt: rt, st: ch.ctl.Model.Settings(), chat: ch.chat, q: q}
	j.msg = ch.chat.AddQuestion(q, ch.c.now())
	if j.st.Model == "" && len(ms.Models) > 0 {
		// "Server default": the endpoint's first model; OpenAI-style
		// servers insist on a model name.
		j.st.Model = ms.Models[0]
	}
	// Without a model the same engine answers with the stand-in of
	// app/nomodel: the calculator, nanoGo or the knowledge base, with the
	// same events and cards.
	offline := ms.Status == LLMDown
	why := ""
	switch ms.Net {
	case NetOffline:
		why = answerText(j.st.Lang, textOfflineWhy)
	case NetServerDown:
		why = answerText(j.st.Lang, textServerDownWhy)
	}
	j.msg.Offline = offline
	req := Request(j.st, j.chat, q)
	if ch.pageContext != "" {
		req.Persona = strings.TrimSpace(req.Persona + "\n\n" + answerText(j.st.Lang, textPageContext) + "\n" + ch.pageContext)
	}
	actx, cancel := context.WithCancel(context.Background())
	ch.askSeq++
	j.seq = ch.askSeq
	ch.busy, ch.cancel = true, cancel
	ch.c.goAsync(func() {
		defer cancel()
		ch.answer(actx, j, req, offline, why)
	})
}

// answer runs the engine for j, with the model or, offline, with the
// stand-in. When the model turns out unreachable before it said anything,
// the stand-in answers instead of leaving the question unanswered.
func (ch *Chat) answer(actx context.Context, j answerJob, req engine.Request, offline bool, why string) {
	a := j.rt.ForAnswer(j.st, !offline)
	var chatter llm.Chatter
	if offline {
		chatter = nomodel.Chatter{Tools: a.Reg, Lang: j.st.Lang, Why: why}
	} else {
		chatter = ch.ctl.Model.chatter(j.rt, j.st)
	}
	shown, err := ch.stream(actx, j, req, chatter, a)
	if err != nil && !offline && actx.Err() == nil && unreachable(err) && !shown {
		why := err.Error()
		if reach.IsFetchFailure(err) {
			why = reach.Explain(actx, j.rt.Origin, j.rt.LLMBase(j.st), err).String()
		}
		ch.ctl.Model.wentDown(why)
		ch.mu.Lock()
		*j.msg = chats.Message{Role: j.msg.Role, Time: j.msg.Time, Streaming: true, Offline: true}
		ch.unlock(StateThread)
		offline = true
		a = j.rt.ForAnswer(j.st, false)
		_, err = ch.stream(actx, j, req, nomodel.Chatter{Tools: a.Reg, Lang: j.st.Lang}, a)
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
		rel, noMatch = ch.ctl.Site.related(j.rt, j.q, cites)
		ch.mu.Lock()
		noMatch = noMatch && knowledgeQuestion(j.msg)
		ch.mu.Unlock()
	}
	ch.mu.Lock()
	m := j.msg
	m.Citations = cites
	m.Related, m.NoMatch = rel, noMatch
	m.Offline = offline
	if stopped {
		m.Stopped = true
		m.Error = ""
		m.Settle(answerText(j.st.Lang, textStopped))
		if m.Answer == "" {
			m.Answer = answer.StripToolBlocks(m.Content, MDCards(m))
		}
	}
	m.Streaming = false
	ch.finishLocked(j)
}

// stream runs the engine with chatter, applying its events to j's message
// under the lock as they come; the thread is published at most every
// renderEvery. It reports whether the answer showed any text.
func (ch *Chat) stream(actx context.Context, j answerJob, req engine.Request, chatter llm.Chatter, a Answering) (shown bool, err error) {
	emit := func(ev engine.Event) {
		ch.mu.Lock()
		j.msg.Apply(ev)
		if ev.Event == engine.EventToken && strings.TrimSpace(ev.Text) != "" {
			shown = true
		}
		ch.mu.Unlock()
		if ch.c.deps.Observer != nil {
			ch.c.deps.Observer.Event(ev)
		}
		ch.threadChanged()
	}
	_, err = j.rt.EngineFor(j.st, chatter, a).Ask(actx, req, emit)
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return shown, err
}

// finishLocked ends j: the chat is stored (unless deleted meanwhile) and
// the composer freed. It releases the lock.
func (ch *Chat) finishLocked(j answerJob) {
	if j.seq == ch.askSeq {
		ch.busy, ch.cancel = false, nil
	}
	j.chat.Updated = ch.c.now()
	ch.saveLocked(j.chat)
	m := copyMessage(j.msg)
	ch.unlock(StateThread, StateBusy, StateChats)
	if ch.c.deps.Observer != nil {
		ch.c.deps.Observer.Answered(j.q, m)
	}
}

// threadChanged publishes the thread renderEvery from now, once for all
// the changes made until then.
func (ch *Chat) threadChanged() {
	ch.mu.Lock()
	if ch.threadDue {
		ch.mu.Unlock()
		return
	}
	ch.threadDue = true
	ch.mu.Unlock()
	ch.c.goAsync(func() {
		time.Sleep(renderEvery)
		ch.mu.Lock()
		ch.threadDue = false
		ch.unlock(StateThread)
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

// MDCards turns the message's cards into the renderer's.
func MDCards(m *chats.Message) []answer.Card {
	out := make([]answer.Card, len(m.Cards))
	for i, c := range m.Cards {
		out[i] = answer.Card{Start: c.Start, End: c.End, ID: c.ID, Tool: c.Tool, Input: c.Input,
			Status: c.Status, Result: c.Result, Error: c.Error}
	}
	return out
}

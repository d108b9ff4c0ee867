package control

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"tinyrag/app/chats"
	"tinyrag/app/engine"
	"tinyrag/app/httpdo"
	"tinyrag/app/knowledge"
	"tinyrag/app/llm"
)

// heard is an Observer that records what it was told.
type heard struct {
	mu       sync.Mutex
	events   []string
	answered []chats.Message
	question []string
	rated    []chats.Message
}

func (h *heard) Feedback(q string, m chats.Message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rated = append(h.rated, m)
}

func (h *heard) Event(ev engine.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, ev.Event)
}

func (h *heard) Answered(q string, m chats.Message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.question = append(h.question, q)
	h.answered = append(h.answered, m)
}

func (h *heard) snapshot() ([]string, []string, []chats.Message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.events...), append([]string(nil), h.question...), append([]chats.Message(nil), h.answered...)
}

func TestController_AQuestionSentWhileStartingIsAskedOnceReady(t *testing.T) {
	model := &scriptedModel{reply: func(llm.Request, int) []string { return words("Hello there.") }}
	gate := make(chan struct{})
	c := NewController(Deps{
		Origin:  "http://127.0.0.1:1",
		Chatter: func(Settings) llm.Chatter { return model },
		Models: func(ctx context.Context, _ Settings) ([]string, error) {
			<-gate // the model check is slow: the app is not ready yet
			return []string{"scripted"}, nil
		},
		ConfigURL: "",
	})
	rec := newRecorder()
	if got := c.Chat.Ask("are you there?"); got != AskQueued {
		t.Fatalf("Ask before Start = %v, want AskQueued", got)
	}
	if got := c.Chat.Ask("a second one?"); got != AskRefused {
		t.Errorf("a second question while one waits = %v, want AskRefused", got)
	}
	c.Start(rec)
	waitFor(t, "the stores are open", func() bool { return rec.status().Ready })
	if !rec.status().Queued || len(rec.thread().Messages) != 0 {
		t.Fatalf("before the model check: status %+v, %d messages; want the question still waiting", rec.status(), len(rec.thread().Messages))
	}
	close(gate)
	waitFor(t, "the waiting question is answered", func() bool {
		m := lastAnswerOf(rec.thread())
		return !rec.busy() && strings.Contains(m.Answer, "Hello there.")
	})
	c.Wait()
	if rec.status().Queued {
		t.Error("status still says a question waits")
	}
	if th := rec.thread(); len(th.Messages) != 2 || th.Messages[0].Content != "are you there?" {
		t.Errorf("thread = %+v; want the one question and its answer", th.Messages)
	}
	if model.count() != 1 {
		t.Errorf("the model was asked %d times, want once", model.count())
	}
}

func TestController_WithoutAModelTheBrowserToolsAnswerWithTheirCards(t *testing.T) {
	model := &scriptedModel{reply: func(llm.Request, int) []string { return words("never") }}
	h := &heard{}
	c, rec := harnessDown(t, model, func(d *Deps) { d.Observer = h; d.Online = func() bool { return false } })
	if c.Chat.Ask("What is 3 * (17 + 5) / 2?") != AskSent {
		t.Fatal("Ask refused")
	}
	waitFor(t, "answered", func() bool { return !rec.busy() && !lastAnswerOf(rec.thread()).Streaming })
	c.Wait()
	m := lastAnswerOf(rec.thread())
	if !strings.Contains(m.Answer, "33") || len(m.Cards) != 1 || m.Cards[0].Tool != "calculate" || !m.Offline {
		t.Fatalf("answer %+v; want 33 from a calculate card, marked as made without a model", m)
	}
	if !strings.Contains(m.Content, answerText("en", textOfflineWhy)) {
		t.Errorf("answer %q does not say the browser is offline", m.Content)
	}
	if model.count() != 0 {
		t.Errorf("the model was asked %d times while down", model.count())
	}
	evs, qs, ans := h.snapshot()
	for _, want := range []string{engine.EventToolStart, engine.EventToolResult, engine.EventDone} {
		if !contains(evs, want) {
			t.Errorf("observer heard %v; lacks %s", evs, want)
		}
	}
	if len(ans) != 1 || qs[0] != "What is 3 * (17 + 5) / 2?" || !strings.Contains(ans[0].Answer, "33") {
		t.Errorf("observer's answers = %q %+v", qs, ans)
	}
	if rec.last[StateModel].(ModelState).Net != NetOffline {
		t.Errorf("model state %+v; want the network named as the cause", rec.last[StateModel])
	}
}

func TestController_PageContextGoesIntoTheSystemPrompt(t *testing.T) {
	model := &scriptedModel{reply: func(llm.Request, int) []string { return words("Fine.") }}
	c, rec := harness(t, chats.NewMemStore(), model)
	c.Chat.SetContext("Pricing page of Orchard Inc.")
	c.Chat.Ask("how much?")
	waitFor(t, "answered", func() bool { return !rec.busy() && !lastAnswerOf(rec.thread()).Streaming })
	c.Wait()
	model.mu.Lock()
	sys := model.requests[0].Messages[0]
	model.mu.Unlock()
	if sys.Role != "system" || !strings.Contains(sys.Content, "Pricing page of Orchard Inc.") {
		t.Errorf("system prompt %q lacks the page's context", sys.Content)
	}
}

func TestController_ImportDocumentsAddsTextsAndListsBlankOnes(t *testing.T) {
	c, rec := harness(t, chats.NewMemStore(), &scriptedModel{reply: func(llm.Request, int) []string { return nil }})
	err := c.Knowledge.ImportDocuments(context.Background(), []knowledge.Input{
		{Title: "Returns", Source: "https://shop.example/returns", Type: "text", Text: "Returns are free within 30 days."},
		{Title: "Empty", Source: "https://shop.example/empty", Type: "text", Text: "   "},
	})
	if err == nil || !strings.Contains(err.Error(), "Empty") {
		t.Errorf("ImportDocuments = %v; want the blank text named", err)
	}
	// It returned once the documents are searchable.
	hits, serr := c.c.runtime().Retriever().Search(context.Background(), "free returns", knowledge.SearchOptions{K: 3})
	if serr != nil || len(hits) != 1 || hits[0].Source != "https://shop.example/returns" {
		t.Errorf("search right after the import = %+v, %v; want the new document", hits, serr)
	}
	c.Wait()
	rec.mu.Lock()
	k := rec.last[StateKnowledge].(KnowledgeState)
	rec.mu.Unlock()
	if k.Docs[0].Source != "https://shop.example/returns" || len(k.Skipped) != 1 || !strings.Contains(k.Skipped[0], "Empty") {
		t.Errorf("knowledge %+v; want the one text kept and the blank one named", k)
	}
}

// harnessDown starts a controller whose model cannot be reached.
func harnessDown(t *testing.T, model *scriptedModel, opts ...func(*Deps)) (*Controller, *recorder) {
	t.Helper()
	deps := Deps{
		Origin:  "http://127.0.0.1:1",
		HTTP:    failingDoer{},
		Chatter: func(Settings) llm.Chatter { return model },
		Models: func(context.Context, Settings) ([]string, error) {
			return nil, errors.New("Failed to fetch")
		},
	}
	for _, o := range opts {
		o(&deps)
	}
	c := NewController(deps)
	rec := newRecorder()
	c.Start(rec)
	waitFor(t, "ready, model down", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.status.Ready && c.Model.State().Status == LLMDown
	})
	t.Cleanup(c.Wait)
	return c, rec
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// failingDoer is a network that is not there: every request fails as
// fetch() does offline, without leaving the process.
type failingDoer struct{}

func (failingDoer) Do(*httpdo.Request) (*httpdo.Response, error) {
	return nil, errors.New("net/http: fetch() failed: TypeError: Failed to fetch")
}

// goneModel is a model that was there at the check and is gone when asked.
type goneModel struct{}

func (goneModel) ChatStream(context.Context, llm.Request) (llm.Stream, error) {
	return nil, errors.New("net/http: fetch() failed: TypeError: Failed to fetch")
}

func TestController_AModelGoneBeforeItSaidAnythingIsReplacedByTheBrowserTools(t *testing.T) {
	c, rec := harness(t, chats.NewMemStore(), &scriptedModel{reply: func(llm.Request, int) []string { return nil }},
		func(d *Deps) { d.Chatter = func(Settings) llm.Chatter { return goneModel{} } })
	if c.Chat.Ask("What is 3 * (17 + 5) / 2?") != AskSent {
		t.Fatal("Ask refused")
	}
	waitFor(t, "answered", func() bool { return !rec.busy() && !lastAnswerOf(rec.thread()).Streaming })
	c.Wait()
	m := lastAnswerOf(rec.thread())
	if !strings.Contains(m.Answer, "33") || !m.Offline || len(m.Cards) != 1 || m.Cards[0].Tool != "calculate" {
		t.Errorf("answer %+v; want 33 from the calculator, marked as made without a model", m)
	}
	rec.mu.Lock()
	ms := rec.last[StateModel].(ModelState)
	rec.mu.Unlock()
	if ms.Status != LLMDown || ms.Err == "" {
		t.Errorf("model state %+v; want down, with why", ms)
	}
}

func TestController_ResumesTheLatestChatOnlyWhenAskedAndRecent(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		within  time.Duration
		updated time.Time
		resumed bool
	}{
		{"the full app always starts a new chat", 0, now.Add(-time.Minute), false},
		{"an embed resumes a recent conversation", 12 * time.Hour, now.Add(-time.Hour), true},
		{"an embed starts afresh after a long pause", 12 * time.Hour, now.Add(-48 * time.Hour), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			store := chats.NewMemStore()
			old := &chats.Chat{ID: "c1", Title: "pruning", Created: tc.updated, Updated: tc.updated}
			old.AddQuestion("when to prune?", tc.updated)
			if err := store.Put(context.Background(), old); err != nil {
				t.Fatal(err)
			}
			c, rec := harness(t, store, &scriptedModel{reply: func(llm.Request, int) []string { return nil }},
				func(d *Deps) { d.ResumeWithin, d.Now = tc.within, func() time.Time { return now } })
			th := rec.thread()
			if got := th.ChatID == "c1" && len(th.Messages) > 0; got != tc.resumed {
				t.Errorf("thread %+v; resumed = %v, want %v", th, got, tc.resumed)
			}
			c.Wait()
		})
	}
}

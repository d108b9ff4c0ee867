package control

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tinyrag/app/chats"
	"tinyrag/app/httpdo"
	"tinyrag/app/llm"
	"tinyrag/app/nanogo"
)

// recorder is a Publisher that keeps the last value of every state, as
// go-app's state store does, and lets a test read them from any
// goroutine (as the UI goroutine does).
type recorder struct {
	mu      sync.Mutex
	last    map[string]any
	n       map[string]int
	threads []publishedThread
	// queries are the queries of the searches published, in order.
	queries []string
}

// publishedThread is a published thread and its encoding at the time.
type publishedThread struct {
	t    Thread
	json string
}

func newRecorder() *recorder { return &recorder{last: map[string]any{}, n: map[string]int{}} }

func (r *recorder) Publish(state string, v any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last[state] = v
	r.n[state]++
	if t, ok := v.(Thread); ok {
		b, _ := json.Marshal(t)
		r.threads = append(r.threads, publishedThread{t, string(b)})
	}
	if s, ok := v.(SearchState); ok {
		r.queries = append(r.queries, s.Query)
	}
}

// checkSnapshotsUnchanged fails if any published thread changed after it
// was published: the UI reads them without a lock.
func (r *recorder) checkSnapshotsUnchanged(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, p := range r.threads {
		if b, _ := json.Marshal(p.t); string(b) != p.json {
			t.Fatalf("published thread %d of %d changed after publication:\nthen %s\nnow  %s", i+1, len(r.threads), p.json, b)
		}
	}
}

func (r *recorder) thread() Thread {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, _ := r.last[StateThread].(Thread)
	return t
}

func (r *recorder) status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, _ := r.last[StateStatus].(Status)
	return s
}

func (r *recorder) searchState() SearchState {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, _ := r.last[StateSearch].(SearchState)
	return s
}

func (r *recorder) busy() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, _ := r.last[StateBusy].(bool)
	return b
}

// readAll walks every published snapshot the way components render
// them; run alongside the controller, it lets the race detector see any
// snapshot the controller still writes to.
func (r *recorder) readAll() int {
	t := r.thread()
	n := len(t.Title)
	for _, m := range t.Messages {
		n += len(m.Content) + len(m.Answer) + len(m.Thinking)
		for _, c := range m.Cards {
			n += len(c.Status) + len(c.Result)
		}
		for _, c := range m.Citations {
			n += len(c.Text)
		}
	}
	r.mu.Lock()
	l, _ := r.last[StateChats].(ChatList)
	r.mu.Unlock()
	for _, it := range l.Items {
		n += len(it.Title)
	}
	return n
}

// scriptedModel is an llm.Chatter whose replies come from reply; each
// reply's pieces are sent one by one, and a reply can hold at any piece
// until release is closed (or the request is cancelled).
type scriptedModel struct {
	mu       sync.Mutex
	requests []llm.Request
	reply    func(req llm.Request, n int) []string
	hold     chan struct{} // nil: never hold
	holdAt   int           // the piece that waits for hold
}

func (s *scriptedModel) ChatStream(ctx context.Context, req llm.Request) (llm.Stream, error) {
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, req)
	pieces := s.reply(req, n)
	hold, at := s.hold, s.holdAt
	s.mu.Unlock()
	ch := make(chan llm.Delta)
	go func() {
		defer close(ch)
		for i, p := range pieces {
			if hold != nil && i == at {
				select {
				case <-hold:
				case <-ctx.Done():
					return
				}
			}
			select {
			case ch <- llm.Delta{Content: p}:
			case <-ctx.Done():
				return
			}
		}
	}()
	return &chanStream{ctx: ctx, ch: ch}, nil
}

func (s *scriptedModel) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

type runnerFunc func(ctx context.Context, src string) (nanogo.Output, error)

func (f runnerFunc) Run(ctx context.Context, src string) (nanogo.Output, error) { return f(ctx, src) }

type chanStream struct {
	ctx context.Context
	ch  <-chan llm.Delta
}

func (s *chanStream) Recv() (llm.Delta, error) {
	select {
	case d, ok := <-s.ch:
		if !ok {
			if s.ctx.Err() != nil {
				return llm.Delta{}, s.ctx.Err()
			}
			return llm.Delta{}, io.EOF
		}
		return d, nil
	case <-s.ctx.Done():
		return llm.Delta{}, s.ctx.Err()
	}
}

func (s *chanStream) Close() error { return nil }

// gatedStore is a chat store whose writes wait until the test lets them
// through: a slow IndexedDB.
type gatedStore struct {
	*chats.MemStore
	gate    chan struct{}
	started chan struct{} // a write began waiting (buffered)
}

func newGatedStore() *gatedStore {
	return &gatedStore{MemStore: chats.NewMemStore(), gate: make(chan struct{}), started: make(chan struct{}, 64)}
}

func (g *gatedStore) Put(ctx context.Context, c *chats.Chat) error {
	g.started <- struct{}{}
	<-g.gate
	return g.MemStore.Put(ctx, c)
}

func (g *gatedStore) Delete(ctx context.Context, id string) error {
	g.started <- struct{}{}
	<-g.gate
	return g.MemStore.Delete(ctx, id)
}

// harness starts a controller over a memory knowledge base, the given
// chat store and model, and a loopback server that answers /api/config.
func harness(t *testing.T, store chats.Store, model *scriptedModel, opts ...func(*Deps)) (*Controller, *recorder) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/config" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `{"llm":{"configured":true,"path":"/api/llm"},"web":{"enabled":false}}`)
	}))
	t.Cleanup(srv.Close)
	deps := Deps{
		Origin:    srv.URL,
		HTTP:      httpdo.NetHTTP{Client: srv.Client()},
		OpenChats: func(context.Context) (chats.Store, error) { return store, nil },
		Chatter:   func(Settings) llm.Chatter { return model },
		Models:    func(context.Context, Settings) ([]string, error) { return []string{"scripted"}, nil },
	}
	for _, o := range opts {
		o(&deps)
	}
	c := NewController(deps)
	rec := newRecorder()
	c.Start(rec)
	waitFor(t, "the controller is ready and the model checked", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.status.Ready && c.Model.State().Status == LLMOK
	})
	t.Cleanup(c.Wait)
	return c, rec
}

// waitFor polls cond; it is about ordering, not speed, so the limit is
// generous.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not true within 10s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// readWhile reads the published states in a loop until stop is closed.
func readWhile(rec *recorder, stop <-chan struct{}) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				rec.readAll()
				time.Sleep(time.Millisecond)
			}
		}
	}()
	return &wg
}

func words(s string) []string { return strings.SplitAfter(s, " ") }

func lastAnswerOf(t Thread) chats.Message {
	if len(t.Messages) == 0 {
		return chats.Message{}
	}
	return t.Messages[len(t.Messages)-1]
}

func TestController_AnswerStreamsWithAToolCardAndIsSaved(t *testing.T) {
	// The tool waits until the test has seen its card published as
	// running: the card then changes while the UI holds that snapshot.
	release := make(chan struct{})
	runner := runnerFunc(func(ctx context.Context, src string) (nanogo.Output, error) {
		select {
		case <-release:
			return nanogo.Output{Stdout: "42\n"}, nil
		case <-ctx.Done():
			return nanogo.Output{}, ctx.Err()
		}
	})
	model := &scriptedModel{reply: func(req llm.Request, n int) []string {
		if n == 0 {
			return []string{"Let me run it. ", `<tool name="nanogo"><source>fmt.Println(6 * 7)</source></tool>`}
		}
		return words("The product is 42.")
	}}
	store := chats.NewMemStore()
	c, rec := harness(t, store, model, func(d *Deps) { d.NanoGo = runner })
	st := c.Model.Settings()
	st.AllowNanoGo = true
	c.Model.SetSettings(st)
	stop := make(chan struct{})
	readers := readWhile(rec, stop)

	if c.Chat.Ask("what does this print?") != AskSent {
		t.Fatal("Ask refused a question on a ready controller")
	}
	waitFor(t, "running card published", func() bool {
		m := lastAnswerOf(rec.thread())
		return len(m.Cards) == 1 && m.Cards[0].Status == chats.StatusRunning && m.Cards[0].ID != ""
	})
	close(release)
	waitFor(t, "answer finished", func() bool { return !rec.busy() && !lastAnswerOf(rec.thread()).Streaming })
	c.Wait()
	close(stop)
	readers.Wait()
	rec.checkSnapshotsUnchanged(t)

	m := lastAnswerOf(rec.thread())
	if !strings.Contains(m.Answer, "42") || len(m.Cards) != 1 || m.Cards[0].Status != chats.StatusDone || !strings.Contains(m.Cards[0].Result, "42") || m.Cards[0].Tool != "nanogo" {
		t.Fatalf("published answer = %+v", m)
	}
	stored, err := store.All(context.Background())
	if err != nil || len(stored) != 1 || len(stored[0].Messages) != 2 || !strings.Contains(stored[0].Messages[1].Answer, "42") {
		t.Fatalf("stored chats = %+v, err %v; want the chat with its answer", stored, err)
	}
	if l := c.Chat.Chats(""); len(l) != 1 || l[0].Title != "what does this print?" {
		t.Errorf("chat list = %+v", l)
	}
}

func TestController_AskingWhileTheLastAnswerIsStillBeingSaved(t *testing.T) {
	model := &scriptedModel{reply: func(req llm.Request, n int) []string { return words(fmt.Sprintf("Answer number %d.", n+1)) }}
	store := newGatedStore()
	c, rec := harness(t, store, model)
	stop := make(chan struct{})
	readers := readWhile(rec, stop)

	c.Chat.Ask("first?")
	<-store.started // the first answer's save waits on the store
	waitFor(t, "composer free while the save is in flight", func() bool { return !rec.busy() })
	if c.Chat.Ask("second?") != AskSent {
		t.Fatal("a question was refused while the previous answer was being saved")
	}
	waitFor(t, "second answer finished", func() bool {
		m := lastAnswerOf(rec.thread())
		return !rec.busy() && !m.Streaming && strings.Contains(m.Answer, "number 2")
	})
	close(store.gate)
	c.Wait()
	close(stop)
	readers.Wait()
	rec.checkSnapshotsUnchanged(t)

	stored, _ := store.MemStore.All(context.Background())
	if len(stored) != 1 || len(stored[0].Messages) != 4 {
		t.Fatalf("stored = %+v; want one chat with both questions and answers (the later save lands last)", stored)
	}
}

func TestController_StopAndRegenerateWhileStreaming(t *testing.T) {
	hold := make(chan struct{})
	model := &scriptedModel{hold: hold, holdAt: 2, reply: func(req llm.Request, n int) []string {
		return words(fmt.Sprintf("Reply %d streams slowly and then ends.", n+1))
	}}
	c, rec := harness(t, chats.NewMemStore(), model)
	stop := make(chan struct{})
	readers := readWhile(rec, stop)

	c.Chat.Ask("tell me a story")
	waitFor(t, "streaming began", func() bool { return strings.Contains(lastAnswerOf(rec.thread()).Content, "Reply 1") })
	if c.Chat.Regenerate() {
		t.Fatal("Regenerate started a second answer while one streams")
	}
	if c.Chat.Ask("another?") != AskRefused {
		t.Fatal("Ask started a second answer while one streams")
	}
	c.Chat.Stop()
	waitFor(t, "stopped", func() bool { return !rec.busy() && lastAnswerOf(rec.thread()).Stopped })
	m := lastAnswerOf(rec.thread())
	if m.Streaming || m.Answer == "" || strings.Contains(m.Content, "ends.") {
		t.Fatalf("stopped answer = %+v", m)
	}

	close(hold)
	if !c.Chat.Regenerate() {
		t.Fatal("Regenerate refused after the answer stopped")
	}
	waitFor(t, "regenerated", func() bool {
		m := lastAnswerOf(rec.thread())
		return !rec.busy() && !m.Streaming && strings.Contains(m.Answer, "Reply 2")
	})
	c.Wait()
	close(stop)
	readers.Wait()
	rec.checkSnapshotsUnchanged(t)
	if th := rec.thread(); len(th.Messages) != 2 || th.Messages[1].Stopped {
		t.Errorf("after regenerate the thread has %d messages, last stopped=%v; want the question and one fresh answer", len(th.Messages), th.Messages[len(th.Messages)-1].Stopped)
	}
}

func TestController_DeleteOrRenameWhileASaveIsInFlight(t *testing.T) {
	tests := []struct {
		name  string
		act   func(c *Controller, id string) error
		check func(t *testing.T, stored []*chats.Chat, list []ChatItem)
	}{
		{"delete", func(c *Controller, id string) error { c.Chat.DeleteChat(id); return nil },
			func(t *testing.T, stored []*chats.Chat, list []ChatItem) {
				if len(stored) != 0 || len(list) != 0 {
					t.Errorf("after delete: stored %d, listed %+v; want the chat gone from both", len(stored), list)
				}
			}},
		{"rename", func(c *Controller, id string) error { return c.Chat.RenameChat(id, "  Renamed   chat ") },
			func(t *testing.T, stored []*chats.Chat, list []ChatItem) {
				if len(stored) != 1 || stored[0].Title != "Renamed chat" || !stored[0].Renamed || len(stored[0].Messages) != 2 {
					t.Errorf("after rename: stored %+v; want the renamed chat with its messages", stored)
				}
				if len(list) != 1 || list[0].Title != "Renamed chat" {
					t.Errorf("after rename: listed %+v", list)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			model := &scriptedModel{reply: func(llm.Request, int) []string { return words("Saved answer.") }}
			store := newGatedStore()
			c, rec := harness(t, store, model)
			c.Chat.Ask("keep this?")
			<-store.started // the save waits on the store
			id := rec.thread().ChatID
			done := make(chan error, 1)
			go func() { done <- tc.act(c, id) }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s waited for the store: it must return at once", tc.name)
			}
			close(store.gate)
			c.Wait()
			stored, _ := store.MemStore.All(context.Background())
			tc.check(t, stored, c.Chat.Chats(""))
		})
	}
}

func TestController_DeletingTheChatWhoseAnswerStreamsDoesNotStoreItAgain(t *testing.T) {
	hold := make(chan struct{})
	model := &scriptedModel{hold: hold, holdAt: 1, reply: func(llm.Request, int) []string { return words("Half an answer, then more.") }}
	store := chats.NewMemStore()
	c, rec := harness(t, store, model)
	c.Chat.Ask("first") // saved: the chat exists
	close(hold)
	waitFor(t, "first answer", func() bool { return !rec.busy() && !lastAnswerOf(rec.thread()).Streaming })
	c.Wait()

	model.mu.Lock()
	model.hold = make(chan struct{}) // the next answer holds until cancelled
	model.mu.Unlock()
	id := rec.thread().ChatID
	c.Chat.Ask("second")
	waitFor(t, "second answer streaming", func() bool { return strings.Contains(lastAnswerOf(rec.thread()).Content, "Half") })
	c.Chat.DeleteChat(id)
	c.Wait()
	if stored, _ := store.All(context.Background()); len(stored) != 0 {
		t.Errorf("the deleted chat was stored again by its stopped answer: %+v", stored)
	}
	if th := rec.thread(); th.ChatID == id || len(th.Messages) != 0 || rec.busy() {
		t.Errorf("after deleting the open chat: thread %+v busy %v; want an empty new chat", th, rec.busy())
	}
}

func TestController_FailedSaveIsShownAsANotice(t *testing.T) {
	model := &scriptedModel{reply: func(llm.Request, int) []string { return words("Fine.") }}
	c, rec := harness(t, failingStore{chats.NewMemStore()}, model)
	c.Chat.Ask("save me")
	c.Wait()
	if n := rec.status().Notice; !strings.Contains(n, "quota") {
		t.Errorf("notice = %q, want the store's error", n)
	}
}

type failingStore struct{ *chats.MemStore }

func (failingStore) Put(context.Context, *chats.Chat) error {
	return fmt.Errorf("the browser's storage quota is used up")
}

func TestModelHost_ShowsOnlyHostsThatAreNotThisMachine(t *testing.T) {
	tests := []struct {
		endpoint, origin string
		host             string
		proxy            bool
	}{
		{"", "http://127.0.0.1:8080", "", true},
		{"", "https://rag.example.org", "rag.example.org", true},
		{"http://localhost:11434/v1", "http://127.0.0.1:8080", "", false},
		{"http://[::1]:1234/v1", "http://127.0.0.1:8080", "", false},
		{"https://api.example.com/v1", "http://127.0.0.1:8080", "api.example.com", false},
		{"https://rag.example.org/api/llm", "https://rag.example.org", "rag.example.org", true},
	}
	for _, tc := range tests {
		rt := &Runtime{Origin: tc.origin}
		host, proxy := modelHost(rt, Settings{Endpoint: tc.endpoint})
		if host != tc.host || proxy != tc.proxy {
			t.Errorf("modelHost(%q, %q) = %q, %v; want %q, %v", tc.endpoint, tc.origin, host, proxy, tc.host, tc.proxy)
		}
	}
}

func TestController_OpenedBeforeTheUIMountsPublishesReadyWhenStarted(t *testing.T) {
	for _, tc := range []struct {
		name string
		// startWhile says whether Start comes while the chat store is
		// still opening (else after the controller is ready).
		startWhileOpening bool
	}{
		{"the stores open before the UI mounts", false},
		{"the UI mounts while the stores open", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gate := make(chan struct{})
			marks := make(chan string, 16)
			c := NewController(Deps{
				OpenChats: func(context.Context) (chats.Store, error) {
					<-gate
					return chats.NewMemStore(), nil
				},
				Models: func(context.Context, Settings) ([]string, error) { return []string{"m"}, nil },
				Mark:   func(name string) { marks <- name },
			})
			t.Cleanup(c.Wait)
			c.Open()
			c.Open() // again: nothing more
			rec := newRecorder()
			if tc.startWhileOpening {
				c.Start(rec)
				if rec.status().Ready {
					t.Fatal("ready before the chat store opened")
				}
				close(gate)
			} else {
				close(gate)
				waitFor(t, "ready without a publisher", func() bool {
					c.mu.Lock()
					defer c.mu.Unlock()
					return c.status.Ready
				})
				c.Start(rec)
			}
			waitFor(t, "ready published", func() bool { return rec.status().Ready })
			// The stores began opening before the app was ready (the
			// site's knowledge opens beside them and marks its own steps).
			var seen []string
			for m := range marks {
				seen = append(seen, m)
				if m == "tinyrag:ready" {
					break
				}
			}
			if !slices.Contains(seen, "tinyrag:open") {
				t.Errorf("marks before ready %q, want tinyrag:open among them", seen)
			}
		})
	}
}

package embed

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"tinyrag/app/engine"
	"tinyrag/app/engine/telemetry"
)

// fakeChat records what the bridge asked of it.
type fakeChat struct {
	asked   []string
	submits []bool
	docs    [][]Document
	context []string
	queries []string
	results []SearchResult
	partial [][]SearchResult // handed to partial, in turn, before results
	askErr  error
}

func (c *fakeChat) Ask(q string, submit bool) error {
	c.asked = append(c.asked, q)
	c.submits = append(c.submits, submit)
	return c.askErr
}
func (c *fakeChat) AddDocuments(d []Document) error { c.docs = append(c.docs, d); return nil }
func (c *fakeChat) SetContext(s string)             { c.context = append(c.context, s) }
func (c *fakeChat) Search(q string, partial func([]SearchResult)) ([]SearchResult, error) {
	c.queries = append(c.queries, q)
	for _, rs := range c.partial {
		partial(rs)
	}
	return c.results, nil
}

// posted is one message the bridge sent, decoded, with where it went.
type posted struct {
	to  string
	msg map[string]any
}

func newTestBridge(t *testing.T, p Policy) (*Bridge, *fakeChat, *[]posted) {
	t.Helper()
	chat := &fakeChat{}
	var out []posted
	b, err := NewBridge("https://docs.example.org", p, chat, func(data []byte, to string) {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("the bridge sent something that is not JSON: %s", data)
		}
		out = append(out, posted{to, m})
	})
	if err != nil {
		t.Fatal(err)
	}
	return b, chat, &out
}

func TestBridge_HearsOnlyTheParentAtTheEmbeddingOrigin(t *testing.T) {
	ask := []byte(`{"v":1,"type":"ask","question":"What is RAG?"}`)
	for _, tc := range []struct {
		name       string
		origin     string
		fromParent bool
		heard      bool
	}{
		{"the embedding page", "https://docs.example.org", true, true},
		{"another allowed origin", "http://127.0.0.1:9000", true, false},
		{"a foreign origin", "https://evil.example", true, false},
		{"a sibling frame on the embedding origin", "https://docs.example.org", false, false},
		{"a popup on a foreign origin", "https://evil.example", false, false},
		{"an opaque origin", "null", true, false},
	} {
		b, chat, out := newTestBridge(t, Policy{Origins: []string{"https://docs.example.org", "http://127.0.0.1:9000"}})
		if got := b.Receive(tc.origin, tc.fromParent, ask); got != tc.heard {
			t.Errorf("%s: heard %t, want %t", tc.name, got, tc.heard)
		}
		if tc.heard && len(chat.asked) != 1 {
			t.Errorf("%s: the chat was asked %d times, want 1", tc.name, len(chat.asked))
		}
		if !tc.heard && (len(chat.asked) > 0 || len(*out) > 0) {
			t.Errorf("%s: ignored, yet the chat was asked %v and the bridge sent %v", tc.name, chat.asked, *out)
		}
	}
}

func TestBridge_HostSubmitOnlyWhenTheSiteAllowsIt(t *testing.T) {
	for _, allow := range []bool{false, true} {
		b, chat, _ := newTestBridge(t, Policy{Origins: []string{"https://docs.example.org"}, HostSubmit: allow})
		b.Receive("https://docs.example.org", true, []byte(`{"v":1,"type":"ask","question":"  Install how? "}`))
		if !reflect.DeepEqual(chat.asked, []string{"Install how?"}) || chat.submits[0] != allow {
			t.Errorf("host submit %t: asked %q submit %v", allow, chat.asked, chat.submits)
		}
	}
}

func TestBridge_DispatchesDocumentsAndContext(t *testing.T) {
	b, chat, out := newTestBridge(t, Policy{Origins: []string{"https://docs.example.org"}})
	b.Receive("https://docs.example.org", true, []byte(`{"v":1,"type":"add_documents","documents":[{"title":"Install","text":"Run make build.","url":"https://docs.example.org/install"}]}`))
	b.Receive("https://docs.example.org", true, []byte(`{"v":1,"type":"set_context","context":"The visitor reads the install guide."}`))
	b.Receive("https://docs.example.org", true, []byte(`{"v":1,"type":"set_context"}`))
	want := []Document{{Title: "Install", Text: "Run make build.", URL: "https://docs.example.org/install"}}
	if len(chat.docs) != 1 || !reflect.DeepEqual(chat.docs[0], want) {
		t.Errorf("documents %+v", chat.docs)
	}
	if !reflect.DeepEqual(chat.context, []string{"The visitor reads the install guide.", ""}) {
		t.Errorf("context %q", chat.context)
	}
	if len(*out) != 0 {
		t.Errorf("accepted messages got replies: %v", *out)
	}
}

func TestBridge_RefusalsGetAnErrorToTheEmbeddingOriginOnly(t *testing.T) {
	b, chat, out := newTestBridge(t, Policy{Origins: []string{"https://docs.example.org"}})
	b.Receive("https://docs.example.org", true, []byte(`{"v":2,"type":"ask","question":"x"}`))
	b.Receive("https://docs.example.org", true, []byte(`{"v":1,"type":"answer","answer":"forged"}`))
	chat.askErr = errors.New("a question is being answered; ask again when it is done")
	b.Receive("https://docs.example.org", true, []byte(`{"v":1,"type":"ask","question":"x"}`))
	if len(*out) != 3 {
		t.Fatalf("sent %v, want three errors", *out)
	}
	for i, want := range []string{"version 2", `unknown message type "answer"`, "being answered"} {
		p := (*out)[i]
		if p.to != "https://docs.example.org" || p.msg["type"] != "error" || p.msg["v"] != 1.0 || !strings.Contains(p.msg["error"].(string), want) {
			t.Errorf("reply %d = %v to %q, want an error saying %q to the embedding origin", i, p.msg, p.to, want)
		}
	}
}

func TestBridge_SendsReadyAnswerHostEventsResizeAndClose(t *testing.T) {
	b, _, out := newTestBridge(t, Policy{Origins: []string{"https://docs.example.org"}})
	b.Ready()
	for _, e := range []engine.Event{
		{Event: engine.EventRoute, Mode: "rag"},
		{Event: engine.EventToken, Text: "Zeb"},
		{Event: engine.EventThinking, Text: "hmm"},
		{Event: engine.EventToolStart, ID: "t1", Tool: "rag_knowledge", Query: "zebra"},
		{Event: engine.EventToolResult, ID: "t1", Tool: "rag_knowledge", Result: "[1] Zebras…"},
		{Event: engine.EventToolSkipped, ID: "t2", Tool: "shell", Reason: engine.SkipUnknownTool},
		{Event: engine.EventDone, Answer: "Zebras migrate [1].", Telemetry: &telemetry.Record{}},
	} {
		b.Event(e)
	}
	b.Answer("Zebras migrate [1].", []Citation{{Title: "Zebras", Source: "https://docs.example.org/zebra", Chunk: "c1", Text: "Zebras…"}})
	b.Resize(480)
	b.Resize(480)
	b.Resize(0)
	b.Close()
	var types []string
	for _, p := range *out {
		if p.to != "https://docs.example.org" {
			t.Errorf("%v sent to %q", p.msg, p.to)
		}
		typ := p.msg["type"].(string)
		if typ == "event" {
			ev := p.msg["event"].(map[string]any)
			typ += ":" + ev["event"].(string)
			if _, ok := ev["telemetry"]; ok {
				t.Errorf("the app's telemetry went to the host: %v", ev)
			}
		}
		types = append(types, typ)
	}
	want := []string{"ready", "event:tool_start", "event:tool_result", "event:tool_skipped", "event:done", "answer", "resize", "close"}
	if !reflect.DeepEqual(types, want) {
		t.Errorf("sent %v, want %v", types, want)
	}
	ans := (*out)[5].msg
	cites, _ := ans["citations"].([]any)
	if ans["answer"] != "Zebras migrate [1]." || len(cites) != 1 || cites[0].(map[string]any)["source"] != "https://docs.example.org/zebra" {
		t.Errorf("answer message %v", ans)
	}
}

func TestNewBridge_NeedsAnEmbeddingPage(t *testing.T) {
	if _, err := NewBridge("", Policy{}, &fakeChat{}, func([]byte, string) {}); err == nil {
		t.Error("a bridge to nobody was made")
	}
}

func TestBridge_AnswersASearchWithItsResultsWithinTheLimits(t *testing.T) {
	b, chat, out := newTestBridge(t, Policy{Origins: []string{"https://docs.example.org"}})
	for i := 0; i < MaxResults+3; i++ {
		chat.results = append(chat.results, SearchResult{Title: "Pruning <b>", Source: "/docs/p.html", URL: "https://docs.example.org/docs/p.html#:~:text=Prune",
			Snippet: []string{"When to ", "prune", " apple trees"}})
	}
	b.Receive("https://docs.example.org", true, []byte(`{"v":1,"type":"search","query":" prun "}`))
	if len(chat.queries) != 1 || chat.queries[0] != "prun" {
		t.Fatalf("searched %q, want the trimmed query", chat.queries)
	}
	if len(*out) != 1 {
		t.Fatalf("sent %v, want one results message", *out)
	}
	m := (*out)[0].msg
	rs, _ := m["results"].([]any)
	if m["type"] != "results" || m["query"] != "prun" || len(rs) != MaxResults {
		t.Fatalf("results message %v: want the query and %d results", m, MaxResults)
	}
	r := rs[0].(map[string]any)
	if r["title"] != "Pruning <b>" || r["url"] == "" || len(r["snippet"].([]any)) != 3 {
		t.Errorf("result %v", r)
	}
}

func TestBridge_SendsASearchsPartialResultsBeforeItsResults(t *testing.T) {
	b, chat, out := newTestBridge(t, Policy{Origins: []string{"https://docs.example.org"}})
	page := func(n int) SearchResult {
		return SearchResult{Title: fmt.Sprintf("Page %d", n), Source: fmt.Sprintf("/docs/%d.html", n), Snippet: []string{"text"}}
	}
	waiting := SearchResult{Pending: true}
	chat.partial = [][]SearchResult{{waiting, page(2), waiting}, {page(1), page(2), waiting}}
	for i := 0; i < MaxResults+2; i++ {
		chat.partial[1] = append(chat.partial[1], waiting)
	}
	chat.results = []SearchResult{page(1), page(2), page(3)}
	b.Receive("https://docs.example.org", true, []byte(`{"v":1,"type":"search","query":"pages"}`))
	var got []string
	for _, p := range *out {
		var rows []string
		for _, r := range p.msg["results"].([]any) {
			r := r.(map[string]any)
			if r["pending"] == true {
				if r["title"] != "" || r["source"] != "" || r["url"] != nil || r["snippet"] != nil {
					t.Errorf("a pending result carries more than its mark: %v", r)
				}
				rows = append(rows, "…")
				continue
			}
			rows = append(rows, r["title"].(string))
		}
		got = append(got, fmt.Sprintf("%s %s: %s", p.msg["type"], p.msg["query"], strings.Join(rows, ", ")))
	}
	want := []string{
		"partial_results pages: …, Page 2, …",
		"partial_results pages: Page 1, Page 2, " + strings.TrimSuffix(strings.Repeat("…, ", MaxResults-2), ", "),
		"results pages: Page 1, Page 2, Page 3",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sent\n %s\nwant\n %s", strings.Join(got, "\n "), strings.Join(want, "\n "))
	}
}

func TestBridge_SendsFeedbackAndUnansweredWithinTheLimits(t *testing.T) {
	b, _, out := newTestBridge(t, Policy{Origins: []string{"https://docs.example.org"}})
	var cites []Citation
	for i := 0; i < MaxCitations+5; i++ {
		cites = append(cites, Citation{Title: "T", Source: "s", Chunk: "c", Text: strings.Repeat("w", MaxCitationRunes+50)})
	}
	b.Feedback(Feedback{Rating: "down", Reason: "incorrect", Note: "Wrong season.", Question: "When to prune?",
		Answer: strings.Repeat("a", MaxAnswerRunes+10), Citations: cites})
	b.Unanswered(strings.Repeat("q", MaxQuestionRunes+10))
	if len(*out) != 2 {
		t.Fatalf("sent %v", *out)
	}
	f := (*out)[0].msg
	if f["type"] != "feedback" || f["rating"] != "down" || f["reason"] != "incorrect" || f["note"] != "Wrong season." || f["question"] != "When to prune?" {
		t.Errorf("feedback message %v", f)
	}
	if n := len([]rune(f["answer"].(string))); n != MaxAnswerRunes {
		t.Errorf("answer of %d characters, want it cut to %d", n, MaxAnswerRunes)
	}
	cs := f["citations"].([]any)
	if len(cs) != MaxCitations || len([]rune(cs[0].(map[string]any)["text"].(string))) != MaxCitationRunes {
		t.Errorf("%d citations, the first's text %d characters; want %d and %d", len(cs), len([]rune(cs[0].(map[string]any)["text"].(string))), MaxCitations, MaxCitationRunes)
	}
	u := (*out)[1]
	if u.to != "https://docs.example.org" || u.msg["type"] != "unanswered" || len([]rune(u.msg["question"].(string))) != MaxQuestionRunes {
		t.Errorf("unanswered message %v to %q", u.msg, u.to)
	}
}

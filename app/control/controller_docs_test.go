package control

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"tinyrag/app/chats"
	"tinyrag/app/embed"
	"tinyrag/app/knowledge"
	"tinyrag/app/knowledge/site"
	"tinyrag/app/llm"
	"tinyrag/app/siteconfig"
)

// docsSite serves a site config with an orchard bundle of three pages, its
// starters and host submit as given, on a loopback static host; the
// returned deps option points a controller at it.
func docsSite(t *testing.T, starters []string, hostSubmit bool) func(*Deps) {
	t.Helper()
	docs := []knowledge.Input{
		{Title: "Winter pruning", Source: "guide/pruning.html", Text: "Prune apple trees in late winter while the buds are dormant. Remove crossing branches first, then thin the canopy."},
		{Title: "Storing pears", Source: "guide/storage.html", Text: "Store pears at one degree Celsius; check the apple and pear stores for rot every week in winter."},
		{Title: "Orchard <script>alert(1)</script> soil", Source: "guide/soil.html", Text: "Apple trees like deep loam; mulch <b>young</b> trees before winter."},
	}
	// More pages about apples than an answer's prompt takes (5): the rest
	// are what to read next.
	for _, v := range []string{"Cox", "Bramley", "Gala", "Fuji", "Jonagold"} {
		docs = append(docs, knowledge.Input{Title: v + " apples", Source: "varieties/" + strings.ToLower(v) + ".html", Text: v + " is an apple variety that keeps well into winter."})
	}
	files, src := writeBundle(t, "/kb/bundles/orchard/", docs...)
	cfg := siteconfig.Config{
		Bundles:  []site.Source{src},
		Proxy:    siteconfig.SameOrigin,
		Starters: starters,
		Embed:    &embed.Policy{HostSubmit: hostSubmit},
	}
	srv := staticHost(t, cfg, files)
	return func(d *Deps) { d.ConfigURL = srv.URL + "/kb/" + siteconfig.FileName }
}

func TestController_SiteStartersAndHostSubmitComeFromTinyragJSON(t *testing.T) {
	model := &scriptedModel{reply: func(llm.Request, int) []string { return words("Fine.") }}
	c, _ := harness(t, chats.NewMemStore(), model, docsSite(t, []string{"When do I prune?", "How do I store pears?"}, true))
	if got := c.Site.Starters(); !reflect.DeepEqual(got, []string{"When do I prune?", "How do I store pears?"}) {
		t.Errorf("Starters = %q", got)
	}
	if !c.Site.HostSubmit() {
		t.Error("HostSubmit is off although the site turned it on")
	}
	c2, _ := harness(t, chats.NewMemStore(), model, docsSite(t, nil, false))
	if c2.Site.Starters() != nil || c2.Site.HostSubmit() {
		t.Errorf("a site without starters or host submit: %q, %v", c2.Site.Starters(), c2.Site.HostSubmit())
	}
}

func TestController_SearchSiteLinksEachPageAtItsPassage(t *testing.T) {
	model := &scriptedModel{reply: func(llm.Request, int) []string { return words("Fine.") }}
	c, _ := harness(t, chats.NewMemStore(), model, docsSite(t, nil, false))
	hits, err := c.Site.SearchSite(context.Background(), "crossing branches", 5, nil)
	if err != nil || len(hits) == 0 || hits[0].Title != "Winter pruning" {
		t.Fatalf("SearchSite = %+v, %v", hits, err)
	}
	link := c.Site.PassageLink(CitationOfHit(hits[0]))
	if !strings.HasPrefix(link, strings.TrimSuffix(c.c.deps.ConfigURL, siteconfig.FileName)+"guide/pruning.html#:~:text=Prune%20apple%20trees%20in%20late,first%2C%20then%20thin%20the%20canopy.") {
		t.Errorf("passage link %q: want the page under the site's base at the passage's words", link)
	}
	if hits, err := c.Site.SearchSite(context.Background(), "  ", 5, nil); err != nil || hits != nil {
		t.Errorf("an empty query: %v, %v", hits, err)
	}

}

func TestController_AnswerListsRelatedPagesItDidNotCite(t *testing.T) {
	model := &scriptedModel{reply: func(llm.Request, int) []string { return words("Prune in late winter [1].") }}
	c, rec := harness(t, chats.NewMemStore(), model, docsSite(t, nil, false))
	c.Chat.Ask("apple trees winter pruning")
	waitFor(t, "answered", func() bool {
		return !rec.busy() && len(rec.thread().Messages) == 2 && !lastAnswerOf(rec.thread()).Streaming
	})
	c.Wait()
	m := lastAnswerOf(rec.thread())
	if len(m.Citations) < 2 || m.Citations[0].Title != "Winter pruning" {
		t.Fatalf("citations %+v", m.Citations)
	}
	if len(m.Related) == 0 {
		t.Fatalf("no related pages; citations %+v", m.Citations)
	}
	cited := map[string]bool{}
	for _, ct := range m.Citations {
		cited[ct.Source] = true
	}
	for _, r := range m.Related {
		if cited[r.Source] || !strings.HasPrefix(r.URL, "http://127.0.0.1:") || !strings.HasSuffix(r.URL, "/kb/"+r.Source) {
			t.Errorf("related %+v: want an uncited page of the site with its address (cited: %v)", r, cited)
		}
	}
	if m.NoMatch {
		t.Error("a question that matched is marked as matching nothing")
	}

	c.Chat.Ask("qwertyuiop zxcvbnm")
	waitFor(t, "answered", func() bool {
		return !rec.busy() && len(rec.thread().Messages) == 4 && !lastAnswerOf(rec.thread()).Streaming
	})
	c.Wait()
	if m := lastAnswerOf(rec.thread()); !m.NoMatch || len(m.Related) != 0 || len(m.Citations) != 0 {
		t.Errorf("a question nothing matches: no match %v, related %+v, citations %+v", m.NoMatch, m.Related, m.Citations)
	}
}

func TestController_FeedbackIsKeptWithTheAnswerAndTold(t *testing.T) {
	h := &heard{}
	store := chats.NewMemStore()
	model := &scriptedModel{reply: func(llm.Request, int) []string { return words("Prune in late winter [1].") }}
	c, rec := harness(t, store, model, docsSite(t, nil, false), func(d *Deps) { d.Observer = h })
	c.Chat.Ask("When should I prune apple trees?")
	waitFor(t, "answered", func() bool {
		return !rec.busy() && len(rec.thread().Messages) == 2 && !lastAnswerOf(rec.thread()).Streaming
	})
	id := rec.thread().ChatID

	for _, bad := range []struct {
		index int
		f     chats.Feedback
	}{
		{1, chats.Feedback{Rating: "meh"}},
		{1, chats.Feedback{Rating: chats.RatingDown, Reason: "rude"}},
		{0, chats.Feedback{Rating: chats.RatingUp}}, // the question, not an answer
		{5, chats.Feedback{Rating: chats.RatingUp}},
	} {
		if err := c.Chat.SetFeedback(id, bad.index, bad.f); err == nil {
			t.Errorf("feedback %+v on message %d accepted", bad.f, bad.index)
		}
	}
	if err := c.Chat.SetFeedback(id, 1, chats.Feedback{Rating: chats.RatingDown, Reason: "missing_sources", Note: " Which varieties? "}); err != nil {
		t.Fatal(err)
	}
	c.Wait()
	got := lastAnswerOf(rec.thread()).Feedback
	if got == nil || got.Rating != "down" || got.Reason != "missing_sources" || got.Note != "Which varieties?" || got.Time.IsZero() {
		t.Errorf("feedback in the thread: %+v", got)
	}
	stored, err := store.All(context.Background())
	if err != nil || len(stored) != 1 || stored[0].Messages[1].Feedback == nil || stored[0].Messages[1].Feedback.Reason != "missing_sources" {
		t.Errorf("feedback not stored with the chat: %+v, %v", stored, err)
	}
	h.mu.Lock()
	rated := h.rated
	h.mu.Unlock()
	if len(rated) != 1 || rated[0].Feedback.Rating != "down" {
		t.Errorf("the observer heard %+v", rated)
	}
	// The open chat as the views export it (app/ui's chatMarkdown).
	md := c.Chat.Open().Markdown(chats.MarkdownOptions{You: "You", Assistant: "Assistant", Sources: "Sources",
		Feedback: "Feedback", Reasons: map[string]string{"missing_sources": "missing sources"}, Link: c.Site.PassageLink})
	for _, want := range []string{"# When should I prune apple trees?", "## You", "Prune in late winter [1].", "[Winter pruning](http://127.0.0.1:", "#:~:text=", "Feedback: down, missing sources: Which varieties?"} {
		if !strings.Contains(md, want) {
			t.Errorf("the chat as Markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestKnowledgeQuestion_NotAGreetingNorAnotherToolsQuestion(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    chats.Message
		want bool
	}{
		{"a question for the knowledge base", chats.Message{Route: &chats.Route{Mode: "retrieval_answer"}}, true},
		{"one the knowledge tool looked up", chats.Message{Cards: []chats.Card{{Tool: "rag_knowledge", Status: chats.StatusDone}}}, true},
		{"a greeting answered directly", chats.Message{Route: &chats.Route{Mode: "direct_answer"}}, false},
		{"a calculation", chats.Message{Cards: []chats.Card{{Tool: "calculate", Status: chats.StatusDone}}}, false},
		{"a web page that failed to load", chats.Message{Cards: []chats.Card{{Tool: "url_fetch", Status: chats.StatusError}}}, true},
	} {
		if got := knowledgeQuestion(&tc.m); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

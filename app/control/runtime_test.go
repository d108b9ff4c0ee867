package control

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"tinyrag/app/chats"
	"tinyrag/app/control/prefs"
	"tinyrag/app/engine"
	"tinyrag/app/knowledge"
	"tinyrag/app/markdown"
	"tinyrag/app/nomodel"
)

func testKB(t *testing.T, docs ...knowledge.Input) *knowledge.KB {
	t.Helper()
	kb, err := knowledge.New(knowledge.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { kb.Close() })
	if len(docs) > 0 {
		if _, err := kb.AddBatch(context.Background(), docs, nil); err != nil {
			t.Fatal(err)
		}
	}
	return kb
}

// answerWithoutModel asks as the app does when no model is reachable: the
// engine with app/nomodel's stand-in, the events applied to a message, and
// the citations the message's cards earn.
func answerWithoutModel(t *testing.T, rt *Runtime, lang, q string) (string, []chats.Citation) {
	t.Helper()
	st := prefs.DefaultSettings()
	st.Lang = lang
	st = st.Normalized()
	c := &chats.Chat{ID: "c"}
	msg := c.AddQuestion(q, time.Now())
	msg.Offline = true
	a := rt.ForAnswer(st, false)
	_, err := rt.EngineFor(st, nomodel.Chatter{Tools: a.Reg, Lang: lang}, a).Ask(context.Background(), Request(st, c, q), msg.Apply)
	if err != nil {
		t.Fatal(err)
	}
	return msg.Answer, a.Citations()
}

func TestNoModel_AnswersFromTheKnowledgeBaseWithCitations(t *testing.T) {
	kb := testKB(t,
		knowledge.Input{Title: "Library *hours*", Source: "hours.md", Text: "The library is open from 9 to 17 on weekdays. On Saturdays it closes at noon."},
		knowledge.Input{Title: "Parking", Source: "parking.md", Text: "Parking is free after six in the evening."},
	)
	rt := &Runtime{KB: kb}
	tests := []struct {
		name, lang, q string
		wantText      []string
		wantCites     int
	}{
		{"match", "en", "When does the library close on Saturdays?", []string{"closes at noon", `Library \*hours\*`}, 1},
		{"no match", "en", "quantum chromodynamics", []string{"No passage in the knowledge base matches"}, 0},
		{"German", "de", "quantum chromodynamics", []string{"Kein Sprachmodell erreichbar", "Wissensbasis"}, 0},
		{"arithmetic", "en", "Calculate 3 * (17 + 5) / 2", []string{"= 33"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, cites := answerWithoutModel(t, rt, tc.lang, tc.q)
			for _, w := range tc.wantText {
				if !strings.Contains(text, w) {
					t.Errorf("answer lacks %q:\n%s", w, text)
				}
			}
			if len(cites) < tc.wantCites || (tc.wantCites == 0 && len(cites) != 0) {
				t.Errorf("got %d citations, want %d", len(cites), tc.wantCites)
			}
			if tc.wantCites > 0 && (cites[0].Source != "hours.md" || cites[0].ChunkID == "" || !strings.Contains(cites[0].Text, "noon")) {
				t.Errorf("first citation = %+v", cites[0])
			}
		})
	}
}

func TestNoModel_HostilePassageStaysInertWhenRendered(t *testing.T) {
	kb := testKB(t, knowledge.Input{Title: "<img src=x onerror=alert(1)>", Source: "evil.html",
		Text: "evil payload <script>alert(1)</script> with words"})
	text, _ := answerWithoutModel(t, &Runtime{KB: kb}, "en", "evil payload words")
	html := markdown.Render(text)
	handlerAttr := regexp.MustCompile(`(?i)<[a-z][^>]*\son[a-z]+\s*=`)
	if strings.Contains(html, "<script") || strings.Contains(html, "<img") || handlerAttr.MatchString(html) {
		t.Errorf("rendered answer is not inert:\n%s", html)
	}
}

func TestRequest_HistoryHasEarlierTurnsWithoutToolsOrTheQuestion(t *testing.T) {
	c := &chats.Chat{ID: "c"}
	a := c.AddQuestion("first?", time.Now())
	a.Apply(engine.Event{Event: engine.EventToken, Text: "one"})
	a.Apply(engine.Event{Event: engine.EventDone, Answer: "one"})
	off := c.AddQuestion("offline?", time.Now())
	off.Offline, off.Answer, off.Streaming = true, "passages", false
	c.AddQuestion("second?", time.Now())
	s := prefs.DefaultSettings()
	s.Persona, s.AnswerLang, s.Model = "Teacher", "German", "m1"
	req := Request(s.Normalized(), c, "second?")
	var roles []string
	for _, m := range req.History {
		roles = append(roles, m.Role+":"+m.Content)
	}
	want := "user:first?|assistant:one|user:offline?"
	if strings.Join(roles, "|") != want {
		t.Errorf("history = %v, want %s", roles, want)
	}
	if req.Question != "second?" || req.Model != "m1" || req.AnswerLanguage != "German" || req.Persona == "" {
		t.Errorf("request = %+v", req)
	}
}

func TestRegistry_SettingsEnableAndDisableTools(t *testing.T) {
	rt := &Runtime{KB: testKB(t), Origin: "http://127.0.0.1:1"}
	tests := []struct {
		name    string
		s       Settings
		on, off []string
	}{
		{"defaults", prefs.DefaultSettings(), []string{"calculate", "rag_knowledge", "url_fetch", "websearch", "wikipedia"}, nil},
		{"web search off", Settings{NoWebSearch: true}, []string{"calculate"}, []string{"websearch"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := rt.Registry(tc.s.Normalized())
			for _, n := range tc.on {
				if _, ok := reg.Lookup(n); !ok {
					t.Errorf("%s should be enabled", n)
				}
			}
			for _, n := range tc.off {
				if tl, ok := reg.Lookup(n); ok || tl == nil {
					t.Errorf("%s should be registered but disabled (tool %v, enabled %v)", n, tl, ok)
				}
			}
			if _, ok := reg.Lookup("nanogo"); ok {
				t.Error("nanogo is enabled without a runner")
			}
		})
	}
}

// TestCitations_AreTheAnswersPassagesByNumber: with a model, the prompt's
// passages come first ([1]…), then what rag_knowledge returned; the
// tool's text cites the same numbers. Without a model the prompt is read
// by nobody and only the tool's passages count.
func TestCitations_AreTheAnswersPassagesByNumber(t *testing.T) {
	kb := testKB(t,
		knowledge.Input{Title: "Zebras", Source: "z.md", Text: "Zebras migrate across the Serengeti."},
		knowledge.Input{Title: "Owls", Source: "o.md", Text: "Owls hunt at night in the forest."},
	)
	rt := &Runtime{KB: kb}
	st := prefs.DefaultSettings().Normalized()
	a := rt.ForAnswer(st, true)
	if _, err := a.KB.Retrieve(context.Background(), "zebra migration", 1); err != nil {
		t.Fatal(err)
	}
	rag, _ := a.Reg.Lookup("rag_knowledge")
	res, err := rag.Run(context.Background(), "owls night")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Content, "[2] Owls — o.md") {
		t.Errorf("the tool's passage is not numbered after the prompt's: %q", res.Content)
	}
	cites := a.Citations()
	if len(cites) != 2 || cites[0].Source != "z.md" || cites[1].Source != "o.md" {
		t.Errorf("citations = %+v, want zebra (prompt, [1]) then owl (tool, [2])", cites)
	}

	a = rt.ForAnswer(st, false)
	if _, err := a.KB.Retrieve(context.Background(), "zebra migration", 1); err != nil {
		t.Fatal(err)
	}
	rag, _ = a.Reg.Lookup("rag_knowledge")
	if res, err = rag.Run(context.Background(), "owls night"); err != nil || !strings.HasPrefix(res.Content, "[1] Owls") {
		t.Fatalf("without a model the tool's passage is [1]: %q, %v", res.Content, err)
	}
	if cites := a.Citations(); len(cites) != 1 || cites[0].Source != "o.md" {
		t.Errorf("citations without a model = %+v, want the owl passage only", cites)
	}
}

func TestRuntime_LLMBaseIsTheSettingOrTheProxy(t *testing.T) {
	tests := []struct{ endpoint, want string }{
		{"", "http://127.0.0.1:8080/api/llm"},
		{"http://127.0.0.1:11434/v1/", "http://127.0.0.1:11434/v1"},
	}
	rt := &Runtime{Origin: "http://127.0.0.1:8080"}
	for _, tc := range tests {
		if got := rt.LLMBase(Settings{Endpoint: tc.endpoint}); got != tc.want {
			t.Errorf("LLMBase with endpoint %q = %q, want %q", tc.endpoint, got, tc.want)
		}
	}
}

package chats

import (
	"strings"
	"testing"
	"time"
)

func TestFeedback_Check(t *testing.T) {
	tests := []struct {
		name    string
		f       Feedback
		wantErr string
	}{
		{"up alone", Feedback{Rating: RatingUp}, ""},
		{"down with a reason and a note", Feedback{Rating: RatingDown, Reason: "missing_sources", Note: "  Which version?  "}, ""},
		{"no rating", Feedback{}, "rating"},
		{"a rating of its own", Feedback{Rating: "meh"}, "rating"},
		{"a reason not on the list", Feedback{Rating: RatingDown, Reason: "rude"}, "reason"},
		{"a note too long", Feedback{Rating: RatingDown, Note: strings.Repeat("ä", MaxNoteRunes+1)}, "note"},
		{"a note at the limit", Feedback{Rating: RatingDown, Note: strings.Repeat("ä", MaxNoteRunes)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.f.Check()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got.Note != strings.TrimSpace(tt.f.Note) {
					t.Errorf("note %q not trimmed", got.Note)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err %v, want one about the %s", err, tt.wantErr)
			}
		})
	}
}

func TestFeedback_KeptWithTheChat(t *testing.T) {
	c := &Chat{ID: "c1", Title: "Pruning"}
	m := c.AddQuestion("When to prune?", time.Now())
	m.Streaming = false
	m.Answer = "In late winter [1]."
	m.Feedback = &Feedback{Rating: RatingDown, Reason: "incorrect", Note: "It is autumn here.", Time: time.Unix(1700000000, 0).UTC()}
	m.Related = []Related{{Title: "Storing pears", Source: "/docs/storage.html"}}
	m.NoMatch = true
	b, err := Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	got := back.Messages[1]
	if got.Feedback == nil || *got.Feedback != *m.Feedback || len(got.Related) != 1 || got.Related[0] != m.Related[0] || !got.NoMatch {
		t.Errorf("after a store and a load: feedback %+v, related %+v, no match %v", got.Feedback, got.Related, got.NoMatch)
	}
}

func TestChat_Markdown(t *testing.T) {
	c := &Chat{ID: "c1", Title: "Pruning [apples]", Renamed: true}
	c.AddQuestion("When should I prune\nthe apple trees?", time.Now())
	a := c.Messages[1]
	a.Streaming = false
	a.Content = "Looking. <tool …>\nIn **late winter** [1]."
	a.Citations = []Citation{{Title: "Winter pruning", Source: "/docs/pruning.html", ChunkID: "d#0", Text: "Prune in late winter."}, {Title: "Notes", Source: "notes.md"}}
	a.Related = []Related{{Title: "Storing pears", Source: "/docs/storage.html", URL: "https://example.org/docs/storage.html"}}
	a.Feedback = &Feedback{Rating: RatingDown, Reason: "missing_sources", Note: "Which\nvarieties?"}
	c.AddQuestion("And plums?", time.Now())
	c.Messages[3].Streaming = false
	c.Messages[3].Answer = "Nothing says."
	c.Messages[3].NoMatch = true

	got := c.Markdown(MarkdownOptions{
		You: "You", Assistant: "Assistant", Sources: "Sources", Related: "Related", Feedback: "Feedback",
		NoMatch: "Nothing in the knowledge base matched this question.",
		Reasons: map[string]string{"missing_sources": "missing sources"},
		Answer: func(m *Message) string {
			if m.Answer != "" {
				return m.Answer
			}
			return "In **late winter** [1]."
		},
		Link: func(c Citation) string {
			if strings.HasPrefix(c.Source, "/docs/") {
				return "https://example.org" + c.Source + "#:~:text=Prune"
			}
			return ""
		},
	})
	want := `# Pruning [apples]

## You

When should I prune
the apple trees?

## Assistant

In **late winter** [1].

Sources:

1. [Winter pruning](https://example.org/docs/pruning.html#:~:text=Prune)
2. Notes (notes.md)

Related: [Storing pears](https://example.org/docs/storage.html)

Feedback: down, missing sources: Which varieties?

## You

And plums?

## Assistant

Nothing says.

_Nothing in the knowledge base matched this question._
`
	if got != want {
		t.Errorf("Markdown:\n%s\nwant:\n%s", got, want)
	}
}

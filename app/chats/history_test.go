package chats

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestAutoTitle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"What is RAG?", "What is RAG?"},
		{"  first line  \nsecond line", "first line"},
		{"many   spaces\there", "many spaces here"},
		{strings.Repeat("word ", 30), strings.TrimSpace(strings.Repeat("word ", 12)) + "…"},
	}
	for _, tc := range tests {
		if got := AutoTitle(tc.in); got != tc.want {
			t.Errorf("AutoTitle(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestChat_MatchesEveryWordInTitleOrMessages(t *testing.T) {
	c := &Chat{Title: "Return policy", Renamed: true}
	c.AddQuestion("How long is the warranty?", time.Now())
	tests := []struct {
		q    string
		want bool
	}{
		{"", true},
		{"policy", true},
		{"WARRANTY return", true},
		{"warranty shipping", false},
	}
	for _, tc := range tests {
		if got := c.Matches(tc.q); got != tc.want {
			t.Errorf("Matches(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestHistory_SurvivesReloadNewestFirstRenameDelete(t *testing.T) {
	ctx := context.Background()
	store := NewMemStore()
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(time.Second); return clock }
	h := NewHistory(store, now)

	empty := h.New()
	if err := h.Save(ctx, empty); err != nil {
		t.Fatal(err)
	}
	a, b := h.New(), h.New()
	a.AddQuestion("alpha question", now())
	b.AddQuestion("beta question", now())
	for _, c := range []*Chat{a, b} {
		if err := h.Save(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Rename(ctx, a.ID, "  Renamed   alpha "); err != nil {
		t.Fatal(err)
	}
	if err := h.Rename(ctx, a.ID, "   "); !errors.Is(err, ErrEmptyTitle) {
		t.Errorf("rename to blanks: err = %v, want ErrEmptyTitle", err)
	}

	reloaded := NewHistory(store, now)
	if err := reloaded.Load(ctx); err != nil {
		t.Fatal(err)
	}
	list := reloaded.List("")
	if len(list) != 2 {
		t.Fatalf("reloaded %d chats, want 2 (the empty chat is never stored)", len(list))
	}
	if list[0].ID != b.ID || list[1].Title != "Renamed alpha" {
		t.Errorf("order/titles after reload: %q, %q", list[0].Title, list[1].Title)
	}
	if got := reloaded.List("beta"); len(got) != 1 || got[0].ID != b.ID {
		t.Errorf("search beta = %v", got)
	}
	if err := reloaded.Delete(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	again := NewHistory(store, now)
	if err := again.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if got := again.List(""); len(got) != 1 || got[0].ID != a.ID {
		t.Errorf("after delete and reload: %v", got)
	}
}

func TestDecode_AnswerStoredMidStreamComesBackStopped(t *testing.T) {
	c := &Chat{ID: "c1"}
	m := c.AddQuestion("q", time.Now())
	m.Content = `<tool name="calculate"><query>1</query></tool>`
	m.Cards = []Card{{Start: 0, End: len(m.Content), Tool: "calculate", Status: StatusRunning}}
	b, err := Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	a := got.Messages[1]
	if a.Streaming || !a.Stopped || a.Cards[0].Status != StatusError {
		t.Errorf("decoded answer streaming=%v stopped=%v card=%+v", a.Streaming, a.Stopped, a.Cards[0])
	}
}

func TestDecode_RejectsDamagedRecords(t *testing.T) {
	for _, in := range []string{`{`, `{"title":"no id"}`, `[]`} {
		if _, err := Decode([]byte(in)); err == nil {
			t.Errorf("Decode(%q) succeeded", in)
		}
	}
}

package answer_test

import (
	"strings"
	"testing"

	"tinyrag/app/markdown/answer"
	"tinyrag/app/markdown/answer/answertest"
)

func TestCheckCards_ExplainsEachIgnoredCard(t *testing.T) {
	text := "ü " + answertest.Block("x", "q")
	start := len("ü ")
	ok := answer.Card{ID: "c1", Start: start, End: len(text)}
	tests := []struct {
		name  string
		cards []answer.Card
		want  []string // one substring per expected problem; none for nil
	}{
		{"all placed", []answer.Card{ok}, nil},
		{"no cards", nil, nil},
		{"outside the text", []answer.Card{{ID: "c2", Start: start, End: len(text) + 1}}, []string{`"c2"`, "outside the text"}},
		{"negative start", []answer.Card{{ID: "c3", Start: -1, End: 2}}, []string{"outside the text"}},
		{"empty", []answer.Card{{ID: "c4", Start: 3, End: 3}}, []string{"empty or reversed"}},
		{"overlap", []answer.Card{ok, {ID: "c5", Start: start + 1, End: len(text)}}, []string{`"c5"`, "overlaps an earlier card"}},
		{"split character", []answer.Card{{ID: "c6", Start: 1, End: len(text)}}, []string{"splits a UTF-8 character"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := answer.CheckCards(text, tt.cards)
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("CheckCards = %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("CheckCards = nil, want an error mentioning %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestStripToolBlocks_ClosesTheGapABlockLeaves(t *testing.T) {
	b1, b2 := answertest.Block("rag_knowledge", "a"), answertest.Block("calculate", "1+1")
	tests := []struct {
		name   string
		pieces []string
		want   string
	}{
		{"no cards keeps text unchanged", []string{"Just text.\n"}, "Just text.\n"},
		{"block on its own paragraph", []string{"Let me check.\n\n", b1, "\n\nIt is 42."}, "Let me check.\n\nIt is 42."},
		{"block at the start", []string{b1, "\n\nIt is 42."}, "It is 42."},
		{"block at the end", []string{"Checking.\n\n", b1}, "Checking.\n\n"},
		{"block inside a sentence", []string{"The sum ", b2, " is 2."}, "The sum is 2."},
		{"block glued to text inserts nothing", []string{"The sum", b2, "is 2."}, "The sumis 2."},
		{"two blocks in a row", []string{"A.\n\n", b1, "\n", b2, "\n\nB."}, "A.\n\nB."},
		{"indented code after a block keeps its indent", []string{"A.\n\n", b1, "\n\n    code\n"}, "A.\n\n    code\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, cards := answertest.With(tt.pieces...)
			if got := answer.StripToolBlocks(text, cards); got != tt.want {
				t.Errorf("StripToolBlocks = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStripToolBlocks_InvalidCardsRemoveNothing(t *testing.T) {
	text := "A " + answertest.Block("x", "q") + " B"
	for _, c := range []answer.Card{{Start: -1, End: 4}, {Start: 2, End: len(text) + 1}, {Start: 5, End: 5}} {
		if got := answer.StripToolBlocks(text, []answer.Card{c}); got != text {
			t.Errorf("card %+v changed the text to %q", c, got)
		}
	}
}

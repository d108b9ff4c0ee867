package chunk

import (
	"strings"
	"testing"
)

func TestSplit_PiecesRespectSizeAndBoundaries(t *testing.T) {
	sentence := "The quick brown fox jumps over the lazy dog. "
	long := strings.Repeat(sentence, 40) // one 1,800-byte paragraph
	tests := []struct {
		name       string
		text       string
		size       int
		wantPieces int // 0: more than one, exact number not asserted
	}{
		{"short text is one piece", "Hello world.", 800, 1},
		{"paragraphs that fit share a piece", "One para.\n\nTwo para.\n\nThree para.", 800, 1},
		{"long paragraph is cut", long, 800, 0},
		{"giant word is cut", strings.Repeat("x", 2500), 800, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := Split(tt.text, tt.size, 100)
			if tt.wantPieces > 0 && len(ps) != tt.wantPieces {
				t.Fatalf("got %d pieces, want %d: %+v", len(ps), tt.wantPieces, ps)
			}
			if tt.wantPieces == 0 && len(ps) < 2 {
				t.Fatalf("got %d pieces, want several", len(ps))
			}
			for i, p := range ps {
				if len(p.Text) > tt.size {
					t.Errorf("piece %d has %d bytes, more than %d", i, len(p.Text), tt.size)
				}
				if strings.TrimSpace(p.Text) == "" {
					t.Errorf("piece %d is empty", i)
				}
			}
		})
	}
}

func TestSplit_CutsBetweenSentences(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 60; i++ {
		b.WriteString("Sentence number ")
		b.WriteString(strings.Repeat("z", i%7+1))
		b.WriteString(" ends here. ")
	}
	for i, p := range Split(b.String(), 300, 0) {
		if !strings.HasSuffix(p.Text, ".") {
			t.Errorf("piece %d does not end at a sentence end: …%q", i, p.Text[max(0, len(p.Text)-20):])
		}
		if !strings.HasPrefix(p.Text, "Sentence") {
			t.Errorf("piece %d does not start at a sentence start: %q…", i, p.Text[:20])
		}
	}
}

func TestSplit_PrefersParagraphBoundaries(t *testing.T) {
	para := strings.Repeat("Words in a paragraph go here. ", 10) // ~300 bytes
	text := para + "\n\n" + para + "\n\n" + para
	ps := Split(text, 700, -1)
	if len(ps) != 2 {
		t.Fatalf("got %d pieces, want 2 (two paragraphs, then one)", len(ps))
	}
	if strings.Count(ps[0].Text, "\n\n") != 1 || strings.Contains(ps[1].Text, "\n\n") {
		t.Errorf("cut inside a paragraph: %q | %q", ps[0].Text, ps[1].Text)
	}
}

func TestSplit_OverlapRepeatsEndOfPreviousPiece(t *testing.T) {
	text := strings.Repeat("Alpha beta gamma delta epsilon. ", 80)
	ps := Split(text, 400, 100)
	if len(ps) < 3 {
		t.Fatalf("want several pieces, got %d", len(ps))
	}
	for i := 1; i < len(ps); i++ {
		p := ps[i]
		if p.Overlap == 0 || p.Overlap > 100+1 {
			t.Fatalf("piece %d overlap %d, want 1..101", i, p.Overlap)
		}
		repeated := strings.TrimSpace(p.Text[:p.Overlap])
		if !strings.HasSuffix(ps[i-1].Text, repeated) {
			t.Errorf("piece %d starts with %q, which is not the end of piece %d", i, repeated, i-1)
		}
	}
}

func TestSplit_MarkdownHeadingsBecomeContext(t *testing.T) {
	text := "# Guide\n\nIntro text.\n\n## Install\n\n### Linux\n\nRun the binary.\n\n## Use\n\nAsk questions."
	ps := Split(text, 800, 100)
	want := []struct{ heading, text string }{
		{"Guide", "Intro text."},
		{"Guide › Install › Linux", "Run the binary."},
		{"Guide › Use", "Ask questions."},
	}
	if len(ps) != len(want) {
		t.Fatalf("got %d pieces %+v, want %d", len(ps), ps, len(want))
	}
	for i, w := range want {
		if ps[i].Heading != w.heading || ps[i].Text != w.text {
			t.Errorf("piece %d = (%q, %q), want (%q, %q)", i, ps[i].Heading, ps[i].Text, w.heading, w.text)
		}
	}
}

func TestSplit_SameInputSamePieces(t *testing.T) {
	text := strings.Repeat("# H\n\nSome text. More text! A question? ", 50)
	a, b := Split(text, 250, 60), Split(text, 250, 60)
	if len(a) != len(b) {
		t.Fatalf("%d vs %d pieces", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("piece %d differs: %+v vs %+v", i, a[i], b[i])
		}
	}
}

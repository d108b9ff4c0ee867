package markdown

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"

	"tinyrag/app/markdown/answer/answertest"
)

// block and answerWith build the tests' answers.
var (
	block      = answertest.Block
	answerWith = answertest.With
)

func TestRenderAnswer_CardShowsEachStatus(t *testing.T) {
	tests := []struct {
		status, wantStatus, wantBadge, wantSummary string
		result, err                                string
	}{
		{status: "running", wantStatus: "running", wantBadge: "⟳"},
		{status: "done", wantStatus: "done", wantBadge: "✓", wantSummary: "Result", result: "3 chunks found"},
		{status: "error", wantStatus: "error", wantBadge: "✗", wantSummary: "Error", err: "timeout after 30s"},
		{status: "skipped", wantStatus: "skipped", wantBadge: "⊘", wantSummary: "Skipped", err: "duplicate"},
		{status: "", wantStatus: "running", wantBadge: "⟳"},
		{status: " DONE ", wantStatus: "done", wantBadge: "✓"},
		{status: "exploded", wantStatus: "running", wantBadge: "⟳"},
	}
	for _, tt := range tests {
		t.Run("status="+tt.status, func(t *testing.T) {
			text, cards := answerWith("Looking it up.\n\n", block("rag_knowledge", "return policy"), "\n\nDone.")
			cards[0].Status, cards[0].Input, cards[0].Result, cards[0].Error = tt.status, "return policy", tt.result, tt.err
			out := RenderAnswer(text, cards, Options{})
			root := assertInert(t, out)
			card := findOne(t, root, "div", "xml-tool-card")
			if got := attr(card, "data-status"); got != tt.wantStatus {
				t.Errorf("data-status = %q, want %q", got, tt.wantStatus)
			}
			if got := attr(card, "data-tool"); got != "rag_knowledge" {
				t.Errorf("data-tool = %q", got)
			}
			if got := attr(card, "data-call-id"); got != "call_1" {
				t.Errorf("data-call-id = %q", got)
			}
			assertIcon(t, card, out, "file-search")
			assertHas(t, card, out, wantEl{tag: "strong", text: "rag_knowledge"})
			assertHas(t, card, out, wantEl{tag: "span", class: "tool-query", text: "return policy"})
			assertHas(t, card, out, wantEl{tag: "span", class: "tool-status-badge", text: tt.wantBadge})
			details := findAll(card, "details", "")
			if tt.wantSummary == "" {
				if len(details) != 0 {
					t.Errorf("card without result or error must not expand:\n%s", out)
				}
			} else {
				assertHas(t, card, out, wantEl{tag: "summary", text: tt.wantSummary})
			}
			if tt.result != "" {
				assertHas(t, card, out, wantEl{tag: "pre", class: "tool-result", text: tt.result})
			}
			if tt.err != "" {
				assertHas(t, card, out, wantEl{tag: "pre", class: "tool-error", text: tt.err})
			}
			if strings.Contains(textOf(root), "<tool") {
				t.Errorf("raw tool XML still visible:\n%s", out)
			}
			assertHas(t, root, out, wantEl{tag: "p", text: "Looking it up."})
			assertHas(t, root, out, wantEl{tag: "p", text: "Done."})
		})
	}
}

func TestRenderAnswer_IconPerTool(t *testing.T) {
	tests := []struct{ tool, icon string }{
		{"rag_knowledge", "file-search"}, {"url_fetch", "globe"}, {"websearch", "search"}, {"wikipedia", "book"},
		{"calculate", "calculator"}, {"nanogo", "code"}, {"shell", "wrench"}, {"", "wrench"}, {"NanoGo", "code"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			text := block(tt.tool, "x")
			out := RenderAnswer(text, []Card{{Start: 0, End: len(text), Tool: tt.tool, Status: "done"}}, Options{})
			card := findOne(t, assertInert(t, out), "div", "xml-tool-card")
			assertIcon(t, card, out, tt.icon)
		})
	}
}

func TestRenderAnswer_CardLabelsFollowLanguage(t *testing.T) {
	text := block("url_fetch", "u")
	cards := []Card{{Start: 0, End: len(text), Tool: "url_fetch", Status: "error", Error: "refused"}}
	out := RenderAnswer(text, cards, Options{Lang: "de"})
	card := findOne(t, assertInert(t, out), "div", "xml-tool-card")
	assertHas(t, card, out, wantEl{tag: "summary", text: "Fehler"})
	assertHas(t, card, out, wantEl{tag: "span", class: "tool-status-badge", text: "✗", attrs: map[string]string{"title": "fehlgeschlagen"}})
}

func TestRenderAnswer_ExpandedCardsStayOpen(t *testing.T) {
	text, cards := answerWith(block("rag_knowledge", "a"), "\n\n", block("calculate", "1+1"))
	for i := range cards {
		cards[i].Result = "r"
	}
	tests := []struct {
		name     string
		expanded map[string]bool
		wantOpen []bool
	}{
		{"none expanded", nil, []bool{false, false}},
		{"second expanded", map[string]bool{"call_2": true}, []bool{false, true}},
		{"both expanded", map[string]bool{"call_1": true, "call_2": true}, []bool{true, true}},
		{"explicitly closed", map[string]bool{"call_1": false}, []bool{false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := RenderAnswer(text, cards, Options{Expanded: tt.expanded})
			details := findAll(assertInert(t, out), "details", "")
			if len(details) != len(tt.wantOpen) {
				t.Fatalf("got %d details, want %d", len(details), len(tt.wantOpen))
			}
			for i, d := range details {
				if got := hasAttr(d, "open"); got != tt.wantOpen[i] {
					t.Errorf("card %d open = %v, want %v:\n%s", i+1, got, tt.wantOpen[i], out)
				}
			}
		})
	}
}

func TestRenderAnswer_LongInputIsPreviewedAndShownInFull(t *testing.T) {
	long := strings.Repeat("ab ", 60) + "\n\tend"
	text := block("nanogo", "x")
	out := RenderAnswer(text, []Card{{Start: 0, End: len(text), Tool: "nanogo", Input: long, Status: "running"}}, Options{})
	card := findOne(t, assertInert(t, out), "div", "xml-tool-card")
	preview := textOf(findOne(t, card, "span", "tool-query"))
	if n := utf8.RuneCountInString(preview); n != previewRunes {
		t.Errorf("preview has %d runes, want %d: %q", n, previewRunes, preview)
	}
	if !strings.HasSuffix(preview, "…") || strings.ContainsAny(preview, "\n\t") {
		t.Errorf("preview must be one line ending in an ellipsis: %q", preview)
	}
	if got := textOf(findOne(t, card, "pre", "tool-input")); got != long {
		t.Errorf("full input not shown: %q", got)
	}
}

func TestRenderAnswer_CardPlacement(t *testing.T) {
	b1, b2 := block("rag_knowledge", "a"), block("calculate", "1+1")
	tests := []struct {
		name      string
		pieces    []string
		wantCards int
		wantText  []string
	}{
		{"card at the very start", []string{b1, "\n\nAfter."}, 1, []string{"After."}},
		{"card at the very end", []string{"Before.\n\n", b1}, 1, []string{"Before."}},
		{"card is the whole answer", []string{b1}, 1, nil},
		{"adjacent cards", []string{"A\n\n", b1, b2, "\n\nB"}, 2, []string{"A", "B"}},
		{"card inside a sentence", []string{"Let me check ", b2, " and continue."}, 1, []string{"Let me check", "and continue."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, cards := answerWith(tt.pieces...)
			out := RenderAnswer(text, cards, Options{})
			root := assertInert(t, out)
			if got := len(findAll(root, "div", "xml-tool-card")); got != tt.wantCards {
				t.Errorf("got %d cards, want %d:\n%s", got, tt.wantCards, out)
			}
			visible := textOf(root)
			if strings.Contains(visible, "<tool") {
				t.Errorf("raw tool XML still visible:\n%s", out)
			}
			for _, w := range tt.wantText {
				if !strings.Contains(visible, w) {
					t.Errorf("text %q lost:\n%s", w, out)
				}
			}
		})
	}
}

func TestRenderAnswer_InvalidCardsAreIgnoredAndLoseNothing(t *testing.T) {
	b := block("rag_knowledge", "q")
	text := "Intro ü.\n\n" + b + "\n\nOutro."
	start := strings.Index(text, "<tool")
	end := start + len(b)
	uml := strings.Index(text, "ü")
	valid := Card{Start: start, End: end, Tool: "rag_knowledge", Status: "done"}
	tests := []struct {
		name      string
		cards     []Card
		wantCards int
	}{
		{"negative start", []Card{{Start: -1, End: end}}, 0},
		{"end beyond text", []Card{{Start: start, End: len(text) + 1}}, 0},
		{"start beyond text", []Card{{Start: len(text) + 5, End: len(text) + 9}}, 0},
		{"empty range", []Card{{Start: start, End: start}}, 0},
		{"reversed range", []Card{{Start: end, End: start}}, 0},
		{"start splits a UTF-8 character", []Card{{Start: uml + 1, End: end}}, 0},
		{"end splits a UTF-8 character", []Card{{Start: 0, End: uml + 1}}, 0},
		{"overlapping second card dropped", []Card{valid, {Start: start + 5, End: end + 2, Tool: "x"}}, 1},
		{"duplicate card dropped", []Card{valid, valid}, 1},
		{"out-of-order cards sorted", []Card{{Start: end + 2, End: end + 8, Tool: "calculate"}, valid}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := append([]Card(nil), tt.cards...)
			out := RenderAnswer(text, tt.cards, Options{})
			root := assertInert(t, out)
			if got := len(findAll(root, "div", "xml-tool-card")); got != tt.wantCards {
				t.Errorf("got %d cards, want %d:\n%s", got, tt.wantCards, out)
			}
			if !reflect.DeepEqual(before, tt.cards) {
				t.Errorf("caller's cards were modified: %v", tt.cards)
			}
			visible := textOf(root)
			for _, w := range []string{"Intro ü.", "Outro."} {
				if tt.wantCards < 2 && !strings.Contains(visible, w) {
					t.Errorf("text %q lost:\n%s", w, out)
				}
			}
			if tt.wantCards == 0 && !strings.Contains(visible, b) {
				t.Errorf("without a card the block must stay visible as text:\n%s", out)
			}
		})
	}
}

func TestRenderAnswer_StreamingHidesOpenBlock(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		streaming bool
		wantCard  bool
		wantTool  string
		wantQuery string
		wantText  string
		notText   string
	}{
		{"open block while streaming", `Let me look. <tool name="websearch"><query>go we`, true, true, "websearch", "go we", "Let me look.", "<tool"},
		{"open block without name yet", `Let me look. <tool na`, true, true, "", "", "Let me look.", "<tool"},
		{"prefix of a block while streaming", "Let me look. <to", true, false, "", "", "Let me look.", "<to"},
		{"open block after stream ended stays visible", `Hm <tool name="websearch"><query>go`, false, false, "", "", `<tool name="websearch"><query>go`, ""},
		{"closed but uncarded block is text", `A <tool name="x"><query>q</query></tool> B`, true, false, "", "", `<tool name="x"><query>q</query></tool>`, ""},
		{"over-long open block stays visible", "A <tool name=\"nanogo\"><source>" + strings.Repeat("x", maxBlockBytes), true, false, "", "", "<tool name=\"nanogo\"><source>xxx", ""},
		{"less-than in prose while streaming", "if a < b then", true, false, "", "", "if a < b then", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := RenderAnswer(tt.text, nil, Options{Streaming: tt.streaming})
			root := assertInert(t, out)
			cards := findAll(root, "div", "xml-tool-card")
			if got := len(cards) == 1; got != tt.wantCard {
				t.Fatalf("pending card present = %v, want %v:\n%s", got, tt.wantCard, out)
			}
			if tt.wantCard {
				if attr(cards[0], "data-status") != "running" {
					t.Errorf("pending card must be running: %v", cards[0].Attr)
				}
				assertHas(t, cards[0], out, wantEl{tag: "span", class: "tool-query", text: tt.wantQuery})
				if tt.wantTool != "" {
					assertHas(t, cards[0], out, wantEl{tag: "strong", text: tt.wantTool})
				}
			}
			visible := textOf(root)
			if !strings.Contains(visible, tt.wantText) {
				t.Errorf("text %q lost:\n%s", tt.wantText, out)
			}
			if tt.notText != "" && strings.Contains(visible, tt.notText) {
				t.Errorf("text %q must be hidden while streaming:\n%s", tt.notText, out)
			}
		})
	}
}

// assertIcon checks that the card's span.tool-icon holds exactly the app's
// icon called name (an SVG of app/icons), and no text: no emoji to miss a
// font for.
func assertIcon(t *testing.T, card *html.Node, out, name string) {
	t.Helper()
	span := findOne(t, card, "span", "tool-icon")
	if txt := strings.TrimSpace(textOf(span)); txt != "" {
		t.Errorf("tool-icon has text %q, want only the SVG", txt)
	}
	svgs := findAll(span, "svg", "icon icon-"+name)
	if len(svgs) != 1 || attr(svgs[0], "aria-hidden") != "true" {
		t.Errorf("tool-icon does not hold the %s icon:\n%s", name, out)
	}
}

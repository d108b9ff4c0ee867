package markdown

import (
	"strings"
	"testing"
)

func TestRenderAnswer_CitationMarksLinkToTheirPassages(t *testing.T) {
	links := []string{"https://docs.example.org/a.html#:~:text=Prune", "", "https://docs.example.org/c.html"}
	tests := []struct {
		name, src string
		target    string
		want      []string // hrefs of a.cite-ref, in order
		wantText  string   // the text, unchanged
	}{
		{"one mark", "Prune in late winter [1].", "", []string{links[0]}, "Prune in late winter [1]."},
		{"a list of marks", "Both say so [1, 3].", "", []string{links[0], links[2]}, "Both say so [1, 3]."},
		{"a mark without a page stays text", "From an import [2].", "", nil, "From an import [2]."},
		{"a number beyond the sources stays text", "Invented [9].", "", nil, "Invented [9]."},
		{"marks in code stay text", "Index `a[1]` and\n\n```\nx[3]\n```\n", "", nil, ""},
		{"the embedded view opens the top window", "See [3].", "_top", []string{links[2]}, "See [3]."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := RenderAnswer(tt.src, nil, Options{CiteLinks: links, CiteTarget: tt.target})
			root := assertInert(t, out)
			refs := findAll(root, "a", "cite-ref")
			var got []string
			for _, r := range refs {
				got = append(got, attr(r, "href"))
				want := "_blank"
				if tt.target == "_top" {
					want = "_top"
				}
				if attr(r, "target") != want {
					t.Errorf("target %q, want %q", attr(r, "target"), want)
				}
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("cite links %q, want %q\n%s", got, tt.want, out)
			}
			if tt.wantText != "" && strings.TrimSpace(textOf(root)) != tt.wantText {
				t.Errorf("text %q, want %q", textOf(root), tt.wantText)
			}
		})
	}
}

func TestRenderAnswer_CitationMarksInToolResultsStayText(t *testing.T) {
	text, cards := answerWith("Looked it up [1].\n\n", block("rag_knowledge", "q"), "\n")
	cards[0].Status, cards[0].Result = "done", "[1] Pruning — a.html\nPrune in late winter."
	out := RenderAnswer(text, cards, Options{CiteLinks: []string{"https://docs.example.org/a.html"}})
	root := assertInert(t, out)
	if refs := findAll(root, "a", "cite-ref"); len(refs) != 1 {
		t.Errorf("%d cite links, want 1 (the answer's, not the tool result's):\n%s", len(refs), out)
	}
}

func TestRenderAnswer_CitationLinksMustBeWebURLs(t *testing.T) {
	out := RenderAnswer("Bad [1] and [2].", nil, Options{CiteLinks: []string{"javascript:alert(1)", `https://x.example/"><script>`}})
	root := assertInert(t, out)
	refs := findAll(root, "a", "cite-ref")
	if len(refs) != 1 || attr(refs[0], "href") != `https://x.example/"><script>` {
		t.Errorf("cite links %v:\n%s", refs, out)
	}
	if strings.Contains(out, "<script>") {
		t.Errorf("an href escaped its attribute:\n%s", out)
	}
}

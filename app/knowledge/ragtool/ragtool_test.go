package ragtool

import (
	"context"
	"errors"
	"strings"
	"testing"

	"tinyrag/app/knowledge"
	"tinyrag/app/tool"
)

var ctx = context.Background()

// newKB is a knowledge base holding three policy documents.
func newKB(t *testing.T) *knowledge.KB {
	t.Helper()
	kb, err := knowledge.New(knowledge.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { kb.Close() })
	if _, err := kb.AddBatch(ctx, []knowledge.Input{
		{Title: "Returns", Source: "policy/returns.md", Type: "markdown", Text: "# Returns\n\nItems can be returned within 30 days with the receipt. Refunds go to the original payment method."},
		{Title: "Shipping", Source: "policy/shipping.md", Type: "markdown", Text: "# Shipping\n\nWe ship worldwide. Express delivery takes two days; standard delivery takes a week."},
		{Title: "Warranty", Source: "policy/warranty.md", Type: "markdown", Text: "All devices carry a two year warranty covering manufacturing defects, not accidental damage."},
	}, nil); err != nil {
		t.Fatal(err)
	}
	return kb
}

func TestTool_ResultCitesEachPassage(t *testing.T) {
	kb := newKB(t)
	tl := NewTool(kb)
	if tl.Name() != "rag_knowledge" || tl.Element() != tool.Query {
		t.Fatalf("tool is %s/%s", tl.Name(), tl.Element())
	}
	res, err := tl.Run(ctx, "delivery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Content, "[1] Shipping — policy/shipping.md\n") {
		t.Errorf("content does not start with a numbered passage: %q", res.Content)
	}
	if strings.Contains(res.Content, ".md#") {
		t.Errorf("content hands the model a chunk anchor it would copy into a link: %q", res.Content)
	}
	if !strings.Contains(res.Content, "Express delivery takes two days") {
		t.Errorf("content lacks the passage: %q", res.Content)
	}
	if !strings.Contains(res.Source, "policy/shipping.md") {
		t.Errorf("source %q does not name the document", res.Source)
	}
}

// TestNumbering_OneNumberPerPassageAcrossTheAnswer: the prompt's passages
// keep [1]…[k], each call continues after them, and a passage found again
// keeps its number, so Passages()[n-1] is what the model cited as [n].
func TestNumbering_OneNumberPerPassageAcrossTheAnswer(t *testing.T) {
	kb := newKB(t)
	var n Numbering
	prompt, err := n.Retriever(kb).Retrieve(ctx, "warranty", 1)
	if err != nil || len(prompt) != 1 {
		t.Fatalf("prompt retrieval: %+v, %v", prompt, err)
	}
	tl := NewNumberedTool(kb, &n)
	first, err := tl.Run(ctx, "delivery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(first.Content, "[2] Shipping — policy/shipping.md\n") {
		t.Errorf("the first call does not continue after the prompt's [1]: %q", first.Content)
	}
	again, err := tl.Run(ctx, "warranty delivery")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[1] ", "[2] "} {
		if !strings.Contains(again.Content, want) {
			t.Errorf("a passage seen before lost its number %s: %q", want, again.Content)
		}
	}
	ps := n.Passages()
	if len(ps) < 2 || ps[0].Source != "policy/warranty.md" || ps[1].Source != "policy/shipping.md" {
		t.Errorf("passages by number: %+v", ps)
	}
	for i, p := range ps {
		if got := n.Number(p); got != i+1 {
			t.Errorf("passage %d numbered %d", i+1, got)
		}
	}
}

func TestTool_NoMatchAndEmptyQuery(t *testing.T) {
	kb := newKB(t)
	res, err := NewTool(kb).Run(ctx, "xylophone")
	if err != nil || !strings.Contains(res.Content, "No passage") {
		t.Errorf("no match: got %q, %v", res.Content, err)
	}
	if _, err := NewTool(kb).Run(ctx, "  "); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty query: got %v", err)
	}
}

// partial is a retriever that could read only part of its knowledge.
type partial struct {
	ps  []tool.Passage
	err error
}

func (p partial) Retrieve(context.Context, string, int) ([]tool.Passage, error) { return p.ps, p.err }

func TestTool_APartialSearchGivesItsPassagesAndSaysWhatWasNotSearched(t *testing.T) {
	gone := errors.New("site knowledge bundles/docs: t/0123456789abcdef.bin: HTTP 404")
	tests := []struct {
		name    string
		r       partial
		content string // what the result must contain; "" for an error
	}{
		{"passages and an error", partial{[]tool.Passage{{ChunkID: "a#0", Title: "A", Source: "a.md", Text: "apples"}}, gone}, "(Not searched: " + gone.Error() + ")"},
		{"an error alone", partial{nil, gone}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := NewTool(tt.r).Run(ctx, "apples")
			if tt.content == "" {
				if err == nil || !strings.Contains(err.Error(), "HTTP 404") {
					t.Fatalf("err %v, want the search's error", err)
				}
				return
			}
			if err != nil || !strings.Contains(res.Content, "apples") || !strings.Contains(res.Content, tt.content) {
				t.Fatalf("content %q, err %v", res.Content, err)
			}
		})
	}
}

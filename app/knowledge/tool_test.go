package knowledge

import (
	"strings"
	"testing"

	"tinyrag/app/tool"
)

func TestTool_ResultCitesEachPassage(t *testing.T) {
	kb := newKB(t, Config{})
	mustAdd(t, kb, corpus...)
	tl := NewTool(kb)
	if tl.Name() != "rag_knowledge" || tl.Element() != tool.Query {
		t.Fatalf("tool is %s/%s", tl.Name(), tl.Element())
	}
	res, err := tl.Run(ctx, "delivery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Content, "[1] Shipping — policy/shipping.md#0\n") {
		t.Errorf("content does not start with a citation: %q", res.Content)
	}
	if !strings.Contains(res.Content, "Express delivery takes two days") {
		t.Errorf("content lacks the passage: %q", res.Content)
	}
	if !strings.Contains(res.Source, "policy/shipping.md#0") {
		t.Errorf("source %q does not cite the passage", res.Source)
	}
}

func TestTool_NoMatchAndEmptyQuery(t *testing.T) {
	kb := newKB(t, Config{})
	mustAdd(t, kb, corpus...)
	res, err := NewTool(kb).Run(ctx, "xylophone")
	if err != nil || !strings.Contains(res.Content, "No passage") {
		t.Errorf("no match: got %q, %v", res.Content, err)
	}
	if _, err := NewTool(kb).Run(ctx, "  "); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty query: got %v", err)
	}
}

func TestRetrieve_ImplementsRetriever(t *testing.T) {
	kb := newKB(t, Config{})
	mustAdd(t, kb, corpus...)
	var r tool.Retriever = kb
	ps, err := r.Retrieve(ctx, "warranty", 3)
	if err != nil || len(ps) != 1 || ps[0].Source != "policy/warranty.md" || ps[0].ChunkID == "" || ps[0].Score <= 0 {
		t.Fatalf("got %+v, %v", ps, err)
	}
}

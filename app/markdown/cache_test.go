package markdown

import (
	"fmt"
	"testing"
	"unicode/utf8"
)

func TestRenderAnswer_CachedRenderEqualsColdRender(t *testing.T) {
	text, cards := answerWith(
		"# Plan\n\n[ref][r] and *more*\n\n",
		block("rag_knowledge", "a"),
		"\n\n- one\n- two\n\n```go\nfmt.Println(1)\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n",
		block("calculate", "1+1"),
		"\n\nAnd finally <b>raw</b> text.\n\n[r]: https://example.com/ref\n",
	)
	for _, opts := range []Options{{}, {AllowRun: true, Lang: "de", Streaming: true}} {
		resetCaches()
		for n := 0; n <= len(text); n += 7 {
			for n < len(text) && !utf8.RuneStart(text[n]) {
				n++
			}
			warm := RenderAnswer(text[:n], cardsWithin(cards, n), opts)
			resetCaches()
			cold := RenderAnswer(text[:n], cardsWithin(cards, n), opts)
			if warm != cold {
				t.Fatalf("opts %+v, prefix %d: cached render differs from cold render:\n%s\n---\n%s", opts, n, warm, cold)
			}
			// Warm the caches again with the previous prefixes' leftovers.
			RenderAnswer(text[:n/2], cardsWithin(cards, n/2), opts)
		}
	}
}

func TestSanitizeCache_KeepsEntriesInUseAcrossGenerations(t *testing.T) {
	c := newCache(func(k string) int { return len(k) })
	c.generation = 100
	c.put("keep", "K")
	for i := range 40 {
		c.put(fmt.Sprintf("churn%02d", i), "x")
		// An entry still being asked for is promoted and survives.
		if _, ok := c.get("keep"); !ok {
			t.Fatalf("entry in use was evicted after %d puts", i+1)
		}
	}
	if _, ok := c.get("churn00"); ok {
		t.Error("an entry not used for two generations must be evicted")
	}
	if c.curBytes > c.generation {
		t.Errorf("generation holds %d bytes, limit %d", c.curBytes, c.generation)
	}
	c.put("huge", string(make([]byte, 200)))
	if _, ok := c.get("huge"); ok {
		t.Error("an entry larger than a generation must not be stored")
	}
	if _, ok := c.get("keep"); !ok {
		t.Error("an oversized entry must not evict the others")
	}
}

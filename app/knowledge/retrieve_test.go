package knowledge

import (
	"testing"

	"tinyrag/app/tool"
)

func TestRetrieve_ImplementsRetriever(t *testing.T) {
	kb := newKB(t, Config{})
	mustAdd(t, kb, corpus...)
	var r tool.Retriever = kb
	ps, err := r.Retrieve(ctx, "warranty", 3)
	if err != nil || len(ps) != 1 || ps[0].Source != "policy/warranty.md" || ps[0].ChunkID == "" || ps[0].Score <= 0 {
		t.Fatalf("got %+v, %v", ps, err)
	}
}

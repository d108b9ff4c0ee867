package knowledge

import (
	"context"
	"errors"

	"tinyrag/app/knowledge/memindex"
	"tinyrag/app/knowledge/rank"
)

// rankIndex is the knowledge base as its ranker reads it (rank.Index):
// the index's segments (View, Common), and chunk text from the document
// records.
type rankIndex struct {
	memindex.Index
	kb *KB
}

// ChunkText implements rank.Index: chunk n of document d as it was indexed
// (title, heading path and text). A document deleted since it was ranked
// has none.
func (r rankIndex) ChunkText(ctx context.Context, d rank.Doc, n int) (string, error) {
	kb := r.kb
	cs, err := kb.chunksOf(ctx, d.ID)
	var nf *NotFoundError
	if errors.As(err, &nf) {
		return "", nil
	}
	if err != nil || n >= len(cs) {
		return "", err
	}
	doc, _ := kb.docs.get(d.ID)
	return ChunkBody(doc.Title, &cs[n]), nil
}

// Ranker returns the knowledge base's ranker and its index as the ranker
// reads it: what a site bundle is written from (rank.Ranker.Describe).
func (kb *KB) Ranker() (*rank.Ranker, rank.Index) {
	kb.mu.RLock()
	defer kb.mu.RUnlock()
	return kb.ranker, rankIndex{kb.idx, kb}
}

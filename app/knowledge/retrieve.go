package knowledge

import (
	"context"

	"tinyrag/app/tool"
)

// Retrieve implements tool.Retriever: the best k passages for a query.
func (kb *KB) Retrieve(ctx context.Context, q string, k int) ([]tool.Passage, error) {
	hits, err := kb.Search(ctx, q, SearchOptions{K: k})
	if err != nil {
		return nil, err
	}
	return Passages(hits), nil
}

// Passages turns search hits into the passages tools hand on.
func Passages(hits []Hit) []tool.Passage {
	out := make([]tool.Passage, len(hits))
	for i, h := range hits {
		out[i] = tool.Passage{DocID: h.DocID, ChunkID: h.ChunkID, Title: h.Title, Source: h.Source, Text: h.Text, Score: h.Score, Site: h.Site}
	}
	return out
}

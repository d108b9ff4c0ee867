package knowledge

import (
	"context"
	"errors"
	"fmt"

	"tinyrag/app/knowledge/flatseg"
	"tinyrag/app/knowledge/rank"
)

// rankIndex is the knowledge base as its ranker reads it (rank.Index):
// the scorch index's segments, and chunk text from the document records.
type rankIndex struct {
	kb  *KB
	idx memIndex
}

// View implements rank.Index with a scorch snapshot.
func (r rankIndex) View() (*rank.View, error) {
	snap, err := r.idx.snapshot()
	if err != nil {
		return nil, err
	}
	v := &rank.View{
		Release: func() { snap.Close() },
		Cardinality: func(field string) (uint64, error) {
			n, err := snap.FieldCardinality(field)
			return uint64(n), err
		},
	}
	for _, ss := range snap.Segments() {
		seg, ok := ss.Segment().(rank.Segment)
		if !ok {
			snap.Close()
			return nil, fmt.Errorf("knowledge: segment is %T, not a flat segment", ss.Segment())
		}
		v.Segments = append(v.Segments, rank.ViewSegment{Segment: seg, Deleted: ss.Deleted()})
	}
	if v.Chunks, err = snap.DocCount(); err != nil {
		snap.Close()
		return nil, err
	}
	return v, nil
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
	kb.mu.RLock()
	title := kb.docs[d.ID].Title
	kb.mu.RUnlock()
	return ChunkBody(title, &cs[n]), nil
}

// Common implements rank.Index: the term's frequency in the body field
// over all chunks, deleted ones included.
func (r rankIndex) Common(term string) (bool, error) {
	snap, err := r.idx.snapshot()
	if err != nil {
		return false, err
	}
	defer snap.Close()
	df, chunks := 0, 0
	for _, ss := range snap.Segments() {
		if fs, ok := ss.Segment().(*flatseg.Segment); ok {
			df += fs.DocFreq(fieldBody, term)
			chunks += int(fs.Count())
		}
	}
	return rank.CommonTerm(df, chunks), nil
}

// Ranker returns the knowledge base's ranker and its index as the ranker
// reads it: what a site bundle is written from (rank.Ranker.Describe).
func (kb *KB) Ranker() (*rank.Ranker, rank.Index) {
	kb.mu.RLock()
	defer kb.mu.RUnlock()
	return kb.ranker, rankIndex{kb, kb.idx}
}

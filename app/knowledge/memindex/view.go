package memindex

import (
	"fmt"

	"tinyrag/app/knowledge/flatseg"
	"tinyrag/app/knowledge/rank"
)

// View implements rank.Index's View with a scorch snapshot: the flat
// segments as the ranker reads them.
func (m Index) View() (*rank.View, error) {
	snap, err := m.snapshot()
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

// Common implements rank.Index's Common: the term's frequency in the body
// field over all chunks, deleted ones included.
func (m Index) Common(term string) (bool, error) {
	snap, err := m.snapshot()
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

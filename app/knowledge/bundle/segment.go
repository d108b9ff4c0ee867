package bundle

import (
	"fmt"
	"strconv"

	"tinyrag/app/knowledge/rank"
)

// segment is a bundle's index as one segment that ranking reads
// (rank.Segment): every chunk's lengths and place, from the figure shards,
// and the postings of the terms loaded so far. Ranking derives everything
// else (document lengths, field totals, ordinals) from these as it does
// for the in-memory index, so the two rank alike by construction. The
// owning Index guards it: postings are added under its write lock,
// rankings read under its read lock.
type segment struct {
	chunks    int
	bodyLens  []uint32
	titleLens []uint32
	// ord and n are each chunk's document ordinal and number in it;
	// docs[o] is ordinal o's id in DocID, its number in decimal.
	ord  []int32
	n    []int32
	docs []string
	// body and title hold the loaded terms' postings; a term whose shard
	// is loaded and that is not here has none.
	body, title map[string]postingList
}

// postingList is one term's postings in one field.
type postingList struct{ docs, freqs []uint32 }

var (
	_ rank.Segment    = (*segment)(nil)
	_ rank.ChunkTable = (*segment)(nil)
)

// newSegment lays out the figures of all documents, by ordinal.
func newSegment(docs []docFigures, chunks int) (*segment, error) {
	s := &segment{chunks: chunks, bodyLens: make([]uint32, 0, chunks), titleLens: make([]uint32, chunks),
		ord: make([]int32, 0, chunks), n: make([]int32, 0, chunks),
		body: map[string]postingList{}, title: map[string]postingList{}}
	for o, d := range docs {
		nums := slotNumbers(len(d.lens))
		for slot, l := range d.lens {
			if nums[slot] == 0 && len(s.ord) < chunks {
				s.titleLens[len(s.ord)] = d.titleLen
			}
			s.bodyLens = append(s.bodyLens, l)
			s.ord = append(s.ord, int32(o))
			s.n = append(s.n, nums[slot])
		}
	}
	if len(s.ord) != chunks {
		return nil, fmt.Errorf("%w: the figures list %d chunks, the manifest %d", ErrDamaged, len(s.ord), chunks)
	}
	// The ids are the ordinals as text, cut from one string: one
	// allocation rather than one a document.
	var digits []byte
	ends := make([]int, len(docs))
	for o := range docs {
		digits = strconv.AppendInt(digits, int64(o), 10)
		ends[o] = len(digits)
	}
	all := string(digits)
	s.docs = make([]string, len(docs))
	start := 0
	for o, end := range ends {
		s.docs[o], start = all[start:end], end
	}
	return s, nil
}

// add takes in one term's postings.
func (s *segment) add(tp *termPostings) {
	s.body[tp.term] = tp.body
	if len(tp.title.docs) > 0 {
		s.title[tp.term] = tp.title
	}
}

// Count implements rank.Segment.
func (s *segment) Count() uint64 { return uint64(s.chunks) }

// Postings implements rank.Segment.
func (s *segment) Postings(field, term string) (docs, freqs, lens []uint32) {
	switch field {
	case rank.FieldBody:
		p := s.body[term]
		return p.docs, p.freqs, s.bodyLens
	case rank.FieldTitle:
		p := s.title[term]
		return p.docs, p.freqs, s.titleLens
	}
	return nil, nil, nil
}

// ChunkTable implements rank.ChunkTable: the ids DocID writes, as
// tables.
func (s *segment) ChunkTable() (docs []string, ord, n []int32) { return s.docs, s.ord, s.n }

// Lengths implements rank.Segment.
func (s *segment) Lengths(field string) []uint32 {
	switch field {
	case rank.FieldBody:
		return s.bodyLens
	case rank.FieldTitle:
		return s.titleLens
	}
	return nil
}

// DocID implements rank.Segment: chunk n of the document with ordinal o
// is "o#n", so that ranking numbers the documents by their ordinals (it
// gives each new id the next one, in chunk order).
func (s *segment) DocID(num uint64) ([]byte, error) {
	if num >= uint64(s.chunks) {
		return nil, fmt.Errorf("bundle: chunk %d of %d", num, s.chunks)
	}
	b := strconv.AppendInt(nil, int64(s.ord[num]), 10)
	b = append(b, '#')
	return strconv.AppendInt(b, int64(s.n[num]), 10), nil
}

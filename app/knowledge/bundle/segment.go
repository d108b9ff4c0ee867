package bundle

import (
	"fmt"
	"strconv"

	"tinyrag/app/knowledge/rank"
)

// segment is a bundle's index as one segment that ranking reads
// (rank.Segment, rank.Sparse): the postings of the terms loaded so far
// and, for every chunk they name, its lengths and place and its
// document's figures, which arrive with the postings (postings.go). Its
// tables are as long as the bundle and filled in place; ranking reads
// them only for the chunks of postings, and takes the totals from the
// manifest. Ranking derives everything else (scores, idf, ordinals) from
// these numbers as it does for the in-memory index, so the two rank
// alike by construction. The owning Index guards it: postings are added
// under its write lock, rankings read under its read lock.
type segment struct {
	chunks    int
	bodyLens  []uint32
	titleLens []uint32
	// ord and n are each chunk's document ordinal and number in it;
	// docs[o] is ordinal o's id in DocID, its number in decimal.
	ord  []int32
	n    []int32
	docs []string
	// docLen and repeats are, by chunk, its document's length and how
	// many of the document's chunks repeat its title beyond the first.
	docLen  []uint32
	repeats []int32
	stats   Stats
	// body and title hold the loaded terms' postings; a term whose shard
	// is loaded and that is not here has none.
	body, title map[string]postingList
}

var (
	_ rank.Segment = (*segment)(nil)
	_ rank.Sparse  = (*segment)(nil)
)

// newSegment makes the empty tables of a bundle's chunks.
func newSegment(m *Manifest) *segment {
	n := m.Chunks
	s := &segment{chunks: n, bodyLens: make([]uint32, n), titleLens: make([]uint32, n),
		ord: make([]int32, n), n: make([]int32, n), docLen: make([]uint32, n), repeats: make([]int32, n),
		stats: m.Stats, body: map[string]postingList{}, title: map[string]postingList{}}
	s.docs = ordinalIDs(m.Docs)
	return s
}

// ordinalIDs returns the numbers 0 to n−1 as text, cut from one string:
// one allocation rather than one a document, counted up digit by digit
// rather than formatted one by one (the app makes these while a large
// site's first query may be waiting: 50,000 of them).
func ordinalIDs(n int) []string {
	size := 0
	for lo, width := 1, 1; lo <= n; lo, width = lo*10, width+1 {
		size += (min(n, lo*10) - lo) * width
	}
	digits := make([]byte, 0, size+1)
	ends := make([]int, n)
	cur := []byte{'0'}
	for o := range ends {
		digits = append(digits, cur...)
		ends[o] = len(digits)
		i := len(cur) - 1
		for i >= 0 && cur[i] == '9' {
			cur[i] = '0'
			i--
		}
		if i < 0 {
			cur = append([]byte{'1'}, cur...)
		} else {
			cur[i]++
		}
	}
	all := string(digits)
	ids := make([]string, n)
	start := 0
	for o, end := range ends {
		ids[o], start = all[start:end], end
	}
	return ids
}

// add takes in one term's postings and the figures of their chunks.
func (s *segment) add(tp *termPostings) {
	b := tp.body
	for i, c := range b.docs {
		s.bodyLens[c] = b.lens[i]
		s.ord[c], s.n[c] = b.ord[i], b.n[i]
		s.docLen[c], s.repeats[c] = b.docLen[i], b.repeats[i]
	}
	for i, c := range tp.title.docs {
		s.titleLens[c] = tp.title.lens[i]
	}
	s.body[tp.term] = b
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

// DocumentFigures implements rank.Sparse.
func (s *segment) DocumentFigures() (length []uint32, repeats []int32, docs int, tokens int64) {
	return s.docLen, s.repeats, len(s.docs), s.stats.DocTokens
}

// FieldTotals implements rank.Sparse from the manifest.
func (s *segment) FieldTotals(field string) rank.FieldTotals {
	st := s.stats.Body
	if field == rank.FieldTitle {
		st = s.stats.Title
	}
	return rank.FieldTotals{Tokens: st.Tokens, Chunks: st.Chunks}
}

// Lengths implements rank.Segment: only the chunks of the postings
// loaded have theirs.
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
// is "o#n". Only the chunks of the postings loaded have theirs.
func (s *segment) DocID(num uint64) ([]byte, error) {
	if num >= uint64(s.chunks) {
		return nil, fmt.Errorf("bundle: chunk %d of %d", num, s.chunks)
	}
	b := strconv.AppendInt(nil, int64(s.ord[num]), 10)
	b = append(b, '#')
	return strconv.AppendInt(b, int64(s.n[num]), 10), nil
}

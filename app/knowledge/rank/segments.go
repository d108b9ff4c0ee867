package rank

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
)

// What the ranker learns of each segment once: which document each
// chunk belongs to (dense ordinals for the accumulator), and the
// postings it reads from it.

// segInfo maps a segment's chunk numbers to documents: the document's
// ordinal (a dense number, for array-indexed bookkeeping) and the chunk's
// number in it. Reading stored ids for every ranked chunk of every query
// would cost more than the scoring; segments are immutable, so this never
// goes stale.
type segInfo struct {
	ord []int32
	n   []int32
	// parts, computed on first need, are the whole-document facts.
	parts *docParts
	// totals, computed on first need, are each field's summed lengths.
	totals map[string]FieldTotals
}

// flatPostings is one term's postings in one segment field: ascending
// segment-local chunk numbers, the term's frequency in each, and the
// field's length by chunk number. The slices are the segment's own, so
// ranking reads postings without copying them.
type flatPostings struct {
	doc, tf, lens []uint32
}

// count is how many postings are not deleted.
func (fp flatPostings) count(deleted *roaring.Bitmap) uint64 {
	if deleted == nil {
		return uint64(len(fp.doc))
	}
	n := uint64(0)
	for _, d := range fp.doc {
		if !deleted.Contains(d) {
			n++
		}
	}
	return n
}

// postingsOf returns term's postings in field of seg.
func postingsOf(seg Segment, field, term string) (flatPostings, error) {
	doc, tf, lens := seg.Postings(field, term)
	return flatPostings{doc, tf, lens}, nil
}

// segmentInfo returns what the ranker knows of seg, learning it on first
// sight: it reads every chunk's id and gives each new document the next
// ordinal.
func (r *Ranker) segmentInfo(seg Segment) (*segInfo, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if info, ok := r.infos[seg]; ok {
		return info, nil
	}
	count := seg.Count()
	if sp, ok := seg.(Sparse); ok {
		info, err := r.sparseInfo(sp, count)
		if err != nil {
			return nil, err
		}
		r.infos[seg] = info
		return info, nil
	}
	info := &segInfo{ord: make([]int32, count), n: make([]int32, count)}
	if ct, ok := seg.(ChunkTable); ok {
		if err := r.tableInfo(ct, info); err != nil {
			return nil, err
		}
	} else {
		for i := uint64(0); i < count; i++ {
			id, err := seg.DocID(i)
			if err != nil {
				return nil, fmt.Errorf("rank: read chunk id: %w", err)
			}
			doc, num, _ := strings.Cut(string(id), "#")
			n, _ := strconv.Atoi(num)
			info.ord[i], info.n[i] = r.ordinal(doc), int32(n)
		}
	}
	r.infos[seg] = info
	return info, nil
}

// ordinal returns doc's ordinal, giving a document seen for the first
// time the next one. r.mu is held.
func (r *Ranker) ordinal(doc string) int32 {
	if r.ordinals == nil {
		// tableInfo numbered a first segment's documents without the map.
		r.ordinals = make(map[string]int32, len(r.ordDocs)+1)
		for o, d := range r.ordDocs {
			r.ordinals[d] = int32(o)
		}
	}
	o, ok := r.ordinals[doc]
	if !ok {
		o = int32(len(r.ordDocs))
		r.ordinals[doc] = o
		r.ordDocs = append(r.ordDocs, doc)
	}
	return o
}

// tableInfo fills info from a segment's chunk table, numbering the
// documents exactly as segmentInfo does from the ids: each new document
// takes the next ordinal when its first chunk comes. r.mu is held.
func (r *Ranker) tableInfo(ct ChunkTable, info *segInfo) error {
	docs, ord, n := ct.ChunkTable()
	if len(ord) != len(info.ord) || len(n) != len(info.n) {
		return fmt.Errorf("rank: the chunk table lists %d and %d chunks, the segment holds %d", len(ord), len(n), len(info.ord))
	}
	if len(r.ordDocs) == 0 {
		if seen, ok := inTableOrder(ord, len(docs)); ok {
			// A bundle's one segment, whose table lists the documents in
			// the order of their first chunks: the ordinals ordinal would
			// give are the table's own numbers. The map from id to ordinal
			// (some 50,000 entries for a large site) is built only if
			// another segment comes (ordinal).
			r.ordinals = nil
			r.ordDocs = docs[:seen:seen]
			copy(info.ord, ord)
			copy(info.n, n)
			return nil
		}
		r.ordinals = make(map[string]int32, len(docs))
		r.ordDocs = make([]string, 0, len(docs))
	}
	global := make([]int32, len(docs))
	for i := range global {
		global[i] = -1
	}
	for i, l := range ord {
		if l < 0 || int(l) >= len(docs) {
			return fmt.Errorf("rank: chunk %d names document %d of %d", i, l, len(docs))
		}
		if global[l] < 0 {
			global[l] = r.ordinal(docs[l])
		}
		info.ord[i], info.n[i] = global[l], n[i]
	}
	return nil
}

// sparseInfo takes a sparse segment's tables as they are (Sparse): its
// documents' ordinals are the table's numbers, and the chunks' entries
// fill in as postings arrive. It must be the ranker's only segment: an
// ordinal's meaning would differ between segments. r.mu is held.
func (r *Ranker) sparseInfo(sp Sparse, count uint64) (*segInfo, error) {
	docs, ord, n := sp.ChunkTable()
	if uint64(len(ord)) != count || uint64(len(n)) != count {
		return nil, fmt.Errorf("rank: the chunk table lists %d and %d chunks, the segment holds %d", len(ord), len(n), count)
	}
	if len(r.ordDocs) > 0 {
		return nil, errors.New("rank: a sparse segment must be an index's only one")
	}
	r.ordinals = nil
	r.ordDocs = docs[:len(docs):len(docs)]
	length, repeats, ndocs, tokens := sp.DocumentFigures()
	if uint64(len(length)) != count || uint64(len(repeats)) != count || ndocs != len(docs) {
		return nil, fmt.Errorf("rank: the document figures list %d and %d chunks and %d documents, the segment %d chunks and %d documents", len(length), len(repeats), ndocs, count, len(docs))
	}
	return &segInfo{ord: ord, n: n,
		parts:  &docParts{length: length, repeats: repeats, docs: ndocs, tokens: tokens},
		totals: map[string]FieldTotals{FieldBody: sp.FieldTotals(FieldBody), FieldTitle: sp.FieldTotals(FieldTitle)}}, nil
}

// inTableOrder reports whether each chunk's document (ord) is one an
// earlier chunk named or the next of the table's docs, and how many
// documents the chunks name then.
func inTableOrder(ord []int32, docs int) (seen int, ok bool) {
	for _, l := range ord {
		switch {
		case l < 0 || int(l) >= docs || int(l) > seen:
			return 0, false
		case int(l) == seen:
			seen++
		}
	}
	return seen, true
}

func (r *Ranker) ordinalDocs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ordDocs
}

// DocOrder returns the ids of ix's documents by ordinal: the order in
// which ties between equal scores are broken. A site bundle keeps it, so
// that its ranking breaks ties as the index it was built from does.
func (r *Ranker) DocOrder(ix Index) ([]string, error) {
	view, err := ix.View()
	if err != nil {
		return nil, err
	}
	defer view.Release()
	for _, ss := range view.Segments {
		if _, err := r.segmentInfo(ss.Segment); err != nil {
			return nil, err
		}
	}
	return append([]string(nil), r.ordinalDocs()...), nil
}

// forgetSegments drops the segment infos of segments no longer in the
// index.
func (r *Ranker) forgetSegments(live []Segment) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.infos) <= len(live) {
		return
	}
	keep := make(map[Segment]*segInfo, len(live))
	for _, s := range live {
		if info, ok := r.infos[s]; ok {
			keep[s] = info
		}
	}
	r.infos = keep
}

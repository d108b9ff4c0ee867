package rank

import (
	"math"
	"math/bits"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
)

// The accumulator: a query's scores, term at a time, in dense arrays
// indexed by chunk and by document ordinal, reused between queries.

// accum holds per-query scratch space, reused through a pool.
type accum struct {
	body    []float64 // by global doc number (chunk)
	title   []float64 // by global doc number (first chunks only)
	matched []float64 // query weight matched in the current field, by global doc number
	ftouch  []uint32  // doc numbers touched in the current field
	// scored marks, a bit a chunk, the chunks given a body or title
	// score: what the documents are chosen from, in chunk order, and
	// what clear zeroes. A large site's query scores a few thousand of
	// its hundreds of thousands of chunks.
	scored []uint64

	// By document ordinal: best and runner-up chunk body scores and their
	// chunk numbers, and the title bonus.
	best, second, bonus []float64
	bestN, secondN      []int32
	seen                []bool
	dtouch              []int32

	// Whole-document score (docscore.go), by document ordinal: one
	// term's frequency summed over the chunks and in the title, the
	// documents holding it, and the documents' scores and matched weight.
	dtf, ttf, dscore, dmatched []float64
	tdocs                      []docHit
	dscoreTouch                []int32

	// Reciprocal rank fusion (fusion.go): each document's fused score
	// by ordinal, and scratch space to sort the touched documents in.
	fused []float64
	order []rankKey
}

var accumPool = sync.Pool{New: func() any { return new(accum) }}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// reset sizes the arrays; they are all zero between queries (clear).
func (a *accum) reset(chunks, docs int) {
	a.body = grow(a.body, chunks)
	a.title = grow(a.title, chunks)
	a.matched = grow(a.matched, chunks)
	a.scored = grow(a.scored, (chunks+63)/64)
	a.best = grow(a.best, docs)
	a.second = grow(a.second, docs)
	a.bonus = grow(a.bonus, docs)
	a.bestN = grow(a.bestN, docs)
	a.secondN = grow(a.secondN, docs)
	a.seen = grow(a.seen, docs)
	a.dtf = grow(a.dtf, docs)
	a.ttf = grow(a.ttf, docs)
	a.dscore = grow(a.dscore, docs)
	a.dmatched = grow(a.dmatched, docs)
	a.fused = grow(a.fused, docs)
}

// clear zeroes what a query touched, even one that stopped half-way.
func (a *accum) clear() {
	for lo := 0; lo < len(a.scored); lo += chooseWords {
		a.clearScored(lo, min(lo+chooseWords, len(a.scored)))
	}
	for _, n := range a.ftouch {
		a.matched[n] = 0
	}
	a.ftouch = a.ftouch[:0]
	for _, o := range a.dtouch {
		a.best[o], a.second[o], a.bonus[o], a.seen[o], a.fused[o] = 0, 0, 0, false, 0
		// A document matched by its title bonus alone keeps bestN as it
		// is: it must be its first chunk (0), where the title is indexed,
		// not the chunk of an earlier query's ranking.
		a.bestN[o], a.secondN[o] = 0, 0
	}
	a.dtouch = a.dtouch[:0]
	for _, t := range a.tdocs {
		a.dtf[t.ord], a.ttf[t.ord] = 0, 0
	}
	a.tdocs = a.tdocs[:0]
	for _, o := range a.dscoreTouch {
		a.dscore[o], a.dmatched[o] = 0, 0
	}
	a.dscoreTouch = a.dscoreTouch[:0]
}

// clearScored zeroes the scores of the chunks marked in words lo to hi
// of the scored bitset, and the words (in blocks, as chooseChunks).
//
//go:noinline
func (a *accum) clearScored(lo, hi int) {
	for w := lo; w < hi; w++ {
		for word := a.scored[w]; word != 0; word &= word - 1 {
			c := w<<6 | bits.TrailingZeros64(word)
			a.body[c], a.title[c] = 0, 0
		}
		a.scored[w] = 0
	}
}

// The loops over postings and chunks below are functions of their own,
// kept out of rankTerms (rank.go): in the browser, V8 runs a wasm
// function first as baseline code and swaps in optimised code only when
// the function is next called (it cannot switch a running call). Inside one large
// rankTerms a query's every loop ran as baseline code (a first query on
// a large site ranked in about 90 ms, against 9 natively); called once
// a term, these are optimised after the first few terms, and are small
// enough to be optimised quickly.

// scorePostings adds one term's score in a field to into for each chunk
// of its postings fp in a segment whose chunks start at off: w is the
// term's weight, m its share of the query's clauses, dl BM25+'s δ (0 but
// in the body).
//
//go:noinline
func (a *accum) scorePostings(into []float64, fp flatPostings, del *roaring.Bitmap, off uint32, w, m, dl float64, n *fieldNorm) {
	for j, d := range fp.doc {
		if del != nil && del.Contains(d) {
			continue
		}
		tf := n.bm.tf(fp.tf[j])
		ln := n.of(fp.lens[d])
		c := off + d
		if a.matched[c] == 0 {
			a.ftouch = append(a.ftouch, c)
			a.scored[c>>6] |= 1 << (c & 63)
		}
		into[c] += w * (tf*n.sat/(tf+ln) + dl)
		a.matched[c] += m
	}
}

// scoreDocuments adds one term's whole-document score (weight dw, share
// of the clauses m) to each document that holds it (a.tdocs, with the
// term's frequencies in a.dtf and a.ttf, which it zeroes), when score
// is set; docAvgLen is the documents' average length.
//
//go:noinline
func (a *accum) scoreDocuments(parts []*docParts, dw, m float64, bm bm25, score bool, docAvgLen, delta float64) {
	sat := bm.saturation()
	for _, t := range a.tdocs {
		tf := max(1, a.dtf[t.ord]-float64(parts[t.seg].repeats[t.local])*a.ttf[t.ord])
		if bm.bleve {
			tf = math.Sqrt(tf)
		}
		if score {
			ln := bm.lengthNorm(float64(parts[t.seg].length[t.local]), docAvgLen)
			if a.dmatched[t.ord] == 0 {
				a.dscoreTouch = append(a.dscoreTouch, t.ord)
			}
			a.dscore[t.ord] += dw * (tf*sat/(tf+ln) + delta)
			a.dmatched[t.ord] += m
		}
		a.dtf[t.ord], a.ttf[t.ord] = 0, 0
	}
	a.tdocs = a.tdocs[:0]
}

// coordField scales the field's score (into) of each chunk it touched
// by the share of the query's clauses the chunk matched (bleve's coord
// factor).
//
//go:noinline
func (a *accum) coordField(into []float64, bm bm25, clauses float64) {
	for _, c := range a.ftouch {
		into[c] *= bm.coord(a.matched[c], clauses)
		a.matched[c] = 0
	}
	a.ftouch = a.ftouch[:0]
}

// chooseWords is how many words of the scored bitset (64 chunks each)
// chooseChunks takes at a time: a large site's query calls it dozens of
// times, so that V8 optimises it after the first few calls (see above).
const chooseWords = 64

// chooseChunks gives each document with a scored chunk among words lo to
// hi of the bitset its best and runner-up chunk by body score and its
// title bonus, in chunk order (so that the earlier of two equal chunks
// is best). offsets are where each segment's chunks start, infos map
// them to documents; seg is the segment of the first chunk (or an
// earlier one), and it returns the segment of the last.
//
//go:noinline
func (a *accum) chooseChunks(lo, hi, seg int, offsets []uint64, infos []*segInfo) int {
	for w := lo; w < hi; w++ {
		for word := a.scored[w]; word != 0; word &= word - 1 {
			g := uint64(w<<6 | bits.TrailingZeros64(word))
			sc, tb := a.body[g], a.title[g]
			if sc == 0 && tb == 0 {
				continue
			}
			for g >= offsets[seg+1] {
				seg++
			}
			local := g - offsets[seg]
			o, n := infos[seg].ord[local], infos[seg].n[local]
			if !a.seen[o] {
				a.seen[o] = true
				a.dtouch = append(a.dtouch, o)
			}
			a.bonus[o] += tb
			switch {
			case sc == 0:
			case sc > a.best[o]:
				a.second[o], a.secondN[o] = a.best[o], a.bestN[o]
				a.best[o], a.bestN[o] = sc, n
			case sc > a.second[o]:
				a.second[o], a.secondN[o] = sc, n
			}
		}
	}
	return seg
}

// docHit is a document matched by the current term: its ordinal and where
// one of its chunks is (segment and local number), for its parts.
type docHit struct {
	ord   int32
	seg   int32
	local uint32
}

// documentFrequencies walks a term's body postings (lists) and gathers,
// in a.tdocs, each live document holding it, with the term's frequency
// summed over the document's chunks in a.dtf. With titles, it also reads
// the term's title postings into titles[ti] and the term's frequency in
// each document's title into a.ttf.
func (a *accum) documentFrequencies(live []Segment, infos []*segInfo, lists []flatPostings, deleted []*roaring.Bitmap, titles [][]flatPostings, ti int, term string) error {
	for i := range lists {
		info, del := infos[i], deleted[i]
		fp := lists[i]
		for j, d := range fp.doc {
			if del != nil && del.Contains(d) {
				continue
			}
			o := info.ord[d]
			if a.dtf[o] == 0 {
				a.tdocs = append(a.tdocs, docHit{o, int32(i), d})
			}
			a.dtf[o] += float64(fp.tf[j])
		}
		if titles == nil {
			continue
		}
		tp, err := postingsOf(live[i], FieldTitle, term)
		if err != nil {
			return err
		}
		titles[ti][i] = tp
		for j, d := range tp.doc {
			if del != nil && del.Contains(d) {
				continue
			}
			if o := info.ord[d]; a.dtf[o] > 0 {
				a.ttf[o] = float64(tp.tf[j])
			}
		}
	}
	return nil
}

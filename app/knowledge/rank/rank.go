// Package rank scores a knowledge index's chunks and documents for a query
// and returns the best documents, each with its best chunk: BM25 over
// chunks (bm25.go), whole-document score (docscore.go), pseudo-relevance
// feedback (feedback.go), term proximity (proximity.go) and the fusion of
// the two representations (fusion.go).
//
// It reads an index through a small interface (Index, Segment), so the
// same code ranks the visitor's in-memory index (scorch with flat
// segments) and a site bundle read shard by shard over the network: the
// two rank exactly alike because they are ranked by the same code from the
// same numbers.
package rank

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
)

// Why not bleve's query searchers: profiling SciFact queries (claims of a
// dozen terms, OR semantics) showed most time in bleve's generic searcher
// stack — disjunction heaps, per-posting DocumentMatch objects, the TopN
// collector — not in reading postings; in WASM a query took ~20 ms of CPU.
// rank scores term-at-a-time straight from the postings of each segment
// into a dense accumulator, several times faster. The formula is
// Robertson's BM25 by default, or bleve's own (bm25.go), the one its
// BooleanQuery{must: match(body), should: match(title)^boost} computes, so
// that rankings can still be what bleve would give.

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

// queryTerm is one term of a query and its weight: how often the term
// occurs in the query as typed (each token is one clause, as in bleve's
// match query), or its share of an expanded query (feedback.go).
type queryTerm struct {
	term   string
	weight float64
}

// queryTokens analyses q, counting repeated terms.
func (r *Ranker) queryTokens(q string) []queryTerm {
	var terms []queryTerm
	seen := map[string]int{}
	for _, t := range r.cfg.Analyzer.Analyze([]byte(q)) {
		s := string(t.Term)
		if i, ok := seen[s]; ok {
			terms[i].weight++
		} else {
			seen[s] = len(terms)
			terms = append(terms, queryTerm{s, 1})
		}
	}
	return terms
}

// sqrtTF caches √tf for small term frequencies, as bleve does.
var sqrtTF = func() (t [64]float64) {
	for i := range t {
		t[i] = math.Sqrt(float64(i))
	}
	return t
}()

// Rank returns the best k documents of ix for q, best first, each with
// its best chunk; with feedback on, for the query expanded from a first
// ranking.
func (r *Ranker) Rank(ctx context.Context, ix Index, q string, k int) ([]Result, error) {
	return r.rank(ctx, ix, r.queryTokens(q), k)
}

// rank ranks for analysed terms.
func (r *Ranker) rank(ctx context.Context, ix Index, terms []queryTerm, k int) ([]Result, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	prox := r.cfg.Proximity.on(len(terms))
	depth := k
	if prox {
		depth = max(k, r.cfg.Proximity.Depth)
	}
	var stats bodyStats
	final := terms
	fb := r.cfg.Feedback
	if fb.on(len(terms)) {
		first, err := r.rankTerms(ctx, ix, terms, max(depth, fb.Docs), &stats)
		if err != nil || len(first) == 0 {
			return first, err
		}
		var expanded bool
		if final, expanded, err = r.expand(ctx, ix, terms, first[:min(fb.Docs, len(first))]); err != nil {
			return nil, err
		}
		if !expanded {
			// Nothing to expand with: the first ranking is the answer.
			if !prox {
				return first[:min(k, len(first))], nil
			}
			return r.proximityRerank(ctx, ix, terms, first, stats, k)
		}
	}
	ranked, err := r.rankTerms(ctx, ix, final, depth, &stats)
	if err != nil || !prox {
		return ranked, err
	}
	return r.proximityRerank(ctx, ix, terms, ranked, stats, k)
}

// bodyStats are the body field's statistics of one ranking: each term's
// idf and the average chunk length.
type bodyStats struct {
	idf    map[string]float64
	avgLen float64
}

// rankTerms ranks documents for weighted terms; stats, if not nil, gets
// the body field's statistics.
func (r *Ranker) rankTerms(ctx context.Context, ix Index, terms []queryTerm, k int, stats *bodyStats) ([]Result, error) {
	clauses := 0.0
	names := make([]string, len(terms))
	for i, t := range terms {
		clauses += t.weight
		names[i] = t.term
	}
	if f, ok := ix.(Fetcher); ok {
		if err := f.FetchTerms(ctx, names); err != nil {
			return nil, err
		}
	}
	view, err := ix.View()
	if err != nil {
		return nil, err
	}
	defer view.Release()
	segs := view.Segments
	offsets := make([]uint64, len(segs)+1)
	live := make([]Segment, len(segs))
	for i, ss := range segs {
		live[i] = ss.Segment
		offsets[i+1] = offsets[i] + ss.Segment.Count()
	}
	total := offsets[len(segs)]
	docCount := view.Chunks
	if docCount == 0 {
		return nil, nil
	}
	r.forgetSegments(live)
	infos := make([]*segInfo, len(segs))
	for i := range segs {
		if infos[i], err = r.segmentInfo(live[i]); err != nil {
			return nil, err
		}
	}
	ords := r.ordinalDocs()
	deleted := make([]*roaring.Bitmap, len(segs))
	for i, ss := range segs {
		if d := ss.Deleted; d != nil && !d.IsEmpty() {
			deleted[i] = d
		}
	}
	scoring := r.cfg.Scoring
	// Document-level statistics, when anything needs them.
	perDoc := scoring.documentScore() || scoring.documentIDF()
	var parts []*docParts
	liveDocs := 0
	var liveDocTokens int64
	if perDoc {
		parts = make([]*docParts, len(segs))
		for i := range segs {
			if parts[i], err = r.documentParts(live[i], infos[i]); err != nil {
				return nil, err
			}
			n, tokens := liveDocuments(parts[i], infos[i], deleted[i])
			liveDocs += n
			liveDocTokens += tokens
		}
	}
	bm := scoring.Formula.params()

	a := r.takeAccum()
	a.reset(int(total), len(ords))
	// The arrays are cleared for the next query after this one has its
	// results: in the browser, while its fragments download.
	defer func() {
		go func() {
			a.clear()
			r.putAccum(a)
		}()
	}()

	fields := []struct {
		name  string
		boost float64
		into  []float64
	}{{FieldBody, 1, a.body}, {FieldTitle, r.cfg.TitleBoost, a.title}}
	lists := make([]flatPostings, len(segs))
	// The title postings the whole-document score reads, by query term
	// and segment, kept for the title field's own pass.
	var titles [][]flatPostings
	if perDoc && scoring.documentScore() {
		titles = make([][]flatPostings, len(terms))
	}
	// BM25+'s δ on the formula's scale (bleve's tf part peaks at k1, not
	// k1+1).
	delta := scoring.Delta * bm.saturation() / (bm.k1 + 1)
	norm := fieldNorm{bm: bm, sat: bm.saturation()}
	for _, f := range fields {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f.boost <= 0 {
			continue // the title bonus is off
		}
		body := f.name == FieldBody
		// n is the number of units (chunks) a field's idf counts.
		var avgLen, docAvgLen float64
		n := float64(docCount)
		if bm.bleve {
			card, err := view.Cardinality(f.name)
			if err != nil {
				return nil, fmt.Errorf("knowledge: field statistics: %w", err)
			}
			avgLen = math.Ceil(float64(card) / float64(docCount))
			if body && perDoc && liveDocs > 0 {
				// The same (bleve's) average, over documents.
				docAvgLen = math.Ceil(float64(card) / float64(liveDocs))
			}
		} else {
			// Lucene's statistics: tokens per chunk that has the field,
			// which also counts the units of the field's idf.
			var tot FieldTotals
			for i := range segs {
				t, err := r.liveFieldTotals(live[i], infos[i], f.name, deleted[i])
				if err != nil {
					return nil, err
				}
				tot.Tokens += t.Tokens
				tot.Chunks += t.Chunks
			}
			if tot.Chunks > 0 {
				avgLen, n = float64(tot.Tokens)/float64(tot.Chunks), float64(tot.Chunks)
			}
			if body && perDoc && liveDocs > 0 {
				docAvgLen = float64(liveDocTokens) / float64(liveDocs)
			}
		}
		if avgLen <= 0 {
			continue
		}
		if stats != nil && body {
			stats.avgLen = avgLen
			stats.idf = map[string]float64{}
		}
		norm.reset(avgLen)
		for ti, qt := range terms {
			var df uint64
			for i := range segs {
				var fp flatPostings
				if !body && titles != nil {
					if titles[ti] == nil {
						break // no chunk has the term
					}
					fp = titles[ti][i]
				} else if fp, err = postingsOf(live[i], f.name, qt.term); err != nil {
					return nil, err
				}
				lists[i] = fp
				df += fp.count(deleted[i])
			}
			if df == 0 {
				continue
			}
			// Lucene's idf; bleve's formula squares it (bm25.weight).
			idf := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
			var docIDF float64
			if body && perDoc {
				if titles != nil {
					titles[ti] = make([]flatPostings, len(segs))
				}
				if err := a.documentFrequencies(live, infos, lists, deleted, titles, ti, qt.term); err != nil {
					return nil, err
				}
				ddf := float64(len(a.tdocs))
				docIDF = math.Log(1 + (float64(liveDocs)-ddf+0.5)/(ddf+0.5))
				if scoring.documentIDF() {
					idf = docIDF
				}
			}
			if stats != nil && body {
				stats.idf[qt.term] = idf
			}
			w := f.boost * bm.weight(idf) * qt.weight
			m := qt.weight
			var dl float64
			if body {
				dl = delta
			}
			for i := range segs {
				a.scorePostings(f.into, lists[i], deleted[i], uint32(offsets[i]), w, m, dl, &norm)
			}
			if body && perDoc {
				// The whole document, scored by the same formula.
				a.scoreDocuments(parts, bm.weight(docIDF)*qt.weight, m, bm, scoring.documentScore(), docAvgLen, delta)
			}
		}
		a.coordField(f.into, bm, clauses)
	}
	// A document ranks by its best chunk's body score plus its title
	// bonus (the title is indexed with the first chunk only) and, unless
	// off, its whole-document score (docscore.go).
	for lo, seg := 0, 0; lo < len(a.scored); lo += chooseWords {
		seg = a.chooseChunks(lo, min(lo+chooseWords, len(a.scored)), seg, offsets, infos)
	}

	// The whole document's score, with its own coord factor: added to
	// the best chunk's (CombSUM), or fused with it by rank.
	final := a.combSUM
	if scoring.Fusion == FusionRRF && scoring.documentScore() {
		for _, o := range a.dscoreTouch {
			a.dscore[o] *= bm.coord(a.dmatched[o], clauses)
		}
		a.fuseRanks()
		final = a.rrf
	} else {
		for _, o := range a.dscoreTouch {
			a.bonus[o] += a.dscore[o] * bm.coord(a.dmatched[o], clauses)
		}
	}
	h := &minHeap{}
	for _, o := range a.dtouch {
		sc := final(o)
		if h.Len() < k {
			heap.Push(h, hnode{uint32(o), sc})
		} else if sc > (*h)[0].score || (sc == (*h)[0].score && uint32(o) < (*h)[0].n) {
			(*h)[0] = hnode{uint32(o), sc}
			heap.Fix(h, 0)
		}
	}
	out := make([]Result, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		top := heap.Pop(h).(hnode)
		o := int32(top.n)
		res := Result{Doc: Doc{Ord: o, ID: ords[o]}, Chunk: int(a.bestN[o]), Score: top.score, Neighbour: -1}
		if a.second[o] > 0 && (a.secondN[o] == a.bestN[o]-1 || a.secondN[o] == a.bestN[o]+1) {
			res.Neighbour = int(a.secondN[o])
		}
		out[i] = res
	}
	return out, nil
}

// The loops over postings and chunks below are functions of their own,
// kept out of rankTerms: in the browser, V8 runs a wasm function first
// as baseline code and swaps in optimised code only when the function
// is next called (it cannot switch a running call). Inside one large
// rankTerms a query's every loop ran as baseline code (a first query on
// a large site ranked in about 90 ms, against 9 natively); called once
// a term, these are optimised after the first few terms, and are small
// enough to be optimised quickly.

// fieldNorm is what scoring a field's postings needs beside the term:
// the formula, its saturation, and k1·(1−b+b·len/avg) by field length,
// filled in as lengths are met.
type fieldNorm struct {
	bm     bm25
	sat    float64
	avgLen float64
	byLen  [512]float64
}

// reset starts a field of average length avgLen.
func (n *fieldNorm) reset(avgLen float64) {
	n.avgLen = avgLen
	clear(n.byLen[:])
}

// of returns k1·(1−b+b·fieldLen/avg).
func (n *fieldNorm) of(fieldLen uint32) float64 {
	if fieldLen < uint32(len(n.byLen)) {
		ln := n.byLen[fieldLen]
		if ln == 0 {
			ln = n.bm.lengthNorm(float64(fieldLen), n.avgLen)
			n.byLen[fieldLen] = ln
		}
		return ln
	}
	return n.bm.lengthNorm(float64(fieldLen), n.avgLen)
}

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

type hnode struct {
	n     uint32
	score float64
}

// minHeap keeps the weakest of the best at the top; among equal scores the
// later document is weaker, so ties break by index order.
type minHeap []hnode

// Len, Less, Swap, Push and Pop implement heap.Interface.
func (h minHeap) Len() int { return len(h) }
func (h minHeap) Less(i, j int) bool {
	if h[i].score != h[j].score {
		return h[i].score < h[j].score
	}
	return h[i].n > h[j].n
}
func (h minHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)   { *h = append(*h, x.(hnode)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
